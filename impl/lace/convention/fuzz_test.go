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

func addSeeds(f *testing.F) {
	f.Add("=hel\n--\n=lo\n--\nKind: chunks\nChunk+Link: 0..3 $0\nChunk+Link: 3..5 $1")
	f.Add("=abc\n--\nKind: directory\nFile+Link: a $0\n--\nKind: directory\nChild+Link: d $1\nFile+Link:  x $0\nPage+Link: 0 $1")
	f.Add("=ab\n--\nKind: chunks\nChunk+Link: 0..2 $0\nChunk+Link: 2..4 $0\n--\nKind: chunks\nChunk+Link: 0..4 $1\nChunk+Link: 4..8 $1")
	f.Add("=x\n--\nKind: directory\nFile+Link: a $0\nFile+Link: a B $0\n--\nKind: directory\nChild+Link: a $1\nChild+Link: b $1")
}

func checkResult(t *testing.T, err error) {
	if err == nil {
		return
	}
	var v *rules.Violation
	if !errors.As(err, &v) {
		t.Fatalf("error %v is not a *rules.Violation", err)
	}
	if _, ok := lace.Lookup(v.Rule); !ok {
		t.Fatalf("rule %s is not in the catalog", v.Rule)
	}
}

func FuzzChunks(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, spec string) {
		s, root := buildWorld(spec)
		if root == nil {
			return
		}
		b := Bounds{MaxBytes: 1 << 20, MaxExpansion: 1 << 12}
		data, err := File(s, root, b)
		checkResult(t, err)
		n, sum, err2 := FileDigest(s, root, b)
		if (err == nil) != (err2 == nil) {
			t.Fatalf("File and FileDigest disagree: %v / %v", err, err2)
		}
		if err == nil && (n != uint64(len(data)) || sum != blake3.Sum256(data)) {
			t.Fatalf("FileDigest %d %x does not describe File's %d bytes", n, sum, len(data))
		}
	})
}

func FuzzDirectory(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, spec string) {
		s, root := buildWorld(spec)
		if root == nil {
			return
		}
		es, err := Directory(s, root, Bounds{MaxExpansion: 1 << 12})
		checkResult(t, err)
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
