package harness

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// copyTree copies the committed vectors/ and manifest/ into a temporary
// directory and returns it.
func copyTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for _, d := range []string{"vectors", "manifest"} {
		src := filepath.Join("..", d)
		err := filepath.WalkDir(src, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel("..", p)
			dst := filepath.Join(root, rel)
			if e.IsDir() {
				return os.MkdirAll(dst, 0o755)
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(dst, b, 0o644)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestLoadCommittedSuites(t *testing.T) {
	suites, err := LoadSuites(allSuites, "../vectors", DefaultManifestDir("../vectors"), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range suites {
		txt, err := os.ReadFile(filepath.Join("..", "manifest", s.Name, "suite-set-hash.txt"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(txt), "set-hash "+s.SetHash+"\n") {
			t.Errorf("%s: set hash %s is not the committed one", s.Name, s.SetHash)
		}
		if s.Name == "hiverelay" {
			meta, _ := os.ReadFile("../manifest/hiverelay/hiverelay-blind-client-composition-metadata-v1.json")
			if len(s.Authority) != 2 {
				t.Errorf("hiverelay authority %+v: want the two published hashes", s.Authority)
			}
			for _, h := range s.Authority {
				if !strings.Contains(string(meta), fmt.Sprintf("%q:%q", h.Name, h.Hex)) || !strings.Contains(string(meta), fmt.Sprintf("%q:%d", h.LengthName, h.Length)) {
					t.Errorf("hiverelay authority hash %+v is not the published one", h)
				}
			}
		}
	}
}

// Every change to a vector set, its manifests or its published hashes is
// a setup error.
func TestLoadSuitesRejectsTampering(t *testing.T) {
	checkTampering(t, copyTree, nil, []tamperCase{
		{"a vector's bytes", func(root string) error {
			return appendTo(filepath.Join(root, "vectors/positive/hiverelay/read-cell-cap-v1.bin"), "x")
		}, "substituted positive/read-cell-cap-v1.bin"},
		{"an extra file", func(root string) error {
			return os.WriteFile(filepath.Join(root, "vectors/negative/hiverelay/extra.bin"), []byte("x"), 0o644)
		}, "extra negative/extra.bin"},
		{"a missing file", func(root string) error {
			return os.Remove(filepath.Join(root, "vectors/negative/hiverelay/cell-blob-v1-class-1-truncated.bin"))
		}, "missing negative/cell-blob-v1-class-1-truncated.bin"},
		{"the index", func(root string) error {
			return replaceIn(filepath.Join(root, "vectors/hiverelay.index.json"), `"BAD_ENCODING"`, `"OTHER"`)
		}, "substituted index.json"},
		{"the set hash", func(root string) error {
			return flipAfter(filepath.Join(root, "manifest/hiverelay/suite-set-hash.txt"), "set-hash ")
		}, "set-hash"},
		{"the suite manifest", func(root string) error {
			return appendTo(filepath.Join(root, "manifest/hiverelay/suite-manifest.bin"), "\x00")
		}, "suite-manifest.bin"},
		{"the authority metadata", func(root string) error {
			return flipAfter(filepath.Join(root, "manifest/hiverelay/hiverelay-blind-client-composition-metadata-v1.json"), `"clientCompositionFormatHash":"`)
		}, "authority"},
		{"no set-hash file", func(root string) error {
			return os.Remove(filepath.Join(root, "manifest/hiverelay/suite-set-hash.txt"))
		}, "suite-set-hash.txt"},
		// The suites are verified at once; the error is the first suite's.
		{"two suites", func(root string) error {
			return errors.Join(flipAfter(filepath.Join(root, "manifest/libtracer/suite-set-hash.txt"), "set-hash "),
				flipAfter(filepath.Join(root, "manifest/lace/suite-set-hash.txt"), "set-hash "))
		}, "suite lace: "},
	})
}

// tamperCase is a change to a copy of vector sets and what LoadSuites must
// then fail with.
type tamperCase struct {
	name   string
	tamper func(root string) error
	want   string // in the setup error
}

// checkTampering makes each case's change to a copy (copyOf) and wants
// LoadSuites of names to fail with a setup error mentioning the case's
// text; a case that cannot make a link here is skipped.
func checkTampering(t *testing.T, copyOf func(*testing.T) string, names []string, cases []tamperCase) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := copyOf(t)
			if err := c.tamper(root); errors.Is(err, errNoLinks) {
				t.Skip(err)
			} else if err != nil {
				t.Fatal(err)
			}
			_, err := LoadSuites(allSuites, filepath.Join(root, "vectors"), filepath.Join(root, "manifest"), names)
			var se *SetupError
			if !errors.As(err, &se) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want a setup error mentioning %q", err, c.want)
			}
		})
	}
}

