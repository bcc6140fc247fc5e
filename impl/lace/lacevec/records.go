package lacevec

import (
	"strings"

	"github.com/threespec/conformance/impl/lace"
	"github.com/threespec/conformance/impl/rules"
)

// Record vectors (lace.record), one family per section of Lace-010. Unless a
// vector's verdict depends on verifying a stand-in Mark, it runs with mark
// none, so that implementations without the stand-in scheme can run it.

func strp(s string) *string { return &s }

// textCase is one row of a table of inputs that differ in one text (a field
// line, a hash text, a Data-Length line, link data): the vector's name, the
// text, the rule that rejects it and the comment.
type textCase struct {
	name, text string
	rule       rules.ID
	comment    string
}

// blobDL is the Blob of data with the Data-Length line dl.
func blobDL(data []byte, dl string) record {
	r := blobR(data)
	r.dl = &dl
	return r
}

// blobBlank is the Blob of data with blank between its Data-Length line and
// its data instead of one LF.
func blobBlank(data []byte, blank string) record {
	r := blobR(data)
	r.blank = &blank
	return r
}

// helloPlex is a Plex over the Blob hello with the given raw field lines.
func helloPlex(fields ...string) record { return plexR(hello, fields...) }

// Shared field-line rules keep bytes canonical (LACE-FIELD-01..14).
func fieldVectors(g *gen) {
	dec := tags("decision")
	g.acceptFields("plex-value-leading-space", helloPlex("Name:  x"), ids(lace.RuleFieldLeadingSpace, lace.RuleFieldWhitespace), dec,
		"Name:  x is valid: one space separates, the second begins the value ' x' (whitespace in a value is data)")
	g.acceptFields("plex-value-spaces-kept", helloPlex("Note: a  b  "), ids(lace.RuleFieldWhitespace), nil,
		"inner and trailing spaces of a value are data: the hash covers them, nothing is trimmed")
	g.acceptFields("plex-value-with-colon-space", helloPlex("Note: a: b"), ids(lace.RuleFieldSyntax, lace.RuleFieldOneSpace), nil,
		"the separator is the first ': ': Note: a: b is the field Note with value 'a: b'")
	g.accept("plex-non-ascii-nfc", helloPlex("Grüße: café", "Ω: ε"), ids(lace.RuleFieldUTF8, lace.RuleFieldNFC), nil,
		"non-ASCII names and values in NFC are valid (names sort by bytes: G before Ω)")
	g.acceptFields("plex-value-c1-separators-bidi", helloPlex("Bidi: \u202eabc\u202c \u2066x\u2069\u200e", "C1: a\u0085b\u009fc", "Sep: a\u2028b\u2029c"), ids(lace.RuleFieldControl), nil,
		"C1 controls (U+0085 NEL, U+009F), U+2028/U+2029 and bidirectional controls (U+202E, U+202C, U+2066, U+2069, U+200E) in values: valid NFC text none of whose bytes is 0x00..0x1F or 0x7F; data, kept byte for byte (only LF ends a line)")
	g.acceptFields("plex-name-c1-and-bidi", helloPlex("N\u0085\u202e: x"), ids(lace.RuleFieldControl), nil,
		"a field name holding U+0085 and U+202E: the name rules forbid only :, space, tab and the C0/DEL bytes")
	g.accept("plex-value-unicode16-precomposed", helloPlex("Tulu: \U000113C5"), ids(lace.RuleFieldUnicode17, lace.RuleFieldNFC), nil,
		"U+113C5 (Tulu-Tigalari, new in Unicode 16.0) is NFC under Unicode 17.0.0")

	for _, c := range []textCase{
		{"plex-field-no-separator", "App chat", lace.RuleFieldSyntax, "a field line without ': ' (or any ':')"},
		{"plex-field-name-empty", ": chat", lace.RuleFieldNameEmpty, "a field line with an empty name"},
		{"plex-field-name-space", "Ap p: chat", lace.RuleFieldNameChars, "a field name containing a space"},
		{"plex-field-name-tab", "Ap\tp: chat", lace.RuleFieldNameChars, "a field name containing a tab"},
		{"plex-field-name-colon", "a:b: chat", lace.RuleFieldNameChars, "a:b: chat is the name a:b (the first ': ' separates), which contains ':'"},
		{"plex-field-no-space-after-colon", "App:chat", lace.RuleFieldOneSpace, "App:chat: no space follows the ':'"},
		{"plex-field-tab-after-colon", "App:\tchat", lace.RuleFieldOneSpace, "App:<TAB>chat: a tab is not the one ASCII space"},
		{"plex-field-value-empty", "App: ", lace.RuleFieldValueEmpty, "App: followed by its separator space and nothing: an empty value"},
		{"plex-value-invalid-utf8-ff", "App: ch\xffat", lace.RuleFieldUTF8, "a value holding the byte FF, never UTF-8"},
		{"plex-value-utf8-overlong", "App: \xc0\xaf", lace.RuleFieldUTF8, "a value holding C0 AF, an overlong encoding of '/'"},
		{"plex-value-utf8-surrogate", "App: \xed\xa0\x80", lace.RuleFieldUTF8, "a value holding ED A0 80, the surrogate U+D800"},
		{"plex-value-utf8-above-10ffff", "App: \xf4\x90\x80\x80", lace.RuleFieldUTF8, "a value holding F4 90 80 80, above U+10FFFF"},
		{"plex-value-utf8-truncated", "App: chat\xe2\x82", lace.RuleFieldUTF8, "a value ending in E2 82, a three-byte sequence cut short"},
		{"plex-name-invalid-utf8", "Ap\xffp: chat", lace.RuleFieldUTF8, "a name holding the byte FF"},
		{"plex-value-not-nfc-combining-acute", "Name: note\u0301", lace.RuleFieldNFC, "note + U+0301 COMBINING ACUTE ACCENT is not NFC (NFC is noté)"},
		{"plex-name-not-nfc", "Cafe\u0301: x", lace.RuleFieldNFC, "a field name e + U+0301 that is not NFC"},
		{"plex-value-not-nfc-singleton", "Unit: \u212b", lace.RuleFieldNFC, "U+212B ANGSTROM SIGN is a singleton decomposition, never NFC"},
		{"plex-value-not-nfc-hangul-jamo", "Name: \u1100\u1161", lace.RuleFieldNFC, "conjoining jamo U+1100 U+1161 compose to U+AC00 under NFC"},
		{"plex-value-crlf", "App: chat\r", lace.RuleFieldLF, "a field line ending with CRLF"},
		{"plex-value-cr-inside", "App: ch\rat", lace.RuleFieldLF, "a CR inside a value"},
		{"plex-name-cr", "Ap\rp: chat", lace.RuleFieldLF, "a CR inside a name"},
		{"plex-value-nul", "App: ch\x00at", lace.RuleFieldControl, "a NUL byte inside a value"},
		{"plex-value-unit-separator", "App: ch\x1fat", lace.RuleFieldControl, "the control byte 1F inside a value"},
		{"plex-value-del", "App: ch\x7fat", lace.RuleFieldControl, "the DEL byte 7F inside a value"},
		{"plex-value-tab", "App: ch\tat", lace.RuleFieldControl, "a tab (09) inside a value: a control byte"},
		{"plex-name-control", "Ap\x01p: chat", lace.RuleFieldControl, "the control byte 01 inside a name"},
		{"plex-field-name-129-bytes", strings.Repeat("N", 126) + ": x", lace.RuleFieldLineLength, "a 126-byte name, ': ' and a one-byte value: 129 bytes"},
	} {
		g.reject(c.name, helloPlex(c.text).bytes(), ids(c.rule), nil, c.comment)
	}

	// Non-NFC under Unicode 16.0+ tables only (LACE-FIELD-08): these pairs
	// compose under the Unicode 17.0.0 tables but not under 15.0.0 ones.
	for _, c := range []textCase{
		{"plex-value-not-nfc-unicode16-tulu", "Tulu: \U000113C2\U000113C2", lace.RuleFieldNFC, "U+113C2 U+113C2 composes to U+113C5 (Unicode 16.0): not NFC under 17.0.0, NFC under 15.0.0 tables"},
		{"plex-value-not-nfc-unicode16-tulu-ii", "Tulu: \U00011382\U000113C9", lace.RuleFieldNFC, "U+11382 U+113C9 composes to U+11383 (Unicode 16.0): not NFC under 17.0.0"},
		{"plex-value-not-nfc-unicode16-todhri", "Todhri: \U000105D2\u0307", lace.RuleFieldNFC, "U+105D2 U+0307 composes to U+105C9 (Unicode 16.0): not NFC under 17.0.0"},
	} {
		g.reject(c.name, helloPlex(c.text).bytes(), ids(c.rule, lace.RuleFieldUnicode17), nil, c.comment)
	}

	// The structural Data-Length, By and Mark lines obey the same line rules (LACE-FIELD-13).
	g.reject("blob-data-length-crlf", blobDL(hello, "Data-Length: 5\r").bytes(), ids(lace.RuleFieldLF, lace.RuleFieldStructural), nil,
		"the Data-Length line ends with CRLF")
	g.reject("blob-blank-line-crlf", blobBlank(hello, "\r\n").bytes(), ids(lace.RuleFieldLF, lace.RuleBlobBlankLine), nil,
		"the blank line after Data-Length is CRLF")
	g.reject("blob-data-length-trailing-tab", blobDL(hello, "Data-Length: 5\t").bytes(), ids(lace.RuleFieldControl, lace.RuleFieldStructural), nil,
		"the Data-Length value 5<TAB> holds a control byte")
	g.reject("seal-mark-line-crlf", sealR([]string{"By: " + seedBy, "Mark: " + seedMark + "\r"}, seedPlex()).bytes(),
		ids(lace.RuleFieldLF, lace.RuleFieldStructural), nil, "the canonical Seal with its Mark line ending in CRLF, hash recomputed")
	g.reject("seal-by-line-nul", sealR([]string{"By: " + seedBy + "\x00", "Mark: " + seedMark}, seedPlex()).bytes(),
		ids(lace.RuleFieldControl, lace.RuleFieldStructural), nil, "the canonical Seal with a NUL byte after its By text, hash recomputed")
	g.reject("record-glyph-line-crlf", withGlyph(seedBlobHash+"\r", seedBlob().blobPayload()...),
		ids(lace.RuleFieldLF, lace.RuleFieldStructural), nil, "the canonical Blob with its glyph line ending in CRLF")
	g.reject("blob-data-length-two-spaces", blobDL(hello, "Data-Length:  5").bytes(), ids(lace.RuleBlobDataLength, lace.RuleFieldLeadingSpace), dec,
		"Data-Length:  5 has the value ' 5' (one space separates), which is not canonical decimal")
}

