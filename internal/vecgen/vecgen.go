// Package vecgen is the engine behind cmd/vecgen. It runs the suite
// generators, checks every vector against the reference implementation
// (accepted vectors accepted with the expected result, rejected ones rejected
// by the rule they name), and lays out vectors/, the suite indexes and
// manifest/ deterministically (docs/VECTORS.md): the same inputs give the
// same bytes on every run and machine.
package vecgen

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/threespec/conformance/impl/manifest"
	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/impl/spec"
	"github.com/threespec/conformance/internal/parallel"
	"github.com/threespec/conformance/internal/reading"
	"github.com/threespec/conformance/reference"
	"github.com/threespec/conformance/testee"
	"github.com/threespec/conformance/vectorset"
)

// Vector is one generated vector: its index entry and, for a file vector,
// its bytes. The engine fills in Size and BLAKE2b.
type Vector struct {
	vectorset.Vector
	// Data is the file's bytes; nil for a recipe vector.
	Data []byte
	// Want lists result fields the engine copies from the reference's answer
	// into Result (for fields a generator does not compute itself). Fields
	// already in Result are checked against the reference instead.
	Want []string
}

// Generator is one wing's generator of its suite.
type Generator struct {
	// Spec is the spec the suite is of: its name names the suite, its
	// catalog and readings are those the vectors name, and the reference
	// its vectors are checked against answers its operations.
	Spec *spec.Spec
	// Generate returns the suite's vectors, in any order.
	Generate func(opt Options) ([]Vector, error)
	// Extra returns files that are not vectors: tree files (HiveRelay's
	// registry/...) by suite-tree path, and files for manifest/<suite>/ by
	// name. Nil when the suite has none.
	Extra func() (tree, manifestFiles map[string][]byte, err error)
	// Readings ties vectors to the readings of the suite's spec and gives
	// the branch vectors of their alternatives (readings.go). Nil for a
	// suite that has no readings checked (tests of the engine).
	Readings func() []ReadingUse
}

// Name is the suite's name: its spec's.
func (s Generator) Name() string { return string(s.Spec.Name) }

// Options tune a generation.
type Options struct {
	// Large also emits the larger, optional mutation families.
	Large bool
	// Progress, when set, receives a progress line per checked batch.
	Progress io.Writer
	// specs are the suites' specs, joined by Generate.
	specs *spec.Set
}

// SuiteSummary describes one generated suite.
type SuiteSummary struct {
	Name               string
	Positive, Negative int
	Recipes            int
	Rules              []string // the rule IDs its vectors cover, sorted
	SetHash            string   // hex suite set hash
	ManifestLen        int
}

// Output is a complete generation: every file by repository-relative path,
// and a summary.
type Output struct {
	Files   map[string][]byte
	Summary []SuiteSummary
}

// Generate runs every suite and returns all files.
func Generate(suites []Generator, opt Options) (*Output, error) {
	var ss []*spec.Spec
	for _, s := range suites {
		ss = append(ss, s.Spec)
	}
	specs, err := spec.NewSet(ss...)
	if err != nil {
		return nil, fmt.Errorf("vecgen: %w", err)
	}
	opt.specs = specs
	out := &Output{Files: map[string][]byte{}}
	for _, s := range suites {
		sum, err := generateSuite(s, opt, out.Files)
		if err != nil {
			return nil, fmt.Errorf("vecgen: %s: %w", s.Name(), err)
		}
		out.Summary = append(out.Summary, *sum)
	}
	return out, nil
}

