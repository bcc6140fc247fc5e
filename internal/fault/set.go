package fault

import (
	"maps"
	"slices"
)

// Set is a set of switched-off rules and switched-on mutants, by ID. The
// zero Set switches off nothing: every rule is enforced and no mutant is
// on. A Set is immutable once made, so one value can be shared by parses
// running in parallel.
type Set struct{ m map[string]bool }

// Of returns the Set of the given IDs (rule IDs such as "LACE-FIELD-03", or
// named mutants such as "MUT-LACE-CRLF-ACCEPTED").
func Of(ids ...string) Set {
	if len(ids) == 0 {
		return Set{}
	}
	m := make(map[string]bool, len(ids))
	for _, id := range ids {
		m[id] = true
	}
	return Set{m}
}

// Off reports whether id is in s: a rule whose enforcement is switched off,
// or a mutant that is switched on. For the zero Set it is one inlined nil
// check (the map lookup, a runtime call, is skipped), so that a standard
// parse asks its many questions as cheaply as it read the global set.
func (s Set) Off(id string) bool { return s.m != nil && s.m[id] }

// Empty reports whether s switches off nothing.
func (s Set) Empty() bool { return len(s.m) == 0 }

// IDs returns the IDs in s, sorted; nil when s is empty.
func (s Set) IDs() []string {
	if len(s.m) == 0 {
		return nil
	}
	return slices.Sorted(maps.Keys(s.m))
}
