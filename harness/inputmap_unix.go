//go:build unix

package harness

import (
	"fmt"
	"os"
	"syscall"
)

// mapMin is the least size of an input file that openInputFile maps rather
// than reads: below it a read costs less than a mapping.
const mapMin = 1 << 20

// openInputFile gives the bytes of the input file a request names, at most
// max of them, and the function that lets go of them. A regular file of
// mapMin bytes or more is mapped (copy on write, at the place where
// the runner just wrote it: a 32 MiB input costs no new memory and no
// copy); any other file is read, as readInputFile does. The caller must
// not use the bytes after release and must read them with a fault turned
// into a panic (debug.SetPanicOnFault): a mapped file cut short while it
// is read faults instead of ending.
func openInputFile(path string, max int) (b []byte, release func(), err error) {
	switch b, err = mapInputFile(path, max); {
	case err != nil:
		return nil, nil, err
	case b != nil:
		return b, func() { syscall.Munmap(b) }, nil
	}
	b, err = readInputFile(path, max)
	return b, func() {}, err
}

// mapInputFile maps the file at path when it is a regular file of mapMin
// to max bytes; it returns nil and no error for a file it does not map.
// The mapping is copy on write: the bytes may be written, never the file.
func mapInputFile(path string, max int) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil // readInputFile reports it
	}
	defer f.Close()
	fi, err := f.Stat()
	switch {
	case err != nil || !fi.Mode().IsRegular() || fi.Size() < mapMin:
		return nil, nil
	case fi.Size() > int64(max):
		return nil, fmt.Errorf("%s: %d bytes, longer than the read cap of %d bytes", path, fi.Size(), max)
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(fi.Size()), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE)
	if err != nil {
		return nil, nil // readInputFile reads it instead
	}
	return b, nil
}
