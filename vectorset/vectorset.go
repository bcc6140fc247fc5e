// Package vectorset reads and writes the vector indexes of docs/VECTORS.md:
// one JSON index per suite (vectors/<suite>.index.json) listing every vector
// with its input file or recipe, the testee-protocol request, the expected
// outcome, the rules it tests and its profile needs. Harnesses in other
// languages read the same JSON; this package is the Go reader and writer.
// It also computes the suite set hash and writes and checks the
// suite-set-hash.txt that states it (sethash.go).
package vectorset

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"golang.org/x/crypto/blake2b"
)

// Format is the value of every index's "format" field.
const Format = "threespec-vector-index/1"

// Expected outcomes.
const (
	Accept = "accept"
	Reject = "reject"
)

// Index is one suite's vector index.
type Index struct {
	Format      string   `json:"format"`
	Suite       string   `json:"suite"`
	GeneratedBy string   `json:"generated_by"`
	Vectors     []Vector `json:"vectors"`
}

// Vector is one entry of an index.
type Vector struct {
	ID      string          `json:"id"`
	File    string          `json:"file,omitempty"`
	Recipe  *Recipe         `json:"recipe,omitempty"`
	Size    int64           `json:"size"`
	BLAKE2b string          `json:"blake2b"`
	Op      string          `json:"op"`
	Args    json.RawMessage `json:"args"`
	Expect  string          `json:"expect"`
	Code    string          `json:"code"`
	// AcceptableCodes lists, for a rejection, the other codes that are each
	// a correct report of the input (two faults present, the spec naming no
	// precedence); Code is the preferred one. A testee answering one of
	// them passes, noted "acceptable, not preferred".
	AcceptableCodes []string        `json:"acceptable_codes,omitempty"`
	Result          json.RawMessage `json:"result,omitempty"`
	Rules           []string        `json:"rules"`
	Level           string          `json:"level"`
	Tags            []string        `json:"tags"`
	Profiles        []string        `json:"profiles"`
	Comment         string          `json:"comment"`
	DerivedFrom     string          `json:"derived_from,omitempty"`
	// Readings names the readings (docs/READINGS.md) the expectation
	// depends on, each with the alternative it encodes: the catalog's
	// default, or another alternative for a vector of that branch.
	Readings map[string]string `json:"readings,omitempty"`
	// Aliases are the IDs the vector had before it was renamed, its bytes
	// and expectation the same (docs/VECTORS.md, "IDs and releases"):
	// kept for one release, so that an expected-failures entry or a
	// selection that names the old ID still finds it. Absent when none.
	Aliases []string `json:"aliases,omitempty"`
}

// Names reports whether id is the vector's ID or one of its aliases.
func (v *Vector) Names(id string) bool { return v.ID == id || slices.Contains(v.Aliases, id) }

// Name is the vector's name: its ID without the suite and polarity.
func (v *Vector) Name() string { return path.Base(v.ID) }

// Recipe builds an input too large to commit: its parts' bytes, concatenated.
type Recipe struct {
	Parts []Part `json:"parts"`
}

// Part is one part of a recipe; exactly one field is set. FileBase64 names
// a suite-tree file whose bytes the part holds as standard base64 text (RFC
// 4648, with padding), for JSON inputs that embed committed files.
type Part struct {
	Hex           string      `json:"hex,omitempty"`
	File          string      `json:"file,omitempty"`
	FileBase64    string      `json:"file_base64,omitempty"`
	Repeat        *Repeat     `json:"repeat,omitempty"`
	LibtracerNest *TracerNest `json:"libtracer_nest,omitempty"`
}

// Repeat is Hex repeated Count times.
type Repeat struct {
	Hex   string `json:"hex"`
	Count int64  `json:"count"`
}

// TracerNest is Depth nested structured libtracer TLVs (opt 0x48: PL=1, LL=1)
// of type Type around the leaf TLV LeafHex.
type TracerNest struct {
	Depth   int64  `json:"depth"`
	Type    uint8  `json:"type"`
	LeafHex string `json:"leaf_hex"`
}

// MaxExpanded bounds the size of an expanded recipe (64 MiB): every recipe
// of the project is below it, and a corrupt index cannot exhaust memory.
const MaxExpanded = 64 << 20

