package harness

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	"github.com/threespec/conformance/impl/spec"
	"github.com/threespec/conformance/vectorset"
)

// Expectations are the entries of an expected-failures file (--expect-fail):
// vectors and rules a testee is known to fail, each with a reason. They
// cannot go stale: a listed vector that passes, a vector that passes while
// testing only a listed rule, a rule of which no vector fails, and an entry
// that matches no applicable selected vector, are errors of the run.
//
// The file holds one entry a line: a vector ID (lace/negative/x) or a rule
// ID (LACE-FIELD-03), then white space and the reason, which is required.
// Blank lines and lines starting with # are ignored, as is everything from
// " #" on. A rule entry matches every vector that tests the rule and means
// "failures attributed to this rule are expected": it is stale only when no
// vector testing the rule fails, and a vector that passes while also testing
// another rule is no unexpected pass of it (the testee may reject that vector
// for the other rule). A vector-ID entry is strict: the vector must fail.
//
//	# my-lace 0.3: known gaps, tracked in issue 12
//	lace/negative/plex-field-line-129-bytes  field lines are not length-checked yet
//	LACE-DIR-14                              continuation pages are not implemented
type Expectations struct {
	File    string
	Entries []*Expectation

	// The entries by vector ID and by rule ID (in file order), built on
	// the first match: matching is linear in entries and vectors, not
	// their product (issue 30, item 17: 10^6 entries took 61 s).
	byVector map[string]*Expectation
	byRule   map[string][]*Expectation
}

// Expectation is one entry of an expected-failures file.
type Expectation struct {
	Key    string // a vector ID or a rule ID
	Rule   bool   // Key is a rule ID
	Reason string
	Line   int

	matched int // applicable selected vectors it matched
	failed  int // of matched, those that did not pass
}

var vectorIDPattern = regexp.MustCompile(`^[a-z0-9]+/(positive|negative)/[^\s/]+$`)

// ParseExpectations reads an expected-failures file, whose rule IDs are
// those of specs. Errors name the file and line and are *SetupError.
func ParseExpectations(specs *spec.Set, r io.Reader, file string) (*Expectations, error) {
	ex := &Expectations{File: file}
	seen := map[string]int{}
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if i := strings.Index(line, " #"); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, reason, _ := strings.Cut(line, " ")
		if k, r, ok := strings.Cut(line, "\t"); ok && len(k) < len(key) {
			key, reason = k, r
		}
		reason = strings.TrimSpace(reason)
		bad := func(format string, args ...any) (*Expectations, error) {
			return nil, setupErr("%s:%d: %s", file, n, fmt.Sprintf(format, args...))
		}
		e := &Expectation{Key: key, Reason: reason, Line: n}
		switch {
		case specs.RuleIDPattern().MatchString(key):
			e.Rule = true
		case vectorIDPattern.MatchString(key):
		default:
			return bad("%q is neither a vector ID (<suite>/<positive|negative>/<name>) nor a rule ID (%s-<AREA>-<nn>)", key, strings.Join(specs.Prefixes(), "|"))
		}
		if reason == "" {
			return bad("%s has no reason (write why it is expected to fail after the ID)", key)
		}
		if prev, dup := seen[key]; dup {
			return bad("%s is listed again (first on line %d)", key, prev)
		}
		seen[key] = n
		ex.Entries = append(ex.Entries, e)
	}
	if err := sc.Err(); err != nil {
		return nil, setupErr("%s: %v", file, err)
	}
	return ex, nil
}

// match returns the entries that match v: an entry naming its ID first,
// then those naming its rules, in file order.
func (ex *Expectations) match(v *vectorset.Vector) []*Expectation {
	if ex == nil {
		return nil
	}
	if ex.byVector == nil {
		ex.byVector, ex.byRule = map[string]*Expectation{}, map[string][]*Expectation{}
		for _, e := range ex.Entries {
			switch {
			case e.Rule:
				ex.byRule[e.Key] = append(ex.byRule[e.Key], e)
			case ex.byVector[e.Key] == nil:
				ex.byVector[e.Key] = e
			}
		}
	}
	var out []*Expectation
	if e := ex.byVector[v.ID]; e != nil {
		out = append(out, e)
	}
	for _, a := range v.Aliases { // an old ID, kept for one release after a rename
		if e := ex.byVector[a]; e != nil && len(out) == 0 {
			out = append(out, e)
		}
	}
	first := len(out)
	for i, r := range v.Rules {
		if slices.Contains(v.Rules[:i], r) {
			continue // a rule listed twice matches its entries once
		}
		out = append(out, ex.byRule[r]...)
	}
	slices.SortStableFunc(out[first:], func(a, b *Expectation) int { return a.Line - b.Line })
	return out
}

// stale returns the entries that matched no applicable selected vector.
func (ex *Expectations) stale() []*Expectation {
	if ex == nil {
		return nil
	}
	var out []*Expectation
	for _, e := range ex.Entries {
		if e.matched == 0 {
			out = append(out, e)
		}
	}
	return out
}