// Files are read as regular files or not at all (issue 30): a link is not
// followed (one to /dev/zero grew memory without bound), and a file longer
// than its row is not read. Each is a setup error.
func TestLoadSuiteReadsRegularFilesOnly(t *testing.T) {
	copyHiveRelay := func(t *testing.T) string { return copySuite(t, "hiverelay") }
	checkTampering(t, copyHiveRelay, []string{"hiverelay"}, []tamperCase{
		{"a vector linked to /dev/zero", func(root string) error {
			return linkOver(filepath.Join(root, "vectors/positive/hiverelay/read-cell-cap-v1.bin"), "/dev/zero")
		}, "read-cell-cap-v1.bin: not a regular file (a symbolic link)"},
		{"a vector linked to its own bytes", func(root string) error {
			p := filepath.Join(root, "vectors/positive/hiverelay/read-cell-cap-v1.bin")
			if err := os.Rename(p, filepath.Join(root, "real.bin")); err != nil {
				return err
			}
			if err := os.Symlink(filepath.Join(root, "real.bin"), p); err != nil {
				return fmt.Errorf("%w: %v", errNoLinks, err)
			}
			return nil
		}, "read-cell-cap-v1.bin: not a regular file (a symbolic link)"},
		{"the index linked to /dev/zero", func(root string) error {
			return linkOver(filepath.Join(root, "vectors/hiverelay.index.json"), "/dev/zero")
		}, "hiverelay.index.json: not a regular file (a symbolic link)"},
		{"the suite manifest linked to /dev/zero", func(root string) error {
			return linkOver(filepath.Join(root, "manifest/hiverelay/suite-manifest.bin"), "/dev/zero")
		}, "suite-manifest.bin: not a regular file (a symbolic link)"},
		{"the set-hash file linked to /dev/zero", func(root string) error {
			return linkOver(filepath.Join(root, "manifest/hiverelay/suite-set-hash.txt"), "/dev/zero")
		}, "suite-set-hash.txt: not a regular file (a symbolic link)"},
		{"an authority file linked to /dev/zero", func(root string) error {
			return linkOver(filepath.Join(root, "manifest/hiverelay/hiverelay-blind-client-composition-format-v1.cenc"), "/dev/zero")
		}, "format-v1.cenc: not a regular file (a symbolic link)"},
		{"a vector far longer than its row", func(root string) error {
			return os.Truncate(filepath.Join(root, "vectors/positive/hiverelay/read-cell-cap-v1.bin"), 1<<40) // sparse: never read
		}, "substituted positive/read-cell-cap-v1.bin"},
		{"the suite manifest longer than stated", func(root string) error {
			return os.Truncate(filepath.Join(root, "manifest/hiverelay/suite-manifest.bin"), 1<<40)
		}, "suite-manifest.bin is longer than"},
	})
}

// copySuite copies one suite's files of the committed vectors/ and
// manifest/ into a temporary directory and returns it.
func copySuite(t *testing.T, suite string) string {
	t.Helper()
	root := t.TempDir()
	for _, d := range []string{"vectors/positive/" + suite, "vectors/negative/" + suite, "vectors/registry/" + suite, "manifest/" + suite} {
		entries, err := os.ReadDir(filepath.Join("..", d))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			copyFile(t, filepath.Join("..", d, e.Name()), filepath.Join(root, d, e.Name()))
		}
	}
	copyFile(t, filepath.Join("..", "vectors", suite+".index.json"), filepath.Join(root, "vectors", suite+".index.json"))
	return root
}

func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err == nil {
		err = os.WriteFile(dst, b, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
}

func TestLoadSuitesNames(t *testing.T) {
	if _, err := LoadSuites(allSuites, "../vectors", "../manifest", []string{"nosuch"}); err == nil || !strings.Contains(err.Error(), "unknown suite") {
		t.Errorf("unknown suite: %v", err)
	}
	if _, err := LoadSuites(allSuites, t.TempDir(), "../manifest", nil); err == nil || !strings.Contains(err.Error(), "no vector index") {
		t.Errorf("empty directory: %v", err)
	}
	// A suite named explicitly must exist.
	if _, err := LoadSuites(allSuites, t.TempDir(), "../manifest", []string{"lace"}); err == nil {
		t.Error("a missing suite named explicitly loaded")
	}
}

var errNoLinks = errors.New("symbolic links cannot be made here")

// linkOver replaces the file at p by a symbolic link to target.
func linkOver(p, target string) error {
	if err := os.Remove(p); err != nil {
		return err
	}
	if err := os.Symlink(target, p); err != nil {
		return fmt.Errorf("%w: %v", errNoLinks, err)
	}
	return nil
}

func appendTo(p, s string) error {
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = f.WriteString(s)
	return err
}

func replaceIn(p, old, new string) error {
	b, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	if !strings.Contains(string(b), old) {
		return errors.New(p + " does not contain " + old)
	}
	return os.WriteFile(p, []byte(strings.Replace(string(b), old, new, 1)), 0o644)
}

// flipAfter changes the hex digit right after marker (0 and 1 swap, any
// other digit becomes 0).
func flipAfter(p, marker string) error {
	b, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	i := strings.Index(string(b), marker)
	if i < 0 {
		return errors.New(p + " does not contain " + marker)
	}
	i += len(marker)
	if b[i] == '0' {
		b[i] = '1'
	} else {
		b[i] = '0'
	}
	return os.WriteFile(p, b, 0o644)
}

// The verification time of suites verified at once is the span from the
// first start to the last end, plus the durations of suites LoadSuite did
// not make.
func TestVerificationTime(t *testing.T) {
	t0 := time.Now()
	at := func(start, d time.Duration) *Suite { return &Suite{verifyStart: t0.Add(start), Verify: d} }
	cases := []struct {
		name   string
		suites []*Suite
		want   time.Duration
	}{
		{"none", nil, 0},
		{"one", []*Suite{at(0, 5*time.Millisecond)}, 5 * time.Millisecond},
		{"overlapping", []*Suite{at(0, 50*time.Millisecond), at(time.Millisecond, 80*time.Millisecond), at(2*time.Millisecond, 10*time.Millisecond)}, 81 * time.Millisecond},
		{"one after another", []*Suite{at(10*time.Millisecond, 5*time.Millisecond), at(0, 10*time.Millisecond)}, 15 * time.Millisecond},
		{"and one made elsewhere", []*Suite{at(0, 50*time.Millisecond), {Verify: 7 * time.Millisecond}}, 57 * time.Millisecond},
	}
	for _, c := range cases {
		if got := verificationTime(c.suites); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
