// Package fault holds fault sets: the rules whose enforcement a reference
// parse switches off and the named mutants it switches on, so that tests,
// `conform prove` and the hidden --fault flag of `conform serve` can show
// that the conformance suite catches an implementation that stops
// enforcing one rule.
//
// A Set is a value that a parse carries in its rules.Checks; there is no
// process-wide switch. Nothing outside this module can import the package,
// so code outside it holds only the zero Set: every rule enforced.
package fault
