package vecgen_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/threespec/conformance/internal/vecgen"
	"github.com/threespec/conformance/vectorset"
)

// entry is an index entry of the synthetic suite "s": bytes h, the
// expectation and the rest as given.
func entry(id, h, expect, code, level, comment string, rules ...string) vectorset.Vector {
	return vectorset.Vector{ID: "s/" + id, File: id + ".bin", Size: int64(len(h)), BLAKE2b: h, Op: "s.op", Args: json.RawMessage(`{}`),
		Expect: expect, Code: code, Rules: rules, Level: level, Tags: []string{}, Profiles: []string{}, Comment: comment}
}

func aliased(v vectorset.Vector, aliases ...string) vectorset.Vector {
	v.Aliases = aliases
	return v
}

// writeSet writes the suite's index, its set-hash file and one more
// manifest file into a work tree.
func writeSet(t *testing.T, root, hash, extra string, vs ...vectorset.Vector) {
	t.Helper()
	ix := vectorset.Index{Format: "threespec-vector-index/1", Suite: "s", Vectors: vs}
	b, err := json.MarshalIndent(ix, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	for p, data := range map[string]string{
		"vectors/s.index.json":          string(b),
		"manifest/s/suite-set-hash.txt": "# Code generated\nsuite s\nset-hash " + hash + "\n",
		"manifest/s/authority.json":     extra,
	} {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func git(t *testing.T, root string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", root, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// -diff between two commits of a repository built here lists exactly
// what changed: added, removed, renamed (same bytes and expectation, new
// ID), changed (code, level and rules, bytes, expectation), the quiet
// changes counted, the other manifest files, both set hashes; the working
// tree is read as it is; the changelog has an entry per set-hash change.
func TestDiffAndChangelog(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH")
	}
	root := t.TempDir()
	git(t, root, "init", "-q")
	writeSet(t, root, "aaaa", "1",
		entry("positive/a", "h1", "accept", "", "MUST", "a", "R-1"),
		entry("negative/b", "h2", "reject", "X", "MUST", "b", "R-2"),
		entry("negative/c", "h3", "reject", "X", "MUST", "c", "R-3"),
		entry("positive/d", "h4", "accept", "", "MUST", "d", "R-4"),
		entry("positive/g", "h5", "accept", "", "MUST", "g", "R-5"),
		entry("positive/k", "h6", "accept", "", "MUST", "k", "R-6"),
		entry("positive/m", "h7", "accept", "", "MUST", "m", "R-7"),
		entry("positive/n", "h10", "accept", "", "MUST", "n", "R-10"),
	)
	git(t, root, "add", "-A")
	git(t, root, "commit", "-q", "-m", "first set")
	git(t, root, "tag", "vectors-v1")
	first := git(t, root, "rev-parse", "HEAD")

	writeSet(t, root, "bbbb", "2",
		aliased(entry("positive/a-renamed", "h1", "accept", "", "MUST", "a, renamed", "R-1"), "s/positive/a"), // renamed, aliased
		entry("negative/b", "h2", "reject", "Y", "MUST", "b", "R-2"),                                          // code
		entry("negative/c", "h3", "reject", "X", "SHOULD", "c", "R-3", "R-9"),                                 // level, rules
		entry("positive/d", "h4", "accept", "", "MUST", "d, reworded", "R-4"),                                 // quiet
		entry("positive/f", "h8", "accept", "", "MUST", "f", "R-8"),                                           // added
		entry("negative/k", "h6", "reject", "Z", "MUST", "k", "R-6"),                                          // k: positive/k removed, negative/k added (expectation differs: no rename)
		entry("positive/m", "h9", "accept", "", "MUST", "m", "R-7"),                                           // bytes
		entry("positive/n2", "h10", "accept", "", "MUST", "n", "R-10"),                                        // renamed, no alias
	)
	git(t, root, "add", "-A")
	git(t, root, "commit", "-q", "-m", "second set")
	second := git(t, root, "rev-parse", "HEAD")

	want := vecgen.SuiteDiff{
		Suite: "s", OldHash: "aaaa", NewHash: "bbbb",
		Added:   []string{"s/negative/k", "s/positive/f"},
		Removed: []string{"s/positive/g", "s/positive/k"},
		Renamed: []vecgen.Rename{{From: "s/positive/a", To: "s/positive/a-renamed", Alias: true}, {From: "s/positive/n", To: "s/positive/n2"}},
		Changed: []vecgen.Change{
			{ID: "s/negative/b", Fields: []string{`code "X" -> "Y"`}, Breaks: true},
			{ID: "s/negative/c", Fields: []string{"rules R-3 -> R-3 R-9", "level MUST -> SHOULD"}},
			{ID: "s/positive/m", Fields: []string{"bytes 2 bytes h7 -> 2 bytes h9"}, Breaks: true},
		},
		Quiet: 1,
		Files: []string{"authority.json"},
	}
	for _, c := range []struct {
		name     string
		old, new vecgen.Tree
	}{
		{"commit to commit", vecgen.GitTree{Root: root, Rev: first}, vecgen.GitTree{Root: root, Rev: second}},
		{"tag to working tree", vecgen.GitTree{Root: root, Rev: "vectors-v1"}, vecgen.DirTree(root)},
	} {
		got, err := vecgen.DiffTrees(c.old, c.new, []string{"s", "absent"})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || !reflect.DeepEqual(got[0], want) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.name, got, want)
		}
		if len(got) == 2 && (!got[1].Unchanged() || got[1].OldHash != "") {
			t.Errorf("%s: a suite neither tree has: %+v", c.name, got[1])
		}
	}

	breaks := want.PolicyBreaks()
	if len(breaks) != 3 || !strings.HasPrefix(breaks[0], "s/negative/b:") || !strings.HasPrefix(breaks[1], "s/positive/m:") || !strings.HasPrefix(breaks[2], "s/positive/n2: renamed from s/positive/n without") {
		t.Errorf("policy breaks %q", breaks)
	}

	// The same tree: unchanged.
	same, err := vecgen.DiffTrees(vecgen.GitTree{Root: root, Rev: second}, vecgen.DirTree(root), []string{"s"})
	if err != nil || !same[0].Unchanged() {
		t.Errorf("HEAD against its own tree: %+v, %v", same, err)
	}
	var capped, md strings.Builder
	if err := vecgen.WriteDiff(&capped, "vectors-v1", "now", []vecgen.SuiteDiff{want}, 1); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(capped.String(), "- added (2):\n  - `s/negative/k`\n  - ... and 1 more") {
		t.Errorf("the capped Markdown:\n%s", capped.String())
	}
	if err := vecgen.WriteDiff(&md, "vectors-v1", "now", []vecgen.SuiteDiff{want}, 0); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"- set hash vectors-v1: `aaaa`", "- added (2):\n  - `s/negative/k`\n  - `s/positive/f`\n", "`s/positive/a` -> `s/positive/a-renamed` (the old ID kept as an alias)", "`s/positive/n` -> `s/positive/n2` (**ID policy", "`s/negative/b`: code \"X\" -> \"Y\" (**ID policy", "- 1 with a new comment"} {
		if !strings.Contains(md.String(), s) {
			t.Errorf("the Markdown holds no %q:\n%s", s, md.String())
		}
	}

	var cl strings.Builder
	if err := vecgen.Changelog(&cl, root, []string{"s"}); err != nil {
		t.Fatal(err)
	}
	log := cl.String()
	i2, i1 := strings.Index(log, second[:12]+"\n\nsecond set"), strings.Index(log, "vectors-v1 ("+first[:12]+")\n\nfirst set")
	if !strings.HasPrefix(log, "<!-- Code generated by go run ./cmd/vecgen -changelog. DO NOT EDIT. -->") || i2 < 0 || i1 < i2 {
		t.Errorf("changelog:\n%s", log)
	}
	if !strings.Contains(log, "## Releases\n\n| tag | date | s set hash |\n| --- | --- | --- |\n| `vectors-v1` | ") || !strings.Contains(log, " | `aaaa` |\n") {
		t.Errorf("changelog releases:\n%s", log)
	}
	if !strings.Contains(log[i1:], "- added (8):") || !strings.Contains(log[i2:i1], "`s/positive/a` -> `s/positive/a-renamed`") {
		t.Errorf("changelog entries:\n%s", log)
	}
}
