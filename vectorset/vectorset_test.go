package vectorset

import (
	"bytes"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
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
	}
	for name, text := range cases {
		if _, err := Parse([]byte(text), "lace"); err == nil {
			t.Errorf("%s: parsed without error", name)
		}
	}
	if _, err := Parse([]byte(strings.Replace(good, "%s", vec("lace/positive/a", ""), 1)), "lace"); err != nil {
		t.Fatalf("good index rejected: %v", err)
	}
}
