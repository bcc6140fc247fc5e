//go:build linux

package testee

import (
	"os"
	"strconv"
	"testing"
	"time"
)

// killsDetached checks that process pid, a testee's descendant that left
// its process group, is gone within 2 s: killed and reaped, not even a
// zombie (Linux: descendants_linux.go).
func killsDetached(t *testing.T, pid int) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); os.IsNotExist(err) {
			return
		}
	}
	state := "alive"
	if !alive(pid) {
		state = "a zombie"
	}
	t.Errorf("descendant %d still %s", pid, state)
}
