package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/threespec/conformance/harness"
	"github.com/threespec/conformance/harness/harnesstest"
	"github.com/threespec/conformance/internal/allspecs"
	"github.com/threespec/conformance/internal/featurescmd"
	"github.com/threespec/conformance/vectorset"
)

// The test binary is conform itself (`TESTBINARY conform ARGS...`), the
// misbehaving test testee (`TESTBINARY testee ARGS...`) and the testee
// that rejects u64 values above 2^53-1 (`TESTBINARY unsafe-u64`).
func TestMain(m *testing.M) {
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case "conform":
			os.Exit(dispatch(os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
		case "conform-peak": // conform, then its own peak RSS into the file $CONFORM_PEAK_FILE
			code := dispatch(os.Args[2:], os.Stdin, os.Stdout, os.Stderr)
			writePeakRSS(os.Getenv("CONFORM_PEAK_FILE"))
			os.Exit(code)
		case "testee":
			os.Exit(harnesstest.Main(allspecs.Synthetic(), os.Args[2:]))
		case "unsafe-u64": // the reference rejecting manifest row lengths above 2^53-1 (fuzz_test.go)
			os.Exit(serveUnsafeU64())
		case "features", "prove": // as cmd/conform-features, which conform delegates to
			os.Exit(featurescmd.Main(featurescmd.Wings{Specs: allspecs.Set(), Steps: allspecs.Steps()}, os.Args[1:], os.Stdout, os.Stderr))
		}
	}
	os.Setenv(FeaturesEnv, os.Args[0])
	os.Exit(m.Run())
}

