//go:build unix

package testee

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

// A pool answers as many requests at once as it has members, each in a
// process of its own; hello reaches one of them; a failure restarts only
// the member that failed; Stderr names the members when several wrote;
// Close ends them all.
func TestPool(t *testing.T) {
	const n = 3
	p := newAdapter(t, testeeConfig("misbehave"), nil, func(c Config) (*Pool, error) { return NewPool(c, n) })
	ctx := context.Background()
	if h, err := Handshake(ctx, p); err != nil || h.Implementation != "echo-testee 1.0" {
		t.Fatalf("hello: %+v, %v", h, err)
	}
	if s := p.Stats(); s.Starts != 1 || s.Processes != 1 {
		t.Fatalf("after hello: %+v; want one process started", s)
	}

	const pause = 400 * time.Millisecond
	pids := make([]int, n)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range n {
		wg.Go(func() {
			resp, err := p.Do(ctx, Request{ID: int64(i + 1), Op: "test.pause", Args: []byte(`{"ms":400}`)})
			if err != nil || resp.Outcome != Accepted {
				t.Errorf("pause %d: %+v, %v", i, resp, err)
				return
			}
			pids[i] = decodeEcho(t, resp).PID
		})
	}
	wg.Wait()
	if took := time.Since(start); took >= n*pause {
		t.Errorf("%d pauses of %v at once took %v: not in parallel", n, pause, took)
	}
	if pids[0] == pids[1] || pids[1] == pids[2] || pids[0] == pids[2] {
		t.Errorf("answered by processes %v; want %d different ones", pids, n)
	}
	if s := p.Stats(); s.Starts != n || s.Processes != n || s.Restarts() != 0 {
		t.Errorf("stats %+v: want %d processes started once each", s, n)
	}

	_, err := p.Do(ctx, Request{ID: 10, Op: "test.crash"})
	if f := (*Failure)(nil); !errors.As(err, &f) || f.Kind != Exited {
		t.Fatalf("crash: %v, want an Exited failure", err)
	}
	if _, err := p.Do(ctx, Request{ID: 11, Op: "test.stderr"}); err != nil {
		t.Fatal(err)
	}
	// The crashed member's last process and the one that wrote, each under
	// its member's name (standard error is copied as it comes: wait for the
	// last line).
	tail := string(p.Stderr())
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(tail, "END-OF-STDERR") && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
		tail = string(p.Stderr())
	}
	if !strings.Contains(tail, "crashing on purpose") || !strings.Contains(tail, "END-OF-STDERR") || strings.Count(tail, " of 3]\n") != 2 {
		t.Errorf("stderr tails: %d bytes, %d headers; crash %v, END %v", len(tail), strings.Count(tail, " of 3]\n"),
			strings.Contains(tail, "crashing on purpose"), strings.Contains(tail, "END-OF-STDERR"))
	}
	for id := int64(12); id < 12+n; id++ {
		mustEcho(t, p, id, []byte("after the crash"))
	}
	if s := p.Stats(); s.Starts != n+1 || s.Failures != 1 || s.Restarts() != 1 || s.Processes != n {
		t.Errorf("stats after a crash %+v: want one restart", s)
	}

	p.Close()
	if _, err := p.Do(ctx, Request{ID: 20, Op: "test.echo"}); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Errorf("after Close: %v, want Closed", err)
	}
}
