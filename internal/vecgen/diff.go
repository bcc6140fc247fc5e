package vecgen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/threespec/conformance/vectorset"
)

// SuiteDiff is what changed in one suite's vector set between two trees
// (vecgen -diff REV; docs/VECTORS.md, "IDs and releases").
type SuiteDiff struct {
	Suite string
	// OldHash and NewHash are the suite set hashes the two trees state
	// ("" where the tree has no such suite).
	OldHash, NewHash string
	// Added and Removed are vector IDs, sorted. A removed vector whose
	// bytes and expectation an added one has is listed under Renamed, in
	// neither.
	Added, Removed []string
	Renamed        []Rename
	Changed        []Change
	// Quiet counts the vectors whose entry changed in nothing judged
	// (comment, tags, derived_from only).
	Quiet int
	// Files are the other files of manifest/<suite>/ that differ (the
	// published authority files, for a suite that has them), sorted.
	Files []string
}

// Rename is a vector that kept its bytes and expectation under a new ID;
// Alias says the new entry keeps the old ID among its aliases, as the ID
// policy asks for one release.
type Rename struct {
	From, To string
	Alias    bool
}

// Change is a vector whose ID stayed and whose judged entry changed: what
// changed, each as "field old -> new". Breaks is set when the ID now names
// other bytes, another request or another expectation, which the ID
// policy forbids (docs/VECTORS.md, "IDs and releases"): such a vector
// takes a new ID.
type Change struct {
	ID     string
	Fields []string
	Breaks bool
	// Widened is set when the request, bytes, outcome and result stayed
	// and the codes the vector accepts grew (an acceptable code added, or
	// "any code" where one was required): every answer that passed still
	// passes, so the ID keeps naming what it named.
	Widened bool
}

// PolicyBreaks lists what in the diff breaks the ID policy: an ID that
// names other bytes, another request or another expectation, and a
// rename whose old ID is not kept as an alias.
func (d *SuiteDiff) PolicyBreaks() []string {
	var out []string
	for _, c := range d.Changed {
		if c.Breaks {
			out = append(out, c.ID+": the ID names other bytes, another request or another expectation")
		}
	}
	for _, r := range d.Renamed {
		if !r.Alias {
			out = append(out, r.To+": renamed from "+r.From+" without keeping it as an alias")
		}
	}
	return out
}

// Unchanged reports whether the suite's set is the same in both trees.
func (d *SuiteDiff) Unchanged() bool {
	return d.OldHash == d.NewHash && len(d.Added)+len(d.Removed)+len(d.Renamed)+len(d.Changed)+d.Quiet+len(d.Files) == 0
}

// Tree reads a file of a tree by its repository path (slash-separated);
// a file the tree does not hold is an error wrapping fs.ErrNotExist.
type Tree interface {
	ReadFile(p string) ([]byte, error)
	// List names the files directly in directory dir.
	List(dir string) ([]string, error)
}

// DirTree is the tree of files below a directory (the working tree).
type DirTree string

// ReadFile reads root/p.
func (t DirTree) ReadFile(p string) ([]byte, error) {
	return os.ReadFile(filepath.Join(string(t), filepath.FromSlash(p)))
}

// List names the regular files of root/dir.
func (t DirTree) List(dir string) ([]string, error) {
	es, err := os.ReadDir(filepath.Join(string(t), filepath.FromSlash(dir)))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	var out []string
	for _, e := range es {
		if e.Type().IsRegular() {
			out = append(out, e.Name())
		}
	}
	return out, err
}

// GitTree is the tree of a commit of the repository at Root, read with
// git show and git ls-tree: nothing is checked out.
type GitTree struct{ Root, Rev string }

// ErrNotInTree is the error of a path a GitTree's commit does not hold.
var ErrNotInTree = os.ErrNotExist

