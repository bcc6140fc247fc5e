package harness

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/threespec/conformance/impl/manifest"
	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/impl/spec"
	"github.com/threespec/conformance/internal/fuzzgen"
	"github.com/threespec/conformance/vectorset"
)

// TagFuzz marks a candidate vector conform fuzz wrote.
const TagFuzz = "fuzz"

// FuzzSource is where the suites a fuzz run writes candidates beside come
// from: the committed vector tree and manifests. Their files are copied
// into the output, so that a suite whose verification needs more than its
// index (HiveRelay's authority and inventory files) verifies there too.
type FuzzSource struct {
	VectorsDir, ManifestDir string
}

// CandidateVector is the index entry of a finding's candidate vector and
// its input bytes.
func CandidateVector(specs *spec.Set, gens []fuzzgen.Generator, seed uint64, fd *FuzzFinding) (suite string, v vectorset.Vector, input []byte, err error) {
	sp := specOfOp(specs, fd.op)
	if sp == nil || fd.op == "" {
		return "", v, nil, fmt.Errorf("finding %s: no spec has operation %q", fd.Key, fd.op)
	}
	suite = string(sp.Name)
	exp := expectation(fd.op, fd.args, fd.ref)
	v = exp
	pol := "negative"
	if v.Expect == vectorset.Accept {
		pol = "positive"
	}
	accRule := ""
	for _, g := range gens {
		if r, ok := g.AcceptRule[fd.op]; ok {
			accRule = r
		}
	}
	switch {
	case v.Expect == vectorset.Reject && len(v.Rules) == 0:
		v.Rules = []string{cmpOr(catalogID(specs, fd.ref.Code), accRule)}
	case v.Expect == vectorset.Accept:
		r := accRule
		if fd.Key.Direction == DirRejects && catalogID(specs, fd.Key.Rule) != "" {
			r = fd.Key.Rule
		}
		v.Rules = []string{r}
	}
	if v.Rules[0] == "" {
		return "", v, nil, fmt.Errorf("finding %s: no rule to name (the generator names none for %s)", fd.Key, fd.op)
	}
	v.Level = "MUST"
	if r, ok := specs.Rule(rules.ID(v.Rules[0])); ok {
		v.Level = r.Level.String()
	}
	name := "fuzz-" + slug(strings.TrimPrefix(fd.op, suite+".")) + "-" + slug(fd.Key.Direction)
	if fd.Key.Rule != "" {
		name += "-" + slug(fd.Key.Rule)
	}
	if fd.Key.Member != "" {
		name += "-" + slug(fd.Key.Member)
	}
	h := vectorset.Hash(fd.input)
	name += "-" + h[:8]
	v.ID = suite + "/" + pol + "/" + name
	v.File = pol + "/" + name + ".bin"
	v.Size, v.BLAKE2b = int64(len(fd.input)), h
	v.Tags, v.Profiles = []string{TagFuzz}, []string{}
	if len(fd.Readings) > 0 {
		v.Readings = map[string]string{}
		for id, alt := range fd.Readings {
			if fd.Kind == FindingReading {
				rd, _ := specs.Reading(id)
				alt = rd.Default
			}
			v.Readings[id] = alt
		}
	}
	// Every code a check order the spec allows gives first, and a result's
	// free text matched, as a generated vector has them.
	relax(sp, fd.op, fd.args, fd.input, &v, v.Readings)
	var why string
	switch fd.Key.Direction {
	case DirAccepts:
		why = fmt.Sprintf("the reference rejects this input by %s; a testee accepted it", fd.Key.Rule)
	case DirRejects:
		why = fmt.Sprintf("the reference accepts this input; a testee rejected it (%s)", cmpOr(fd.Key.Rule, "no rule named"))
	case DirCode:
		why = fmt.Sprintf("the reference rejects this input by %s; a testee rejected it with code %s", fd.Key.Rule, fd.Key.Member)
	case DirResult:
		why = fmt.Sprintf("the reference accepts this input; a testee's result member %q differed", fd.Key.Member)
	case FindingReading:
		why = fmt.Sprintf("a testee answered as alternative %s of %s without declaring it", fd.Key.Member, fd.Key.Rule)
	case FindingFailure:
		why = fmt.Sprintf("a testee failed on this input (%s)", fd.Key.Member)
	}
	ops := "none"
	if len(fd.Operators) > 0 {
		ops = strings.Join(fd.Operators, ", ")
	}
	v.Comment = fmt.Sprintf("Found by conform fuzz: %s. Provenance: seed %d, case %d, generator %s, operators %s, parent %s; shrunk from %d to %d bytes.",
		why, seed, fd.Case, fd.Generator, ops, cmpOr(fd.Parent, "none"), fd.Size, fd.ShrunkSize)
	return suite, v, fd.input, nil
}

func catalogID(specs *spec.Set, id string) string {
	if _, ok := specs.Rule(rules.ID(id)); ok {
		return id
	}
	return ""
}

func specOfOp(specs *spec.Set, op string) *spec.Spec {
	for _, s := range specs.Specs() {
		if slices.Contains(s.OpNames(), op) {
			return s
		}
	}
	return nil
}

