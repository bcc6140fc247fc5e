package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/threespec/conformance/harness/harnesstest"
	"github.com/threespec/conformance/impl/lace/lacespec"
	"github.com/threespec/conformance/internal/allspecs"
	"github.com/threespec/conformance/reference"
	"github.com/threespec/conformance/testee"
	"github.com/threespec/conformance/vectorset"
)

// synthetic writes a lace suite of vecs and loads it.
func synthetic(tb testing.TB, vecs []harnesstest.Vector) []*Suite {
	tb.Helper()
	root := tb.TempDir()
	vdir, err := harnesstest.WriteSuite(root, allspecs.Synthetic(), vecs)
	if err != nil {
		tb.Fatal(err)
	}
	suites, err := LoadSuites(allSuites, vdir, filepath.Join(root, "manifest"), nil)
	if err != nil {
		tb.Fatal(err)
	}
	return suites
}

// external runs suites against this binary as a testee with args, and
// returns the report.
func external(t *testing.T, suites []*Suite, opt TesteeOptions, args ...string) *Report {
	t.Helper()
	cmd := self(append([]string{"testee"}, args...)...)
	if opt.Timeout == 0 {
		opt.Timeout = 5 * time.Second
	}
	if opt.HelloTimeout == 0 {
		opt.HelloTimeout = 30 * time.Second
	}
	tt, err := StartTestee(cmd, opt)
	if err != nil {
		t.Fatal(err)
	}
	defer tt.Impl.Close()
	mode, jobs := "persistent", max(opt.Jobs, 1)
	if opt.OneShot {
		mode, jobs = "one-shot", 4
	}
	return Run(context.Background(), Config{Specs: allspecs.Set(),
		Suites: suites, Impl: tt.Impl, Stats: tt.Stats, Stderr: tt.Stderr, Endings: tt.Endings, Jobs: jobs,
		Testee: TesteeInfo{Command: cmd, Mode: mode},
		Rerun:  func(id string) string { return "rerun " + id },
	})
}

// byID returns the result of the vector named name.
func byID(t *testing.T, r *Report, name string) *VectorResult {
	t.Helper()
	for _, v := range r.Vectors {
		if strings.HasSuffix(v.ID, "/"+name) {
			return v
		}
	}
	t.Fatalf("no vector %s in the report", name)
	return nil
}

// TestReferencePassesCommittedSuites: the in-process reference passes every
// committed vector (and reports those it cannot check as not applicable).
func TestReferencePassesCommittedSuites(t *testing.T) {
	suites, err := LoadSuites(allSuites, "../vectors", "../manifest", nil)
	if err != nil {
		t.Fatal(err)
	}
	rep := Run(context.Background(), Config{Specs: allspecs.Set(), Suites: suites, Impl: reference.New(allspecs.Set()), Testee: TesteeInfo{Mode: "in-process"}})
	if rep.ExitCode != ExitPass {
		var b strings.Builder
		WriteText(&b, rep, TextOptions{})
		t.Fatalf("exit %d:\n%s", rep.ExitCode, b.String())
	}
	for _, v := range rep.Vectors {
		other := false
		for id, alt := range v.Readings {
			other = other || alt != allspecs.Set().ReadingDefaults()[id]
		}
		if other != (v.Status == OtherReading) {
			t.Errorf("%s: %s; of another reading's branch: %v", v.ID, v.Status, other)
		} else if !other && v.Status != Pass && v.Status != NotApplicable {
			t.Errorf("%s: %s", v.ID, v.Status)
		}
		if v.Status == NotApplicable && !strings.Contains(strings.Join(v.Rules, " ")+v.Reason, "009") {
			t.Errorf("%s: not applicable to the reference: %s", v.ID, v.Reason)
		}
	}
	if rep.Counts.Selected == 0 || rep.Counts.Passed == 0 {
		t.Errorf("counts %+v", rep.Counts)
	}
}

// Robustness: each misbehaviour fails its own vector only, with its kind;
// the testee is restarted and every other vector passes, with one
// persistent process or several at once.
func TestMisbehavingTesteePersistent(t *testing.T) {
	for _, jobs := range []int{1, 3} {
		t.Run(strconv.Itoa(jobs)+" at once", func(t *testing.T) { misbehavingPersistent(t, jobs) })
	}
}

