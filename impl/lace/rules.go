package lace

import "github.com/threespec/conformance/impl/rules"

// The Lace-010 rule catalog: one constant per atomic normative statement of
// specs/lace-010-records.txt, in spec order. Catalog lists them with
// their section, level and text. Rules marked "(project decision)" settle what
// the spec leaves open; docs/lace.md gives the reasoning.
//
// Where a spec statement repeats one made earlier (the constructor's duty to
// sort and keep same-name order, the last section's list of rejections), the
// earlier rule covers it and docs/lace.md names the mapping.

// Section headings of Lace-010, as the catalog cites them.
const (
	secGlyph    = "Every stored record starts with a record glyph line"
	secStream   = "Record streams concatenate complete records"
	secField    = "Shared field-line rules keep bytes canonical"
	secBlob     = "Blob records carry opaque bytes"
	secPlex     = "Plex records attach generic fields to a Blob"
	secSeal     = "Seal records carry one Mark over one Plex"
	secCtor     = "Generic constructors select one record form"
	secLink     = "Record-link fields carry typed hash references"
	secChunk    = "Chunk sequences describe complete file bytes"
	secDir      = "Directory links name files, children and continuation pages"
	secNest     = "Canonical structure determines containment"
	secSize     = "Maximum H3 record size is bounded"
	secVector   = "A canonical vector covers all three record forms"
	secExamples = "Boundary and rejection examples"
)

// Record glyph line, hash text and complete stored records.
const (
	RuleGlyphLine        rules.ID = "LACE-GLYPH-01"
	RuleGlyphHashText    rules.ID = "LACE-GLYPH-02"
	RuleGlyphDigestBytes rules.ID = "LACE-GLYPH-03"
	RuleGlyphDigestText  rules.ID = "LACE-GLYPH-04"
	RuleGlyphTypeMatch   rules.ID = "LACE-GLYPH-05"
	RuleGlyphDigestMatch rules.ID = "LACE-GLYPH-06"
	RuleGlyphEmbedded    rules.ID = "LACE-GLYPH-07"
	RuleGlyphTrailing    rules.ID = "LACE-GLYPH-08"
	RuleGlyphLrSuffix    rules.ID = "LACE-GLYPH-09"
	RuleGlyphLrValidate  rules.ID = "LACE-GLYPH-10"
)

// Record streams.
const (
	RuleStreamConcat    rules.ID = "LACE-STREAM-01"
	RuleStreamValidate  rules.ID = "LACE-STREAM-02"
	RuleStreamTruncated rules.ID = "LACE-STREAM-03"
	RuleStreamGarbage   rules.ID = "LACE-STREAM-04"
	RuleStreamEmpty     rules.ID = "LACE-STREAM-05"
	RuleStreamLrsSuffix rules.ID = "LACE-STREAM-06"
)

// Shared field-line rules.
const (
	RuleFieldSyntax       rules.ID = "LACE-FIELD-01"
	RuleFieldNameEmpty    rules.ID = "LACE-FIELD-02"
	RuleFieldNameChars    rules.ID = "LACE-FIELD-03"
	RuleFieldOneSpace     rules.ID = "LACE-FIELD-04"
	RuleFieldValueEmpty   rules.ID = "LACE-FIELD-05"
	RuleFieldUTF8         rules.ID = "LACE-FIELD-06"
	RuleFieldNFC          rules.ID = "LACE-FIELD-07"
	RuleFieldUnicode17    rules.ID = "LACE-FIELD-08"
	RuleFieldLF           rules.ID = "LACE-FIELD-09"
	RuleFieldControl      rules.ID = "LACE-FIELD-10"
	RuleFieldLineLength   rules.ID = "LACE-FIELD-11"
	RuleFieldWhitespace   rules.ID = "LACE-FIELD-12"
	RuleFieldStructural   rules.ID = "LACE-FIELD-13"
	RuleFieldLeadingSpace rules.ID = "LACE-FIELD-14"
)

// Blob records.
const (
	RuleBlobDataLengthLine rules.ID = "LACE-BLOB-01"
	RuleBlobBlankLine      rules.ID = "LACE-BLOB-02"
	RuleBlobDataLength     rules.ID = "LACE-BLOB-03"
	RuleBlobExactData      rules.ID = "LACE-BLOB-04"
	RuleBlobMaxData        rules.ID = "LACE-BLOB-05"
	RuleBlobOpaque         rules.ID = "LACE-BLOB-06"
	RuleBlobEmptyData      rules.ID = "LACE-BLOB-07"
)

// Plex records.
const (
	RulePlexStructure      rules.ID = "LACE-PLEX-01"
	RulePlexMinFields      rules.ID = "LACE-PLEX-02"
	RulePlexMaxFields      rules.ID = "LACE-PLEX-03"
	RulePlexKindField      rules.ID = "LACE-PLEX-04"
	RulePlexSortNames      rules.ID = "LACE-PLEX-05"
	RulePlexSameName       rules.ID = "LACE-PLEX-06"
	RulePlexCtorOrder      rules.ID = "LACE-PLEX-07"
	RulePlexOrder          rules.ID = "LACE-PLEX-08"
	RulePlexValuesUnsorted rules.ID = "LACE-PLEX-09"
	RulePlexReserved       rules.ID = "LACE-PLEX-10"
	RulePlexReservedOnly   rules.ID = "LACE-PLEX-11"
	RulePlexNoSchema       rules.ID = "LACE-PLEX-12"
)

// Seal records.
const (
	RuleSealStructure  rules.ID = "LACE-SEAL-01"
	RuleSealByFirst    rules.ID = "LACE-SEAL-02"
	RuleSealByText     rules.ID = "LACE-SEAL-03"
	RuleSealMarkSecond rules.ID = "LACE-SEAL-04"
	RuleSealMarkText   rules.ID = "LACE-SEAL-05"
	RuleSealSubject    rules.ID = "LACE-SEAL-06"
	RuleSealVerify     rules.ID = "LACE-SEAL-07"
	RuleSealNoBlob     rules.ID = "LACE-SEAL-08"
	RuleSealNoEnvelope rules.ID = "LACE-SEAL-09"
)

