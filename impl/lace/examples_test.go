package lace

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/threespec/conformance/impl/mark"
	"github.com/threespec/conformance/impl/rules"
)

// Lace-010, "Boundary and rejection examples": one subtest per LACE-EX rule,
// then the closing list of rejections, each with the rule that carries it.

func ruleOf(err error) rules.ID { return rules.RuleOf(err) }

func accept(t *testing.T, in []byte, opt Options) *Record {
	t.Helper()
	r, err := Parse(in, opt)
	if err != nil {
		t.Fatalf("rejected: %v", err)
	}
	return r
}

func reject(t *testing.T, in []byte, opt Options, want rules.ID) {
	t.Helper()
	_, err := Parse(in, opt)
	if got := ruleOf(err); got != want {
		t.Fatalf("got %v, want %s", err, want)
	}
}

var none = Options{Mark: mark.CheckNone}

func TestExamples(t *testing.T) {
	t.Parallel()
	seal := vector(t, "seal")
	// sealEnvelope is the vector's glyph line, By line and Mark line.
	envelope := string(seal[GlyphLineLen : GlyphLineLen+byLineLen+markLineLen])

	t.Run(string(RuleExLineASCII), func(t *testing.T) {
		t.Parallel()
		line := "X: " + strings.Repeat("a", 125)
		if len(line) != 128 {
			t.Fatal("miscounted")
		}
		accept(t, mk(plexT("", line)), none)
		reject(t, mk(plexT("", line+"a")), none, RuleFieldLineLength)
	})
	t.Run(string(RuleExLineUTF8), func(t *testing.T) {
		t.Parallel()
		line := "X: " + strings.Repeat("é", 62) + "a"
		if len(line) != 128 {
			t.Fatal("miscounted")
		}
		accept(t, mk(plexT("", line)), none)
		reject(t, mk(plexT("", line+"a")), none, RuleFieldLineLength)
	})
	t.Run(string(RuleExOneField), func(t *testing.T) {
		t.Parallel()
		accept(t, mk(plexT("hello", "App: chat")), none)
		reject(t, mk("@P\n"+blobT("hello")), none, RulePlexMinFields)
	})
	t.Run(string(RuleExMaxFields), func(t *testing.T) {
		t.Parallel()
		lines := make([]string, 513)
		for i := range lines {
			lines[i] = "F: " + strconv.Itoa(i)
		}
		if r := accept(t, mk(plexT("", lines[:512]...)), none); len(r.Fields) != 512 {
			t.Fatalf("%d fields", len(r.Fields))
		}
		reject(t, mk(plexT("", lines...)), none, RulePlexMaxFields)
	})
	labels := []string{"Label: second", "Label: first", "Mode: public"}
	t.Run(string(RuleExRepeatedNames), func(t *testing.T) {
		t.Parallel()
		r := accept(t, mk(plexT("", labels...)), none)
		if r.Fields[0].Value != "second" || r.Fields[1].Value != "first" {
			t.Fatalf("order lost: %v", r.Fields)
		}
	})
	t.Run(string(RuleExReversed), func(t *testing.T) {
		t.Parallel()
		reject(t, mk(plexT("", "Mode: public", "Label: second", "Label: first")), none, RulePlexOrder)
	})
	t.Run(string(RuleExNoValueSort), func(t *testing.T) {
		t.Parallel()
		out, _, err := Construct(Spec{Fields: []Field{{"Mode", "public"}, {"Label", "second"}, {"Label", "first"}}})
		if err != nil {
			t.Fatal(err)
		}
		if want := mk(plexT("", labels...)); !bytes.Equal(out, want) {
			t.Fatalf("constructor output\n%s\nwant\n%s", out, want)
		}
	})
	t.Run(string(RuleExGroupFirst), func(t *testing.T) {
		t.Parallel()
		moved := plexT("hello", "Group: room7", "App: chat", "App: archive", "Name: note", "TAI: tomorrow")
		reject(t, mk(moved), none, RulePlexOrder)
		// The same Plex inside the vector's envelope, Seal hash recomputed.
		reject(t, mk("@S\n"+envelope+moved), none, RulePlexOrder)
	})
	t.Run(string(RuleExForeignMark), func(t *testing.T) {
		t.Parallel()
		foreign := mk("@S\n" + strings.Replace(string(seal[GlyphLineLen:]), vecMark, kaMark, 1))
		// The known-answer Mark is a 009 Mark over a different digest: only
		// the real 009 can tell (profile lace-009). Without it the record is
		// structurally valid and its Mark is reported as not checked...
		if r := accept(t, foreign, none); r.MarkStatus != MarkNotChecked {
			t.Fatalf("mark status %s", r.MarkStatus)
		}
		// ...and bip340-standin rejects it by the Mark rule, as it rejects
		// every 009 Mark.
		reject(t, foreign, Options{}, RuleSealVerify)
		// The stand-in's own version of the example: a Mark by the right key
		// over a different digest.
		plex := mk(plexT("hello", "App: chat"))
		by, other := standinMark(t, glyphDigest(t, mk(plexT("hello", "App: archive")), 0))
		reject(t, mk("@S\nBy: "+by+"\nMark: "+other+"\n"+string(plex)), Options{}, RuleSealVerify)
	})
	t.Run(string(RuleExSealOverBlob), func(t *testing.T) {
		t.Parallel()
		reject(t, mk("@S\n"+envelope+string(vector(t, "blob"))), none, RuleSealNoBlob)
	})
}

