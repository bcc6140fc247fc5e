package specs

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// upstream is where the specifications the project was given are kept when
// the workplace lays them beside the clone. The project does not need it:
// when it is there, the copies here must not have drifted from it.
const upstream = "../../shared/specs"

// Every copy has the SHA-256 recorded when it was copied in.
func TestRecordedDigests(t *testing.T) {
	for _, f := range Files() {
		sum := sha256.Sum256(f.Bytes)
		if got := hex.EncodeToString(sum[:]); got != f.SHA256 {
			t.Errorf("specs/%s: sha256 %s, recorded %s", f.Name, got, f.SHA256)
		}
		disk, err := os.ReadFile(f.Name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(disk, f.Bytes) {
			t.Errorf("specs/%s: the embedded bytes differ from the file", f.Name)
		}
	}
}

// Text gives every listed copy, and nothing for a name SHA256SUMS does not
// list.
func TestText(t *testing.T) {
	if len(Files()) < 4 {
		t.Fatalf("%d copies listed", len(Files()))
	}
	for _, f := range Files() {
		if !bytes.Equal(Text(f.Name), f.Bytes) {
			t.Errorf("Text(%s) is not its bytes", f.Name)
		}
	}
	for _, name := range []string{"", "README.md", "SHA256SUMS", "specs.go", "nope.txt"} {
		if Text(name) != nil {
			t.Errorf("Text(%q) gave bytes", name)
		}
	}
}

// Where the upstream specifications lie beside the clone, the tree holds
// exactly the same files with exactly the same bytes; elsewhere the recorded
// digests above are the check.
func TestNoDriftFromUpstream(t *testing.T) {
	entries, err := os.ReadDir(upstream)
	if errors.Is(err, fs.ErrNotExist) {
		t.Logf("%s is not beside the clone: the copies are checked by their recorded SHA-256 (TestRecordedDigests)", upstream)
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	var ours []string
	for _, f := range Files() {
		ours = append(ours, f.Name)
	}
	slices.Sort(names)
	if !slices.Equal(names, ours) {
		t.Fatalf("%s holds %v; specs/ carries %v", upstream, names, ours)
	}
	for _, f := range Files() {
		up, err := os.ReadFile(filepath.Join(upstream, f.Name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(up, f.Bytes) {
			t.Errorf("specs/%s differs from %s/%s: copy it again and re-record its SHA-256", f.Name, upstream, f.Name)
		}
	}
}