// Generic constructors.
const (
	RuleCtorEmpty       rules.ID = "LACE-CTOR-01"
	RuleCtorDataOnly    rules.ID = "LACE-CTOR-02"
	RuleCtorFields      rules.ID = "LACE-CTOR-03"
	RuleCtorSecretOnly  rules.ID = "LACE-CTOR-04"
	RuleCtorSeal        rules.ID = "LACE-CTOR-05"
	RuleCtorOmittedData rules.ID = "LACE-CTOR-06"
	RuleCtorNoInvented  rules.ID = "LACE-CTOR-07"
	RuleCtorValidate    rules.ID = "LACE-CTOR-08"
	RuleCtorReserved    rules.ID = "LACE-CTOR-09"
	RuleCtorDeriveMark  rules.ID = "LACE-CTOR-10"
)

// Record-link fields and the conventions' common ground.
const (
	RuleLinkName          rules.ID = "LACE-LINK-01"
	RuleLinkData          rules.ID = "LACE-LINK-02"
	RuleLinkSeparator     rules.ID = "LACE-LINK-03"
	RuleLinkTarget        rules.ID = "LACE-LINK-04"
	RuleLinkAnySuffix     rules.ID = "LACE-LINK-05"
	RuleLinkSuffixDefines rules.ID = "LACE-LINK-06"
	RuleLinkDataSpaces    rules.ID = "LACE-LINK-07"
	RuleLinkSplit         rules.ID = "LACE-LINK-08"
	RuleLinkBudget        rules.ID = "LACE-LINK-09"
	RuleLinkMalformedOK   rules.ID = "LACE-LINK-10"
	RuleLinkIndexIgnore   rules.ID = "LACE-LINK-11"
	RuleLinkUnsupported   rules.ID = "LACE-LINK-12"
	RuleLinkExamples      rules.ID = "LACE-LINK-13"
	RuleConvRecordValid   rules.ID = "LACE-LINK-14"
	RuleConvRawFields     rules.ID = "LACE-LINK-15"
	RuleConvNoNames       rules.ID = "LACE-LINK-16"
	RuleConvNoCtor        rules.ID = "LACE-LINK-17"
	RuleLinkNotAcquired   rules.ID = "LACE-LINK-18"
)

// Chunk sequences.
const (
	RuleChunkPlex            rules.ID = "LACE-CHUNK-01"
	RuleChunkEmptyData       rules.ID = "LACE-CHUNK-02"
	RuleChunkKind            rules.ID = "LACE-CHUNK-03"
	RuleChunkLinks           rules.ID = "LACE-CHUNK-04"
	RuleChunkNoOther         rules.ID = "LACE-CHUNK-05"
	RuleChunkTarget          rules.ID = "LACE-CHUNK-06"
	RuleChunkNoSeal          rules.ID = "LACE-CHUNK-07"
	RuleChunkFormat          rules.ID = "LACE-CHUNK-08"
	RuleChunkOtherPlex       rules.ID = "LACE-CHUNK-09"
	RuleChunkBareBlob        rules.ID = "LACE-CHUNK-10"
	RuleChunkEmptyFile       rules.ID = "LACE-CHUNK-11"
	RuleChunkRangeForm       rules.ID = "LACE-CHUNK-12"
	RuleChunkDecimal         rules.ID = "LACE-CHUNK-13"
	RuleChunkOverflow        rules.ID = "LACE-CHUNK-14"
	RuleChunkPositive        rules.ID = "LACE-CHUNK-15"
	RuleChunkStartZero       rules.ID = "LACE-CHUNK-16"
	RuleChunkContiguous      rules.ID = "LACE-CHUNK-17"
	RuleChunkChildLength     rules.ID = "LACE-CHUNK-18"
	RuleChunkFinalEnd        rules.ID = "LACE-CHUNK-19"
	RuleChunkChildExists     rules.ID = "LACE-CHUNK-20"
	RuleChunkNoPartial       rules.ID = "LACE-CHUNK-21"
	RuleChunkSharing         rules.ID = "LACE-CHUNK-22"
	RuleChunkFanout          rules.ID = "LACE-CHUNK-23"
	RuleChunkHashSignificant rules.ID = "LACE-CHUNK-24"
)

// Directories.
const (
	RuleDirPlex            rules.ID = "LACE-DIR-01"
	RuleDirEmptyData       rules.ID = "LACE-DIR-02"
	RuleDirKind            rules.ID = "LACE-DIR-03"
	RuleDirOnlyFields      rules.ID = "LACE-DIR-04"
	RuleDirFileTarget      rules.ID = "LACE-DIR-05"
	RuleDirChildTarget     rules.ID = "LACE-DIR-06"
	RuleDirPageTarget      rules.ID = "LACE-DIR-07"
	RuleDirEmpty           rules.ID = "LACE-DIR-08"
	RuleDirNameEmpty       rules.ID = "LACE-DIR-09"
	RuleDirNameNFC         rules.ID = "LACE-DIR-10"
	RuleDirNameDots        rules.ID = "LACE-DIR-11"
	RuleDirNameSlash       rules.ID = "LACE-DIR-12"
	RuleDirNameControl     rules.ID = "LACE-DIR-13"
	RuleDirNameExact       rules.ID = "LACE-DIR-14"
	RuleDirNameBudget      rules.ID = "LACE-DIR-15"
	RuleDirFileOrder       rules.ID = "LACE-DIR-16"
	RuleDirChildOrder      rules.ID = "LACE-DIR-17"
	RuleDirParsedNames     rules.ID = "LACE-DIR-18"
	RuleDirPageOrdinal     rules.ID = "LACE-DIR-19"
	RuleDirUnion           rules.ID = "LACE-DIR-20"
	RuleDirUnique          rules.ID = "LACE-DIR-21"
	RuleDirPagesUnordered  rules.ID = "LACE-DIR-22"
	RuleDirExists          rules.ID = "LACE-DIR-23"
	RuleDirFormat          rules.ID = "LACE-DIR-24"
	RuleDirFamily          rules.ID = "LACE-DIR-25"
	RuleDirFanout          rules.ID = "LACE-DIR-26"
	RuleDirReuse           rules.ID = "LACE-DIR-27"
	RuleDirHashSignificant rules.ID = "LACE-DIR-28"
	RuleDirDepth           rules.ID = "LACE-DIR-29"
	RuleDirExpansion       rules.ID = "LACE-DIR-30"
	RuleDirCycle           rules.ID = "LACE-DIR-31"
	RuleDirBoundsGeneric   rules.ID = "LACE-DIR-32"
)

