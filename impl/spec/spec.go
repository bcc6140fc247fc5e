// Package spec defines the value that carries one specification to the
// spec-neutral core of the suite. Each format's wing declares its Spec
// (impl/lace/lacespec, impl/hiverelay/hivespec, impl/libtracer/tracerspec):
// its name and rule-ID prefix, its rule catalog, mutants and readings, the
// verification of what its suite publishes, and the operations of the
// testee protocol it defines, with their handlers, caps and profiles. The
// core (the reference's dispatch, the harness, the steps' world, the
// generator engine, the fault proof) is handed the specs by the commands
// and names none of them.
//
// A wing's generator (internal/vecgen.Generator) and steps (steps.Wing) extend
// its Spec, each holding it, so that a command that needs neither links
// neither: conform links no generator and no godog.
package spec

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/testee"
	"github.com/threespec/conformance/vectorset"
)

// Spec is one specification as its wing declares it.
type Spec struct {
	// Name is the name the reports, indexes, docs and manifests use: the
	// suite name (vectors/<kind>/<Name>/, manifest/<Name>/), the features
	// directory (features/<Name>/) and the prefix of its operations
	// (<Name>.<op>).
	Name rules.SpecName
	// Prefix begins its rule IDs (<Prefix>-<AREA>-<nn>), reading IDs
	// (<Prefix>-READ-<nn>) and mutant IDs (MUT-<Prefix>-<WORDS>): "LACE".
	Prefix string
	// Title is the specification's own title: "Lace-010 Records".
	Title string
	// TextFile is the name of its text in specs/ (package specs).
	TextFile string
	// Doc is the project's document of it: "docs/lace.md".
	Doc string

	// Rules is its rule catalog, in spec order; Mutants the classic
	// mistakes the fault proof injects into its reference; Readings the
	// places where its text admits more than one careful reading
	// (docs/READINGS.md).
	Rules    []rules.Rule
	Mutants  []rules.Mutant
	Readings []rules.Reading
	// Retired lists the reading IDs its catalog once held and holds no
	// more (the spec's words decide, or no verdict depends on them), each
	// with where its question went. An ID is never given to another
	// reading; a testee that declares a retired one is told why.
	Retired []rules.RetiredReading

	// Verify, when set, verifies what its suite publishes beyond the suite
	// set hash (vectorset.SuiteDef.Verify).
	Verify func(dir string, tree map[string][]byte) (vectorset.Authority, error)

	// Ops are the operations of the testee protocol it defines
	// (docs/PROTOCOL.md), each named <Name>.<op>, with the reference's
	// handler.
	Ops []Op
	// Profiles are the profiles a testee may claim for it.
	Profiles []Profile
	// Caps are the bounds a request may ask the reference for, by the
	// hello limit that advertises each, with the reference's default cap.
	Caps []Cap
	// Limits, when set, gives the hello limits beyond the caps, under the
	// caps c (constants of the format, defaults that differ from a cap).
	Limits func(c Caps) map[string]int64

	// CheckOrder, when set, returns every error code that an implementation
	// following the spec could report first on a request the reference
	// rejects, under the readings taken (reading ID to alternative; one
	// absent is at its default): the spec orders few of its checks, so an
	// input that fails two may be reported with either's code
	// (docs/VECTORS.md, "Check order"). AnyCode stands for a failing check
	// whose code the spec does not name. The generator holds every
	// negative vector to it (a MUST vector lists the codes beside its own
	// as acceptable codes) and conform fuzz accepts a rejection with any of
	// them. An error says the request is outside what it models (an
	// operation it has no order for, an input the reference accepts).
	CheckOrder func(op string, args json.RawMessage, input []byte, readings map[string]string) ([]string, error)
	// ExpectedResult, when set, returns the reference's result of an
	// accepted request of op as a vector expects it: the members whose
	// wording the spec leaves to the implementation (free text inside a
	// result, such as the detail of an error a frame list carries)
	// replaced by matchers (vectorset.AnyString), as the generator writes
	// them. conform fuzz judges a testee's result against it.
	ExpectedResult func(op string, result json.RawMessage) (json.RawMessage, error)
}

