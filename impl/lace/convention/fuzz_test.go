package convention

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/zeebo/blake3"

	"github.com/threespec/conformance/impl/lace"
	"github.com/threespec/conformance/impl/rules"
)

// Fuzz targets for the conventions. Random bytes almost never carry valid
// digests, so besides raw streams the targets read a small record language
// and build valid records with the constructor:
//
//	records are separated by a line "--"; a line "=text" is the record's
//	data, every other line a "Name: value" field; "$k" in a value becomes
//	the hash text of record k (built earlier). The last record is the root.

func buildWorld(spec string) (Store, *lace.Record) {
	s := Store{}
	var hashes []string
	var root *lace.Record
	for _, block := range strings.Split(spec, "\n--\n") {
		var sp lace.Spec
		for _, l := range strings.Split(block, "\n") {
			if d, ok := strings.CutPrefix(l, "="); ok {
				sp.Data = []byte(d)
				continue
			}
			n, v, ok := strings.Cut(l, ": ")
			if !ok {
				continue
			}
			for k := len(hashes) - 1; k >= 0; k-- {
				v = strings.ReplaceAll(v, "$"+strconv.Itoa(k), hashes[k])
			}
			sp.Fields = append(sp.Fields, lace.Field{Name: n, Value: v})
		}
		_, r, err := lace.Construct(sp)
		if err != nil {
			continue
		}
		s[r.Hash.String()] = r
		hashes = append(hashes, r.Hash.String())
		root = r
	}
	return s, root
}

// seeds are record specifications of both conventions.
var seeds = []string{
	"=hel\n--\n=lo\n--\nKind: chunks\nChunk+Link: 0..3 $0\nChunk+Link: 3..5 $1",
	"=abc\n--\nKind: directory\nFile+Link: a $0\n--\nKind: directory\nChild+Link: d $1\nFile+Link:  x $0\nPage+Link: 0 $1",
	"=ab\n--\nKind: chunks\nChunk+Link: 0..2 $0\nChunk+Link: 2..4 $0\n--\nKind: chunks\nChunk+Link: 0..4 $1\nChunk+Link: 4..8 $1",
	"=x\n--\nKind: directory\nFile+Link: a $0\nFile+Link: a B $0\n--\nKind: directory\nChild+Link: a $1\nChild+Link: b $1",
}

func checkResult(t *testing.T, err error) {
	if err == nil {
		return
	}
	var big *ListingTooLarge
	if errors.As(err, &big) {
		return // the consumer's own limit, not a violation
	}
	var v *rules.Violation
	if !errors.As(err, &v) {
		t.Fatalf("error %v is not a *rules.Violation", err)
	}
	if _, ok := lace.Lookup(v.Rule); !ok {
		t.Fatalf("rule %s is not in the catalog", v.Rule)
	}
}

// fuzzBounds are the caller's bounds of a fuzzed input, never a default
// and kept small (depth 1..256, 1..4096 uses, 1 B..64 KiB, a listing of
// 1 B..64 KiB) so that every input is quick: the walks must keep them,
// whatever the records.
func fuzzBounds(depth uint8, expansion uint16, bytes, listing uint32) Bounds {
	return Bounds{
		MaxDepth:        int(depth) + 1,
		MaxExpansion:    int(expansion%(1<<12)) + 1,
		MaxBytes:        uint64(bytes%(1<<16)) + 1,
		MaxListingBytes: uint64(listing%(1<<16)) + 1,
	}
}

// addBoundSeeds adds the seeds with bounds: the defaults of the targets,
// tight ones, and the fan-out bomb of issue 17 (two uses per level).
func addBoundSeeds(f *testing.F) {
	for _, s := range seeds {
		f.Add(s, uint8(63), uint16(1<<12-1), uint32(1<<16-1), uint32(1<<16-1))
		f.Add(s, uint8(1), uint16(2), uint32(3), uint32(60))
	}
	bomb := "Kind: directory"
	cbomb := "=x"
	for k, n := 0, 1; k < 40; k, n = k+1, n*2 {
		ref := "$" + strconv.Itoa(k)
		bomb += "\n--\nKind: directory\nChild+Link: a " + ref + "\nChild+Link: b " + ref
		cbomb += "\n--\nKind: chunks\nChunk+Link: 0.." + strconv.Itoa(n) + " " + ref + "\nChunk+Link: " + strconv.Itoa(n) + ".." + strconv.Itoa(2*n) + " " + ref
	}
	for _, s := range []string{bomb, cbomb} {
		f.Add(s, uint8(255), uint16(1<<12-1), uint32(1<<16-1), uint32(1<<16-1))
		f.Add(s, uint8(63), uint16(4095), uint32(4095), uint32(4095))
	}
}

