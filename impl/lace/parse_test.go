package lace

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/threespec/conformance/impl/b64a"
	"github.com/threespec/conformance/impl/mark"
	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/internal/fault"
)

// Seal helpers: Seals for the tests are signed here with bip340-standin
// directly, not through Construct.

var (
	testSecret = [32]byte{7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7}
	testAux    = [32]byte{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}
)

// glyphDigest decodes the digest of the glyph line starting at b[at:].
func glyphDigest(t testing.TB, b []byte, at int) [32]byte {
	t.Helper()
	h, err := ParseHash(string(b[at+len(glyphPrefix) : at+len(glyphPrefix)+HashTextLen]))
	if err != nil {
		t.Fatal(err)
	}
	return h.Digest
}

// lastGlyph is the offset of the last glyph line in b (the Blob's).
func lastGlyph(b []byte) int { return bytes.LastIndex(b, []byte("\n"+glyphPrefix)) + 1 }

// standinMark returns By and Mark text for a Mark over subject by testSecret.
func standinMark(t testing.TB, subject [32]byte) (string, string) {
	t.Helper()
	by, err := mark.BIP340Standin.By(testSecret)
	if err != nil {
		t.Fatal(err)
	}
	m, err := mark.BIP340Standin.Sign(testSecret, subject, testAux)
	if err != nil {
		t.Fatal(err)
	}
	return mark.FormatBy(by), mark.FormatMark(m)
}

// sealOver returns a template of a Seal over the record bytes inner with a
// bip340-standin Mark over inner's own glyph digest.
func sealOver(t testing.TB, inner []byte) string {
	by, mk := standinMark(t, glyphDigest(t, inner, 0))
	return "@S\nBy: " + by + "\nMark: " + mk + "\n" + string(inner)
}

// negCase is one rejected input and the rule its violation must carry.
type negCase struct {
	name   string
	in     []byte
	rule   rules.ID
	stream bool    // parse as a stream rather than one record
	opt    Options // mark checking
	why    string  // for cases whose reason is not obvious
}

