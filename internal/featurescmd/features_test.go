package featurescmd

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// Colours go to a terminal only, and never under NO_COLOR: not to a
// buffer, a file or a pipe.
func TestColourful(t *testing.T) {
	file, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	for name, c := range map[string]struct {
		w       io.Writer
		noColor string
	}{
		"buffer": {&bytes.Buffer{}, ""}, "file": {file, ""}, "pipe": {w, ""}, "NO_COLOR on a file": {file, "1"},
	} {
		if colourful(c.w, c.noColor) {
			t.Errorf("%s: colourful", name)
		}
	}
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		defer tty.Close()
		if !colourful(tty, "") || colourful(tty, "1") {
			t.Errorf("a terminal: colourful %v, under NO_COLOR %v", colourful(tty, ""), colourful(tty, "1"))
		}
	}
}
