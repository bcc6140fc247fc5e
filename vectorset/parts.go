package vectorset

import (
	"encoding/base64"
	"io"
	"sync"
)

// Parts reads the suite-tree files that recipes' file parts name, for the
// inputs of one run, and keeps what it read (and a part's base64, once a
// part asks for it) up to a limit, so that a file that many recipes share
// is read and encoded once: the HiveRelay authority recipes read the same
// inventory files 25 times over (the committed set's recipes make 560 part
// reads, 38.5 MiB, of 92 files of 2.8 MiB). A file beyond the limit is
// read each time.
//
// What Parts keeps is what it read first. It does not weaken the check of
// an input: every expansion is still checked whole against its index
// entry, size and BLAKE2b-256, as it is written (WriteInput), and the
// files themselves against the suite's manifest before the run. Parts is
// safe for concurrent use.
type Parts struct {
	mu    sync.Mutex
	kept  map[partKey][]byte
	size  int64 // bytes kept
	limit int64
}

// partKey names a kept part: a file's path as read, in base64 or as is.
type partKey struct {
	path   string
	base64 bool
}

// NewParts returns an empty Parts that keeps at most limit bytes (files
// and their base64 counted together).
func NewParts(limit int64) *Parts {
	return &Parts{kept: map[partKey][]byte{}, limit: limit}
}

// WriteInput is v.WriteInput with a recipe's file parts read through p.
func (p *Parts) WriteInput(w io.Writer, v *Vector, vectorsDir, suite string) error {
	return v.writeInput(w, vectorsDir, suite, p)
}

// Input is v.Input with a recipe's file parts read through p.
func (p *Parts) Input(v *Vector, vectorsDir, suite string) ([]byte, error) {
	return v.input(vectorsDir, suite, p)
}

// get returns the kept bytes of k, or load's, which it keeps when they fit.
// The bytes returned are shared: never to be written to.
func (p *Parts) get(k partKey, load func() ([]byte, error)) ([]byte, error) {
	p.mu.Lock()
	b, ok := p.kept[k]
	p.mu.Unlock()
	if ok {
		return b, nil
	}
	b, err := load() // outside the lock: two jobs may read one file at once, and keep one
	if err != nil {
		return nil, err // not kept: a later part tries again
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if prev, ok := p.kept[k]; ok {
		return prev, nil
	}
	if int64(len(b)) <= p.limit-p.size {
		p.kept[k] = b
		p.size += int64(len(b))
	}
	return b, nil
}

// partSource gives a recipe's file parts (suite-tree paths such as
// "negative/x.prefix") as they are and in standard base64.
type partSource interface {
	file(treePath string) ([]byte, error)
	base64(treePath string) ([]byte, error)
}

// readFunc is a partSource that reads every part anew and encodes it each
// time it is asked for in base64.
type readFunc func(treePath string) ([]byte, error)

func (f readFunc) file(treePath string) ([]byte, error) { return f(treePath) }

func (f readFunc) base64(treePath string) ([]byte, error) {
	b, err := f(treePath)
	if err != nil {
		return nil, err
	}
	return base64.StdEncoding.AppendEncode(nil, b), nil
}

// dirParts is the partSource of one suite's vectors directory through p.
type dirParts struct {
	p                 *Parts
	vectorsDir, suite string
}

func (d dirParts) file(treePath string) ([]byte, error) {
	path, err := TreePath(d.vectorsDir, d.suite, treePath)
	if err != nil {
		return nil, err
	}
	return d.p.get(partKey{path: path}, func() ([]byte, error) { return ReadRegular(path, MaxExpanded) })
}

func (d dirParts) base64(treePath string) ([]byte, error) {
	path, err := TreePath(d.vectorsDir, d.suite, treePath)
	if err != nil {
		return nil, err
	}
	return d.p.get(partKey{path: path, base64: true}, func() ([]byte, error) { return readFunc(d.file).base64(treePath) })
}
