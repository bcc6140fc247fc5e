package catalog

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/vectorset"
)

// TestReadingsCatalog: every reading is well formed (rules.Reading.Check),
// IDs are unique, and every rule a reading names is in the rule catalog.
func TestReadingsCatalog(t *testing.T) {
	seen := map[rules.ID]bool{}
	for _, r := range Readings() {
		if err := r.Check(); err != nil {
			t.Error(err)
		}
		if seen[r.ID] {
			t.Errorf("reading %s listed twice", r.ID)
		}
		seen[r.ID] = true
		if len(r.Rules) == 0 {
			t.Errorf("reading %s decides no rule", r.ID)
		}
		for _, id := range r.Rules {
			if _, ok := Lookup(id); !ok {
				t.Errorf("reading %s names rule %s, which no catalog defines", r.ID, id)
			}
		}
	}
	if len(Readings()) < 36 {
		t.Errorf("only %d readings", len(Readings()))
	}
}

// TestCommittedVectorsNameReadings: in the committed indexes every vector
// tagged decision or code-decision names a reading, every reading named is
// in the catalog with an alternative it has, and every reading of the
// catalog is named by a vector.
func TestCommittedVectorsNameReadings(t *testing.T) {
	named := map[string]bool{}
	for _, suite := range vectorset.Suites {
		ix, err := vectorset.Load(filepath.Join("..", "..", "vectors"), suite)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range ix.Vectors {
			if (slices.Contains(v.Tags, "decision") || slices.Contains(v.Tags, "code-decision")) && len(v.Readings) == 0 {
				t.Errorf("%s is tagged decision but names no reading", v.ID)
			}
			if err := CheckTaken(v.Readings); err != nil {
				t.Errorf("%s: %v", v.ID, err)
			}
			for id := range v.Readings {
				if r, _ := LookupReading(id); r.Spec.String() != suite {
					t.Errorf("%s names reading %s of another spec", v.ID, id)
				}
				named[id] = true
			}
		}
	}
	for _, r := range Readings() {
		if !named[string(r.ID)] {
			t.Errorf("reading %s has no vector", r.ID)
		}
	}
}

// TestCheckTaken: unknown readings and alternatives are refused by name.
func TestCheckTaken(t *testing.T) {
	for _, c := range []struct {
		m  map[string]string
		ok bool
	}{
		{map[string]string{"HR-READ-03": "zero-previous-hash-rejected"}, true},
		{map[string]string{"HR-READ-03": "zero-previous-hash-accepted"}, true},
		{map[string]string{"HR-READ-03": "rejected"}, false},
		{map[string]string{"HR-READ-99": "x"}, false},
	} {
		if err := CheckTaken(c.m); (err == nil) != c.ok {
			t.Errorf("%v: %v", c.m, err)
		}
	}
}
