// Package rules holds the vocabulary the reference implementations share:
// rule IDs, rule levels, catalog entries, and Violation, the typed error every
// reference parser returns. A Violation names the rule it enforces, the code
// the specification gives for it (if any), and where in the input it was found.
package rules

import (
	"errors"
	"fmt"
	"slices"
)

// ID is a stable rule identifier such as "LACE-FIELD-03", "HR-CENC-02" or
// "LT-OPT-01". The same ID names the Gherkin rule, the vectors that test it
// and the errors that enforce it.
type ID string

// Level is the strength of a rule: MUST-level rules fail a conformance run,
// SHOULD-level rules only warn, and a CONVENTION is a statement the spec
// makes with no requirement word ("By convention, ..."): catalogued so
// that nothing of the spec goes unlisted, never judged (no vector cites
// one, and it is untestable).
type Level uint8

const (
	LevelMust Level = iota
	LevelShould
	LevelConvention
)

func (l Level) String() string {
	switch l {
	case LevelShould:
		return "SHOULD"
	case LevelConvention:
		return "CONVENTION"
	}
	return "MUST"
}

// Rule is one atomic normative statement of a specification: an entry of
// its catalog (Catalog), made with Must or Should.
type Rule struct {
	ID      ID
	Spec    SpecName // given by the catalog the rule is listed in (NewCatalog)
	Section string   // the spec section heading the statement stands under
	Level   Level
	Text    string // the statement, in one sentence
	// Check says how bytes show the rule (HiveRelay classifies every rule;
	// Unclassified elsewhere).
	Check Check
	// Untestable, when not empty, says why no implementation behaviour that
	// bytes can show violates the rule (it binds relays or applications, it
	// names a file-naming convention, ...). The fault proof (internal/prove)
	// does not inject such a rule; every other rule's fault must be caught.
	Untestable string
	// ProjectDefined, when not empty, says what of the rule is the
	// project's and not the spec's words (a bound the spec does not give, a
	// byte layout it does not fix, a reading of a sentence it leaves open),
	// and where the choice is argued. features/RULES.md and every report
	// line that cites the rule mark it, so that an implementer does not take
	// it for the specification's own statement.
	ProjectDefined string
	// Notes are the project's remarks on the rule that change nothing it
	// asks: where its wording is easy to misread and the spec's own words
	// decide (NoteClarified), or which of several failing checks a
	// reference reports first where the spec orders none (NotePrecedence).
	// features/RULES.md and `conform show` print them.
	Notes []Note
}

// Note is one remark of the project on a rule (Rule.Notes).
type Note struct {
	Kind NoteKind
	Text string // one or more sentences, quoting the spec where it decides
}

// NoteKind says what a Note is.
type NoteKind string

const (
	// NoteClarified marks a point the rule's wording leaves easy to misread
	// where the spec's own words decide it: the note quotes them. It was
	// once a reading (docs/READINGS.md) and is not open.
	NoteClarified NoteKind = "clarified"
	// NotePrecedence marks a choice of which rule or offset is reported
	// when several checks fail on one input and the spec orders none: no
	// verdict or code depends on it, so it is not a reading.
	NotePrecedence NoteKind = "precedence"
)

// Clarified returns r with a NoteClarified note.
func (r Rule) Clarified(text string) Rule {
	r.Notes = append(slices.Clip(r.Notes), Note{NoteClarified, text})
	return r
}

// Precedence returns r with a NotePrecedence note.
func (r Rule) Precedence(text string) Rule {
	r.Notes = append(slices.Clip(r.Notes), Note{NotePrecedence, text})
	return r
}

// Defined returns r marked as project-defined, with what of it is the
// project's (see Rule.ProjectDefined).
func (r Rule) Defined(what string) Rule {
	r.ProjectDefined = what
	return r
}

// Mutant is a classic implementation mistake (an off-by-one at a bound,
// CRLF accepted, the wrong byte order, ...) that the reference can be
// switched into through its rules.Checks, under its ID, to show that the
// conformance suite catches it (issue: "prove the suite catches what it
// claims").
type Mutant struct {
	ID   ID       // "MUT-<SPEC>-<WORDS>", e.g. "MUT-LACE-CRLF-ACCEPTED"
	Spec SpecName // the reference it is a mistake of
	Text string   // the mistake, in one sentence
}

// Violation is the error a reference implementation returns for input that a
// rule rejects.
type Violation struct {
	Rule   ID     // the rule that rejects the input
	Code   string // the code the specification names ("BAD_ENCODING", "tr::frame::crc_fail", ...); "" where it names none
	Offset int64  // byte offset into the input where the violation was found; -1 when not tied to a byte
	Line   int    // 1-based line number for line-oriented formats; 0 otherwise
	Detail string // what is wrong, naming the offending field, line or value
}

// Error renders the violation as
//
//	LACE-FIELD-03 [code] at line 3, byte 57: field name contains a space
//
// leaving out the parts that are not known.
func (v *Violation) Error() string {
	s := string(v.Rule)
	if v.Code != "" {
		s += " [" + v.Code + "]"
	}
	switch {
	case v.Line > 0 && v.Offset >= 0:
		s += fmt.Sprintf(" at line %d, byte %d", v.Line, v.Offset)
	case v.Line > 0:
		s += fmt.Sprintf(" at line %d", v.Line)
	case v.Offset >= 0:
		s += fmt.Sprintf(" at byte %d", v.Offset)
	}
	return s + ": " + v.Detail
}

// Fail returns a *Violation of rule id with the given code, offset (-1 when
// none) and detail. It is pure: whether the rule is enforced is the
// caller's question, asked of the rules.Checks its parse carries, so a
// rejection reads
//
//	if bad && p.c.Enforced(RuleFieldOrder) {
//		return rules.Fail(RuleFieldOrder, "", off, "name %q sorts before %q", b, a)
//	}
//
// and, under the rule's fault, the parse carries on as if the check had
// passed, without panicking.
func Fail(id ID, code string, offset int64, format string, args ...any) error {
	return &Violation{Rule: id, Code: code, Offset: offset, Detail: fmt.Sprintf(format, args...)}
}

// FailLine is Fail for a line-oriented format: it also records the 1-based line.
func FailLine(id ID, code string, line int, offset int64, format string, args ...any) error {
	return &Violation{Rule: id, Code: code, Line: line, Offset: offset, Detail: fmt.Sprintf(format, args...)}
}

// RuleOf returns the rule ID carried by err (or by an error it wraps), or ""
// when err carries none.
func RuleOf(err error) ID {
	var v *Violation
	if errors.As(err, &v) {
		return v.Rule
	}
	return ""
}

// CodeOf returns the specification code carried by err, or "".
func CodeOf(err error) string {
	var v *Violation
	if errors.As(err, &v) {
		return v.Code
	}
	return ""
}