// conform runs dispatch in this process and returns the exit status and
// what it wrote.
func conform(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := dispatch(args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

// serveCmd is conform serve as a testee command.
func serveArgv(args ...string) []string {
	return append([]string{os.Args[0], "conform", "serve"}, args...)
}

func readReport(t *testing.T, file string) *harness.Report {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var r harness.Report
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

// The bar: conform serve passes every vector of every committed suite, in
// both modes; a vector that needs lace-009 is not applicable, never passed.
func TestRunAgainstServe(t *testing.T) {
	// Persistent mode runs every vector; one-shot mode (a process per
	// vector) a sample: the HiveRelay inventory and the libtracer worked
	// examples.
	for _, mode := range [][]string{nil, {"--one-shot", "-j", "4", "--tag", "authority-inventory,known-answer"}} {
		t.Run(strings.Join(append([]string{"persistent"}, mode...)[min(len(mode), 1):], " "), func(t *testing.T) {
			jsonFile := filepath.Join(t.TempDir(), "report.json")
			junitFile := filepath.Join(t.TempDir(), "report.xml")
			args := append([]string{"run", "--vectors", "../../vectors", "--json", jsonFile, "--junit", junitFile}, mode...)
			code, out, errOut := conform(t, append(append(args, "--"), serveArgv()...)...)
			if code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
			}
			rep := readReport(t, jsonFile)
			if rep.Counts.Passed == 0 {
				t.Fatal("nothing passed")
			}
			profiles := map[string][]string{}
			otherBranch := map[string]bool{} // vectors of a non-default reading
			defaults := allspecs.Set().ReadingDefaults()
			for _, suite := range allspecs.Set().Names() {
				idx, err := vectorset.Load("../../vectors", suite)
				if err != nil {
					continue
				}
				for _, iv := range idx.Vectors {
					profiles[iv.ID] = iv.Profiles
					otherBranch[iv.ID] = iv.Branch(nil, defaults) != ""
				}
			}
			for _, v := range rep.Vectors {
				needs009 := slices.Contains(profiles[v.ID], "lace-009")
				switch {
				case otherBranch[v.ID] != (v.Status == harness.OtherReading):
					t.Errorf("%s is %s; it is of another reading's branch: %v", v.ID, v.Status, otherBranch[v.ID])
				case otherBranch[v.ID]:
				case needs009 && v.Status != harness.NotApplicable:
					t.Errorf("%s needs lace-009 but is %s", v.ID, v.Status)
				case !needs009 && v.Status != harness.Pass:
					t.Errorf("%s: %s: %s", v.ID, v.Status, v.Reason)
				}
			}
			for _, s := range rep.Suites {
				if !strings.Contains(out, "set hash "+s.SetHash) {
					t.Errorf("the human report does not name suite %s's set hash", s.Name)
				}
			}
			if _, err := os.Stat(junitFile); err != nil {
				t.Error(err)
			}
		})
	}
}

// The rerun command of a failure reruns exactly that vector.
func TestRerunCommand(t *testing.T) {
	jsonFile := filepath.Join(t.TempDir(), "report.json")
	code, out, _ := conform(t, append([]string{"run", "--vectors", "../../vectors", "--suite", "hiverelay", "--rule", "HR-RCAP-03", "--timeout", "20s", "--json", jsonFile, "--"},
		serveArgv("--fault", "HR-RCAP-03")...)...)
	if code != harness.ExitFail {
		t.Fatalf("exit %d under a fault\n%s", code, out)
	}
	rep := readReport(t, jsonFile)
	var failed []*harness.VectorResult
	for _, v := range rep.Vectors {
		if v.Status == harness.Fail {
			failed = append(failed, v)
		}
	}
	// Every vector that fails under the fault tests HR-RCAP-03; the first is
	// rerun alone below.
	if len(failed) == 0 {
		t.Fatal("nothing failed under the fault")
	}
	for _, v := range failed {
		if !slices.Contains(v.Rules, "HR-RCAP-03") && !strings.Contains(v.ID, "read-cell-cap") && !strings.Contains(v.ID, "relay") {
			t.Errorf("vector %s failed under fault HR-RCAP-03, which it does not test", v.ID)
		}
	}
	argv := shellSplit(t, failed[0].Rerun)
	if !strings.Contains(failed[0].Rerun, "--timeout=20s") || strings.Contains(failed[0].Rerun, "--json") || strings.Contains(failed[0].Rerun, "--suite") {
		t.Errorf("rerun %q: keeps the wrong flags", failed[0].Rerun)
	}
	if argv[0] != os.Args[0] || argv[1] != "run" {
		t.Fatalf("rerun %q", failed[0].Rerun)
	}
	jsonFile2 := filepath.Join(t.TempDir(), "rerun.json")
	code, out, _ = conform(t, append([]string{"run", "--json", jsonFile2}, argv[2:]...)...)
	rerun := readReport(t, jsonFile2)
	if code != harness.ExitFail || rerun.Counts.Selected != 1 || rerun.Vectors[0].ID != failed[0].ID {
		t.Errorf("rerun: exit %d, %d vectors\n%s", code, rerun.Counts.Selected, out)
	}
}

// shellSplit splits the command lines harness.ShellJoin writes.
func shellSplit(t *testing.T, s string) []string {
	var out []string
	var cur strings.Builder
	in, started := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case in && c == '\'':
			in = false
		case in:
			cur.WriteByte(c)
		case c == '\'':
			in, started = true, true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			started = true
		case c == ' ':
			if started {
				out = append(out, cur.String())
				cur.Reset()
				started = false
			}
		default:
			cur.WriteByte(c)
			started = true
		}
	}
	if started {
		out = append(out, cur.String())
	}
	return out
}

