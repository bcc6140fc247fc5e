package harness

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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
// InputFiles is safe for concurrent use.
type InputFiles struct {
	mu      sync.Mutex
	dir     string   // "" until the first recipe
	root    *os.Root // dir, opened
	byHash  map[string]string
	n       int
	removed bool
}

// NewInputFiles returns an empty set of input files; its directory is made
// on the first recipe input.
func NewInputFiles() *InputFiles { return &InputFiles{byHash: map[string]string{}} }

// Dir is the temporary directory, or "" when none was made.
func (f *InputFiles) Dir() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.dir
}

// Path returns the absolute path of a file holding exactly v's input bytes
// and their number.
func (f *InputFiles) Path(s *Suite, v *vectorset.Vector) (string, int64, error) {
	if v.Recipe == nil {
		if _, err := v.Input(s.VectorsDir, s.Name); err != nil { // the bytes as the index says
			return "", 0, err
		}
		p, err := vectorset.TreePath(s.VectorsDir, s.Name, v.File)
		if err != nil {
			return "", 0, err
		}
		abs, err := filepath.Abs(p)
		return abs, v.Size, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.removed {
		return "", 0, errors.New("the run's input files are removed")
	}
	if p, ok := f.byHash[v.BLAKE2b]; ok {
		return p, v.Size, nil
	}
	b, err := v.Input(s.VectorsDir, s.Name)
	if err != nil {
		return "", 0, err
	}
	if f.dir == "" {
		dir, err := os.MkdirTemp("", "conform-inputs-")
		if err != nil {
			return "", 0, fmt.Errorf("input files: %w", err)
		}
		if f.dir, err = filepath.Abs(dir); err != nil {
			os.Remove(dir)
			return "", 0, err
		}
		if f.root, err = os.OpenRoot(f.dir); err != nil {
			os.Remove(dir)
			f.dir = ""
			return "", 0, fmt.Errorf("input files: %w", err)
		}
	}
	for {
		f.n++
		name := fmt.Sprintf("%d-%s", f.n, safeName(v.Name()))
		w, err := f.root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o400)
		if errors.Is(err, fs.ErrExist) {
			continue // something else took the name: never write through it
		}
		if err != nil {
			return "", 0, fmt.Errorf("input files: %w", err)
		}
		_, err = w.Write(b)
		if cerr := w.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return "", 0, fmt.Errorf("input files: writing %s: %w", name, err)
		}
		p := filepath.Join(f.dir, name)
		f.byHash[v.BLAKE2b] = p
		return p, v.Size, nil
	}
}

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
	defer f.mu.Unlock()
	f.removed = true
	if f.dir == "" {
		return nil
	}
	f.root.Close()
	dir := f.dir
	f.dir, f.root = "", nil
	if err := os.RemoveAll(dir); err != nil {
		// A testee may have taken the write permission away: give it back
		// (to directories inside ours only; Chmod of a link would follow it).
		os.Chmod(dir, 0o700)
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				os.Chmod(p, 0o700)
			}
			return nil
		})
		return os.RemoveAll(dir)
	}
	return nil
}
