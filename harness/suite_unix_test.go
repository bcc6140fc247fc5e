//go:build unix

package harness

import (
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A FIFO anywhere in a vector set is refused, not opened: opening one for
// reading waits for a writer, and verification blocked forever (issue 30).
func TestLoadSuitesRefusesFIFOs(t *testing.T) {
	for _, name := range []string{
		"vectors/negative/hiverelay/cell-blob-v1-class-1-truncated.bin",
		"vectors/hiverelay.index.json",
		"manifest/hiverelay/suite-manifest.bin",
		"manifest/hiverelay/suite-set-hash.txt",
		"manifest/hiverelay/hiverelay-blind-client-composition-metadata-v1.json",
	} {
		t.Run(filepath.Base(name), func(t *testing.T) {
			root := copySuite(t, "hiverelay")
			p := filepath.Join(root, name)
			if err := syscall.Unlink(p); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() {
				_, err := LoadSuites(allSuites, filepath.Join(root, "vectors"), filepath.Join(root, "manifest"), []string{"hiverelay"})
				done <- err
			}()
			select {
			case err := <-done:
				var se *SetupError
				if !errors.As(err, &se) || !strings.Contains(err.Error(), "not a regular file (a FIFO)") {
					t.Errorf("got %v, want a setup error: not a regular file (a FIFO)", err)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("verification blocked on a FIFO")
			}
		})
	}
}