// Every stored record starts with a record glyph line (LACE-GLYPH-01..10).
func glyphVectors(g *gen) {
	blobPayload := seedBlob().blobPayload()
	digest := seedBlobHash[2:45] // the 43 B64A characters of the canonical Blob

	g.reject("record-empty", []byte{}, ids(lace.RuleGlyphLine), nil, "empty input is no stored record: it has no record glyph line")
	g.reject("record-starts-with-data-length", concat(blobPayload...), ids(lace.RuleGlyphLine), nil,
		"the canonical Blob's payload without its glyph line")
	g.reject("record-glyph-without-space", append([]byte(glyph+":"+seedBlobHash+"\n"), concat(blobPayload...)...), ids(lace.RuleGlyphLine), nil,
		"🖧:B.… with no space after the glyph's colon")
	g.reject("record-bom-before-glyph", append([]byte("\ufeff"), seedBlob().bytes()...), ids(lace.RuleGlyphLine), nil,
		"a UTF-8 byte-order mark before the glyph line")
	g.reject("record-reserved-glyph-line", append([]byte(reservedGlyph+": "+seedBlobHash+"\n"), concat(blobPayload...)...), ids(lace.RuleGlyphLine), nil,
		"a record starting with the reserved ⋯🖧 instead of the record glyph")
	g.reject("record-other-glyph", append([]byte("🖥: "+seedBlobHash+"\n"), concat(blobPayload...)...), ids(lace.RuleGlyphLine), nil,
		"a record starting with U+1F5A5 instead of the record glyph U+1F5A7")

	for _, c := range []textCase{
		{"glyph-type-letter-x", "X." + digest + ".H3", lace.RuleGlyphHashText, "hash text type letter X: only B, P and S exist"},
		{"glyph-type-letter-lowercase", "b." + digest + ".H3", lace.RuleGlyphHashText, "hash text type letter b: letters are upper case"},
		{"glyph-suffix-h4", "B." + digest + ".H4", lace.RuleGlyphHashText, "hash text suffix .H4: H3 records end in .H3"},
		{"glyph-suffix-lowercase", "B." + digest + ".h3", lace.RuleGlyphHashText, "hash text suffix .h3"},

		{"glyph-digest-42-chars", "B." + digest[:42] + ".H3", lace.RuleGlyphDigestText, "a 42-character digest: 32 bytes are exactly 43 B64A characters"},
		{"glyph-digest-44-chars", "B." + digest + "0.H3", lace.RuleGlyphDigestText, "a 44-character digest"},
		{"glyph-digest-pad-bits", "B." + digest[:42] + nextChar(digest[42]) + ".H3", lace.RuleGlyphDigestText, "the last digest character carries non-zero pad bits: not canonical B64A"},
		{"glyph-digest-plus", "B." + digest[:10] + "+" + digest[11:] + ".H3", lace.RuleGlyphDigestText, "'+' is not a B64A character (B64A has _ and ~)"},
		{"glyph-digest-slash", "B." + digest[:10] + "/" + digest[11:] + ".H3", lace.RuleGlyphDigestText, "'/' is not a B64A character"},
	} {
		rs := ids(c.rule)
		if c.rule == lace.RuleGlyphDigestText {
			rs = append(rs, lace.RuleGlyphDigestBytes)
		}
		g.reject(c.name, withGlyph(c.text, blobPayload...), rs, nil, c.comment+" (the canonical Blob otherwise)")
	}

	g.reject("glyph-hash-text-empty", withGlyph("", blobPayload...), ids(lace.RuleFieldValueEmpty, lace.RuleGlyphHashText), nil,
		"a glyph line with nothing after '🖧: ': the glyph line's value is empty")

	// The glyph type matches the parsed form (LACE-GLYPH-05): each payload
	// under another type letter, digest computed over it.
	forms := []struct {
		name string
		r    record
	}{{"blob", seedBlob()}, {"plex", seedPlex()}, {"seal", signer7.seal(seedPlex())}}
	for _, f := range forms {
		for _, letter := range []byte{'B', 'P', 'S'} {
			if letter == f.r.form {
				continue
			}
			g.reject("glyph-type-"+formName(letter)+"-over-"+f.name+"-payload", rawRecord(letter, f.r.payload()...),
				ids(lace.RuleGlyphTypeMatch), nil, "a valid "+f.name+" payload under the glyph type "+string(letter)+", digest computed over it")
		}
	}

	// Outer and embedded digests (LACE-GLYPH-06, -07).
	otherBlob := blobR([]byte("hellp"))
	g.reject("blob-digest-mismatch", withGlyph(otherBlob.hash(), blobPayload...), ids(lace.RuleGlyphDigestMatch), nil,
		"the canonical Blob under the hash of the Blob hellp")
	g.reject("plex-outer-digest-mismatch", withGlyph("P."+digest+".H3", seedPlex().plexPayload()...), ids(lace.RuleGlyphDigestMatch), nil,
		"the canonical Plex under a P. glyph carrying the Blob's digest")
	g.reject("seal-outer-digest-mismatch", []byte(strings.Replace(seedSealText, seedSealHash, "S."+seedPlexHash[2:], 1)), ids(lace.RuleGlyphDigestMatch), nil,
		"the canonical Seal with its outer hash replaced by S. and the Plex's digest")
	g.reject("plex-embedded-blob-digest-mismatch", rawRecord('P', lines(seedFields), withGlyph(otherBlob.hash(), blobPayload...)),
		ids(lace.RuleGlyphEmbedded), nil, "the canonical Plex whose embedded Blob glyph names the Blob hellp, outer hash recomputed")
	g.reject("seal-embedded-plex-digest-mismatch",
		rawRecord('S', lines([]string{"By: " + seedBy, "Mark: " + seedMark}), withGlyph(plexR(hello, "App: chat").hash(), seedPlex().plexPayload()...)),
		ids(lace.RuleGlyphEmbedded), nil, "the canonical Seal whose embedded Plex glyph names another Plex, Seal hash recomputed")
	g.reject("seal-embedded-blob-digest-mismatch",
		rawRecord('S', lines([]string{"By: " + seedBy, "Mark: " + seedMark}), rawRecord('P', lines(seedFields), withGlyph(otherBlob.hash(), blobPayload...))),
		ids(lace.RuleGlyphEmbedded), nil, "the canonical Seal whose innermost Blob glyph names the Blob hellp, Plex and Seal hashes recomputed")

	// No bytes after the complete record (LACE-GLYPH-08).
	g.reject("blob-trailing-lf", append([]byte(seedBlobText), '\n'), ids(lace.RuleGlyphTrailing), nil,
		"the canonical Blob followed by one LF: data is exactly Data-Length bytes")
	g.reject("seal-trailing-byte", append([]byte(seedSealText), 'x'), ids(lace.RuleGlyphTrailing), nil,
		"the canonical Seal followed by one byte x")
	g.reject("record-two-records", []byte(seedBlobText+seedPlexText), ids(lace.RuleGlyphTrailing, lace.RuleStreamLrsSuffix), nil,
		"two complete records: a stored record (.lr) holds exactly one; a stream is read with lace.stream")

	// A .lr name does not make bytes a record; readers validate (LACE-GLYPH-09, -10).
	notes := plexR([]byte(`{"note":"hi"}`), "App: notes")
	g.accept("notes.json", notes, ids(lace.RuleGlyphLrValidate, lace.RuleGlyphLrSuffix), nil,
		"a Plex whose data is notes.json, stored as notes.json.lr")
	g.reject("notes.json", []byte(`{"note":"hi"}`), ids(lace.RuleGlyphLine, lace.RuleGlyphLrValidate), nil,
		"the JSON data itself under a .lr name: the suffix marks canonical record bytes but readers still validate")
}

