package lace

// unreachable are the Lace rules the reference names in code that no input
// can make it report (steps.Wing.Unreachable). Their feature rules have
// passing scenarios that show what bytes can show.
var unreachable = map[string]string{
	"LACE-CTOR-01": "fault injection only: construct.go refuses the empty specification only while LACE-CTOR-01 is switched off; otherwise it builds the empty Blob",
	"LACE-CTOR-02": "fault injection only: construct.go refuses data without fields only while LACE-CTOR-02 is switched off; otherwise it builds the Blob",
	"LACE-DIR-10":  "redundant: a directory name is the link data of a field value, which LACE-FIELD-06/07 require to be UTF-8 NFC, and the name ends before an ASCII space (a starter that composes with nothing), so it is NFC too; a non-NFC name is rejected by LACE-FIELD-07 first",
	"LACE-DIR-13":  "redundant: field values hold no C0 or DEL bytes (LACE-FIELD-09/10), so a name with one is rejected by the field-line rules first",
	"LACE-DIR-31":  "a cycle of H3 links needs a record whose own BLAKE3 digest its links reach, a BLAKE3 preimage; no record stream can hold one (impl/lace/convention's tests build cycles with a store that does not key records by their hashes)",
}
