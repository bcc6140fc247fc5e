package vectorset

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestTracerNestBytes(t *testing.T) {
	// Two levels of type 0x80 around the empty STATUS frame 09 00 00 00,
	// written out by hand from the layout in docs/VECTORS.md.
	want := "80" + "48" + "0a000000" + // outer: payload = inner level (6) + leaf (4) = 10
		"80" + "48" + "04000000" + // inner: payload = leaf (4)
		"09000000"
	r := Recipe{Parts: []Part{{LibtracerNest: &TracerNest{Depth: 2, Type: 0x80, LeafHex: "09000000"}}}}
	got, err := r.Expand(DirReader("", "libtracer"))
	if err != nil {
		t.Fatal(err)
	}
	if hex.EncodeToString(got) != want {
		t.Fatalf("nest = %x, want %s", got, want)
	}
}

func TestRecipeParts(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "negative", "lace"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "negative", "lace", "p.prefix"), []byte("AB"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := Recipe{Parts: []Part{
		{Hex: "7a"},
		{File: "negative/p.prefix"},
		{Repeat: &Repeat{Hex: "2d2e", Count: 3}},
		{FileBase64: "negative/p.prefix"},
	}}
	got, err := r.Expand(DirReader(dir, "lace"))
	if err != nil {
		t.Fatal(err)
	}
	// "AB" in base64 (RFC 4648): QUI= .
	if string(got) != "zAB-.-.-.QUI=" {
		t.Fatalf("expanded %q", got)
	}
}

func TestRecipeRejects(t *testing.T) {
	for name, r := range map[string]Recipe{
		"two fields":      {Parts: []Part{{Hex: "00", File: "positive/x"}}},
		"no field":        {Parts: []Part{{}}},
		"bad hex":         {Parts: []Part{{Hex: "0g"}}},
		"huge repeat":     {Parts: []Part{{Repeat: &Repeat{Hex: "00", Count: MaxExpanded + 1}}}},
		"empty repeat":    {Parts: []Part{{Repeat: &Repeat{Hex: "", Count: 1}}}},
		"huge nest":       {Parts: []Part{{LibtracerNest: &TracerNest{Depth: MaxExpanded, Type: 0x80, LeafHex: "09000000"}}}},
		"escape":          {Parts: []Part{{File: "positive/../../etc"}}},
		"other dir":       {Parts: []Part{{File: "secret/x"}}},
		"base64 escape":   {Parts: []Part{{FileBase64: "negative/../x"}}},
		"file and base64": {Parts: []Part{{File: "negative/p.prefix", FileBase64: "negative/p.prefix"}}},
	} {
		if _, err := r.Expand(DirReader(t.TempDir(), "lace")); err == nil {
			t.Errorf("%s: expanded without error", name)
		}
	}
}

