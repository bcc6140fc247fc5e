package harness

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/threespec/conformance/harness/harnesstest"
	"github.com/threespec/conformance/internal/allspecs"
	"github.com/threespec/conformance/reference"
	"github.com/threespec/conformance/testee"
)

// vandal is an in-process testee that takes inputs by path and, on the
// requests that tamper says, does something to the file it is given or to
// its directory before it reads it.
type vandal struct {
	impl   testee.Implementation
	mu     sync.Mutex
	n      int
	paths  []string
	tamper func(n int, path string)
}

func (v *vandal) Do(ctx context.Context, req testee.Request) (testee.Response, error) {
	if req.Op == testee.OpHello {
		resp, err := v.impl.Do(ctx, req)
		resp.Result = withCapability(resp.Result, testee.CapabilityInputPath)
		return resp, err
	}
	if req.InputPath != "" {
		v.mu.Lock()
		v.n++
		v.paths = append(v.paths, req.InputPath)
		if v.tamper != nil {
			v.tamper(v.n, req.InputPath)
		}
		v.mu.Unlock()
		b, _ := os.ReadFile(req.InputPath)
		req.Input, req.InputPath = b, ""
	}
	return v.impl.Do(ctx, req)
}

func (v *vandal) Close() error { return nil }

// A testee given input_path that changes the committed files it is given
// (rewrites them, replaces them by links) fails each such vector with kind
// tampered, found after the run; no link it planted is followed (issue 30:
// the run passed, and the next one failed verification).
func TestInputPathCheckoutChangedIsTheTesteesFailure(t *testing.T) {
	root := copySuite(t, "hiverelay")
	vdir, mdir := filepath.Join(root, "vectors"), filepath.Join(root, "manifest")
	suites, err := LoadSuites(allSuites, vdir, mdir, []string{"hiverelay"})
	if err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("do not touch"), 0o600); err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(vdir)
	impl := &vandal{impl: reference.New(allspecs.Set()), tamper: func(n int, p string) {
		if !strings.HasPrefix(p, abs) {
			return // a recipe's: conform's own directory
		}
		k := n % 3
		if k == 2 && runtime.GOOS != "linux" {
			k = 1 // the change time is compared on Linux only
		}
		switch k {
		case 0:
			os.Remove(p)
			os.Symlink(victim, p)
		case 1:
			os.Chmod(p, 0o600)
			if f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0); err == nil {
				f.WriteString("x")
				f.Close()
			}
		case 2: // the same bytes, written again: only the change time tells
			if b, err := os.ReadFile(p); err == nil {
				fi, _ := os.Stat(p)
				os.WriteFile(p, b, 0o644)
				os.Chtimes(p, fi.ModTime(), fi.ModTime())
			}
		}
	}}
	// Only the vectors of committed files: a recipe that reads a committed
	// file the vandal replaced by a link would fail to load (not a regular
	// file), before or after the vandal's vector depending on the order
	// the two jobs take them.
	var files []string
	for _, v := range suites[0].Index.Vectors {
		if v.Recipe == nil {
			files = append(files, globEscape(v.ID))
		}
	}
	inputs := NewInputFiles()
	defer inputs.Remove()
	rep := Run(context.Background(), Config{Specs: allspecs.Set(), Suites: suites, Impl: impl, InputPaths: inputs, Jobs: 2,
		Selection: Selection{IDs: files}, Testee: TesteeInfo{Command: []string{"vandal"}, Mode: "persistent"}})
	if rep.Testee.Inputs != "path" || len(impl.paths) == 0 {
		t.Fatalf("inputs by %q, %d paths", rep.Testee.Inputs, len(impl.paths))
	}
	given := map[string]bool{}
	for _, p := range impl.paths {
		given[p] = true
	}
	committed := 0
	for _, v := range rep.Vectors {
		if v.Input == "recipe" || v.Status == NotApplicable || v.Status == OtherReading {
			continue
		}
		committed++
		if v.Failure == nil || v.Failure.Kind != KindTampered || !strings.Contains(v.Reason, "committed file") {
			t.Errorf("%s: %s %s; want the testee's failure, tampered", v.ID, v.Status, v.Reason)
		}
	}
	if committed == 0 || rep.ExitCode != ExitFail {
		t.Errorf("%d committed vectors, exit %d", committed, rep.ExitCode)
	}
	if b, err := os.ReadFile(victim); err != nil || string(b) != "do not touch" {
		t.Errorf("the victim holds %q (%v)", b, err)
	}
}

