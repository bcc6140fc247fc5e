package harness

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/threespec/conformance/internal/allspecs"
	"github.com/threespec/conformance/reference"
	"github.com/threespec/conformance/testee"
)

// brokenAdapter is a persistent-mode testee whose adapter has one
// deliberate defect in front of the reference (`TESTBINARY broken KIND`):
//
//	raw-input     "input" used as it is, not base64-decoded
//	id-zero       every answer carries id 0
//	id-int32      ids cut to 32 bits
//	stdout-log    a log line on standard output before each answer
//	scanner       lines read with bufio.Scanner's default 64 KiB limit
//	ok-always     an unknown operation answered ok:true
//	reject-op     an unknown operation answered ok:false
//	ignore-path   claims input-path, then reads "input" (absent) instead
//	none          no defect
func brokenAdapter(kind string, stdin io.Reader, stdout io.Writer) int {
	ref := reference.New(allspecs.Set())
	w := bufio.NewWriter(stdout)
	var next func() ([]byte, bool)
	if kind == "scanner" {
		sc := bufio.NewScanner(stdin)
		next = func() ([]byte, bool) { ok := sc.Scan(); return sc.Bytes(), ok }
	} else {
		br := bufio.NewReader(stdin)
		next = func() ([]byte, bool) {
			line, err := br.ReadBytes('\n')
			return line, err == nil || len(line) > 0
		}
	}
	for {
		line, ok := next()
		if !ok {
			return 0
		}
		var req struct {
			ID        int64           `json:"id"`
			Op        string          `json:"op"`
			Args      json.RawMessage `json:"args"`
			Input     string          `json:"input"`
			InputPath string          `json:"input_path"`
		}
		if err := json.Unmarshal(line, &req); err != nil {
			fmt.Fprintln(os.Stderr, "broken adapter:", err)
			return 1
		}
		var input []byte
		switch {
		case req.InputPath != "" && kind != "ignore-path":
			input, _ = os.ReadFile(req.InputPath)
		case kind == "raw-input":
			input = []byte(req.Input)
		default:
			input, _ = base64.StdEncoding.DecodeString(req.Input)
		}
		resp, err := ref.Do(context.Background(), testee.Request{ID: req.ID, Op: req.Op, Args: req.Args, Input: input})
		if err != nil {
			fmt.Fprintln(os.Stderr, "broken adapter:", err)
			return 1
		}
		unknown := !strings.HasPrefix(req.Op, "hello") && resp.Outcome == testee.Unsupported
		switch {
		case kind == "ok-always" && unknown:
			resp = testee.Response{Outcome: testee.Accepted, Result: json.RawMessage(`{}`)}
		case kind == "reject-op" && unknown:
			resp = testee.Response{Outcome: testee.Rejected, Code: "BAD_OP"}
		case kind == "ignore-path" && req.Op == testee.OpHello:
			var h map[string]any
			json.Unmarshal(resp.Result, &h)
			h["capabilities"] = []string{testee.CapabilityInputPath}
			resp.Result, _ = json.Marshal(h)
		}
		resp.ID = req.ID
		switch kind {
		case "id-zero":
			resp.ID = 0
		case "id-int32":
			resp.ID = int64(int32(req.ID))
		case "stdout-log":
			fmt.Fprintf(w, "handling request %d\n", req.ID)
		}
		b, err := testee.AppendResponse(nil, resp)
		if err != nil {
			fmt.Fprintln(os.Stderr, "broken adapter:", err)
			return 1
		}
		w.Write(b)
		w.Flush()
	}
}

