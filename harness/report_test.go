package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/threespec/conformance/harness/harnesstest"
	"github.com/threespec/conformance/internal/allspecs"
	"github.com/threespec/conformance/vectorset"
)

// mixedReport runs a suite with every verdict against the test testee.
func mixedReport(t *testing.T) *Report {
	t.Helper()
	vecs := []harnesstest.Vector{
		{Name: "pass", Input: `ok:{"form":"blob","hash":"B.x.H3"}`, Result: `{"form":"blob"}`, Rules: []string{"LACE-BLOB-01"}},
		{Name: "wrong-result", Input: `ok:{"form":"plex"}`, Result: `{"form":"blob"}`, Rules: []string{"LACE-BLOB-01"}, Tags: []string{"decision"}},
		{Name: "wrong-code", Input: "reject:OTHER", Expect: vectorset.Reject, Code: "BAD_ENCODING", Rules: []string{"HR-BLOB-06", "HR-CAT-06"}},
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
		"FAIL lace/negative/wrong-code  [MUST HR-BLOB-06 HR-CAT-06 (project-defined)]",
		`expected code "BAD_ENCODING", got "OTHER"`,
		"testee failure (exited)",
		"  stderr    | harnesstest: crashing on purpose",
		"does not claim operation lace.chunks",
		"MUST rules:",
		"LACE-BLOB-01     FAIL   1 passed, 1 failed",
		"HR-CAT-06        FAIL   1 failed  (project-defined)",
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

	var back Report
	decodeReport(t, rep, WriteJSON, json.Unmarshal, &back)
	if back.Format != ReportFormat || back.Counts != rep.Counts || len(back.Vectors) != 6 || back.Suites[0].SetHash != rep.Suites[0].SetHash || back.ExitCode != ExitFail {
		t.Errorf("the JSON report does not round-trip: %+v", back.Counts)
	}
	// Project-defined rules are marked in the JSON report too: on the
	// vector and in the rule summary.
	for _, v := range back.Vectors {
		if v.ID == "lace/negative/wrong-code" && (len(v.ProjectDefined) != 1 || v.ProjectDefined[0] != "HR-CAT-06") {
			t.Errorf("the JSON vector wrong-code names project-defined rules %v, want [HR-CAT-06]", v.ProjectDefined)
		}
	}
	for _, s := range back.Rules {
		if (s.ProjectDefined != "") != (s.Rule == "HR-CAT-06") {
			t.Errorf("the JSON rule summary of %s has project_defined %q", s.Rule, s.ProjectDefined)
		}
	}

	var x junitSuites
	decodeReport(t, rep, WriteJUnit, xml.Unmarshal, &x)
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
		if tc.Name == "lace/negative/wrong-code" && (tc.Failure == nil || !strings.Contains(tc.Failure.Text, "rules:    HR-BLOB-06 HR-CAT-06 (project-defined) (MUST)")) {
			t.Errorf("wrong-code testcase does not mark the project-defined rule: %+v", tc.Failure)
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

// An aborted run (hello failed) reports its rules as not run in all three
// reports, never as passed (issue 17).
func TestAbortedRunReportsRulesNotRun(t *testing.T) {
	suites := synthetic(t, []harnesstest.Vector{
		{Name: "a", Input: "ok:{}", Rules: []string{"LACE-BLOB-01"}},
		{Name: "b", Input: "ok:{}", Rules: []string{"LACE-BLOB-02"}},
	})
	tt, err := StartTestee(self("testee", "-badhello"), TesteeOptions{Timeout: time.Second, HelloTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer tt.Impl.Close()
	rep := Run(context.Background(), Config{Specs: allspecs.Set(), Suites: suites, Impl: tt.Impl, Stderr: tt.Stderr})
	if rep.Aborted == "" || rep.Counts.NotRun != 2 || len(rep.Rules) != 2 {
		t.Fatalf("aborted %q, counts %+v, %d rules", rep.Aborted, rep.Counts, len(rep.Rules))
	}

	var text bytes.Buffer
	if err := WriteText(&text, rep, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	out := text.String()
	for _, want := range []string{"MUST rules: 2 rules, 0 tested, 2 not run", "all 2 not run (none of their vectors ran)", "2 not run"} {
		if !strings.Contains(out, want) {
			t.Errorf("the human report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "passed or did not apply") || strings.Contains(out, "PASS") {
		t.Errorf("the human report of an aborted run says passed:\n%s", out)
	}

	var back struct {
		Rules []struct {
			Rule    string         `json:"rule"`
			Verdict string         `json:"verdict"`
			Counts  map[string]int `json:"counts"`
		} `json:"rules"`
		Vectors []struct {
			Status string `json:"status"`
		} `json:"vectors"`
	}
	decodeReport(t, rep, WriteJSON, json.Unmarshal, &back)
	for _, r := range back.Rules {
		if r.Verdict != "not-run" || r.Counts["not-run"] != 1 || r.Counts["pass"] != 0 {
			t.Errorf("JSON rule %+v", r)
		}
	}
	for _, v := range back.Vectors {
		if v.Status != "not-run" {
			t.Errorf("JSON vector status %q", v.Status)
		}
	}

	var x junitSuites
	decodeReport(t, rep, WriteJUnit, xml.Unmarshal, &x)
	if x.Tests != 2 || x.Errors != 2 || x.Failures != 0 || x.Skipped != 0 {
		t.Errorf("junit totals tests %d errors %d failures %d skipped %d", x.Tests, x.Errors, x.Failures, x.Skipped)
	}
	for _, tc := range x.Suites[0].Cases {
		if tc.Error == nil || tc.Error.Type != "not-run" {
			t.Errorf("junit testcase %+v", tc)
		}
	}
}

// A run that stops part way says which rules did not run, or only partly,
// and says passed only of rules whose vectors all ran.
func TestPartlyRunRules(t *testing.T) {
	rep := &Report{Vectors: []*VectorResult{
		{ID: "v1", Level: "MUST", Rules: []string{"LACE-BLOB-01"}, Status: Pass},
		{ID: "v2", Level: "MUST", Rules: []string{"LACE-BLOB-01", "LACE-BLOB-02"}, Status: NotRun},
		{ID: "v3", Level: "MUST", Rules: []string{"LACE-BLOB-03"}, Status: Pass},
		{ID: "v4", Level: "MUST", Rules: []string{"LACE-BLOB-04"}, Status: NotApplicable},
	}, Interrupted: true}
	rep.finish(allspecs.Set())
	var text bytes.Buffer
	if err := WriteText(&text, rep, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	out := text.String()
	for _, want := range []string{
		"MUST rules: 4 rules, 2 tested, 1 did not apply, 1 not run",
		"  1 rule that passed",
		"  and 1 more rule that passed as far as their vectors ran (some did not run)",
		"  and 1 more rule that did not apply (no vector of them applied)",
		"  and 1 more rule none of whose vectors ran",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the human report lacks %q:\n%s", want, out)
		}
	}
}

// decodeReport writes rep with write (WriteJSON or WriteJUnit), fails the
// test on an error, and decodes the output with unmarshal into v.
func decodeReport(t *testing.T, rep *Report, write func(io.Writer, *Report) error, unmarshal func([]byte, any) error, v any) {
	t.Helper()
	var b bytes.Buffer
	if err := write(&b, rep); err != nil {
		t.Fatal(err)
	}
	if err := unmarshal(b.Bytes(), v); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
}