// MaxSetFile bounds a file of a vector set read without a better bound (an
// index read by Load): 256 MiB. The harness bounds each file by its row of
// the suite manifest instead.
const MaxSetFile = 256 << 20

// IndexPath is the path of a suite's index below the vectors directory.
func IndexPath(vectorsDir, suite string) string {
	return filepath.Join(vectorsDir, suite+".index.json")
}

// TreePath maps a suite-tree path ("positive/x.lr") to its place below the
// vectors directory ("positive/<suite>/x.lr").
func TreePath(vectorsDir, suite, treePath string) (string, error) {
	dir, name, ok := strings.Cut(treePath, "/")
	if !ok || strings.Contains(name, "/") || name == "" || name == "." || name == ".." {
		return "", fmt.Errorf("vectorset: %q is not <positive|negative|registry>/<name>", treePath)
	}
	switch dir {
	case "positive", "negative", "registry":
	default:
		return "", fmt.Errorf("vectorset: %q is not under positive/, negative/ or registry/", treePath)
	}
	return filepath.Join(vectorsDir, dir, suite, name), nil
}

// Load reads and checks a suite's index from the vectors directory.
func Load(vectorsDir, suite string) (*Index, error) {
	b, err := ReadRegular(IndexPath(vectorsDir, suite), MaxSetFile)
	if err != nil {
		return nil, err
	}
	return Parse(b, suite)
}

// Parse decodes an index and checks its shape: format, suite, unique sorted
// IDs, exactly one of file and recipe, known outcomes and levels.
func Parse(b []byte, suite string) (*Index, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var ix Index
	if err := dec.Decode(&ix); err != nil {
		return nil, fmt.Errorf("vectorset: %s index: %w", suite, err)
	}
	if ix.Format != Format {
		return nil, fmt.Errorf("vectorset: %s index: format %q, want %q", suite, ix.Format, Format)
	}
	if ix.Suite != suite {
		return nil, fmt.Errorf("vectorset: index is for suite %q, want %q", ix.Suite, suite)
	}
	for i := range ix.Vectors {
		v := &ix.Vectors[i]
		if err := v.check(suite); err != nil {
			return nil, err
		}
		if i > 0 && ix.Vectors[i-1].ID >= v.ID {
			return nil, fmt.Errorf("vectorset: %s index: vector %q is not after %q (IDs must be unique and sorted)", suite, v.ID, ix.Vectors[i-1].ID)
		}
	}
	if err := CheckAliases(suite, ix.Vectors); err != nil {
		return nil, err
	}
	return &ix, nil
}

// CheckAliases checks the aliases of a suite's vectors: each of the
// shape of an ID of the suite, and no alias the ID or alias of another
// vector (or twice the same), so that an old ID names one vector.
func CheckAliases(suite string, vs []Vector) error {
	owner := map[string]string{}
	for i := range vs {
		owner[vs[i].ID] = vs[i].ID
	}
	for i := range vs {
		v := &vs[i]
		for _, a := range v.Aliases {
			if !validID(suite, a) {
				return fmt.Errorf("vectorset: %s vector %q: alias %q is not %s/<positive|negative>/<name>", suite, v.ID, a, suite)
			}
			if o, ok := owner[a]; ok {
				return fmt.Errorf("vectorset: %s vector %q: alias %q already names %q", suite, v.ID, a, o)
			}
			owner[a] = v.ID
		}
	}
	return nil
}

// validID reports whether id is <suite>/<positive|negative>/<name>.
func validID(suite, id string) bool {
	parts := strings.Split(id, "/")
	return len(parts) == 3 && parts[0] == suite && (parts[1] == "positive" || parts[1] == "negative") && parts[2] != ""
}