// AnyCode, in an answer of Spec.CheckOrder, stands for a failing check
// whose code the spec does not name: a rejection with any code is the
// spec's then.
const AnyCode = "(any code: the spec names none)"

// Op is one operation of the testee protocol and the reference's handler
// of it.
type Op struct {
	Name   string
	Handle Handler
}

// Profile is a profile a testee may claim in its hello (docs/PROTOCOL.md,
// "Profiles"): vectors that need it apply only to a testee that claims it.
type Profile struct {
	Name string
	// StandIn, when set, marks a profile of the project's own stand-in for
	// what the spec leaves to another document (the Lace Mark scheme): a
	// run that does not rely on the stand-ins (conform run --mark none)
	// applies no vector that needs it.
	StandIn *StandIn
	// Reference marks a profile the reference claims.
	Reference bool
}

// StandIn describes a stand-in profile for conform's mark policy.
type StandIn struct {
	// Policy is the word of a run that relies on it (conform run --mark
	// WORD, the default; the report's policy).
	Policy string
	// What names it in a not-applicable reason: "the stand-in Mark scheme".
	What string
}

// Cap is one bound a request may ask for, under the hello limit Name, and
// the reference's cap on it by default.
type Cap struct {
	Name    string
	Default int64
}

// SuiteDef is what the harness is told of the spec's suite.
func (s *Spec) SuiteDef() vectorset.SuiteDef {
	return vectorset.SuiteDef{Name: string(s.Name), Verify: s.Verify}
}

// prefixPattern is the shape of an ID prefix: upper-case letters.
var prefixPattern = regexp.MustCompile(`^[A-Z]+$`)

// Check reports a spec declared wrong: no name or prefix, a rule, reading
// or mutant whose ID is not of the spec or that the catalog lists under
// another spec, an operation not named <Name>.<op> or without a handler,
// a name twice.
func (s *Spec) Check() error {
	if s.Name == "" || s.Prefix == "" || !prefixPattern.MatchString(s.Prefix) {
		return fmt.Errorf("spec %q: a name and an upper-case ID prefix (%q) are needed", s.Name, s.Prefix)
	}
	if len(s.Rules) == 0 {
		return fmt.Errorf("spec %s: no rule catalog", s.Name)
	}
	for _, r := range s.Rules {
		if r.Spec != s.Name || !strings.HasPrefix(string(r.ID), s.Prefix+"-") {
			return fmt.Errorf("spec %s: rule %s of %q in its catalog", s.Name, r.ID, r.Spec)
		}
	}
	for _, r := range s.Readings {
		if r.Spec != s.Name || !strings.HasPrefix(string(r.ID), s.Prefix+"-READ-") {
			return fmt.Errorf("spec %s: reading %s of %q", s.Name, r.ID, r.Spec)
		}
	}
	for _, r := range s.Retired {
		if !strings.HasPrefix(string(r.ID), s.Prefix+"-READ-") || !rules.ValidReadingID(string(r.ID)) {
			return fmt.Errorf("spec %s: retired reading %s is not one of its reading IDs", s.Name, r.ID)
		}
	}
	for _, m := range s.Mutants {
		if m.Spec != s.Name || !strings.HasPrefix(string(m.ID), "MUT-"+s.Prefix+"-") {
			return fmt.Errorf("spec %s: mutant %s of %q", s.Name, m.ID, m.Spec)
		}
	}
	seen := map[string]bool{}
	for _, op := range s.Ops {
		if !strings.HasPrefix(op.Name, string(s.Name)+".") || op.Handle == nil || seen[op.Name] {
			return fmt.Errorf("spec %s: operation %q is not %s.<op> with a handler, once", s.Name, op.Name, s.Name)
		}
		seen[op.Name] = true
	}
	return nil
}

