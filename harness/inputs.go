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
// directory, read-only, and passed by that file's path. (A private copy
// of every committed file was measured and left out: on ext4 the creation
// and removal of ~3,400 files a run tripled the run's system time, 0.5 s
// to 2 to 3 s. A committed file the testee changes is found after the run
// instead, Run's checkCommitted.)
//
// The testee runs as the same user and may do anything to those files and
// to the directory; the runner never reads them back and never uses a path
// the testee sends: it writes only files it creates anew inside the
// directory (through an os.Root, with O_EXCL, so that a symbolic link the
// testee planted is neither followed nor overwritten), and Remove deletes
// the directory without following links out of it. What the testee did is
// the testee's failure when it shows (TamperedError): an input that cannot
// be written because the testee took the directory's permissions away,
// removed or replaced it, or a file given for an earlier request that it
// changed, when a later request would be given that file again. The
// directory is then repaired (its permissions given back, or a new one
// made) and the run goes on (issue 30: it was conform's setup error).
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
	dir     string      // "" until the first recipe
	dirInfo fs.FileInfo // dir as it was made
	oldDirs []string    // directories the testee removed or replaced, for Remove
	root    *os.Root    // dir, opened
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
// in the directory, and info, what it was when written) or err is set.
type inputFile struct {
	done chan struct{}
	path string
	name string
	info fs.FileInfo
	err  error
}

// TamperedError is the error of InputFiles.Path when the testee changed
// what conform gives it by path so that an input cannot be given (the
// directory's permissions taken away, the directory removed or replaced,
// a file of an earlier request changed): the testee's failure, reported
// as kind "tampered" (docs/PROTOCOL.md, "Inputs by path").
type TamperedError struct {
	What string // what the testee did
	Err  error  // what conform failed on, or nil
}

func (e *TamperedError) Error() string {
	s := "the testee " + e.What + "; conform's input files and their directory are not the testee's to change"
	if e.Err != nil {
		s += " (" + e.Err.Error() + ")"
	}
	return s
}

func (e *TamperedError) Unwrap() error { return e.Err }

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
// read or written, and never held in memory whole. An input the testee
// kept conform from giving is a *TamperedError.
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
		if e.err == nil {
			if err := f.unchanged(e); err != nil {
				return "", 0, err
			}
		}
		return e.path, v.Size, e.err
	}
	e := &inputFile{done: make(chan struct{})}
	f.byHash[v.BLAKE2b] = e
	f.writing.Add(1)
	root, dir, err := f.openDir()
	f.mu.Unlock()
	if err == nil {
		e.path, e.name, e.info, err = f.write(root, dir, s, v)
	}
	f.mu.Lock()
	if e.err = err; err != nil && f.byHash[v.BLAKE2b] == e {
		delete(f.byHash, v.BLAKE2b) // a later vector tries again
	}
	f.mu.Unlock()
	close(e.done)
	f.writing.Done()
	return e.path, v.Size, err
}

// unchanged checks that the file of an earlier request, to be given again,
// is as it was written: the same file, of the same size, mode and
// modification time. A file the testee changed is dropped (the next
// request for it gets a new one) and reported as its failure.
func (f *InputFiles) unchanged(e *inputFile) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.root == nil || filepath.Dir(e.path) != f.dir {
		return &TamperedError{What: "removed or replaced conform's input directory " + filepath.Dir(e.path)}
	}
	fi, err := f.root.Lstat(e.name)
	if err == nil && os.SameFile(fi, e.info) && fi.Size() == e.info.Size() && fi.Mode() == e.info.Mode() && fi.ModTime().Equal(e.info.ModTime()) {
		return nil
	}
	for k, x := range f.byHash {
		if x == e {
			delete(f.byHash, k)
		}
	}
	f.root.Remove(e.name)
	return &TamperedError{What: "changed, moved or removed the input file " + e.path + ", given for an earlier request", Err: err}
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
	if f.root, err = os.OpenRoot(f.dir); err == nil {
		f.dirInfo, err = os.Lstat(f.dir)
	}
	if err != nil {
		if f.root != nil {
			f.root.Close()
		}
		os.Remove(dir)
		f.dir, f.root = "", nil
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

// tampered tells whether the error cause of writing an input into dir
// comes of what the testee did to the directory: it is gone or replaced,
// or its permissions are not those it was made with. It then repairs it
// (gives the permissions back, or forgets the directory so that the next
// input makes a new one) and returns the *TamperedError; else nil: the
// error is conform's own (a full disk).
func (f *InputFiles) tampered(dir string, cause error) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.dir != dir {
		return &TamperedError{What: "removed or replaced conform's input directory " + dir, Err: cause}
	}
	fi, err := os.Lstat(dir)
	var what string
	switch {
	case err != nil:
		what = "removed conform's input directory " + dir
	case !fi.IsDir() || !os.SameFile(fi, f.dirInfo):
		what = "replaced conform's input directory " + dir
	case fi.Mode().Perm() != f.dirInfo.Mode().Perm():
		what = fmt.Sprintf("changed the permissions of conform's input directory %s from %v to %v", dir, f.dirInfo.Mode().Perm(), fi.Mode().Perm())
		os.Chmod(dir, f.dirInfo.Mode().Perm()) // given back: the run goes on
		return &TamperedError{What: what, Err: cause}
	default:
		return nil
	}
	// Gone or replaced: the next input makes a new directory; Remove
	// removes whatever is left at this one's place.
	f.root.Close()
	f.oldDirs = append(f.oldDirs, dir)
	f.dir, f.root, f.dirInfo = "", nil, nil
	for k, e := range f.byHash {
		select {
		case <-e.done:
			delete(f.byHash, k)
		default:
		}
	}
	return &TamperedError{What: what, Err: cause}
}

// write writes v's input, checked as it is expanded, to a new file in dir
// and returns its path, name and what it is; a file whose bytes fail the
// check is removed. An error the testee caused is a *TamperedError.
func (f *InputFiles) write(root *os.Root, dir string, s *Suite, v *vectorset.Vector) (path, name string, info fs.FileInfo, err error) {
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
			if te := f.tampered(dir, err); te != nil {
				return "", "", nil, te
			}
			return "", "", nil, fmt.Errorf("input files: %w", err)
		}
		bw := fileWriters.Get().(*bufio.Writer)
		bw.Reset(w)
		err = f.parts.WriteInput(bw, v, s.VectorsDir, s.Name)
		werr := bw.Flush() // a failed write's error too: bufio keeps it
		bw.Reset(nil)
		fileWriters.Put(bw)
		if werr == nil {
			info, werr = w.Stat()
		}
		if cerr := w.Close(); werr == nil {
			werr = cerr
		}
		switch {
		case werr != nil:
			root.Remove(name)
			if te := f.tampered(dir, werr); te != nil {
				return "", "", nil, te
			}
			return "", "", nil, fmt.Errorf("input files: writing %s: %w", name, werr)
		case err != nil:
			root.Remove(name)
			return "", "", nil, err // the vector's: its bytes are not the index's
		}
		return filepath.Join(dir, name), name, info, nil
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
// links are removed, not followed). Later calls of Path fail.
// It may be called more than once, also while a run is in flight (on an
// interrupt).
func (f *InputFiles) Remove() error {
	f.mu.Lock()
	f.removed = true
	f.mu.Unlock()
	f.writing.Wait() // a recipe being written finishes its file first
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, d := range f.oldDirs {
		os.RemoveAll(d) // whatever the testee left at a directory's place (a link is removed, not followed)
	}
	f.oldDirs = nil
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
