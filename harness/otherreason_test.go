package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"strings"
	"testing"

	"github.com/threespec/conformance/harness/harnesstest"
	"github.com/threespec/conformance/internal/allspecs"
	"github.com/threespec/conformance/testee"
	"github.com/threespec/conformance/vectorset"
)

// directed is an in-process testee that answers each vector as its input
// says: "ok" accepts with {}, "reject:CODE:RULE" rejects with that code and
// (when not empty) that rule.
func directed() testee.Implementation {
	return doFunc(func(_ context.Context, req testee.Request) (testee.Response, error) {
		if req.Op == testee.OpHello {
			return testee.Response{ID: req.ID, Outcome: testee.Accepted, Result: json.RawMessage(`{"protocol":1,"ops":["lace.record"],"profiles":[],"limits":{}}`)}, nil
		}
		verb, rest, _ := strings.Cut(string(req.Input), ":")
		if verb == "ok" {
			return testee.Response{ID: req.ID, Outcome: testee.Accepted, Result: json.RawMessage(`{}`)}, nil
		}
		code, rule, _ := strings.Cut(rest, ":")
		return testee.Response{ID: req.ID, Outcome: testee.Rejected, Code: code, Rule: rule}, nil
	})
}

// A negative rejected for another rule than the vector's, named by the
// answer's rule or by its code, "passed, other reason" (issue 32): its own
// status in every report, counted apart, and the run still passes.
func TestPassedOtherReason(t *testing.T) {
	rej := vectorset.Reject
	cases := []struct {
		name, input string
		rules       []string
		code        string
		want        Status
		why         string // in OtherReason
	}{
		{"own-rule", "reject:X:LACE-BLOB-02", []string{"LACE-BLOB-02"}, "", Pass, ""},
		{"second-rule", "reject:X:LACE-BLOB-03", []string{"LACE-BLOB-02", "LACE-BLOB-03"}, "", Pass, ""},
		{"no-rule", "reject:X:", []string{"LACE-BLOB-02"}, "", Pass, ""},
		{"other-rule", "reject:X:LACE-BLOB-04", []string{"LACE-BLOB-02"}, "", PassOther, "named rule LACE-BLOB-04"},
		{"code-is-own-rule", "reject:LACE-BLOB-02:", []string{"LACE-BLOB-02"}, "", Pass, ""},
		{"code-is-other-rule", "reject:LACE-BLOB-04:", []string{"LACE-BLOB-02"}, "", PassOther, "code LACE-BLOB-04 is the ID of another rule"},
		{"code-unknown-rule", "reject:LACE-NOPE-99:", []string{"LACE-BLOB-02"}, "", Pass, ""},
		{"named-code-other-rule", "reject:BAD:LACE-BLOB-04", []string{"LACE-BLOB-02"}, "BAD", PassOther, "named rule LACE-BLOB-04"},
		{"wrong-code", "reject:WORSE:LACE-BLOB-04", []string{"LACE-BLOB-02"}, "BAD", Fail, ""},
	}
	var vecs []harnesstest.Vector
	for _, c := range cases {
		vecs = append(vecs, harnesstest.Vector{Name: c.name, Input: c.input, Expect: rej, Code: c.code, Rules: c.rules})
	}
	vecs = append(vecs, harnesstest.Vector{Name: "accepted", Input: "ok"})
	rep := Run(context.Background(), Config{Specs: allspecs.Set(), Suites: synthetic(t, vecs), Impl: directed(), Testee: TesteeInfo{Command: []string{"directed"}, Mode: "persistent"}})
	for _, c := range cases {
		v := byID(t, rep, c.name)
		if v.Status != c.want || !strings.Contains(v.OtherReason, c.why) || (c.why == "") != (v.OtherReason == "") {
			t.Errorf("%s: status %s, other reason %q; want %s, %q", c.name, v.Status, v.OtherReason, c.want, c.why)
		}
	}
	if c := rep.Counts; c.PassedOther != 3 || c.Passed != 6 || c.Failed != 1 {
		t.Errorf("counts %+v; want 3 passed for another reason, 6 passed, 1 failed", c)
	}
	for _, s := range rep.Rules {
		if s.Rule == "LACE-BLOB-02" && s.Counts[PassOther] != 3 {
			t.Errorf("rule LACE-BLOB-02 counts %v", s.Counts)
		}
	}

	var text bytes.Buffer
	if err := WriteText(&text, rep, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Passed, other reason (rejected as expected, but for another rule",
		"PASS-OTHER lace/negative/other-rule  [MUST LACE-BLOB-02]\n  why       the testee named rule LACE-BLOB-04; the vector tests LACE-BLOB-02",
		"6 passed (and 3 passed for another reason), 1 failed",
		"3 passed for another reason",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the human report lacks %q:\n%s", want, text.String())
		}
	}
	var back Report
	decodeReport(t, rep, WriteJSON, json.Unmarshal, &back)
	if back.Counts.PassedOther != 3 || byIDIn(back.Vectors, "other-rule").Status != PassOther {
		t.Errorf("the JSON report: counts %+v", back.Counts)
	}
	var x junitSuites
	decodeReport(t, rep, WriteJUnit, xml.Unmarshal, &x)
	props := map[string]string{}
	for _, p := range x.Suites[0].Properties {
		props[p.Name] = p.Value
	}
	if props["passed-other-reason"] != "3" || x.Failures != 1 {
		t.Errorf("junit: properties %v, %d failures", props, x.Failures)
	}
	for _, tc := range x.Suites[0].Cases {
		if strings.HasSuffix(tc.Name, "/code-is-other-rule") && (tc.Failure != nil || !strings.HasPrefix(tc.SystemOut, "PASSED, OTHER REASON: ")) {
			t.Errorf("junit testcase %+v", tc)
		}
	}

	// Only passes for another reason: the run passes.
	only := Run(context.Background(), Config{Specs: allspecs.Set(), Impl: directed(), Testee: TesteeInfo{Command: []string{"directed"}},
		Suites: synthetic(t, []harnesstest.Vector{{Name: "other-rule", Input: "reject:X:LACE-BLOB-04", Expect: rej, Rules: []string{"LACE-BLOB-02"}}})})
	if only.ExitCode != ExitPass || only.Rules[0].Verdict != PassOther {
		t.Errorf("a run whose one vector passed for another reason: exit %d, rule verdict %s", only.ExitCode, only.Rules[0].Verdict)
	}
}

