//go:build unix

package vectorset

import (
	"os"
	"syscall"
)

// openNoFollow opens path for reading without following a symbolic link
// at its last element and without blocking on a FIFO's open.
func openNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
}
