package rules

import (
	"fmt"
	"regexp"
	"strings"
)

// Reading is a place where a specification sentence admits more than one
// careful reading and the project chose one (issue 13, docs/READINGS.md).
// Every vector whose expected outcome, code or result depends on the choice
// names the reading and the alternative it encodes in its index entry
// ("readings": {ID: alternative}); a testee may declare in hello that it
// takes another alternative, and is then judged by that branch.
type Reading struct {
	ID      ID       // "<SPEC>-READ-<nn>": "LACE-READ-03", "HR-READ-03", "LT-READ-12"
	Spec    SpecName // the specification whose sentences it reads
	Section string   // the spec section(s) the quoted sentences stand under
	// Quote holds the spec's sentences the question turns on, verbatim,
	// each with the section it stands under first ("§3: ...").
	Quote []string
	// Question is the open question, in one sentence.
	Question string
	// Rules are the catalog rules whose verdict the choice decides.
	Rules []ID
	// Alternatives are the defensible readings, by short name; Default
	// names the one the project's vectors take by default.
	Alternatives []Alternative
	Default      string
	// Why says why the default was chosen.
	Why string
}

// RetiredReading is a reading ID that left its catalog: the spec's own
// words decide the question (its rule carries a NoteClarified note), or
// no verdict or code depends on it (a NotePrecedence note).
type RetiredReading struct {
	ID  ID
	Why string // where the question went, naming the rule: "the spec decides: ... (LT-OPT-03, clarified)"
}

// Alternative is one reading of an open sentence.
type Alternative struct {
	Name string // short kebab-case name: "zero-previous-hash-accepted"
	Text string // what an implementation taking it does, in one sentence
}

var (
	readingIDPattern = regexp.MustCompile(`^[A-Z]+-READ-[0-9]{2}$`)
	altNamePattern   = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
)

// ValidReadingID reports whether id has the form of a reading ID.
func ValidReadingID(id string) bool { return readingIDPattern.MatchString(id) }

// Has reports whether the reading has an alternative named name.
func (r *Reading) Has(name string) bool {
	for _, a := range r.Alternatives {
		if a.Name == name {
			return true
		}
	}
	return false
}

// Check reports what is wrong with a catalog entry: its ID, its quote, its
// alternatives (at least two, distinct, kebab-case) and its default.
func (r *Reading) Check() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("reading %s: %s", r.ID, fmt.Sprintf(format, args...))
	}
	// That the ID carries its spec's prefix is the spec's check
	// (impl/spec.Spec.Check): this package knows no prefix.
	switch {
	case !ValidReadingID(string(r.ID)):
		return bad("ID is not <SPEC>-READ-<nn>")
	case r.Spec == "":
		return bad("names no spec")
	case r.Section == "":
		return bad("names no section")
	case len(r.Quote) == 0:
		return bad("quotes no spec sentence")
	case r.Question == "" || r.Why == "":
		return bad("needs a question and a reason for its default")
	case len(r.Alternatives) < 2:
		return bad("needs at least two alternatives")
	}
	for _, q := range r.Quote {
		if !strings.HasPrefix(q, "§") && !strings.HasPrefix(q, "Preamble") {
			return bad("quote %q does not start with its section (§n: ...)", q)
		}
	}
	seen := map[string]bool{}
	for _, a := range r.Alternatives {
		if !altNamePattern.MatchString(a.Name) || a.Text == "" {
			return bad("alternative %q needs a kebab-case name and a text", a.Name)
		}
		if seen[a.Name] {
			return bad("alternative %q listed twice", a.Name)
		}
		seen[a.Name] = true
	}
	if !seen[r.Default] {
		return bad("default %q is not one of its alternatives", r.Default)
	}
	return nil
}

// ReadingMaker returns the constructor the readings catalogs of spec use:
// it makes a Reading of that spec from its ID, section, rules, quoted
// sentences, question, default, the reason for the default and its
// alternatives.
func ReadingMaker(spec SpecName) func(id, section string, ruleIDs []ID, quote []string, question, def, why string, alts ...Alternative) Reading {
	return func(id, section string, ruleIDs []ID, quote []string, question, def, why string, alts ...Alternative) Reading {
		return Reading{ID: ID(id), Spec: spec, Section: section, Quote: quote, Question: question,
			Rules: ruleIDs, Alternatives: alts, Default: def, Why: why}
	}
}

// Alt is an Alternative: its short name and what an implementation taking
// it does.
func Alt(name, text string) Alternative { return Alternative{Name: name, Text: text} }