func (v *Vector) check(suite string) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("vectorset: %s vector %q: %s", suite, v.ID, fmt.Sprintf(format, args...))
	}
	if !validID(suite, v.ID) {
		return bad("ID is not %s/<positive|negative>/<name>", suite)
	}
	if (v.File == "") == (v.Recipe == nil) {
		return bad("exactly one of file and recipe must be given")
	}
	switch v.Expect {
	case Accept:
		if v.Code != "" {
			return bad("an accepted vector has no code")
		}
	case Reject:
		if len(v.Result) != 0 {
			return bad("a rejected vector has no result")
		}
	default:
		return bad("expect is %q, want %q or %q", v.Expect, Accept, Reject)
	}
	if v.Level != "MUST" && v.Level != "SHOULD" {
		return bad("level is %q, want MUST or SHOULD", v.Level)
	}
	if len(v.Rules) == 0 {
		return bad("names no rule")
	}
	if v.Op == "" {
		return bad("names no op")
	}
	for id, alt := range v.Readings {
		if !validReadingID(id) || alt == "" {
			return bad("reading %q: %q is not <SPEC>-READ-<nn> with an alternative", id, alt)
		}
	}
	if len(v.AcceptableCodes) > 0 && (v.Expect != Reject || v.Code == "") {
		return bad("only a rejection with a preferred code lists acceptable codes")
	}
	for _, c := range v.AcceptableCodes {
		if c == "" || c == v.Code {
			return bad("acceptable code %q is empty or the preferred code", c)
		}
	}
	return nil
}

