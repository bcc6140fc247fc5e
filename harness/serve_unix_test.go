//go:build unix

package harness

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/threespec/conformance/internal/allspecs"
	"github.com/threespec/conformance/reference"
	"github.com/threespec/conformance/testee"
)

// conform serve opens only regular files (issue 30): an input_path that
// names a FIFO, /dev/stdin or a device is answered BAD_REQUEST at once,
// and the next request is answered; before, the FIFO's open and the read
// of standard input (the request stream itself, kept open) blocked
// forever.
func TestServeInputPathRegularFilesOnly(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	fifoLink := filepath.Join(dir, "fifo-link")
	if err := os.Symlink(fifo, fifoLink); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte{9, 0, 0, 0}, 0o400); err != nil { // an empty STATUS frame
		t.Fatal(err)
	}
	fileLink := filepath.Join(dir, "file-link")
	if err := os.Symlink(file, fileLink); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ name, path, want string }{ // want: "" for an answer of the implementation
		{"a FIFO", fifo, "not a regular file (a FIFO)"},
		{"a link to a FIFO", fifoLink, "not a regular file (a FIFO)"},
		{"a device", "/dev/zero", "not a regular file (a character device)"},
		{"a directory", dir, "not a regular file (a directory)"},
		{"a regular file", file, ""},
		{"a link to a regular file", fileLink, ""},
	}
	// The requests come through a pipe kept open, as conform keeps the
	// testee's standard input open; /dev/fd/N names that pipe, as
	// /dev/stdin names conform serve's.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if self := fmt.Sprintf("/dev/fd/%d", r.Fd()); fileExists(self) {
		cases = append(cases, struct{ name, path, want string }{"the request stream itself", self, "not a regular file (a FIFO)"})
	}
	outR, outW := io.Pipe()
	go func() {
		err := Serve(context.Background(), r, outW, reference.New(allspecs.Set()), 0)
		outW.CloseWithError(err)
	}()
	answers := bufio.NewReader(outR)
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fmt.Fprintf(w, `{"id":%d,"op":"libtracer.decode","args":{},"input_path":%q}`+"\n", i+1, c.path)
			got := make(chan string, 1)
			go func() {
				l, _ := answers.ReadString('\n')
				got <- l
			}()
			select {
			case l := <-got:
				resp, err := testee.ParseResponse([]byte(strings.TrimSuffix(l, "\n")), int64(i+1))
				switch {
				case err != nil:
					t.Fatalf("%v: %q", err, l)
				case c.want == "" && resp.Code == BadRequest:
					t.Errorf("refused: %s", l)
				case c.want != "" && (resp.Code != BadRequest || !strings.Contains(resp.Detail, c.want)):
					t.Errorf("got %s, want BAD_REQUEST saying %q", l, c.want)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("no answer: serve blocked")
			}
		})
	}
	w.Close()
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
