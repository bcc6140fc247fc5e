package conformtest_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/threespec/conformance/conformtest"
	"github.com/threespec/conformance/harness"
	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/internal/fault"
	"github.com/threespec/conformance/internal/reading"
	"github.com/threespec/conformance/reference"
)

// The reference passes every vector of the embedded sets in process, each
// a subtest, with the set hashes of the committed manifests.
func TestReference(t *testing.T) {
	start := time.Now()
	rep := conformtest.Run(t, reference.New(conformtest.Specs), conformtest.Options{Jobs: runtime.NumCPU()})
	c := rep.Counts
	ran := c.Passed + c.Failed + c.Warnings + c.XFailed + c.XPassed
	t.Logf("%d vectors, %d run in %v (%.0f vectors/s), jobs %d", c.Selected, ran, time.Since(start).Round(time.Millisecond), float64(ran)/rep.Seconds, runtime.NumCPU())
	if c.Passed == 0 || c.Failed != 0 || c.Errors != 0 || c.Passed != ran {
		t.Errorf("counts %+v", c)
	}
	if rep.Testee.Inputs != "memory" || rep.Testee.Mode != harness.ModeInProcess {
		t.Errorf("testee %+v", rep.Testee)
	}
	// The embedded sets are the committed ones: the same set hashes.
	for _, s := range rep.Suites {
		b, err := os.ReadFile(filepath.Join("..", "manifest", s.Name, "suite-set-hash.txt"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), s.SetHash) {
			t.Errorf("suite %s: set hash %s, not the committed one", s.Name, s.SetHash)
		}
	}
	if len(rep.Suites) != len(conformtest.Specs.Specs()) {
		t.Errorf("ran %d suites", len(rep.Suites))
	}
}

