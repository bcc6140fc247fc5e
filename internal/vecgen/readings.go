package vecgen

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/impl/spec"
	"github.com/threespec/conformance/internal/reading"
	"github.com/threespec/conformance/reference"
	"github.com/threespec/conformance/testee"
	"github.com/threespec/conformance/vectorset"
)

// ReadingUse ties a suite's vectors to one reading of the readings catalog
// (impl/rules.Reading, docs/READINGS.md): the vectors whose expectation is
// the reading's default, and the vectors of its other branches.
type ReadingUse struct {
	Reading string // the reading's ID: "HR-READ-03"
	// Vectors are the IDs of the vectors whose expected outcome, code or
	// result is the reading's default; each gets "readings": {ID: default}.
	Vectors []string
	// Select, when set, names the reading in every generated vector it
	// returns true for as well (a default that a whole family of vectors
	// depends on, found by rule or by content rather than listed).
	Select func(v *Vector) bool
	// Acceptable gives, by vector ID (one of Vectors, a rejection), the
	// codes other than its preferred code that each report its input
	// correctly: the alternatives of an error-precedence reading.
	Acceptable map[string][]string
	// Branches are vectors of the reading's other alternatives, byte-testable
	// ones, each checked against the reference run in that branch.
	Branches []Branch
}

// Branch is a vector of a non-default alternative: the input, op and args
// of the default vector Of, with the expectation an implementation taking
// Alternative must meet. The engine names it <Of>--<Alternative> (filed by
// its own outcome), builds its input as a recipe of Of's bytes, and checks
// it against the reference switched into that branch (internal/reading);
// it also checks that Of fails there, so that the branch is a real one.
type Branch struct {
	Of          string
	Alternative string
	Expect      string          // vectorset.Accept or vectorset.Reject
	Code        string          // for a rejection
	Rules       []string        // nil: Of's rules
	Result      json.RawMessage // for an acceptance; nil with Want to take the reference's
	Want        []string
	Comment     string
}

// TagReadingBranch marks the vectors of a non-default alternative.
const TagReadingBranch = "reading-branch"

// TagDecision marks a vector that pins the project's reading of an open
// question; every such vector names its reading.
const TagDecision = "decision"

