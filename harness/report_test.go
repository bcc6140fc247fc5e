package harness

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"
	"time"

	"github.com/threespec/conformance/harness/harnesstest"
	"github.com/threespec/conformance/vectorset"
)

// mixedReport runs a suite with every verdict against the test testee.
func mixedReport(t *testing.T) *Report {
	t.Helper()
	vecs := []harnesstest.Vector{
		{Name: "pass", Input: `ok:{"form":"blob","hash":"B.x.H3"}`, Result: `{"form":"blob"}`, Rules: []string{"LACE-BLOB-01"}},
		{Name: "wrong-result", Input: `ok:{"form":"plex"}`, Result: `{"form":"blob"}`, Rules: []string{"LACE-BLOB-01"}, Tags: []string{"decision"}},
		{Name: "wrong-code", Input: "reject:OTHER", Expect: vectorset.Reject, Code: "BAD_ENCODING", Rules: []string{"HR-BLOB-06"}},
		{Name: "should", Input: "ok:{}", Expect: vectorset.Reject, Level: "SHOULD", Rules: []string{"LACE-TEST-09"}, Tags: []string{"code-decision", "decision"}},
		{Name: "na", Op: "lace.chunks", Input: "ok:{}"},
		{Name: "crash", Input: "crash"},
	}
	return external(t, synthetic(t, vecs), TesteeOptions{Timeout: 5 * time.Second})
}

func TestReports(t *testing.T) {
	rep := mixedReport(t)
	if rep.ExitCode != ExitFail {
		t.Fatalf("exit %d", rep.ExitCode)
	}
	c := rep.Counts
	if c.Selected != 6 || c.Passed != 1 || c.Failed != 3 || c.TesteeFailures != 1 || c.Warnings != 1 || c.NotApplicable != 1 {
		t.Errorf("counts %+v", c)
	}

	var text bytes.Buffer
	if err := WriteText(&text, rep, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	out := text.String()
	for _, want := range []string{
		"set hash " + rep.Suites[0].SetHash,
		"FAIL lace/positive/wrong-result  [MUST LACE-BLOB-01]  (project decision)\n" +
			"  decision  project decision: the expectation is the project's reading where the specification is silent or open, not a statement of it (docs/lace.md)\n" +
			"  vector    lace.record",
		"LACE-BLOB-01     FAIL   1 passed, 1 failed",
		"                        lace/positive/wrong-result  (project decision)\n",
		"WARN lace/negative/should  [SHOULD LACE-TEST-09]  (project decision)\n" +
			"  decision  project decision: the expected code is the project's reading where the specification names none or several",
		"  expected  acceptance with result {\"form\":\"blob\"}",
		"  got       acceptance: {\"form\":\"plex\"}",
		"-expected +got", // the go-cmp diff
		"  rerun     rerun lace/positive/wrong-result",
		"FAIL lace/negative/wrong-code",
		`expected code "BAD_ENCODING", got "OTHER"`,
		"testee failure (exited)",
		"  stderr    | harnesstest: crashing on purpose",
		"does not claim operation lace.chunks",
		"MUST rules:",
		"LACE-BLOB-01     FAIL   1 passed, 1 failed",
		"SHOULD rules:",
		"FAIL: 3 failures (exit status 1)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the human report lacks %q:\n%s", want, out)
		}
	}
	for _, absent := range []string{"lace/positive/pass ", "FAIL lace/negative/wrong-code  [MUST HR-BLOB-06]  (project decision)", "lace/negative/wrong-code  (project decision)"} {
		if strings.Contains(out, absent) {
			t.Errorf("the human report lists a passing vector (%q) without -v", absent)
		}
	}
	text.Reset()
	WriteText(&text, rep, TextOptions{Verbose: true})
	if !strings.Contains(text.String(), "  PASS    lace/positive/pass") {
		t.Errorf("-v does not list every vector:\n%s", text.String())
	}

	var js bytes.Buffer
	if err := WriteJSON(&js, rep); err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if back.Format != ReportFormat || back.Counts != rep.Counts || len(back.Vectors) != 6 || back.Suites[0].SetHash != rep.Suites[0].SetHash || back.ExitCode != ExitFail {
		t.Errorf("the JSON report does not round-trip: %+v", back.Counts)
	}

	var ju bytes.Buffer
	if err := WriteJUnit(&ju, rep); err != nil {
		t.Fatal(err)
	}
	var x junitSuites
	if err := xml.Unmarshal(ju.Bytes(), &x); err != nil {
		t.Fatalf("%v\n%s", err, ju.String())
	}
	if x.Tests != 6 || x.Failures != 3 || x.Skipped != 1 || x.Errors != 0 || len(x.Suites) != 1 {
		t.Errorf("junit totals tests %d failures %d skipped %d errors %d", x.Tests, x.Failures, x.Skipped, x.Errors)
	}
	props := map[string]string{}
	for _, p := range x.Suites[0].Properties {
		props[p.Name] = p.Value
	}
	if props["set-hash"] != rep.Suites[0].SetHash {
		t.Errorf("junit properties %v", props)
	}
	for _, tc := range x.Suites[0].Cases {
		if tc.Name == "lace/positive/crash" && (tc.Failure == nil || tc.Failure.Type != "testee-failure/exited" || !strings.Contains(tc.SystemErr, "crashing")) {
			t.Errorf("crash testcase %+v", tc)
		}
		if tc.Name == "lace/positive/wrong-result" && (tc.Failure == nil || !strings.Contains(tc.Failure.Text, "\ndecision: project decision: the expectation is the project's reading")) {
			t.Errorf("decision testcase %+v", tc)
		}
		if tc.Name == "lace/negative/should" && !strings.HasPrefix(tc.SystemOut, "WARNING") {
			t.Errorf("should testcase %+v", tc)
		}
	}
}

func TestShellJoin(t *testing.T) {
	got := ShellJoin([]string{"go", "run", "./cmd/conform", "serve", "", "a b", "it's", "--x=1,2"})
	want := `go run ./cmd/conform serve '' 'a b' 'it'\''s' --x=1,2`
	if got != want {
		t.Errorf("%s\nwant %s", got, want)
	}
}

func TestProgressLine(t *testing.T) {
	var b bytes.Buffer
	update, clear := ProgressLine(&b)
	update(Progress{Done: 1, Total: 3, Failed: 1, Elapsed: time.Second})
	update(Progress{Done: 2, Total: 3})                                                        // within 100 ms of the last: not drawn
	update(Progress{Done: 3, Total: 3, Failed: 1, NotApplicable: 1, Elapsed: 2 * time.Second}) // the last is always drawn
	clear()
	want := "\r\033[Kconform: 1/3 vectors, 1 failed, 0 not applicable, 1.0s" +
		"\r\033[Kconform: 3/3 vectors, 1 failed, 1 not applicable, 2.0s" + "\r\033[K"
	if b.String() != want {
		t.Errorf("%q\nwant %q", b.String(), want)
	}
}
