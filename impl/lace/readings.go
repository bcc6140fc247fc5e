package lace

import (
	"github.com/threespec/conformance/impl/rules"
)

// Reading IDs of Lace-010 Records (docs/READINGS.md). IDs are stable.
const (
	ReadValueLeadingSpace = "LACE-READ-01"
	ReadEmptyData         = "LACE-READ-02"
	ReadUnsupportedTarget = "LACE-READ-03"
	ReadSeparator         = "LACE-READ-04"
	ReadPadBits           = "LACE-READ-05"
	ReadPrecedence        = "LACE-READ-06"
	ReadEmptyStream       = "LACE-READ-07"
	ReadNameSpaces        = "LACE-READ-08"
	ReadTrailingBytes     = "LACE-READ-09"
	ReadDigestOrder       = "LACE-READ-10"
	ReadGlyphMismatch     = "LACE-READ-11"
	ReadEmptyStreamRoot   = "LACE-READ-12"
	ReadLimitBeforeData   = "LACE-READ-13"
	ReadStreamPrefix      = "LACE-READ-14"
	ReadDataLengthWide    = "LACE-READ-15"
	ReadValueFormatChars  = "LACE-READ-16"
	ReadBoundMeasure      = "LACE-READ-17"
)

// AltSecondSpaceRejected is the alternative of LACE-READ-01 the reference
// can take (rules.Checks.Readings): a space after the separating space
// breaks LACE-FIELD-04.
const AltSecondSpaceRejected = "second-space-rejected"

const quoteOneSpace = "§Shared field-line rules: exactly one ASCII space follows :;"