func misbehavingPersistent(t *testing.T, jobs int) {
	vecs := []harnesstest.Vector{
		{Name: "a-ok", Input: `ok:{"form":"blob"}`, Result: `{"form":"blob"}`},
		{Name: "b-hang", Input: "hang"},
		{Name: "c-ok", Input: "ok:{}"},
		{Name: "d-crash", Input: "crash"},
		{Name: "e-ok", Input: "ok:{}"},
		{Name: "f-exit", Input: "exit"},
		{Name: "g-wrongid", Input: "wrongid"},
		{Name: "h-ok", Input: "ok:{}"},
		{Name: "i-invalid", Input: "invalid"},
		{Name: "j-flood", Input: "flood"},
		{Name: "k-stderr", Input: "stderr:200000"},
		{Name: "l-reject", Input: "reject:X", Expect: vectorset.Reject, Code: "X"},
		{Name: "m-ok", Input: "ok:{}"},
	}
	rep := external(t, synthetic(t, vecs), TesteeOptions{Jobs: jobs, Timeout: 2 * time.Second, MaxResponse: 1 << 20})
	wantKind := map[string]string{
		"b-hang": "timeout", "d-crash": "exited", "f-exit": "exited", "g-wrongid": "wrong-id",
		"i-invalid": "invalid-json", "j-flood": "flood",
	}
	for _, v := range rep.Vectors {
		name := v.ID[strings.LastIndex(v.ID, "/")+1:]
		kind, bad := wantKind[name]
		switch {
		case bad && (v.Status != Fail || v.Failure == nil || v.Failure.Kind != kind):
			t.Errorf("%s: status %s, failure %+v; want a %s failure", name, v.Status, v.Failure, kind)
		case !bad && v.Status != Pass:
			t.Errorf("%s: %s: %s", name, v.Status, v.Reason)
		}
	}
	if d := byID(t, rep, "d-crash"); !strings.Contains(d.Failure.Stderr, "crashing on purpose") {
		t.Errorf("crash: stderr tail %q", d.Failure.Stderr)
	}
	// A process is restarted when it gets a request after its failure:
	// after each with one process.
	if st := rep.Testee.Stats; st == nil || st.Failures != len(wantKind) || st.Processes != jobs ||
		jobs == 1 && st.Restarts() != len(wantKind) || st.Restarts() > len(wantKind) {
		t.Errorf("stats %+v, want %d failures of %d processes, a restart after each with one", st, len(wantKind), jobs)
	}
	if rep.ExitCode != ExitFail || rep.Counts.TesteeFailures != len(wantKind) {
		t.Errorf("exit %d, counts %+v", rep.ExitCode, rep.Counts)
	}
	// Writing to stderr is no failure; the tail shows in the report (with
	// several processes, unless a later failure restarted that one).
	if jobs == 1 && !strings.Contains(rep.Testee.StderrTail, "wrote to stderr as asked") {
		t.Errorf("stderr tail %q", rep.Testee.StderrTail)
	}
}

func TestMisbehavingTesteeOneShot(t *testing.T) {
	vecs := []harnesstest.Vector{
		{Name: "a-ok", Input: "ok:{}"},
		{Name: "b-hang", Input: "hang"},
		{Name: "c-reject", Input: "reject:X", Expect: vectorset.Reject, Code: "X"},
		{Name: "d-crash", Input: "crash"},
		{Name: "e-badexit", Input: "badexit"},
		{Name: "f-invalid", Input: "invalid"},
		{Name: "g-ok", Input: "ok:{}"},
		{Name: "h-unsupported", Input: "unsupported"},
	}
	rep := external(t, synthetic(t, vecs), TesteeOptions{OneShot: true, Timeout: 2 * time.Second})
	want := map[string]Status{"a-ok": Pass, "b-hang": Fail, "c-reject": Pass, "d-crash": Fail, "e-badexit": Fail, "f-invalid": Fail, "g-ok": Pass, "h-unsupported": NotApplicable}
	kinds := map[string]string{"b-hang": "timeout", "d-crash": "invalid-json", "e-badexit": "bad-exit", "f-invalid": "invalid-json"}
	for name, st := range want {
		v := byID(t, rep, name)
		if v.Status != st {
			t.Errorf("%s: %s (%s), want %s", name, v.Status, v.Reason, st)
		}
		if k, ok := kinds[name]; ok && (v.Failure == nil || v.Failure.Kind != k) {
			t.Errorf("%s: failure %+v, want kind %s", name, v.Failure, k)
		}
	}
}

