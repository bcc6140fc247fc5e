//go:build linux

package harness

import (
	"io/fs"
	"syscall"
)

// sameChangeTime reports whether two Stats of a file give the same
// status-change time (ctime), which every write, chmod or link changes.
func sameChangeTime(a, b fs.FileInfo) bool {
	sa, ok1 := a.Sys().(*syscall.Stat_t)
	sb, ok2 := b.Sys().(*syscall.Stat_t)
	return !ok1 || !ok2 || sa.Ctim == sb.Ctim
}