// nextChar is the B64A character after c (for a pad-bit flip: the last
// character of a 32-byte digest has two pad bits, so its successor has one set).
func nextChar(c byte) string {
	const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~"
	return string(alphabet[(strings.IndexByte(alphabet, c)+1)%64])
}

// Blob records carry opaque bytes (LACE-BLOB-01..07).
func blobVectors(g *gen) {
	g.accept("blob-empty", blobR(nil), ids(lace.RuleBlobEmptyData, lace.RuleBlobDataLength), nil,
		"the empty Blob: Data-Length: 0, the blank line and no data")
	opaque := concat([]byte(seedSealText), []byte("\r\n\x00\xff\xfe🖧: B.x.H3\nData-Length: 01\n\nKind: chunks\n"))
	g.accept("blob-data-opaque", blobR(opaque), ids(lace.RuleBlobOpaque, lace.RuleNestBlob), nil,
		"Blob data holding a whole Seal, CR, NUL, bytes that are not UTF-8 and field-like lines: opaque, never parsed")
	g.accept("blob-data-length-10", blobR([]byte("0123456789")), ids(lace.RuleBlobDataLength, lace.RuleBlobExactData), nil,
		"a two-digit Data-Length")
	g.accept("blob-data-only-lf", blobR([]byte("\n")), ids(lace.RuleBlobOpaque, lace.RuleBlobBlankLine), nil,
		"Data-Length: 1 with the data byte LF: one blank line, then the data")

	for _, c := range []textCase{
		{"blob-data-length-01", "Data-Length: 01", lace.RuleBlobDataLength, "Data-Length: 01 has a leading zero (data h)"},
		{"blob-data-length-00", "Data-Length: 00", lace.RuleBlobDataLength, "Data-Length: 00 has a leading zero (no data)"},
		{"blob-data-length-plus", "Data-Length: +1", lace.RuleBlobDataLength, "Data-Length: +1 has a sign"},
		{"blob-data-length-minus-zero", "Data-Length: -0", lace.RuleBlobDataLength, "Data-Length: -0 has a sign"},
		{"blob-data-length-trailing-space", "Data-Length: 1 ", lace.RuleBlobDataLength, "Data-Length: '1 ' has a trailing space"},
		{"blob-data-length-hex", "Data-Length: 0x1", lace.RuleBlobDataLength, "Data-Length: 0x1 is not decimal digits"},
		{"blob-data-length-arabic-indic", "Data-Length: ١", lace.RuleBlobDataLength, "Data-Length: U+0661 ARABIC-INDIC DIGIT ONE is not an ASCII digit"},
		{"blob-data-length-fullwidth", "Data-Length: １", lace.RuleBlobDataLength, "Data-Length: U+FF11 FULLWIDTH DIGIT ONE is not an ASCII digit"},
	} {
		data := []byte("h")
		if strings.HasSuffix(c.text, "00") || strings.HasSuffix(c.text, "-0") {
			data = nil
		}
		g.reject(c.name, blobDL(data, c.text).bytes(), ids(c.rule), nil, c.comment)
	}
	g.reject("blob-data-length-empty", blobDL(hello, "Data-Length: ").bytes(), ids(lace.RuleFieldValueEmpty, lace.RuleBlobDataLength), nil,
		"Data-Length: with an empty value")

	g.reject("blob-first-line-length", blobDL(hello, "Length: 5").bytes(), ids(lace.RuleBlobDataLengthLine), nil,
		"a Blob payload starting with Length: 5, not Data-Length")
	g.reject("blob-first-line-data-length-lowercase", blobDL(hello, "data-length: 5").bytes(), ids(lace.RuleBlobDataLengthLine), nil,
		"data-length: 5: the structural name is Data-Length, case and all")
	g.reject("blob-no-blank-line", blobBlank(hello, "").bytes(), ids(lace.RuleBlobBlankLine), nil,
		"Data-Length: 5 followed directly by hello, without the blank line")
	g.reject("blob-blank-line-space", blobBlank(hello, " \n").bytes(), ids(lace.RuleBlobBlankLine), nil,
		"the line after Data-Length holds a space: not a blank LF line")
	g.reject("blob-fewer-data-bytes", blobDL(hello, "Data-Length: 6").bytes(), ids(lace.RuleBlobExactData), nil,
		"Data-Length: 6 with five data bytes: readers consume exactly <len> bytes")
	g.reject("blob-data-length-huge", blobDL(hello, "Data-Length: 99999999999999999999999999").bytes(), ids(lace.RuleBlobMaxData), tags("boundary"),
		"a 26-digit Data-Length, far over 32 MiB, with five data bytes")
	// Data-Length is bounded by 32 MiB, so every value past it fails
	// LACE-BLOB-05, judged from its digits; these are the integer widths
	// a reader may convert it to (issue 26 item 7).
	for _, c := range []struct{ name, digits, what string }{
		{"blob-data-length-2-53-minus-1", "9007199254740991", "2^53-1, the largest integer below which a float64 holds every one"},
		{"blob-data-length-2-53", "9007199254740992", "2^53"},
		{"blob-data-length-2-53-plus-1", "9007199254740993", "2^53+1, which a float64 rounds to 2^53"},
		{"blob-data-length-2-64-minus-1", "18446744073709551615", "2^64-1, the largest u64"},
	} {
		g.reject(c.name, blobDL(hello, "Data-Length: "+c.digits).bytes(), ids(lace.RuleBlobMaxData), tags("boundary"),
			"Data-Length "+c.what+" with five data bytes: over 32 MiB")
	}
	g.reject("blob-data-length-2-64-plus-5", blobDL(hello, "Data-Length: 18446744073709551621").bytes(), ids(lace.RuleBlobMaxData), tags("boundary"),
		"Data-Length 2^64+5 with five data bytes: over 32 MiB (a reader converting the digits to a u64 that wraps would read 5 and accept)")
}