// A reference with a rule switched off fails exactly the vectors the
// expected-failures file then carries; the verdicts name rule and vector.
func TestFaultAndExpectedFailures(t *testing.T) {
	impl := reference.New(conformtest.Specs).WithChecks(rules.Checks{Faults: fault.Of("LT-OPT-02")})
	opts := conformtest.Options{Suites: []string{"libtracer"}, Jobs: 2}
	rep, err := conformtest.Check(t.Context(), impl, opts)
	if err != nil {
		t.Fatal(err)
	}
	failed := map[string]bool{}
	for _, g := range conformtest.Verdicts(rep) {
		for _, v := range g.Vectors {
			if v.Outcome == conformtest.Failed {
				failed[v.ID] = true
				if !strings.Contains(v.Message, "expected:") || !strings.Contains(v.Message, "got:") {
					t.Errorf("%s/%s: message %q", g.Rule, v.ID, v.Message)
				}
			}
		}
	}
	var want []string
	for _, v := range rep.Vectors {
		if slices.Equal(v.Rules, []string{"LT-OPT-02"}) {
			want = append(want, v.ID)
		}
	}
	if len(want) == 0 || len(failed) != len(want) || rep.ExitCode != harness.ExitFail {
		t.Fatalf("%d failed, want the %d vectors testing LT-OPT-02 alone; exit %d", len(failed), len(want), rep.ExitCode)
	}
	for _, id := range want {
		if !failed[id] {
			t.Errorf("%s did not fail", id)
		}
	}

	file := filepath.Join(t.TempDir(), "expected-failures.txt")
	if err := os.WriteFile(file, []byte("LT-OPT-02  reserved opt bit 0 not checked\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	opts.ExpectFail = file
	rep, err = conformtest.Check(t.Context(), impl, opts)
	if err != nil {
		t.Fatal(err)
	}
	skipped := 0
	for _, g := range conformtest.Verdicts(rep) {
		for _, v := range g.Vectors {
			switch {
			case v.Outcome == conformtest.Failed:
				t.Errorf("%s failed with the expected-failures file: %s", v.ID, v.Message)
			case v.Outcome == conformtest.Skipped && strings.HasPrefix(v.Message, "expected failure: "):
				skipped++
			}
		}
	}
	if skipped != len(want) || rep.ExitCode != harness.ExitPass {
		t.Errorf("%d expected failures, want %d; exit %d", skipped, len(want), rep.ExitCode)
	}
}

// Not-applicable vectors and setup errors: an implementation claiming one
// operation skips the others' vectors; a selection of nothing is an error.
func TestSelectionAndSetup(t *testing.T) {
	if _, err := conformtest.Check(t.Context(), reference.New(conformtest.Specs), conformtest.Options{IDs: []string{"no-such-vector"}}); err == nil {
		t.Error("a selection of nothing: no error")
	}
	if _, err := conformtest.Check(t.Context(), reference.New(conformtest.Specs), conformtest.Options{Suites: []string{"nope"}}); err == nil {
		t.Error("an unknown suite: no error")
	}
	dir := t.TempDir()
	vdir, err := conformtest.Extract(dir)
	if err != nil {
		t.Fatal(err)
	}
	// A vectors directory that does not verify is refused.
	idx := filepath.Join(vdir, "libtracer.index.json")
	b, err := os.ReadFile(idx)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(idx, append(b, ' '), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = conformtest.Check(t.Context(), reference.New(conformtest.Specs), conformtest.Options{Vectors: vdir, Suites: []string{"libtracer"}})
	if err == nil || !strings.Contains(err.Error(), "index.json") {
		t.Errorf("a changed index: %v", err)
	}
}

// The Go example (examples/go, a module of its own that requires this one
// through a replace) is an implementer's test: go vet and go test pass in
// it, every vector run in process. Skipped only where the go command
// cannot be found.
func TestGoExample(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH")
	}
	dir := filepath.Join("..", "examples", "go")
	// Reading its files makes go test's cache notice a change to them.
	files, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil || len(files) < 3 {
		t.Fatalf("examples/go holds %q (%v)", files, err)
	}
	for _, f := range files {
		if _, err := os.ReadFile(f); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"vet", "."}, {"test", "-count=1", "-v", "."}} {
		cmd := exec.Command(goCmd, args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
		}
		if args[0] == "test" {
			for _, want := range []string{"--- PASS: TestConformance/LT-OPT-02/libtracer/negative/", "PASS (exit status 0)", "ok  \texample.com/conformance-go-example"} {
				if !strings.Contains(string(out), want) {
					t.Errorf("go test in %s: no %q in its output", dir, want)
				}
			}
		}
	}
}

// The embedded sets are written once to the user's cache directory and
// reused; a cached copy that no longer verifies is written afresh, never
// judged by.
func TestCachedCopy(t *testing.T) {
	home := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", filepath.Join(home, "cache"))
	t.Setenv("HOME", home)
	t.Setenv("LocalAppData", filepath.Join(home, "local"))
	dir, err := conformtest.Cached(false)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(dir, home) {
		t.Fatalf("cached in %s, not below %s", dir, home)
	}
	again, err := conformtest.Cached(false)
	if err != nil || again != dir {
		t.Fatalf("second call: %s, %v; want %s", again, err, dir)
	}
	idx := filepath.Join(dir, "libtracer.index.json")
	if err := os.WriteFile(idx, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := conformtest.Check(t.Context(), reference.New(conformtest.Specs), conformtest.Options{Suites: []string{"libtracer"}, IDs: []string{"ex04-*"}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.ExitCode != harness.ExitPass || rep.Counts.Passed == 0 {
		t.Errorf("exit %d, counts %+v", rep.ExitCode, rep.Counts)
	}
	if b, err := os.ReadFile(idx); err != nil || string(b) == "{}" {
		t.Errorf("the changed index was not written afresh (%v)", err)
	}
}

// Readings and profiles as conform run takes them: an implementation that
// declares a reading in hello is judged by that branch; one that takes it
// without declaring fails with the reading named; --mark none (Mark) makes
// the stand-in vectors not applicable.
func TestReadingsAndProfiles(t *testing.T) {
	m, err := harness.ParseReadings(conformtest.Specs, "HR-READ-03=zero-previous-hash-rejected")
	if err != nil {
		t.Fatal(err)
	}
	declared := reference.New(conformtest.Specs).WithChecks(rules.Checks{Readings: reading.Of(m)})
	opts := conformtest.Options{Suites: []string{"hiverelay"}, Jobs: 2}
	rep, err := conformtest.Check(t.Context(), declared, opts)
	if err != nil {
		t.Fatal(err)
	}
	if rep.ExitCode != harness.ExitPass || rep.Counts.DeclaredJudged+rep.Counts.DeclaredSetAside == 0 {
		t.Errorf("declared: exit %d, counts %+v", rep.ExitCode, rep.Counts)
	}
	undeclared := reference.New(conformtest.Specs).WithChecks(rules.Checks{Readings: reading.Of(m)})
	undeclared.Undeclared = true
	if rep, err = conformtest.Check(t.Context(), undeclared, opts); err != nil {
		t.Fatal(err)
	}
	var reported bool
	for _, g := range conformtest.Verdicts(rep) {
		for _, v := range g.Vectors {
			if v.Outcome == conformtest.Failed && strings.Contains(v.Message, "takes reading zero-previous-hash-rejected of HR-READ-03") {
				reported = true
			}
		}
	}
	if rep.ExitCode != harness.ExitFail || rep.Counts.Readings == 0 || !reported {
		t.Errorf("undeclared: exit %d, counts %+v, reported %v", rep.ExitCode, rep.Counts, reported)
	}

	rep, err = conformtest.Check(t.Context(), reference.New(conformtest.Specs), conformtest.Options{Suites: []string{"lace"}, Mark: harness.MarkNone, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	skipped := 0
	for _, g := range conformtest.Verdicts(rep) {
		for _, v := range g.Vectors {
			if v.Outcome == conformtest.Skipped && strings.Contains(v.Message, "--mark none") {
				skipped++
			}
		}
	}
	if skipped == 0 || rep.ExitCode != harness.ExitPass {
		t.Errorf("--mark none: %d skipped for it, exit %d", skipped, rep.ExitCode)
	}
}
