package harness

import (
	"io/fs"
	"os"
)

// unchangedSince reports whether the file at path is still the one was
// describes, as it was: the same file (os.SameFile: not replaced), of the
// same size, mode and modification time, and, where the platform gives it
// (sameChangeTime), the same status-change time, which only the kernel
// sets: a file written and given its modification time back still shows.
func unchangedSince(path string, was fs.FileInfo) bool {
	now, err := os.Lstat(path)
	return err == nil && os.SameFile(now, was) && now.Size() == was.Size() && now.Mode() == was.Mode() &&
		now.ModTime().Equal(was.ModTime()) && sameChangeTime(now, was)
}
