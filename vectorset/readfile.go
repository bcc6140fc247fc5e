package vectorset

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Reading the files of a vector set. Whatever a vectors or manifest
// directory holds is read as a regular file, or not at all: a symbolic
// link is not followed (one to /dev/zero would never end), a FIFO is not
// opened for reading (its open would wait for a writer), and a file's
// size is known, and checked against what it may be, before a byte of it
// is read (docs/CONFORM.md, "Verification first"; issue 30).

// NotRegularError is the error for a path that names something other
// than a regular file: a symbolic link, a directory, a FIFO, a device or
// a socket.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s: not a regular file (%s); vector sets are read as regular files only, links are not followed", e.Path, FileKind(e.Mode))
}

// FileKind names the type of a file mode that is not a regular file's ("a
// symbolic link", "a FIFO", ...).
func FileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "type " + m.Type().String()
}

// OpenRegular opens the file at path for reading when it is a regular
// file, and returns it with its size. The last element of path is not
// followed when it is a symbolic link, and nothing else than a regular
// file is opened (a FIFO, a device): that is a *NotRegularError. The file
// is checked with Lstat before it is opened and with Stat once it is open,
// so that one replaced in between is refused too.
func OpenRegular(path string) (*os.File, int64, error) {
	f, st, err := openRegular(path)
	if err != nil {
		return nil, 0, err
	}
	return f, st.Size(), nil
}

// openRegular is OpenRegular, giving the open file's Stat.
func openRegular(path string) (*os.File, fs.FileInfo, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, &NotRegularError{Path: path, Mode: fi.Mode()}
	}
	f, err := openNoFollow(path)
	if err != nil {
		if fi, lerr := os.Lstat(path); lerr == nil && !fi.Mode().IsRegular() {
			return nil, nil, &NotRegularError{Path: path, Mode: fi.Mode()}
		}
		return nil, nil, err
	}
	st, err := f.Stat()
	switch {
	case err != nil:
		f.Close()
		return nil, nil, err
	case !st.Mode().IsRegular():
		f.Close()
		return nil, nil, &NotRegularError{Path: path, Mode: st.Mode()}
	case !os.SameFile(fi, st):
		f.Close()
		return nil, nil, fmt.Errorf("%s: replaced while it was opened", path)
	}
	return f, st, nil
}

// ErrTooLarge is wrapped by the error of ReadRegular for a file longer
// than its limit.
var ErrTooLarge = errors.New("longer than allowed")

// ReadRegular reads the regular file at path (OpenRegular), failing before
// it reads anything when the file holds more than limit bytes, and after
// at most limit+1 when it grows while it is read.
func ReadRegular(path string, limit int64) ([]byte, error) {
	b, _, err := ReadRegularStat(path, limit)
	return b, err
}

// ReadRegularStat is ReadRegular, also giving the file's Stat as it was
// opened (to tell later whether it changed).
func ReadRegularStat(path string, limit int64) ([]byte, fs.FileInfo, error) {
	f, st, err := openRegular(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	if st.Size() > limit {
		return nil, nil, fmt.Errorf("%s: %d bytes: %w (at most %d)", path, st.Size(), ErrTooLarge, limit)
	}
	b, err := readSized(f, path, st.Size())
	return b, st, err
}

// readSized reads exactly size bytes of f, named path, and checks that
// none follow.
func readSized(f *os.File, path string, size int64) ([]byte, error) {
	b := make([]byte, size)
	if _, err := io.ReadFull(f, b); err != nil {
		if err == io.ErrUnexpectedEOF || err == io.EOF {
			return nil, fmt.Errorf("%s: shorter than its %d bytes: it changed while it was read", path, size)
		}
		return nil, err
	}
	var one [1]byte
	if n, _ := f.Read(one[:]); n > 0 {
		return nil, fmt.Errorf("%s: longer than its %d bytes: it changed while it was read", path, size)
	}
	return b, nil
}
