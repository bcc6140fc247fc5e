package lace

import (
	"github.com/threespec/conformance/impl/rules"
)

// Reading IDs of Lace-010 Records (docs/READINGS.md). IDs are stable and
// never reused: a reading that left the catalog is in Retired.
const (
	ReadValueLeadingSpace = "LACE-READ-01"
	ReadPadBits           = "LACE-READ-05"
	ReadBoundMeasure      = "LACE-READ-17"
	ReadLinkTarget        = "LACE-READ-18"
)

// The non-default alternatives of the Lace readings, which the reference
// takes when rules.Checks.Readings says so (rules.Checks.Takes).
const (
	// AltSecondSpaceRejected (LACE-READ-01): a space after the separating
	// space breaks LACE-FIELD-04.
	AltSecondSpaceRejected = "second-space-rejected"
	// AltPadBitsIgnored (LACE-READ-05): B64A text is decoded ignoring the
	// pad bits of its last character.
	AltPadBitsIgnored = "pad-bits-ignored"
	// AltRecordsOnPath (LACE-READ-17): depth counts the records on the
	// path (the root at 1) and expansion the records entered (the root
	// one of them).
	AltRecordsOnPath = "records-on-path"
	// AltTypedPrefixOnly (LACE-READ-18): a link target is well-formed when
	// it begins with B., P. or S.
	AltTypedPrefixOnly = "typed-prefix-only"
	// AltH3PayloadChecked (LACE-READ-18): a link target with the suffix H3
	// is well-formed only when its payload is canonical H3 digest text.
	AltH3PayloadChecked = "h3-payload-checked"
)

const quoteOneSpace = "§Shared field-line rules: exactly one ASCII space follows :;"

// Readings returns the readings catalog of Lace-010: every sentence a
// careful reader can take two ways, with the project's default and the
// alternatives the reference can take.
func Readings() []rules.Reading {
	r, alt := rules.ReadingMaker("lace"), rules.Alt
	return []rules.Reading{
		r(ReadValueLeadingSpace, secField, []rules.ID{RuleFieldLeadingSpace, RuleFieldWhitespace, RuleBlobDataLength},
			[]string{quoteOneSpace, "§Shared field-line rules: whitespace in a value is data and is never trimmed."},
			"Is `Name:  x` (two spaces) the field Name with value ' x', or a line breaking \"exactly one ASCII space follows :\"?",
			"value-starts-with-space",
			"one space separates and whitespace in a value is data; this asks least beyond the words, and the directory convention's \"Accepted names preserve their exact bytes, including leading and trailing spaces\" needs it (`File+Link:  a B.<h>.H3` is the file ' a'), which only this reading allows",
			alt("value-starts-with-space", "the second space begins the value; structural lines then fail their own value syntax (`Data-Length:  5` is not canonical decimal)"),
			alt(AltSecondSpaceRejected, "a space after the separating space breaks the separator rule")),
		r(ReadPadBits, secGlyph, []rules.ID{RuleGlyphDigestText, RuleSealByText, RuleSealMarkText, RuleChunkTarget},
			[]string{"§Every stored record: The digest payload is exactly 32 bytes and therefore 43 canonical 006 B64A characters."},
			"Is B64A text whose last character has nonzero pad bits canonical (the decoded bytes being the same)?",
			"pad-bits-zero",
			"the stricter reading, because the sentence's own word decides it: text is \"canonical\" when it is the one spelling of its bytes, and nonzero pad bits give every digest, key and Mark a second spelling; what 006 says of pad bits is not in this copy, which is why the question stays open",
			alt("pad-bits-zero", "nonzero pad bits make the text non-canonical: the record (or convention target) is invalid"),
			alt(AltPadBitsIgnored, "pad bits are ignored when decoding: the text names the bytes it decodes to")),
		r(ReadBoundMeasure, secDir, []rules.ID{RuleDirDepth, RuleDirExpansion},
			[]string{"§Directory links: Consumers bound reference depth and logical expansion, counting repeated uses rather than only distinct hashes, and reject cycles;"},
			"What do the consumer bounds measure: is depth the links from the root (the root at 0) or the records on the path (the root at 1), and is expansion the link uses or the records entered (the root included)?",
			"links-from-root",
			"a bound on references counts references: the root is reached by none, so depth is the links followed to reach a record and expansion the link uses, every repeat counted; with the same numbers it is also the measure that refuses less; the default numbers (64 links, 1,048,576 uses, 1 GiB of assembled file) are the project's, given by max_depth, max_expansion and max_bytes where a vector needs others",
			alt("links-from-root", "depth counts links from the root and expansion counts link uses; a Blob 2 links below the root is within max_depth 2"),
			alt(AltRecordsOnPath, "the root counts as one level and one use; a Blob 2 links below the root needs max_depth 3")),
		r(ReadLinkTarget, secLink, []rules.ID{RuleLinkTarget, RuleLinkSuffixDefines, RuleLinkExamples},
			[]string{"§Record-link fields: <target-hash> is typed record-hash text beginning with B., P., or S.;",
				"§Record-link fields: parsing the link does not require the target suffix to be H3;",
				"§Record-link fields: the record definition named by the suffix defines target payload syntax and validation; and"},
			"What makes a link target well-formed: any text beginning with B., P. or S. (`B.x`), typed hash text with a payload and a suffix (`S.EXAMPLE_SEAL_HASH.H3`, not `B.x`), or, with the suffix H3, only canonical H3 digest text (neither)?",
			"type-payload-suffix",
			"\"record-hash text\" is what the glyph section defines, T.<payload>.<suffix> (for H3, T.<b64a>.H3), and \"the target suffix\" and \"the record definition named by the suffix\" presuppose a suffix, so `B.x` is no target; beyond that the words ask nothing of the payload at link parsing, leaving its syntax and validation to the suffix's record definition, so the spec's own examples (`S.EXAMPLE_SEAL_HASH.H3`) are well-formed links",
			alt("type-payload-suffix", "T.<payload>.<suffix> with T in B, P, S and a non-empty payload and suffix (the suffix after the last dot); the payload is not checked: `S.EXAMPLE_SEAL_HASH.H3` is a link, `B.x` malformed"),
			alt(AltTypedPrefixOnly, "any target beginning with B., P. or S. is well-formed; `B.x` is a link (whose format no record definition supports)"),
			alt(AltH3PayloadChecked, "as the default, but a target with the suffix H3 must carry a canonical 43-character digest: the spec's examples are malformed links")),
	}
}

