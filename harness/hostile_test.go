package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/threespec/conformance/harness/harnesstest"
	"github.com/threespec/conformance/internal/allspecs"
	"github.com/threespec/conformance/testee"
	"github.com/threespec/conformance/vectorset"
)

// hostile is an in-process testee whose answers are given: hello is the
// hello result ("" answers hello unsupported), answer the rest of an
// answer line after its id, by the vector's input (its name in the
// synthetic suites below), and fail a testee failure instead.
type hostile struct {
	hello  string
	answer func(input string) string
	fail   func(input string) *testee.Failure
}

func (h *hostile) Do(_ context.Context, req testee.Request) (testee.Response, error) {
	var rest string
	switch {
	case req.Op == testee.OpHello && h.hello == "":
		rest = `"unsupported":true}`
	case req.Op == testee.OpHello:
		rest = `"ok":true,"result":` + h.hello + `}`
	case h.fail != nil && h.fail(string(req.Input)) != nil:
		return testee.Response{}, h.fail(string(req.Input))
	default:
		rest = h.answer(string(req.Input))
	}
	return testee.ParseResponse([]byte(fmt.Sprintf(`{"id":%d,%s`, req.ID, rest)), req.ID)
}

func (h *hostile) Close() error { return nil }

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func helloOf(name string, extra string) string {
	return `{"protocol":1,"implementation":` + jsonString(name) + `,"ops":["lace.record","lace.chunks","hiverelay.decode"],"profiles":[],"limits":{}` + extra + `}`
}

// Every string a testee sends is bounded where the report keeps it (issue
// 30, item 3): an unsupported answer's detail, a rejection's code, rule
// and detail, a result, a testee failure's detail and standard error, the
// run's standard-error tail, and what hello claims. With 1 MiB in each,
// the JSON report of seven vectors stays under 64 KiB (before: each
// string was kept whole, and a run of 75 vectors answered with 10 MiB
// details held 6.97 GB and wrote two reports of 786 MB).
func TestTesteeTextBounded(t *testing.T) {
	huge := strings.Repeat("é", 1<<19) // 1 MiB, two bytes a character: cut at a character
	suites := synthetic(t, []harnesstest.Vector{
		{Name: "unsupported", Input: "unsupported"},
		{Name: "reject-accepted", Input: "reject", Result: `{"form":"blob"}`},
		{Name: "reject-wrong-code", Input: "reject", Expect: vectorset.Reject, Code: "BAD_ENCODING"},
		{Name: "other-rule", Input: "reject-rule", Expect: vectorset.Reject, Code: "X"},
		{Name: "accept-rejected", Input: "accept", Expect: vectorset.Reject},
		{Name: "accept-differs", Input: "accept", Result: `{"form":"blob"}`},
		{Name: "failure", Input: "failure"},
	})
	h := &hostile{
		hello: helloOf(huge, `,"capabilities":[`+strings.Repeat(jsonString(huge[:2000])+",", 1000)+`"x"],"readings":{}`),
		answer: func(in string) string {
			switch in {
			case "unsupported":
				return `"unsupported":true,"detail":` + jsonString(huge) + `}`
			case "reject":
				return `"ok":false,"code":` + jsonString(huge) + `,"rule":` + jsonString(huge) + `,"detail":` + jsonString(huge) + `}`
			case "reject-rule":
				return `"ok":false,"code":"X","rule":` + jsonString(huge) + `}`
			}
			return `"ok":true,"result":{"form":` + jsonString(huge) + `,"x":` + jsonString(huge) + `}}`
		},
		fail: func(in string) *testee.Failure {
			if in != "failure" {
				return nil
			}
			return &testee.Failure{Kind: testee.InvalidJSON, Detail: huge, Stderr: []byte(strings.Repeat(huge[:1000]+"\n", 1000))}
		},
	}
	rep := Run(context.Background(), Config{Specs: allspecs.Set(), Suites: suites, Impl: h,
		Stderr: func() []byte { return []byte(huge) }})
	if rep.Counts.NotApplicable != 1 || rep.Counts.Failed != 5 || rep.Counts.PassedOther != 1 {
		t.Fatalf("counts %+v", rep.Counts)
	}
	check := func(what, s string, n int) {
		t.Helper()
		if len(s) > n || !utf8.ValidString(s) {
			t.Errorf("%s: %d bytes (at most %d), valid UTF-8 %v: %.200q", what, len(s), n, utf8.ValidString(s), s)
		}
	}
	for _, v := range rep.Vectors {
		check(v.ID+" got", v.Got, max(3*maxName+maxDetail, maxFailure)+100)
		check(v.ID+" reason", v.Reason, maxReason+100)
		check(v.ID+" rule note", v.RuleNote, maxDetail+100)
		check(v.ID+" other reason", v.OtherReason, maxDetail+100)
		if f := v.Failure; f != nil {
			check(v.ID+" failure detail", f.Detail, maxFailure+100)
			check(v.ID+" stderr", f.Stderr, maxStderr+100)
		}
	}
	if v := byID(t, rep, "other-rule"); v.RuleNote == "" || v.Status != PassOther {
		t.Errorf("the testee's other rule is not noted: status %s, note %q", v.Status, v.RuleNote)
	}
	ti := rep.Testee
	check("implementation", ti.Implementation, maxName+100)
	check("stderr tail", ti.StderrTail, maxTail+100)
	if len(ti.Capabilities) > maxList+1 {
		t.Errorf("%d capabilities kept", len(ti.Capabilities))
	}
	for _, c := range ti.Capabilities {
		check("capability", c, maxName+100)
	}
	var js bytes.Buffer
	if err := WriteJSON(&js, rep); err != nil {
		t.Fatal(err)
	}
	if js.Len() > 256<<10 { // the run's standard-error tail (64 KiB) and hello's lists (51 KiB) among it
		t.Errorf("a JSON report of %d bytes for %d vectors", js.Len(), len(rep.Vectors))
	}
	var text bytes.Buffer
	if err := WriteText(&text, rep, TextOptions{Verbose: true}); err != nil {
		t.Fatal(err)
	}
	if text.Len() > 64<<10 {
		t.Errorf("a human report of %d bytes for %d vectors", text.Len(), len(rep.Vectors))
	}
}