// Plex records attach generic fields to a Blob (LACE-PLEX-01..11).
func plexVectors(g *gen) {
	g.accept("plex-empty-data", plexR(nil, "App: chat"), ids(lace.RuleBlobEmptyData, lace.RulePlexStructure), nil,
		"a Plex over an empty Blob: empty data is valid inside a Plex")
	g.accept("plex-kind-field-convention", helloPlex("#Dots: game", "Name: note"), ids(lace.RulePlexKindField, lace.RulePlexSortNames), nil,
		"the #<application>: <kind> convention: #Dots sorts before alphabetic names")
	g.accept("plex-names-bytewise-order", helloPlex("#A: 1", "+Link: x B.y.H3", "0: digit", "Z: upper", "_: under", "a: lower", "~: tilde", "é: e-acute"),
		ids(lace.RulePlexSortNames, lace.RulePlexOrder), nil, "names in bytewise ascending order: # + 0 Z _ a ~ then multibyte é (C3 A9)")
	g.accept("plex-near-reserved-names", helloPlex("BY: x", "By-Line: x", "Data-length: 5", "Mark+Link: a B.x.H3", "Marks: x", "by: x", "⋯: x", "🖧🖧: x"),
		ids(lace.RulePlexReservedOnly), nil, "names that resemble the reserved ones (case variants, longer names, ⋯ alone, 🖧🖧) are ordinary")
	g.accept("plex-same-name-run", helloPlex("Tag: z", "Tag: a", "Tag: m", "Tag: a"), ids(lace.RulePlexSameName, lace.RulePlexValuesUnsorted), nil,
		"four occurrences of one name with unsorted and repeated values")

	g.reject("plex-names-uppercase-after-lowercase", helloPlex("a: 1", "Z: 2").bytes(), ids(lace.RulePlexOrder, lace.RulePlexSortNames), nil,
		"a before Z decreases: Z (5A) sorts before a (61) by bytes")
	g.reject("plex-same-name-split", helloPlex("A: 1", "B: 2", "A: 3").bytes(), ids(lace.RulePlexOrder, lace.RulePlexSameName), nil,
		"A, B, A: same-name occurrences are consecutive")
	g.reject("plex-names-multibyte-before-ascii", helloPlex("é: 1", "z: 2").bytes(), ids(lace.RulePlexOrder), nil,
		"é (C3 A9) before z (7A) decreases by bytes")

	for _, c := range []struct {
		name, line, comment string
	}{
		{"data-length", "Data-Length: 5", "Data-Length"},
		{"by", "By: " + seedBy, "By"},
		{"mark", "Mark: " + seedMark, "Mark"},
		{"reserved-glyph", reservedGlyph + ": x", "⋯🖧"},
	} {
		g.reject("plex-reserved-name-"+c.name, helloPlex("App: chat", c.line).bytes(), ids(lace.RulePlexReserved), nil,
			"a Plex application field named "+c.comment+", a reserved name")
	}
	g.reject("plex-reserved-name-glyph", helloPlex("App: chat", glyph+": note").bytes(), ids(lace.RuleGlyphHashText, lace.RulePlexReserved), nil,
		"a field named 🖧 in a Plex is read as the embedded record's glyph line, whose value note is no hash text")

	g.reject("plex-embeds-plex", rawRecord('P', []byte("App: outer\n"), seedPlex().bytes()), ids(lace.RuleNestPlex), nil,
		"a Plex whose embedded record is a Plex: a Plex embeds exactly one Blob")
	g.reject("plex-embeds-seal", rawRecord('P', []byte("App: outer\n"), signer7.seal(seedPlex()).bytes()), ids(lace.RuleNestPlex), nil,
		"a Plex whose embedded record is a Seal")
	g.reject("plex-blank-line-before-blob", rawRecord('P', []byte("App: chat\n\n"), seedBlob().bytes()), ids(lace.RuleFieldSyntax, lace.RulePlexStructure), nil,
		"a blank line between the fields and the embedded Blob: field lines are followed immediately by the Blob")
	g.reject("plex-without-embedded-record", rawRecord('P', []byte("App: chat\n")), ids(lace.RuleStreamTruncated, lace.RulePlexStructure), nil,
		"a Plex with fields and no embedded Blob: the input ends inside the record")
	g.reject("plex-two-embedded-blobs", concat(seedPlex().bytes(), seedBlob().bytes()), ids(lace.RuleGlyphTrailing, lace.RulePlexStructure, lace.RuleNestComplete), nil,
		"the canonical Plex followed by a second Blob: a Plex embeds one Blob; the rest is trailing bytes")
}

