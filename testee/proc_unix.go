//go:build unix

package testee

import (
	"errors"
	"os"
	"syscall"
)

// On Unix the testee leads a process group of its own (Setpgid), so that
// what it starts goes into that group and one signal ends them all; what
// left the group is found as lifecycle.go says.

// procSys is what a Unix proc needs beyond the shared fields: nothing.
type procSys struct{}

func sysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// newPipe is os.Pipe, ours the end conform reads (weRead) or writes.
func newPipe(weRead bool) (ours, theirs *os.File, err error) {
	r, w, err := os.Pipe()
	if weRead {
		return r, w, err
	}
	return w, r, err
}

// attach: nothing to do once the process has started.
func (p *proc) attach() error { return nil }

// release: nothing to release after reap.
func (p *proc) release() {}

// kill sends SIGKILL to the testee's process group and to the testee
// itself: a testee may have left its group (setpgid into another, even
// conform's own), and then killing the group alone would leave it running
// and reap waiting for it forever (issue 30, item 4). The leader is
// signalled through os.Process, which never signals a pid that its waiter
// has already reaped and that may since belong to another process.
func (p *proc) kill() {
	syscall.Kill(-p.pid, syscall.SIGKILL)
	p.cmd.Process.Kill()
}

// killTree kills the testee, its process group and every descendant found
// (killDescendants), and reaps those of them conform adopted.
func (p *proc) killTree() {
	p.kill()
	killDescendants(p.pid, p.tag, p.started)
}

// brokenPipe reports whether err says the reader of a pipe is gone.
func brokenPipe(err error) bool { return errors.Is(err, syscall.EPIPE) }
