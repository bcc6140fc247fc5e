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
	IDs    []string `json:"ids,omitempty"`    // vector-ID globs (IDGlob); a vector matches when it matches any
	Skip   []string `json:"skip,omitempty"`   // vector-ID globs (IDGlob) of vectors left out
}

// IDGlob reports whether the glob g selects the vector ID id: a glob with
// a '/' matches the whole ID (<suite>/<positive|negative>/<name>, path.Match:
// '*' does not cross '/'); a glob without one matches the vector's name, so
// that `*crlf*` selects every vector whose name holds crlf.
func IDGlob(g, id string) bool {
	target := id
	if !strings.Contains(g, "/") {
		target = path.Base(id)
	}
	ok, _ := path.Match(g, target)
	return ok
}

// Check reports a malformed glob.
func (s Selection) Check() error {
	for _, l := range []struct {
		flag  string
		globs []string
	}{{"--id", s.IDs}, {"--skip", s.Skip}} {
		for _, g := range l.globs {
			if _, err := path.Match(g, ""); err != nil {
				return setupErr("%s %q: %v", l.flag, g, err)
			}
		}
	}
	return nil
}

// NoMatch explains a selection that selects no vector of suites: the shape
// of a vector ID and, when --id was given, the IDs closest to its globs.
func (s Selection) NoMatch(suites []*Suite, vectorsDir string) error {
	msg := fmt.Sprintf("the selection matches no vector of %s", vectorsDir)
	if len(s.IDs) == 0 && len(s.Skip) == 0 {
		return setupErr("%s", msg)
	}
	msg += "; a vector ID is <suite>/<positive|negative>/<name>, and a glob without '/' matches the name ('*' does not cross '/')"
	var ids []string
	for _, st := range suites {
		for i := range st.Index.Vectors {
			ids = append(ids, st.Index.Vectors[i].ID)
		}
	}
	if near := closestIDs(s.IDs, ids, 3); len(near) > 0 {
		msg += "; closest: " + strings.Join(near, ", ")
	}
	return setupErr("%s", msg)
}

// closestIDs returns up to n of ids nearest to any of the globs, by the
// edit distance from the glob's literal text (its wildcards removed) to
// the ID's name, or to the whole ID for a glob with '/'.
func closestIDs(globs, ids []string, n int) []string {
	type scored struct {
		id string
		d  int
	}
	var best []scored
	for _, id := range ids {
		d := -1
		for _, g := range globs {
			lit := strings.Map(func(r rune) rune {
				if strings.ContainsRune("*?[]\\", r) {
					return -1
				}
				return r
			}, g)
			target := id
			if !strings.Contains(g, "/") {
				target = path.Base(id)
			}
			if e := editDistance(lit, target); d < 0 || e < d {
				d = e
			}
		}
		if d >= 0 {
			best = append(best, scored{id, d})
		}
	}
	slices.SortStableFunc(best, func(a, b scored) int { return a.d - b.d })
	var out []string
	for i := 0; i < len(best) && i < n; i++ {
		out = append(out, best[i].id)
	}
	return out
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
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
	// An ID glob matches the vector's ID or one of its aliases (the IDs
	// it had before a rename, kept for one release).
	named := func(g string) bool {
		if IDGlob(g, v.ID) {
			return true
		}
		for _, a := range v.Aliases {
			if IDGlob(g, a) {
				return true
			}
		}
		return false
	}
	for _, g := range s.Skip {
		if named(g) {
			return false
		}
	}
	if len(s.IDs) == 0 {
		return true
	}
	for _, g := range s.IDs {
		if named(g) {
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
func RelyOn(specs *spec.Set) string {
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