// Canonical nesting.
const (
	RuleNestBlob     rules.ID = "LACE-NEST-01"
	RuleNestPlex     rules.ID = "LACE-NEST-02"
	RuleNestSeal     rules.ID = "LACE-NEST-03"
	RuleNestComplete rules.ID = "LACE-NEST-04"
)

// Record-size maxima.
const (
	RuleSizeBlob     rules.ID = "LACE-SIZE-01"
	RuleSizePlex     rules.ID = "LACE-SIZE-02"
	RuleSizeSeal     rules.ID = "LACE-SIZE-03"
	RuleSizeNotProof rules.ID = "LACE-SIZE-04"
)

// The canonical vector.
const (
	RuleVecBlob     rules.ID = "LACE-VEC-01"
	RuleVecPlex     rules.ID = "LACE-VEC-02"
	RuleVecSeal     rules.ID = "LACE-VEC-03"
	RuleVecAppOrder rules.ID = "LACE-VEC-04"
	RuleVecSealMark rules.ID = "LACE-VEC-05"
)

// Boundary and rejection examples. The closing list of rejections ("CRLF,
// non-NFC line text, Data-Length: 01, ...") is covered by the rules that
// state each of them; docs/lace.md maps every item to its rule.
const (
	RuleExLineASCII     rules.ID = "LACE-EX-01"
	RuleExLineUTF8      rules.ID = "LACE-EX-02"
	RuleExOneField      rules.ID = "LACE-EX-03"
	RuleExMaxFields     rules.ID = "LACE-EX-04"
	RuleExRepeatedNames rules.ID = "LACE-EX-05"
	RuleExReversed      rules.ID = "LACE-EX-06"
	RuleExNoValueSort   rules.ID = "LACE-EX-07"
	RuleExGroupFirst    rules.ID = "LACE-EX-08"
	RuleExForeignMark   rules.ID = "LACE-EX-09"
	RuleExSealOverBlob  rules.ID = "LACE-EX-10"
)

// TextFile is the name of Lace-010's copy in specs/.
const TextFile = "lace-010-records.txt"

// Catalog returns every rule of Lace-010 in spec order.
func Catalog() []rules.Rule { return catalog.Rules() }

// Lookup returns the catalog entry of id.
func Lookup(id rules.ID) (rules.Rule, bool) { return catalog.Lookup(id) }