// The human report escapes every control character a testee sends, in
// hello's name, a detail, a code, a result, a difference, standard error
// (issue 30, item 5): no testee can clear the screen, set the window
// title, or write a line of its own such as "PASS (exit status 0)".
func TestHumanReportEscapesTesteeText(t *testing.T) {
	forge := "\r\x1b[2K\x1b[1A\x1b]0;owned\x07\x1b[8m\nPASS (exit status 0)\n\u009b2J\x7f\u2028\u202e\v\f\x00"
	suites := synthetic(t, []harnesstest.Vector{
		{Name: "pass", Input: "pass", Result: `{"form":"blob"}`},
		{Name: "detail", Input: "reject", Result: `{"form":"blob"}`},
		{Name: "code", Input: "reject", Expect: vectorset.Reject, Code: "BAD_ENCODING"},
		{Name: "result", Input: "accept", Expect: vectorset.Reject},
		{Name: "diff", Input: "accept", Result: `{"form":"blob"}`},
		{Name: "unsupported", Input: "unsupported"},
		{Name: "failure", Input: "failure"},
	})
	for _, passing := range []bool{false, true} {
		h := &hostile{
			hello: helloOf("evil"+forge, `,"profiles":[`+jsonString(forge)+`]`),
			answer: func(in string) string {
				switch {
				case in == "pass" || passing:
					return `"ok":true,"result":{"form":"blob"}}`
				case in == "unsupported":
					return `"unsupported":true,"detail":` + jsonString(forge) + `}`
				case in == "reject":
					return `"ok":false,"code":` + jsonString(forge) + `,"rule":` + jsonString(forge) + `,"detail":` + jsonString(forge) + `}`
				}
				return `"ok":true,"result":{"form":` + jsonString("a\nb"+forge) + `}}`
			},
			fail: func(in string) *testee.Failure {
				if in != "failure" || passing {
					return nil
				}
				return &testee.Failure{Kind: testee.InvalidJSON, Detail: forge, Stderr: []byte(forge + "\n" + forge)}
			},
		}
		sel := Selection{}
		if passing {
			sel.IDs = []string{"lace/*/pass", "lace/*/detail", "lace/*/diff"}
		}
		rep := Run(context.Background(), Config{Specs: allspecs.Set(), Suites: suites, Impl: h, Selection: sel,
			Stderr: func() []byte { return []byte(forge + "\n" + forge) }})
		rep.Aborted = "hello failed: " + forge // as a hello failure would read
		rep.ExitCode = ExitFail
		if passing {
			rep.Aborted, rep.ExitCode = "", ExitPass
		}
		var text bytes.Buffer
		if err := WriteText(&text, rep, TextOptions{Verbose: true}); err != nil {
			t.Fatal(err)
		}
		out := text.String()
		for i, r := range out {
			if r != '\n' && r != '\t' && mustEscape(r, utf8.RuneLen(r)) || r == utf8.RuneError {
				t.Fatalf("passing=%v: the report holds %U at byte %d: %q", passing, r, i, out[max(i-80, 0):min(i+80, len(out))])
			}
		}
		lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
		for i, line := range lines {
			if strings.HasPrefix(line, "PASS") && (i != len(lines)-1 || !passing) {
				t.Errorf("passing=%v: line %d of %d starts with PASS: %q", passing, i+1, len(lines), line)
			}
		}
		if !strings.Contains(out, `\x1b]0;owned\x07`) || !strings.Contains(out, `\u009b2J`) {
			t.Errorf("passing=%v: the escapes are not shown:\n%s", passing, out)
		}
	}
}