// Seal records carry one Mark over one Plex (LACE-SEAL-01..09).
func sealVectors(g *gen) {
	p := helloPlex("App: chat")
	env := signer7.env(p)
	by, mk := env[0], env[1]
	seal := func(e ...string) []byte { return sealR(e, p).bytes() }

	g.acceptMark("seal-standin-verified", markStandin, signer7.seal(p), ids(lace.RuleSealVerify, lace.RuleSealSubject, lace.RuleSealStructure), nil,
		"a Seal whose stand-in Mark by the secret of 32 0x07 bytes verifies over the embedded Plex digest")
	g.accept("seal-empty-data", signer7.seal(plexR(nil, "App: chat")), ids(lace.RuleBlobEmptyData, lace.RuleNestSeal), nil,
		"a Seal over a Plex over an empty Blob")

	for _, c := range []struct {
		name    string
		env     []string
		rule    rules.ID
		comment string
	}{
		{"seal-missing-by", []string{mk}, lace.RuleSealByFirst, "a Seal with a Mark line and no By line"},
		{"seal-mark-before-by", []string{mk, by}, lace.RuleSealByFirst, "a Seal with its Mark line before its By line"},
		{"seal-missing-by-and-mark", nil, lace.RuleSealByFirst, "a Seal glyph followed directly by the embedded Plex"},
		{"seal-missing-mark", []string{by}, lace.RuleSealMarkSecond, "a Seal with a By line and no Mark line"},
		{"seal-by-twice", []string{by, by, mk}, lace.RuleSealMarkSecond, "a Seal with two By lines: Mark must come second"},
		{"seal-extra-envelope-field", []string{by, mk, "Note: x"}, lace.RuleSealNoEnvelope, "a Seal with an envelope field after By and Mark"},
		{"seal-mark-twice", []string{by, mk, mk}, lace.RuleSealNoEnvelope, "a Seal with a second Mark line"},
		{"seal-by-prefix-w", []string{"By: W." + by[6:], mk}, lace.RuleSealByText, "By text starting W. instead of V."},
		{"seal-by-suffix-h4", []string{by[:len(by)-1] + "4", mk}, lace.RuleSealByText, "By text ending .H4"},
		{"seal-by-42-chars", []string{"By: V." + by[6:48] + ".H3", mk}, lace.RuleSealByText, "By text with 42 B64A characters"},
		{"seal-by-44-chars", []string{"By: V." + by[6:49] + "0.H3", mk}, lace.RuleSealByText, "By text with 44 B64A characters"},
		{"seal-by-pad-bits", []string{"By: V." + by[6:48] + nextChar(by[48]) + ".H3", mk}, lace.RuleSealByText, "By text whose last character has non-zero pad bits"},
		{"seal-by-invalid-char", []string{"By: V.+" + by[7:], mk}, lace.RuleSealByText, "By text with '+', not a B64A character"},
		{"seal-by-trailing-space", []string{by + " ", mk}, lace.RuleSealByText, "By text followed by a space"},
		{"seal-by-hash-text", []string{"By: " + seedPlexHash, mk}, lace.RuleSealByText, "By holding record hash text P.… instead of V.…"},
		{"seal-mark-85-chars", []string{by, mk[:len(mk)-1]}, lace.RuleSealMarkText, "a Mark of 85 B64A characters"},
		{"seal-mark-87-chars", []string{by, mk + "0"}, lace.RuleSealMarkText, "a Mark of 87 B64A characters"},
		{"seal-mark-pad-bits", []string{by, mk[:len(mk)-1] + nextChar(mk[len(mk)-1])}, lace.RuleSealMarkText, "a Mark whose last character has non-zero pad bits"},
		{"seal-mark-padding-char", []string{by, mk[:len(mk)-1] + "="}, lace.RuleSealMarkText, "a Mark ending in '=', not a B64A character"},
	} {
		g.reject(c.name, seal(c.env...), ids(c.rule), nil, c.comment+" (hash recomputed)")
	}
	g.reject("seal-embeds-seal", rawRecord('S', lines(signer7.env(p)), signer7.seal(p).bytes()), ids(lace.RuleNestSeal), nil,
		"a Seal whose embedded record is a Seal")
	g.reject("seal-blank-line-before-plex", rawRecord('S', append([][]byte{lines(env), []byte("\n")}, p.plexRecord()...)...), ids(lace.RuleFieldSyntax, lace.RuleSealStructure), nil,
		"a blank line between the Mark line and the embedded Plex, Seal hash recomputed: By and Mark are followed immediately by the Plex")

	// Verdicts that need the stand-in's Mark verification.
	blobMark := signer7.markOver(digestOf(p.blobPayload()...))
	g.rejectMark("seal-mark-over-blob-digest", markStandin, seal(by, "Mark: "+blobMark), ids(lace.RuleSealSubject), nil,
		"a Mark by the right key over the embedded Blob's digest, not the Plex's")
	otherSeal := signer7.seal(helloPlex("App: other"))
	sealMark := signer7.markOver(digestOf(otherSeal.sealPayload()...))
	g.rejectMark("seal-mark-over-seal-digest", markStandin, seal(by, "Mark: "+sealMark), ids(lace.RuleSealVerify, lace.RuleSealSubject), nil,
		"a Mark by the right key over another Seal's digest (a Mark cannot cover its own Seal's digest)")
	g.rejectMark("seal-mark-by-other-key", markStandin, seal("By: "+signer9.by, mk), ids(lace.RuleSealVerify), nil,
		"By of the secret of 32 0x09 bytes with a Mark made by the secret of 32 0x07 bytes")
	flipped := []byte(mk)
	flipped[20] = nextChar(flipped[20])[0]
	g.rejectMark("seal-mark-changed", markStandin, seal(by, string(flipped)), ids(lace.RuleSealVerify), nil,
		"a stand-in Mark with one B64A character changed")
	g.rejectMark("seal-by-not-a-key", markStandin, seal("By: V."+strings.Repeat("~", 42)+"x.H3", mk), ids(lace.RuleSealVerify), nil,
		"canonical By text of a 32-byte value that is no secp256k1 x-coordinate: no Mark verifies under it")
}

