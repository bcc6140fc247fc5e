//go:build unix

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"testing"

	"github.com/threespec/conformance/harness/harnesstest"
	"github.com/threespec/conformance/internal/allspecs"
	"github.com/threespec/conformance/vectorset"
)

// The runner's peak RSS a report prints is the run's true peak, the
// writing of the reports included, and what a testee sends is bounded in
// the reports (issue 30, item 3): 24 vectors rejected with a code, rule
// and detail of 1 MiB each. Before, each was kept (got, reason, note) and the
// JSON report built whole in memory: reports of tens of MB, and a peak
// taken before they were written (the issue measured it 8-fold short).
func TestPeakRSSCoversTheReports(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the peak RSS is read from getrusage, in KiB on Linux")
	}
	root := t.TempDir()
	var vecs []harnesstest.Vector
	for i := range 24 {
		vecs = append(vecs, harnesstest.Vector{Name: "v" + string(rune('a'+i)), Input: "long:1048576", Expect: vectorset.Reject, Code: "X", Rules: []string{"LACE-BLOB-01"}})
	}
	vdir, err := harnesstest.WriteSuite(root, allspecs.Synthetic(), vecs)
	if err != nil {
		t.Fatal(err)
	}
	jsonFile, junitFile := filepath.Join(root, "r.json"), filepath.Join(root, "r.xml")
	peakFile := filepath.Join(root, "peak")
	cmd := exec.Command(os.Args[0], "conform-peak", "run", "-q", "-j", "1", "--vectors", vdir, "--json", jsonFile, "--junit", junitFile, "--",
		os.Args[0], "testee")
	cmd.Env = append(os.Environ(), "CONFORM_PEAK_FILE="+peakFile)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 1 {
		t.Fatalf("conform: %v\n%s%s", err, out.String(), errOut.String())
	}
	b, err := os.ReadFile(peakFile)
	if err != nil {
		t.Fatal(err)
	}
	peak, _ := strconv.ParseInt(string(b), 10, 64) // conform's own, at its exit, the testee's not included
	rep := readReport(t, jsonFile)
	reported := rep.Times.RunnerMaxRSS
	if reported < peak-peak/20-(2<<20) {
		t.Errorf("the report says the runner's peak RSS was %.1f MiB; it was %.1f MiB", float64(reported)/(1<<20), float64(peak)/(1<<20))
	}
	for _, f := range []string{jsonFile, junitFile} {
		if st, err := os.Stat(f); err != nil || st.Size() > 1<<20 {
			t.Errorf("%s: %v, %d bytes", f, err, st.Size())
		}
	}
	if out.Len() > 1<<20 {
		t.Errorf("a human report of %d bytes", out.Len())
	}
	t.Logf("peak RSS %.1f MiB, reported %.1f MiB; reports: human %d bytes", float64(peak)/(1<<20), float64(reported)/(1<<20), out.Len())
}

// writePeakRSS writes this process's peak RSS in bytes to file.
func writePeakRSS(file string) {
	var ru syscall.Rusage
	if file == "" || syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return
	}
	os.WriteFile(file, []byte(strconv.FormatInt(int64(ru.Maxrss)<<10, 10)), 0o644)
}
