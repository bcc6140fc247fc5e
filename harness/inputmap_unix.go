//go:build unix

package harness

import (
	"os"
	"syscall"
)

// openNonBlocking opens path for reading without blocking: a FIFO's open
// returns at once instead of waiting for a writer (openInputSized then
// refuses it).
func openNonBlocking(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

// mapMin is the least size of an input file that openInputFile maps rather
// than reads: below it a read costs less than a mapping.
const mapMin = 1 << 20

// openInputFile gives the bytes of the input file a request names, at most
// max of them, and the function that lets go of them. A regular file of
// mapMin bytes or more is mapped (copy on write: the bytes may be written,
// never the file; at the place where the runner just wrote it, a 32 MiB
// input costs no new memory and no copy); any other file, or one that
// cannot be mapped, is read (readOpened). The caller must not use the
// bytes after release and must read them with a fault turned into a panic
// (debug.SetPanicOnFault): a mapped file cut short while it is read
// faults instead of ending.
func openInputFile(path string, max int) (b []byte, release func(), err error) {
	f, size, err := openInputSized(path, max)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	if size >= mapMin {
		if b, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE); err == nil {
			return b, func() { syscall.Munmap(b) }, nil
		}
	}
	b, err = readOpened(f, path, size, max)
	return b, func() {}, err
}