func negativeCases(t testing.TB) []negCase {
	blob := vector(t, "blob")
	plex := vector(t, "plex")
	seal := vector(t, "seal")
	helloPlex := func(lines ...string) []byte { return mk(plexT("hello", lines...)) }
	validPlex := helloPlex("App: chat")
	validSeal := mk(sealOver(t, validPlex))
	by, mk1 := standinMark(t, glyphDigest(t, validPlex, 0))
	sealWith := func(env ...string) []byte {
		return mk("@S\n" + strings.Join(env, "\n") + "\n" + string(validPlex))
	}
	a := func(n int) string { return strings.Repeat("a", n) }
	fields513 := make([]string, 513)
	for i := range fields513 {
		fields513[i] = "F: x"
	}
	wrongHash := strings.Replace(vecBlobHash, "kQ", "kR", 1)
	blobMarkBy, blobMark := standinMark(t, glyphDigest(t, validPlex, lastGlyph(validPlex)))
	foreignSeal := bytes.Replace(seal, []byte(vecMark), []byte(kaMark), 1)

	return []negCase{
		// Record glyph line and hash text.
		{name: "empty input", in: nil, rule: RuleGlyphLine},
		{name: "no glyph line", in: []byte("hello\n"), rule: RuleGlyphLine},
		{name: "starts with a field", in: mk("App: x\n" + blobT("x")), rule: RuleGlyphLine},
		{name: "glyph without space", in: []byte("🖧:B." + vecBlobHash[2:] + "\n"), rule: RuleGlyphLine},
		{name: "type letter X", in: bytes.Replace(blob, []byte("B.kQ"), []byte("X.kQ"), 1), rule: RuleGlyphHashText},
		{name: "lower-case type", in: bytes.Replace(blob, []byte("B.kQ"), []byte("b.kQ"), 1), rule: RuleGlyphHashText},
		{name: "suffix H4", in: bytes.Replace(blob, []byte(".H3"), []byte(".H4"), 1), rule: RuleGlyphHashText},
		{name: "42-character digest", in: []byte(glyphPrefix + "B." + vecBlobHash[2:44] + ".H3\nData-Length: 5\n\nhello"), rule: RuleGlyphDigestText},
		{name: "44-character digest", in: []byte(glyphPrefix + "B." + vecBlobHash[2:45] + "0.H3\nData-Length: 5\n\nhello"), rule: RuleGlyphDigestText},
		{name: "nonzero pad bits", in: bytes.Replace(blob, []byte("zq8.H3"), []byte("zq9.H3"), 1), rule: RuleGlyphDigestText},
		{name: "non-alphabet digest character", in: bytes.Replace(blob, []byte("kQ"), []byte("k+"), 1), rule: RuleGlyphDigestText},
		{name: "B glyph over a Plex payload", in: mk("@B\nApp: x\n" + blobT("hello")), rule: RuleGlyphTypeMatch},
		{name: "P glyph over a Blob payload", in: mk("@P\nData-Length: 5\n\nhello"), rule: RuleGlyphTypeMatch},
		{name: "S glyph over a Plex payload", in: mk("@S\nApp: x\n" + blobT("hello")), rule: RuleGlyphTypeMatch},
		{name: "P glyph over a Seal payload", in: mk("@P" + sealOver(t, validPlex)[2:]), rule: RuleGlyphTypeMatch},
		{name: "mismatched outer digest (Blob)", in: bytes.Replace(blob, []byte(vecBlobHash), []byte(wrongHash), 1), rule: RuleGlyphDigestMatch},
		{name: "mismatched outer digest (Plex)", in: bytes.Replace(plex, []byte("room7"), []byte("room8"), 1), rule: RuleGlyphDigestMatch,
			why: "a field change alters the Plex payload but not the embedded Blob"},
		{name: "mismatched outer digest (Seal)", in: bytes.Replace(validSeal, validSeal[len(glyphPrefix)+2:len(glyphPrefix)+4], []byte("00"), 1), rule: RuleGlyphDigestMatch},
		{name: "mismatched embedded Blob digest, outer recomputed", in: mk("@P\nApp: x\n" + glyphPrefix + wrongHash + "\nData-Length: 5\n\nhello"), rule: RuleGlyphEmbedded},
		{name: "mismatched embedded Plex digest in a Seal, outer recomputed", in: mk("@S\nBy: " + by + "\nMark: " + mk1 + "\n" + glyphPrefix + "P." + vecPlexHash[2:] + string(validPlex[GlyphLineLen-1:])), rule: RuleGlyphEmbedded},
		{name: "Blob data changed", in: bytes.Replace(blob, []byte("hello"), []byte("hellO"), 1), rule: RuleGlyphDigestMatch},
		{name: "Plex data changed", in: bytes.Replace(plex, []byte("hello"), []byte("hellO"), 1), rule: RuleGlyphEmbedded},
		{name: "trailing byte", in: append(append([]byte{}, blob...), 'x'), rule: RuleGlyphTrailing},
		{name: "trailing LF", in: append(append([]byte{}, blob...), '\n'), rule: RuleGlyphTrailing},
		{name: "two records", in: append(append([]byte{}, blob...), plex...), rule: RuleGlyphTrailing},

		// Streams and truncation.
		{name: "cut inside the glyph prefix", in: []byte("\xF0\x9F\x96"), rule: RuleStreamTruncated},
		{name: "cut inside the glyph line", in: blob[:20], rule: RuleStreamTruncated},
		{name: "cut after the glyph line", in: blob[:GlyphLineLen], rule: RuleStreamTruncated},
		{name: "cut inside Data-Length", in: blob[:GlyphLineLen+10], rule: RuleStreamTruncated},
		{name: "cut before the blank line", in: blob[:GlyphLineLen+15], rule: RuleStreamTruncated},
		{name: "stream cut inside the second record", in: append(append([]byte{}, blob...), plex[:100]...), rule: RuleStreamTruncated, stream: true},
		{name: "stream continues with LF", in: append(append([]byte{}, blob...), '\n'), rule: RuleStreamGarbage, stream: true},
		{name: "stream continues with text", in: append(append([]byte{}, blob...), "trailer"...), rule: RuleStreamGarbage, stream: true},
		{name: "stream with an LF separator", in: append(append(append([]byte{}, blob...), '\n'), blob...), rule: RuleStreamGarbage, stream: true},
		{name: "stream whose second record is invalid", in: append(append([]byte{}, blob...), bytes.Replace(blob, []byte("hello"), []byte("hellO"), 1)...), rule: RuleGlyphDigestMatch, stream: true},
		{name: "stream starting with garbage", in: append([]byte("x"), blob...), rule: RuleGlyphLine, stream: true},

		// Field lines.
		{name: "field without separator", in: helloPlex("App chat"), rule: RuleFieldSyntax},
		{name: "empty field line", in: helloPlex(""), rule: RuleFieldSyntax},
		{name: "empty name", in: helloPlex(": x"), rule: RuleFieldNameEmpty},
		{name: "space in name", in: helloPlex("A b: x"), rule: RuleFieldNameChars},
		{name: "space before colon", in: helloPlex("App : x"), rule: RuleFieldNameChars},
		{name: "tab in name", in: helloPlex("A\tb: x"), rule: RuleFieldNameChars},
		{name: "colon in name", in: helloPlex("a:b: x"), rule: RuleFieldNameChars},
		{name: "Name:x", in: helloPlex("Name:x"), rule: RuleFieldOneSpace},
		{name: "Name:<TAB>x", in: helloPlex("Name:\tx"), rule: RuleFieldOneSpace},
		{name: "Name: with nothing after", in: helloPlex("Name:"), rule: RuleFieldOneSpace},
		{name: "empty value", in: helloPlex("Name: "), rule: RuleFieldValueEmpty},
		{name: "invalid UTF-8 value", in: helloPlex("Name: \xff"), rule: RuleFieldUTF8},
		{name: "overlong UTF-8 value", in: helloPlex("Name: \xc0\xaf"), rule: RuleFieldUTF8},
		{name: "surrogate in value", in: helloPlex("Name: \xed\xa0\x80"), rule: RuleFieldUTF8},
		{name: "truncated UTF-8 in name", in: helloPlex("N\xc3: x"), rule: RuleFieldUTF8},
		{name: "non-NFC value", in: helloPlex("Name: e\u0301"), rule: RuleFieldNFC},
		{name: "non-NFC name", in: helloPlex("Caf\u0065\u0301: x"), rule: RuleFieldNFC},
		{name: "composable under Unicode 16+ only", in: helloPlex("Tulu: \U000113C2\U000113C2"), rule: RuleFieldNFC,
			why: "LACE-FIELD-08: U+113C2 U+113C2 composes to U+113C5 (Unicode 16.0); Unicode 15 tables would call it NFC"},
		{name: "CRLF field line", in: helloPlex("App: chat\r"), rule: RuleFieldLF},
		{name: "CR inside a value", in: helloPlex("App: ch\rat"), rule: RuleFieldLF},
		{name: "CRLF glyph line", in: crlfGlyph(), rule: RuleFieldLF},
		{name: "CRLF Data-Length line", in: mk("@B\nData-Length: 5\r\n\nhello"), rule: RuleFieldLF},
		{name: "CRLF blank line", in: mk("@B\nData-Length: 5\n\r\nhello"), rule: RuleFieldLF},
		{name: "NUL in value", in: helloPlex("Name: a\x00b"), rule: RuleFieldControl},
		{name: "tab in value", in: helloPlex("Name: a\tb"), rule: RuleFieldControl},
		{name: "DEL in value", in: helloPlex("Name: a\x7f"), rule: RuleFieldControl},
		{name: "0x1F in name", in: helloPlex("N\x1f: x"), rule: RuleFieldControl},
		{name: "129-byte line", in: helloPlex("X: " + a(126)), rule: RuleFieldLineLength},
		{name: "129-byte line with é", in: helloPlex("X: " + strings.Repeat("é", 62) + "aa"), rule: RuleFieldLineLength},
		{name: "By line with two spaces", in: sealWith("By:  "+by[1:], "Mark: "+mk1), rule: RuleSealByText,
			why: "`By:  V...` has the value ` V...`, which is not canonical By text"},

		// Blob.
		{name: "no Data-Length line", in: mk("@B\nData-length: 5\n\nhello"), rule: RuleBlobDataLengthLine},
		{name: "no blank line", in: mk("@B\nData-Length: 5\nhello"), rule: RuleBlobBlankLine},
		{name: "Data-Length: 01", in: mk("@B\nData-Length: 05\n\nhello"), rule: RuleBlobDataLength},
		{name: "Data-Length: 00", in: mk("@B\nData-Length: 00\n\n"), rule: RuleBlobDataLength},
		{name: "Data-Length: +5", in: mk("@B\nData-Length: +5\n\nhello"), rule: RuleBlobDataLength},
		{name: "Data-Length: 5 (trailing space)", in: mk("@B\nData-Length: 5 \n\nhello"), rule: RuleBlobDataLength},
		{name: "Data-Length:  5 (two spaces)", in: mk("@B\nData-Length:  5\n\nhello"), rule: RuleBlobDataLength},
		{name: "Data-Length: 0x5", in: mk("@B\nData-Length: 0x5\n\nhello"), rule: RuleBlobDataLength},
		{name: "Data-Length beyond the data", in: mk("@B\nData-Length: 6\n\nhello"), rule: RuleBlobExactData},
		{name: "Data-Length 33554433", in: mk("@B\nData-Length: 33554433\n\nhello"), rule: RuleBlobMaxData},
		{name: "Data-Length 10^30", in: mk("@B\nData-Length: 1000000000000000000000000000000\n\nhello"), rule: RuleBlobMaxData},

		// Plex.
		{name: "zero fields", in: mk("@P\n" + blobT("hello")), rule: RulePlexMinFields},
		{name: "513 fields", in: helloPlex(fields513...), rule: RulePlexMaxFields},
		{name: "decreasing names", in: helloPlex("Mode: public", "Label: second", "Label: first"), rule: RulePlexOrder},
		{name: "lower case sorts after upper case", in: helloPlex("app: x", "Zed: y"), rule: RulePlexOrder},
		{name: "prefix sorts first", in: helloPlex("AppX: x", "App: y"), rule: RulePlexOrder},
		{name: "reserved Data-Length", in: helloPlex("Data-Length: 5"), rule: RulePlexReserved},
		{name: "reserved By", in: helloPlex("By: " + by), rule: RulePlexReserved},
		{name: "reserved Mark", in: helloPlex("App: x", "Mark: "+mk1), rule: RulePlexReserved},
		{name: "reserved ⋯🖧", in: helloPlex("⋯🖧: x"), rule: RulePlexReserved},
		{name: "🖧 as an application field", in: helloPlex("App: a", "🖧: x"), rule: RuleGlyphHashText,
			why: "a line named 🖧 is the embedded record's glyph line; its value is no hash text"},
		{name: "Plex embeds a Plex", in: mk("@P\nApp: x\n" + plexT("", "App: y")), rule: RuleNestPlex},
		{name: "Plex embeds a Seal", in: mk("@P\nApp: x\n" + sealOver(t, validPlex)), rule: RuleNestPlex},

		// Seal.
		{name: "Seal missing By and Mark", in: mk("@S\n" + string(validPlex)), rule: RuleSealByFirst},
		{name: "Seal missing By", in: sealWith("Mark: " + mk1), rule: RuleSealByFirst},
		{name: "Seal with Mark before By", in: sealWith("Mark: "+mk1, "By: "+by), rule: RuleSealByFirst},
		{name: "Seal starting with a field", in: sealWith("App: x", "By: "+by, "Mark: "+mk1), rule: RuleSealByFirst},
		{name: "Seal missing Mark", in: sealWith("By: " + by), rule: RuleSealMarkSecond},
		{name: "Seal with By twice", in: sealWith("By: "+by, "By: "+by, "Mark: "+mk1), rule: RuleSealMarkSecond},
		{name: "By with a W. prefix", in: sealWith("By: W"+by[1:], "Mark: "+mk1), rule: RuleSealByText},
		{name: "By with nonzero pad bits", in: sealWith("By: "+by[:44]+"1.H3", "Mark: "+mk1), rule: RuleSealByText},
		{name: "By too short", in: sealWith("By: "+by[:40]+".H3", "Mark: "+mk1), rule: RuleSealByText},
		{name: "Mark of 85 characters", in: sealWith("By: "+by, "Mark: "+mk1[:85]), rule: RuleSealMarkText},
		{name: "Mark with a non-alphabet character", in: sealWith("By: "+by, "Mark: +"+mk1[1:]), rule: RuleSealMarkText},
		{name: "Mark over the Blob digest", in: sealWith("By: "+blobMarkBy, "Mark: "+blobMark), rule: RuleSealSubject},
		{name: "Mark over the previous Seal digest", in: sealWith("By: "+by, "Mark: "+markOverSeal(t, validSeal)), rule: RuleSealVerify,
			why: "a Mark cannot be over its own Seal's digest (a fixed point); one over another Seal's digest just fails"},
		{name: "Mark of another key", in: sealWith("By: "+otherBy(t), "Mark: "+mk1), rule: RuleSealVerify},
		{name: "By that is not a curve point", in: sealWith("By: V."+b64a.Encode(bytes.Repeat([]byte{0xff}, 32))+".H3", "Mark: "+mk1), rule: RuleSealVerify},
		{name: "seed Seal under bip340-standin", in: seal, rule: RuleSealVerify,
			why: "the seed's Mark is a 009 Mark; bip340-standin is not 009 and cannot verify it"},
		{name: "known-answer Mark in the seed Seal", in: mk("@S" + string(foreignSeal[GlyphLineLen-1:])), rule: RuleSealVerify},
		{name: "Seal wraps a Blob", in: mk(sealOver(t, blob)), rule: RuleSealNoBlob},
		{name: "Seal with an extra envelope field", in: sealWith("By: "+by, "Mark: "+mk1, "Note: x"), rule: RuleSealNoEnvelope},
		{name: "Seal with Mark twice", in: sealWith("By: "+by, "Mark: "+mk1, "Mark: "+mk1), rule: RuleSealNoEnvelope},
		{name: "Seal embeds a Seal", in: mk(sealOver(t, validSeal)), rule: RuleNestSeal},
	}
}

