//go:build unix

package testee

import (
	"context"
	"encoding/json"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// A testee that exits without answering while a process it started in a
// session of its own (setsid) holds its standard output open is reported
// as exited, from its wait status, not as a timeout (issue 17), and the
// next request starts it again. killsDetached adds, where conform can, that
// no such process is left.
func TestPersistentDetachedExit(t *testing.T) {
	for _, op := range []string{"test.detached-exit", "test.orphan-exit"} {
		t.Run(op, func(t *testing.T) {
			a := newPersistent(t, "misbehave", func(c *Config) { c.Timeout = 5 * time.Second })
			mustEcho(t, a, 1, nil)
			start := time.Now()
			_, err := a.Do(context.Background(), Request{ID: 2, Op: op})
			f := asFailure(t, err, Exited, "exit status 0")
			if took := time.Since(start); took > 2*time.Second {
				t.Errorf("exit noticed after %v", took)
			}
			m := regexp.MustCompile(`descendant (\d+)`).FindSubmatch(f.Stderr)
			if m == nil {
				t.Fatalf("no descendant in the stderr tail %q", f.Stderr)
			}
			pid, _ := strconv.Atoi(string(m[1]))
			killsDetached(t, pid)
			mustEcho(t, a, 3, nil)
		})
	}
}

// A detached descendant of a running testee is killed when the testee is
// restarted after a failure and when the adapter is closed (the end of a
// run); in one-shot mode when the testee exits, and its answer counts.
func TestDetachedDescendantsKilled(t *testing.T) {
	do := func(t *testing.T, a Implementation) int {
		resp, err := a.Do(context.Background(), Request{ID: 1, Op: "test.detached"})
		if err != nil {
			t.Fatal(err)
		}
		var r struct{ PID int }
		json.Unmarshal(resp.Result, &r)
		return r.PID
	}
	detached := func(t *testing.T, a Implementation) int {
		pid := do(t, a)
		if !alive(pid) {
			t.Fatalf("descendant %d not running", pid)
		}
		return pid
	}
	t.Run("restart", func(t *testing.T) {
		a := newPersistent(t, "misbehave", shortTimeout)
		pid := detached(t, a)
		_, err := a.Do(context.Background(), Request{ID: 2, Op: "test.crash"})
		asFailure(t, err, Exited, "exit status 3")
		killsDetached(t, pid)
		mustEcho(t, a, 3, nil)
	})
	t.Run("close", func(t *testing.T) {
		a := newPersistent(t, "misbehave", nil)
		pid := detached(t, a)
		a.Close()
		killsDetached(t, pid)
	})
	t.Run("untagged child of a detached descendant", func(t *testing.T) {
		a := newPersistent(t, "misbehave", shortTimeout)
		resp, err := a.Do(context.Background(), Request{ID: 1, Op: "test.detached-chain"})
		if err != nil {
			t.Fatal(err)
		}
		var r struct{ PID int }
		json.Unmarshal(resp.Result, &r)
		if !alive(r.PID) {
			t.Fatalf("descendant %d not running", r.PID)
		}
		_, err = a.Do(context.Background(), Request{ID: 2, Op: "test.crash"})
		asFailure(t, err, Exited, "exit status 3")
		killsDetached(t, r.PID)
	})
	t.Run("one-shot", func(t *testing.T) {
		o := newOneShot(t, func(c *Config) { c.Timeout = 5 * time.Second })
		start := time.Now()
		pid := do(t, o)
		if took := time.Since(start); took > 2*time.Second {
			t.Errorf("answered after %v", took)
		}
		killsDetached(t, pid)
	})
}
