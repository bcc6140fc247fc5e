//go:build unix

package testee

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// testTimeout is the per-request timeout of the tests that wait for it to
// pass; the others use roomyTimeout, so that they do not fail on a loaded
// machine.
const (
	testTimeout  = 500 * time.Millisecond
	roomyTimeout = 10 * time.Second
)

func shortTimeout(c *Config) { c.Timeout = testTimeout }

// newAdapter makes an adapter for the tests (short timeouts, modified by
// mod) and closes it when the test ends.
func newAdapter[T Implementation](t *testing.T, cfg Config, mod func(*Config), mk func(Config) (T, error)) T {
	t.Helper()
	cfg.Timeout = roomyTimeout
	cfg.CloseGrace = 200 * time.Millisecond
	if mod != nil {
		mod(&cfg)
	}
	a, err := mk(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

func newPersistent(t *testing.T, behaviour string, mod func(*Config)) *Persistent {
	t.Helper()
	return newAdapter(t, testeeConfig(behaviour), mod, NewPersistent)
}

// mustEcho sends test.echo with the given input and checks the echo.
func mustEcho(t *testing.T, a Implementation, id int64, input []byte) echoed {
	t.Helper()
	args := json.RawMessage(fmt.Sprintf(`{"n": %d}`, id))
	resp, err := a.Do(context.Background(), Request{ID: id, Op: "test.echo", Args: args, Input: input})
	if err != nil {
		t.Fatalf("echo %d: %v", id, err)
	}
	if resp.Outcome != Accepted || resp.ID != id {
		t.Fatalf("echo %d: got %+v", id, resp)
	}
	e := decodeEcho(t, resp)
	if e.Op != "test.echo" || !bytes.Equal(e.Input, input) || string(e.Args) != fmt.Sprintf(`{"n":%d}`, id) {
		t.Fatalf("echo %d: echoed %+v", id, e)
	}
	return e
}

// asFailure checks that err is a *Failure of kind k whose detail holds want.
func asFailure(t *testing.T, err error, k Kind, want string) *Failure {
	t.Helper()
	var f *Failure
	if !errors.As(err, &f) {
		t.Fatalf("got error %v (%T), want a *Failure of kind %v", err, err, k)
	}
	if f.Kind != k || !strings.Contains(f.Detail, want) {
		t.Fatalf("got %v, want kind %v with detail containing %q", f, k, want)
	}
	return f
}

func TestPersistentWellBehaved(t *testing.T) {
	for _, b := range []string{"serve", "misbehave"} {
		t.Run(b, func(t *testing.T) {
			a := newPersistent(t, b, nil)
			h, err := Handshake(context.Background(), a)
			if err != nil {
				t.Fatal(err)
			}
			if h.Implementation != "echo-testee 1.0" || !h.Claims("test.echo") || h.Claims("lace.record") ||
				!h.ClaimsProfile("lace-mark-bip340-standin") || h.ClaimsProfile("lace-009") ||
				string(h.Limits["lace.max_record_bytes"]) != "33620814" {
				t.Errorf("hello = %+v", h)
			}
			mustEcho(t, a, 1, nil)
			mustEcho(t, a, 2, []byte{0, 1, 2, 0xff, '\n', '"'})
			mustEcho(t, a, -3, bytes.Repeat([]byte("big input "), 200_000)) // crosses many pipe buffers
			resp, err := a.Do(context.Background(), Request{ID: 4, Op: "test.reject"})
			if err != nil || resp.Outcome != Rejected || resp.Code != "TEST_REJECT" || resp.Rule != "TEST-REJ-01" || resp.Detail != "rejected as asked" {
				t.Errorf("reject: %+v, %v", resp, err)
			}
			resp, err = a.Do(context.Background(), Request{ID: 5, Op: "libtracer.encode"})
			if err != nil || resp.Outcome != Unsupported {
				t.Errorf("unsupported: %+v, %v", resp, err)
			}
			if s := a.Stats(); s.Starts != 1 || s.Failures != 0 || s.Restarts() != 0 {
				t.Errorf("stats %+v", s)
			}
		})
	}
}

// TestPersistentFailures runs each misbehaviour, checks the failure, and
// checks that the testee is restarted for the next request.
func TestPersistentFailures(t *testing.T) {
	tests := []struct {
		op         string
		kind       Kind
		detail     string
		stderr     string // in the failure's stderr tail
		maxLine    int
		idleBefore bool
	}{
		{op: "test.hang", kind: Timeout, detail: "no answer within 500ms; killed after the failure"},
		{op: "test.crash", kind: Exited, detail: "closed its standard output while waiting for the answer (after 15 bytes of an unterminated line); exited (exit status 3)", stderr: "crashing on purpose\n"},
		{op: "test.exit", kind: Exited, detail: "exited (exit status 0)"},
		{op: "test.close-stdout", kind: Exited, detail: "closed its standard output while waiting for the answer; killed after the failure"},
		{op: "test.grandchild-exit", kind: Exited, detail: "exited (exit status 0)"},
		{op: "test.wrongid", kind: WrongID, detail: "answer carries id 8 (out of order)"},
		{op: "test.noid", kind: WrongID, detail: `missing "id"`},
		{op: "test.invalid", kind: InvalidJSON, detail: `not valid JSON: "this is not json"`},
		{op: "test.badshape", kind: BadShape, detail: `"ok" is "\"yes\"", not a bool`},
		{op: "test.flood", kind: Flood, detail: "longer than the read cap of 1048576 bytes", maxLine: 1 << 20},
	}
	for _, tt := range tests {
		t.Run(tt.op, func(t *testing.T) {
			a := newPersistent(t, "misbehave", func(c *Config) {
				if tt.maxLine > 0 {
					c.MaxLine = tt.maxLine
				}
				if tt.kind == Timeout {
					shortTimeout(c)
				}
			})
			mustEcho(t, a, 6, []byte("before"))
			start := time.Now()
			_, err := a.Do(context.Background(), Request{ID: 7, Op: tt.op})
			took := time.Since(start)
			f := asFailure(t, err, tt.kind, tt.detail)
			if f.ID != 7 || f.Op != tt.op {
				t.Errorf("failure names request %d %s", f.ID, f.Op)
			}
			if tt.stderr != "" && !strings.HasSuffix(string(f.Stderr), tt.stderr) {
				t.Errorf("stderr tail %q, want it to end with %q", f.Stderr, tt.stderr)
			}
			// A failure detected late would be a Timeout: the kind shows
			// that the others were detected before the timeout.
			if tt.kind == Timeout && took < testTimeout {
				t.Errorf("took %v, less than the timeout", took)
			}
			e := mustEcho(t, a, 8, []byte("after"))
			if s := a.Stats(); s.Starts != 2 || s.Failures != 1 || s.Restarts() != 1 {
				t.Errorf("stats %+v", s)
			}
			mustEcho(t, a, 9, nil)
			if e2 := mustEcho(t, a, 10, nil); e2.PID != e.PID {
				t.Errorf("restarted again without a failure")
			}
		})
	}
}

func TestPersistentExitEarly(t *testing.T) {
	a := newPersistent(t, "exit-early", nil)
	for i := range 2 {
		_, err := a.Do(context.Background(), HelloRequest())
		f := asFailure(t, err, Exited, "exited (exit status 2)")
		if string(f.Stderr) != "boom: cannot start\n" {
			t.Errorf("stderr %q", f.Stderr)
		}
		if s := a.Stats(); s.Starts != i+1 || s.Failures != i+1 {
			t.Errorf("stats %+v", s)
		}
	}
	if got := string(a.Stderr()); got != "boom: cannot start\n" {
		t.Errorf("Stderr() = %q", got)
	}
}

func TestPersistentStartFailed(t *testing.T) {
	a := newPersistent(t, "", func(c *Config) {
		c.Command = []string{"/nonexistent/testee-binary", "--flag"}
		c.MaxStartFailures = 2
	})
	for i, want := range []string{"attempt 1 of 2", "attempt 2 of 2", "gave up after 2 consecutive failures"} {
		_, err := a.Do(context.Background(), Request{ID: int64(i), Op: OpHello})
		f := asFailure(t, err, StartFailed, want)
		if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(f.Detail, "/nonexistent/testee-binary") {
			t.Errorf("failure %v does not name the missing program", err)
		}
	}
	if s := a.Stats(); s.Starts != 0 || s.Failures != 3 {
		t.Errorf("stats %+v", s)
	}
}

// TestPersistentLineCap checks the read cap at its boundary: a line of
// exactly MaxLine bytes is read, one more byte is a flood.
func TestPersistentLineCap(t *testing.T) {
	for _, max := range []int{1000, readBufSize, readBufSize + 1, 3*readBufSize + 7} {
		a := newPersistent(t, "misbehave", func(c *Config) { c.MaxLine = max })
		for _, n := range []int{max - 1, max, max + 1, max + 2, 2 * max} {
			resp, err := a.Do(context.Background(), Request{ID: 1, Op: "test.line", Args: json.RawMessage(fmt.Sprintf(`{"n":%d}`, n))})
			if n <= max {
				if err != nil || resp.Outcome != Accepted || len(resp.Result) != n-len(`{"id":1,"ok":true,"result":`)-1 {
					t.Errorf("cap %d, line %d: %v, result of %d bytes", max, n, err, len(resp.Result))
				}
				continue
			}
			asFailure(t, err, Flood, fmt.Sprintf("read cap of %d bytes", max))
		}
	}
}

// TestPersistentFloodBoundedMemory: a testee writing gigabytes without a
// newline is cut at the cap, and reading it costs memory bounded by the cap.
func TestPersistentFloodBoundedMemory(t *testing.T) {
	const max = 4 << 20
	a := newPersistent(t, "misbehave", func(c *Config) { c.MaxLine = max })
	mustEcho(t, a, 1, nil)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := a.Do(context.Background(), Request{ID: 2, Op: "test.flood"})
	runtime.ReadMemStats(&after)
	asFailure(t, err, Flood, "read cap")
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 3*max {
		t.Errorf("reading the flood allocated %d bytes; the cap is %d", alloc, max)
	}
}

func TestPersistentStderrBounded(t *testing.T) {
	a := newPersistent(t, "misbehave", nil)
	resp, err := a.Do(context.Background(), Request{ID: 1, Op: "test.stderr"})
	if err != nil || resp.Outcome != Accepted {
		t.Fatalf("%+v %v", resp, err)
	}
	// The stderr copy runs beside the answer: wait for it to catch up.
	var tail []byte
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if tail = a.Stderr(); bytes.HasSuffix(tail, []byte("END-OF-STDERR\n")) {
			break
		}
	}
	if len(tail) != DefaultStderrTail || !bytes.HasSuffix(tail, []byte("stderr line 019999 of noise\nEND-OF-STDERR\n")) {
		t.Errorf("stderr tail of %d bytes ending %q", len(tail), tail[max(0, len(tail)-60):])
	}
	// Then a crash: the failure carries the tail.
	_, err = a.Do(context.Background(), Request{ID: 2, Op: "test.crash"})
	f := asFailure(t, err, Exited, "exit status 3")
	if len(f.Stderr) != DefaultStderrTail || !bytes.HasSuffix(f.Stderr, []byte("END-OF-STDERR\ncrashing on purpose\n")) {
		t.Errorf("failure stderr of %d bytes ending %q", len(f.Stderr), f.Stderr[max(0, len(f.Stderr)-60):])
	}
}

func TestPersistentGrandchild(t *testing.T) {
	grandchild := func(a *Persistent) (testee, gc int) {
		resp, err := a.Do(context.Background(), Request{ID: 1, Op: "test.grandchild"})
		if err != nil {
			t.Fatal(err)
		}
		var r struct{ PID int }
		json.Unmarshal(resp.Result, &r)
		e := mustEcho(t, a, 2, nil)
		if !alive(r.PID) || !alive(e.PID) {
			t.Fatalf("grandchild %d or testee %d not running", r.PID, e.PID)
		}
		return e.PID, r.PID
	}
	t.Run("failure", func(t *testing.T) {
		a := newPersistent(t, "misbehave", shortTimeout)
		testee, gc := grandchild(a)
		_, err := a.Do(context.Background(), Request{ID: 3, Op: "test.hang"})
		asFailure(t, err, Timeout, "no answer")
		waitDead(t, gc)
		waitDead(t, testee)
		mustEcho(t, a, 4, nil)
	})
	t.Run("close", func(t *testing.T) {
		a := newPersistent(t, "misbehave", nil)
		testee, gc := grandchild(a)
		a.Close()
		waitDead(t, gc)
		waitDead(t, testee)
	})
}

// TestPersistentBetweenRequests: what a testee does between requests fails
// no request; it is counted and the testee restarted.
func TestPersistentBetweenRequests(t *testing.T) {
	t.Run("double", func(t *testing.T) {
		a := newPersistent(t, "misbehave", nil)
		e := mustEcho(t, a, 1, nil)
		if _, err := a.Do(context.Background(), Request{ID: 2, Op: "test.double"}); err != nil {
			t.Fatal(err)
		}
		if e2 := mustEcho(t, a, 3, nil); e2.PID == e.PID {
			t.Error("not restarted after unsolicited output")
		}
		if s := a.Stats(); s.Unsolicited != 1 || s.Starts != 2 || s.Failures != 0 {
			t.Errorf("stats %+v", s)
		}
	})
	t.Run("exit", func(t *testing.T) {
		a := newPersistent(t, "misbehave", nil)
		if _, err := a.Do(context.Background(), Request{ID: 1, Op: "test.exit-idle"}); err != nil {
			t.Fatal(err)
		}
		// Wait until the testee has exited (not a fixed sleep: under load
		// its exit can take longer, and a request sent while it is still
		// exiting fails as "exited", which is another test's case).
		if !a.p.waitExit(10 * time.Second) {
			t.Fatal("the testee did not exit after test.exit-idle")
		}
		mustEcho(t, a, 2, nil)
		if s := a.Stats(); s.IdleExits != 1 || s.Starts != 2 || s.Failures != 0 {
			t.Errorf("stats %+v", s)
		}
	})
	t.Run("late", func(t *testing.T) {
		// A repeated answer that arrives later shows as the next answer:
		// that request fails with WrongID.
		a := newPersistent(t, "misbehave", nil)
		if _, err := a.Do(context.Background(), Request{ID: 1, Op: "test.late-double"}); err != nil {
			t.Fatal(err)
		}
		_, err := a.Do(context.Background(), Request{ID: 2, Op: "test.echo"})
		asFailure(t, err, WrongID, "answer carries id 1, an earlier request's")
		mustEcho(t, a, 3, nil)
	})
}

func TestPersistentStopsReading(t *testing.T) {
	a := newPersistent(t, "misbehave", shortTimeout)
	if _, err := a.Do(context.Background(), Request{ID: 1, Op: "test.stopread"}); err != nil {
		t.Fatal(err)
	}
	_, err := a.Do(context.Background(), Request{ID: 2, Op: "test.echo", Input: make([]byte, 4<<20)})
	asFailure(t, err, Timeout, "did not read its request within 500ms")
	mustEcho(t, a, 3, nil)
}

func TestPersistentConcurrent(t *testing.T) {
	a := newPersistent(t, "serve", nil)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 100 {
				id := int64(g*1000 + i)
				mustEcho(t, a, id, []byte(fmt.Sprintf("goroutine %d request %d", g, i)))
			}
		})
	}
	wg.Wait()
	if s := a.Stats(); s.Starts != 1 || s.Failures != 0 {
		t.Errorf("stats %+v", s)
	}
}

