package harness

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/threespec/conformance/vectorset"
)

// InputFiles gives the inputs of a run by path, for a testee that claims
// testee.CapabilityInputPath (docs/PROTOCOL.md, "Inputs by path"). A
// vector's committed file is passed as it is (its absolute path, after its
// bytes are checked against the index); a recipe's input is expanded,
// checked and written once per run to a file of a private temporary
// directory, read-only, and passed by that file's path.
//
// The testee runs as the same user and may do anything to those files and
// to the directory; the runner never reads them back and never uses a path
// the testee sends: it writes only files it creates anew inside the
// directory (through an os.Root, with O_EXCL, so that a symbolic link the
// testee planted is neither followed nor overwritten), and Remove deletes
// the directory without following links out of it.
//
// A recipe's file is removed as soon as the last vector that was announced
// for it (Expect) is done with it (Release), so that a run holds only the
// inputs in flight: the memory a 32 MiB input took is used again for the
// next one instead of new memory, which costs more than writing it (the
// kernel must find and clear it, and on a virtual machine that gave free
// memory back to its host, the host must provide it again).
//
// InputFiles is safe for concurrent use: different recipes are written at
// once (one per job of a run with several), the same one once.
type InputFiles struct {
	mu      sync.Mutex
	dir     string   // "" until the first recipe
	root    *os.Root // dir, opened
	byHash  map[string]*inputFile
	users   map[string]int    // recipe inputs' BLAKE2b to the vectors still to release them
	absDirs map[string]string // vectors directory to its absolute path
	n       int
	owner   *os.File // ownerFile, locked for the run's life (stale.go)
	removed bool
	writing sync.WaitGroup   // recipes being written; Remove waits for them
	parts   *vectorset.Parts // the files recipes read, read once
}

// inputFile is a recipe's file: done closes once path (and name, its name
// in the directory) or err is set.
type inputFile struct {
	done chan struct{}
	path string
	name string
	err  error
}

// NewInputFiles returns an empty set of input files; its directory is made
// on the first recipe input.
func NewInputFiles() *InputFiles {
	return &InputFiles{byHash: map[string]*inputFile{}, users: map[string]int{}, absDirs: map[string]string{}, parts: vectorset.NewParts(partsLimit)}
}

// partsLimit is the most a run keeps of the files its recipes read
// (vectorset.Parts): the committed set's recipes need 6.6 MiB of them,
// base64 included.
const partsLimit = 16 << 20

// Expect announces a vector whose input will be asked for (Path) and then
// released (Release); only announced recipe inputs are removed before
// Remove.
func (f *InputFiles) Expect(v *vectorset.Vector) {
	if v.Recipe == nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.users[v.BLAKE2b]++
}

// Release says that an announced vector is done with its input (its answer
// is in, or it failed): the recipe's file is removed when no other
// announced vector still needs it. A vector that asks for the same input
// later gets a new file.
func (f *InputFiles) Release(v *vectorset.Vector) {
	if v.Recipe == nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	n, ok := f.users[v.BLAKE2b]
	if !ok {
		return
	}
	if n > 1 {
		f.users[v.BLAKE2b] = n - 1
		return
	}
	delete(f.users, v.BLAKE2b)
	e, ok := f.byHash[v.BLAKE2b]
	if !ok || f.root == nil {
		return
	}
	select {
	case <-e.done:
	default:
		return // still being written, for a vector not announced
	}
	delete(f.byHash, v.BLAKE2b)
	if e.err == nil {
		f.root.Remove(e.name) // what it fails on, Remove deletes
	}
}

// Dir is the temporary directory, or "" when none was made.
func (f *InputFiles) Dir() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.dir
}

// Path returns the absolute path of a file holding exactly v's input bytes
// and their number. The bytes are checked against the index as they are
// read or written, and never held in memory whole.
func (f *InputFiles) Path(s *Suite, v *vectorset.Vector) (string, int64, error) {
	if v.Recipe == nil {
		if err := v.WriteInput(io.Discard, s.VectorsDir, s.Name); err != nil { // the bytes as the index says
			return "", 0, err
		}
		abs, err := f.absDir(s.VectorsDir)
		if err != nil {
			return "", 0, err
		}
		p, err := vectorset.TreePath(abs, s.Name, v.File)
		return p, v.Size, err
	}
	f.mu.Lock()
	if f.removed {
		f.mu.Unlock()
		return "", 0, errors.New("the run's input files are removed")
	}
	if e, ok := f.byHash[v.BLAKE2b]; ok {
		f.mu.Unlock()
		<-e.done
		return e.path, v.Size, e.err
	}
	e := &inputFile{done: make(chan struct{})}
	f.byHash[v.BLAKE2b] = e
	f.writing.Add(1)
	root, dir, err := f.openDir()
	f.mu.Unlock()
	if err == nil {
		e.path, e.name, err = f.write(root, dir, s, v)
	}
	f.mu.Lock()
	if e.err = err; err != nil {
		delete(f.byHash, v.BLAKE2b) // a later vector tries again
	}
	f.mu.Unlock()
	close(e.done)
	f.writing.Done()
	return e.path, v.Size, err
}