func TestWriteParseRoundTrip(t *testing.T) {
	dir := t.TempDir()
	in := []byte("hello")
	if err := os.MkdirAll(filepath.Join(dir, "positive", "lace"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "positive", "lace", "b.lr"), in, 0o644); err != nil {
		t.Fatal(err)
	}
	ix := &Index{Format: Format, Suite: "lace", GeneratedBy: "test", Vectors: []Vector{
		{ID: "lace/positive/b", File: "positive/b.lr", Size: 5, BLAKE2b: Hash(in), Op: "lace.record",
			Expect: Accept, Result: []byte(`{"form":"blob"}`), Rules: []string{"R-1"}, Level: "MUST", Comment: "c"},
		{ID: "lace/negative/a", Recipe: &Recipe{Parts: []Part{{Hex: "00"}}}, Size: 1, BLAKE2b: Hash([]byte{0}),
			Op: "lace.record", Expect: Reject, Rules: []string{"R-2"}, Level: "SHOULD", Comment: "c"},
	}}
	b, err := ix.Write()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasSuffix(b, []byte("}\n")) || !strings.Contains(string(b), `"tags": []`) {
		t.Fatalf("unexpected encoding:\n%s", b)
	}
	if err := os.WriteFile(IndexPath(dir, "lace"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	back, err := Load(dir, "lace")
	if err != nil {
		t.Fatal(err)
	}
	if back.Vectors[0].ID != "lace/negative/a" {
		t.Fatalf("vectors not sorted by ID: %s first", back.Vectors[0].ID)
	}
	for _, v := range back.Vectors {
		got, err := v.Input(dir, "lace")
		if err != nil {
			t.Fatal(err)
		}
		if int64(len(got)) != v.Size {
			t.Fatalf("%s: %d bytes", v.ID, len(got))
		}
	}
	back.Vectors[1].BLAKE2b = Hash([]byte("other"))
	if _, err := back.Vectors[1].Input(dir, "lace"); err == nil {
		t.Fatal("a hash mismatch must fail")
	}
}

func TestParseRejectsBadIndexes(t *testing.T) {
	good := `{"format":"threespec-vector-index/1","suite":"lace","generated_by":"g","vectors":[%s]}`
	vec := func(id, extra string) string {
		return `{"id":"` + id + `","file":"positive/x","size":0,"blake2b":"","op":"lace.record","args":{},"expect":"accept","code":"","rules":["R"],"level":"MUST","tags":[],"profiles":[],"comment":""` + extra + `}`
	}
	cases := map[string]string{
		"unknown field": strings.Replace(good, "%s", vec("lace/positive/a", `,"bogus":1`), 1),
		"wrong suite":   strings.Replace(good, "%s", vec("hiverelay/positive/a", ""), 1),
		"unsorted":      strings.Replace(good, "%s", vec("lace/positive/b", "")+","+vec("lace/positive/a", ""), 1),
		"duplicate":     strings.Replace(good, "%s", vec("lace/positive/a", "")+","+vec("lace/positive/a", ""), 1),
		"bad polarity":  strings.Replace(good, "%s", vec("lace/maybe/a", ""), 1),
		"bad level":     strings.Replace(good, "%s", strings.Replace(vec("lace/positive/a", ""), `"MUST"`, `"MAY"`, 1), 1),
		"alias shape":   strings.Replace(good, "%s", vec("lace/positive/a", `,"aliases":["lace/a"]`), 1),
		"alias suite":   strings.Replace(good, "%s", vec("lace/positive/a", `,"aliases":["hiverelay/positive/a"]`), 1),
		"alias is ID":   strings.Replace(good, "%s", vec("lace/positive/a", `,"aliases":["lace/positive/b"]`)+","+vec("lace/positive/b", ""), 1),
		"alias twice":   strings.Replace(good, "%s", vec("lace/positive/a", `,"aliases":["lace/positive/old"]`)+","+vec("lace/positive/b", `,"aliases":["lace/positive/old"]`), 1),
		"alias itself":  strings.Replace(good, "%s", vec("lace/positive/a", `,"aliases":["lace/positive/a"]`), 1),
	}
	for name, text := range cases {
		if _, err := Parse([]byte(text), "lace"); err == nil {
			t.Errorf("%s: parsed without error", name)
		}
	}
	if _, err := Parse([]byte(strings.Replace(good, "%s", vec("lace/positive/a", ""), 1)), "lace"); err != nil {
		t.Fatalf("good index rejected: %v", err)
	}
	ix, err := Parse([]byte(strings.Replace(good, "%s", vec("lace/positive/a", `,"aliases":["lace/negative/old-a"]`), 1)), "lace")
	if err != nil {
		t.Fatalf("an index with an alias rejected: %v", err)
	}
	if v := &ix.Vectors[0]; !v.Names("lace/negative/old-a") || !v.Names("lace/positive/a") || v.Names("lace/positive/b") {
		t.Errorf("Names: %+v", v)
	}
	// Written back, the alias is kept; without one, no member appears.
	b, err := ix.Write()
	if err != nil || !strings.Contains(string(b), `"aliases": [`) {
		t.Errorf("written: %v\n%s", err, b)
	}
	ix.Vectors[0].Aliases = nil
	if b, _ := ix.Write(); strings.Contains(string(b), "aliases") {
		t.Errorf("an index without aliases names them:\n%s", b)
	}
}

// pieces records the writes it gets.
type pieces struct {
	bytes.Buffer
	largest int
}

func (p *pieces) Write(b []byte) (int, error) {
	p.largest = max(p.largest, len(b))
	return p.Buffer.Write(b)
}

// ExpandTo writes a large repeat or nest in pieces of at most expandChunk
// bytes, the same bytes as built whole here.
func TestExpandToPieces(t *testing.T) {
	const depth = 100_000 // 600,004 bytes: more than two pieces
	nest := make([]byte, 0, depth*6+4)
	for k := range depth {
		inner := uint32((depth-k-1)*6 + 4)
		nest = append(nest, 0x80, 0x48, byte(inner), byte(inner>>8), byte(inner>>16), byte(inner>>24))
	}
	nest = append(nest, 9, 0, 0, 0)
	cases := []struct {
		name string
		r    Recipe
		want []byte
	}{
		{"repeat of 3 bytes", Recipe{Parts: []Part{{Hex: "7a"}, {Repeat: &Repeat{Hex: "616263", Count: 1 << 20}}, {Hex: "7a"}}},
			append(append([]byte("z"), bytes.Repeat([]byte("abc"), 1<<20)...), 'z')},
		{"repeat of none", Recipe{Parts: []Part{{Repeat: &Repeat{Hex: "61", Count: 0}}}}, nil},
		{"deep nest", Recipe{Parts: []Part{{LibtracerNest: &TracerNest{Depth: depth, Type: 0x80, LeafHex: "09000000"}}}}, nest},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var w pieces
			n, err := c.r.ExpandTo(&w, DirReader("", "lace"))
			if err != nil {
				t.Fatal(err)
			}
			if n != int64(len(c.want)) || !bytes.Equal(w.Bytes(), c.want) {
				t.Fatalf("wrote %d bytes (%d counted), want %d", w.Len(), n, len(c.want))
			}
			if w.largest > expandChunk {
				t.Errorf("a piece of %d bytes, more than %d", w.largest, expandChunk)
			}
		})
	}
}