func TestPersistentCancel(t *testing.T) {
	a := newPersistent(t, "misbehave", nil)
	mustEcho(t, a, 1, nil)

	cancelDuringHang(t, a)
	mustEcho(t, a, 3, nil)

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := a.Do(ctx, Request{ID: 4, Op: "test.hang"})
	asFailure(t, err, Canceled, "context ended")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("%v", err)
	}
	_, err = a.Do(ctx, Request{ID: 5, Op: "test.echo"})
	asFailure(t, err, Canceled, "not sent")
	mustEcho(t, a, 6, nil)
	if s := a.Stats(); s.Starts != 3 || s.Failures != 2 {
		t.Errorf("stats %+v", s)
	}
}

// cancelDuringHang cancels a request that the testee never answers: it
// fails at once with Canceled.
func cancelDuringHang(t *testing.T, a Implementation) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	start := time.Now()
	_, err := a.Do(ctx, Request{ID: 2, Op: "test.hang"})
	asFailure(t, err, Canceled, "")
	if !errors.Is(err, context.Canceled) || time.Since(start) > 3*time.Second {
		t.Errorf("%v after %v", err, time.Since(start))
	}
}

// closeDuringHang closes the adapter during a request that the testee
// never answers: it fails at once with Closed, and so does the next.
func closeDuringHang(t *testing.T, a Implementation) {
	t.Helper()
	time.AfterFunc(200*time.Millisecond, func() { a.Close() })
	start := time.Now()
	_, err := a.Do(context.Background(), Request{ID: 2, Op: "test.hang"})
	asFailure(t, err, Closed, "closed")
	if time.Since(start) > 3*time.Second {
		t.Errorf("in-flight request ended %v after Close", time.Since(start))
	}
	_, err = a.Do(context.Background(), Request{ID: 3, Op: "test.echo"})
	asFailure(t, err, Closed, "closed")
}