// markOverSeal is a Mark, by testSecret, over the digest of seal.
func markOverSeal(t testing.TB, seal []byte) string {
	_, m := standinMark(t, glyphDigest(t, seal, 0))
	return m
}

// otherBy is the By of a different secret.
func otherBy(t testing.TB) string {
	by, err := mark.BIP340Standin.By([32]byte{31: 2})
	if err != nil {
		t.Fatal(err)
	}
	return mark.FormatBy(by)
}

// parseCase parses c's input under the checks ck.
func parseCase(ck rules.Checks, c negCase) error {
	if c.stream {
		_, err := ParseStreamWith(ck, c.in, c.opt)
		return err
	}
	r, err := ParseWith(ck, c.in, c.opt)
	if r == nil && err == nil {
		return errNothing
	}
	return err
}

// errNothing stands for Parse returning neither a record nor an error, which
// it must not do even with a rule switched off.
var errNothing = errors.New("Parse returned neither a record nor an error")

// TestRejections asserts the rule ID of every negative case.
func TestRejections(t *testing.T) {
	t.Parallel()
	for _, c := range negativeCases(t) {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			err := parseCase(rules.Checks{}, c)
			if err == nil {
				t.Fatalf("accepted; want %s (%s)", c.rule, c.why)
			}
			var v *rules.Violation
			if !errors.As(err, &v) {
				t.Fatalf("error %v is not a *rules.Violation", err)
			}
			if v.Rule != c.rule {
				t.Fatalf("rule %s, want %s: %v", v.Rule, c.rule, err)
			}
			if v.Offset < 0 || v.Offset > int64(len(c.in)) || v.Line < 1 {
				t.Fatalf("violation without a position in the input: %v", err)
			}
			if _, ok := Lookup(v.Rule); !ok {
				t.Fatalf("rule %s is not in the catalog", v.Rule)
			}
		})
	}
}