func generateSuite(s Generator, opt Options, files map[string][]byte) (*SuiteSummary, error) {
	vecs, err := s.Generate(opt)
	if err != nil {
		return nil, err
	}
	fv, err := foundVectors(opt.specs, s.Name())
	if err != nil {
		return nil, err
	}
	vecs = append(vecs, fv...)
	if s.Readings != nil {
		if vecs, err = applyReadings(opt.specs, s.Name(), vecs, s.Readings(), opt.Large); err != nil {
			return nil, err
		}
	}
	sort.Slice(vecs, func(i, j int) bool { return vecs[i].ID < vecs[j].ID })
	tree := map[string][]byte{} // suite-tree path -> bytes
	inputs := make([][]byte, len(vecs))
	for i := range vecs {
		v := &vecs[i]
		if i > 0 && vecs[i-1].ID == v.ID {
			return nil, fmt.Errorf("two vectors named %s", v.ID)
		}
		if err := checkNaming(s.Name(), v); err != nil {
			return nil, err
		}
		if err := checkRules(opt.specs, v); err != nil {
			return nil, err
		}
		if v.Recipe == nil {
			if _, dup := tree[v.File]; dup {
				return nil, fmt.Errorf("%s: file %s written twice", v.ID, v.File)
			}
			tree[v.File] = v.Data
			inputs[i] = v.Data
		}
	}
	var manifestFiles map[string][]byte
	if s.Extra != nil {
		extraTree, mf, err := s.Extra()
		if err != nil {
			return nil, err
		}
		for p, b := range extraTree {
			if _, dup := tree[p]; dup {
				return nil, fmt.Errorf("extra file %s is also a vector file", p)
			}
			tree[p] = b
		}
		manifestFiles = mf
	}
	// Recipes are expanded once every file of the suite tree is known, so
	// that a part may name any vector or registry file.
	for i := range vecs {
		v := &vecs[i]
		if v.Recipe != nil {
			in, err := v.Recipe.Expand(func(p string) ([]byte, error) {
				if b, ok := tree[p]; ok {
					return b, nil
				}
				return nil, fmt.Errorf("recipe file %s is not a file of the suite tree", p)
			})
			if err != nil {
				return nil, fmt.Errorf("%s: %w", v.ID, err)
			}
			inputs[i] = in
		}
		v.Size = int64(len(inputs[i]))
		v.BLAKE2b = vectorset.Hash(inputs[i])
	}
	if err := verify(opt.specs, s.Name(), vecs, inputs, opt.Progress, !opt.Large); err != nil {
		return nil, err
	}
	if s.Spec.CheckOrder != nil {
		for i := range vecs {
			if err := checkFiring(s.Spec.CheckOrder, &vecs[i], inputs[i]); err != nil {
				return nil, err
			}
		}
	}
	if s.Readings != nil && !opt.Large {
		derived, in, err := deriveBranches(opt.specs, s.Name(), vecs, inputs, s.Readings())
		if err != nil {
			return nil, err
		}
		if len(derived) > 0 {
			if err := verify(opt.specs, s.Name(), derived, in, opt.Progress, true); err != nil {
				return nil, err
			}
			vecs = append(vecs, derived...)
		}
	}

	ix := &vectorset.Index{Format: vectorset.Format, Suite: s.Name(), GeneratedBy: "go run ./cmd/vecgen", Vectors: make([]vectorset.Vector, len(vecs))}
	sum := &SuiteSummary{Name: s.Name()}
	covered := map[string]bool{}
	for i := range vecs {
		ix.Vectors[i] = vecs[i].Vector
		if vecs[i].Expect == vectorset.Accept {
			sum.Positive++
		} else {
			sum.Negative++
		}
		if vecs[i].Recipe != nil {
			sum.Recipes++
		}
		for _, r := range vecs[i].Rules {
			covered[r] = true
		}
	}
	for r := range covered {
		sum.Rules = append(sum.Rules, r)
	}
	sort.Strings(sum.Rules)
	index, err := ix.Write()
	if err != nil {
		return nil, err
	}
	tree["index.json"] = index

	m, err := manifest.Build(tree)
	if err != nil {
		return nil, fmt.Errorf("suite manifest: %w", err)
	}
	stated := vectorset.NewSetHashFile(s.Name(), m, len(tree))
	sum.SetHash, sum.ManifestLen = hex.EncodeToString(stated.SetHash[:]), len(m)

	for p, b := range tree {
		if p == "index.json" {
			files[path.Join("vectors", s.Name()+".index.json")] = b
			continue
		}
		dir, name, _ := strings.Cut(p, "/")
		files[path.Join("vectors", dir, s.Name(), name)] = b
	}
	files[path.Join("manifest", s.Name(), "suite-manifest.bin")] = m
	files[path.Join("manifest", s.Name(), "suite-set-hash.txt")] = stated.Text("Code generated by go run ./cmd/vecgen. DO NOT EDIT.")
	for name, b := range manifestFiles {
		files[path.Join("manifest", s.Name(), name)] = b
	}
	return sum, nil
}