func TestUsageErrors(t *testing.T) {
	expect := filepath.Join(t.TempDir(), "expect.txt")
	os.WriteFile(expect, []byte("not-an-id reason\n"), 0o644)
	cases := []struct {
		args []string
		want string
	}{
		{nil, "usage:"},
		{[]string{"frobnicate"}, "unknown command"},
		{[]string{"run"}, "no testee"},
		{[]string{"run", "--nosuchflag", "--", "x"}, "flag provided but not defined"},
		{[]string{"run", "--vectors", "../../vectors", "--id", "[", "--", "x"}, "--id"},
		{[]string{"run", "--vectors", "../../vectors", "--suite", "nosuch", "--", "x"}, "unknown suite"},
		{[]string{"run", "--vectors", "../../vectors", "--mark", "009", "--", "x"}, "--mark"},
		{[]string{"run", "--vectors", "../../vectors", "--profile", "lace-010", "--", "x"}, "--profile"},
		{[]string{"run", "--vectors", t.TempDir(), "--", "x"}, "no vector index"},
		{[]string{"run", "--vectors", "../../vectors", "--expect-fail", expect, "--", "x"}, "expect.txt:1"},
		{[]string{"run", "--vectors", "../../vectors", "--expect-fail", expect + ".missing", "--", "x"}, "no such file"},
		{[]string{"run", "--vectors", "../../vectors", "--json", "-", "--junit", "-", "--", "x"}, "cannot both"},
		{[]string{"run", "--vectors", "../../vectors", "--op", "no.such.op", "--", "x"}, "matches no vector"},
		{[]string{"serve", "a", "b"}, "at most one operation"},
		{[]string{"serve", "--fault", "not-a-rule"}, "neither a rule ID"},
		{[]string{"features"}, "no testee"},
		// Flags under which every request would fail for conform's own
		// reasons are usage errors, not testee failures (issue 30: a
		// negative --timeout failed every vector; --hello-timeout 0 was
		// exit 3; -j 1000000000 ran out of memory).
		{[]string{"run", "--vectors", "../../vectors", "--timeout", "-1s", "--", "x"}, "--timeout -1s: a duration below zero"},
		{[]string{"run", "--vectors", "../../vectors", "--timeout", "0", "--", "x"}, "--timeout 0: every request would time out"},
		{[]string{"run", "--vectors", "../../vectors", "--hello-timeout", "0", "--", "x"}, "--hello-timeout 0: every request would time out"},
		{[]string{"run", "--vectors", "../../vectors", "--hello-timeout", "-5m", "--", "x"}, "--hello-timeout -5m0s: a duration below zero"},
		{[]string{"run", "--vectors", "../../vectors", "--timeout-per-mib", "-1ns", "--", "x"}, "--timeout-per-mib -1ns: a duration below zero"},
		{[]string{"run", "--vectors", "../../vectors", "--timeout-per-mib", "2000000h", "--", "x"}, "longer than the longest allowed, 1000h0m0s"},
		{[]string{"run", "--vectors", "../../vectors", "-j", "0", "--", "x"}, "-j 0: from 1 to 1024"},
		{[]string{"run", "--vectors", "../../vectors", "-j", "-3", "--", "x"}, "-j -3: from 1 to 1024"},
		{[]string{"run", "--vectors", "../../vectors", "-j", "1000000000", "--", "x"}, "-j 1000000000: from 1 to 1024"},
		{[]string{"run", "--vectors", "../../vectors", "--max-response", "0", "--", "x"}, "--max-response 0"},
		{[]string{"run", "--vectors", "../../vectors", "--max-response", "-5", "--", "x"}, "--max-response -5"},
		{[]string{"features", "--timeout", "-1s", "--", "x"}, "--timeout -1s: a duration below zero"},
		{[]string{"features", "--hello-timeout", "0", "--", "x"}, "--hello-timeout 0"},
	}
	for _, c := range cases {
		code, out, errOut := conform(t, c.args...)
		if code != harness.ExitSetup || !strings.Contains(out+errOut, c.want) {
			t.Errorf("%q: exit %d, output %q; want exit 2 and %q", c.args, code, out+errOut, c.want)
		}
	}
}

func TestHelp(t *testing.T) {
	for _, sub := range []string{"run", "serve", "features", "smoke"} {
		code, out, errOut := conform(t, sub, "-help")
		if code != 0 || !strings.Contains(errOut, "usage: conform "+sub) {
			t.Errorf("%s -help: exit %d\n%s%s", sub, code, out, errOut)
		}
		if strings.Contains(errOut, "--fault") {
			t.Errorf("%s -help shows the hidden --fault flag", sub)
		}
	}
}

func TestFeatures(t *testing.T) {
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--godog.format", "progress"}, 1, "1 failed"},
		{[]string{"--godog.format", "progress", "--godog.tags", "@needs-lace-009"}, 0, "1 skipped"},
		{[]string{"--godog.format", "cucumber", "--godog.tags", "@fails"}, 1, `"keyword": "Scenario"`},
	}
	for _, c := range cases {
		args := append(append([]string{"features", "--godog.paths", "testdata/features"}, c.args...), "--")
		code, out, errOut := conform(t, append(args, serveArgv()...)...)
		if code != c.code || !strings.Contains(out, c.want) {
			t.Errorf("%q: exit %d, want %d and %q:\n%s%s", c.args, code, c.code, c.want, out, errOut)
		}
	}
	// A testee that fails hello could not be run.
	code, _, _ := conform(t, "features", "--godog.paths", "testdata/features", "--", os.Args[0], "testee", "-badhello")
	if code != harness.ExitTestee {
		t.Errorf("bad hello: exit %d", code)
	}
}