func TestPersistentClose(t *testing.T) {
	a := newPersistent(t, "misbehave", nil)
	e := mustEcho(t, a, 1, nil)
	closeDuringHang(t, a)
	waitDead(t, e.PID)
	if err := a.Close(); err != nil { // a second Close does nothing
		t.Error(err)
	}
}

func TestPersistentInvalidRequest(t *testing.T) {
	a := newPersistent(t, "serve", nil)
	mustEcho(t, a, 1, nil)
	for _, req := range []Request{
		{ID: 2, Op: "test.echo", Args: json.RawMessage(`[1]`)},
		{ID: 2, Op: "test.echo", Args: json.RawMessage(`{"a":`)},
		{ID: 2, Op: ""},
	} {
		_, err := a.Do(context.Background(), req)
		var f *Failure
		if !errors.Is(err, ErrInvalidRequest) || errors.As(err, &f) {
			t.Errorf("%+v: got %v", req, err)
		}
	}
	mustEcho(t, a, 3, nil)
	if s := a.Stats(); s.Starts != 1 {
		t.Errorf("stats %+v", s)
	}
}

// TestNoLeaks: after Close, no goroutine and no process of any adapter is left.
func TestNoLeaks(t *testing.T) {
	base := runtime.NumGoroutine()
	var pids []int
	a := newPersistent(t, "misbehave", func(c *Config) { c.MaxLine = 1 << 20; shortTimeout(c) })
	for i, op := range []string{"test.hang", "test.crash", "test.flood", "test.invalid", "test.grandchild", "test.exit"} {
		pids = append(pids, mustEcho(t, a, int64(2*i), nil).PID)
		resp, err := a.Do(context.Background(), Request{ID: int64(2*i + 1), Op: op})
		if op == "test.grandchild" {
			var r struct{ PID int }
			json.Unmarshal(resp.Result, &r)
			pids = append(pids, r.PID)
		} else if err == nil {
			t.Fatalf("%s: no failure", op)
		}
	}
	a.Close()
	o := newOneShot(t, func(c *Config) { c.MaxLine = 1 << 20; shortTimeout(c) })
	for _, op := range []string{"test.echo", "test.hang", "test.flood", "test.grandchild"} {
		o.Do(context.Background(), Request{ID: 1, Op: op, Input: make([]byte, 1<<20)})
	}
	o.Close()
	for _, pid := range pids {
		waitDead(t, pid)
	}
	var n int
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if n = runtime.NumGoroutine(); n <= base {
			return
		}
	}
	buf := make([]byte, 1<<20)
	t.Errorf("%d goroutines before, %d after:\n%s", base, n, buf[:runtime.Stack(buf, true)])
}
