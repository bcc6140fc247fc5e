package hiverelay

import (
	"strings"
	"testing"

	"github.com/threespec/conformance/impl/rules"
)

// The untestable rules are what the catalog says: those that bind others
// are Outside, the others are subsumed rejecting rules.
func TestUntestableRules(t *testing.T) {
	t.Parallel()
	var n int
	for _, r := range Catalog() {
		if r.Untestable == "" {
			continue
		}
		n++
		switch r.Check {
		case rules.Outside:
		case rules.Rejecting:
			if !strings.HasPrefix(r.Untestable, "subsumed by") {
				t.Errorf("%s: a rejecting rule is untestable only when subsumed: %q", r.ID, r.Untestable)
			}
		default:
			t.Errorf("%s: untestable, but %s", r.ID, r.Check)
		}
	}
	if n != 8 {
		t.Errorf("%d untestable rules, want the 8 of docs/hiverelay.md", n)
	}
	seen := map[rules.ID]bool{}
	for _, m := range Mutants() {
		if !strings.HasPrefix(string(m.ID), "MUT-HR-") || m.Spec != "hiverelay" || seen[m.ID] || !strings.HasSuffix(m.Text, ".") {
			t.Errorf("mutant %+v", m)
		}
		seen[m.ID] = true
	}
	if len(seen) < 10 {
		t.Errorf("%d mutants, want at least 10", len(seen))
	}
}