// The project's own features pass against conform serve through the
// external adapter, run as an installed conform would run them: from a
// directory outside any checkout, with the built-in features and the
// built-in copies of the files the steps read.
func TestCommittedFeaturesAgainstServe(t *testing.T) {
	files, err := filepath.Glob("../../features/*/*.feature")
	if err != nil || len(files) == 0 {
		t.Fatalf("features/ holds no .feature files (%v): the tree carries them", err)
	}
	cmd := exec.Command(os.Args[0], append([]string{"conform", "features", "--godog.format", "progress", "--"}, serveArgv()...)...)
	cmd.Dir = t.TempDir()
	out, err := cmd.CombinedOutput()
	if err != nil || !regexp.MustCompile(`(?m)^(\d+) scenarios \((\d+) passed\)$`).Match(out) {
		t.Fatalf("conform features outside a checkout: %v\n%s", err, out)
	}
	if strings.Contains(string(out), "failed") || strings.Contains(string(out), "\x1b[") {
		t.Errorf("conform features outside a checkout: failures or colours in a pipe:\n%.2000s", out)
	}
}

// The Python example (docs/PROTOCOL.md) passes what it implements and
// reports the rest as not applicable, in both modes.
func TestPythonExample(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not on PATH: the Python example testee cannot run")
	}
	for _, c := range []struct {
		mode   []string
		inputs string
	}{{nil, "path"}, {[]string{"--no-input-path"}, "base64"}, {[]string{"--one-shot"}, "stdin"}} {
		mode := c.mode
		jsonFile := filepath.Join(t.TempDir(), "report.json")
		args := append([]string{"run", "--vectors", "../../vectors", "--suite", "hiverelay", "--op", "hiverelay.decode", "--tag", "authority-inventory", "--json", jsonFile}, mode...)
		code, out, errOut := conform(t, append(args, "--", "python3", "../../examples/python/testee.py")...)
		if code != 0 {
			t.Fatalf("%v: exit %d\n%s%s", mode, code, out, errOut)
		}
		rep := readReport(t, jsonFile)
		if rep.Counts.Passed < 5 || rep.Counts.Failed != 0 || rep.Counts.Passed+rep.Counts.NotApplicable+rep.Counts.OtherReading != rep.Counts.Selected {
			t.Errorf("%v: counts %+v", mode, rep.Counts)
		}
		if rep.Testee.Inputs != c.inputs {
			t.Errorf("%v: inputs by %q, want %q", mode, rep.Testee.Inputs, c.inputs)
		}
	}
}

// The JavaScript example (examples/javascript, Node without packages) runs
// the whole libtracer suite green except for the one gap its
// expected-failures file lists by rule (LT-OPT-02): the vectors that test
// that rule alone are expected failures, the one that also tests LT-OPT-01
// passes, nothing else fails. With the gap closed (CHECK_BIT0=1) every
// vector passes without the file. One-shot mode is run on three vectors
// (a Node start per request makes the whole suite take minutes).
func TestJavaScriptExample(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not on PATH: the JavaScript example testee cannot run")
	}
	const testee, expect = "../../examples/javascript/testee.js", "../../examples/javascript/expected-failures.txt"
	run := func(args ...string) *harness.Report {
		t.Helper()
		jsonFile := filepath.Join(t.TempDir(), "report.json")
		args = append(append([]string{"run", "--vectors", "../../vectors", "--suite", "libtracer", "--json", jsonFile}, args...), "--", "node", testee)
		code, out, errOut := conform(t, args...)
		rep := readReport(t, jsonFile)
		if code != 0 {
			t.Errorf("%v: exit %d\n%s%s", args, code, out, errOut)
		}
		return rep
	}
	rep := run("--expect-fail", expect)
	c := rep.Counts
	// The testee declares no reading: the vectors of other branches than the
	// defaults are set aside (other-reading), every other vector runs.
	if c.Failed != 0 || c.XPassed != 0 || c.XFailed < 30 || c.Passed+c.XFailed+c.OtherReading != c.Selected || c.Selected < 1300 {
		t.Errorf("with the expected-failures file: counts %+v", c)
	}
	for _, v := range rep.Vectors {
		switch {
		case v.ID == "libtracer/negative/reserved-bits-both-bit7-first":
			if v.Status != harness.Pass {
				t.Errorf("%s: %s, want a pass (rejected for LT-OPT-01)", v.ID, v.Status)
			}
		case v.Status == harness.OtherReading && !strings.Contains(v.ID, "--"):
			t.Errorf("%s: set aside as another reading's vector, but it is no branch vector", v.ID)
		case v.Status == harness.XFail && (len(v.Rules) != 1 || v.Rules[0] != "LT-OPT-02"):
			t.Errorf("%s (rules %v) is an expected failure: only LT-OPT-02 is listed", v.ID, v.Rules)
		}
	}

	t.Setenv("CHECK_BIT0", "1")
	if c := run().Counts; c.Passed+c.OtherReading != c.Selected || c.Selected < 1300 {
		t.Errorf("with the gap closed: counts %+v", c)
	}
	ids := []string{"libtracer/positive/ex04-uint32-absolute-ts-crc32c", "libtracer/negative/ex04-uint32-absolute-ts-crc32c--f0-opt-bit4", "libtracer/positive/encode-smallest-relative-parent-anchors"}
	args := []string{"--one-shot"}
	for _, id := range ids {
		args = append(args, "--id", id)
	}
	if c := run(args...).Counts; c.Passed != len(ids) {
		t.Errorf("one-shot: counts %+v", c)
	}
}