// Record-link fields carry typed hash references (LACE-LINK-01..14), as far
// as record validity shows them: links are ordinary fields.
func linkVectors(g *gen) {
	g.acceptFields("plex-link-spec-examples", linkExamples(),
		ids(lace.RuleLinkExamples, lace.RuleLinkName), nil, "the specification's two example link lines as fields of a Plex")
	g.acceptFields("plex-link-malformed-values", malformedLinks(),
		ids(lace.RuleLinkMalformedOK, lace.RuleLinkData, lace.RuleLinkSeparator, lace.RuleLinkTarget), nil,
		"malformed link values (no space, empty link data, type Q, no payload, no suffix) are valid ordinary fields")
	g.acceptFields("plex-link-non-h3-suffix", helloPlex("+Link: old B.abc.H9", "+Link: new P.xyz.K12"), ids(lace.RuleLinkAnySuffix, lace.RuleLinkSuffixDefines, lace.RuleLinkUnsupported), nil,
		"links whose targets use other suffixes (H9, K12) are well-formed")
	g.acceptFields("plex-link-data-spaces", helloPlex("+Link: my  name  "+seedBlobHash), ids(lace.RuleLinkDataSpaces, lace.RuleLinkSplit), nil,
		"link data 'my  name ' with inner and trailing spaces: split at the last space, nothing trimmed")
	g.acceptFields("plex-link-field-names", helloPlex("+Link: a B.x.H3", "A+Link: b P.y.H3", "Link: c B.z.H3", "X+Link+: e B.v.H3", "X+link: d B.w.H3"),
		ids(lace.RuleLinkName), nil, "only +Link and names ending with +Link are record-link fields: Link, X+Link+ and X+link are ordinary fields")
	budget := "+Link: " + strings.Repeat("d", 128-7-1-48) + " " + seedBlobHash
	g.acceptFields("plex-link-line-128-bytes", helloPlex(budget), ids(lace.RuleLinkBudget, lace.RuleFieldLineLength), tags("boundary"),
		"a 128-byte +Link line: name, link data, separator and a 48-byte H3 target share the budget")
	g.reject("plex-link-line-129-bytes", helloPlex("+Link: d"+budget[7:]).bytes(), ids(lace.RuleFieldLineLength, lace.RuleLinkBudget), tags("boundary"),
		"a 129-byte +Link line")
}
