//go:build unix && !linux

package testee

import (
	"syscall"
	"testing"
)

// killsDetached: elsewhere than Linux a descendant that left the testee's
// process group is not found (descendants_other.go); the test kills it.
func killsDetached(t *testing.T, pid int) { syscall.Kill(pid, syscall.SIGKILL) }
