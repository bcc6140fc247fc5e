package catalog

import (
	"slices"
	"strings"
	"testing"

	"github.com/threespec/conformance/impl/rules"
)

// Every rule of the joined catalog is found by Lookup as it is listed, and
// belongs to the spec its ID names; the specs come in report order.
func TestLookupFindsEveryRule(t *testing.T) {
	t.Parallel()
	count := map[rules.Spec]int{}
	last := -1
	for _, r := range All() {
		got, ok := Lookup(r.ID)
		if !ok || got != r {
			t.Errorf("Lookup(%s) = %+v, %v; want the listed entry", r.ID, got, ok)
		}
		if !strings.HasPrefix(string(r.ID), r.Spec.IDPrefix()) || r.Spec.IDPrefix() == "" {
			t.Errorf("%s is listed as a rule of %q", r.ID, r.Spec)
		}
		i := slices.Index(Specs, r.Spec.String())
		if i < last || i < 0 {
			t.Errorf("%s (%s) comes after a rule of a later spec", r.ID, r.Spec)
		}
		last = i
		count[r.Spec]++
	}
	for _, s := range rules.Specs() {
		if count[s] < 100 {
			t.Errorf("%s: %d rules in the joined catalog", s, count[s])
		}
	}
	for _, id := range []rules.ID{"", "LACE-FIELD-99", "HR-X-01", "lace-field-03"} {
		if r, ok := Lookup(id); ok {
			t.Errorf("Lookup(%q) = %+v, want none", id, r)
		}
	}
}

// The mutants are named after their spec, each once.
func TestMutantsNamedBySpec(t *testing.T) {
	t.Parallel()
	seen := map[rules.ID]bool{}
	for _, m := range Mutants() {
		if seen[m.ID] || !strings.HasPrefix(string(m.ID), "MUT-"+m.Spec.IDPrefix()) || m.Spec.IDPrefix() == "" {
			t.Errorf("mutant %s of %q: listed twice or named after another spec", m.ID, m.Spec)
		}
		seen[m.ID] = true
	}
}