func TestHandshakeAndApplicability(t *testing.T) {
	vecs := []harnesstest.Vector{
		{Name: "record", Input: "ok:{}"},
		{Name: "chunks", Op: lacespec.OpChunks, Input: "ok:{}"},
		{Name: "needs-009", Input: "ok:{}", Profiles: []string{lacespec.Profile009}},
		{Name: "needs-standin", Input: "ok:{}", Profiles: []string{lacespec.ProfileMarkBIP340Standin}},
	}
	suites := synthetic(t, vecs)
	cases := []struct {
		name   string
		args   []string
		policy Policy
		want   map[string]Status
	}{
		{"hello claims record only", nil, Policy{}, map[string]Status{"record": Pass, "chunks": NotApplicable, "needs-009": NotApplicable, "needs-standin": NotApplicable}},
		{"no hello: every op, no profile", []string{"-nohello"}, Policy{}, map[string]Status{"record": Pass, "chunks": Pass, "needs-009": NotApplicable, "needs-standin": NotApplicable}},
		{"no hello, profile added", []string{"-nohello"}, Policy{Profiles: []string{lacespec.Profile009}}, map[string]Status{"chunks": Pass, "needs-009": Pass, "needs-standin": NotApplicable}},
		{"claims the stand-in", []string{"-profiles", lacespec.ProfileMarkBIP340Standin}, Policy{}, map[string]Status{"needs-standin": Pass, "needs-009": NotApplicable}},
		{"claims the stand-in, --mark none", []string{"-profiles", lacespec.ProfileMarkBIP340Standin}, Policy{Mark: MarkNone}, map[string]Status{"needs-standin": NotApplicable, "record": Pass}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cmd := self(append([]string{"testee"}, c.args...)...)
			tt, err := StartTestee(cmd, TesteeOptions{Timeout: 5 * time.Second, HelloTimeout: 30 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			defer tt.Impl.Close()
			rep := Run(context.Background(), Config{Specs: allspecs.Set(), Suites: suites, Impl: tt.Impl, Policy: c.policy})
			for name, st := range c.want {
				if v := byID(t, rep, name); v.Status != st {
					t.Errorf("%s: %s (%s), want %s", name, v.Status, v.Reason, st)
				}
			}
			if rep.ExitCode != ExitPass {
				t.Errorf("exit %d", rep.ExitCode)
			}
		})
	}
}

func TestTesteeCannotRun(t *testing.T) {
	suites := synthetic(t, []harnesstest.Vector{{Name: "a", Input: "ok:{}"}})
	cases := []struct {
		name    string
		cmd     []string
		hello   time.Duration
		aborted string
	}{
		{"no such program", []string{filepath.Join(t.TempDir(), "no-such-testee")}, 10 * time.Second, "start-failed"},
		{"bad hello", self("testee", "-badhello"), 10 * time.Second, "bad-hello"},
		{"exits at once", []string{"/bin/sh", "-c", "echo cannot start >&2; exit 2"}, 10 * time.Second, "cannot start"},
		{"hangs on hello", []string{"/bin/sh", "-c", "exec sleep 60"}, 300 * time.Millisecond, "timeout"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tt, err := StartTestee(c.cmd, TesteeOptions{Timeout: time.Second, HelloTimeout: c.hello})
			if err != nil {
				t.Fatal(err)
			}
			defer tt.Impl.Close()
			rep := Run(context.Background(), Config{Specs: allspecs.Set(), Suites: suites, Impl: tt.Impl, Stderr: tt.Stderr})
			if rep.ExitCode != ExitTestee || !strings.Contains(rep.Aborted, c.aborted) {
				t.Errorf("exit %d, aborted %q; want %d and %q", rep.ExitCode, rep.Aborted, ExitTestee, c.aborted)
			}
			if rep.Counts.NotRun != 1 {
				t.Errorf("counts %+v", rep.Counts)
			}
		})
	}
}

