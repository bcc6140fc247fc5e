// Package fault switches off the enforcement of individual rules in the
// reference implementations, so that tests (and the hidden --fault flag of
// `conform serve`) can show that the conformance suite catches an
// implementation that stops enforcing one rule.
//
// Nothing outside this module can import it, and nothing in normal use sets
// it: with no fault set, Off always reports false and every rule is enforced.
package fault

import "sync/atomic"

var active atomic.Pointer[map[string]bool]

// Off reports whether the enforcement of rule id (a rule ID such as
// "LACE-FIELD-03", or a named mutant) is switched off.
func Off(id string) bool {
	m := active.Load()
	return m != nil && (*m)[id]
}

// SetGlobal switches off the enforcement of the given rule IDs (replacing any
// earlier set) and returns a function that restores the previous set.
// SetGlobal() switches every rule back on. TRANSITIONAL (issue 16): the
// process-global form goes once every parser carries its Set in rules.Checks.
func SetGlobal(ids ...string) (restore func()) {
	var next *map[string]bool
	if len(ids) > 0 {
		m := make(map[string]bool, len(ids))
		for _, id := range ids {
			m[id] = true
		}
		next = &m
	}
	prev := active.Swap(next)
	return func() { active.Store(prev) }
}

// Active returns the rule IDs currently switched off, in no particular order.
func Active() []string {
	m := active.Load()
	if m == nil {
		return nil
	}
	ids := make([]string, 0, len(*m))
	for id := range *m {
		ids = append(ids, id)
	}
	return ids
}
