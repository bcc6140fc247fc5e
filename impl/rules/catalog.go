package rules

import "fmt"

// SpecName names a specification: the name the reports, the indexes, docs
// and manifests use ("lace"), so a SpecName is written and encoded exactly
// as that string. Each wing names its own (impl/spec.Spec.Name); this
// package knows none.
type SpecName string

func (s SpecName) String() string { return string(s) }

// Check says how a rule is shown by bytes, so that traceability can tell
// which rules a vector must exercise. The HiveRelay catalog classifies
// every rule; the Lace and libtracer catalogs leave it Unclassified.
type Check uint8

const (
	// Unclassified: the catalog does not say how the rule is checked.
	Unclassified Check = iota
	// Rejecting: a decoder or verifier rejects violating bytes with this
	// rule's ID; byte-testable, with a negative case.
	Rejecting
	// Constructing: a layout, formula or encoder obligation; byte-testable
	// through known answers, round trips and regeneration, not through a
	// rejection.
	Constructing
	// General: a statement that more specific rules carry; rejections cite
	// those (hiverelay.RealizedBy lists them).
	General
	// Outside: not byte-testable; it binds relays or composing profiles,
	// not the codecs. Its entry says why (Rule.Untestable).
	Outside
	// Permitting: a statement that the codec leaves something to others
	// and accepts what they check (HR-BLOB-08, HR-FRAME-12); byte-testable
	// by positive vectors that an overstepping codec rejects.
	Permitting
	// Nesting: a statement that a nested value is itself a canonical record
	// of another schema (HR-CKPT-12, HR-FRAME-13/14); its rejections cite
	// the nested schema's rules, so no vector names it first. Byte-testable
	// by negatives that break such a rule inside the nested value, which a
	// codec reading nested values by their layout alone accepts.
	Nesting
)

var checkNames = [...]string{
	Unclassified: "unclassified",
	Rejecting:    "rejecting",
	Constructing: "constructing",
	General:      "general",
	Outside:      "outside",
	Permitting:   "permitting",
	Nesting:      "nesting",
}

func (c Check) String() string {
	if int(c) < len(checkNames) {
		return checkNames[c]
	}
	return fmt.Sprintf("Check(%d)", uint8(c))
}

// Must returns a MUST-level catalog entry: rule id, the spec section it
// stands under and its statement in one sentence. NewCatalog gives it its
// spec.
func Must(id ID, section, text string) Rule {
	return Rule{ID: id, Section: section, Level: LevelMust, Text: text}
}

// Should returns a SHOULD-level catalog entry (see Must).
func Should(id ID, section, text string) Rule {
	return Rule{ID: id, Section: section, Level: LevelShould, Text: text}
}

// Convention returns a CONVENTION-level catalog entry (see Level): a
// statement the spec makes without a requirement word. It must be marked
// Untestable, with why no bytes show it.
func Convention(id ID, section, text string) Rule {
	return Rule{ID: id, Section: section, Level: LevelConvention, Text: text}
}

// Untestable returns r marked as a rule that no behaviour bytes can show
// violated, with the reason (see Rule.Untestable; the fault proof skips it).
func Untestable(r Rule, why string) Rule {
	r.Untestable = why
	return r
}

// Checked returns r with how it is checked (see Check).
func (r Rule) Checked(c Check) Rule {
	r.Check = c
	return r
}

// Catalog is a rule catalog: the rules of one specification in spec order
// (NewCatalog), or those of several, spec by spec (Join). It is built
// once, when its package is initialized, and indexed by rule ID; nothing
// is rebuilt to read it.
type Catalog struct {
	rules []Rule
	index map[ID]int
}

// NewCatalog returns the catalog of spec: rs in order, each given spec.
// It panics on an ID listed twice or a rule already given another spec,
// which are mistakes in the catalog's source.
func NewCatalog(spec SpecName, rs ...Rule) *Catalog {
	if spec == "" {
		panic("rules: catalog of no spec")
	}
	for i := range rs {
		if rs[i].Spec != "" && rs[i].Spec != spec {
			panic(fmt.Sprintf("rules: %s of %s listed in the catalog of %s", rs[i].ID, rs[i].Spec, spec))
		}
		rs[i].Spec = spec
	}
	return index(rs)
}

// Join returns one catalog of the rules of the given lists (each a
// specification's catalog), in order. It panics on an ID listed twice.
func Join(lists ...[]Rule) *Catalog {
	var all []Rule
	for _, l := range lists {
		all = append(all, l...)
	}
	return index(all)
}

func index(rs []Rule) *Catalog {
	c := &Catalog{rules: rs, index: make(map[ID]int, len(rs))}
	for i, r := range rs {
		if _, dup := c.index[r.ID]; dup {
			panic(fmt.Sprintf("rules: %s listed twice in a catalog", r.ID))
		}
		c.index[r.ID] = i
		if r.Level == LevelConvention && r.Untestable == "" {
			panic(fmt.Sprintf("rules: %s is a convention and must say why it is untestable", r.ID))
		}
		for _, n := range r.Notes {
			if (n.Kind != NoteClarified && n.Kind != NotePrecedence) || n.Text == "" {
				panic(fmt.Sprintf("rules: %s has a note of kind %q with text %q: a clarified or precedence note with text is needed", r.ID, n.Kind, n.Text))
			}
		}
	}
	return c
}

// Rules returns the catalog's rules in order; the slice is the caller's.
func (c *Catalog) Rules() []Rule { return append([]Rule(nil), c.rules...) }

// Len returns the number of rules in the catalog.
func (c *Catalog) Len() int { return len(c.rules) }

// Lookup returns the catalog entry of id.
func (c *Catalog) Lookup(id ID) (Rule, bool) {
	i, ok := c.index[id]
	if !ok {
		return Rule{}, false
	}
	return c.rules[i], true
}