// TestRejectionList covers the spec's closing list ("Implementations also
// reject ..."), each item built from the canonical vector with every hash
// recomputed, and the rule that carries it (docs/lace.md has the same map).
func TestRejectionList(t *testing.T) {
	t.Parallel()
	seal := string(vector(t, "seal"))
	plexLines := []string{"App: chat", "App: archive", "Group: room7", "Name: note", "TAI: tomorrow"}
	plexWith := func(lines ...string) string { return plexT("hello", lines...) }
	by, mk1 := standinMark(t, glyphDigest(t, mk(plexWith(plexLines...)), 0))
	standinSeal := func(env string) []byte { return mk("@S\n" + env + plexWith(plexLines...)) }
	blobBy, blobMark := standinMark(t, glyphDigest(t, mk(blobT("hello")), 0))
	goodSeal := standinSeal("By: " + by + "\nMark: " + mk1 + "\n")
	_, sealMark := standinMark(t, glyphDigest(t, goodSeal, 0))
	big := make([]byte, MaxData+1)

	cases := []struct {
		item string
		in   []byte
		opt  Options
		rule rules.ID
	}{
		{"CRLF", mk(plexWith("App: chat\r", "App: archive", "Group: room7", "Name: note", "TAI: tomorrow")), none, RuleFieldLF},
		{"non-NFC line text", mk(plexWith("App: chat", "App: archive", "Group: room7", "Name: note\u0301", "TAI: tomorrow")), none, RuleFieldNFC},
		{"Data-Length: 01", mk("@B\nData-Length: 01\n\nh"), none, RuleBlobDataLength},
		{"a reserved application field name", mk(plexWith("App: chat", "App: archive", "By: x", "Group: room7")), none, RulePlexReserved},
		{"decreasing field-name order", mk(plexWith("App: chat", "App: archive", "Name: note", "Group: room7", "TAI: tomorrow")), none, RulePlexOrder},
		{"a mismatched outer digest", []byte(strings.Replace(seal, vecSealHash, "S."+vecPlexHash[2:], 1)), none, RuleGlyphDigestMatch},
		{"a mismatched embedded digest", mk("@S" + strings.Replace(seal[GlyphLineLen-1:], vecBlobHash, "B."+vecPlexHash[2:], 1)), none, RuleGlyphEmbedded},
		{"a Seal missing By", standinSeal("Mark: " + mk1 + "\n"), Options{}, RuleSealByFirst},
		{"a Seal missing Mark", standinSeal("By: " + by + "\n"), Options{}, RuleSealMarkSecond},
		{"a Seal reordering By and Mark", standinSeal("Mark: " + mk1 + "\nBy: " + by + "\n"), Options{}, RuleSealByFirst},
		{"an invalid By", standinSeal("By: V." + by[3:] + "\nMark: " + mk1 + "\n"), Options{}, RuleSealByText},
		{"an invalid Mark", standinSeal("By: " + by + "\nMark: " + mk1[:85] + "=\n"), Options{}, RuleSealMarkText},
		{"a Mark made over the Blob digest", standinSeal("By: " + blobBy + "\nMark: " + blobMark + "\n"), Options{}, RuleSealSubject},
		{"a Mark made over the Seal digest", standinSeal("By: " + by + "\nMark: " + sealMark + "\n"), Options{}, RuleSealVerify},
		{"a Blob over 32 MiB", append(mk("@B\nData-Length: 33554433\n\n"), big...), none, RuleBlobMaxData},
		{"trailing bytes after a complete record", append([]byte(seal), 'x'), none, RuleGlyphTrailing},
	}
	for _, c := range cases {
		t.Run(c.item, func(t *testing.T) {
			t.Parallel()
			reject(t, c.in, c.opt, c.rule)
		})
	}
}