// validReadingID reports whether id is <SPEC>-READ-<nn> (impl/rules).
func validReadingID(id string) bool {
	spec, n, ok := strings.Cut(id, "-READ-")
	if !ok || len(n) != 2 || n[0] < '0' || n[0] > '9' || n[1] < '0' || n[1] > '9' {
		return false
	}
	// The spec's prefix: upper-case letters (which prefixes there are is
	// the specs', impl/spec; the index holds a suite's own vectors).
	return spec != "" && strings.Trim(spec, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") == ""
}

// Branch reports whether the vector belongs to the branch of a testee that
// takes the given alternatives (reading ID to alternative; a reading it
// does not list is taken at its default, given by defaults): every reading
// the vector names must be taken at the alternative the vector encodes.
// It returns the first reading that differs, or "" when the vector belongs.
func (v *Vector) Branch(taken, defaults map[string]string) (differs string) {
	for _, id := range sortedKeys(v.Readings) {
		alt, ok := taken[id]
		if !ok {
			alt = defaults[id]
		}
		if v.Readings[id] != alt {
			return id
		}
	}
	return ""
}

func sortedKeys(m map[string]string) []string {
	return slices.Sorted(maps.Keys(m))
}

// Input returns the vector's input bytes: its file's bytes, or its recipe
// expanded. It checks them against the index's size and BLAKE2b-256.
func (v *Vector) Input(vectorsDir, suite string) ([]byte, error) {
	return v.input(vectorsDir, suite, nil)
}

// input is Input, with recipe file parts read through parts when it is not
// nil.
func (v *Vector) input(vectorsDir, suite string, parts *Parts) ([]byte, error) {
	buf := bytes.NewBuffer(make([]byte, 0, min(max(v.Size, 0), MaxExpanded)))
	if err := v.writeInput(buf, vectorsDir, suite, parts); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// WriteInput writes the vector's input bytes to w, its file's bytes or its
// recipe expanded, a piece at a time (a 32 MiB recipe is never whole in
// memory), and checks them as they pass against the index's size and
// BLAKE2b-256, with the errors of Input. Bytes beyond the index's size are
// counted, not written. An error of w is returned as it is (Input's
// errors name the vector); on any error w may hold part of the input.
func (v *Vector) WriteInput(w io.Writer, vectorsDir, suite string) error {
	return v.writeInput(w, vectorsDir, suite, nil)
}

// writeInput is WriteInput, with recipe file parts read through parts when
// it is not nil.
func (v *Vector) writeInput(w io.Writer, vectorsDir, suite string, parts *Parts) error {
	c := &checked{w: w, want: v.Size}
	c.h, _ = blake2b.New256(nil)
	var err error
	if v.Recipe != nil {
		var src partSource = readFunc(DirReader(vectorsDir, suite))
		if parts != nil {
			src = dirParts{parts, vectorsDir, suite}
		}
		_, err = v.Recipe.expandTo(c, src)
	} else {
		var p string
		var f *os.File
		var size int64
		if p, err = TreePath(vectorsDir, suite, v.File); err == nil {
			if f, size, err = OpenRegular(p); err == nil {
				buf := copyBufs.Get().(*[]byte)
				// f's Read, not its WriteTo's buffer of its own; at most a
				// byte more than the index says, whatever the file holds.
				_, err = io.CopyBuffer(c, io.LimitReader(struct{ io.Reader }{f}, max(v.Size, 0)+1), *buf)
				copyBufs.Put(buf)
				f.Close()
				if err == nil && size != v.Size {
					return fmt.Errorf("vectorset: %s: input is %d bytes, index says %d", v.ID, size, v.Size)
				}
			}
		}
	}
	if c.err != nil {
		return c.err
	}
	if err != nil {
		return fmt.Errorf("vectorset: %s: %w", v.ID, err)
	}
	if c.n != v.Size {
		return fmt.Errorf("vectorset: %s: input is %d bytes, index says %d", v.ID, c.n, v.Size)
	}
	if got := hex.EncodeToString(c.h.Sum(nil)); got != v.BLAKE2b {
		return fmt.Errorf("vectorset: %s: input BLAKE2b-256 %s, index says %s", v.ID, got, v.BLAKE2b)
	}
	return nil
}

// copyBufs are the buffers WriteInput reads vectors' files through: io.Copy
// from an *os.File allocates 32 KiB for each, and a run reads thousands of
// small files, garbage the collector would spend its time on (issue 14).
var copyBufs = sync.Pool{New: func() any { b := make([]byte, 64<<10); return &b }}

// checked passes the first want bytes written to it on to w and its hash,
// and counts them all. It never fails a write: w's first error is kept in
// err, and what follows is only counted.
type checked struct {
	w    io.Writer
	h    hash.Hash
	want int64
	n    int64
	err  error
}

func (c *checked) Write(p []byte) (int, error) {
	keep := p[:max(min(int64(len(p)), c.want-c.n), 0)]
	c.n += int64(len(p))
	if len(keep) > 0 {
		c.h.Write(keep)
		if c.err == nil {
			_, c.err = c.w.Write(keep)
		}
	}
	return len(p), nil
}

// Hash is the hex BLAKE2b-256 the index records for an input.
func Hash(b []byte) string {
	h := blake2b.Sum256(b)
	return hex.EncodeToString(h[:])
}

// DirReader reads suite-tree files from a vectors directory laid out as
// docs/VECTORS.md says: regular files of at most MaxExpanded bytes
// (ReadRegular).
func DirReader(vectorsDir, suite string) func(treePath string) ([]byte, error) {
	return func(treePath string) ([]byte, error) {
		p, err := TreePath(vectorsDir, suite, treePath)
		if err != nil {
			return nil, err
		}
		return ReadRegular(p, MaxExpanded)
	}
}

// Expand builds the recipe's bytes, reading file parts with read (given a
// suite-tree path such as "negative/x.prefix").
func (r *Recipe) Expand(read func(treePath string) ([]byte, error)) ([]byte, error) {
	var buf bytes.Buffer
	if _, err := r.ExpandTo(&buf, read); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// expandChunk is the most ExpandTo writes at once for a repeat or a nest.
const expandChunk = 256 << 10

// ExpandTo writes the recipe's bytes to w, part by part and a large part
// in pieces of at most 256 KiB, and returns how many it wrote. It fails
// before writing a part that would take the recipe beyond MaxExpanded.
func (r *Recipe) ExpandTo(w io.Writer, read func(treePath string) ([]byte, error)) (int64, error) {
	return r.expandTo(w, readFunc(read))
}

// expandTo is ExpandTo with file parts from src.
func (r *Recipe) expandTo(w io.Writer, src partSource) (int64, error) {
	var n int64
	emit := func(b []byte) error {
		if int64(len(b)) > MaxExpanded-n {
			return fmt.Errorf("recipe expands beyond %d bytes", MaxExpanded)
		}
		k, err := w.Write(b)
		n += int64(k)
		return err
	}
	for i, p := range r.Parts {
		set := 0
		for _, ok := range []bool{p.Hex != "", p.File != "", p.FileBase64 != "", p.Repeat != nil, p.LibtracerNest != nil} {
			if ok {
				set++
			}
		}
		if set != 1 {
			return n, fmt.Errorf("recipe part %d: exactly one of hex, file, file_base64, repeat, libtracer_nest must be set", i)
		}
		switch {
		case p.Hex != "":
			b, err := hex.DecodeString(p.Hex)
			if err != nil {
				return n, fmt.Errorf("recipe part %d: %w", i, err)
			}
			if err := emit(b); err != nil {
				return n, err
			}
		case p.File != "" || p.FileBase64 != "":
			name := p.File + p.FileBase64
			if _, err := TreePath("", "", name); err != nil {
				return n, fmt.Errorf("recipe part %d: %w", i, err)
			}
			var b []byte
			var err error
			if p.FileBase64 != "" {
				b, err = src.base64(name)
			} else {
				b, err = src.file(name)
			}
			if err != nil {
				return n, fmt.Errorf("recipe part %d: %w", i, err)
			}
			if err := emit(b); err != nil {
				return n, err
			}
		case p.Repeat != nil:
			b, err := hex.DecodeString(p.Repeat.Hex)
			if err != nil || len(b) == 0 || p.Repeat.Count < 0 {
				return n, fmt.Errorf("recipe part %d: repeat needs non-empty hex and a count >= 0", i)
			}
			if p.Repeat.Count > (MaxExpanded-n)/int64(len(b)) {
				return n, fmt.Errorf("recipe expands beyond %d bytes", MaxExpanded)
			}
			// A chunk of whole repetitions, written as often as it fits,
			// then the rest.
			per := max(expandChunk/len(b), 1)
			chunk := bytes.Repeat(b, int(min(int64(per), p.Repeat.Count)))
			for left := p.Repeat.Count; left > 0; {
				k := min(left, int64(per))
				if err := emit(chunk[:k*int64(len(b))]); err != nil {
					return n, err
				}
				left -= k
			}
		case p.LibtracerNest != nil:
			if err := p.LibtracerNest.expandTo(emit, MaxExpanded-n); err != nil {
				return n, fmt.Errorf("recipe part %d: %w", i, err)
			}
		}
	}
	return n, nil
}

// expandTo writes the nest, at most room bytes, through emit: level k is
// type, 0x48, u32le(len(level k+1)), level k+1; the headers of every level
// come first, in pieces, then the leaf.
func (n *TracerNest) expandTo(emit func([]byte) error, room int64) error {
	leaf, err := hex.DecodeString(n.LeafHex)
	if err != nil {
		return fmt.Errorf("libtracer_nest leaf: %w", err)
	}
	const hdr = 6
	if n.Depth < 0 || n.Depth > (room-int64(len(leaf)))/hdr {
		return fmt.Errorf("libtracer_nest of depth %d expands beyond %d bytes", n.Depth, MaxExpanded)
	}
	total := int64(len(leaf)) + n.Depth*hdr
	if total-hdr > 0xffffffff {
		return fmt.Errorf("libtracer_nest of depth %d overflows a u32 length", n.Depth)
	}
	chunk := make([]byte, min(n.Depth, expandChunk/hdr)*hdr)
	for k := int64(0); k < n.Depth; {
		c := chunk[:min(n.Depth-k, int64(len(chunk)/hdr))*hdr]
		for h := c; len(h) > 0; h, k = h[hdr:], k+1 {
			inner := uint32(total - (k+1)*hdr)
			h[0], h[1] = n.Type, 0x48
			h[2], h[3], h[4], h[5] = byte(inner), byte(inner>>8), byte(inner>>16), byte(inner>>24)
		}
		if err := emit(c); err != nil {
			return err
		}
	}
	return emit(leaf)
}

// Write marshals an index deterministically: sorted vectors, two-space
// indentation, a final LF.
func (ix *Index) Write() ([]byte, error) {
	sort.Slice(ix.Vectors, func(i, j int) bool { return ix.Vectors[i].ID < ix.Vectors[j].ID })
	for i := range ix.Vectors {
		v := &ix.Vectors[i]
		if v.Args == nil {
			v.Args = json.RawMessage("{}")
		}
		for _, s := range []*[]string{&v.Rules, &v.Tags, &v.Profiles} {
			if *s == nil {
				*s = []string{}
			}
		}
		if err := v.check(ix.Suite); err != nil {
			return nil, err
		}
		if i > 0 && ix.Vectors[i-1].ID == ix.Vectors[i].ID {
			return nil, fmt.Errorf("vectorset: %s index: duplicate vector %q", ix.Suite, ix.Vectors[i].ID)
		}
	}
	if err := CheckAliases(ix.Suite, ix.Vectors); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(ix); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
