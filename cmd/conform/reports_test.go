package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/threespec/conformance/harness"
)

// A small selection of three vectors that conform serve passes.
var smallRun = []string{"run", "--vectors", "../../vectors", "-q", "--id", "libtracer/positive/combo-path-ll0-cw0-tf0-ts0-cr*"}

func runWith(t *testing.T, flags ...string) (int, string, string) {
	t.Helper()
	args := append(append(append([]string(nil), smallRun...), flags...), "--")
	return conform(t, append(args, serveArgv()...)...)
}

// Two report flags naming one file are a usage error, and leave the file
// as it was (issue 30: --json F --junit F left neither format, exit 0).
func TestReportFlagsNamingOneFile(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "r")
	if err := os.WriteFile(f, []byte("previous"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	hard := filepath.Join(dir, "hard")
	if err := os.Symlink(f, link); err != nil {
		t.Skip("no symbolic links here")
	}
	if err := os.Link(f, hard); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, json, junit string }{
		{"one name", f, f},
		{"two spellings", f, filepath.Join(dir, "sub", "..", "r")},
		{"a symbolic link", f, link},
		{"a hard link", hard, f},
		{"a new file, two spellings", filepath.Join(dir, "new"), filepath.Join(dir, ".", "new")},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := runWith(t, "--json", c.json, "--junit", c.junit)
			if code != harness.ExitSetup || !strings.Contains(errOut, "name the same file") {
				t.Errorf("exit %d, want 2 naming the same file\n%s%s", code, out, errOut)
			}
			if b, _ := os.ReadFile(f); string(b) != "previous" {
				t.Errorf("the file was changed: %q", b)
			}
		})
	}
}

// A report file is written to a new file and renamed: until the run ends
// the previous report is as it was; the permissions of the file it
// replaces are kept; no new file is left behind; a write error leaves
// every report file as it was and is never followed by PASS (issue 30:
// --json /dev/full exited 2 while the human report said PASS).
func TestReportFilesReplacedWhole(t *testing.T) {
	dir := t.TempDir()
	jsonFile, junitFile := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.xml")
	for _, f := range []string{jsonFile, junitFile} {
		if err := os.WriteFile(f, []byte("previous"), 0o640); err != nil {
			t.Fatal(err)
		}
	}
	// Opened, as before a run, then abandoned, as by a run killed before
	// its end: nothing changed, nothing left.
	r, err := openReports(os.Stdout, os.Stderr, jsonFile, junitFile)
	if err != nil {
		t.Fatal(err)
	}
	r.close()
	checkDir := func(want ...string) {
		t.Helper()
		entries, _ := os.ReadDir(dir)
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		if strings.Join(names, " ") != strings.Join(want, " ") {
			t.Errorf("the directory holds %q, want %q", names, want)
		}
	}
	for _, f := range []string{jsonFile, junitFile} {
		if b, _ := os.ReadFile(f); string(b) != "previous" {
			t.Fatalf("%s changed before the run's end: %q", f, b)
		}
	}
	checkDir("r.json", "r.xml")

	if _, err := os.Stat("/dev/full"); err == nil {
		// A machine report that cannot be written: the report files are
		// left as they were, the human report says why, exit status 2.
		code, out, errOut := runWith(t, "--json", jsonFile, "--junit", "/dev/full")
		if code != harness.ExitSetup || strings.Contains(out, "PASS") || !strings.Contains(out, "ERROR: writing the JUnit report to /dev/full") {
			t.Errorf("--junit /dev/full: exit %d\n%s%s", code, out, errOut)
		}
		if b, _ := os.ReadFile(jsonFile); string(b) != "previous" {
			t.Errorf("the JSON report was replaced though the JUnit one failed: %.40q", b)
		}
		code, out, _ = runWith(t, "--json", "/dev/full")
		if code != harness.ExitSetup || strings.Contains(out, "PASS") || !strings.Contains(out, "CONFORM ERROR (not the testee's): writing the JSON report to /dev/full") {
			t.Errorf("--json /dev/full: exit %d\n%s", code, out)
		}
		checkDir("r.json", "r.xml")
	}

	code, out, errOut := runWith(t, "--json", jsonFile, "--junit", junitFile)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	readReport(t, jsonFile)
	for _, f := range []string{jsonFile, junitFile} {
		if fi, err := os.Stat(f); err != nil || fi.Mode().Perm() != 0o640 {
			t.Errorf("%s: %v, %v; want the permissions of the file it replaced", f, fi.Mode(), err)
		}
	}
	checkDir("r.json", "r.xml")
}

// Two runs writing one report file at once leave one whole report.
func TestConcurrentRunsShareAReportFile(t *testing.T) {
	jsonFile := filepath.Join(t.TempDir(), "r.json")
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			if code, out, errOut := runWith(t, "--json", jsonFile); code != 0 {
				t.Errorf("exit %d\n%s%s", code, out, errOut)
			}
		})
	}
	wg.Wait()
	b, err := os.ReadFile(jsonFile)
	if err != nil || !json.Valid(b) {
		t.Errorf("%v; the report is not one JSON document: %.80q", err, b)
	}
}
