//go:build unix

package testee

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"strconv"
	"syscall"
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

// Issue 30, item 4: a testee that moves itself into conform's own process
// group (setpgid(0, getpgid(getppid()))) leaves its group empty; killing
// the group alone left it running and reap waiting for it forever. It is
// killed by its own pid as well: on a timeout (persistent and one-shot),
// by Close with the request in flight, and by Kill.
func TestTesteeThatLeavesItsGroup(t *testing.T) {
	const bound = 5 * time.Second // it was forever
	escaped := func(t *testing.T, f *Failure) int {
		t.Helper()
		m := regexp.MustCompile(`escaped pid (\d+) into group (\d+) \(<nil>\)`).FindSubmatch(f.Stderr)
		if m == nil {
			t.Fatalf("the testee did not leave its group: stderr %q", f.Stderr)
		}
		pid, _ := strconv.Atoi(string(m[1]))
		if pg, _ := strconv.Atoi(string(m[2])); pg != syscall.Getpgrp() {
			t.Fatalf("the testee joined group %d, not this process's %d", pg, syscall.Getpgrp())
		}
		return pid
	}
	// within runs do and fails the test if it takes longer than bound.
	within := func(t *testing.T, do func() error) error {
		t.Helper()
		done := make(chan error, 1)
		start := time.Now()
		go func() { done <- do() }()
		select {
		case err := <-done:
			t.Logf("ended in %v", time.Since(start).Round(time.Millisecond))
			return err
		case <-time.After(bound):
			t.Fatalf("still waiting after %v", bound)
			return nil
		}
	}
	t.Run("persistent timeout", func(t *testing.T) {
		a := newPersistent(t, "misbehave", shortTimeout)
		mustEcho(t, a, 1, nil)
		err := within(t, func() error {
			_, err := a.Do(context.Background(), Request{ID: 2, Op: "test.escape-group"})
			return err
		})
		waitDead(t, escaped(t, asFailure(t, err, Timeout, "no answer")))
		mustEcho(t, a, 3, nil)
	})
	t.Run("one-shot timeout", func(t *testing.T) {
		o := newOneShot(t, shortTimeout)
		err := within(t, func() error {
			_, err := o.Do(context.Background(), Request{ID: 1, Op: "test.escape-group"})
			return err
		})
		waitDead(t, escaped(t, asFailure(t, err, Timeout, "did not finish")))
	})
	for _, end := range []string{"Close", "Kill"} {
		t.Run("persistent "+end+" in flight", func(t *testing.T) {
			a := newPersistent(t, "misbehave", nil) // a roomy timeout: the end comes first
			mustEcho(t, a, 1, nil)
			res := make(chan error, 1)
			go func() {
				_, err := a.Do(context.Background(), Request{ID: 2, Op: "test.escape-group"})
				res <- err
			}()
			deadline := time.Now().Add(bound)
			for !bytes.Contains(a.cur.Load().errTail.Bytes(), []byte("escaped")) {
				if time.Now().After(deadline) {
					t.Fatal("the testee never said it escaped")
				}
				time.Sleep(5 * time.Millisecond)
			}
			pid := a.cur.Load().pid
			within(t, func() error {
				if end == "Kill" {
					a.Kill()
					return nil
				}
				return a.Close()
			})
			waitDead(t, pid)
			within(t, func() error { return <-res })
		})
	}
}
