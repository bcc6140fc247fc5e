package harness

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/threespec/conformance/internal/allspecs"
	"github.com/threespec/conformance/reference"
	"github.com/threespec/conformance/testee"
	"github.com/threespec/conformance/vectorset"
)

// A hostile testee, for TestInputPathHostileTestee: `TESTBINARY` with
// HARNESS_HOSTILE_TESTEE set to a victim file. It claims input-path and, on
// every request naming a file, plants symbolic links to the victim under
// every name the runner might use next in the file's directory (the names
// of HARNESS_HOSTILE_NAMES with counters), replaces the file itself by such
// a link, leaves an unreadable subdirectory, takes the directory's write
// permission away, and answers with the victim's path as if it were a
// result to act on.
func init() {
	victim := os.Getenv("HARNESS_HOSTILE_TESTEE")
	if victim == "" {
		return
	}
	names := strings.Split(os.Getenv("HARNESS_HOSTILE_NAMES"), ",")
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			os.Exit(0)
		}
		req, err := testee.ParseRequest(line[:len(line)-1])
		if err != nil {
			os.Exit(1)
		}
		if req.Op == testee.OpHello {
			fmt.Printf(`{"id":%d,"ok":true,"result":{"protocol":1,"ops":["hiverelay.authority","hiverelay.manifest","hiverelay.decode","hiverelay.format"],"profiles":[],"limits":{},"capabilities":["input-path"]}}`+"\n", req.ID)
			continue
		}
		if dir := filepath.Dir(req.InputPath); req.InputPath != "" && strings.Contains(dir, "conform-inputs-") {
			os.Chmod(dir, 0o700)
			for k := 1; k <= 12; k++ {
				for _, n := range names {
					os.Symlink(victim, filepath.Join(dir, fmt.Sprintf("%d-%s", k, n)))
				}
			}
			os.Remove(req.InputPath)
			os.Symlink(victim, req.InputPath)
			os.MkdirAll(filepath.Join(dir, "sub", "deeper"), 0o700)
			os.WriteFile(filepath.Join(dir, "sub", "deeper", "x"), []byte("x"), 0o600)
			os.Chmod(filepath.Join(dir, "sub"), 0)
			os.Chmod(dir, 0o500)
		}
		v, _ := json.Marshal(victim)
		fmt.Printf(`{"id":%d,"ok":true,"result":{"input_path":%s,"vector_manifest":%s}}`+"\n", req.ID, v, v)
	}
}