// A testee that stops starting after hello: the run is aborted once the
// adapter gives up, and the rest is reported as not run.
func TestTesteeStopsStarting(t *testing.T) {
	var vecs []harnesstest.Vector
	for _, n := range []string{"a", "b", "c", "d", "e", "f", "g", "h"} {
		vecs = append(vecs, harnesstest.Vector{Name: n, Input: "exit"})
	}
	dir := t.TempDir()
	flag := filepath.Join(dir, "started")
	// The first process answers hello and exits on the first vector; every
	// later start fails because the script removes itself.
	script := filepath.Join(dir, "testee.sh")
	os.WriteFile(script, []byte("#!/bin/sh\nrm -f \"$0\"\nexec "+os.Args[0]+" testee -pidfile "+flag+"\n"), 0o755)
	tt, err := StartTestee([]string{script}, TesteeOptions{Timeout: 5 * time.Second, HelloTimeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer tt.Impl.Close()
	rep := Run(context.Background(), Config{Specs: allspecs.Set(), Suites: synthetic(t, vecs), Impl: tt.Impl})
	if rep.ExitCode != ExitTestee || !strings.Contains(rep.Aborted, "does not start") {
		t.Fatalf("exit %d, aborted %q", rep.ExitCode, rep.Aborted)
	}
	if rep.Counts.NotRun == 0 || rep.Counts.Failed == 0 {
		t.Errorf("counts %+v", rep.Counts)
	}
}

// doFunc is an Implementation of one function.
type doFunc func(context.Context, testee.Request) (testee.Response, error)

func (f doFunc) Do(ctx context.Context, req testee.Request) (testee.Response, error) {
	return f(ctx, req)
}
func (f doFunc) Close() error { return nil }

// During a run the garbage collector's soft memory limit is one and a half
// times the largest input or expected answer (at least 64 MiB) above the
// heap in use when the run starts, unless GOMEMLIMIT sets it; afterwards
// it is what it was.
func TestRunBoundsMemory(t *testing.T) {
	// An answer of a 36 MiB record in base64: 48 MiB, 72 MiB with the half.
	long := `{"record":{"$base64_blake2b":"00","$base64_length":37748736}}`
	cases := []struct {
		name, result, env string
		min, max          int64
	}{
		{"small answers", "", "", 64 << 20, 64 << 20},
		{"a long answer", long, "", 72 << 20, 72<<20 + 1<<10},
		{"GOMEMLIMIT set", long, "123MiB", 1 << 40, 1 << 40},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("GOMEMLIMIT", c.env)
			suites := synthetic(t, []harnesstest.Vector{{Name: "a", Input: "x", Result: c.result}, {Name: "b", Input: "y"}})
			before := debug.SetMemoryLimit(1 << 40)
			defer debug.SetMemoryLimit(before)
			var during []int64
			impl := doFunc(func(ctx context.Context, req testee.Request) (testee.Response, error) {
				during = append(during, debug.SetMemoryLimit(-1))
				return testee.Response{Outcome: testee.Unsupported}, nil
			})
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			heap := int64(m.HeapAlloc) // the heap in use: below the limit, the collector would run without end
			if c.env != "" {
				heap = 0
			}
			Run(context.Background(), Config{Specs: allspecs.Set(), Suites: suites, Impl: impl})
			if len(during) != 3 || during[2] < c.min || during[2] > c.max+heap+8<<20 {
				t.Errorf("limit during the run %v, want %d to %d and the heap in use, %d", during, c.min, c.max, heap)
			}
			if after := debug.SetMemoryLimit(-1); after != 1<<40 {
				t.Errorf("limit after the run %d, want it restored to %d", after, int64(1<<40))
			}
		})
	}
}

// Several jobs take the vectors largest input first, ties in index order.
func TestDealOrder(t *testing.T) {
	sizes := []int64{1, 5, 3, 5, 0, 3}
	var todo []*item
	for i, n := range sizes {
		todo = append(todo, &item{v: &vectorset.Vector{ID: strconv.Itoa(i), Size: n}})
	}
	var got []string
	for _, it := range dealOrder(todo) {
		got = append(got, it.v.ID)
	}
	if want := "1 3 2 5 0 4"; strings.Join(got, " ") != want {
		t.Errorf("order %v, want %s", got, want)
	}
	if todo[0].v.ID != "0" {
		t.Error("dealOrder reordered its argument")
	}
}

// Issue 30, item 14: what a persistent testee writes on standard error as
// its input ends (a sanitizer's leak report) and its exit status then reach
// every report: the human one, the JSON and the JUnit; with one process and
// with several.
func TestShutdownReachesReports(t *testing.T) {
	for _, jobs := range []int{1, 2} {
		t.Run(fmt.Sprintf("-j %d", jobs), func(t *testing.T) {
			rep := external(t, synthetic(t, []harnesstest.Vector{{Name: "a", Input: "ok:{}"}, {Name: "b", Input: "ok:{}"}}),
				TesteeOptions{Jobs: jobs}, "-leak")
			if rep.ExitCode != ExitPass {
				t.Fatalf("exit %d", rep.ExitCode)
			}
			if len(rep.Testee.Exit) == 0 {
				t.Fatal("no exit status in the report")
			}
			for _, e := range rep.Testee.Exit {
				if e.Code != 3 || e.Status != "exit status 3" {
					t.Errorf("exit %+v, want exit status 3", e)
				}
			}
			var text, js, junit bytes.Buffer
			WriteText(&text, rep, TextOptions{})
			WriteJSON(&js, rep)
			WriteJUnit(&junit, rep)
			summary := "SUMMARY: AddressSanitizer: 24 byte(s) leaked"
			for name, out := range map[string]string{"human": text.String(), "JSON": js.String(), "JUnit": junit.String()} {
				if !strings.Contains(out, summary) {
					t.Errorf("the %s report lacks the leak report:\n%s", name, out)
				}
				if !strings.Contains(out, "exit status 3") {
					t.Errorf("the %s report lacks the exit status:\n%s", name, out)
				}
			}
			if !strings.Contains(text.String(), "testee exit: ") {
				t.Errorf("the human report has no testee exit line:\n%s", text.String())
			}
		})
	}
}

