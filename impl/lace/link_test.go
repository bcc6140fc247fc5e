package lace

import (
	"testing"

	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/internal/fault"
)

// Lace-010, "Record-link fields carry typed hash references".

func TestIsLinkName(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{
		"+Link": true, "Chunk+Link": true, "File+Link": true, "a b+Link": true,
		"Link": false, "+link": false, "+Links": false, "Chunk+Link2": false, "": false,
	} {
		if IsLinkName(name) != want {
			t.Errorf("IsLinkName(%q) = %v", name, !want)
		}
	}
}

func TestParseLink(t *testing.T) {
	t.Parallel()
	h := vecBlobHash
	cases := []struct {
		value, data, target string
		rule                rules.ID // "" for a well-formed link
	}{
		{"evidence S.EXAMPLE_SEAL_HASH.H3", "evidence", "S.EXAMPLE_SEAL_HASH.H3", ""},
		{"0..33554432 B.EXAMPLE_BLOB_HASH.H3", "0..33554432", "B.EXAMPLE_BLOB_HASH.H3", ""},
		{"name " + h, "name", h, ""},
		{"name  " + h, "name ", h, ""}, // LACE-LINK-08: preceding spaces are link data
		{" name " + h, " name", h, ""},
		{"a b c " + h, "a b c", h, ""},
		{"x P.abc.H4", "x", "P.abc.H4", ""}, // LACE-LINK-05: any suffix
		{"x P.a.b.zz", "x", "P.a.b.zz", ""},
		{"nospace", "", "", RuleLinkSeparator},
		{h, "", "", RuleLinkSeparator},
		{" " + h, "", "", RuleLinkData},
		{"x " + h + " ", "", "", RuleLinkTarget}, // trailing space: the target is empty
		{"x X.abc.H3", "", "", RuleLinkTarget},
		{"x b.abc.H3", "", "", RuleLinkTarget},
		{"x B.", "", "", RuleLinkTarget},
		{"x B.abc", "", "", RuleLinkTarget},
		{"x B.abc.", "", "", RuleLinkTarget},
		{"x B..H3", "", "", RuleLinkTarget},
	}
	for _, c := range cases {
		data, target, err := ParseLink(c.value)
		if got := ruleOf(err); got != c.rule {
			t.Errorf("ParseLink(%q): %v, want rule %q", c.value, err, c.rule)
			continue
		}
		if c.rule == "" && (data != c.data || target != c.target) {
			t.Errorf("ParseLink(%q) = %q, %q; want %q, %q", c.value, data, target, c.data, c.target)
		}
		if c.rule != "" {
			// Switched off, the rule is not reported again (and nothing panics).
			if _, _, err := ParseLinkWith(rules.Checks{Faults: fault.Of(string(c.rule))}, c.value); ruleOf(err) == c.rule {
				t.Errorf("ParseLink(%q) with %s switched off: %v", c.value, c.rule, err)
			}
		}
	}
}

// TestLinks checks that link indexing keeps well-formed links in field order
// and ignores malformed ones, which stay ordinary fields (LACE-LINK-10, -11).
func TestLinks(t *testing.T) {
	t.Parallel()
	in := mk(plexT("", "+Link: evidence "+vecSealHash, "+Link: malformed", "Chunk+Link: 0..5 "+vecBlobHash, "Note+Link: "+vecPlexHash, "Other: x "+vecBlobHash))
	r, err := Parse(in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ls := r.Links()
	want := []Link{
		{Field: 0, Name: "+Link", Data: "evidence", Target: vecSealHash},
		{Field: 2, Name: "Chunk+Link", Data: "0..5", Target: vecBlobHash},
	}
	if len(ls) != len(want) {
		t.Fatalf("links %+v", ls)
	}
	for i := range want {
		if ls[i] != want[i] {
			t.Errorf("link %d = %+v, want %+v", i, ls[i], want[i])
		}
	}
}