// ReadFile is git show REV:p.
func (t GitTree) ReadFile(p string) ([]byte, error) {
	if _, err := t.git("cat-file", "-e", t.Rev+":"+p); err != nil {
		return nil, fmt.Errorf("%s:%s: %w", t.Rev, p, ErrNotInTree)
	}
	return t.git("show", t.Rev+":"+p)
}

// List is git ls-tree --name-only REV dir/.
func (t GitTree) List(dir string) ([]string, error) {
	out, err := t.git("ls-tree", "--name-only", t.Rev, dir+"/")
	if err != nil {
		return nil, err
	}
	var names []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if l != "" {
			names = append(names, path.Base(l))
		}
	}
	return names, nil
}

func (t GitTree) git(args ...string) ([]byte, error) {
	cmd := exec.Command("git", append([]string{"-C", t.Root}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// DiffTrees compares the named suites' vector sets (their indexes, set
// hashes and manifest directories) between an old and a new tree.
func DiffTrees(oldTree, newTree Tree, suites []string) ([]SuiteDiff, error) {
	var out []SuiteDiff
	for _, s := range suites {
		d, err := diffSuite(oldTree, newTree, s)
		if err != nil {
			return nil, fmt.Errorf("suite %s: %w", s, err)
		}
		out = append(out, *d)
	}
	return out, nil
}

func diffSuite(oldTree, newTree Tree, suite string) (*SuiteDiff, error) {
	d := &SuiteDiff{Suite: suite}
	var old, cur []vectorset.Vector
	var err error
	if old, d.OldHash, err = readSet(oldTree, suite); err != nil {
		return nil, err
	}
	if cur, d.NewHash, err = readSet(newTree, suite); err != nil {
		return nil, err
	}
	oldByID := map[string]*vectorset.Vector{}
	for i := range old {
		oldByID[old[i].ID] = &old[i]
	}
	newByID := map[string]*vectorset.Vector{}
	for i := range cur {
		newByID[cur[i].ID] = &cur[i]
	}
	// Renames: a removed vector and an added one with the same request,
	// bytes, expectation and readings, paired in ID order.
	gone := map[string][]string{}
	for _, v := range old {
		if newByID[v.ID] == nil {
			k := renameKey(&v)
			gone[k] = append(gone[k], v.ID)
		}
	}
	renamedFrom := map[string]bool{}
	for _, v := range cur {
		o, ok := oldByID[v.ID]
		if ok {
			if fields := changedFields(o, &v); len(fields) > 0 {
				w := widened(o, &v)
				d.Changed = append(d.Changed, Change{ID: v.ID, Fields: fields, Breaks: sameKey(o) != sameKey(&v) && !w, Widened: w})
			} else if !quietEqual(o, &v) {
				d.Quiet++
			}
			continue
		}
		k := renameKey(&v)
		if ids := gone[k]; len(ids) > 0 {
			d.Renamed = append(d.Renamed, Rename{From: ids[0], To: v.ID, Alias: slices.Contains(v.Aliases, ids[0])})
			renamedFrom[ids[0]] = true
			gone[k] = ids[1:]
			continue
		}
		d.Added = append(d.Added, v.ID)
	}
	for _, v := range old {
		if newByID[v.ID] == nil && !renamedFrom[v.ID] {
			d.Removed = append(d.Removed, v.ID)
		}
	}
	sort.Strings(d.Added)
	sort.Strings(d.Removed)
	sort.Slice(d.Renamed, func(i, j int) bool { return d.Renamed[i].To < d.Renamed[j].To })
	sort.Slice(d.Changed, func(i, j int) bool { return d.Changed[i].ID < d.Changed[j].ID })
	if d.Files, err = diffManifestDir(oldTree, newTree, suite); err != nil {
		return nil, err
	}
	return d, nil
}

// readSet reads a suite's index (leniently: an older tree's index is read
// as it was written) and the set hash its suite-set-hash.txt states; a
// tree without the suite gives neither.
func readSet(t Tree, suite string) ([]vectorset.Vector, string, error) {
	b, err := t.ReadFile(path.Join("vectors", suite+".index.json"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", err
	}
	var ix vectorset.Index
	if err := json.Unmarshal(b, &ix); err != nil {
		return nil, "", fmt.Errorf("%s.index.json: %v", suite, err)
	}
	txt, err := t.ReadFile(path.Join("manifest", suite, "suite-set-hash.txt"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, "", err
	}
	hash := ""
	for _, l := range strings.Split(string(txt), "\n") {
		if h, ok := strings.CutPrefix(l, "set-hash "); ok {
			hash = strings.TrimSpace(h)
		}
	}
	return ix.Vectors, hash, nil
}

// diffManifestDir lists the files of manifest/<suite>/, other than the
// suite manifest and its set-hash file, that are not the same in both
// trees (added, removed or changed).
func diffManifestDir(oldTree, newTree Tree, suite string) ([]string, error) {
	dir := path.Join("manifest", suite)
	oldNames, err := oldTree.List(dir)
	if err != nil {
		return nil, err
	}
	newNames, err := newTree.List(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, n := range slices.Compact(slices.Sorted(slices.Values(append(oldNames, newNames...)))) {
		if n == "suite-manifest.bin" || n == "suite-set-hash.txt" {
			continue
		}
		a, errA := oldTree.ReadFile(path.Join(dir, n))
		b, errB := newTree.ReadFile(path.Join(dir, n))
		if (errA != nil) != (errB != nil) || !bytes.Equal(a, b) {
			out = append(out, n)
		}
	}
	return out, nil
}

// widened reports whether n is o with only the codes it accepts grown
// (Change.Widened).
func widened(o, n *vectorset.Vector) bool {
	if requestKey(o) != requestKey(n) || o.Expect != vectorset.Reject || (o.Code == n.Code && slices.Equal(o.AcceptableCodes, n.AcceptableCodes)) {
		return false
	}
	if n.Code == "" {
		return true // any code
	}
	if o.Code == "" {
		return false
	}
	accepts := append([]string{n.Code}, n.AcceptableCodes...)
	for _, c := range append([]string{o.Code}, o.AcceptableCodes...) {
		if !slices.Contains(accepts, c) {
			return false
		}
	}
	return true
}

// sameKey is what an ID names: the request (operation, arguments, the
// input's bytes) and the expectation.
func sameKey(v *vectorset.Vector) string {
	return requestKey(v) + "\x00" + v.Code + "\x00" + strings.Join(v.AcceptableCodes, ",")
}

// requestKey is what an ID names but the codes a rejection accepts: the
// request, the input's bytes, the outcome and the result.
func requestKey(v *vectorset.Vector) string {
	return strings.Join([]string{v.Op, compact(v.Args), v.BLAKE2b, fmt.Sprint(v.Size), v.Expect, compact(v.Result)}, "\x00")
}

// renameKey is what a rename keeps: what the ID names and the readings
// the vector applies under (a branch vector of another reading that
// happens to have the same bytes and expectation is another vector).
func renameKey(v *vectorset.Vector) string {
	return sameKey(v) + "\x00" + readingsText(v.Readings)
}

// changedFields lists what of a vector's judged entry changed: the
// request, the bytes, the expectation, the rules, the level, the profiles
// and the readings it applies under.
func changedFields(o, n *vectorset.Vector) []string {
	var out []string
	diff := func(name, a, b string) {
		if a != b {
			out = append(out, fmt.Sprintf("%s %s -> %s", name, short(a), short(b)))
		}
	}
	diff("expect", o.Expect, n.Expect)
	diff("code", quote(o.Code), quote(n.Code))
	diff("acceptable_codes", strings.Join(o.AcceptableCodes, ","), strings.Join(n.AcceptableCodes, ","))
	diff("result", compact(o.Result), compact(n.Result))
	diff("rules", strings.Join(o.Rules, " "), strings.Join(n.Rules, " "))
	diff("level", o.Level, n.Level)
	if o.BLAKE2b != n.BLAKE2b || o.Size != n.Size {
		out = append(out, fmt.Sprintf("bytes %d bytes %s -> %d bytes %s", o.Size, short(o.BLAKE2b), n.Size, short(n.BLAKE2b)))
	}
	diff("op", o.Op, n.Op)
	diff("args", compact(o.Args), compact(n.Args))
	diff("profiles", strings.Join(o.Profiles, ","), strings.Join(n.Profiles, ","))
	diff("readings", readingsText(o.Readings), readingsText(n.Readings))
	return out
}

// quietEqual reports whether the rest of two entries (what changedFields
// does not compare) is equal too.
func quietEqual(o, n *vectorset.Vector) bool {
	return o.Comment == n.Comment && slices.Equal(o.Tags, n.Tags) && o.DerivedFrom == n.DerivedFrom && o.File == n.File
}

func readingsText(m map[string]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, k+"="+m[k])
	}
	return strings.Join(parts, ",")
}

func compact(b json.RawMessage) string {
	var buf bytes.Buffer
	if len(bytes.TrimSpace(b)) == 0 || json.Compact(&buf, b) != nil {
		return string(bytes.TrimSpace(b))
	}
	if buf.String() == "{}" {
		return "" // {} and absent args ask the same
	}
	return buf.String()
}

func quote(s string) string { return fmt.Sprintf("%q", s) }

// short cuts a long value for a changelog line.
func short(s string) string {
	if s == "" {
		return "(none)"
	}
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

// WriteDiff writes suite diffs as Markdown: per suite, the set hashes of
// both trees and the IDs added, removed, renamed and changed, at most max
// of each (0: all), the rest counted.
func WriteDiff(w io.Writer, oldName, newName string, diffs []SuiteDiff, max int) error {
	var b strings.Builder
	list := func(title string, items []string) {
		if len(items) == 0 {
			return
		}
		fmt.Fprintf(&b, "- %s (%d):\n", title, len(items))
		for i, it := range items {
			if max > 0 && i == max {
				fmt.Fprintf(&b, "  - ... and %d more (`go run ./cmd/vecgen -diff %s` in a checkout of %s lists them all)\n", len(items)-max, oldName, newName)
				break
			}
			fmt.Fprintf(&b, "  - %s\n", it)
		}
	}
	for _, d := range diffs {
		fmt.Fprintf(&b, "### %s\n\n", d.Suite)
		fmt.Fprintf(&b, "- set hash %s: `%s`\n- set hash %s: `%s`\n", oldName, orNone(d.OldHash), newName, orNone(d.NewHash))
		if d.Unchanged() {
			b.WriteString("- unchanged\n\n")
			continue
		}
		list("added", code(d.Added))
		list("removed", code(d.Removed))
		var rn []string
		for _, r := range d.Renamed {
			kept := " (the old ID kept as an alias)"
			if !r.Alias {
				kept = " (**ID policy: the old ID is not kept as an alias**)"
			}
			rn = append(rn, fmt.Sprintf("`%s` -> `%s`%s", r.From, r.To, kept))
		}
		list("renamed (same bytes and expectation)", rn)
		var ch []string
		for _, c := range d.Changed {
			line := fmt.Sprintf("`%s`: %s", c.ID, strings.Join(c.Fields, "; "))
			if c.Breaks {
				line += " (**ID policy: the ID names other bytes, another request or another expectation**)"
			} else if c.Widened {
				line += " (widened: every answer that passed still passes)"
			}
			ch = append(ch, line)
		}
		list("changed", ch)
		if d.Quiet > 0 {
			fmt.Fprintf(&b, "- %d with a new comment, tags or derivation only\n", d.Quiet)
		}
		list("manifest files changed", code(d.Files))
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func code(ids []string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = "`" + id + "`"
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "(no such suite)"
	}
	return s
}

// ChangelogFile is where the generated changelog of the vector sets lives,
// and ChangelogCommand the command that writes it.
const (
	ChangelogFile    = "vectors/CHANGELOG.md"
	ChangelogCommand = "go run ./cmd/vecgen -changelog"
)

// changelogMax is how many IDs of each kind an entry lists.
const changelogMax = 40

// Changelog writes the changelog of the named suites' vector sets from the
// history of the repository at root: one entry per commit on the first-
// parent line of HEAD that changed a suite set hash (a
// manifest/<suite>/suite-set-hash.txt), newest first, each the diff of
// that commit against its first parent (DiffTrees), with the tags that
// point at it.
func Changelog(w io.Writer, root string, suites []string) error {
	head := GitTree{Root: root, Rev: "HEAD"}
	args := []string{"log", "--first-parent", "--format=%H%x09%ad%x09%s", "--date=short", "HEAD", "--"}
	for _, s := range suites {
		args = append(args, path.Join("manifest", s, "suite-set-hash.txt"))
	}
	out, err := head.git(args...)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "<!-- Code generated by %s. DO NOT EDIT. -->\n\n# Changelog of the vector sets\n\n", ChangelogCommand)
	b.WriteString("Every commit that changed a suite set hash, newest first: the vector IDs it added, removed, renamed and changed, and the set hashes before and after (docs/VECTORS.md, \"IDs and releases\"). ")
	fmt.Fprintf(&b, "Generated from the repository's history by `%s`; `go run ./cmd/vecgen -diff REV` gives the same between any commit and the working tree.\n\n", ChangelogCommand)
	// The releases: every tag HEAD holds, newest first, with the set
	// hashes at it.
	tags, err := head.git("tag", "--merged", "HEAD", "--sort=-creatordate", "--format=%(refname:short)%09%(creatordate:short)")
	if err != nil {
		return err
	}
	if t := strings.TrimSpace(string(tags)); t != "" {
		b.WriteString("## Releases\n\n| tag | date |")
		for _, s := range suites {
			fmt.Fprintf(&b, " %s set hash |", s)
		}
		b.WriteString("\n| --- | --- |" + strings.Repeat(" --- |", len(suites)) + "\n")
		for _, line := range strings.Split(t, "\n") {
			name, date, _ := strings.Cut(line, "\t")
			fmt.Fprintf(&b, "| `%s` | %s |", name, date)
			for _, s := range suites {
				_, h, err := readSet(GitTree{Root: root, Rev: name}, s)
				if err != nil {
					return err
				}
				fmt.Fprintf(&b, " `%s` |", orNone(h))
			}
			b.WriteString("\n")
		}
		b.WriteString("\n")
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if line == "" {
			continue
		}
		f := strings.SplitN(line, "\t", 3)
		if len(f) < 3 {
			return fmt.Errorf("git log: unexpected line %q", line)
		}
		rev, date, subject := f[0], f[1], f[2]
		tags, err := head.git("tag", "--points-at", rev)
		if err != nil {
			return err
		}
		title := rev[:12]
		if t := strings.Fields(string(tags)); len(t) > 0 {
			title = strings.Join(t, ", ") + " (" + title + ")"
		}
		if len(subject) > 200 {
			subject = subject[:197] + "..."
		}
		fmt.Fprintf(&b, "## %s %s\n\n%s\n\n", date, title, subject)
		var old Tree = emptyTree{}
		if _, err := head.git("rev-parse", "--verify", "--quiet", rev+"^"); err == nil {
			old = GitTree{Root: root, Rev: rev + "^"}
		}
		diffs, err := DiffTrees(old, GitTree{Root: root, Rev: rev}, suites)
		if err != nil {
			return err
		}
		if err := WriteDiff(&b, rev[:12]+"^", rev[:12], diffs, changelogMax); err != nil {
			return err
		}
	}
	_, err = w.Write(b.Bytes())
	return err
}

// emptyTree is the tree before the first commit.
type emptyTree struct{}

func (emptyTree) ReadFile(p string) ([]byte, error) {
	return nil, fmt.Errorf("%s: %w", p, os.ErrNotExist)
}
func (emptyTree) List(string) ([]string, error) { return nil, nil }
