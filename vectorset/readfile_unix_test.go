//go:build unix

package vectorset

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A FIFO or a device is refused without being opened for reading (a
// FIFO's open waits for a writer: verification blocked forever).
func TestReadRegularRefusesFIFOsAndDevices(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{fifo, "not a regular file (a FIFO)"},
		{"/dev/null", "not a regular file (a character device)"},
	} {
		done := make(chan error, 1)
		go func() {
			_, err := ReadRegular(c.path, 1<<20)
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: %v, want %q", c.path, err, c.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: blocked", c.path)
		}
	}
}
