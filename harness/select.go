package harness

import (
	"fmt"
	"path"
	"slices"
	"strings"

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

// Mark policies: how far a run relies on the project's stand-in Mark
// scheme (docs/lace.md; docs/DECISIONS.md, "Marks").
const (
	// MarkStandin relies on it: vectors that need the profile
	// lace-mark-bip340-standin apply to a testee that claims it.
	MarkStandin = testee.MarkBIP340Standin
	// MarkNone does not: such vectors are not applicable. By and Mark text
	// is still checked by every other vector.
	MarkNone = testee.MarkNone
)

// Policy says which vectors apply to the testee beyond what it claims.
type Policy struct {
	// Profiles are added to those the testee claims in hello (for a testee
	// without hello, which claims none).
	Profiles []string `json:"profiles,omitempty"`
	// Mark is MarkStandin (or "") or MarkNone.
	Mark string `json:"mark"`
}

// Check reports an unknown mark policy or profile.
func (p Policy) Check() error {
	switch p.Mark {
	case "", MarkStandin, MarkNone:
	default:
		return setupErr("--mark %q: want %s or %s", p.Mark, MarkStandin, MarkNone)
	}
	for _, pr := range p.Profiles {
		if pr != testee.ProfileLace009 && pr != testee.ProfileLaceMarkBIP340Standin {
			return setupErr("--profile %q: the profiles are %s and %s", pr, testee.ProfileLace009, testee.ProfileLaceMarkBIP340Standin)
		}
	}
	return nil
}

// NotApplicable says why vector v does not apply to a testee that answered
// hello with h under policy p, or "" when it applies. A vector applies when
// the testee claims its operation and every profile it needs.
func (p Policy) NotApplicable(h *testee.Hello, v *vectorset.Vector) string {
	if !h.Claims(v.Op) {
		return fmt.Sprintf("the testee does not claim operation %s", v.Op)
	}
	var missing []string
	for _, pr := range v.Profiles {
		if pr == testee.ProfileLaceMarkBIP340Standin && p.Mark == MarkNone {
			return fmt.Sprintf("needs profile %s (the stand-in Mark scheme), and the run has --mark none", pr)
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