// A rule entry of the expected-failures file does not turn a pass for
// another reason into an unexpected pass: the testee rejected the vector
// for another rule, as the entry says of a missing check.
func TestPassedOtherReasonUnderRuleEntry(t *testing.T) {
	suites := synthetic(t, []harnesstest.Vector{
		{Name: "other-rule", Input: "reject:X:LACE-BLOB-04", Expect: vectorset.Reject, Rules: []string{"LACE-BLOB-02"}},
		{Name: "missed", Input: "ok", Expect: vectorset.Reject, Rules: []string{"LACE-BLOB-02"}},
	})
	ex, err := ParseExpectations(allspecs.Set(), strings.NewReader("LACE-BLOB-02  not checked\n"), "x.txt")
	if err != nil {
		t.Fatal(err)
	}
	rep := Run(context.Background(), Config{Specs: allspecs.Set(), Suites: suites, Impl: directed(), Expect: ex, Testee: TesteeInfo{Command: []string{"directed"}}})
	if got := fmt.Sprintln(byID(t, rep, "other-rule").Status, byID(t, rep, "missed").Status, len(rep.Expectations)); got != "pass-other xfail 0\n" {
		t.Errorf("statuses and problems %s; want pass-other xfail 0", got)
	}
}

func byIDIn(vs []*VectorResult, name string) *VectorResult {
	for _, v := range vs {
		if strings.HasSuffix(v.ID, "/"+name) {
			return v
		}
	}
	return &VectorResult{}
}