// The Lace example (examples/lace-go: a Go module of its own, written from
// the spec, docs/PROTOCOL.md and docs/contract-lace.md, importing nothing
// of this module) passes the whole Lace suite: every vector passes, except
// the two that need the real 009 (not applicable to a stand-in testee) and
// the branch vectors of non-default readings (set aside, as it declares
// none). It runs persistent by path (every vector), persistent by base64
// (the operations of the large inputs) and one-shot (every operation).
// The test builds and vets it (go vet ./... does not enter a module of its
// own); it is skipped only where the go command cannot be found.
func TestLaceGoExample(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH: the Go example testee cannot be built")
	}
	// It is an implementation from outside: nothing of this module is
	// required or imported. (Reading its files here also makes go test's
	// cache notice a change to them, which the go build below does not.)
	dir := filepath.Join("..", "..", "examples", "lace-go")
	files, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil || len(files) < 3 {
		t.Fatalf("examples/lace-go holds %q (%v)", files, err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte("\"github.com/threespec/conformance/")) || bytes.Contains(b, []byte("\tgithub.com/threespec/conformance ")) {
			t.Errorf("%s uses this module: the example must stand outside it", f)
		}
	}
	start := time.Now()
	bin := filepath.Join(t.TempDir(), "lace-go")
	build := exec.Command(goCmd, "build", "-o", bin, ".")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build in %s: %v\n%s", build.Dir, err, out)
	}
	// go vet ./... stops at the example's own go.mod: vet it here.
	vet := exec.Command(goCmd, "vet", ".")
	vet.Dir = build.Dir
	if out, err := vet.CombinedOutput(); err != nil {
		t.Errorf("go vet in %s: %v\n%s", vet.Dir, err, out)
	}
	t.Logf("built and vetted the example in %v", time.Since(start).Round(time.Millisecond))

	idx, err := vectorset.Load("../../vectors", "lace")
	if err != nil {
		t.Fatal(err)
	}
	defaults := allspecs.Set().ReadingDefaults()
	needs009, otherBranch := map[string]bool{}, map[string]bool{}
	for _, iv := range idx.Vectors {
		needs009[iv.ID] = slices.Contains(iv.Profiles, "lace-009")
		otherBranch[iv.ID] = iv.Branch(nil, defaults) != ""
	}
	run := func(inputs string, args ...string) *harness.Report {
		t.Helper()
		start := time.Now()
		jsonFile := filepath.Join(t.TempDir(), "report.json")
		args = append(append([]string{"run", "--vectors", "../../vectors", "--suite", "lace", "--json", jsonFile}, args...), "--", bin)
		code, out, errOut := conform(t, args...)
		rep := readReport(t, jsonFile)
		if code != 0 {
			t.Errorf("%v: exit %d\n%s%s", args, code, out, errOut)
		}
		if rep.Testee.Inputs != inputs {
			t.Errorf("%v: inputs by %q, want %q", args, rep.Testee.Inputs, inputs)
		}
		for _, v := range rep.Vectors {
			switch {
			case otherBranch[v.ID]:
				if v.Status != harness.OtherReading {
					t.Errorf("%s: %s, want other-reading (a branch vector of a reading it does not declare)", v.ID, v.Status)
				}
			case needs009[v.ID]:
				if v.Status != harness.NotApplicable {
					t.Errorf("%s: %s, want not applicable (it needs lace-009)", v.ID, v.Status)
				}
			case v.Status != harness.Pass:
				t.Errorf("%s: %s: %s", v.ID, v.Status, v.Reason)
			}
		}
		t.Logf("inputs by %s: %d vectors, %d passed, in %v", inputs, rep.Counts.Selected, rep.Counts.Passed, time.Since(start).Round(time.Millisecond))
		return rep
	}
	if c := run("path").Counts; c.Selected != len(idx.Vectors) || c.Passed < 1400 {
		t.Errorf("the whole suite: counts %+v", c)
	}
	ids := func(mode string, ids ...string) []string {
		args := []string{mode}
		for _, id := range ids {
			args = append(args, "--id", id)
		}
		return args
	}
	// By base64: the largest record (a 44.7 MiB request line) and a few
	// others of each operation.
	if c := run("base64", ids("--no-input-path", "lace/positive/seal-max-size", "lace/negative/blob-32mib-plus-1", "lace/positive/construct-seed-seal-standin",
		"lace/positive/stream-seed-blob-plex-seal", "lace/positive/chunks-shared-subtree", "lace/positive/dir-pages")...).Counts; c.Passed != 6 {
		t.Errorf("by base64: counts %+v", c)
	}
	if c := run("stdin", ids("--one-shot", "lace/positive/seed-plex", "lace/positive/construct-seed-seal-standin", "lace/positive/stream-seed-blob-plex-seal",
		"lace/negative/record-empty", "lace/positive/chunks-nested-node", "lace/negative/dir-over-max-depth", "lace/positive/dir-at-max-expansion")...).Counts; c.Passed != 7 {
		t.Errorf("one-shot: counts %+v", c)
	}
}

