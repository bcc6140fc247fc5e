package hiverelay

import (
	"github.com/threespec/conformance/impl/cenc"
	"github.com/threespec/conformance/impl/manifest"
	"github.com/threespec/conformance/impl/rules"
)

// Named mutants of the codecs, the artifact and the hashes: classic
// implementation mistakes the reference can be switched into through its
// rules.Checks (tests and `conform prove` only), to show that the vectors
// catch each one. Every branch is on a cold path: once per record, field or
// array, never per byte.
const (
	MutBlobClassFromLength rules.ID = "MUT-HR-BLOB-CLASS-FROM-LENGTH"
	MutSizeClass6          rules.ID = "MUT-HR-SIZE-CLASS-6-ACCEPTED"
	MutKeysAdjacentOnly    rules.ID = "MUT-HR-PRIVATE-KEYS-ADJACENT-ONLY"
	MutCapsByRelayKey      rules.ID = "MUT-HR-CAPS-SORTED-BY-RELAY-KEY-ONLY"
	MutFrontier1025        rules.ID = "MUT-HR-FRONTIER-LIMIT-1025"
	MutPayload262145       rules.ID = "MUT-HR-PAYLOAD-LIMIT-262145"
	MutPayloadRequired     rules.ID = "MUT-HR-FRAME-PAYLOAD-REQUIRED"
	MutHashWithoutLength   rules.ID = "MUT-HR-HASH-WITHOUT-LENGTH"
	MutSpecFinalLFLastByte rules.ID = "MUT-HR-SPEC-FINAL-LF-LAST-BYTE-ONLY"
	MutSpecBOMAnywhere     rules.ID = "MUT-HR-SPEC-BOM-ANYWHERE"
)

var mutant = cenc.HiveRelayMutant

// Mutants returns the named mutants of the HiveRelay reference: those of
// the primitives (cenc.Mutants), of the manifest framing
// (manifest.Mutants) and of this package.
func Mutants() []rules.Mutant {
	var m []rules.Mutant
	m = append(m, cenc.Mutants()...)
	m = append(m,
		mutant(MutBlobClassFromLength, "A CellBlobV1 is decoded with the class its length gives, ignoring the authenticated class it is decoded with."),
		mutant(MutSizeClass6, "A ReadCellCapV1 size class of 6 is accepted (off by one at the upper bound 5)."),
		mutant(MutKeysAdjacentOnly, "The three WriteCellCapV1 private keys are compared only with their neighbour, so createPrivateKey equal to dropPrivateKey is accepted."),
		mutant(MutCapsByRelayKey, "Read capabilities are sorted by relayPublicKey alone, so two capabilities of one relay are refused as duplicates, whatever their storage slots."),
		mutant(MutFrontier1025, "A checkpoint frontier of 1025 entries is accepted (off by one at the upper bound 1024)."),
		mutant(MutPayload262145, "A frame payload of 262145 bytes is accepted (off by one at the upper bound 262144)."),
		mutant(MutPayloadRequired, "A frame without a payload is refused even when it carries a checkpoint (the checkpoint is not counted)."),
		mutant(MutHashWithoutLength, "Both authority hashes are computed over the domain string and the bytes, without the U64BE length between them."),
		mutant(MutSpecFinalLFLastByte, "The spec bytes' final LF is checked by the last byte alone, so a spec ending in two LFs is accepted."),
		mutant(MutSpecBOMAnywhere, "U+FEFF is refused anywhere in the spec bytes, not only at their start where it is a byte order mark."),
	)
	m = append(m, manifest.Mutants()...)
	return m
}