// Smoke passes a sound adapter and names each broken one's problem on
// one line: the failing checks and a phrase of their explanation.
func TestSmokeBrokenAdapters(t *testing.T) {
	suites, err := LoadSuites(allSuites, "../vectors", "../manifest", nil)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		kind string
		fail map[string]string // check (a prefix) to a phrase of its detail
	}{
		{"none", nil},
		{"raw-input", map[string]string{"lace.record accepts": "decode \"input\" as standard base64", "libtracer.decode accepts": "decode \"input\" as standard base64", "large input": "base64"}},
		{"id-zero", map[string]string{"lace.record accepts": "echo each request's \"id\"", "id echo": "echo each request's \"id\""}},
		{"id-int32", map[string]string{"id echo": "beyond 32 bits"}},
		{"stdout-log", map[string]string{"hello": "write nothing but answers to standard output"}},
		{"scanner", map[string]string{"large input": "bufio.Scanner stops at 64 KiB", "hiverelay.authority accepts": "bufio.Scanner stops at 64 KiB", "hiverelay.authority rejects": "bufio.Scanner stops at 64 KiB"}},
		{"ok-always", map[string]string{"unknown operation": "answers without looking at \"op\""}},
		{"reject-op", map[string]string{"unknown operation": "answer {\"unsupported\":true}"}},
		{"ignore-path", map[string]string{"input by path": "read the file it names"}},
	}
	for _, c := range cases {
		t.Run(c.kind, func(t *testing.T) {
			tr := &strings.Builder{}
			tt, err := StartTestee(self("broken", c.kind), TesteeOptions{Jobs: 1, Timeout: 20 * time.Second, TimeoutPerMiB: time.Second, HelloTimeout: time.Minute, Trace: tr})
			if err != nil {
				t.Fatal(err)
			}
			inputs := NewInputFiles()
			defer inputs.Remove()
			rs := Smoke(context.Background(), SmokeConfig{Specs: allspecs.Set(), Suites: suites, Impl: tt.Impl, InputPaths: inputs})
			tt.Impl.Close()
			failed := map[string]bool{}
			for _, r := range rs {
				if strings.Contains(r.Detail, "\n") {
					t.Errorf("%s: more than one line: %q", r.Check, r.Detail)
				}
				if r.Status != SmokeFail {
					continue
				}
				failed[r.Check] = true
				phrase, ok := c.fail[r.Check]
				if !ok && c.kind != "raw-input" && c.kind != "id-zero" {
					t.Errorf("%s failed: %s", r.Check, r.Detail)
				}
				if ok && !strings.Contains(r.Detail, phrase) {
					t.Errorf("%s: %q does not say %q", r.Check, r.Detail, phrase)
				}
			}
			for check := range c.fail {
				if !failed[check] {
					t.Errorf("%s did not fail", check)
				}
			}
			if c.kind == "none" && (len(rs) < 20 || SmokeFailed(rs) != 0) {
				t.Errorf("%d checks, %d failed", len(rs), SmokeFailed(rs))
			}
			if !strings.Contains(tr.String(), `> {"id":0,"op":"hello","args":{},"input":""}`) {
				t.Errorf("the trace holds no hello request:\n%.2000s", tr.String())
			}
		})
	}
}

// brokenOneShot is conform serve OP in one-shot mode behind a broken
// adapter of the given kind: "none" (sound), "trim" (reads the input as
// text and drops a final line feed), "exit0" (exits 0 whatever it answered).
func brokenOneShot(kind, op string) int {
	in, err := io.ReadAll(os.Stdin)
	if err != nil {
		return 2
	}
	if kind == "trim" {
		in = bytes.TrimSuffix(in, []byte("\n"))
	}
	code, err := ServeOneShot(context.Background(), op, bytes.NewReader(in), os.Getenv("CONFORM_ARGS"), os.Stdout, reference.New(allspecs.Set()), 0)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
	}
	if kind == "exit0" {
		return 0
	}
	return code
}