// Readings returns the readings catalog of Lace-010: every place the project
// chose between defensible readings of the spec.
func Readings() []rules.Reading {
	r, alt := rules.ReadingMaker("lace"), rules.Alt
	return []rules.Reading{
		r(ReadValueLeadingSpace, secField, []rules.ID{RuleFieldLeadingSpace, RuleFieldWhitespace, RuleBlobDataLength},
			[]string{quoteOneSpace, "§Shared field-line rules: whitespace in a value is data and is never trimmed."},
			"Is `Name:  x` (two spaces) the field Name with value ' x', or a line breaking \"exactly one ASCII space follows :\"?",
			"value-starts-with-space",
			"one space separates and whitespace in a value is data; the directory convention needs names with leading spaces (`File+Link:  a B.<h>.H3` is the file ' a'), which only this reading allows",
			alt("value-starts-with-space", "the second space begins the value; structural lines then fail their own value syntax (`Data-Length:  5` is not canonical decimal)"),
			alt(AltSecondSpaceRejected, "a space after the separating space breaks the separator rule")),
		r(ReadEmptyData, secBlob, []rules.ID{RuleBlobEmptyData},
			[]string{"§Generic constructors: empty specification -> empty Blob",
				"§Blob records: Data-Length uses ASCII decimal digits [0-9] with no leading zero except 0;"},
			"Is a Blob (bare, or embedded in a Plex or Seal) with no data valid?",
			"empty-data-valid",
			"the constructor table makes an empty Blob, Data-Length 0 is canonical, and chunk and directory records have empty data",
			alt("empty-data-valid", "Data-Length: 0 with no data is valid everywhere"),
			alt("empty-data-only-bare", "only a bare empty Blob is valid; a Plex needs data")),
		r(ReadUnsupportedTarget, secLink, []rules.ID{RuleChunkFormat, RuleDirFormat},
			[]string{"§Chunk sequences: Seals, unsupported formats and other Plex shapes are invalid.",
				"§Directory links: Unsupported hash formats and wrong target families are invalid rather than missing dependencies.",
				"§Record-link fields: An unsupported target format may be indexed as a target."},
			"Is a convention link target with a suffix other than H3 invalid for the convention, or a missing dependency to resolve later?",
			"unsupported-invalid",
			"the convention sections say invalid rather than missing; no other record definition is supported",
			alt("unsupported-invalid", "the chunk or directory is invalid, before any lookup"),
			alt("unsupported-missing", "the target is looked up and reported missing")),
		r(ReadSeparator, secField, []rules.ID{RuleFieldSyntax, RuleFieldNameChars},
			[]string{"§Shared field-line rules: <Name>: <value>\\n", "§Shared field-line rules: field names contain no :, space, or tab;"},
			"Where a line holds several ': ', which one separates name from value?",
			"first-colon-space",
			"names contain no ':', so the first ': ' is the only one that can end a valid name",
			alt("first-colon-space", "`Note: a: b` is Note with value 'a: b'"),
			alt("last-colon-space", "the last ': ' separates, making `Note: a` an invalid name")),
		r(ReadPadBits, secGlyph, []rules.ID{RuleGlyphDigestText, RuleSealByText, RuleSealMarkText, RuleChunkTarget},
			[]string{"§Every stored record: The digest payload is exactly 32 bytes and therefore 43 canonical 006 B64A characters."},
			"Is B64A text whose last character has nonzero pad bits canonical (the decoded bytes being the same)?",
			"pad-bits-zero",
			"\"canonical\" text must be the one encoding of the bytes; nonzero pad bits make a second spelling of each digest, key and Mark",
			alt("pad-bits-zero", "nonzero pad bits make the text non-canonical: the record (or convention target) is invalid"),
			alt("pad-bits-ignored", "pad bits are ignored when decoding")),
		r(ReadPrecedence, secField, []rules.ID{RuleFieldSyntax, RuleFieldLineLength, RuleGlyphEmbedded},
			[]string{"§Shared field-line rules: Implementations MUST enforce these rules:"},
			"When one input breaks several rules, which does a reader report?",
			"first-in-reading-order",
			"Lace names no error codes, so every rejection is a correct report whatever rule it names; the project reports the first violation in its order of checks (docs/lace.md) and conform compares outcomes only",
			alt("first-in-reading-order", "the first violation in docs/lace.md's order of checks"),
			alt("any-violated-rule", "any rule the input breaks")),
		r(ReadEmptyStream, secStream, []rules.ID{RuleStreamEmpty},
			[]string{"§Record streams: A record stream is zero or more complete stored records concatenated in order", "§Record streams: An empty stream holds no records."},
			"Is empty input a valid single record (a .lr file), or only a valid stream?",
			"empty-stream-only",
			"a complete stored record contains exactly one record; an empty stream holds none",
			alt("empty-stream-only", "empty input is a valid stream and no valid record"),
			alt("empty-record-accepted", "empty input is also accepted where one record is asked")),
		r(ReadNameSpaces, secDir, []rules.ID{RuleDirNameExact, RuleLinkSplit},
			[]string{"§Directory links: Accepted names preserve their exact bytes, including leading and trailing spaces.",
				"§Record-link fields: Readers MUST split at the last ASCII space without trimming either part."},
			"Are names with leading or trailing spaces kept exactly, or trimmed (or rejected)?",
			"spaces-kept",
			"the spec says so explicitly; the reading turns on LACE-READ-01 allowing a value to start with a space",
			alt("spaces-kept", "' lead' and 'trail ' are distinct names, kept byte for byte"),
			alt("spaces-rejected", "a name with a leading space is rejected")),
		r(ReadTrailingBytes, secGlyph, []rules.ID{RuleGlyphTrailing},
			[]string{"§Every stored record: A complete stored record contains exactly one record and no bytes after the bytes consumed by its structure and Blob Data-Length."},
			"Is one LF after a record's data (the usual text-file ending) tolerated?",
			"no-trailing-bytes",
			"the sentence leaves no room: Data-Length bytes are the data and nothing follows",
			alt("no-trailing-bytes", "any byte after the data fails"),
			alt("final-lf-tolerated", "one final LF is tolerated as a text-file ending")),
		r(ReadDigestOrder, secGlyph, []rules.ID{RuleGlyphEmbedded, RuleGlyphDigestMatch},
			[]string{"§Seal records: readers verify the Seal hash, the complete embedded Plex and Blob, and the Mark under By;"},
			"When a data byte changes inside a Plex, is the outer digest or the embedded Blob digest the failure?",
			"innermost-first",
			"digests are checked innermost first; the code is the same (Lace names none), only the rule differs",
			alt("innermost-first", "the embedded Blob digest (LACE-GLYPH-07)"),
			alt("outermost-first", "the record's own digest (LACE-GLYPH-06)")),
		r(ReadGlyphMismatch, secGlyph, []rules.ID{RuleGlyphTypeMatch},
			[]string{"§Every stored record: Implementations MUST verify that the glyph type matches the parsed record form"},
			"Is the form parsed from the glyph's type letter, or from the payload's first line?",
			"parse-as-glyph-names",
			"the glyph announces the form; a payload of another form is then reported as a type mismatch",
			alt("parse-as-glyph-names", "the payload is parsed as the form the glyph names"),
			alt("parse-then-compare", "the form is detected from the payload and then compared")),
		r(ReadEmptyStreamRoot, secChunk, []rules.ID{RuleChunkChildExists, RuleDirExists},
			[]string{"§Chunk sequences: Every child and length MUST validate before the file is available.",
				"§Directory links: Every referenced page, child and file MUST exist and validate;"},
			"Which record of a stream is the chunk tree's or directory's root, and is an empty stream an empty file?",
			"first-record-root",
			"the convention consumers are given a stream; its first record is the root, and an empty stream has none",
			alt("first-record-root", "the first record is the root; an empty stream is rejected"),
			alt("empty-stream-empty-file", "an empty stream is an empty file or directory")),
		r(ReadLimitBeforeData, secBlob, []rules.ID{RuleBlobMaxData, RuleBlobExactData},
			[]string{"§Blob records: readers consume exactly <len> data bytes; and", "§Blob records: Blob data does not exceed 32 MiB (33,554,432 bytes)."},
			"A Data-Length above 32 MiB with fewer data bytes after it: is it the size limit or missing data that fails?",
			"limit-before-data",
			"the limit is known from the Data-Length line before any data is read, so nothing over it is awaited or allocated; Lace names no codes, so the reading changes the rule reported, not the outcome",
			alt("limit-before-data", "the 32 MiB limit is reported"),
			alt("data-before-limit", "the missing data is reported")),
		r(ReadStreamPrefix, secStream, []rules.ID{RuleStreamValidate, RuleStreamTruncated, RuleStreamGarbage},
			[]string{"§Record streams: A reader MUST validate every record as this document defines and MUST reject a stream that ends inside a record or continues with bytes that do not form a valid record.",
				"§Record streams: Each record’s own structure and Blob Data-Length delimit it, and the next record starts at the following byte."},
			"When a stream holds valid records and then a defect, are the records before the defect reported, or is the whole stream simply rejected?",
			"whole-stream-rejected",
			"the sentence rejects the stream, not the bytes after its last good record; a reader that hands out the records before the defect accepts a prefix of a stream it MUST reject, and a truncated transfer would then look like a shorter valid one",
			alt("whole-stream-rejected", "the stream is rejected and no record of it is reported"),
			alt("valid-prefix-reported", "the records before the defect are reported (with the defect), as a reader recovering a damaged .lrs might")),
		r(ReadDataLengthWide, secBlob, []rules.ID{RuleBlobMaxData, RuleBlobDataLength},
			[]string{"§Blob records: Data-Length uses ASCII decimal digits [0-9] with no leading zero except 0;",
				"§Blob records: Blob data does not exceed 32 MiB (33,554,432 bytes)."},
			"A canonical Data-Length too large for a 64-bit integer (2^64 or more): is it the size limit that fails, or the value's syntax?",
			"limit-not-syntax",
			"the digit rule is about spelling, and such a value is spelled canonically; it is a length, far over 32 MiB, so the limit is what it breaks, judged without converting the digits to a machine integer (so nothing wraps); Lace names no codes, so the reading changes the rule reported, not the outcome",
			alt("limit-not-syntax", "the 32 MiB limit is reported (LACE-BLOB-05)"),
			alt("unrepresentable-is-syntax", "a value that does not fit 64 bits is reported as not canonical decimal (LACE-BLOB-03)")),
		r(ReadValueFormatChars, secField, []rules.ID{RuleFieldControl, RuleFieldUTF8, RuleFieldNFC},
			[]string{"§Shared field-line rules: control bytes 0x00..0x1F and 0x7F are forbidden in name and value bytes; the terminating LF is structural and excluded from this prohibition;",
				"§Shared field-line rules: names and values are UTF-8 NFC;"},
			"Are C1 controls (U+0080..U+009F), the line and paragraph separators U+2028/U+2029 and bidirectional controls (U+200E, U+202A..U+202E, U+2066..U+2069) allowed in names and values?",
			"allowed-as-data",
			"the prohibition names bytes 0x00..0x1F and 0x7F, and these characters are NFC text none of whose UTF-8 bytes is one of those; widening it would reject text every stated rule accepts",
			alt("allowed-as-data", "they are valid name and value text, kept byte for byte"),
			alt("rejected-as-controls", "a name or value holding one is rejected like a C0 control")),
		r(ReadBoundMeasure, secDir, []rules.ID{RuleDirDepth, RuleDirExpansion},
			[]string{"§Directory links: Consumers bound reference depth and logical expansion, counting repeated uses rather than only distinct hashes, and reject cycles;"},
			"What do the consumer bounds measure: is depth the links from the root (the root at 0) or the records on the path (the root at 1), and is expansion the link uses or the records entered (the root included)?",
			"links-from-root",
			"a bound on references counts references: the root is reached by none, so depth is the links followed to reach a record and expansion the link uses, every repeat counted; the default numbers (64 links, 1,048,576 uses, 1 GiB of assembled file) are the project's, given by max_depth, max_expansion and max_bytes where a vector needs others",
			alt("links-from-root", "depth counts links from the root and expansion counts link uses; a Blob 2 links below the root is within max_depth 2"),
			alt("records-on-path", "the root counts as one level and one use; a Blob 2 links below the root needs max_depth 3")),
	}
}
