package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/threespec/conformance/harness"
	"github.com/threespec/conformance/harness/harnesstest"
	"github.com/threespec/conformance/internal/allspecs"
	"github.com/threespec/conformance/internal/featurescmd"
	"github.com/threespec/conformance/vectorset"
)

// The test binary is conform itself (`TESTBINARY conform ARGS...`) and the
// misbehaving test testee (`TESTBINARY testee ARGS...`).
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
	}
	for _, c := range cases {
		code, out, errOut := conform(t, c.args...)
		if code != harness.ExitSetup || !strings.Contains(out+errOut, c.want) {
			t.Errorf("%q: exit %d, output %q; want exit 2 and %q", c.args, code, out+errOut, c.want)
		}
	}
}

func TestHelp(t *testing.T) {
	for _, sub := range []string{"run", "serve", "features"} {
		code, out, errOut := conform(t, sub, "-help")
		if code != 0 || !strings.Contains(errOut, "usage: conform "+sub) {
			t.Errorf("%s -help: exit %d\n%s%s", sub, code, out, errOut)
		}
		if strings.Contains(errOut, "--fault") {
			t.Errorf("%s -help shows the hidden --fault flag", sub)
		}
	}
}

// SIGINT stops the run, the report says what ran, the exit status is 130
// and the testee is gone. One job, so that what ran is certain: a is
// answered before b is asked, c never is (with two, c could be answered
// by the other testee before the interrupt arrives).
func TestInterruptWithSIGINT(t *testing.T) {
	root := t.TempDir()
	vdir, err := harnesstest.WriteSuite(root, allspecs.Synthetic(), []harnesstest.Vector{
		{Name: "a", Input: "ok:{}"}, {Name: "b", Input: "hang"}, {Name: "c", Input: "ok:{}"},
	})
	if err != nil {
		t.Fatal(err)
	}
	pidfile, hangfile := filepath.Join(root, "pid"), filepath.Join(root, "hanging")
	cmd := exec.Command(os.Args[0], "conform", "run", "-j", "1", "--vectors", vdir, "--timeout", "1m", "--",
		os.Args[0], "testee", "-pidfile", pidfile, "-hangfile", hangfile)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if _, err := os.Stat(hangfile); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	cmd.Process.Signal(os.Interrupt)
	err = cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != harness.ExitInterrupted {
		t.Fatalf("conform ended with %v, want exit status %d\n%s", err, harness.ExitInterrupted, out.String())
	}
	for _, want := range []string{"INTERRUPTED", "1 passed", "2 not run"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, out.String())
		}
	}
	b, _ := os.ReadFile(pidfile)
	var pid int
	for _, c := range strings.TrimSpace(string(b)) {
		pid = pid*10 + int(c-'0')
	}
	if pid == 0 || syscall.Kill(pid, 0) != syscall.ESRCH {
		t.Errorf("the testee (pid %d) survived the interrupt", pid)
	}
}

// An interrupt (one SIGINT, or two: the second quits at once) removes the
// run's directory of recipe inputs written for a testee taking inputs by
// path, with the run in flight. Before it, the directory holds only the
// input in flight: a's file went when a was answered.
func TestInterruptRemovesInputFiles(t *testing.T) {
	for _, signals := range []int{1, 2} {
		t.Run(strconv.Itoa(signals)+" SIGINT", func(t *testing.T) {
			root, tmp := t.TempDir(), t.TempDir()
			vdir, err := harnesstest.WriteSuite(root, allspecs.Synthetic(), []harnesstest.Vector{
				{Name: "a", Input: "ok:{}", Recipe: true}, {Name: "b", Input: "hang", Recipe: true}, {Name: "c", Input: "ok:{}"},
			})
			if err != nil {
				t.Fatal(err)
			}
			hangfile := filepath.Join(root, "hanging")
			cmd := exec.Command(os.Args[0], "conform", "run", "-j", "1", "--vectors", vdir, "--timeout", "1m", "--",
				os.Args[0], "testee", "-inputpath", "-hangfile", hangfile)
			cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
				if _, err := os.Stat(hangfile); err == nil {
					break
				}
			}
			dirs, _ := filepath.Glob(filepath.Join(tmp, "conform-inputs-*"))
			if len(dirs) != 1 {
				cmd.Process.Kill()
				t.Fatalf("during the run: input directories %q, want one\n%s", dirs, out.String())
			}
			if ents, _ := os.ReadDir(dirs[0]); len(ents) != 1 || !strings.HasSuffix(ents[0].Name(), "-b") {
				var names []string
				for _, e := range ents {
					names = append(names, e.Name())
				}
				t.Errorf("during the run: files %q in %s, want only b's (in flight)", names, dirs[0])
			}
			for range signals {
				cmd.Process.Signal(os.Interrupt)
			}
			err = cmd.Wait()
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != harness.ExitInterrupted {
				t.Fatalf("conform ended with %v, want exit status %d\n%s", err, harness.ExitInterrupted, out.String())
			}
			if _, err := os.Lstat(dirs[0]); !os.IsNotExist(err) {
				t.Errorf("after the interrupt %s is still there (%v)\n%s", dirs[0], err, out.String())
			}
		})
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
// external adapter.
func TestCommittedFeaturesAgainstServe(t *testing.T) {
	files, err := filepath.Glob("../../features/*/*.feature")
	if err != nil || len(files) == 0 {
		t.Fatalf("features/ holds no .feature files (%v): the tree carries them", err)
	}
	code, out, errOut := conform(t, append([]string{"features", "--godog.paths", "../../features", "--godog.format", "progress", "--"}, serveArgv()...)...)
	if code != 0 {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
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
	if c.Failed != 0 || c.XPassed != 0 || c.XFailed < 40 || c.Passed+c.XFailed+c.OtherReading != c.Selected || c.Selected < 1300 {
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

// The Python example declares reading HR-READ-16 class-from-length in hello
// and is judged by that branch: the branch vector passes, the default one is
// set aside, and the report shows the declared reading. Taking it without
// declaring it puts the default vector in the readings section, with no
// failure, and fails the run.
func TestPythonExampleDeclaresAReading(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not on PATH: the Python example testee cannot run")
	}
	const def = "hiverelay/negative/cell-blob-v1-class-1-decoded-without-class"
	for _, undeclared := range []bool{false, true} {
		t.Setenv("TESTEE_UNDECLARED", map[bool]string{false: "0", true: "1"}[undeclared])
		jsonFile := filepath.Join(t.TempDir(), "report.json")
		code, out, errOut := conform(t, "run", "--vectors", "../../vectors", "--suite", "hiverelay", "--op", "hiverelay.decode",
			"--id", def, "--id", "hiverelay/positive/cell-blob-v1-class-1-decoded-without-class--class-from-length", "--json", jsonFile, "--", "python3", "../../examples/python/testee.py")
		rep := readReport(t, jsonFile)
		c := rep.Counts
		switch {
		case !undeclared && (code != 0 || c.Passed != 1 || c.DeclaredJudged != 1 || c.DeclaredSetAside != 1 || rep.Testee.Readings["HR-READ-16"] != "class-from-length" ||
			!strings.Contains(out, "readings:    declared HR-READ-16=class-from-length: 2 vectors changed")):
			t.Errorf("declared: exit %d, counts %+v\n%s%s", code, c, out, errOut)
		case undeclared && (code != harness.ExitFail || c.Failed != 0 || c.Readings != 1 || !strings.Contains(out, "takes reading class-from-length of HR-READ-16")):
			t.Errorf("undeclared: exit %d, counts %+v\n%s%s", code, c, out, errOut)
		}
	}
}
