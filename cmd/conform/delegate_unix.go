//go:build unix

package main

import (
	"os"
	"os/exec"
	"syscall"
)

// delegateAttr puts the delegated program in a process group of its own.
func delegateAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// passOn sends s to the delegated program's group: under go run, the
// program is go's child.
func passOn(cmd *exec.Cmd, s os.Signal) {
	if sig, ok := s.(syscall.Signal); ok {
		syscall.Kill(-cmd.Process.Pid, sig)
	}
}

// exitStatus is the delegated program's exit status, 128+N for signal N.
func exitStatus(ee *exec.ExitError) int {
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ee.ExitCode()
}