// budgeted is a testee whose budget grows once it has answered a small
// request, as Timeouts' does once it has measured the testee: before that
// it times out on every input of 100 bytes or more.
type budgeted struct {
	mu       sync.Mutex
	measured bool
	asked    map[int]int // requests by input size
}

func (b *budgeted) Budget(size int64) time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.measured {
		return 10 * time.Second
	}
	return time.Second
}

func (b *budgeted) Do(ctx context.Context, req testee.Request) (testee.Response, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.asked[len(req.Input)]++
	if req.Op == testee.OpHello {
		return testee.Response{ID: req.ID, Outcome: testee.Accepted, Result: json.RawMessage(`{"protocol":1,"implementation":"budgeted","ops":["lace.record"],"profiles":[],"limits":{}}`)}, nil
	}
	if len(req.Input) >= 100 && !b.measured {
		return testee.Response{}, &testee.Failure{Kind: testee.Timeout, Detail: "no answer within 1s"}
	}
	b.measured = true
	return testee.Response{ID: req.ID, Outcome: testee.Accepted, Result: json.RawMessage(`{}`)}, nil
}

func (b *budgeted) Close() error { return nil }

// A vector that timed out before the testee's speed was measured (the
// largest come first) is asked once more at the end with the grown
// budget, and its result says so; a vector whose budget did not grow is
// not asked again.
func TestRetryTimeoutsOnceMeasured(t *testing.T) {
	big := strings.Repeat("b", 200)
	impl := &budgeted{asked: map[int]int{}}
	// One job, in index order: the big vector is asked before the small one.
	rep := Run(context.Background(), Config{Specs: allspecs.Set(), Jobs: 1, Impl: impl,
		Suites: synthetic(t, []harnesstest.Vector{{Name: "big", Input: big}, {Name: "small", Input: "s"}})})
	if rep.ExitCode != ExitPass || rep.Counts.Passed != 2 || impl.asked[200] != 2 || impl.asked[1] != 1 {
		t.Fatalf("exit %d, counts %+v, asked %v", rep.ExitCode, rep.Counts, impl.asked)
	}
	for _, v := range rep.Vectors {
		if retried := strings.Contains(v.Retried, "first answer timed out (no answer within 1s); given 10s"); retried != (v.Size == 200) {
			t.Errorf("%s: retried %q", v.ID, v.Retried)
		}
	}
	var b strings.Builder
	WriteText(&b, rep, TextOptions{})
	if !strings.Contains(b.String(), "retried:     1 vector(s)") {
		t.Errorf("the human report does not say a vector was retried:\n%s", b.String())
	}
	// Without growth the timeout stands: asked once.
	impl = &budgeted{asked: map[int]int{}}
	rep = Run(context.Background(), Config{Specs: allspecs.Set(), Jobs: 1, Impl: impl,
		Suites: synthetic(t, []harnesstest.Vector{{Name: "big", Input: big}})})
	if rep.Counts.Failed != 1 || impl.asked[200] != 1 || rep.ExitCode == ExitPass {
		t.Errorf("no growth: counts %+v, asked %v, exit %d", rep.Counts, impl.asked, rep.ExitCode)
	}
	// A timed-out vector is the testee's failure: its rules are not
	// judged, not failed.
	if len(rep.Rules) != 1 || rep.Rules[0].Verdict != NotJudged || rep.Rules[0].Counts[NotJudged] != 1 || rep.Rules[0].Counts[Fail] != 0 {
		t.Fatalf("rule summary %+v", rep.Rules)
	}
	b.Reset()
	WriteText(&b, rep, TextOptions{})
	if !strings.Contains(b.String(), "NOT JUDGED 1 not judged (the testee failed)") || !strings.Contains(b.String(), "1 not judged (the testee failed on their vectors)") {
		t.Errorf("the human report's rule summary:\n%s", b.String())
	}
}
