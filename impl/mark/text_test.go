package mark_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/threespec/conformance/impl/b64a"
	"github.com/threespec/conformance/impl/mark"
)

// The By and Mark texts of Lace-010's canonical Seal and the known-answer
// Mark of its rejection examples, and the seed's Plex hash (the Mark
// subject). Known answers from the spec.
const (
	seedBy       = "V.8qgOfsaEJkK1tzX51sTT9NKdM8J2SrzQq6k8cRPzvP0.H3"
	seedMark     = "t9QAUgyE1c391D6RsPH_gok2OXEPTRfcp4HOa_Wcyx8143adV34c1ReKeGmWXXn6ictYPxDz5ULgqz0RK4sbPl"
	kaMark       = "gZnQE_RNHTpWu8N~RYMGMTjGo~CTh6qutD7ZfmssgOGH8E_wSP3cEf_Q6QGOGpC2Pkl_~4lVP9NtD5gsNxrxhG"
	seedPlexHash = "roNBC0l3CG4ezmPY5F3H_pLBDBecaAYZRbOJ1aT7pqK"
)

// TestLineWidths: Lace-010 "Maximum H3 record size is bounded" gives a
// 53-byte By line and a 93-byte Mark line.
func TestLineWidths(t *testing.T) {
	if got := len("By: ") + mark.ByTextLen + 1; got != 53 {
		t.Errorf("By line is %d bytes, want 53", got)
	}
	if got := len("Mark: ") + mark.MarkTextLen + 1; got != 93 {
		t.Errorf("Mark line is %d bytes, want 93", got)
	}
	if len(seedBy) != mark.ByTextLen || len(seedMark) != mark.MarkTextLen {
		t.Errorf("seed texts are %d and %d bytes", len(seedBy), len(seedMark))
	}
}

func TestSeedTextsRoundTrip(t *testing.T) {
	by, err := mark.ParseBy(seedBy)
	if err != nil {
		t.Fatal(err)
	}
	if got := mark.FormatBy(by); got != seedBy {
		t.Fatalf("FormatBy = %s", got)
	}
	if want, _ := b64a.DecodeN(seedBy[2:45], 32); string(by[:]) != string(want) {
		t.Fatalf("ParseBy = %X, want %X", by, want)
	}
	for _, text := range []string{seedMark, kaMark} {
		m, err := mark.ParseMark(text)
		if err != nil {
			t.Fatal(err)
		}
		if got := mark.FormatMark(m); got != text {
			t.Fatalf("FormatMark = %s, want %s", got, text)
		}
	}
}

// TestTextRejections: non-canonical By and Mark texts give a *TextError at
// the right offset; those whose B64A part is at fault wrap the *b64a.Error.
func TestTextRejections(t *testing.T) {
	key := seedBy[2:45]
	tests := []struct {
		field string
		text  string
		off   int
		kind  b64a.Kind // 0 when the fault is outside the B64A part
	}{
		// Prefix and suffix.
		{"By", "", 0, 0},
		{"By", "V", 0, 0},
		{"By", "W." + key + ".H3", 0, 0},
		{"By", "v." + key + ".H3", 0, 0},
		{"By", "V:" + key + ".H3", 0, 0},
		{"By", key + ".H3", 0, 0},
		{"By", " V." + key + ".H3", 0, 0},
		{"By", "V." + key + ".H4", 45, 0},
		{"By", "V." + key + ".h3", 45, 0},
		{"By", "V." + key, 42, 0},
		{"By", "V." + key + ".H3\n", 46, 0},
		{"By", "V." + key + ".H3 ", 46, 0},
		{"By", "V.H3", 2, 0},
		{"By", "V..H3", 2, b64a.WrongLength},
		{"By", "P." + seedPlexHash + ".H3", 0, 0}, // a Plex hash is not By text
		// Length of the key part.
		{"By", "V." + key[:42] + ".H3", 44, b64a.WrongLength},
		{"By", "V." + key + "0.H3", 45, b64a.WrongLength},
		{"By", "V." + key + key + ".H3", 45, b64a.WrongLength},
		// Pad bits: 43 characters carry 258 bits, 2 of them pad.
		{"By", "V." + key[:42] + "1.H3", 44, b64a.BadPadBits},
		{"By", "V." + key[:42] + "3.H3", 44, b64a.BadPadBits},
		// Characters outside the alphabet.
		{"By", "V.=" + key[1:] + ".H3", 2, b64a.BadCharacter},
		{"By", "V." + key[:10] + "+" + key[11:] + ".H3", 12, b64a.BadCharacter},
		{"By", "V." + key[:10] + "/" + key[11:] + ".H3", 12, b64a.BadCharacter},
		{"By", "V." + key[:42] + "-.H3", 44, b64a.BadCharacter},
		{"By", "V." + key[:20] + " " + key[21:] + ".H3", 22, b64a.BadCharacter},
		{"By", "V." + key[:41] + "é.H3", 43, b64a.BadCharacter}, // é is two bytes, C3 A9

		// Mark: length.
		{"Mark", "", 0, b64a.WrongLength},
		{"Mark", seedMark[:85], 85, b64a.WrongLength},
		{"Mark", seedMark + "0", 86, b64a.WrongLength},
		{"Mark", seedMark + "\n", 86, b64a.WrongLength},
		{"Mark", key, 43, b64a.WrongLength},
		// Mark: pad bits (86 characters carry 516 bits, 4 of them pad).
		{"Mark", seedMark[:85] + "m", 85, b64a.BadPadBits},
		{"Mark", seedMark[:85] + "~", 85, b64a.BadPadBits},
		// Mark: characters.
		{"Mark", "=" + seedMark[1:], 0, b64a.BadCharacter},
		{"Mark", seedMark[:40] + "+" + seedMark[41:], 40, b64a.BadCharacter},
		{"Mark", seedMark[:40] + "/" + seedMark[41:], 40, b64a.BadCharacter},
		{"Mark", seedMark[:85] + "\r", 85, b64a.BadCharacter},
		{"Mark", seedMark[:85] + "=", 85, b64a.BadCharacter},
		{"Mark", "V." + seedMark[2:], 1, b64a.BadCharacter},
	}
	for _, tt := range tests {
		var err error
		if tt.field == "By" {
			_, err = mark.ParseBy(tt.text)
		} else {
			_, err = mark.ParseMark(tt.text)
		}
		var te *mark.TextError
		if !errors.As(err, &te) {
			t.Errorf("Parse%s(%q) = %v, want a *TextError", tt.field, tt.text, err)
			continue
		}
		if te.Field != tt.field || te.Offset != tt.off {
			t.Errorf("Parse%s(%q) = %v (field %s, offset %d), want offset %d", tt.field, tt.text, err, te.Field, te.Offset, tt.off)
		}
		var be *b64a.Error
		switch {
		case tt.kind == 0 && errors.As(err, &be):
			t.Errorf("Parse%s(%q) = %v wraps a B64A error", tt.field, tt.text, err)
		case tt.kind != 0 && (!errors.As(err, &be) || be.Kind != tt.kind):
			t.Errorf("Parse%s(%q) = %v, want B64A %v", tt.field, tt.text, err, tt.kind)
		}
		if !strings.HasPrefix(err.Error(), "mark: "+tt.field+" text: ") {
			t.Errorf("error text %q", err)
		}
	}
}
