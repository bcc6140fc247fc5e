package harness

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/threespec/conformance/testee"
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
	rep := Run(context.Background(), Config{
		Suites: suites, Selection: Selection{IDs: ids}, Impl: &pathSpy{tt.Impl, &seen}, InputPaths: inputs,
		Testee: TesteeInfo{Command: []string{"hostile"}, Mode: "persistent"},
	})
	dir := inputs.Dir()
	if rep.Testee.Inputs != "path" || dir == "" {
		t.Fatalf("inputs by %q in %q; want by path", rep.Testee.Inputs, dir)
	}
	for _, v := range rep.Vectors {
		if v.Status == Error || v.Failure != nil {
			t.Errorf("%s: %s %s", v.ID, v.Status, v.Reason)
		}
	}
	if b, err := os.ReadFile(victim); err != nil || string(b) != "do not touch" {
		t.Errorf("the victim file now holds %.60q (%v)", b, err)
	}
	if len(seen) != len(ids) || len(slices.Compact(slices.Sorted(slices.Values(seen)))) != len(ids) {
		t.Errorf("paths sent %q: want %d distinct files", seen, len(ids))
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
