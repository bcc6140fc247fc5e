package lace

import (
	"fmt"

	"github.com/threespec/conformance/impl/rules"
)

// Named mutants (issue #8, "prove the suite catches what it claims"): classic
// mistakes of Lace implementations, each of which a rules.Checks can switch
// on in the reference under its ID so that `conform prove` shows a vector
// catches it. They are not rule switches: each is a wrong piece of code a
// real reader or constructor could have. docs/lace.md lists them with the
// vectors that catch them.
const (
	MutLineLimit129       rules.ID = "MUT-LACE-LINE-LIMIT-129"
	MutCRLFAccepted       rules.ID = "MUT-LACE-CRLF-ACCEPTED"
	MutDataLengthZeros    rules.ID = "MUT-LACE-DATA-LENGTH-LEADING-ZEROS"
	MutBlobLimitPlus1     rules.ID = "MUT-LACE-BLOB-LIMIT-PLUS-1"
	MutHashFromGlyphLF    rules.ID = "MUT-LACE-HASH-FROM-GLYPH-LF"
	MutValuesTrimmed      rules.ID = "MUT-LACE-VALUES-TRIMMED"
	MutLinkFirstSpace     rules.ID = "MUT-LACE-LINK-SPLIT-FIRST-SPACE"
	MutMarkOverBlob       rules.ID = "MUT-LACE-MARK-OVER-BLOB"
	MutEnvelopeAnyOrder   rules.ID = "MUT-LACE-SEAL-ENVELOPE-ANY-ORDER"
	MutOrderCaseFold      rules.ID = "MUT-LACE-ORDER-CASE-INSENSITIVE"
	MutNFCNamesOnly       rules.ID = "MUT-LACE-NFC-NAMES-ONLY"
	MutTrailingLF         rules.ID = "MUT-LACE-TRAILING-LF-ACCEPTED"
	MutStreamResync       rules.ID = "MUT-LACE-STREAM-RESYNC"
	MutChunkGaps          rules.ID = "MUT-LACE-CHUNK-GAPS-ACCEPTED"
	MutChunkInclusive     rules.ID = "MUT-LACE-CHUNK-RANGE-INCLUSIVE"
	MutDirUniquePerRecord rules.ID = "MUT-LACE-DIR-UNIQUE-PER-RECORD"
	MutPageOrdinalFrom1   rules.ID = "MUT-LACE-PAGE-ORDINAL-FROM-1"
)

var mutants = []rules.Mutant{
	mutant(MutLineLimit129, "the field-line limit is off by one: a 129-byte line (LF excluded) is accepted"),
	mutant(MutCRLFAccepted, "lines are read up to LF and a CR before it is stripped, so CRLF line endings are accepted"),
	mutant(MutDataLengthZeros, "Data-Length is parsed as an integer, so leading zeros (Data-Length: 01) are accepted"),
	mutant(MutBlobLimitPlus1, "the 32 MiB Blob limit is off by one: 33,554,433 data bytes are accepted (reader and constructor)"),
	mutant(MutHashFromGlyphLF, "the record digest starts one byte early, at the glyph line's LF (reader and constructor agree)"),
	mutant(MutValuesTrimmed, "the reader trims leading and trailing spaces from the field values it reports"),
	mutant(MutLinkFirstSpace, "a record-link value is split at its first space instead of its last"),
	mutant(MutMarkOverBlob, "the Mark subject is the embedded Blob's digest instead of the Plex's (signing and verifying)"),
	mutant(MutEnvelopeAnyOrder, "a Seal's By and Mark lines are accepted in either order"),
	mutant(MutOrderCaseFold, "field names are ordered case-insensitively (reader order check and constructor sort)"),
	mutant(MutNFCNamesOnly, "NFC is checked in field names but not in values"),
	mutant(MutTrailingLF, "a single LF after a complete stored record is tolerated, as a text file's final newline"),
	mutant(MutStreamResync, "a stream reader skips bytes that do not begin a record until the next record glyph"),
	mutant(MutChunkGaps, "chunk ranges are only checked for overlap, so a gap between ranges is accepted"),
	mutant(MutChunkInclusive, "chunk ranges start..end are read as inclusive, so a range covers end-start+1 bytes"),
	mutant(MutDirUniquePerRecord, "directory names are checked for uniqueness within each record, not across its pages"),
	mutant(MutPageOrdinalFrom1, "Page+Link ordinals are counted from 1 instead of 0"),
}

func mutant(id rules.ID, text string) rules.Mutant {
	return rules.Mutant{ID: id, Spec: "lace", Text: text}
}

// Mutants returns the named mutants of the Lace reference.
func Mutants() []rules.Mutant { return append([]rules.Mutant(nil), mutants...) }

// FaultError is the rejection of a reader whose fault injection makes it
// reject what a conforming reader accepts: it carries no rule, since the
// rule it would name is the one switched off.
func FaultError(format string, args ...any) error {
	return fmt.Errorf("lace: (fault injection) "+format, args...)
}