// WriteInput passes on exactly the index's size of a file and checks the
// size and hash of what it read; Input gives the same bytes.
func TestWriteInput(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "positive", "lace"), 0o755); err != nil {
		t.Fatal(err)
	}
	in := []byte("hello, world")
	if err := os.WriteFile(filepath.Join(dir, "positive", "lace", "b.lr"), in, 0o644); err != nil {
		t.Fatal(err)
	}
	file := func(size int64, hash string) *Vector {
		return &Vector{ID: "lace/positive/b", File: "positive/b.lr", Size: size, BLAKE2b: hash}
	}
	rec := &Vector{ID: "lace/positive/r", Recipe: &Recipe{Parts: []Part{{Repeat: &Repeat{Hex: "6162", Count: 3}}}}, Size: 6, BLAKE2b: Hash([]byte("ababab"))}
	cases := []struct {
		name    string
		v       *Vector
		want    string // what reaches the writer
		wantErr string
	}{
		{"file", file(12, Hash(in)), "hello, world", ""},
		{"recipe", rec, "ababab", ""},
		{"file longer than the index says", file(5, Hash(in[:5])), "hello", "input is 12 bytes, index says 5"},
		{"file shorter than the index says", file(20, Hash(in)), "hello, world", "input is 12 bytes, index says 20"},
		{"other hash", file(12, Hash([]byte("x"))), "hello, world", "input BLAKE2b-256 " + Hash(in) + ", index says " + Hash([]byte("x"))},
		{"missing file", &Vector{ID: "lace/positive/m", File: "positive/m.lr", Size: 1}, "", "no such file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var w bytes.Buffer
			err := c.v.WriteInput(&w, dir, "lace")
			if w.String() != c.want {
				t.Errorf("wrote %q, want %q", w.String(), c.want)
			}
			b, ierr := c.v.Input(dir, "lace")
			if c.wantErr == "" {
				if err != nil || ierr != nil || string(b) != c.want {
					t.Fatalf("WriteInput: %v; Input: %q, %v", err, b, ierr)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.wantErr) || !strings.HasPrefix(err.Error(), "vectorset: "+c.v.ID+": ") {
				t.Fatalf("error %v, want one saying %q", err, c.wantErr)
			}
			if ierr == nil || ierr.Error() != err.Error() || b != nil {
				t.Errorf("Input: %q, %v; want the error of WriteInput", b, ierr)
			}
		})
	}
}

