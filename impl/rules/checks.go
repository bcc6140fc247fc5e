package rules

import (
	"github.com/threespec/conformance/internal/fault"
	"github.com/threespec/conformance/internal/reading"
)

// Checks says which rules a parse or a construction enforces, which named
// mutants it carries and which readings of open spec sentences it takes.
// Every reference parser and constructor carries one, made once per call
// and never read from a global. The zero Checks, which is all that code
// outside this module can make, enforces every rule, carries no mutant and
// takes every default reading.
//
// It is the one way to ask "is this rule enforced here":
//
//	if len(name) == 0 && c.Enforced(RuleFieldName) {
//		return rules.Fail(RuleFieldName, "", off, "empty field name")
//	}
type Checks struct {
	// Faults holds the rules switched off and the mutants switched on
	// (tests, `conform prove`, the hidden --fault flag of `conform serve`).
	Faults fault.Set
	// Readings holds the alternatives taken (`conform serve --reading`,
	// vecgen's check of the alternative branches).
	Readings reading.Set
}

// Enforced reports whether rule id is enforced: false only when c's faults
// switch it off.
func (c Checks) Enforced(id ID) bool { return !c.Faults.Off(string(id)) }

// Mutated reports whether the named mutant id is switched on.
func (c Checks) Mutated(id ID) bool { return c.Faults.Off(string(id)) }

// Takes reports whether c takes alternative alt of reading id.
func (c Checks) Takes(id ID, alt string) bool { return c.Readings.Is(string(id), alt) }

// Faulty reports whether c switches off any rule or switches on any mutant.
func (c Checks) Faulty() bool { return !c.Faults.Empty() }