// catalog is the rule catalog of Lace-010, in spec order. Untestable rules
// are those no behaviour bytes can show violated, with the reason (the
// fault proof skips them; docs/lace.md, "The fault proof").
var catalog = rules.NewCatalog("lace",
	rules.Must(RuleGlyphLine, secGlyph, "Every stored record starts with a record glyph line `🖧: <hash-text>` (U+1F5A7, colon, one space, hash text, LF)."),
	rules.Must(RuleGlyphHashText, secGlyph, "For H3 the hash text is T.<b64a>.H3, where T is B, P or S."),
	rules.Must(RuleGlyphDigestBytes, secGlyph, "The B64A payload of the hash text is the BLAKE3-256 digest of every canonical byte after the record glyph line's LF."),
	rules.Must(RuleGlyphDigestText, secGlyph, "The digest payload is exactly 32 bytes and therefore exactly 43 canonical B64A characters."),
	rules.Must(RuleGlyphTypeMatch, secGlyph, "Implementations verify that the glyph type B, P or S matches the parsed record form.").
		Precedence("the payload is parsed as the form its glyph names; when that fails and the payload is a complete valid payload of another form, the reference reports LACE-GLYPH-05, otherwise the rule that failed; a reader detecting the form first and comparing reaches the same verdict (once reading LACE-READ-11)"),
	rules.Must(RuleGlyphDigestMatch, secGlyph, "Implementations verify that the record's glyph digest matches the BLAKE3-256 digest of its canonical payload."),
	rules.Must(RuleGlyphEmbedded, secGlyph, "The glyph digest of every embedded record (the Blob in a Plex, the Plex and Blob in a Seal) matches its own canonical payload.").
		Precedence("digests are checked innermost first (the Blob in a Plex, then the Plex in a Seal, then the record's own, LACE-GLYPH-06), so a changed data byte in a Plex reports the embedded Blob's digest; checking outermost first rejects the same records (once reading LACE-READ-10)"),
	rules.Must(RuleGlyphTrailing, secGlyph, "A complete stored record contains exactly one record and no bytes after those consumed by its structure and Blob Data-Length.").
		Clarified("a final LF after the data, the usual end of a text file, is a byte after the record and fails: \"no bytes after the bytes consumed by its structure and Blob Data-Length\" (once reading LACE-READ-09)"),
	rules.Untestable(rules.Convention(RuleGlyphLrSuffix, secGlyph, "By convention, a file whose content is exactly one complete stored record is named with .lr after any name its data would take (notes.json.lr).").
		Clarified(conventionOnly("By convention, a file whose content is exactly one complete stored record ends its name with .lr")),
		"binds the name a file is stored under; an implementation is given bytes, never a file name (the testee protocol sends none), and reads them alike whatever the name (LACE-GLYPH-10)"),
	rules.Must(RuleGlyphLrValidate, secGlyph, "The .lr suffix marks canonical record bytes, not their data; readers still parse and validate such files."),

	rules.Must(RuleStreamConcat, secStream, "A record stream is zero or more complete stored records concatenated in order with no header, separator or trailer; each record's structure and Data-Length delimit it and the next record starts at the following byte."),
	rules.Must(RuleStreamValidate, secStream, "A stream reader validates every record of the stream as Lace-010 defines."),
	rules.Must(RuleStreamTruncated, secStream, "A reader rejects a stream (and a record) that ends inside a record.").
		Clarified("the stream is rejected, not only its tail: \"MUST reject a stream that ends inside a record\"; a reader that hands out the complete records before the defect accepts a prefix of a stream it must reject (once reading LACE-READ-14)"),
	rules.Must(RuleStreamGarbage, secStream, "A reader rejects a stream that continues with bytes that do not form a valid record: here, bytes after a record that do not begin one (a record that ends early is LACE-STREAM-03, an invalid one LACE-STREAM-02).").
		Clarified("the stream is rejected, not only its tail: \"MUST reject a stream that ... continues with bytes that do not form a valid record\"; the records before the defect are not reported (once reading LACE-READ-14)"),
	rules.Must(RuleStreamEmpty, secStream, "An empty stream is valid and holds no records.").
		Clarified("empty input is a valid stream and no valid record: \"A complete stored record contains exactly one record\" and \"An empty stream holds no records\" (once reading LACE-READ-07)"),
	rules.Untestable(rules.Convention(RuleStreamLrsSuffix, secStream, "By convention, a file whose content is a record stream is named with .lrs, and a .lr file is a one-record stream.").
		Clarified(conventionOnly("By convention, a file whose content is a record stream ends its name with .lrs")),
		"binds the name a stream file is stored under, which an implementation is never given; that the bytes of a .lr file read as a one-record stream is LACE-STREAM-01's (vector stream-one-record)"),

	rules.Must(RuleFieldSyntax, secField, "A field line has the exact syntax `<Name>: <value>` followed by LF; a line without the `: ` separator is invalid.").
		Clarified("the first \": \" of a line separates: \"field names contain no :\", so no later one can end a name, and `Note: a: b` is the field Note with value `a: b` (once reading LACE-READ-04)").
		Precedence("within one line the reference reports, first: CR anywhere (LACE-FIELD-09), the separator (LACE-FIELD-01, -04), the name (empty, :, space or tab, other control bytes, UTF-8, NFC), the value (likewise), then the 128-byte limit (LACE-FIELD-11); so `Data-Length: 5<TAB>` is a control byte, not a bad decimal (once reading LACE-READ-06)"),
	rules.Must(RuleFieldNameEmpty, secField, "Field names are non-empty."),
	rules.Must(RuleFieldNameChars, secField, "Field names contain no `:`, space or tab."),
	rules.Must(RuleFieldOneSpace, secField, "Exactly one ASCII space follows the `:` that ends the name (`Name:x` and `Name:<TAB>x` are invalid)."),
	rules.Must(RuleFieldValueEmpty, secField, "Field values are non-empty."),
	rules.Must(RuleFieldUTF8, secField, "Names and values are strict UTF-8 (no overlongs, surrogates, values above U+10FFFF or truncated sequences)."),
	rules.Must(RuleFieldNFC, secField, "Names and values are in Unicode Normalization Form C."),
	rules.Must(RuleFieldUnicode17, secField, "H3 NFC is Normalization Form C under Unicode 17.0.0."),
	rules.Must(RuleFieldLF, secField, "Lines end with LF only; CR and CRLF are invalid."),
	rules.Must(RuleFieldControl, secField, "Control bytes 0x00..0x1F and 0x7F are forbidden in name and value bytes; the terminating LF is structural.").
		Clarified("the prohibition names bytes: C1 controls (U+0080..U+009F), U+2028/U+2029 and bidirectional controls are NFC text none of whose UTF-8 bytes is 0x00..0x1F or 0x7F, so they are valid data (once reading LACE-READ-16)"),
	rules.Must(RuleFieldLineLength, secField, "One complete `<Name>: <value>` is at most 128 UTF-8 bytes, excluding the LF."),
	rules.Must(RuleFieldWhitespace, secField, "Whitespace in a value is data and is never trimmed."),
	rules.Must(RuleFieldStructural, secField, "The structural Data-Length, By and Mark lines satisfy the same line and text rules in addition to their form-specific rules."),
	rules.Must(RuleFieldLeadingSpace, secField, "The separator is the single space after the first `: `; further spaces begin the value, so `Name:  x` is valid with value ` x` (project decision).").Defined("the spec does not say whether a second space after `:` is data or an error; reading it as data is the project's decision (docs/lace.md, Field lines)"),

	rules.Must(RuleBlobDataLengthLine, secBlob, "The Blob canonical payload begins with the Data-Length line."),
	rules.Must(RuleBlobBlankLine, secBlob, "The Data-Length line is followed by exactly one blank LF line before the data."),
	rules.Must(RuleBlobDataLength, secBlob, "Data-Length uses ASCII decimal digits [0-9] with no leading zero except 0 (`Data-Length: 01` is invalid)."),
	rules.Must(RuleBlobExactData, secBlob, "Readers consume exactly <len> data bytes; fewer bytes present is invalid."),
	rules.Must(RuleBlobMaxData, secBlob, "Blob data does not exceed 32 MiB (33,554,432 bytes).").
		Precedence("the limit is judged from the Data-Length line before any data is read: a Data-Length over 32 MiB followed by fewer bytes reports this rule, not LACE-BLOB-04 (once reading LACE-READ-13), and a canonical Data-Length of 2^64 or more, judged without converting it to a machine integer, this rule too, not LACE-BLOB-03 (once reading LACE-READ-15)"),
	rules.Must(RuleBlobOpaque, secBlob, "Blob data is opaque and may contain any bytes, including bytes that resemble field lines, record glyphs or ILTP items."),
	rules.Must(RuleBlobEmptyData, secBlob, "Empty Blob data (Data-Length: 0) is valid, also in the Blob embedded in a Plex or Seal.").
		Clarified("the spec states it: \"Data-Length uses ASCII decimal digits [0-9] with no leading zero except 0\", \"empty specification -> empty Blob\", \"Omitted data means empty bytes\" with \"By-secret plus one or more fields -> Seal over Plex\", and chunk nodes and directories are each \"an H3 Plex with empty data\" (once reading LACE-READ-02)"),

	rules.Must(RulePlexStructure, secPlex, "A Plex canonical payload is its application field lines followed immediately by one complete embedded Blob record."),
	rules.Must(RulePlexMinFields, secPlex, "A Plex has at least one application field occurrence (N >= 1)."),
	rules.Must(RulePlexMaxFields, secPlex, "A Plex has at most 512 application field occurrences (N <= 512)."),
	rules.Untestable(rules.Should(RulePlexKindField, secPlex, "By convention applications prefer `#<application>: <kind>` fields over generic labels such as `Kind: dots`."),
		"binds applications, which choose their field names; readers and constructors treat #-names as any other (that they sort before letters is LACE-PLEX-05's bytewise order: plex-kind-field-convention, construct-names-bytewise)"),
	rules.Must(RulePlexSortNames, secPlex, "Plex application field occurrences sort by field name in bytewise ascending UTF-8 order."),
	rules.Must(RulePlexSameName, secPlex, "Occurrences with the same name are consecutive and retain caller order."),
	rules.Must(RulePlexCtorOrder, secPlex, "A constructor preserves supplied order among same-name occurrences while sorting different names."),
	rules.Must(RulePlexOrder, secPlex, "A parser rejects a decrease in adjacent field-name bytes."),
	rules.Must(RulePlexValuesUnsorted, secPlex, "Values do not participate in canonical field ordering."),
	rules.Must(RulePlexReserved, secPlex, "A Plex application field using a reserved name (Data-Length, By, Mark, 🖧 or ⋯🖧) is invalid."),
	rules.Must(RulePlexReservedOnly, secPlex, "The reserved names are exactly Data-Length, By, Mark, 🖧 and ⋯🖧; every other valid name (case variants, names containing them) is an ordinary application name."),
	rules.Must(RulePlexNoSchema, secPlex, "All application field names use the same occurrence model and applications, not the record layer, define schemas (required fields, singletons, identifiers, scopes, value shapes, versions, ordering meaning): a Plex in which a conventional name such as Kind or a #<application> name repeats, or in which none occurs, is a valid record."),

	rules.Must(RuleSealStructure, secSeal, "A Seal canonical payload is exactly the structural By line, the Mark line and one complete embedded Plex record."),
	rules.Must(RuleSealByFirst, secSeal, "By appears first in a Seal."),
	rules.Must(RuleSealByText, secSeal, "By contains canonical V.<b64a>.H3 verification-key text as defined by 009."),
	rules.Must(RuleSealMarkSecond, secSeal, "Mark appears second in a Seal."),
	rules.Must(RuleSealMarkText, secSeal, "Mark contains one canonical 009 Mark (86 B64A characters)."),
	rules.Must(RuleSealSubject, secSeal, "The Mark subject is the 32 decoded digest bytes of the immediately embedded Plex record's P.<b64a>.H3 glyph; a Mark over the Blob or Seal digest is invalid."),
	rules.Must(RuleSealVerify, secSeal, "Readers verify the Mark under By (and, by LACE-GLYPH-06/07, the Seal hash and the complete embedded Plex and Blob)."),
	rules.Must(RuleSealNoBlob, secSeal, "A Seal cannot wrap a bare Blob."),
	rules.Must(RuleSealNoEnvelope, secSeal, "A Seal contains no additional envelope fields beside By and Mark."),

	rules.Must(RuleCtorEmpty, secCtor, "An empty constructor specification gives the empty Blob."),
	rules.Must(RuleCtorDataOnly, secCtor, "A specification with only data gives a Blob."),
	rules.Must(RuleCtorFields, secCtor, "A specification with one or more fields (and no By-secret) gives a Plex."),
	rules.Must(RuleCtorSecretOnly, secCtor, "A By-secret with no fields is an error."),
	rules.Must(RuleCtorSeal, secCtor, "A By-secret plus one or more fields gives a Seal over the Plex."),
	rules.Must(RuleCtorOmittedData, secCtor, "Omitted data means empty bytes."),
	rules.Must(RuleCtorNoInvented, secCtor, "Constructors do not manufacture an application field, placeholder, identifier, scope, time or version."),
	rules.Must(RuleCtorValidate, secCtor, "Constructors validate field names and values by the field-line rules."),
	rules.Must(RuleCtorReserved, secCtor, "Constructors reject reserved field names."),
	rules.Must(RuleCtorDeriveMark, secCtor, "Constructors derive By and the Mark from the supplied By-secret under 009; a public By value is record output, never a constructor input."),

	rules.Must(RuleLinkName, secLink, "A Plex application field named +Link or ending with +Link is a record-link field and remains an ordinary sorted, hash-significant field occurrence under the same count and line limits."),
	rules.Must(RuleLinkData, secLink, "In a well-formed record-link value `<link-data> <target-hash>` the link data is non-empty."),
	rules.Must(RuleLinkSeparator, secLink, "The final separator before the target hash is exactly one ASCII space."),
	rules.Must(RuleLinkTarget, secLink, "The target hash is typed record-hash text beginning with B., P. or S."),
	rules.Must(RuleLinkAnySuffix, secLink, "Parsing a link does not require the target suffix to be H3."),
	rules.Must(RuleLinkSuffixDefines, secLink, "The record definition named by the target suffix defines the target payload syntax and validation."),
	rules.Must(RuleLinkDataSpaces, secLink, "Link data is application-defined text and may contain spaces."),
	rules.Must(RuleLinkSplit, secLink, "Readers split a link value at the last ASCII space without trimming either part; preceding spaces are link data (`name  B.<d>.H3` has link data `name `)."),
	rules.Must(RuleLinkBudget, secLink, "Name, separator, link data, separator space and target hash share the ordinary 128-byte field-line budget."),
	rules.Must(RuleLinkMalformedOK, secLink, "A malformed record-link value does not invalidate an otherwise valid field occurrence; it remains an ordinary application field."),
	rules.Must(RuleLinkIndexIgnore, secLink, "Layers that index record links ignore malformed link values."),
	rules.Must(RuleLinkUnsupported, secLink, "A link whose target format is unsupported may be indexed as a target but yields validated record facts only after its bytes validate under a locally supported record definition."),
	rules.Must(RuleLinkExamples, secLink, "The spec's examples `+Link: evidence S.EXAMPLE_SEAL_HASH.H3` and `Chunk+Link: 0..33554432 B.EXAMPLE_BLOB_HASH.H3` are record-link fields with link data `evidence` and `0..33554432`; their targets are symbolic hashes, well-formed links when the payload is left to the suffix's record definition (LACE-READ-18's default).").
		Defined("the examples' target hashes are placeholders, not H3 digests, and the spec does not say whether a link parser checks a payload: that the examples parse as links is the default of reading LACE-READ-18 (docs/READINGS.md), under whose alternative h3-payload-checked they are malformed links of a valid record"),
	rules.Must(RuleConvRecordValid, secLink, "A record that violates an opt-in convention remains a valid H3 record when it satisfies the generic rules."),
	rules.Must(RuleConvRawFields, secLink, "Convention consumers check every raw field occurrence, including malformed links omitted from RecordLink facts."),
	rules.Must(RuleConvNoNames, secLink, "The opt-in conventions reserve no names: Kind, Chunk+Link, File+Link, Child+Link and Page+Link stay ordinary application names, valid in any Plex, in any number and with any value."),
	rules.Must(RuleConvNoCtor, secLink, "The conventions change no generic constructor rule: a constructor given their names builds the record as for any names, sorted by name with same-name caller order kept (File+Link, Child+Link and Page+Link occurrences are not sorted by their link data), with no convention check."),
	rules.Must(RuleLinkNotAcquired, secLink, "Lace does not automatically acquire links or assemble files and directories: validating a record or a record stream never resolves its links, so a record whose link targets are absent is valid."),

	rules.Must(RuleChunkPlex, secChunk, "A chunk node is an H3 Plex (a Seal or non-H3 record is not a chunk node)."),
	rules.Must(RuleChunkEmptyData, secChunk, "A chunk node's Blob data is empty.").
		Precedence("a record's convention shape is checked in this order: form, empty data, the Kind field, other fields, then each link; so an application Plex with data used as a chunk child reports this rule rather than LACE-CHUNK-09 (once reading LACE-READ-06)"),
	rules.Must(RuleChunkKind, secChunk, "A chunk node has exactly one `Kind: chunks` field."),
	rules.Must(RuleChunkLinks, secChunk, "A chunk node has one or more Chunk+Link occurrences."),
	rules.Must(RuleChunkNoOther, secChunk, "A chunk node has no application fields other than Kind and Chunk+Link."),
	rules.Must(RuleChunkTarget, secChunk, "Each Chunk+Link targets a canonical H3 Blob or another chunk-node Plex."),
	rules.Must(RuleChunkNoSeal, secChunk, "A Chunk+Link targeting a Seal is invalid."),
	rules.Must(RuleChunkFormat, secChunk, "A Chunk+Link whose target uses an unsupported (non-H3) hash format is invalid, not missing.").
		Clarified("the spec states it: \"Each link targets a canonical H3 Blob or another chunk-node Plex; Seals, unsupported formats and other Plex shapes are invalid\"; a non-H3 target is invalid before any lookup (once reading LACE-READ-03)"),
	rules.Must(RuleChunkOtherPlex, secChunk, "A Chunk+Link targeting a Plex of another shape is invalid (reported under the chunk-node shape rule it breaks)."),
	rules.Must(RuleChunkBareBlob, secChunk, "A file may instead be a bare Blob."),
	rules.Must(RuleChunkEmptyFile, secChunk, "An empty file is an empty Blob."),
	rules.Must(RuleChunkRangeForm, secChunk, "Chunk+Link data is exactly start..end."),
	rules.Must(RuleChunkDecimal, secChunk, "Both endpoints are canonical unsigned decimal integers with no sign, whitespace or leading zero except 0."),
	rules.Must(RuleChunkOverflow, secChunk, "Both endpoints are in 0..=u64::MAX; a larger value is arithmetic overflow and invalid."),
	rules.Must(RuleChunkPositive, secChunk, "Convention readers require positive half-open ranges (start < end)."),
	rules.Must(RuleChunkStartZero, secChunk, "The first range of a chunk node starts at zero."),
	rules.Must(RuleChunkContiguous, secChunk, "Ranges are contiguous in occurrence order: each start equals the previous end."),
	rules.Must(RuleChunkChildLength, secChunk, "Each range length equals its child's complete logical length (a Blob's data, a chunk node's described bytes); the range relocates the whole child, never a slice."),
	rules.Must(RuleChunkFinalEnd, secChunk, "The final end is the node's positive logical length, not its structural Data-Length."),
	rules.Must(RuleChunkChildExists, secChunk, "Every child exists and validates before the file is available; a missing child is invalid.").
		Clarified("an empty stream given as a file is no file: an empty file is itself a record (\"an empty file is an empty Blob\"), and the root is the stream's first record (docs/PROTOCOL.md, lace.chunks), so a stream with none has no file to make available (once reading LACE-READ-12)"),
	rules.Must(RuleChunkNoPartial, secChunk, "Missing children, invalid shapes or ranges, or overflow never produce a partial file."),
	rules.Must(RuleChunkSharing, secChunk, "Repeated child references at separate ranges are valid sharing."),
	rules.Must(RuleChunkFanout, secChunk, "One Kind field leaves at most 511 Chunk+Link occurrences per node; larger files use additional levels without changing the 32 MiB per-Blob limit."),
	rules.Must(RuleChunkHashSignificant, secChunk, "Chunking is hash-significant: different chunk trees of equal assembled bytes are different records."),

	rules.Must(RuleDirPlex, secDir, "A directory root or page is an H3 Plex."),
	rules.Must(RuleDirEmptyData, secDir, "A directory root or page has empty Blob data."),
	rules.Must(RuleDirKind, secDir, "A directory root or page has exactly one `Kind: directory` field."),
	rules.Must(RuleDirOnlyFields, secDir, "Its only other application fields are File+Link, Child+Link and Page+Link."),
	rules.Must(RuleDirFileTarget, secDir, "A File+Link's link data is a filename component and its target a canonical H3 Blob or chunk-node Plex hash."),
	rules.Must(RuleDirChildTarget, secDir, "A Child+Link's link data is a directory-name component and its target a canonical H3 directory Plex hash."),
	rules.Must(RuleDirPageTarget, secDir, "A Page+Link's link data is a local decimal ordinal and its target a canonical H3 directory Plex hash."),
	rules.Must(RuleDirEmpty, secDir, "An empty directory has only `Kind: directory` and is valid."),
	rules.Must(RuleDirNameEmpty, secDir, "A name is one non-empty component."),
	rules.Untestable(rules.Must(RuleDirNameNFC, secDir, "A name is UTF-8 in NFC."),
		"subsumed by LACE-FIELD-06 and LACE-FIELD-07: a name is the part of a UTF-8 NFC field value before an ASCII space, a starter that composes with nothing, so a name that is not UTF-8 NFC lies in a value those rules reject first (convention.TestNameRulesSubsumed)"),
	rules.Must(RuleDirNameDots, secDir, "A name is neither `.` nor `..`."),
	rules.Must(RuleDirNameSlash, secDir, "A name contains no `/`."),
	rules.Untestable(rules.Must(RuleDirNameControl, secDir, "A name contains no C0 or DEL control bytes."),
		"subsumed by LACE-FIELD-09 and LACE-FIELD-10: a control byte in a name is one in its field value, which those rules reject first (convention.TestNameRulesSubsumed)"),
	rules.Must(RuleDirNameExact, secDir, "Accepted names keep their exact bytes, including leading and trailing spaces; consumers never trim, normalize, truncate or alias names.").
		Clarified("the spec states it: \"Accepted names preserve their exact bytes, including leading and trailing spaces\"; ' lead' and 'trail ' are names distinct from 'lead' and 'trail' (once reading LACE-READ-08; that a value may begin with a space is LACE-READ-01)"),
	rules.Must(RuleDirNameBudget, secDir, "With 48-byte H3 targets the 128-byte line limit permits 68 filename bytes for File+Link and 67 directory-name bytes for Child+Link."),
	rules.Must(RuleDirFileOrder, secDir, "Within each record File+Link occurrences sort by filename bytes; a decrease is rejected."),
	rules.Must(RuleDirChildOrder, secDir, "Within each record Child+Link occurrences sort by directory-name bytes; a decrease is rejected."),
	rules.Must(RuleDirParsedNames, secDir, "Readers compare parsed names, not complete link values."),
	rules.Must(RuleDirPageOrdinal, secDir, "Each Page+Link ordinal is canonical unsigned decimal text equal to its same-name occurrence index: 0, 1, and so on."),
	rules.Must(RuleDirUnion, secDir, "A logical directory unions its direct entries with those reached recursively through pages; pages add no path component and a child starts a new logical directory."),
	rules.Must(RuleDirUnique, secDir, "Names are unique across the entire logical directory, over both entry kinds and all pages, even for repeated same-target declarations."),
	rules.Must(RuleDirPagesUnordered, secDir, "No name ordering is required between pages."),
	rules.Must(RuleDirExists, secDir, "Every referenced page, child and file exists and validates; missing entries are never silently omitted.").
		Clarified("an empty stream given as a directory is no directory: an empty directory is itself a record (\"An empty directory has only Kind: directory\"), and the root is the stream's first record (docs/PROTOCOL.md, lace.directory), so a stream with none has no directory (once reading LACE-READ-12)"),
	rules.Must(RuleDirFormat, secDir, "A target with an unsupported (non-H3) hash format is invalid rather than a missing dependency.").
		Clarified("the spec states it: \"Unsupported hash formats and wrong target families are invalid rather than missing dependencies\", and every target of the table is a \"Canonical H3 target\", so every non-H3 suffix is unsupported here (once reading LACE-READ-03)"),
	rules.Must(RuleDirFamily, secDir, "A target of the wrong family (B., P. or S. not allowed for its field) is invalid rather than a missing dependency."),
	rules.Must(RuleDirFanout, secDir, "One Kind field leaves at most 511 links per record; pages may reference further pages, so the first record's capacity does not bound a logical directory."),
	rules.Must(RuleDirReuse, secDir, "Reusing a child subtree under different names is valid and expands at each placement."),
	rules.Must(RuleDirHashSignificant, secDir, "Page layout is hash-significant even when two layouts describe the same names and files."),
	rules.Must(RuleDirDepth, secDir, "Consumers bound reference depth.").Defined("the spec requires a bound but gives no number: the default of 64 links from the root, and the max_depth argument, are the project's (docs/lace.md, Chunk sequences and directories)"),
	rules.Must(RuleDirExpansion, secDir, "Consumers bound logical expansion, counting repeated uses rather than only distinct hashes.").Defined("the spec requires a bound but gives no number: the defaults of 1,048,576 link uses and 1 GiB of assembled file, and the max_expansion and max_bytes arguments, are the project's (docs/lace.md, Chunk sequences and directories)"),
	rules.Untestable(rules.Must(RuleDirCycle, secDir, "Consumers reject reference cycles."),
		"a cycle of H3 links needs a record whose links reach its own BLAKE3 digest, a preimage: no record stream holds one, since records are found by their own hashes (the check is tested with a resolver that does not key records by hash: the cycle cases of convention.TestFileRejections and TestDirectoryRejections)"),
	rules.Must(RuleDirBoundsGeneric, secDir, "Consumers' bounds on reference depth and logical expansion do not change the generic H3 record limits: a record stream that a directory consumer refuses for its bounds (a chain of children deeper than its depth bound) is still a valid stream of valid records."),

	rules.Must(RuleNestBlob, secNest, "A Blob contains no record; its data is never parsed as records."),
	rules.Must(RuleNestPlex, secNest, "A Plex directly embeds exactly one Blob; an embedded Plex or Seal is invalid."),
	rules.Must(RuleNestSeal, secNest, "A Seal directly embeds exactly one Plex, which embeds one Blob; an embedded Seal is invalid."),
	rules.Must(RuleNestComplete, secNest, "Canonical nesting validates the complete outer structure, including every embedded record."),

	rules.Must(RuleSizeBlob, secSize, "At maximum data length a complete Blob is at most 33,554,510 bytes."),
	rules.Must(RuleSizePlex, secSize, "A Plex adds one 55-byte glyph line and at most 512 field lines of 129 bytes, for at most 33,620,613 bytes."),
	rules.Must(RuleSizeSeal, secSize, "A Seal adds one 55-byte glyph line, a 53-byte By line and a 93-byte Mark line, for at most 33,620,814 bytes."),
	rules.Must(RuleSizeNotProof, secSize, "Implementations validate structure rather than accepting a record merely because it fits the maximum."),

	rules.Must(RuleVecBlob, secVector, "The canonical Blob with data `hello` (no final LF) is byte-exact with hash B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3."),
	rules.Must(RuleVecPlex, secVector, "The canonical Plex with fields App: chat, App: archive, Group: room7, Name: note, TAI: tomorrow over that Blob is byte-exact with hash P.roNBC0l3CG4ezmPY5F3H_pLBDBecaAYZRbOJ1aT7pqK.H3."),
	rules.Must(RuleVecSeal, secVector, "The canonical Seal over that Plex is byte-exact with hash S.ZGEVHbEEKmCMF2aSbmbQ4~trwxANOQFmraeGg_JAp9C.H3 and canonical By and Mark text."),
	rules.Must(RuleVecAppOrder, secVector, "The two App occurrences retain caller order (chat, then archive) although their values would sort differently."),
	rules.Must(RuleVecSealMark, secVector, "The Seal's Mark is the 009 Mark by the secret of 32 0x07 bytes with auxRand32 of 32 0x01 bytes over the decoded digest of the displayed Plex glyph (verifiable only with the real 009)."),

	rules.Must(RuleExLineASCII, secExamples, "`X: ` plus 125 ASCII `a` (128 bytes) is accepted and `X: ` plus 126 (129 bytes) is rejected."),
	rules.Must(RuleExLineUTF8, secExamples, "`X: ` plus 62 NFC `é` and one `a` (128 bytes) is accepted; one more ASCII byte is rejected."),
	rules.Must(RuleExOneField, secExamples, "A Plex with one application field is valid; a Plex whose glyph is followed immediately by an embedded Blob has zero fields and is invalid."),
	rules.Must(RuleExMaxFields, secExamples, "A Plex with 512 field occurrences is valid; 513 is invalid."),
	rules.Must(RuleExRepeatedNames, secExamples, "Repeated names are valid and their order is significant: `Label: second`, `Label: first`, `Mode: public` is valid in this order."),
	rules.Must(RuleExReversed, secExamples, "Reversing Label and Mode is invalid because Mode sorts after Label."),
	rules.Must(RuleExNoValueSort, secExamples, "Sorting the two Label values is neither required nor permitted as a constructor canonicalization."),
	rules.Must(RuleExGroupFirst, secExamples, "Moving `Group: room7` before the App lines of the canonical vector and recomputing the Plex and Seal hashes is invalid."),
	rules.Must(RuleExForeignMark, secExamples, "Replacing the canonical Seal's Mark with the 009 known-answer Mark and recomputing the Seal hash is invalid: that Mark was made over a different digest."),
	rules.Must(RuleExSealOverBlob, secExamples, "Replacing the Seal's embedded Plex with the displayed Blob and recomputing the Seal hash is invalid because a Seal cannot wrap a Blob."),
)

// conventionOnly is the clarified note of a rule the spec states as a
// convention, quoting it: it asks nothing, and the catalog, whose levels
// are MUST and SHOULD, keeps it at the weaker.
func conventionOnly(quote string) string {
	return "the spec says \"" + quote + "\" and no requirement keyword: the convention asks nothing of an implementation: catalogued at level CONVENTION, untestable, it never fails nor warns a testee"
}