// Retired lists the reading IDs Lace's catalog held and holds no more,
// each with where its question went (docs/READINGS.md, "Retired").
func Retired() []rules.RetiredReading {
	return []rules.RetiredReading{
		{ID: "LACE-READ-02", Why: "the spec decides: \"Data-Length uses ASCII decimal digits [0-9] with no leading zero except 0\", \"empty specification -> empty Blob\", and chunk nodes and directories are \"an H3 Plex with empty data\": empty data is valid in every Blob (LACE-BLOB-07, clarified)"},
		{ID: "LACE-READ-03", Why: "the spec decides: \"Seals, unsupported formats and other Plex shapes are invalid\" and \"Unsupported hash formats and wrong target families are invalid rather than missing dependencies\" (LACE-CHUNK-08, LACE-DIR-24, clarified)"},
		{ID: "LACE-READ-04", Why: "the spec decides: \"field names contain no :\", so only the first \": \" can end a name: `Note: a: b` is the field Note with value `a: b` (LACE-FIELD-01, clarified)"},
		{ID: "LACE-READ-06", Why: "no verdict depends on it: Lace names no error codes and conform judges the outcome, so which of several broken rules is reported is the reference's order of checks (LACE-FIELD-01, LACE-CHUNK-02, precedence)"},
		{ID: "LACE-READ-07", Why: "the spec decides: \"A complete stored record contains exactly one record\" and \"An empty stream holds no records\": empty input is a valid stream and no record (LACE-STREAM-05, clarified)"},
		{ID: "LACE-READ-08", Why: "the spec decides: \"Accepted names preserve their exact bytes, including leading and trailing spaces\" (LACE-DIR-14, clarified; whether a value may begin with a space is LACE-READ-01)"},
		{ID: "LACE-READ-09", Why: "the spec decides: \"no bytes after the bytes consumed by its structure and Blob Data-Length\": a final LF is a byte after the record (LACE-GLYPH-08, clarified)"},
		{ID: "LACE-READ-10", Why: "no verdict depends on it: a changed byte inside a Plex fails an embedded and the outer digest alike, and which is reported is the reference's order (LACE-GLYPH-07, precedence)"},
		{ID: "LACE-READ-11", Why: "no verdict depends on it: a payload of another form than its glyph names is rejected whichever way it is parsed; only the rule reported differs (LACE-GLYPH-05, precedence)"},
		{ID: "LACE-READ-12", Why: "the spec decides: an empty file is itself a record (\"an empty file is an empty Blob\"), as is an empty directory (\"An empty directory has only Kind: directory\"), so an empty stream, which holds no record, holds no root (LACE-CHUNK-20, LACE-DIR-23, clarified)"},
		{ID: "LACE-READ-13", Why: "no verdict depends on it: a Data-Length over 32 MiB with fewer bytes after it breaks the limit and the data length alike (LACE-BLOB-05, precedence)"},
		{ID: "LACE-READ-14", Why: "the spec decides: a reader \"MUST reject a stream that ends inside a record or continues with bytes that do not form a valid record\": the stream is rejected, not its tail (LACE-STREAM-03, LACE-STREAM-04, clarified)"},
		{ID: "LACE-READ-15", Why: "no verdict depends on it: a canonical Data-Length of 2^64 or more is rejected as over the 32 MiB limit or as unrepresentable alike (LACE-BLOB-05, precedence)"},
		{ID: "LACE-READ-16", Why: "the spec decides: \"control bytes 0x00..0x1F and 0x7F are forbidden\" names bytes, and C1 controls, U+2028/U+2029 and bidirectional controls are NFC text none of whose UTF-8 bytes is one of them (LACE-FIELD-10, clarified)"},
	}
}
