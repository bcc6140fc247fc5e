package lace

import (
	"strings"
	"testing"
)

// Lace-010, "Maximum H3 record size is bounded": the maxima follow from the
// fixed widths; the largest Seal is built and parsed, and its parts measured.
func TestMaximumSizes(t *testing.T) {
	t.Parallel()
	if GlyphLineLen != 55 || byLineLen != 53 || markLineLen != 93 || HashTextLen != 48 {
		t.Fatalf("widths %d %d %d %d, want 55 53 93 48", GlyphLineLen, byLineLen, markLineLen, HashTextLen)
	}
	fields := make([]Field, MaxFields)
	for i := range fields {
		fields[i] = Field{"X", strings.Repeat("a", 125)} // 128 bytes + LF
	}
	secret := testSecret
	out, _, err := Construct(Spec{Data: make([]byte, MaxData), Fields: fields, Secret: &secret, Aux: testAux})
	if err != nil {
		t.Fatal(err)
	}
	seal := len(out)
	plex := seal - GlyphLineLen - byLineLen - markLineLen
	blob := plex - GlyphLineLen - MaxFields*(MaxLine+1)
	for _, c := range []struct {
		rule      string
		got, want int
	}{
		{string(RuleSizeBlob), blob, 33_554_510},
		{string(RuleSizePlex), plex, 33_620_613},
		{string(RuleSizeSeal), seal, 33_620_814},
	} {
		if c.got != c.want {
			t.Errorf("%s: %d bytes, want %d", c.rule, c.got, c.want)
		}
	}
	if _, err := Parse(out, Options{}); err != nil {
		t.Fatalf("the largest Seal does not parse: %v", err)
	}
	// LACE-SIZE-04: fitting the maximum proves nothing.
	out[len(out)-1] ^= 1
	if _, err := Parse(out, Options{}); ruleOf(err) != RuleGlyphEmbedded {
		t.Fatalf("a corrupted maximal Seal: %v, want %s", err, RuleGlyphEmbedded)
	}
}
