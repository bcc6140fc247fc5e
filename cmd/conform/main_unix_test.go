//go:build unix

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/threespec/conformance/harness"
	"github.com/threespec/conformance/harness/harnesstest"
	"github.com/threespec/conformance/internal/allspecs"
)

// SIGINT stops the run, the report says what ran, the exit status is 130
// and the testee is gone. One job, so that what ran is certain: a is
// answered before b is asked, c never is (with two, c could be answered
// by the other testee before the interrupt arrives).
func TestInterruptWithSIGINT(t *testing.T) {
	root := t.TempDir()
	vdir, err := harnesstest.WriteSuite(root, allspecs.Synthetic(), []harnesstest.Vector{
		{Name: "a", Input: "ok:{}"}, {Name: "b", Input: "hang"}, {Name: "c", Input: "ok:{}"},
	})
	if err != nil {
		t.Fatal(err)
	}
	pidfile, hangfile := filepath.Join(root, "pid"), filepath.Join(root, "hanging")
	cmd := exec.Command(os.Args[0], "conform", "run", "-j", "1", "--vectors", vdir, "--timeout", "1m", "--",
		os.Args[0], "testee", "-pidfile", pidfile, "-hangfile", hangfile)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if _, err := os.Stat(hangfile); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	cmd.Process.Signal(os.Interrupt)
	err = cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != harness.ExitInterrupted {
		t.Fatalf("conform ended with %v, want exit status %d\n%s", err, harness.ExitInterrupted, out.String())
	}
	for _, want := range []string{"INTERRUPTED", "1 passed", "2 not run"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, out.String())
		}
	}
	b, _ := os.ReadFile(pidfile)
	var pid int
	for _, c := range strings.TrimSpace(string(b)) {
		pid = pid*10 + int(c-'0')
	}
	if pid == 0 || syscall.Kill(pid, 0) != syscall.ESRCH {
		t.Errorf("the testee (pid %d) survived the interrupt", pid)
	}
}

// An interrupt (one SIGINT, or two: the second quits at once) removes the
// run's directory of recipe inputs written for a testee taking inputs by
// path, with the run in flight. Before it, the directory holds only the
// input in flight: a's file went when a was answered.
func TestInterruptRemovesInputFiles(t *testing.T) {
	for _, signals := range []int{1, 2} {
		t.Run(strconv.Itoa(signals)+" SIGINT", func(t *testing.T) {
			root, tmp := t.TempDir(), t.TempDir()
			vdir, err := harnesstest.WriteSuite(root, allspecs.Synthetic(), []harnesstest.Vector{
				{Name: "a", Input: "ok:{}", Recipe: true}, {Name: "b", Input: "hang", Recipe: true}, {Name: "c", Input: "ok:{}"},
			})
			if err != nil {
				t.Fatal(err)
			}
			hangfile := filepath.Join(root, "hanging")
			cmd := exec.Command(os.Args[0], "conform", "run", "-j", "1", "--vectors", vdir, "--timeout", "1m", "--",
				os.Args[0], "testee", "-inputpath", "-hangfile", hangfile)
			cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
				if _, err := os.Stat(hangfile); err == nil {
					break
				}
			}
			dirs, _ := filepath.Glob(filepath.Join(tmp, "conform-inputs-*"))
			if len(dirs) != 1 {
				cmd.Process.Kill()
				t.Fatalf("during the run: input directories %q, want one\n%s", dirs, out.String())
			}
			ents, _ := os.ReadDir(dirs[0])
			ents = slices.DeleteFunc(ents, func(e os.DirEntry) bool { return strings.HasPrefix(e.Name(), ".") }) // the run's owner file
			if len(ents) != 1 || !strings.HasSuffix(ents[0].Name(), "-b") {
				var names []string
				for _, e := range ents {
					names = append(names, e.Name())
				}
				t.Errorf("during the run: files %q in %s, want only b's (in flight)", names, dirs[0])
			}
			for range signals {
				cmd.Process.Signal(os.Interrupt)
			}
			err = cmd.Wait()
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != harness.ExitInterrupted {
				t.Fatalf("conform ended with %v, want exit status %d\n%s", err, harness.ExitInterrupted, out.String())
			}
			if _, err := os.Lstat(dirs[0]); !os.IsNotExist(err) {
				t.Errorf("after the interrupt %s is still there (%v)\n%s", dirs[0], err, out.String())
			}
		})
	}
}
