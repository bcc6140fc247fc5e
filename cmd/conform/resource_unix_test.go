//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/threespec/conformance/harness"
)

// conform's own resources running out are conform's error, exit status 2,
// never the testee's (issue 30: under `ulimit -n 64` with -j 30, pipe2's
// EMFILE was the testee's start-failed, and the run exit status 3).
func TestOwnFileLimitIsConformsError(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	jsonFile := filepath.Join(t.TempDir(), "report.json")
	cmd := exec.Command("sh", "-c", `ulimit -n 64 && exec "$@"`, "sh",
		os.Args[0], "conform", "run", "--vectors", "../../vectors", "--suite", "libtracer", "-q", "-j", "30", "--json", jsonFile, "--")
	cmd.Args = append(cmd.Args, serveArgv()...)
	out, err := cmd.CombinedOutput()
	code := cmd.ProcessState.ExitCode()
	if code != harness.ExitSetup {
		t.Fatalf("exit %d (%v), want 2\n%s", code, err, lastLinesOf(string(out), 8))
	}
	for _, bad := range []string{"start-failed", "testee could not be run"} {
		if strings.Contains(string(out), bad) {
			t.Errorf("the report says %q\n%s", bad, lastLinesOf(string(out), 8))
		}
	}
	if !strings.Contains(string(out), "too many open files") || !strings.Contains(string(out), "ulimit -n, is 64") {
		t.Errorf("the report does not name conform's own limit\n%s", lastLinesOf(string(out), 8))
	}
	rep := readReport(t, jsonFile)
	if rep.Counts.TesteeFailures != 0 || !strings.Contains(rep.ConformError, "too many open files") {
		t.Errorf("testee failures %d, conform error %q", rep.Counts.TesteeFailures, rep.ConformError)
	}
}

func lastLinesOf(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(len(lines)-n, 0):], "\n")
}