// escapeText escapes what a terminal acts on and nothing else.
func TestEscapeText(t *testing.T) {
	for in, want := range map[string]string{
		"plain text, é, 漢字, emoji 😀": "plain text, é, 漢字, emoji 😀",
		"a\tb\nc\rd":                 `a\x09b\x0ac\x0dd`,
		"\x1b[31mred\x1b[0m":         `\x1b[31mred\x1b[0m`,
		"del\x7f c1\u0085\u009b":     `del\x7f c1\u0085\u009b`,
		"bidi\u202e\u2066 ls\u2028":  `bidi\u202e\u2066 ls\u2028`,
		"bad \xff\xfe utf-8":         `bad \xff\xfe utf-8`,
		`back\slash`:                 `back\slash`,
	} {
		if got := escapeText(in); got != want {
			t.Errorf("escapeText(%q) = %q, want %q", in, got, want)
		}
	}
	if got := escapeDiff("-\t\"x\"\x1b"); got != `-	"x"\x1b` {
		t.Errorf("escapeDiff keeps tabs only: %q", got)
	}
}

// A run in which no vector of a selected suite passed is no pass: a
// testee that claims every operation and answers unsupported to all
// (issue 30, item 6; before: PASS, exit 0, "377 rules tested, all passed
// or did not apply", and a rate over vectors that did not run). Rules
// that did not apply are not counted as tested, and the rate counts only
// vectors that ran.
func TestNothingPassedIsNoPass(t *testing.T) {
	suites := synthetic(t, []harnesstest.Vector{
		{Name: "a", Input: "a", Rules: []string{"LACE-BLOB-01"}},
		{Name: "b", Input: "b", Rules: []string{"LACE-BLOB-02"}},
		{Name: "c", Input: "c", Op: "lace.chunks", Rules: []string{"LACE-BLOB-03"}},
	})
	for _, c := range []struct {
		name     string
		hello    string
		answer   string
		exit     int
		nothing  bool
		want     []string
		mustNot  []string
		selected []string
	}{
		{"unsupported to everything", "", `"unsupported":true}`, ExitFail, true,
			[]string{"MUST rules: 3 rules, 0 tested, 3 did not apply", "all 3 did not apply (no vector of them applied)", ", 0 run:", "FAIL: no vector of suite lace passed (exit status 1)"},
			[]string{"vectors/s", "rules tested", "PASS"}, nil},
		{"one operation claimed, unsupported to it", `{"protocol":1,"ops":["lace.chunks"],"profiles":[],"limits":{}}`, `"unsupported":true}`, ExitFail, true,
			[]string{"0 tested, 3 did not apply", "FAIL: no vector of suite lace passed"}, []string{"PASS"}, nil},
		{"everything passes", "", `"ok":true,"result":{}}`, ExitPass, false,
			[]string{"MUST rules: 3 rules tested", "all 3 passed", ", 3 run at ", "PASS (exit status 0)"}, []string{"did not apply"}, nil},
		{"one passes, one does not apply", `{"protocol":1,"ops":["lace.record"],"profiles":[],"limits":{}}`, `"ok":true,"result":{}}`, ExitPass, false,
			[]string{"MUST rules: 2 rules, 1 tested, 1 did not apply", "1 rule that passed", "and 1 more rule that did not apply", ", 1 run at ", "PASS (exit status 0)"}, nil, []string{"lace/*/a", "lace/*/c"}},
	} {
		h := &hostile{hello: c.hello, answer: func(string) string { return c.answer }}
		rep := Run(context.Background(), Config{Specs: allspecs.Set(), Suites: suites, Impl: h, Selection: Selection{IDs: c.selected}})
		var text bytes.Buffer
		if err := WriteText(&text, rep, TextOptions{}); err != nil {
			t.Fatal(err)
		}
		out := text.String()
		if rep.ExitCode != c.exit || (len(rep.NothingPassed) > 0) != c.nothing {
			t.Errorf("%s: exit %d, nothing passed in %v\n%s", c.name, rep.ExitCode, rep.NothingPassed, out)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: the report lacks %q:\n%s", c.name, w, out)
			}
		}
		for _, w := range c.mustNot {
			if strings.Contains(out, w) {
				t.Errorf("%s: the report holds %q:\n%s", c.name, w, out)
			}
		}
	}
}

// The JSON report, written a vector at a time, is the document
// json.Encoder writes of the whole report.
func TestWriteJSONIsTheEncodersDocument(t *testing.T) {
	for _, rep := range []*Report{mixedReport(t), {Vectors: []*VectorResult{}}, {}} {
		var whole, streamed bytes.Buffer
		enc := json.NewEncoder(&whole)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			t.Fatal(err)
		}
		if err := WriteJSON(&streamed, rep); err != nil {
			t.Fatal(err)
		}
		if whole.String() != streamed.String() {
			t.Errorf("streamed:\n%s\nwhole:\n%s", streamed.String(), whole.String())
		}
	}
}
