package spec_test

import (
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/impl/spec"
	"github.com/threespec/conformance/internal/allspecs"
	"github.com/threespec/conformance/testee"
	"github.com/threespec/conformance/vectorset"
)

// Every rule of the joined catalog is found by Rule as it is listed, and
// belongs to the spec whose prefix its ID carries; the specs come in
// report order, each with a catalog of substance.
func TestSetFindsEveryRule(t *testing.T) {
	t.Parallel()
	set := allspecs.Set()
	count := map[rules.SpecName]int{}
	last := -1
	for _, r := range set.Rules() {
		got, ok := set.Rule(r.ID)
		if !ok || !reflect.DeepEqual(got, r) {
			t.Errorf("Rule(%s) = %+v, %v; want the listed entry", r.ID, got, ok)
		}
		s, ok := set.ByPrefix(string(r.ID))
		if !ok || s.Name != r.Spec || !set.RuleIDPattern().MatchString(string(r.ID)) {
			t.Errorf("%s is listed as a rule of %q", r.ID, r.Spec)
		}
		i := slices.Index(set.Names(), r.Spec.String())
		if i < last || i < 0 {
			t.Errorf("%s (%s) comes after a rule of a later spec", r.ID, r.Spec)
		}
		last = i
		count[r.Spec]++
	}
	for _, s := range set.Specs() {
		if count[s.Name] < 100 {
			t.Errorf("%s: %d rules in the joined catalog", s.Name, count[s.Name])
		}
	}
	for _, id := range []rules.ID{"", "LACE-FIELD-99", "HR-X-01", "lace-field-03"} {
		if r, ok := set.Rule(id); ok {
			t.Errorf("Rule(%q) = %+v, want none", id, r)
		}
	}
}

// The mutants are named after their spec, each once.
func TestMutantsNamedBySpec(t *testing.T) {
	t.Parallel()
	set := allspecs.Set()
	seen := map[rules.ID]bool{}
	for _, m := range set.Mutants() {
		s, ok := set.Lookup(string(m.Spec))
		if seen[m.ID] || !ok || !strings.HasPrefix(string(m.ID), "MUT-"+s.Prefix+"-") || !set.MutantIDPattern().MatchString(string(m.ID)) {
			t.Errorf("mutant %s of %q: listed twice or named after another spec", m.ID, m.Spec)
		}
		seen[m.ID] = true
	}
}

// NewSet refuses a spec declared wrong and two specs that share a name,
// prefix or operation.
func TestNewSetRefuses(t *testing.T) {
	good := allspecs.Set().Specs()
	renamed := *good[0]
	renamed.Prefix = "lace"
	noOps := *good[0]
	noOps.Ops = append([]spec.Op{{Name: "other.op", Handle: good[0].Ops[0].Handle}}, good[0].Ops...)
	for name, specs := range map[string][]*spec.Spec{
		"lower-case prefix":    {&renamed},
		"operation of another": {&noOps},
		"the same spec twice":  {good[0], good[0]},
		"no rules":             {{Name: "x", Prefix: "X"}},
	} {
		if _, err := spec.NewSet(specs...); err == nil {
			t.Errorf("%s: NewSet accepted it", name)
		}
	}
	if _, err := spec.NewSet(good...); err != nil {
		t.Errorf("the wings' specs: %v", err)
	}
}

// TestReadingsCatalog: every reading is well formed (rules.Reading.Check),
// IDs are unique, and every rule a reading names is in the rule catalog.
func TestReadingsCatalog(t *testing.T) {
	seen := map[rules.ID]bool{}
	set := allspecs.Set()
	for _, r := range set.Readings() {
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
			if _, ok := set.Rule(id); !ok {
				t.Errorf("reading %s names rule %s, which no catalog defines", r.ID, id)
			}
		}
	}
	for _, s := range set.Specs() {
		if len(s.Readings) == 0 {
			t.Errorf("spec %s has no reading: every spec leaves some sentence open (docs/READINGS.md)", s.Name)
		}
	}
}

// TestCommittedVectorsNameReadings: in the committed indexes every vector
// tagged decision or code-decision names a reading, every reading named is
// in the catalog with an alternative it has, and every reading of the
// catalog is named by a vector.
func TestCommittedVectorsNameReadings(t *testing.T) {
	set := allspecs.Set()
	named := map[string]bool{}
	for _, suite := range set.Names() {
		ix, err := vectorset.Load(filepath.Join("..", "..", "vectors"), suite)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range ix.Vectors {
			if (slices.Contains(v.Tags, "decision") || slices.Contains(v.Tags, "code-decision")) && len(v.Readings) == 0 {
				t.Errorf("%s is tagged decision but names no reading", v.ID)
			}
			if err := set.CheckTaken(v.Readings); err != nil {
				t.Errorf("%s: %v", v.ID, err)
			}
			for id := range v.Readings {
				if r, _ := set.Reading(id); r.Spec.String() != suite {
					t.Errorf("%s names reading %s of another spec", v.ID, id)
				}
				named[id] = true
			}
		}
	}
	for _, r := range set.Readings() {
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
		if err := allspecs.Set().CheckTaken(c.m); (err == nil) != c.ok {
			t.Errorf("%v: %v", c.m, err)
		}
	}
}

// The protocol's operations for the wings: hello first, then each spec's,
// twelve in all, none twice.
func TestSetOps(t *testing.T) {
	ops := allspecs.Set().Ops()
	if len(ops) != 12 || ops[0] != testee.OpHello || len(slices.Compact(slices.Sorted(slices.Values(ops)))) != 12 {
		t.Errorf("Ops() = %v", ops)
	}
}

func TestRetiredReadingIsExplained(t *testing.T) {
	s := &spec.Spec{Name: "x", Prefix: "X", Rules: []rules.Rule{{ID: "X-A-01", Spec: "x"}},
		Readings: []rules.Reading{{ID: "X-READ-01", Spec: "x", Alternatives: []rules.Alternative{{Name: "a"}}, Default: "a"}},
		Retired:  []rules.RetiredReading{{ID: "X-READ-02", Why: "the spec decides (X-A-01, clarified)"}}}
	set, err := spec.NewSet(s)
	if err != nil {
		t.Fatal(err)
	}
	err = set.CheckTaken(map[string]string{"X-READ-02": "a"})
	if err == nil || !strings.Contains(err.Error(), "retired") || !strings.Contains(err.Error(), "X-A-01, clarified") {
		t.Errorf("declaring a retired reading: %v", err)
	}
	if err := set.CheckTaken(map[string]string{"X-READ-03": "a"}); err == nil || strings.Contains(err.Error(), "retired") {
		t.Errorf("declaring an unknown reading: %v", err)
	}
	s.Retired = append(s.Retired, rules.RetiredReading{ID: "X-READ-01", Why: "w"})
	if _, err := spec.NewSet(s); err == nil {
		t.Error("a reading both in the catalog and retired was taken")
	}
}
