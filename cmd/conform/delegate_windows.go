//go:build windows

package main

import (
	"os"
	"os/exec"
	"syscall"
)

// delegateAttr: the delegated program shares conform's console and its
// process group, so that the console's Ctrl-C reaches it directly.
func delegateAttr() *syscall.SysProcAttr { return nil }

// passOn: the console has sent Ctrl-C to the delegated program already.
func passOn(cmd *exec.Cmd, s os.Signal) {}

// exitStatus is the delegated program's exit status.
func exitStatus(ee *exec.ExitError) int { return ee.ExitCode() }