// checkFiring holds negative v to the codes its input can be reported
// under (spec.Spec.CheckOrder): the vector's code and each of its acceptable
// codes must be one of them, and a MUST vector whose expectation rests on
// no reading must accept every one of them, since a testee that checks in
// another order the spec allows would give another and be failed for a
// choice the spec does not make. A reading that orders the checks
// (v.Readings) or a SHOULD level (docs/libtracer.md, code-decision) is
// what such a vector states instead.
func checkFiring(order func(op string, args json.RawMessage, input []byte, readings map[string]string) ([]string, error), v *Vector, input []byte) error {
	if v.Expect != vectorset.Reject || v.Code == "" {
		return nil
	}
	codes, err := order(v.Op, v.Args, input, v.Readings)
	if err != nil {
		return fmt.Errorf("%s: the codes its input fails with: %w", v.ID, err)
	}
	for _, c := range append([]string{v.Code}, v.AcceptableCodes...) {
		if !slices.Contains(codes, c) {
			return fmt.Errorf("%s expects code %s, but no check that fails on its input gives it (they give %s)", v.ID, c, strings.Join(codes, ", "))
		}
	}
	if v.Level != rules.LevelMust.String() || len(v.Readings) > 0 {
		return nil
	}
	var missing []string
	for _, c := range codes {
		if c != v.Code && !slices.Contains(v.AcceptableCodes, c) {
			missing = append(missing, c)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("%s is a MUST vector expecting code %s, but a decoder following the spec in another check order gives %s first: list them in acceptable_codes, name the reading that orders the checks, or make the vector SHOULD", v.ID, v.Code, strings.Join(missing, ", "))
	}
	return nil
}

// checkNaming enforces docs/VECTORS.md: IDs <suite>/<polarity>/<name>, files
// <polarity>/<name><ext> with the polarity of the expectation.
func checkNaming(suite string, v *Vector) error {
	parts := strings.Split(v.ID, "/")
	if len(parts) != 3 || parts[0] != suite {
		return fmt.Errorf("vector ID %q is not %s/<positive|negative>/<name>", v.ID, suite)
	}
	want := map[string]string{vectorset.Accept: "positive", vectorset.Reject: "negative"}[v.Expect]
	if parts[1] != want {
		return fmt.Errorf("%s expects %q but is filed under %s", v.ID, v.Expect, parts[1])
	}
	if v.Recipe == nil {
		if v.Data == nil {
			return fmt.Errorf("%s has neither data nor a recipe", v.ID)
		}
		dir, name, _ := strings.Cut(v.File, "/")
		if dir != parts[1] || !strings.HasPrefix(name, parts[2]+".") {
			return fmt.Errorf("%s: file %q is not %s/%s.<ext>", v.ID, v.File, parts[1], parts[2])
		}
	} else if v.File != "" || v.Data != nil {
		return fmt.Errorf("%s: a recipe vector has no file", v.ID)
	}
	if strings.TrimSpace(v.Comment) == "" || strings.Contains(v.Comment, "\n") {
		return fmt.Errorf("%s: needs a one-line comment", v.ID)
	}
	if v.Expect == vectorset.Reject && len(v.Rules) > 0 && !CommentNamesRule(v.Comment, v.Rules[0]) {
		return fmt.Errorf("%s: the comment %q does not name %s, the rule the vector is reported under (say why the verdict follows, knock-on effects included)", v.ID, v.Comment, v.Rules[0])
	}
	return nil
}

// CommentNamesRule reports whether a vector comment names rule as a whole
// rule ID (LT-OPT-02, not LT-OPT-0 or LT-OPT-021). Every rejected vector's
// comment says why its verdict follows and names the rule it is reported
// under, its first rule (docs/VECTORS.md).
func CommentNamesRule(comment, rule string) bool {
	for i := 0; ; {
		j := strings.Index(comment[i:], rule)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(rule)
		before := j == 0 || !isIDByte(comment[j-1])
		after := end == len(comment) || !isIDByte(comment[end])
		if before && after {
			return true
		}
		i = end
	}
}

func isIDByte(c byte) bool {
	return c == '-' || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z'
}

// ReportedUnder returns comment naming rule, the rule a rejected vector is
// reported under: unchanged when it names it already, else with the rule
// and its statement from the catalog appended (": reported under
// LACE-BLOB-03: <statement>"), which says why the verdict follows from what
// the comment describes.
// The rule's statement is looked up with lookup (spec.Spec.Rule or
// spec.Set.Rule).
func ReportedUnder(lookup func(rules.ID) (rules.Rule, bool), comment, rule string) string {
	if CommentNamesRule(comment, rule) {
		return comment
	}
	out := comment + ": reported under " + rule
	if r, ok := lookup(rules.ID(rule)); ok && r.Text != "" {
		out += ": " + strings.TrimSuffix(r.Text, ".")
	}
	return out
}

// TagCodeDecision marks a rejected vector whose expected code is the
// project's reading where the specification names none or several: which of
// two violated rules is reported first, or which code a condition the spec
// does not name gets. A conforming implementation may read it otherwise, so
// such a vector is SHOULD-level: conform warns, never fails, on it
// (docs/VECTORS.md).
const TagCodeDecision = "code-decision"

// checkRules requires every rule a vector names to be in the catalog and
// one of them to be MUST or SHOULD (a convention may stand beside them),
// and sets its level: SHOULD when every MUST or SHOULD rule it names is a
// SHOULD, or when it is tagged TagCodeDecision.
func checkRules(specs *spec.Set, v *Vector) error {
	if len(v.Rules) == 0 {
		return fmt.Errorf("%s names no rule", v.ID)
	}
	level, conventions := "SHOULD", 0
	for _, id := range v.Rules {
		r, ok := specs.Rule(rules.ID(id))
		if !ok {
			return fmt.Errorf("%s names rule %s, which no catalog defines", v.ID, id)
		}
		if r.Level == rules.LevelConvention {
			conventions++
			continue // it sets no level: no vector is judged by one alone
		}
		if r.Level == rules.LevelMust {
			level = "MUST"
		}
	}
	if conventions == len(v.Rules) {
		return fmt.Errorf("%s names only conventions the spec states without a requirement word (%s): a vector needs a MUST or SHOULD rule to judge it", v.ID, strings.Join(v.Rules, ", "))
	}
	for _, t := range v.Tags {
		if t == TagCodeDecision {
			if v.Expect != vectorset.Reject {
				return fmt.Errorf("%s: only a rejected vector can be tagged %s", v.ID, TagCodeDecision)
			}
			level = "SHOULD"
		}
	}
	v.Level = level
	return nil
}

// verify asks the reference about every vector, on every core, and fails on
// the first disagreement. It fills the Want fields of accepted vectors. A
// vector that needs a profile the reference does not claim (lace-009) cannot
// be checked: it is skipped, with a line on progress naming it.
//
// With untouched set, every branch is also run over the default vectors
// that name none of its readings, which must still pass (verifyUntouched).
func verify(specs *spec.Set, suite string, vecs []Vector, inputs [][]byte, progress io.Writer, untouched bool) error {
	defaults := specs.ReadingDefaults()
	groups := map[string][]int{}
	var keys []string
	for i := range vecs {
		k, _ := branchKey(&vecs[i], defaults)
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], i)
	}
	sort.Strings(keys)
	byID := map[string]int{}
	for i := range vecs {
		byID[vecs[i].ID] = i
	}
	for _, k := range keys {
		idx := groups[k]
		_, taken := branchKey(&vecs[idx[0]], defaults)
		// The reference switched into the branch: a value only it carries.
		ref := reference.New(specs).WithChecks(rules.Checks{Readings: reading.Of(taken)})
		sub := make([]Vector, len(idx))
		in := make([][]byte, len(idx))
		for j, i := range idx {
			sub[j], in[j] = vecs[i], inputs[i]
		}
		err := verifyGroup(suite, ref, sub, in, progress)
		if err == nil && k != "" {
			// The branch must change the answer: the default vector a
			// branch vector derives from fails under that branch.
			for j := range sub {
				// (A derived branch, checked apart, was made from an answer
				// that fails its default vector.)
				of, ok := byID[sub[j].DerivedFrom]
				if !ok || !hasTag(&sub[j], TagReadingBranch) {
					continue
				}
				if verifyOne(ref, &Vector{Vector: vecs[of].Vector}, inputs[of]) == nil {
					err = fmt.Errorf("%s: under %s the reference still meets %s: the branch changes nothing", sub[j].ID, k, vecs[of].ID)
					break
				}
			}
		}
		if err == nil && k != "" && untouched {
			err = verifyUntouched(ref, vecs, inputs, groups[""], taken)
		}
		if err != nil {
			return err
		}
		for j, i := range idx {
			vecs[i] = sub[j]
		}
	}
	return nil
}