// The Python example declares reading HR-READ-12 fixed-u64-within-safe-range
// in hello and is judged by that branch: the branch vector passes, the
// default one is set aside, and the report shows the declared reading.
// Taking it without declaring it puts the default vector in the readings
// section, with no failure, and fails the run.
func TestPythonExampleDeclaresAReading(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not on PATH: the Python example testee cannot run")
	}
	const def = "hiverelay/positive/blind-core-read-cap-v1-fork-and-length-18446744073709551615"
	for _, undeclared := range []bool{false, true} {
		t.Setenv("TESTEE_UNDECLARED", map[bool]string{false: "0", true: "1"}[undeclared])
		jsonFile := filepath.Join(t.TempDir(), "report.json")
		code, out, errOut := conform(t, "run", "--vectors", "../../vectors", "--suite", "hiverelay", "--op", "hiverelay.decode",
			"--id", def, "--id", "hiverelay/negative/blind-core-read-cap-v1-fork-and-length-18446744073709551615--fixed-u64-within-safe-range", "--json", jsonFile, "--", "python3", "../../examples/python/testee.py")
		rep := readReport(t, jsonFile)
		c := rep.Counts
		switch {
		case !undeclared && (code != 0 || c.Passed != 1 || c.DeclaredJudged != 1 || c.DeclaredSetAside != 1 || rep.Testee.Readings["HR-READ-12"] != "fixed-u64-within-safe-range" ||
			!strings.Contains(out, "readings:    declared HR-READ-12=fixed-u64-within-safe-range: 2 vectors changed")):
			t.Errorf("declared: exit %d, counts %+v\n%s%s", code, c, out, errOut)
		case undeclared && (code != harness.ExitFail || c.Failed != 0 || c.Readings != 1 || !strings.Contains(out, "takes reading fixed-u64-within-safe-range of HR-READ-12")):
			t.Errorf("undeclared: exit %d, counts %+v\n%s%s", code, c, out, errOut)
		}
	}
}