// TestSmokeOneShot: conform smoke --one-shot passes a sound one-shot
// adapter (the id and by-path checks skipped), and names a one-shot
// adapter's problems: the input read as text, a wrong exit status.
func TestSmokeOneShot(t *testing.T) {
	suites, err := LoadSuites(allSuites, "../vectors", "../manifest", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		kind string
		fail map[string]string // check to a phrase of its detail
	}{
		{"none", nil},
		{"trim", map[string]string{"lace.record accepts": "read standard input to its end as raw bytes"}},
		{"exit0", map[string]string{"lace.record rejects": "1 after ok:false", "libtracer.decode rejects": "1 after ok:false"}},
	} {
		t.Run(c.kind, func(t *testing.T) {
			tt, err := StartTestee(self("broken-oneshot", c.kind), TesteeOptions{OneShot: true, Jobs: 1, Timeout: 20 * time.Second, TimeoutPerMiB: time.Second, HelloTimeout: time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			rs := Smoke(context.Background(), SmokeConfig{Specs: allspecs.Set(), Suites: suites, Impl: tt.Impl, OneShot: true})
			tt.Impl.Close()
			got := map[string]SmokeResult{}
			for _, r := range rs {
				got[r.Check] = r
			}
			for _, check := range []string{"id echo", "input by path"} {
				if got[check].Status != SmokeSkip || !strings.Contains(got[check].Detail, "one-shot") {
					t.Errorf("%s: %s %q, want skipped in one-shot mode", check, got[check].Status, got[check].Detail)
				}
			}
			for check, phrase := range c.fail {
				if r := got[check]; r.Status != SmokeFail || !strings.Contains(r.Detail, phrase) {
					t.Errorf("%s: %s %q, want a failure saying %q", check, r.Status, r.Detail, phrase)
				}
			}
			if c.kind == "none" && (len(rs) < 20 || SmokeFailed(rs) != 0) {
				for _, r := range rs {
					t.Logf("%s %s: %s", r.Status, r.Check, r.Detail)
				}
				t.Errorf("%d checks, %d failed", len(rs), SmokeFailed(rs))
			}
		})
	}
}

// A testee whose hello fails gets one line, and nothing else is asked.
func TestSmokeHelloFails(t *testing.T) {
	tt, err := StartTestee(self("testee", "-badhello"), TesteeOptions{Jobs: 1, Timeout: 5 * time.Second, HelloTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer tt.Impl.Close()
	rs := Smoke(context.Background(), SmokeConfig{Specs: allspecs.Set(), Impl: tt.Impl})
	if len(rs) != 1 || rs[0].Check != "hello" || rs[0].Status != SmokeFail {
		t.Fatalf("%+v", rs)
	}
}

// A run whose first answers all fail the same way points to conform
// smoke; one whose answers fail in different ways, or pass, does not.
func TestRunPointsToSmoke(t *testing.T) {
	suites, err := LoadSuites(allSuites, "../vectors", "../manifest", []string{"libtracer"})
	if err != nil {
		t.Fatal(err)
	}
	sel := Selection{Suites: []string{"libtracer"}, IDs: []string{"libtracer/positive/ex0*"}}
	if n := sel.Count(suites); n < hintAfter {
		t.Fatalf("%d vectors selected, want %d or more", n, hintAfter)
	}
	for _, c := range []struct {
		kind, want string
	}{
		{"id-zero", "the first 10 answers all failed the same way (testee failure (wrong-id))"},
		{"raw-input", "the first 10 answers all failed the same way (inputs that must be accepted were rejected)"},
		{"none", ""},
	} {
		cmd := self("broken", c.kind)
		tt, err := StartTestee(cmd, TesteeOptions{Jobs: 1, Timeout: 20 * time.Second, HelloTimeout: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		rep := Run(context.Background(), Config{Specs: allspecs.Set(), Suites: suites, Selection: sel, Impl: tt.Impl, Jobs: 1, Testee: TesteeInfo{Command: cmd, Mode: "persistent"}})
		tt.Impl.Close()
		if !strings.HasPrefix(rep.AdapterHint, c.want) || (c.want == "") != (rep.AdapterHint == "") {
			t.Errorf("%s: hint %q, want %q", c.kind, rep.AdapterHint, c.want)
		}
		if c.want != "" && !strings.Contains(rep.AdapterHint, "conform smoke -- "+ShellJoin(cmd)) {
			t.Errorf("%s: the hint names no smoke command: %q", c.kind, rep.AdapterHint)
		}
		var b strings.Builder
		WriteText(&b, rep, TextOptions{})
		if c.want != "" && !strings.Contains(b.String(), "ADAPTER? "+c.want) {
			t.Errorf("%s: the human report holds no hint", c.kind)
		}
	}
}
