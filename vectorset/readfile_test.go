package vectorset

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ReadRegular reads regular files, and refuses anything else before it
// reads a byte (issue 30).
func TestReadRegular(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	links := os.Symlink(file, link) == nil
	cases := []struct {
		name  string
		path  string
		limit int64
		want  string // "" for the bytes "abc"
		links bool   // needs a symbolic link
	}{
		{"a regular file", file, 3, "", false},
		{"a regular file under a larger limit", file, 1 << 20, "", false},
		{"a regular file over the limit", file, 2, "3 bytes: longer than allowed (at most 2)", false},
		{"a link to a regular file", link, 3, "not a regular file (a symbolic link)", true},
		{"a directory", dir, 1 << 20, "not a regular file (a directory)", false},
		{"nothing", filepath.Join(dir, "none"), 3, "no such file", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.links && !links {
				t.Skip("no symbolic links here")
			}
			b, err := ReadRegular(c.path, c.limit)
			switch {
			case c.want == "" && (err != nil || string(b) != "abc"):
				t.Errorf("got %q, %v; want abc", b, err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Errorf("got %q, %v; want an error with %q", b, err, c.want)
			}
		})
	}
	if _, err := ReadRegular(file, 2); !errors.Is(err, ErrTooLarge) {
		t.Errorf("over the limit: %v, want ErrTooLarge", err)
	}
}

// A committed vector file is read as a regular file of the size the index
// gives, at run time too: one replaced after verification by a link (to
// /dev/zero: the read never ended) or by a longer file is an error.
func TestWriteInputReadsRegularFilesOnly(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "positive", "s"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "positive", "s", "x.bin")
	v := Vector{ID: "s/positive/x", File: "positive/x.bin", Size: 3, BLAKE2b: Hash([]byte("abc"))}
	write := func(b string) {
		os.Remove(p)
		if err := os.WriteFile(p, []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("abc")
	var sink strings.Builder
	if err := v.WriteInput(&sink, dir, "s"); err != nil || sink.String() != "abc" {
		t.Fatalf("%q, %v", sink.String(), err)
	}
	write(strings.Repeat("x", 1<<20))
	if err := v.WriteInput(&sink, dir, "s"); err == nil || !strings.Contains(err.Error(), "input is 1048576 bytes, index says 3") {
		t.Errorf("a longer file: %v", err)
	}
	os.Remove(p)
	if err := os.Symlink("/dev/zero", p); err != nil {
		t.Skip("no symbolic links here")
	}
	if err := v.WriteInput(&sink, dir, "s"); err == nil || !strings.Contains(err.Error(), "not a regular file (a symbolic link)") {
		t.Errorf("a link to /dev/zero: %v", err)
	}
	// A recipe's file part as well.
	r := Recipe{Parts: []Part{{File: "positive/x.bin"}}}
	if _, err := r.Expand(DirReader(dir, "s")); err == nil || !strings.Contains(err.Error(), "not a regular file (a symbolic link)") {
		t.Errorf("a recipe part linked to /dev/zero: %v", err)
	}
}
