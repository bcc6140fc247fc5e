package testee

import (
	"io"
	"os"
	"os/exec"
	"time"
)

// proc is one running testee process with its three standard streams on
// pipes, and whatever the platform gives to end it with all it started:
// on Unix the process leads a process group of its own (proc_unix.go), on
// Windows it runs in a Job Object of its own (proc_windows.go). Two
// goroutines serve it for its whole life: one reaps it (and then kills what
// is left of what it started, so that a descendant holding stdout open
// cannot hide the exit), one copies its standard error into the tail.
type proc struct {
	cmd        *exec.Cmd
	pid        int
	stdin      *os.File // our write end
	stdout     *os.File // our read end
	stderr     *os.File // our read end
	errTail    *tail
	stderrDone chan struct{}
	exited     chan struct{} // closed once the process is reaped
	cleaned    chan struct{} // closed once what it started is killed too (afterExit)
	state      *os.ProcessState
	tag        string // TagEnv's value in its environment and its descendants'
	started    uint64 // its start time where the platform tells it (startTime), else 0
	sys        procSys
}

// startProc starts argv with its standard streams on pipes, in a process
// group (Unix) or a Job Object (Windows) of its own.
func startProc(argv []string, dir string, env []string, stderrTail int) (*proc, error) {
	var files []*os.File
	closeAll := func() {
		for _, f := range files {
			f.Close()
		}
	}
	pipe := func(weRead bool) (ours, theirs *os.File, err error) {
		if ours, theirs, err = newPipe(weRead); err == nil {
			files = append(files, ours, theirs)
		}
		return
	}
	inW, inR, err := pipe(false)
	if err != nil {
		return nil, err
	}
	outR, outW, err := pipe(true)
	if err != nil {
		closeAll()
		return nil, err
	}
	errR, errW, err := pipe(true)
	if err != nil {
		closeAll()
		return nil, err
	}
	tag := newTag()
	becomeSubreaper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = dir, withTag(env, tag)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	cmd.SysProcAttr = sysProcAttr()
	if err := cmd.Start(); err != nil {
		closeAll()
		return nil, err
	}
	inR.Close()
	outW.Close()
	errW.Close()
	p := &proc{
		cmd: cmd, pid: cmd.Process.Pid,
		stdin: inW, stdout: outR, stderr: errR,
		errTail:    newTail(stderrTail),
		stderrDone: make(chan struct{}),
		exited:     make(chan struct{}),
		cleaned:    make(chan struct{}),
		tag:        tag,
	}
	if err := p.attach(); err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, err
	}
	p.started = startTime(p.pid)
	go func() {
		io.Copy(p.errTail, p.stderr)
		close(p.stderrDone)
	}()
	go func() {
		cmd.Wait()
		p.state = cmd.ProcessState
		// The leader is gone; what it started must not outlive it.
		close(p.exited)
		p.afterExit()
		close(p.cleaned)
	}()
	return p, nil
}

func (p *proc) hasExited() bool {
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

// waitExit waits up to d for the process to exit by itself.
func (p *proc) waitExit(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.exited:
		return true
	case <-t.C:
		return false
	}
}

// stderrDrain bounds how long reap waits for the standard error copy to see
// EOF once the testee is dead; a descendant that escaped can hold the pipe
// open.
const stderrDrain = 250 * time.Millisecond

// reap kills the testee and what it started, waits for the process, for
// what it started to be killed, and for its standard error, and closes our
// pipe ends. It reports whether the process had exited by itself before the
// kill.
func (p *proc) reap() (selfExited bool) {
	selfExited = p.hasExited()
	p.kill() // the reaper then kills the rest (afterExit)
	<-p.cleaned
	t := time.NewTimer(stderrDrain)
	select {
	case <-p.stderrDone:
	case <-t.C:
	}
	t.Stop()
	p.stderr.Close() // ends the copy if a stray descendant still holds the pipe
	<-p.stderrDone
	p.stdin.Close()
	p.stdout.Close()
	p.release()
	return selfExited
}

// status describes how the process ended, after reap.
func (p *proc) status(selfExited bool) string {
	if !selfExited {
		return "killed after the failure"
	}
	return "exited (" + p.state.String() + ")"
}
