//go:build unix

package testee

import (
	"errors"
	"fmt"
	"syscall"
)

// ownResource reports whether err says that this process ran out of file
// descriptors (EMFILE), the system of open files (ENFILE), or memory
// (ENOMEM), and names the limit reached when it can.
func ownResource(err error) (hint string, ok bool) {
	switch {
	case errors.Is(err, syscall.EMFILE):
		var rl syscall.Rlimit
		if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl) == nil {
			return fmt.Sprintf("its limit of open files, ulimit -n, is %d: lower -j or raise it", rl.Cur), true
		}
		return "its limit of open files, ulimit -n, is reached: lower -j or raise it", true
	case errors.Is(err, syscall.ENFILE):
		return "the system's table of open files is full", true
	case errors.Is(err, syscall.ENOMEM):
		return "out of memory", true
	}
	return "", false
}
