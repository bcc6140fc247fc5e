//go:build !unix

package vectorset

import "os"

// openNoFollow opens path for reading. Without O_NOFOLLOW and O_NONBLOCK
// the checks around it (Lstat before, Stat and os.SameFile after) refuse
// what is not the regular file Lstat saw.
func openNoFollow(path string) (*os.File, error) {
	return os.Open(path)
}