// verifyUntouched checks that ref, the reference switched into the branch
// taken, still meets every default vector that names none of its readings:
// a testee declaring those alternatives is then judged by every other
// vector as it stands, and a vector whose expectation the branch changes
// must name the reading (the error says which).
func verifyUntouched(ref *reference.Reference, vecs []Vector, inputs [][]byte, idx []int, taken map[string]string) error {
	errs := make([]error, len(idx))
	parallel.Each(len(idx), func(j int) {
		v := &vecs[idx[j]]
		for id := range taken {
			if _, ok := v.Readings[id]; ok {
				return
			}
		}
		if len(v.Profiles) > 0 {
			for _, p := range v.Profiles {
				if !slices.Contains(ref.Profiles(), p) {
					return
				}
			}
		}
		// Judged as conform judges a testee: outcome, code and result,
		// not the rule reported.
		resp, err := ref.Do(context.Background(), testee.Request{Op: v.Op, Args: v.Args, Input: inputs[idx[j]]})
		if err == nil {
			if vd := vectorset.Judge(&v.Vector, resp, false); !vd.Pass {
				err = errors.New(vd.Reason)
			}
		}
		if err != nil {
			errs[j] = fmt.Errorf("under %v the reference fails %s: %w; if the reading decides this vector, name it in the suite's reading uses", taken, v.ID, err)
		}
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func hasTag(v *Vector, tag string) bool {
	for _, t := range v.Tags {
		if t == tag {
			return true
		}
	}
	return false
}

// verifyGroup checks vectors of one branch against ref, the reference
// switched into that branch.
func verifyGroup(suite string, ref *reference.Reference, vecs []Vector, inputs [][]byte, progress io.Writer) error {
	claimed := map[string]bool{}
	for _, p := range ref.Profiles() {
		claimed[p] = true
	}
	errs := make([]error, len(vecs))
	skipped := make([]string, len(vecs))
	var done int
	var mu sync.Mutex
	parallel.Each(len(vecs), func(i int) {
		if p := unclaimed(vecs[i].Profiles, claimed); p != "" {
			skipped[i] = p
			if len(vecs[i].Want) > 0 {
				errs[i] = fmt.Errorf("%s needs profile %s, which the reference does not claim, so nothing can fill its Want fields", vecs[i].ID, p)
			}
		} else {
			errs[i] = verifyOne(ref, &vecs[i], inputs[i])
		}
		mu.Lock()
		done++
		if progress != nil && (done%200 == 0 || done == len(vecs)) {
			fmt.Fprintf(progress, "\rvecgen: %s: %d/%d vectors checked against the reference", suite, done, len(vecs))
			if done == len(vecs) {
				fmt.Fprintln(progress)
			}
		}
		mu.Unlock()
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	for i, p := range skipped {
		if p != "" && progress != nil {
			fmt.Fprintf(progress, "vecgen: %s: not checked against the reference: it needs profile %s, which the reference does not claim\n", vecs[i].ID, p)
		}
	}
	return nil
}

// unclaimed returns the first of profiles that claimed lacks, or "".
func unclaimed(profiles []string, claimed map[string]bool) string {
	for _, p := range profiles {
		if !claimed[p] {
			return p
		}
	}
	return ""
}

func verifyOne(ref *reference.Reference, v *Vector, input []byte) error {
	args := v.Args
	if len(args) == 0 {
		args = json.RawMessage("{}")
		v.Args = args
	}
	resp, err := ref.Do(context.Background(), testee.Request{Op: v.Op, Args: args, Input: input})
	if err != nil {
		return fmt.Errorf("%s: the reference cannot answer: %w", v.ID, err)
	}
	if resp.Outcome == testee.Unsupported {
		return fmt.Errorf("%s: the reference answers unsupported: %s", v.ID, resp.Detail)
	}
	if v.Expect == vectorset.Accept && len(v.Want) > 0 {
		if err := fillWant(v, resp); err != nil {
			return err
		}
	}
	if vd := vectorset.Judge(&v.Vector, resp, true); !vd.Pass {
		return fmt.Errorf("%s: the reference disagrees with the vector: %s", v.ID, vd.Reason)
	}
	return nil
}

// fillWant copies the Want fields of the reference's result into v.Result,
// keeping the fields v.Result already has (those are checked, not filled).
func fillWant(v *Vector, resp testee.Response) error {
	if resp.Outcome != testee.Accepted {
		return fmt.Errorf("%s: expected acceptance, the reference rejects: %s %s", v.ID, resp.Code, resp.Detail)
	}
	var got, have map[string]json.RawMessage
	if err := json.Unmarshal(resp.Result, &got); err != nil {
		return err
	}
	have = map[string]json.RawMessage{}
	if len(v.Result) > 0 {
		if err := json.Unmarshal(v.Result, &have); err != nil {
			return fmt.Errorf("%s: result: %w", v.ID, err)
		}
	}
	for _, f := range v.Want {
		val, ok := got[f]
		if !ok {
			return fmt.Errorf("%s: the reference's result has no field %q", v.ID, f)
		}
		if _, set := have[f]; !set {
			have[f] = val
		}
	}
	b, err := marshalSorted(have)
	if err != nil {
		return err
	}
	v.Result = b
	return nil
}

// marshalSorted writes a JSON object with sorted keys and compact values.
func marshalSorted(m map[string]json.RawMessage) ([]byte, error) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			buf.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		buf.Write(kb)
		buf.WriteByte(':')
		if err := json.Compact(&buf, m[k]); err != nil {
			return nil, err
		}
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}
