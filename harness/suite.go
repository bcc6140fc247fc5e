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
	// stamps are the tree's files as verification read them (suite-tree
	// path to the open file's Stat), to tell after a run whether one
	// changed (checkCommitted); nil for a suite not made by LoadSuite.
	stamps map[string]fs.FileInfo
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
// its published identity. Every file is read as a regular file or not at
// all (vectorset.OpenRegular: no link followed, no FIFO or device opened),
// the manifest first, so that each file of the tree is checked against
// its row's length before it is read (issue 30).
func LoadSuite(def vectorset.SuiteDef, vectorsDir, manifestDir string) (*Suite, error) {
	t0 := time.Now()
	name := def.Name
	dir := filepath.Join(manifestDir, name)
	m, entries, err := readManifest(dir, name)
	if err != nil {
		return nil, setupErr("suite %s: %v (regenerate with go run ./cmd/vecgen)", name, err)
	}
	files, over, stamps, err := suiteTree(vectorsDir, name, entries)
	if err != nil {
		return nil, setupErr("suite %s: %v", name, err)
	}
	if err := diffTree(entries, files, over); err != nil {
		return nil, setupErr("suite %s: %v (regenerate with go run ./cmd/vecgen)", name, err)
	}
	ix, err := vectorset.Parse(files["index.json"], name)
	if err != nil {
		return nil, setupErr("%v", err)
	}
	s := &Suite{Name: name, Index: ix, VectorsDir: vectorsDir, ManifestFiles: len(entries), stamps: stamps}
	sh := vectorset.SetHash(m)
	s.SetHash = hex.EncodeToString(sh[:])
	if def.Verify != nil {
		if s.Authority, err = def.Verify(dir, files); err != nil {
			return nil, setupErr("suite %s: authority: %v", name, err)
		}
	}
	s.Verify, s.verifyStart = time.Since(t0), t0
	return s, nil
}

// maxSetHashText bounds suite-set-hash.txt (a few lines).
const maxSetHashText = 64 << 10

// readManifest reads suite-set-hash.txt and the suite manifest it states,
// no longer than it states, and checks the one against the other.
func readManifest(dir, suite string) ([]byte, []manifest.Entry, error) {
	txt, err := vectorset.ReadRegular(filepath.Join(dir, "suite-set-hash.txt"), maxSetHashText)
	if err != nil {
		return nil, nil, err
	}
	n, err := vectorset.StatedManifestBytes(txt)
	if err != nil {
		return nil, nil, err
	}
	m, err := vectorset.ReadRegular(filepath.Join(dir, "suite-manifest.bin"), n)
	if errors.Is(err, vectorset.ErrTooLarge) {
		return nil, nil, fmt.Errorf("suite-manifest.bin is longer than the %d bytes suite-set-hash.txt states", n)
	}
	if err != nil {
		return nil, nil, err
	}
	entries, err := manifest.Parse(m)
	if err != nil {
		return nil, nil, fmt.Errorf("suite-manifest.bin: %v", err)
	}
	if err := vectorset.NewSetHashFile(suite, m, len(entries)).Check(txt); err != nil {
		return nil, nil, err
	}
	return m, entries, nil
}

// suiteTree reads every file of a suite tree by its suite-tree path
// (positive/x, negative/x, registry/x, index.json). Each must be a
// regular file (a link, a FIFO or a device is an error, and is not
// opened); a file the manifest does not list is not read (it is in the map
// with no bytes, to be reported as extra), nor one longer than its row
// says (it is left out of the map and listed in over). stamps are the
// files' Stats as they were read.
func suiteTree(vectorsDir, suite string, entries []manifest.Entry) (files map[string][]byte, over []string, stamps map[string]fs.FileInfo, err error) {
	rows := make(map[string]uint64, len(entries))
	for _, e := range entries {
		rows[e.Path] = e.Length
	}
	files = make(map[string][]byte, len(entries))
	stamps = make(map[string]fs.FileInfo, len(entries))
	read := func(treePath, path string) error {
		length, ok := rows[treePath]
		if !ok {
			files[treePath] = nil // extra: not read
			return nil
		}
		b, st, err := vectorset.ReadRegularStat(path, int64(min(length, 1<<62)))
		if errors.Is(err, vectorset.ErrTooLarge) {
			over = append(over, treePath)
			return nil
		}
		if err != nil {
			return err
		}
		files[treePath], stamps[treePath] = b, st
		return nil
	}
	if err := read("index.json", vectorset.IndexPath(vectorsDir, suite)); err != nil {
		return nil, nil, nil, err
	}
	for _, d := range []string{"positive", "negative", "registry"} {
		root := filepath.Join(vectorsDir, d, suite)
		entries, err := os.ReadDir(root)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, nil, nil, err
		}
		for _, e := range entries {
			p := filepath.Join(root, e.Name())
			if e.IsDir() {
				return nil, nil, nil, fmt.Errorf("%s: a directory inside the suite tree", p)
			}
			if !e.Type().IsRegular() {
				return nil, nil, nil, &vectorset.NotRegularError{Path: p, Mode: e.Type()}
			}
			if err := read(d+"/"+e.Name(), p); err != nil {
				return nil, nil, nil, err
			}
		}
	}
	return files, over, stamps, nil
}

// diffTree checks the files of a suite tree against the manifest's rows:
// none missing, added or changed. over are the files longer than their
// rows, not read.
func diffTree(entries []manifest.Entry, files map[string][]byte, over []string) error {
	diffs := manifest.Diff(entries, files)
	if len(diffs) == 0 {
		return nil
	}
	var b strings.Builder
	for i, d := range diffs {
		if i == 5 {
			fmt.Fprintf(&b, "; and %d more", len(diffs)-5)
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		if d.Kind == manifest.Missing && slices.Contains(over, d.Path) {
			d.Kind = manifest.Substituted // there, and longer than its row
		}
		fmt.Fprintf(&b, "%s %s", d.Kind, d.Path)
	}
	return fmt.Errorf("the suite tree differs from suite-manifest.bin: %s", b.String())
}
