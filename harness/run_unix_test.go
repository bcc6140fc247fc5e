//go:build unix

package harness

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/threespec/conformance/harness/harnesstest"
	"github.com/threespec/conformance/internal/allspecs"
)

// Canceling the run (SIGINT) stops it: the vector in flight and the rest
// are not run, the report says interrupted, and the testee is gone.
func TestInterrupt(t *testing.T) {
	vecs := []harnesstest.Vector{{Name: "a", Input: "ok:{}"}, {Name: "b", Input: "hang"}, {Name: "c", Input: "ok:{}"}}
	pidfile := filepath.Join(t.TempDir(), "pid")
	cmd := self("testee", "-pidfile", pidfile)
	tt, err := StartTestee(cmd, TesteeOptions{Timeout: time.Minute, HelloTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cfg := Config{Specs: allspecs.Set(), Suites: synthetic(t, vecs), Impl: tt.Impl}
	cfg.Progress = func(p Progress) {
		if p.Done == 1 {
			time.AfterFunc(200*time.Millisecond, cancel)
		}
	}
	start := time.Now()
	rep := Run(ctx, cfg)
	tt.Impl.Close()
	if time.Since(start) > 20*time.Second {
		t.Errorf("the interrupt took %v", time.Since(start))
	}
	if !rep.Interrupted || rep.ExitCode != ExitInterrupted {
		t.Fatalf("interrupted %v, exit %d", rep.Interrupted, rep.ExitCode)
	}
	if byID(t, rep, "a").Status != Pass || byID(t, rep, "b").Status != NotRun || byID(t, rep, "c").Status != NotRun {
		t.Errorf("statuses %s %s %s", byID(t, rep, "a").Status, byID(t, rep, "b").Status, byID(t, rep, "c").Status)
	}
	assertGone(t, pidfile)
}

// assertGone checks that the process whose ID is in pidfile has exited.
func assertGone(t *testing.T, pidfile string) {
	t.Helper()
	b, err := os.ReadFile(pidfile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if syscall.Kill(pid, 0) == syscall.ESRCH || zombie(pid) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("testee %s still runs", b)
}

// At the end of a run the testee's whole process group is gone, whatever
// it started.
func TestProcessGroupKilledAtEnd(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "child")
	script := `sleep 300 & echo $! > "$1"; exec "$2" testee`
	tt, err := StartTestee([]string{"/bin/sh", "-c", script, "sh", pidfile, os.Args[0]}, TesteeOptions{Timeout: 5 * time.Second, HelloTimeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	rep := Run(context.Background(), Config{Specs: allspecs.Set(), Suites: synthetic(t, []harnesstest.Vector{{Name: "a", Input: "ok:{}"}}), Impl: tt.Impl})
	tt.Impl.Close()
	if rep.ExitCode != ExitPass {
		t.Fatalf("exit %d", rep.ExitCode)
	}
	assertGone(t, pidfile)
}

// zombie reports whether pid has exited but is not reaped yet (its parent
// may be an init that reaps late).
func zombie(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && s[i+2] == 'Z'
}