// A testee that makes conform's input directory read-only, removes or
// replaces it, or changes a file it is given again, fails the vector whose
// input it kept from being given (kind tampered, exit status 1), never
// conform's setup error (issue 30: exit 2); the directory is repaired and
// the later vectors run.
func TestInputPathTamperingIsTheTesteesFailure(t *testing.T) {
	// Recipes: their inputs are written into conform's own directory.
	var vecs []harnesstest.Vector
	for i := range 6 {
		vecs = append(vecs, harnesstest.Vector{Name: fmt.Sprintf("v%d", i), Input: fmt.Sprintf("input %d", i), Recipe: true})
	}
	// Two vectors of one input: the second is given the first's file.
	vecs = append(vecs, harnesstest.Vector{Name: "w1", Input: "shared", Recipe: true}, harnesstest.Vector{Name: "w2", Input: "shared", Recipe: true})
	suites := synthetic(t, vecs)
	cases := []struct {
		name     string
		tamper   func(n int, path string)
		notRoot  bool
		tampered []string // the vectors that fail so
		says     string
	}{
		{"read-only directory", func(n int, p string) {
			if n == 2 {
				os.Chmod(filepath.Dir(p), 0o500)
			}
		}, true, []string{"v2"}, "changed the permissions of conform's input directory"},
		{"directory removed", func(n int, p string) {
			if n == 2 {
				os.RemoveAll(filepath.Dir(p))
			}
		}, false, []string{"v2"}, "removed conform's input directory"},
		{"directory replaced by a file", func(n int, p string) {
			if n == 2 {
				os.RemoveAll(filepath.Dir(p))
				os.WriteFile(filepath.Dir(p), []byte("x"), 0o600)
			}
		}, false, []string{"v2"}, "replaced conform's input directory"},
		{"a shared file changed", func(n int, p string) {
			if strings.HasSuffix(p, "-w1") {
				os.Chmod(p, 0o600)
				os.WriteFile(p, []byte("changed"), 0o600)
			}
		}, false, []string{"w2"}, "changed, moved or removed the input file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.notRoot && (os.Geteuid() == 0 || runtime.GOOS == "windows") {
				t.Skip("root writes into a read-only directory (and Windows has no such mode)")
			}
			inputs := NewInputFiles()
			defer inputs.Remove()
			impl := &vandal{impl: reference.New(allspecs.Set()), tamper: c.tamper}
			rep := Run(context.Background(), Config{Specs: allspecs.Set(), Suites: suites, Impl: impl, InputPaths: inputs, Jobs: 1,
				Testee: TesteeInfo{Command: []string{"vandal"}, Mode: "persistent"}})
			var tampered []string
			for _, v := range rep.Vectors {
				if v.Status == Error || v.Status == NotRun {
					t.Errorf("%s: %s: %s", v.ID, v.Status, v.Reason)
				}
				if v.Failure != nil && v.Failure.Kind == KindTampered {
					tampered = append(tampered, v.ID[strings.LastIndex(v.ID, "/")+1:])
					if !strings.Contains(v.Reason, c.says) {
						t.Errorf("%s: %s; want it to say %q", v.ID, v.Reason, c.says)
					}
				}
			}
			if strings.Join(tampered, " ") != strings.Join(c.tampered, " ") {
				t.Errorf("tampered: %q, want %q", tampered, c.tampered)
			}
			if rep.ExitCode != ExitFail || rep.Counts.TesteeFailures != len(c.tampered) {
				t.Errorf("exit %d, %d testee failures; want 1 and %d", rep.ExitCode, rep.Counts.TesteeFailures, len(c.tampered))
			}
			dir := inputs.Dir()
			if err := inputs.Remove(); err != nil {
				t.Error(err)
			}
			for _, p := range impl.paths {
				if _, err := os.Lstat(filepath.Dir(p)); err == nil {
					t.Errorf("%s is left after Remove (run dir %s)", filepath.Dir(p), dir)
				}
			}
		})
	}
}
