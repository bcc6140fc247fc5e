package harness

import (
	"cmp"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/threespec/conformance/impl/manifest"
	"github.com/threespec/conformance/vectorset"
)

// Suite is one vector suite as conform runs it: its index and the hashes
// that identify the exact set, verified against the committed manifests.
type Suite struct {
	Name       string
	Index      *vectorset.Index
	VectorsDir string // the vectors directory the index and inputs live in

	// SetHash is the suite set hash (hex) of manifest/<suite>/suite-set-hash.txt,
	// verified: it is the hash of suite-manifest.bin, whose rows match every
	// file of the suite tree, index included (docs/VECTORS.md).
	SetHash       string
	ManifestFiles int // rows of the suite manifest
	// Authority is what the suite's Verify hook verified (for hiverelay
	// the two published authority hashes); nil for a suite without one.
	Authority vectorset.Authority
	// Verify is how long loading and verifying the suite took; it began
	// at verifyStart (zero for a suite not made by LoadSuite).
	Verify      time.Duration
	verifyStart time.Time
}

// SetupError is an error in conform's own inputs (flags, vector sets,
// expected-failures file): the run exits with status 2.
type SetupError struct{ Err error }

func (e *SetupError) Error() string { return e.Err.Error() }
func (e *SetupError) Unwrap() error { return e.Err }

func setupErr(format string, args ...any) error {
	return &SetupError{fmt.Errorf(format, args...)}
}

// DefaultManifestDir is the manifest directory beside a vectors directory:
// DIR/../manifest.
func DefaultManifestDir(vectorsDir string) string {
	return filepath.Join(filepath.Dir(filepath.Clean(vectorsDir)), "manifest")
}

// LoadSuites loads the named suites (all of defs whose index exists when
// names is empty) from vectorsDir and verifies each against its manifests
// in manifestDir, and with its definition's Verify hook where it has one.
// defs are the suites conform knows, in report order. Every failure is a
// *SetupError.
func LoadSuites(defs []vectorset.SuiteDef, vectorsDir, manifestDir string, names []string) ([]*Suite, error) {
	explicit := len(names) > 0
	known := make([]string, len(defs))
	for i, d := range defs {
		known[i] = d.Name
	}
	if !explicit {
		names = known
	}
	var load []vectorset.SuiteDef
	for _, name := range names {
		i := slices.Index(known, name)
		if i < 0 {
			return nil, setupErr("unknown suite %q (the suites are %s)", name, strings.Join(known, ", "))
		}
		if _, err := os.Stat(vectorset.IndexPath(vectorsDir, name)); errors.Is(err, fs.ErrNotExist) && !explicit {
			continue
		}
		load = append(load, defs[i])
	}
	// The suites are verified at once (each reads and hashes its own tree),
	// and reported in order, with the first error in that order.
	suites := make([]*Suite, len(load))
	errs := make([]error, len(load))
	var wg sync.WaitGroup
	for i, def := range load {
		wg.Go(func() { suites[i], errs[i] = LoadSuite(def, vectorsDir, manifestDir) })
	}
	wg.Wait()
	if err := cmp.Or(errs...); err != nil {
		return nil, err
	}
	if len(suites) == 0 {
		return nil, setupErr("no vector index (<suite>.index.json) in %s: --vectors names the vector tree (the vectors/ folder of a clone)", vectorsDir)
	}
	return suites, nil
}

// verificationTime is how long verifying the suites took: from the first
// start to the last end, since LoadSuites verifies them at once (and the
// sum of the durations of suites not made by LoadSuite).
func verificationTime(suites []*Suite) time.Duration {
	var first, last time.Time
	var others time.Duration
	for _, s := range suites {
		if s.verifyStart.IsZero() {
			others += s.Verify
			continue
		}
		if first.IsZero() || s.verifyStart.Before(first) {
			first = s.verifyStart
		}
		if end := s.verifyStart.Add(s.Verify); end.After(last) {
			last = end
		}
	}
	return last.Sub(first) + others
}

// LoadSuite loads one suite and verifies its set hash and, with def.Verify,
// its published identity.
func LoadSuite(def vectorset.SuiteDef, vectorsDir, manifestDir string) (*Suite, error) {
	t0 := time.Now()
	name := def.Name
	indexBytes, err := os.ReadFile(vectorset.IndexPath(vectorsDir, name))
	if err != nil {
		return nil, setupErr("suite %s: %v", name, err)
	}
	ix, err := vectorset.Parse(indexBytes, name)
	if err != nil {
		return nil, setupErr("%v", err)
	}
	s := &Suite{Name: name, Index: ix, VectorsDir: vectorsDir}
	files, err := suiteTree(vectorsDir, name, indexBytes)
	if err != nil {
		return nil, setupErr("suite %s: %v", name, err)
	}
	dir := filepath.Join(manifestDir, name)
	if s.SetHash, s.ManifestFiles, err = verifySetHash(dir, name, files); err != nil {
		return nil, setupErr("suite %s: %v (regenerate with go run ./cmd/vecgen)", name, err)
	}
	if def.Verify != nil {
		if s.Authority, err = def.Verify(dir, files); err != nil {
			return nil, setupErr("suite %s: authority: %v", name, err)
		}
	}
	s.Verify, s.verifyStart = time.Since(t0), t0
	return s, nil
}

// suiteTree reads every file of a suite tree by its suite-tree path
// (positive/x, negative/x, registry/x, index.json).
func suiteTree(vectorsDir, suite string, index []byte) (map[string][]byte, error) {
	files := map[string][]byte{"index.json": index}
	for _, d := range []string{"positive", "negative", "registry"} {
		root := filepath.Join(vectorsDir, d, suite)
		entries, err := os.ReadDir(root)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if e.IsDir() {
				return nil, fmt.Errorf("%s: a directory inside the suite tree", filepath.Join(root, e.Name()))
			}
			b, err := os.ReadFile(filepath.Join(root, e.Name()))
			if err != nil {
				return nil, err
			}
			files[d+"/"+e.Name()] = b
		}
	}
	return files, nil
}

// verifySetHash checks suite-set-hash.txt against suite-manifest.bin and
// the manifest against the files of the suite tree.
func verifySetHash(dir, suite string, files map[string][]byte) (string, int, error) {
	txt, err := os.ReadFile(filepath.Join(dir, "suite-set-hash.txt"))
	if err != nil {
		return "", 0, err
	}
	m, err := os.ReadFile(filepath.Join(dir, "suite-manifest.bin"))
	if err != nil {
		return "", 0, err
	}
	entries, err := manifest.Parse(m)
	if err != nil {
		return "", 0, fmt.Errorf("suite-manifest.bin: %v", err)
	}
	stated := vectorset.NewSetHashFile(suite, m, len(entries))
	if err := stated.Check(txt); err != nil {
		return "", 0, err
	}
	if diffs := manifest.Diff(entries, files); len(diffs) > 0 {
		var b strings.Builder
		for i, d := range diffs {
			if i == 5 {
				fmt.Fprintf(&b, "; and %d more", len(diffs)-5)
				break
			}
			if i > 0 {
				b.WriteString("; ")
			}
			fmt.Fprintf(&b, "%s %s", d.Kind, d.Path)
		}
		return "", 0, fmt.Errorf("the suite tree differs from suite-manifest.bin: %s", b.String())
	}
	return hex.EncodeToString(stated.SetHash[:]), len(entries), nil
}
