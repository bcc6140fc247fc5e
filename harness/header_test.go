package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/threespec/conformance/harness/harnesstest"
	"github.com/threespec/conformance/internal/allspecs"
	"github.com/threespec/conformance/testee"
)

// An answer's digest covers its outcome, code, rule and result, not the
// white space between the result's tokens nor the detail.
func TestAnswerDigest(t *testing.T) {
	acc := func(result string) testee.Response {
		return testee.Response{Outcome: testee.Accepted, Result: json.RawMessage(result)}
	}
	rej := func(code, rule, detail string) testee.Response {
		return testee.Response{Outcome: testee.Rejected, Code: code, Rule: rule, Detail: detail}
	}
	for _, tt := range []struct {
		name string
		a, b testee.Response
		same bool
	}{
		{"white space", acc(`{"a": [1, 2],` + "\n\t" + `"b" :"x y"}`), acc(`{"a":[1,2],"b":"x y"}`), true},
		{"space in a string", acc(`{"b":"x y"}`), acc(`{"b":"xy"}`), false},
		{"escaped quote", acc(`{"b":"x\" y"}`), acc(`{"b":"x\"y"}`), false},
		{"member order", acc(`{"a":1,"b":2}`), acc(`{"b":2,"a":1}`), false},
		{"detail", rej("X", "R", "at /tmp/a"), rej("X", "R", "at /tmp/b"), true},
		{"code", rej("X", "R", ""), rej("Y", "R", ""), false},
		{"rule", rej("X", "R", ""), rej("X", "S", ""), false},
		{"outcome", acc(`{}`), testee.Response{Outcome: testee.Unsupported}, false},
		{"long result", acc(`{"x":"` + strings.Repeat("a ", 5000) + `"}`), acc(`{ "x" : "` + strings.Repeat("a ", 5000) + `" }`), true},
	} {
		if got := answerDigest(tt.a) == answerDigest(tt.b); got != tt.same {
			t.Errorf("%s: same digest %v, want %v", tt.name, got, tt.same)
		}
	}
}

// Every report opens with the header that pins the run (issue 32): set
// hashes, conform's build, the implementation block, what hello
// declared, start, end and the results digest over (ID, outcome, answer
// digest).
func TestReportHeader(t *testing.T) {
	hello := `{"protocol":1,"implementation":{"name":"pinned","version":"2.1","language":"Zig 0.14","source":"https://example.org/pinned","data":{"unicode":"17.0.0"}},"ops":["lace.record"],"profiles":[],"limits":{},"capabilities":["x-cap"],"readings":{}}`
	impl := doFunc(func(ctx context.Context, req testee.Request) (testee.Response, error) {
		if req.Op == testee.OpHello {
			return testee.Response{ID: req.ID, Outcome: testee.Accepted, Result: json.RawMessage(hello)}, nil
		}
		return directed().Do(ctx, req)
	})
	vecs := []harnesstest.Vector{{Name: "a", Input: "ok"}, {Name: "b", Input: "reject:X:"}}
	rep := Run(context.Background(), Config{Specs: allspecs.Set(), Suites: synthetic(t, vecs), Impl: impl, Args: []string{"--suite=lace"},
		Testee: TesteeInfo{Command: []string{"pinned", "--serve"}, Mode: "persistent"}})
	h := rep.Header
	if h == nil {
		t.Fatal("no header")
	}
	if h.SetHashes["lace"] != rep.Suites[0].SetHash || h.Conform.Go == "" || h.Conform.Module == "" || strings.Join(h.Args, " ") != "--suite=lace" ||
		h.Implementation == nil || h.Implementation.Version != "2.1" || h.Implementation.Data["unicode"] != "17.0.0" ||
		strings.Join(h.Capabilities, ",") != "x-cap" || strings.Join(h.Ops, ",") != "lace.record" || h.Ended.Before(h.Started) {
		t.Errorf("header %+v", h)
	}
	if h.ResultsDigest != ResultsDigest(rep.Vectors) || len(h.ResultsDigest) != 64 {
		t.Errorf("results digest %q", h.ResultsDigest)
	}
	a, b := byID(t, rep, "a"), byID(t, rep, "b")
	if a.AnswerDigest == "" || b.AnswerDigest == "" || a.AnswerDigest == b.AnswerDigest {
		t.Errorf("answer digests %q %q", a.AnswerDigest, b.AnswerDigest)
	}
	// The digest changes with an outcome.
	was := h.ResultsDigest
	a.Status = Fail
	if ResultsDigest(rep.Vectors) == was {
		t.Error("the results digest does not change with an outcome")
	}
	a.Status = Pass

	var text bytes.Buffer
	WriteText(&text, rep, TextOptions{})
	for _, want := range []string{
		"testee:      pinned 2.1 (Zig 0.14); claims 1 operation; profiles: none\n             source https://example.org/pinned; data unicode 17.0.0\n",
		"capabilities: x-cap\n",
		"conform:     " + h.Conform.String() + "\n",
		"results:     digest " + was,
		"run:         started " + h.Started.Format("2006-01-02T15:04:05Z07:00"),
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the human report lacks %q:\n%s", want, text.String())
		}
	}
	var js bytes.Buffer
	WriteJSON(&js, rep)
	if !strings.HasPrefix(js.String(), "{\n  \"format\": \"threespec-conform-report/1\",\n  \"header\": {") {
		t.Errorf("the JSON report does not open with the header:\n%.300s", js.String())
	}
	var back Report
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || back.Header == nil || back.Header.ResultsDigest != was || back.Header.Implementation.Name != "pinned" {
		t.Errorf("the JSON header: %v %+v", err, back.Header)
	}
	var x junitSuites
	decodeReport(t, rep, WriteJUnit, xml.Unmarshal, &x)
	props := map[string]string{}
	for _, p := range x.Suites[0].Properties {
		props[p.Name] = p.Value
	}
	for k, want := range map[string]string{"results-digest": was, "implementation-version": "2.1", "conform-go": h.Conform.Go,
		"set-hashes": "lace " + rep.Suites[0].SetHash, "capabilities": "x-cap", "args": "--suite=lace"} {
		if props[k] != want {
			t.Errorf("JUnit property %s = %q, want %q", k, props[k], want)
		}
	}
}