// A testee given input_path cannot make the runner write outside the run's
// own files: planted links are neither followed nor overwritten (every
// recipe still gets a fresh file of its own), a path it answers with is
// never used, and Remove deletes the directory however the testee left it.
func TestInputPathHostileTestee(t *testing.T) {
	suites, err := LoadSuites(allSuites, "../vectors", "../manifest", []string{"hiverelay"})
	if err != nil {
		t.Fatal(err)
	}
	var ids, names []string
	for _, v := range suites[0].Index.Vectors {
		if v.Recipe != nil && len(ids) < 4 {
			ids, names = append(ids, v.ID), append(names, safeName(v.Name()))
		}
	}
	if len(ids) < 2 {
		t.Fatalf("the hiverelay suite has %d recipe vectors; the test needs 2", len(ids))
	}
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("do not touch"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HARNESS_HOSTILE_TESTEE", victim)
	t.Setenv("HARNESS_HOSTILE_NAMES", strings.Join(names, ","))
	tt, err := StartTestee([]string{os.Args[0]}, TesteeOptions{Timeout: 10 * time.Second, HelloTimeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer tt.Impl.Close()
	inputs := NewInputFiles()
	defer inputs.Remove()
	var seen []string
	rep := Run(context.Background(), Config{Specs: allspecs.Set(),
		Suites: suites, Selection: Selection{IDs: ids}, Impl: &pathSpy{tt.Impl, &seen}, InputPaths: inputs,
		Testee: TesteeInfo{Command: []string{"hostile"}, Mode: "persistent"},
	})
	dir := inputs.Dir()
	if rep.Testee.Inputs != "path" || dir == "" {
		t.Fatalf("inputs by %q in %q; want by path", rep.Testee.Inputs, dir)
	}
	// Run as root, the runner writes into the directory the testee made
	// read-only, and every vector is asked; run as another user, the
	// vectors whose inputs it kept from being written fail as its own
	// failure (kind tampered), never as conform's error.
	tampered := 0
	for _, v := range rep.Vectors {
		if v.Failure != nil && v.Failure.Kind == KindTampered && os.Geteuid() != 0 {
			tampered++
			continue
		}
		if v.Status == Error || v.Failure != nil {
			t.Errorf("%s: %s %s", v.ID, v.Status, v.Reason)
		}
	}
	if b, err := os.ReadFile(victim); err != nil || string(b) != "do not touch" {
		t.Errorf("the victim file now holds %.60q (%v)", b, err)
	}
	if asked := len(ids) - tampered; len(seen) != asked || len(slices.Compact(slices.Sorted(slices.Values(seen)))) != asked {
		t.Errorf("paths sent %q: want %d distinct files", seen, asked)
	}
	for _, p := range seen {
		if filepath.Dir(p) != dir {
			t.Errorf("path %s is outside the run's directory %s", p, dir)
		}
	}
	if err := inputs.Remove(); err != nil {
		t.Errorf("Remove: %v", err)
	}
	if _, err := os.Lstat(dir); !os.IsNotExist(err) {
		t.Errorf("the input directory %s is still there (%v)", dir, err)
	}
	if b, err := os.ReadFile(victim); err != nil || string(b) != "do not touch" {
		t.Errorf("after Remove, the victim file holds %.60q (%v)", b, err)
	}
}

// pathSpy records the input paths of the requests it passes on.
type pathSpy struct {
	testee.Implementation
	paths *[]string
}

func (p *pathSpy) Do(ctx context.Context, req testee.Request) (testee.Response, error) {
	if req.InputPath != "" {
		*p.paths = append(*p.paths, req.InputPath)
	}
	return p.Implementation.Do(ctx, req)
}

// Path writes each recipe once, however many jobs ask for it at once,
// checks its bytes as it writes them (a file that fails the check is
// removed, with the error Input gives), and passes a committed file by its
// absolute path.
func TestInputFilesPath(t *testing.T) {
	vdir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(vdir, "positive", "lace"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(vdir, "positive", "lace", "c.lr"), []byte("committed"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := &Suite{Name: "lace", VectorsDir: vdir}
	recipe := func(id, hex string, count int64, hash string) *vectorset.Vector {
		return &vectorset.Vector{ID: "lace/positive/" + id, Size: count * int64(len(hex)/2), BLAKE2b: hash,
			Recipe: &vectorset.Recipe{Parts: []vectorset.Part{{Repeat: &vectorset.Repeat{Hex: hex, Count: count}}}}}
	}
	big := bytes.Repeat([]byte("ab"), 3<<20)
	a := recipe("a", "6162", 3<<20, vectorset.Hash(big))
	b := recipe("b", "63", 10, vectorset.Hash(bytes.Repeat([]byte("c"), 10)))
	bad := recipe("bad", "64", 10, vectorset.Hash([]byte("other")))
	committed := &vectorset.Vector{ID: "lace/positive/c", File: "positive/c.lr", Size: 9, BLAKE2b: vectorset.Hash([]byte("committed"))}

	f := NewInputFiles()
	defer f.Remove()
	paths := make([]string, 8)
	var wg sync.WaitGroup
	for i := range paths {
		wg.Go(func() {
			v := a
			if i%2 == 1 {
				v = b
			}
			p, n, err := f.Path(s, v)
			if err != nil || n != v.Size {
				t.Errorf("Path(%s): %d bytes, %v", v.ID, n, err)
			}
			paths[i] = p
		})
	}
	wg.Wait()
	for i, p := range paths {
		want, other := paths[0], paths[1]
		if i%2 == 1 {
			want, other = paths[1], paths[0]
		}
		if p != want || p == other || filepath.Dir(p) != f.Dir() {
			t.Fatalf("paths %q: want one file per recipe in %s", paths, f.Dir())
		}
	}
	if got, err := os.ReadFile(paths[0]); err != nil || !bytes.Equal(got, big) {
		t.Errorf("%s holds %d bytes (%v), want the recipe's %d", paths[0], len(got), err, len(big))
	}

	_, _, err := f.Path(s, bad)
	_, want := bad.Input(vdir, "lace")
	if err == nil || want == nil || err.Error() != want.Error() {
		t.Errorf("a recipe whose bytes are not the index's: %v; want Input's error %v", err, want)
	}
	if ents := inputEntries(f.Dir()); len(ents) != 2 {
		t.Errorf("the directory holds %d files, want the 2 good recipes'", len(ents))
	}

	p, n, err := f.Path(s, committed)
	if abs, _ := filepath.Abs(filepath.Join(vdir, "positive", "lace", "c.lr")); err != nil || p != abs || n != 9 {
		t.Errorf("committed file: %q, %d, %v; want %q", p, n, err, abs)
	}
	committed.BLAKE2b = vectorset.Hash([]byte("other"))
	if _, _, err := f.Path(s, committed); err == nil || !strings.Contains(err.Error(), "index says") {
		t.Errorf("a committed file whose bytes are not the index's: %v", err)
	}

	dir := f.Dir()
	if err := f.Remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(dir); !os.IsNotExist(err) {
		t.Errorf("%s is still there (%v)", dir, err)
	}
	if _, _, err := f.Path(s, b); err == nil {
		t.Error("Path after Remove: no error")
	}
}

// A recipe's file is removed once every vector announced for it released
// it, not before, and only for announced vectors; a later Path writes it
// again.
func TestInputFilesRelease(t *testing.T) {
	s := &Suite{Name: "lace", VectorsDir: t.TempDir()}
	in := bytes.Repeat([]byte("c"), 10)
	v := &vectorset.Vector{ID: "lace/positive/r", Size: 10, BLAKE2b: vectorset.Hash(in),
		Recipe: &vectorset.Recipe{Parts: []vectorset.Part{{Repeat: &vectorset.Repeat{Hex: "63", Count: 10}}}}}
	twin := *v
	twin.ID = "lace/positive/twin" // the same input, another vector
	f := NewInputFiles()
	defer f.Remove()
	exists := func(p string) bool { _, err := os.Lstat(p); return err == nil }

	p, _, err := f.Path(s, v)
	if err != nil {
		t.Fatal(err)
	}
	f.Release(v)
	if !exists(p) {
		t.Fatal("Release of a vector never announced removed its file")
	}

	f.Expect(v)
	f.Expect(&twin)
	f.Release(v)
	if !exists(p) {
		t.Fatal("the file was removed while an announced vector still needs it")
	}
	if q, _, err := f.Path(s, &twin); err != nil || q != p {
		t.Fatalf("the twin got %q (%v), want the same file %q", q, err, p)
	}
	f.Release(&twin)
	if exists(p) {
		t.Fatalf("%s is still there after its last announced vector released it", p)
	}
	q, _, err := f.Path(s, v)
	if err != nil || q == p || !exists(q) {
		t.Fatalf("Path after the release: %q (%v); want a new file", q, err)
	}
	if got, _ := os.ReadFile(q); !bytes.Equal(got, in) {
		t.Errorf("the new file holds %q, want %q", got, in)
	}
}

// pathReader is an in-process testee that takes inputs by path: it reads
// the file it is given (failing the vector when it is not there) and asks
// impl about its bytes.
type pathReader struct{ impl testee.Implementation }

func (p pathReader) Do(ctx context.Context, req testee.Request) (testee.Response, error) {
	if req.Op == testee.OpHello {
		resp, err := p.impl.Do(ctx, req)
		resp.Result = withCapability(resp.Result, testee.CapabilityInputPath)
		return resp, err
	}
	if req.InputPath != "" {
		b, err := os.ReadFile(req.InputPath)
		if err != nil {
			return testee.Response{}, err
		}
		req.Input, req.InputPath = b, ""
	}
	return p.impl.Do(ctx, req)
}

func (p pathReader) Close() error { return p.impl.Close() }

// A run by path removes each recipe's file once its vectors are answered:
// no vector fails (those of another reading are not applicable), and when
// the run ends the directory is empty before Remove.
func TestRunReleasesInputs(t *testing.T) {
	suites, err := LoadSuites(allSuites, "../vectors", "../manifest", []string{"hiverelay"})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, v := range suites[0].Index.Vectors {
		if v.Recipe != nil {
			ids = append(ids, v.ID)
		}
	}
	inputs := NewInputFiles()
	defer inputs.Remove()
	rep := Run(context.Background(), Config{Specs: allspecs.Set(),
		Suites: suites, Selection: Selection{IDs: ids}, Impl: pathReader{reference.New(allspecs.Set())}, InputPaths: inputs, Jobs: 2,
		Testee: TesteeInfo{Command: []string{"in process"}, Mode: "persistent"},
	})
	if rep.Testee.Inputs != "path" || inputs.Dir() == "" {
		t.Fatalf("inputs by %q in %q; want by path", rep.Testee.Inputs, inputs.Dir())
	}
	passed := 0
	for _, v := range rep.Vectors {
		switch v.Status {
		case Pass:
			passed++
		case Fail, Error:
			t.Errorf("%s: %s %s", v.ID, v.Status, v.Reason)
		}
	}
	if passed == 0 {
		t.Fatalf("none of %d recipe vectors passed", len(ids))
	}
	if ents := inputEntries(inputs.Dir()); len(ents) != 0 {
		t.Errorf("after the run, %s holds %d files; want none", inputs.Dir(), len(ents))
	}
}

// inputEntries lists the inputs in a run's directory: its entries but the
// owner file (stale.go).
func inputEntries(dir string) []os.DirEntry {
	ents, _ := os.ReadDir(dir)
	return slices.DeleteFunc(ents, func(e os.DirEntry) bool { return e.Name() == ownerFile })
}