// Rule returns the rule of s's catalog with the given ID.
func (s *Spec) Rule(id rules.ID) (rules.Rule, bool) {
	i := slices.IndexFunc(s.Rules, func(r rules.Rule) bool { return r.ID == id })
	if i < 0 {
		return rules.Rule{}, false
	}
	return s.Rules[i], true
}

// OpNames lists the names of s's operations, in its order.
func (s *Spec) OpNames() []string {
	names := make([]string, len(s.Ops))
	for i, op := range s.Ops {
		names[i] = op.Name
	}
	return names
}

// Set is the specs a command is handed, in report order, with their
// catalogs joined and indexed. Make one with NewSet.
type Set struct {
	specs    []*Spec
	rules    *rules.Catalog
	readings map[rules.ID]rules.Reading
	retired  map[rules.ID]rules.RetiredReading
	ruleID   *regexp.Regexp
	mutantID *regexp.Regexp
}

// NewSet checks every spec (Spec.Check) and returns them as a set; no two
// may share a name, a prefix or an operation.
func NewSet(specs ...*Spec) (*Set, error) {
	set := &Set{specs: specs, readings: map[rules.ID]rules.Reading{}}
	seen := map[string]bool{}
	var lists [][]rules.Rule
	for _, s := range specs {
		if err := s.Check(); err != nil {
			return nil, err
		}
		for _, k := range append([]string{"name " + string(s.Name), "prefix " + s.Prefix}, s.OpNames()...) {
			if seen[k] {
				return nil, fmt.Errorf("spec %s: %s is another spec's too", s.Name, k)
			}
			seen[k] = true
		}
		lists = append(lists, s.Rules)
		for _, r := range s.Readings {
			set.readings[r.ID] = r
		}
		for _, r := range s.Retired {
			if _, dup := set.readings[r.ID]; dup || r.Why == "" {
				return nil, fmt.Errorf("spec %s: retired reading %s is still in the catalog or says not why", s.Name, r.ID)
			}
			if set.retired == nil {
				set.retired = map[rules.ID]rules.RetiredReading{}
			}
			set.retired[r.ID] = r
		}
	}
	set.rules = rules.Join(lists...)
	prefixes := strings.Join(set.Prefixes(), "|")
	set.ruleID = regexp.MustCompile(`^(` + prefixes + `)-[A-Z0-9]+-[0-9]{2}$`)
	set.mutantID = regexp.MustCompile(`^MUT-(` + prefixes + `)-[A-Z0-9]+(-[A-Z0-9]+)*$`)
	return set, nil
}

// MustSet is NewSet for the commands' fixed lists: it panics on a spec
// declared wrong.
func MustSet(specs ...*Spec) *Set {
	set, err := NewSet(specs...)
	if err != nil {
		panic(err)
	}
	return set
}

// Specs returns the specs, in order.
func (set *Set) Specs() []*Spec { return slices.Clone(set.specs) }

// Names lists the specs' names, in order.
func (set *Set) Names() []string {
	names := make([]string, len(set.specs))
	for i, s := range set.specs {
		names[i] = string(s.Name)
	}
	return names
}

// Lookup returns the spec named name.
func (set *Set) Lookup(name string) (*Spec, bool) {
	i := slices.IndexFunc(set.specs, func(s *Spec) bool { return string(s.Name) == name })
	if i < 0 {
		return nil, false
	}
	return set.specs[i], true
}

// SuiteDefs are the specs' suite definitions, in order.
func (set *Set) SuiteDefs() []vectorset.SuiteDef {
	defs := make([]vectorset.SuiteDef, len(set.specs))
	for i, s := range set.specs {
		defs[i] = s.SuiteDef()
	}
	return defs
}

// Ops lists every operation of the protocol for the specs, hello first.
func (set *Set) Ops() []string {
	ops := []string{testee.OpHello}
	for _, s := range set.specs {
		ops = append(ops, s.OpNames()...)
	}
	return ops
}

