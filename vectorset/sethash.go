package vectorset

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/crypto/blake2b"
)

// The suite set hash and manifest/<suite>/suite-set-hash.txt, the file that
// states it (docs/VECTORS.md, Layout and Manifests and set hashes). The
// generator writes the file and a harness checks it; both use this code.

// SetHashDomain is the domain string of a suite set hash (docs/VECTORS.md,
// Manifests and set hashes).
const SetHashDomain = "threespec.conformance.suite-vector-set-hash.v1"

// SetHash is the suite set hash of a suite manifest (suite-manifest.bin):
// BLAKE2b-256(ASCII(SetHashDomain) || U64BE(len(manifest)) || manifest),
// as docs/VECTORS.md (Manifests and set hashes) defines it.
func SetHash(manifest []byte) [32]byte {
	h, _ := blake2b.New256(nil)
	h.Write([]byte(SetHashDomain))
	h.Write(binary.BigEndian.AppendUint64(nil, uint64(len(manifest))))
	h.Write(manifest)
	var out [32]byte
	copy(out[:], h.Sum(nil))
	return out
}

// SetHashFile is what a suite-set-hash.txt states of its suite manifest:
// the suite, the set hash, the manifest's length in bytes and its row
// count (the files of the suite tree), and SetHashDomain.
type SetHashFile struct {
	Suite         string
	SetHash       [32]byte
	ManifestBytes int
	Files         int
}

// NewSetHashFile returns the statement of manifest, the suite manifest of
// suite, which has files rows.
func NewSetHashFile(suite string, manifest []byte, files int) SetHashFile {
	return SetHashFile{Suite: suite, SetHash: SetHash(manifest), ManifestBytes: len(manifest), Files: files}
}

// setHashKeys are the keys of a suite-set-hash.txt, in the order it gives
// them.
var setHashKeys = []string{"suite", "set-hash", "manifest-bytes", "files", "domain"}

// values returns the value of each of setHashKeys.
func (f SetHashFile) values() []string {
	return []string{f.Suite, hex.EncodeToString(f.SetHash[:]), strconv.Itoa(f.ManifestBytes), strconv.Itoa(f.Files), SetHashDomain}
}

// Text returns the file's bytes: comment on a "# " line, then one
// "key value" line each for suite, set-hash, manifest-bytes, files and
// domain.
func (f SetHashFile) Text(comment string) []byte {
	b := fmt.Appendf(nil, "# %s\n", comment)
	for i, v := range f.values() {
		b = fmt.Appendf(b, "%s %s\n", setHashKeys[i], v)
	}
	return b
}

// Check returns an error unless txt, the bytes of a suite-set-hash.txt,
// states f: each key once, with f's value. Empty lines and lines starting
// with # are skipped; other keys are ignored.
func (f SetHashFile) Check(txt []byte) error {
	kv, err := parseSetHashText(txt)
	if err != nil {
		return fmt.Errorf("suite-set-hash.txt: %v", err)
	}
	for i, want := range f.values() {
		if k := setHashKeys[i]; kv[k] != want {
			return fmt.Errorf("suite-set-hash.txt says %s %q, but suite-manifest.bin gives %q", k, kv[k], want)
		}
	}
	return nil
}

// parseSetHashText reads the "key value" lines of a suite-set-hash.txt.
func parseSetHashText(b []byte) (map[string]string, error) {
	kv := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, " ")
		if !ok {
			return nil, fmt.Errorf("line %d: not \"key value\"", n)
		}
		if _, dup := kv[k]; dup {
			return nil, fmt.Errorf("line %d: %s given twice", n, k)
		}
		kv[k] = v
	}
	return kv, sc.Err()
}

// StatedManifestBytes returns the manifest length a suite-set-hash.txt
// states (its manifest-bytes line), so that suite-manifest.bin can be
// checked for its size before it is read.
func StatedManifestBytes(txt []byte) (int64, error) {
	kv, err := parseSetHashText(txt)
	if err != nil {
		return 0, fmt.Errorf("suite-set-hash.txt: %v", err)
	}
	n, err := strconv.ParseInt(kv["manifest-bytes"], 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("suite-set-hash.txt: manifest-bytes %q is not a length", kv["manifest-bytes"])
	}
	return n, nil
}
