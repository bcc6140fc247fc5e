//go:build unix

package testee

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"sync"
	"testing"
	"time"
)

func newOneShot(t *testing.T, mod func(*Config)) *OneShot {
	t.Helper()
	cfg := testeeConfig("oneshot")
	// An inherited CONFORM_ARGS must not reach the testee.
	cfg.Env = append(cfg.Env, ArgsEnv+`={"inherited":true}`)
	return newAdapter(t, cfg, mod, NewOneShot)
}

func TestOneShot(t *testing.T) {
	o := newOneShot(t, func(c *Config) { c.MaxLine = 8 << 20 })
	oShort := newOneShot(t, shortTimeout)
	h, err := Handshake(context.Background(), o)
	if err != nil || h.Implementation != "echo-testee 1.0" || !h.Claims("test.echo") {
		t.Fatalf("hello: %+v %v", h, err)
	}
	mustEcho(t, o, 7, []byte("raw \x00\xff input"))
	mustEcho(t, o, 8, bytes.Repeat([]byte{0xa5}, 3<<20)) // larger than a pipe buffer

	tests := []struct {
		op      string
		outcome Outcome
		kind    Kind
		detail  string
		stderr  string
	}{
		{op: "test.pretty", outcome: Accepted},
		{op: "test.reject", outcome: Rejected},
		{op: "test.unsupported", outcome: Unsupported},
		{op: "test.grandchild", outcome: Accepted},
		{op: "test.wrongexit", kind: BadExit, detail: "exited (exit status 1) after an ok:true response; want exit status 0"},
		{op: "test.exit3", kind: BadExit, detail: "exited (exit status 3) after an ok:true response; want exit status 0"},
		{op: "test.rejectexit0", kind: BadExit, detail: "exited (exit status 0) after an ok:false response; want exit status 1"},
		{op: "test.signal", kind: BadExit, detail: "exited (signal: killed) after an ok:true response"},
		{op: "test.hang", kind: Timeout, detail: "did not finish within 500ms; killed after the failure"},
		{op: "test.garbage", kind: InvalidJSON, detail: `not valid JSON: "garbage\n"; exited (exit status 0)`},
		{op: "test.two", kind: InvalidJSON, detail: "not valid JSON"},
		{op: "test.empty", kind: Exited, detail: "exited (exit status 0) without writing a response", stderr: "nothing to say\n"},
		{op: "test.flood", kind: Flood, detail: "standard output longer than the read cap of 8388608 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.op, func(t *testing.T) {
			a := o
			if tt.kind == Timeout {
				a = oShort
			}
			start := time.Now()
			resp, err := a.Do(context.Background(), Request{ID: 9, Op: tt.op, Input: []byte("abc")})
			if tt.kind != 0 {
				f := asFailure(t, err, tt.kind, tt.detail)
				if string(f.Stderr) != tt.stderr {
					t.Errorf("stderr %q, want %q", f.Stderr, tt.stderr)
				}
				if tt.kind == Timeout && time.Since(start) < testTimeout {
					t.Errorf("timed out after %v", time.Since(start))
				}
				return
			}
			if err != nil || resp.Outcome != tt.outcome || resp.ID != 9 {
				t.Fatalf("got %+v, %v; want %v", resp, err, tt.outcome)
			}
			switch tt.op {
			case "test.pretty":
				if string(resp.Result) != "{\n    \"n\": 3\n  }" {
					t.Errorf("result %q", resp.Result)
				}
			case "test.grandchild":
				// The testee exits with a descendant holding its standard
				// output: the answer comes (not a timeout), and the
				// descendant dies.
				var r struct{ PID int }
				json.Unmarshal(resp.Result, &r)
				waitDead(t, r.PID)
			}
		})
	}
}

func TestOneShotStartFailed(t *testing.T) {
	o := newOneShot(t, func(c *Config) { c.Command = []string{"/nonexistent/testee-binary"} })
	_, err := o.Do(context.Background(), HelloRequest())
	asFailure(t, err, StartFailed, `starting "/nonexistent/testee-binary"`)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%v", err)
	}
}

func TestOneShotConcurrent(t *testing.T) {
	o := newOneShot(t, nil)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 4 {
				id := int64(g*10 + i)
				mustEcho(t, o, id, bytes.Repeat([]byte{byte(id)}, int(id)*1000))
			}
		})
	}
	wg.Wait()
}

func TestOneShotCancelAndClose(t *testing.T) {
	o := newOneShot(t, nil)
	cancelDuringHang(t, o)
	closeDuringHang(t, o)
}

func TestOneShotInvalidRequest(t *testing.T) {
	o := newOneShot(t, nil)
	for _, req := range []Request{
		{ID: 2, Op: "test.echo", Args: json.RawMessage(`"x"`)},
		{ID: 2, Op: ""},
	} {
		_, err := o.Do(context.Background(), req)
		var f *Failure
		if !errors.Is(err, ErrInvalidRequest) || errors.As(err, &f) {
			t.Errorf("%+v: got %v", req, err)
		}
	}
}