// Profiles lists every profile of the specs.
func (set *Set) Profiles() []Profile {
	var ps []Profile
	for _, s := range set.specs {
		ps = append(ps, s.Profiles...)
	}
	return ps
}

// Prefixes lists the specs' ID prefixes, in order.
func (set *Set) Prefixes() []string {
	p := make([]string, len(set.specs))
	for i, s := range set.specs {
		p[i] = s.Prefix
	}
	return p
}

// RuleIDPattern matches the rule IDs of the specs: <Prefix>-<AREA>-<nn>
// for one of their prefixes.
func (set *Set) RuleIDPattern() *regexp.Regexp { return set.ruleID }

// MutantIDPattern matches the mutant IDs of the specs: MUT-<Prefix>-<WORDS>.
func (set *Set) MutantIDPattern() *regexp.Regexp { return set.mutantID }

// ByPrefix returns the spec whose prefix begins id (a rule or reading ID).
func (set *Set) ByPrefix(id string) (*Spec, bool) {
	for _, s := range set.specs {
		if strings.HasPrefix(id, s.Prefix+"-") {
			return s, true
		}
	}
	return nil, false
}

// Rules returns every rule of every spec, spec by spec in order.
func (set *Set) Rules() []rules.Rule { return set.rules.Rules() }

// Rule returns the rule with the given ID.
func (set *Set) Rule(id rules.ID) (rules.Rule, bool) { return set.rules.Lookup(id) }

// Mutants returns the mutants of every spec, spec by spec in order.
func (set *Set) Mutants() []rules.Mutant {
	var ms []rules.Mutant
	for _, s := range set.specs {
		ms = append(ms, s.Mutants...)
	}
	return ms
}

// Readings returns the readings of every spec, spec by spec in order.
func (set *Set) Readings() []rules.Reading {
	var rs []rules.Reading
	for _, s := range set.specs {
		rs = append(rs, s.Readings...)
	}
	return rs
}

// Reading returns the reading with the given ID.
func (set *Set) Reading(id string) (rules.Reading, bool) {
	r, ok := set.readings[rules.ID(id)]
	return r, ok
}

// RetiredReadings returns the retired readings of every spec, spec by
// spec in order.
func (set *Set) RetiredReadings() []rules.RetiredReading {
	var rs []rules.RetiredReading
	for _, s := range set.specs {
		rs = append(rs, s.Retired...)
	}
	return rs
}

// ReadingDefaults maps every reading ID to its default alternative.
func (set *Set) ReadingDefaults() map[string]string {
	m := make(map[string]string, len(set.readings))
	for id, r := range set.readings {
		m[string(id)] = r.Default
	}
	return m
}

// CheckTaken checks a set of declared alternatives (reading ID to
// alternative name) against the readings: every ID a reading, every name
// one of its alternatives.
func (set *Set) CheckTaken(taken map[string]string) error {
	for id, alt := range taken {
		r, ok := set.Reading(id)
		if !ok {
			return &UnknownReadingError{ID: id, Alternative: alt, Retired: set.retired[rules.ID(id)].Why}
		}
		if !r.Has(alt) {
			return &UnknownReadingError{ID: id, Alternative: alt, Known: r.Alternatives}
		}
	}
	return nil
}

// UnknownReadingError is a declared reading no spec has, or an alternative
// the reading does not have.
type UnknownReadingError struct {
	ID, Alternative string
	Known           []rules.Alternative // the reading's alternatives, when the ID is known
	Retired         string              // why the reading left the catalog, when it did
}

func (e *UnknownReadingError) Error() string {
	if e.Retired != "" {
		return "reading " + e.ID + " is retired (docs/READINGS.md, \"Retired\"): " + e.Retired
	}
	if e.Known == nil {
		return "reading " + e.ID + " is not in the readings catalog (docs/READINGS.md)"
	}
	s := "reading " + e.ID + " has no alternative " + e.Alternative + "; its alternatives are"
	for i, a := range e.Known {
		if i > 0 {
			s += ","
		}
		s += " " + a.Name
	}
	return s
}