func crlfGlyph() []byte {
	b := mk(plexT("hello", "App: x"))
	return append(append(append([]byte{}, b[:GlyphLineLen-1]...), '\r'), b[GlyphLineLen-1:]...)
}

// TestRejectionsUnderFault switches off each negative case's rule: the reader
// must not panic and must not report that rule again.
func TestRejectionsUnderFault(t *testing.T) {
	t.Parallel()
	for _, c := range negativeCases(t) {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			err := parseCase(rules.Checks{Faults: fault.Of(string(c.rule))}, c)
			if err == errNothing {
				t.Fatal(err)
			}
			if got := rules.RuleOf(err); got == c.rule {
				if c.rule == RuleStreamTruncated && !c.stream {
					return // nothing can carry on past the end of one record
				}
				t.Fatalf("rule %s switched off but still reported: %v", c.rule, err)
			}
		})
	}
}

// TestViolationPosition checks line numbers and byte offsets of a few
// violations against positions counted by hand.
func TestViolationPosition(t *testing.T) {
	t.Parallel()
	in := mk(plexT("hello", "App: chat", "Bad:x"))
	_, err := Parse(in, Options{})
	var v *rules.Violation
	if !errors.As(err, &v) {
		t.Fatal(err)
	}
	// Line 1 is the glyph line (55 bytes), line 2 "App: chat\n" (10 bytes),
	// line 3 "Bad:x": the missing space is at byte 4 of it.
	if v.Rule != RuleFieldOneSpace || v.Line != 3 || v.Offset != 55+10+4 {
		t.Fatalf("got %v, want LACE-FIELD-04 at line 3, byte 69", err)
	}
	in = mk(plexT("hello", "App: chat", "X: "+strings.Repeat("a", 126)))
	_, err = Parse(in, Options{})
	if !errors.As(err, &v) || v.Rule != RuleFieldLineLength || v.Line != 3 || v.Offset != 55+10+128 {
		t.Fatalf("got %v, want LACE-FIELD-11 at line 3, byte 193", err)
	}
	if !strings.Contains(v.Error(), "129 bytes") {
		t.Errorf("detail does not give the line length: %v", v)
	}
}