// applyReadings gives every vector its readings and appends the branch
// vectors. It fails when a use names an unknown reading or vector, when a
// decision or code-decision vector names no reading, or when a reading of
// the suite's spec has no vector.
//
// With large set (Options.Large, the by-hand families), a use may name a
// mutation the large families name otherwise: it is skipped, and the
// branches' checks over the other vectors are not made (they are made on
// the committed set).
func applyReadings(specs *spec.Set, suite string, vecs []Vector, uses []ReadingUse, large bool) ([]Vector, error) {
	byID := map[string]int{}
	for i := range vecs {
		byID[vecs[i].ID] = i
	}
	spec := suite
	used := map[string]bool{}
	for _, u := range uses {
		r, ok := specs.Reading(u.Reading)
		if !ok || r.Spec.String() != spec {
			return nil, fmt.Errorf("reading %s is not a reading of the %s catalog", u.Reading, spec)
		}
		used[u.Reading] = true
		ids := u.Vectors
		if u.Select != nil {
			for i := range vecs {
				if u.Select(&vecs[i]) && !slices.Contains(ids, vecs[i].ID) {
					ids = append(slices.Clip(ids), vecs[i].ID)
				}
			}
		}
		for _, id := range ids {
			i, ok := byID[id]
			if !ok && large {
				continue
			}
			if !ok {
				return nil, fmt.Errorf("reading %s names vector %s, which the suite does not generate", u.Reading, id)
			}
			v := &vecs[i]
			if v.Readings == nil {
				v.Readings = map[string]string{}
			}
			v.Readings[u.Reading] = r.Default
		}
		for id, codes := range u.Acceptable {
			i, ok := byID[id]
			if !ok || vecs[i].Readings[u.Reading] == "" {
				return nil, fmt.Errorf("reading %s: acceptable codes for %s, which is not one of its vectors", u.Reading, id)
			}
			vecs[i].AcceptableCodes = append(vecs[i].AcceptableCodes, codes...)
		}
	}
	for _, u := range uses {
		r, _ := specs.Reading(u.Reading)
		for _, b := range u.Branches {
			i, ok := byID[b.Of]
			if !ok {
				return nil, fmt.Errorf("reading %s: branch of vector %s, which the suite does not generate", u.Reading, b.Of)
			}
			if !r.Has(b.Alternative) || b.Alternative == r.Default {
				return nil, fmt.Errorf("reading %s: branch %q of %s is not a non-default alternative", u.Reading, b.Alternative, b.Of)
			}
			of := vecs[i]
			if of.Readings[u.Reading] != r.Default {
				return nil, fmt.Errorf("reading %s: branch of %s, which does not name the reading", u.Reading, b.Of)
			}
			bv, err := branchVector(specs, suite, of, u.Reading, b)
			if err != nil {
				return nil, err
			}
			vecs = append(vecs, bv)
		}
	}
	var missing []string
	for _, r := range specs.Readings() {
		if r.Spec.String() == spec && !used[string(r.ID)] {
			missing = append(missing, string(r.ID))
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("readings with no vector: %s", strings.Join(missing, ", "))
	}
	for i := range vecs {
		v := &vecs[i]
		for _, t := range v.Tags {
			if (t == TagDecision || t == TagCodeDecision) && len(v.Readings) == 0 {
				return nil, fmt.Errorf("%s is tagged %s but names no reading (docs/READINGS.md)", v.ID, t)
			}
		}
	}
	return vecs, nil
}

func branchVector(specs *spec.Set, suite string, of Vector, id string, b Branch) (Vector, error) {
	pol := map[string]string{vectorset.Accept: "positive", vectorset.Reject: "negative"}[b.Expect]
	if pol == "" {
		return Vector{}, fmt.Errorf("reading %s: branch of %s expects %q", id, of.ID, b.Expect)
	}
	v := Vector{Vector: of.Vector, Want: b.Want}
	v.ID = path.Join(suite, pol, of.Name()+"--"+b.Alternative)
	v.File, v.Recipe = "", of.Recipe
	if of.Recipe == nil {
		v.Recipe = &vectorset.Recipe{Parts: []vectorset.Part{{File: of.File}}}
	}
	v.Expect, v.Code, v.Result, v.AcceptableCodes = b.Expect, b.Code, b.Result, nil
	if b.Rules != nil {
		v.Rules = b.Rules
	}
	v.Tags = append(append([]string{}, of.Tags...), TagReadingBranch)
	v.Readings = map[string]string{}
	for k, alt := range of.Readings {
		v.Readings[k] = alt
	}
	v.Readings[id] = b.Alternative
	v.Comment = fmt.Sprintf("under %s %s: %s", id, b.Alternative, b.Comment)
	if v.Expect == vectorset.Reject && len(v.Rules) > 0 {
		v.Comment = ReportedUnder(specs.Rule, v.Comment, string(v.Rules[0]))
	}
	v.DerivedFrom = of.ID
	return v, nil
}

// branchKey names the alternatives a vector takes other than the defaults,
// "" for a vector of the default branch.
func branchKey(v *Vector, defaults map[string]string) (string, map[string]string) {
	taken := map[string]string{}
	var parts []string
	for id, alt := range v.Readings {
		if defaults[id] != alt {
			taken[id] = alt
			parts = append(parts, id+"="+alt)
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, ","), taken
}

// Prefixed returns each name with prefix in front: vector IDs from names
// ("lace/positive/" + "blob-empty").
func Prefixed(prefix string, names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = prefix + n
	}
	return out
}

// deriveBranches gives every vector that names a reading at its default,
// and whose answer one of the reading's byte-testable alternatives (those
// with an explicit Branch) changes, a branch vector of its own: the
// reference's outcome and code under that branch, its result fields where
// the default vector lists some. So that a testee taking the alternative
// without declaring it is reported as taking it on every such vector,
// never as failing one, and one declaring it is judged by every one.
func deriveBranches(specs *spec.Set, suite string, vecs []Vector, inputs [][]byte, uses []ReadingUse) ([]Vector, [][]byte, error) {
	have := map[string]bool{}
	for i := range vecs {
		have[vecs[i].ID] = true
	}
	var out []Vector
	var in [][]byte
	defaults := map[string]string{}
	for _, r := range specs.Readings() {
		defaults[string(r.ID)] = r.Default
	}
	for _, u := range uses {
		r, _ := specs.Reading(u.Reading)
		alts := map[string]bool{}
		for _, b := range u.Branches {
			alts[b.Alternative] = true
		}
		for _, alt := range reading.IDs(alts2map(alts)) {
			ref := reference.New(specs).WithChecks(rules.Checks{Readings: reading.Of(map[string]string{u.Reading: alt})})
			for i := range vecs {
				v := &vecs[i]
				if v.Readings[u.Reading] != r.Default {
					continue
				}
				id := path.Join(suite, "positive", v.Name()+"--"+alt)
				if have[id] || have[path.Join(suite, "negative", v.Name()+"--"+alt)] {
					continue
				}
				// A vector that takes another reading's branch already (an
				// explicit branch vector) is asked under both branches.
				at := ref
				if key, taken := branchKey(v, defaults); key != "" {
					taken[u.Reading] = alt
					at = reference.New(specs).WithChecks(rules.Checks{Readings: reading.Of(taken)})
				}
				resp, err := at.Do(context.Background(), testee.Request{Op: v.Op, Args: v.Args, Input: inputs[i]})
				if err != nil {
					return nil, nil, fmt.Errorf("%s under %s %s: %w", v.ID, u.Reading, alt, err)
				}
				if vectorset.Judge(&v.Vector, resp, false).Pass {
					continue
				}
				b := Branch{Of: v.ID, Alternative: alt, Comment: "the answer of the reference taking this branch"}
				switch resp.Outcome {
				case testee.Accepted:
					b.Expect = vectorset.Accept
					var fields map[string]json.RawMessage
					if len(v.Result) > 0 && json.Unmarshal(v.Result, &fields) == nil {
						for f := range fields {
							b.Want = append(b.Want, f)
						}
						sort.Strings(b.Want)
					}
				case testee.Rejected:
					b.Expect, b.Code = vectorset.Reject, resp.Code
					if resp.Code == resp.Rule {
						b.Code = "" // the spec names no code (Lace): the reference gives its rule ID
					}
					b.Rules = append([]string{resp.Rule}, v.Rules...)
					b.Rules = slices.Compact(b.Rules)
				default:
					continue
				}
				bv, err := branchVector(specs, suite, *v, u.Reading, b)
				if err != nil {
					return nil, nil, err
				}
				if bv.Expect == vectorset.Reject {
					bv.Result = nil
				}
				have[bv.ID] = true
				out, in = append(out, bv), append(in, inputs[i])
			}
		}
	}
	return out, in, nil
}

func alts2map(m map[string]bool) map[string]string {
	out := make(map[string]string, len(m))
	for k := range m {
		out[k] = k
	}
	return out
}

// WithAffected adds to each use the vectors the affected pairs (reading ID,
// vector ID) give it: mutations whose expectation a branch the reference
// can take changes as well, found by vecgen's check that every vector
// naming none of a branch's readings passes under it.
func WithAffected(uses []ReadingUse, affected [][2]string) []ReadingUse {
	for k := range uses {
		for _, a := range affected {
			if a[0] == uses[k].Reading {
				uses[k].Vectors = append(uses[k].Vectors, a[1])
			}
		}
	}
	return uses
}
