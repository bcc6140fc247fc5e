package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/threespec/conformance/vectorset"
)

// conform show writes the exact bytes of a recipe vector (its BLAKE2b is
// the index's) and of a file vector, and prints what a failure needs.
func TestShowWrites(t *testing.T) {
	var recipe, file *vectorset.Vector
	for _, suite := range specs.Names() {
		ix, err := vectorset.Load("../../vectors", suite)
		if err != nil {
			t.Fatal(err)
		}
		for i := range ix.Vectors {
			v := &ix.Vectors[i]
			switch {
			case v.Recipe != nil && (recipe == nil || v.Size < recipe.Size):
				recipe = v
			case v.Recipe == nil && file == nil && v.Expect == vectorset.Reject:
				file = v
			}
		}
	}
	if recipe == nil || file == nil {
		t.Fatal("the committed set has no recipe or no file vector")
	}
	for _, v := range []*vectorset.Vector{recipe, file} {
		out := filepath.Join(t.TempDir(), "input")
		code, stdout, stderr := conform(t, "show", "--vectors", "../../vectors", "--write", out, v.ID)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", v.ID, code, stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil || vectorset.Hash(b) != v.BLAKE2b || int64(len(b)) != v.Size {
			t.Errorf("%s: wrote %d bytes, BLAKE2b %s; the index says %d, %s", v.ID, len(b), vectorset.Hash(b), v.Size, v.BLAKE2b)
		}
		for _, want := range []string{"vector:   " + v.ID, "request:  " + v.Op, "expect:   " + v.Expect, "rule:     " + v.Rules[0], "written:  "} {
			if !strings.Contains(stdout, want) {
				t.Errorf("%s: the output lacks %q:\n%s", v.ID, want, stdout)
			}
		}
	}
	if !strings.Contains(mustShow(t, file.ID), filepath.Join("..", "..", "vectors", "negative")) {
		t.Errorf("%s: the input is not named by its path under the vectors directory", file.ID)
	}
	// A glob that matches several vectors, or none, is a usage error.
	if code, _, stderr := conform(t, "show", "--vectors", "../../vectors", "*crlf*"); code != 2 || !strings.Contains(stderr, "matches 40 vectors") && !strings.Contains(stderr, "not one") {
		t.Errorf("a glob of many: exit %d, %s", code, stderr)
	}
	if code, _, stderr := conform(t, "show", "--vectors", "../../vectors", "lace/negative/no-such-vector"); code != 2 || !strings.Contains(stderr, "closest") {
		t.Errorf("an ID of none: exit %d, %s", code, stderr)
	}
}

func mustShow(t *testing.T, id string) string {
	t.Helper()
	code, stdout, stderr := conform(t, "show", "--vectors", "../../vectors", id)
	if code != 0 {
		t.Fatalf("%s: exit %d: %s", id, code, stderr)
	}
	return stdout
}

// The hex dump brackets the byte the comment names and keeps the window
// around it.
func TestHexDump(t *testing.T) {
	b := bytes.Repeat([]byte{'a'}, 100)
	b[40] = 0xff
	var w bytes.Buffer
	hexDump(&w, b, 40, 32)
	out := w.String()
	for _, want := range []string{"[ff]", "... 16 bytes before", "... 52 bytes after", "marked:   the byte at offset 40 (0x28)"} {
		if !strings.Contains(out, want) {
			t.Errorf("hexDump lacks %q:\n%s", want, out)
		}
	}
	w.Reset()
	hexDump(&w, []byte{1, 2, 3}, 2, 512)
	if !strings.Contains(w.String(), " 01 02[03]") || strings.Contains(w.String(), "bytes before") {
		t.Errorf("a short input, the last byte marked:\n%s", w.String())
	}
}