// absDir returns the absolute path of a vectors directory, computed once.
func (f *InputFiles) absDir(dir string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if abs, ok := f.absDirs[dir]; ok {
		return abs, nil
	}
	abs, err := filepath.Abs(dir)
	if err == nil {
		f.absDirs[dir] = abs
	}
	return abs, err
}

// openDir makes the temporary directory on the first call. f.mu is held.
func (f *InputFiles) openDir() (*os.Root, string, error) {
	if f.dir != "" {
		return f.root, f.dir, nil
	}
	dir, err := os.MkdirTemp("", inputsPrefix+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return nil, "", fmt.Errorf("input files: %w", err)
	}
	if f.dir, err = filepath.Abs(dir); err != nil {
		os.Remove(dir)
		f.dir = ""
		return nil, "", err
	}
	if f.root, err = os.OpenRoot(f.dir); err != nil {
		os.Remove(dir)
		f.dir = ""
		return nil, "", fmt.Errorf("input files: %w", err)
	}
	if f.owner, err = claimDir(f.root); err != nil {
		f.root.Close()
		removeTree(f.dir)
		f.dir, f.root = "", nil
		return nil, "", fmt.Errorf("input files: %w", err)
	}
	return f.root, f.dir, nil
}

// write writes v's input, checked as it is expanded, to a new file in dir
// and returns its path and name; a file whose bytes fail the check is
// removed.
func (f *InputFiles) write(root *os.Root, dir string, s *Suite, v *vectorset.Vector) (path, name string, err error) {
	for {
		f.mu.Lock()
		f.n++
		name = fmt.Sprintf("%d-%s", f.n, safeName(v.Name()))
		f.mu.Unlock()
		w, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o400)
		if errors.Is(err, fs.ErrExist) {
			continue // something else took the name: never write through it
		}
		if err != nil {
			return "", "", fmt.Errorf("input files: %w", err)
		}
		bw := fileWriters.Get().(*bufio.Writer)
		bw.Reset(w)
		err = f.parts.WriteInput(bw, v, s.VectorsDir, s.Name)
		werr := bw.Flush() // a failed write's error too: bufio keeps it
		bw.Reset(nil)
		fileWriters.Put(bw)
		if cerr := w.Close(); werr == nil {
			werr = cerr
		}
		switch {
		case werr != nil:
			root.Remove(name)
			return "", "", fmt.Errorf("input files: writing %s: %w", name, werr)
		case err != nil:
			root.Remove(name)
			return "", "", err // the vector's: its bytes are not the index's
		}
		return filepath.Join(dir, name), name, nil
	}
}

// fileWriters are the buffers recipe inputs are written through, 256 KiB
// each, used again from one recipe to the next.
var fileWriters = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, 256<<10) }}

// safeName keeps the characters of a vector name that are safe in a file
// name.
func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			return r
		}
		return '_'
	}, s)
}

// Remove deletes the temporary directory and everything in it (symbolic
// links are removed, not followed). Later calls of Path for recipes fail.
// It may be called more than once, also while a run is in flight (on an
// interrupt).
func (f *InputFiles) Remove() error {
	f.mu.Lock()
	f.removed = true
	f.mu.Unlock()
	f.writing.Wait() // a recipe being written finishes its file first
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.dir == "" {
		return nil
	}
	f.root.Close()
	f.owner.Close() // unlocks it: the directory goes next
	dir := f.dir
	f.dir, f.root, f.owner = "", nil, nil
	return removeTree(dir)
}

// removeTree deletes dir and everything in it, following no link out of
// it. A testee may have taken the write permission away: it is given back
// (to directories inside dir only; Chmod of a link would follow it). Where
// os.RemoveAll's deletion through the directory's handle fails (wine, and
// file systems without POSIX delete semantics, on Windows), each entry is
// removed by its path, deepest first.
func removeTree(dir string) error {
	if os.RemoveAll(dir) == nil {
		return nil
	}
	os.Chmod(dir, 0o700)
	var paths []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(p, 0o700)
		}
		paths = append(paths, p)
		return nil
	})
	err := os.RemoveAll(dir)
	if err == nil {
		return nil
	}
	for i := len(paths) - 1; i >= 0; i-- {
		os.Remove(paths[i]) // a file, a link (not followed) or an emptied directory
	}
	if _, serr := os.Lstat(dir); errors.Is(serr, fs.ErrNotExist) {
		return nil
	}
	return err
}
