package harness

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/threespec/conformance/impl/spec"
	"github.com/threespec/conformance/testee"
	"github.com/threespec/conformance/vectorset"
)

// Selection chooses vectors. Within one field the values are alternatives;
// a vector is selected when it matches every non-empty field. The zero
// value selects every vector.
type Selection struct {
	Suites []string `json:"suites,omitempty"` // suite names
	Ops    []string `json:"ops,omitempty"`    // operations (hiverelay.decode, ...)
	Rules  []string `json:"rules,omitempty"`  // rule IDs; a vector matches when it tests any of them
	Tags   []string `json:"tags,omitempty"`   // tags; a vector matches when it carries any of them
	IDs    []string `json:"ids,omitempty"`    // vector-ID globs (path.Match: * does not cross /)
}

// Check reports a malformed glob.
func (s Selection) Check() error {
	for _, g := range s.IDs {
		if _, err := path.Match(g, ""); err != nil {
			return setupErr("--id %q: %v", g, err)
		}
	}
	return nil
}

// Count returns how many vectors of suites the selection selects.
func (s Selection) Count(suites []*Suite) int {
	n := 0
	for _, st := range suites {
		for i := range st.Index.Vectors {
			if s.Match(st.Name, &st.Index.Vectors[i]) {
				n++
			}
		}
	}
	return n
}

// Match reports whether the selection selects v of suite.
func (s Selection) Match(suite string, v *vectorset.Vector) bool {
	any := func(want []string, have ...string) bool {
		if len(want) == 0 {
			return true
		}
		for _, h := range have {
			if slices.Contains(want, h) {
				return true
			}
		}
		return false
	}
	if !any(s.Suites, suite) || !any(s.Ops, v.Op) || !any(s.Rules, v.Rules...) || !any(s.Tags, v.Tags...) {
		return false
	}
	if len(s.IDs) == 0 {
		return true
	}
	for _, g := range s.IDs {
		if ok, _ := path.Match(g, v.ID); ok {
			return true
		}
	}
	return false
}

// MarkNone is the mark policy of a run that does not rely on the
// project's stand-ins (spec.Profile.StandIn: the Lace Mark scheme,
// docs/lace.md; docs/DECISIONS.md, "Marks"): vectors that need a stand-in
// profile are not applicable. By and Mark text is still checked by every
// other vector. A run that relies on a stand-in names it (its
// StandIn.Policy); that is the default.
const MarkNone = "none"

// RelyOn is the policy of a run that relies on the specs' stand-ins: the
// Policy of the first stand-in profile, MarkNone when there is none.
func (p Policy) RelyOn(specs *spec.Set) string {
	for _, pr := range specs.Profiles() {
		if pr.StandIn != nil {
			return pr.StandIn.Policy
		}
	}
	return MarkNone
}

// Policy says which vectors apply to the testee beyond what it claims.
type Policy struct {
	// Profiles are added to those the testee claims in hello (for a testee
	// without hello, which claims none).
	Profiles []string `json:"profiles,omitempty"`
	// Mark is the policy word of a stand-in the run relies on (or "", the
	// default), or MarkNone.
	Mark string `json:"mark"`
}

// Check reports a mark policy or profile that none of specs has.
func (p Policy) Check(specs *spec.Set) error {
	var words, names []string
	for _, pr := range specs.Profiles() {
		names = append(names, pr.Name)
		if pr.StandIn != nil && !slices.Contains(words, pr.StandIn.Policy) {
			words = append(words, pr.StandIn.Policy)
		}
	}
	if p.Mark != "" && p.Mark != MarkNone && !slices.Contains(words, p.Mark) {
		return setupErr("--mark %q: want %s", p.Mark, strings.Join(append(words, MarkNone), " or "))
	}
	for _, pr := range p.Profiles {
		if !slices.Contains(names, pr) {
			return setupErr("--profile %q: the profiles are %s", pr, strings.Join(names, " and "))
		}
	}
	return nil
}

// NotApplicable says why vector v does not apply to a testee that answered
// hello with h under policy p, or "" when it applies. A vector applies when
// the testee claims its operation and every profile it needs.
func (p Policy) NotApplicable(specs *spec.Set, h *testee.Hello, v *vectorset.Vector) string {
	if !h.Claims(v.Op) {
		return fmt.Sprintf("the testee does not claim operation %s", v.Op)
	}
	var missing []string
	for _, pr := range v.Profiles {
		if si := standIn(specs, pr); si != nil && p.Mark == MarkNone {
			return fmt.Sprintf("needs profile %s (%s), and the run has --mark none", pr, si.What)
		}
		if !h.ClaimsProfile(pr) && !slices.Contains(p.Profiles, pr) {
			missing = append(missing, pr)
		}
	}
	if len(missing) > 0 {
		return fmt.Sprintf("needs profile %s, which the testee does not claim", strings.Join(missing, ", "))
	}
	return ""
}

// standIn returns the stand-in of the profile named name, nil when it is
// not one.
func standIn(specs *spec.Set, name string) *spec.StandIn {
	for _, pr := range specs.Profiles() {
		if pr.Name == name {
			return pr.StandIn
		}
	}
	return nil
}
