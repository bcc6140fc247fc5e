package lace

import (
	"regexp"
	"testing"

	"github.com/threespec/conformance/impl/b64a"
	"github.com/threespec/conformance/impl/rules"
)

// TestMutants checks that every mutant constant of mutants.go is listed once,
// well formed, and that the list holds nothing else.
func TestMutants(t *testing.T) {
	t.Parallel()
	declared := declaredIDs(t, "mutants.go")
	pattern := regexp.MustCompile(`^MUT-LACE-[A-Z0-9]+(-[A-Z0-9]+)*$`)
	seen := map[rules.ID]bool{}
	for _, m := range Mutants() {
		if seen[m.ID] || !declared[m.ID] || !pattern.MatchString(string(m.ID)) || m.Spec != "lace" || m.Text == "" {
			t.Errorf("bad or repeated mutant %+v", m)
		}
		seen[m.ID] = true
		if _, isRule := Lookup(m.ID); isRule {
			t.Errorf("%s is also a rule ID", m.ID)
		}
	}
	if len(seen) != len(declared) || len(seen) < 10 {
		t.Errorf("%d mutants listed, %d declared; want them equal and at least 10", len(seen), len(declared))
	}
}

// TestParseHashLenient: the lenient parser reads what ParseHash reads, and
// also a digest whose last character carries pad bits, as the same hash.
func TestParseHashLenient(t *testing.T) {
	t.Parallel()
	canonical := vecBlobHash
	want, err := ParseHash(canonical)
	if err != nil {
		t.Fatal(err)
	}
	last := canonical[44]
	padded := canonical[:44] + string(b64a.Alphabet[indexB64A(last)+1]) + canonical[45:]
	if _, err := ParseHash(padded); ruleOf(err) != RuleGlyphDigestText {
		t.Fatalf("ParseHash(%s) = %v, want %s", padded, err, RuleGlyphDigestText)
	}
	for _, tt := range []struct {
		in string
		ok bool
	}{
		{canonical, true},
		{padded, true},
		{"X" + canonical[1:], false},
		{canonical[:45] + ".H4", false},
		{canonical[:44] + ".H3", false},
		{canonical[:44] + "+.H3", false},
	} {
		got, ok := ParseHashLenient(tt.in)
		if ok != tt.ok || ok && got != want {
			t.Errorf("ParseHashLenient(%q) = %v, %v; want ok %v", tt.in, got, ok, tt.ok)
		}
	}
}

func indexB64A(c byte) int {
	for i := 0; i < len(b64a.Alphabet); i++ {
		if b64a.Alphabet[i] == c {
			return i
		}
	}
	return -1
}

// TestFaultHelpers covers the helpers fault injection uses: the Unicode 15
// NFC emulation (LACE-FIELD-08) and the case-folding comparison of the
// mutant MUT-LACE-ORDER-CASE-INSENSITIVE.
func TestFaultHelpers(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]bool{
		"\U000113C2\U000113C2": true,  // composes to U+113C5 only under Unicode 16.0+
		"\U000105D2\u0307":     true,  // composes to U+105C9 only under Unicode 16.0+
		"e\u0301":              false, // composes under every version
		"caf\u00e9":            true,
		"\u212b":               false,
	} {
		if got := isNFCUnicode15([]byte(s)); got != want {
			t.Errorf("isNFCUnicode15(%+q) = %v, want %v", s, got, want)
		}
	}
	for _, tt := range []struct {
		a, b string
		sign int
	}{{"Z", "a", 1}, {"a", "Z", -1}, {"By", "by", 0}, {"_", "a", -1}, {"ab", "a", 1}} {
		if got := compareFold([]byte(tt.a), []byte(tt.b)); sign(got) != tt.sign {
			t.Errorf("compareFold(%q, %q) = %d, want sign %d", tt.a, tt.b, got, tt.sign)
		}
	}
}

func sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}