// posCase is an accepted input and what must be read from it.
type posCase struct {
	name   string
	in     []byte
	form   Form
	fields []Field
	data   string
}

func TestAccepted(t *testing.T) {
	t.Parallel()
	a := func(n int) string { return strings.Repeat("a", n) }
	fields512 := make([]string, 512)
	want512 := make([]Field, 512)
	for i := range fields512 {
		fields512[i] = "F: x"
		want512[i] = Field{"F", "x"}
	}
	lookalike := "🖧: B." + vecBlobHash[2:] + "\nData-Length: 5\n\nApp: chat\n"
	cases := []posCase{
		{"empty Blob", mk(blobT("")), FormBlob, nil, ""},
		{"empty data in a Plex", mk(plexT("", "App: x")), FormPlex, []Field{{"App", "x"}}, ""},
		{"Blob data resembling records", mk(blobT(lookalike)), FormBlob, nil, lookalike},
		{"binary Blob data", mk(blobT("\x00\r\n\xff")), FormBlob, nil, "\x00\r\n\xff"},
		{"Name:  x has the value ' x'", mk(plexT("", "Name:  x")), FormPlex, []Field{{"Name", " x"}}, ""},
		{"trailing space is data", mk(plexT("", "Name: x ")), FormPlex, []Field{{"Name", "x "}}, ""},
		{"colon-space inside a value", mk(plexT("", "Note: a: b")), FormPlex, []Field{{"Note", "a: b"}}, ""},
		{"128-byte ASCII line", mk(plexT("", "X: "+a(125))), FormPlex, []Field{{"X", a(125)}}, ""},
		{"128-byte line with é", mk(plexT("", "X: "+strings.Repeat("é", 62)+"a")), FormPlex, []Field{{"X", strings.Repeat("é", 62) + "a"}}, ""},
		{"one field", mk(plexT("hello", "App: chat")), FormPlex, []Field{{"App", "chat"}}, "hello"},
		{"512 fields", mk(plexT("", fields512...)), FormPlex, want512, ""},
		{"repeated names keep their order", mk(plexT("", "Label: second", "Label: first", "Mode: public")), FormPlex,
			[]Field{{"Label", "second"}, {"Label", "first"}, {"Mode", "public"}}, ""},
		{"non-reserved look-alike names", mk(plexT("", "#Dots: game", "BY: x", "By2: x", "data-length: x", "🖧x: y")), FormPlex,
			[]Field{{"#Dots", "game"}, {"BY", "x"}, {"By2", "x"}, {"data-length", "x"}, {"🖧x", "y"}}, ""},
		{"malformed links are ordinary fields", mk(plexT("", "+Link: nospace", "Chunk+Link:  B.x.H3", "File+Link: a X.b.H3")), FormPlex,
			[]Field{{"+Link", "nospace"}, {"Chunk+Link", " B.x.H3"}, {"File+Link", "a X.b.H3"}}, ""},
		{"NFC non-ASCII text", mk(plexT("", "Café: naïve 🖧")), FormPlex, []Field{{"Café", "naïve 🖧"}}, ""},
		{"a Unicode 16 composition (LACE-FIELD-08)", mk(plexT("", "Tulu: \U000113C5")), FormPlex, []Field{{"Tulu", "\U000113C5"}}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r, err := Parse(c.in, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if r.Form != c.form || string(r.Data) != c.data || len(r.Fields) != len(c.fields) {
				t.Fatalf("got %s with %d fields and data %q", r.Form, len(r.Fields), r.Data)
			}
			for i := range c.fields {
				if r.Fields[i] != c.fields[i] {
					t.Fatalf("field %d = %q, want %q", i, r.Fields[i], c.fields[i])
				}
			}
			if got := Encode(r); !bytes.Equal(got, c.in) {
				t.Fatalf("Encode does not give back the parsed bytes")
			}
			if r.Size != len(c.in) || r.Data == nil {
				t.Fatalf("Size %d of %d bytes; Data nil: %v", r.Size, len(c.in), r.Data == nil)
			}
		})
	}
}

// TestSealAccepted parses a bip340-standin Seal under both mark checkings.
func TestSealAccepted(t *testing.T) {
	t.Parallel()
	plex := mk(plexT("", "App: x"))
	seal := mk(sealOver(t, plex))
	r, err := Parse(seal, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Form != FormSeal || r.MarkStatus != MarkVerified || r.Plex.Digest != glyphDigest(t, plex, 0) {
		t.Fatalf("got %s, mark %s", r.Form, r.MarkStatus)
	}
	r, err = Parse(seal, Options{Mark: mark.CheckNone})
	if err != nil || r.MarkStatus != MarkNotChecked {
		t.Fatalf("mark checking none: %v, %v", err, r)
	}
	if _, err := Parse(seal, Options{Mark: "rsa"}); err == nil {
		t.Fatal("an unknown mark checking must be refused")
	}
	if !bytes.Equal(Encode(r), seal) {
		t.Fatal("Encode does not give back the Seal")
	}
}