// keepsBounds fails t when an accepted result breaks bounds b: a file over
// MaxBytes, or a listing with more entries than link uses allowed, deeper
// than MaxDepth, or larger than MaxListingBytes.
func keepsBounds(t *testing.T, b Bounds, data []byte, es []Entry) {
	b = b.withDefaults()
	if uint64(len(data)) > b.MaxBytes {
		t.Fatalf("%d bytes assembled under the bound %d", len(data), b.MaxBytes)
	}
	if len(es) > b.MaxExpansion {
		t.Fatalf("%d entries listed under the expansion bound %d", len(es), b.MaxExpansion)
	}
	var listed uint64
	for _, e := range es {
		listed += uint64(len(e.Path) + len(e.Target))
		if d := strings.Count(e.Path, "/") + 1; d > b.MaxDepth {
			t.Fatalf("entry %q at depth %d under the bound %d", e.Path, d, b.MaxDepth)
		}
	}
	if listed > b.MaxListingBytes {
		t.Fatalf("a listing of %d bytes under the bound %d", listed, b.MaxListingBytes)
	}
}

func FuzzChunks(f *testing.F) {
	addBoundSeeds(f)
	f.Fuzz(func(t *testing.T, spec string, depth uint8, expansion uint16, bytes, listing uint32) {
		s, root := buildWorld(spec)
		if root == nil {
			return
		}
		b := fuzzBounds(depth, expansion, bytes, listing)
		data, err := File(s, root, b)
		checkResult(t, err)
		n, sum, err2 := FileDigest(s, root, b)
		if (err == nil) != (err2 == nil) {
			t.Fatalf("File and FileDigest disagree: %v / %v", err, err2)
		}
		if err == nil && (n != uint64(len(data)) || sum != blake3.Sum256(data)) {
			t.Fatalf("FileDigest %d %x does not describe File's %d bytes", n, sum, len(data))
		}
		keepsBounds(t, b, data, nil)
	})
}

func FuzzDirectory(f *testing.F) {
	addBoundSeeds(f)
	f.Fuzz(func(t *testing.T, spec string, depth uint8, expansion uint16, bytes, listing uint32) {
		s, root := buildWorld(spec)
		if root == nil {
			return
		}
		b := fuzzBounds(depth, expansion, bytes, listing)
		es, err := Directory(s, root, b)
		checkResult(t, err)
		keepsBounds(t, b, nil, es)
		for i, e := range es {
			if _, ok := s.Resolve(e.Target); !ok {
				t.Fatalf("entry %q targets a missing record", e.Path)
			}
			if i > 0 && es[i-1].Path >= e.Path {
				t.Fatalf("entries not sorted and unique at %q", e.Path)
			}
		}
	})
}

// FuzzStreamConventions feeds raw bytes to both stream operations.
func FuzzStreamConventions(f *testing.F) {
	for _, spec := range []string{
		"=hel\n--\n=lo\n--\nKind: chunks\nChunk+Link: 0..3 $0\nChunk+Link: 3..5 $1",
		"=abc\n--\nKind: directory\nFile+Link: a $0",
	} {
		s, root := buildWorld(spec)
		out := lace.Encode(root)
		for _, r := range s {
			if r != root {
				out = append(out, lace.Encode(r)...)
			}
		}
		f.Add(out)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		_, _, err := StreamFile(in, lace.Options{}, Bounds{MaxBytes: 1 << 20})
		checkResult(t, err)
		_, err = StreamDirectory(in, lace.Options{}, Bounds{})
		checkResult(t, err)
	})
}