// Parts gives a recipe the same bytes as reading its file parts anew; it
// keeps what it read (up to its limit, errors never), and an expansion
// through it is still checked against the index.
func TestParts(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "positive", "lace"), 0o755); err != nil {
		t.Fatal(err)
	}
	part := filepath.Join(dir, "positive", "lace", "p.bin")
	in := []byte("\x00\xffpart bytes")
	write := func(b []byte) {
		t.Helper()
		if err := os.WriteFile(part, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	recipe := &Recipe{Parts: []Part{{Hex: "3c"}, {File: "positive/p.bin"}, {Hex: "3e"}, {FileBase64: "positive/p.bin"}}}
	want := "<" + string(in) + ">" + base64.StdEncoding.EncodeToString(in)
	v := &Vector{ID: "lace/positive/r", Recipe: recipe, Size: int64(len(want)), BLAKE2b: Hash([]byte(want))}

	write(in)
	plain, err := v.Input(dir, "lace")
	if err != nil || string(plain) != want {
		t.Fatalf("Input: %q, %v; want %q", plain, err, want)
	}
	cases := []struct {
		name  string
		limit int64
		kept  bool // the second expansion needs no file
	}{
		{"kept", 1 << 20, true},
		{"limit too small", int64(len(in)) - 1, false},
		{"file kept, its base64 not: encoded from the kept file", int64(len(in)), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			write(in)
			p := NewParts(c.limit)
			var w bytes.Buffer
			if err := p.WriteInput(&w, v, dir, "lace"); err != nil || w.String() != want {
				t.Fatalf("first: %q, %v; want %q", w.String(), err, want)
			}
			if err := os.Remove(part); err != nil {
				t.Fatal(err)
			}
			b, err := p.Input(v, dir, "lace")
			if c.kept != (err == nil) {
				t.Fatalf("second, the file removed: %q, %v; want kept=%v", b, err, c.kept)
			}
			if c.kept && string(b) != want {
				t.Fatalf("second: %q, want %q", b, want)
			}
			if !c.kept && !strings.Contains(err.Error(), "no such file") {
				t.Fatalf("second: %v, want the missing file", err)
			}
		})
	}

	t.Run("errors not kept", func(t *testing.T) {
		os.Remove(part)
		p := NewParts(1 << 20)
		if _, err := p.Input(v, dir, "lace"); err == nil {
			t.Fatal("no error for a missing part file")
		}
		write(in)
		if b, err := p.Input(v, dir, "lace"); err != nil || string(b) != want {
			t.Fatalf("after the file came: %q, %v", b, err)
		}
	})

	t.Run("still checked", func(t *testing.T) {
		write(in)
		p := NewParts(1 << 20)
		if _, err := p.Input(v, dir, "lace"); err != nil {
			t.Fatal(err)
		}
		other := *v
		other.BLAKE2b = Hash([]byte("x"))
		if _, err := p.Input(&other, dir, "lace"); err == nil || !strings.Contains(err.Error(), "index says "+other.BLAKE2b) {
			t.Fatalf("an expansion through kept parts is not checked: %v", err)
		}
	})

	t.Run("concurrent", func(t *testing.T) {
		write(in)
		p := NewParts(1 << 20)
		var wg sync.WaitGroup
		errs := make(chan error, 8)
		for range 8 {
			wg.Go(func() {
				b, err := p.Input(v, dir, "lace")
				if err == nil && string(b) != want {
					err = fmt.Errorf("got %q", b)
				}
				errs <- err
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Error(err)
			}
		}
	})
}