// slug makes s a part of a vector name: lower-case letters, digits and
// '-'.
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(s) {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			b.WriteRune(c)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

// WriteFuzzCandidates writes the report's findings under dir as candidate
// vectors that `conform run --vectors DIR/vectors` runs as they are: for
// each suite with a finding, dir/vectors/<suite>.index.json lists the
// candidates (and those an earlier run wrote there), their files are in
// dir/vectors/<polarity>/<suite>/, the source suite's other files are
// copied beside them, and dir/manifest/<suite>/ holds the suite manifest
// and set hash of that tree, with the source's other manifest files. It
// sets each finding's Vector.
func WriteFuzzCandidates(dir string, specs *spec.Set, gens []fuzzgen.Generator, rep *FuzzReport, src FuzzSource) error {
	type cand struct {
		v  vectorset.Vector
		in []byte
		fd *FuzzFinding
	}
	bySuite := map[string][]cand{}
	var suites []string
	for _, fd := range rep.Findings {
		suite, v, in, err := CandidateVector(specs, gens, rep.Seed, fd)
		if err != nil {
			return err
		}
		fd.Vector = v.ID
		if _, ok := bySuite[suite]; !ok {
			suites = append(suites, suite)
		}
		bySuite[suite] = append(bySuite[suite], cand{v, in, fd})
	}
	vdir, mdir := filepath.Join(dir, "vectors"), filepath.Join(dir, "manifest")
	for _, suite := range suites {
		tree := map[string][]byte{}
		extra := map[string][]byte{}
		if src.VectorsDir != "" {
			if err := sourceTree(src, suite, tree, extra); err != nil {
				return fmt.Errorf("fuzz --out: the source suite %s: %w", suite, err)
			}
		}
		ix := &vectorset.Index{Format: vectorset.Format, Suite: suite, GeneratedBy: "conform fuzz"}
		have := map[string]bool{}
		for _, c := range bySuite[suite] {
			if have[c.v.ID] {
				continue
			}
			have[c.v.ID] = true
			ix.Vectors = append(ix.Vectors, c.v)
			tree[c.v.File] = c.in
			// The corpus entry that keeps it (found/<suite>/ in the tree).
			b, err := json.MarshalIndent(foundEntry(rep, c.fd, c.v, c.in), "", "  ")
			if err != nil {
				return err
			}
			if err := writeFile(filepath.Join(dir, "found", suite, c.v.Name()+".json"), append(b, '\n')); err != nil {
				return err
			}
		}
		// The candidates an earlier run wrote here are kept.
		if old, err := vectorset.Load(vdir, suite); err == nil {
			for _, v := range old.Vectors {
				if have[v.ID] || v.File == "" {
					continue
				}
				p, err := vectorset.TreePath(vdir, suite, v.File)
				if err != nil {
					return err
				}
				b, err := vectorset.ReadRegular(p, vectorset.MaxSetFile)
				if err != nil {
					return fmt.Errorf("fuzz --out: an earlier candidate: %w", err)
				}
				have[v.ID] = true
				ix.Vectors = append(ix.Vectors, v)
				tree[v.File] = b
			}
		} else if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("fuzz --out: %w", err)
		}
		slices.SortFunc(ix.Vectors, func(a, b vectorset.Vector) int { return strings.Compare(a.ID, b.ID) })
		index, err := ix.Write()
		if err != nil {
			return err
		}
		tree["index.json"] = index
		m, err := manifest.Build(tree)
		if err != nil {
			return fmt.Errorf("fuzz --out: suite manifest: %w", err)
		}
		stated := vectorset.NewSetHashFile(suite, m, len(tree))
		for p, b := range tree {
			out := vectorset.IndexPath(vdir, suite)
			if p != "index.json" {
				if out, err = vectorset.TreePath(vdir, suite, p); err != nil {
					return err
				}
			}
			if err := writeFile(out, b); err != nil {
				return err
			}
		}
		extra["suite-manifest.bin"] = m
		extra["suite-set-hash.txt"] = stated.Text("Written by conform fuzz: candidate vectors.")
		for name, b := range extra {
			if err := writeFile(filepath.Join(mdir, suite, name), b); err != nil {
				return err
			}
		}
	}
	return nil
}

// foundEntry is the found-corpus entry of a candidate.
func foundEntry(rep *FuzzReport, fd *FuzzFinding, v vectorset.Vector, in []byte) vectorset.FoundEntry {
	why, _, _ := strings.Cut(strings.TrimPrefix(v.Comment, "Found by conform fuzz: "), ". Provenance:")
	return vectorset.FoundEntry{
		Op: v.Op, Args: v.Args, Input: in, Expect: v.Expect, Code: v.Code, AcceptableCodes: v.AcceptableCodes, Rules: v.Rules, Readings: v.Readings, Why: why,
		Provenance: vectorset.FoundProvenance{Seed: rep.Seed, Case: fd.Case, Generator: fd.Generator, Operators: fd.Operators,
			Parent: fd.Parent, Testee: strings.Join(rep.Testee.Command, " "), Finding: fd.Key.String(), ShrunkFrom: fd.Size},
	}
}

// sourceTree reads the source suite, verified against its manifest, into
// tree (every file but the index) and extra (its manifest directory's
// files but the suite manifest and set hash).
func sourceTree(src FuzzSource, suite string, tree, extra map[string][]byte) error {
	mdir := src.ManifestDir
	if mdir == "" {
		mdir = DefaultManifestDir(src.VectorsDir)
	}
	dir := filepath.Join(mdir, suite)
	_, entries, err := readManifest(dir, suite)
	if err != nil {
		return err
	}
	files, over, _, err := suiteTree(src.VectorsDir, suite, entries)
	if err != nil {
		return err
	}
	if err := diffTree(entries, files, over); err != nil {
		return err
	}
	for p, b := range files {
		if p != "index.json" {
			tree[p] = b
		}
	}
	des, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range des {
		if n := e.Name(); n != "suite-manifest.bin" && n != "suite-set-hash.txt" && e.Type().IsRegular() {
			b, err := vectorset.ReadRegular(filepath.Join(dir, n), vectorset.MaxSetFile)
			if err != nil {
				return err
			}
			extra[n] = b
		}
	}
	return nil
}

func writeFile(p string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, b, 0o644)
}
