//go:build !unix

package harness

import "os"

// openNonBlocking opens path for reading; openInputSized has checked it is
// a regular file, and checks it again once open.
func openNonBlocking(path string) (*os.File, error) {
	return os.Open(path)
}

// openInputFile reads the input file a request names, at most max bytes
// (readInputFile); release has nothing to let go of.
func openInputFile(path string, max int) (b []byte, release func(), err error) {
	b, err = readInputFile(path, max)
	return b, func() {}, err
}
