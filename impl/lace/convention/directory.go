package convention

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/zeebo/blake3"

	"github.com/threespec/conformance/impl/lace"
	"github.com/threespec/conformance/impl/nfc17"
	"github.com/threespec/conformance/impl/rules"
)

// Directories (Lace-010, "Directory links name files, children and
// continuation pages").

const (
	fieldFileLink  = "File+Link"
	fieldChildLink = "Child+Link"
	fieldPageLink  = "Page+Link"
	kindDirectory  = "directory"
)

// maxDirLinks is the most links a directory record holds: its Kind field
// leaves 511 of the 512 fields of a Plex (LACE-DIR-26). A layout is
// canonical only to a consumer under LACE-DIR-28's fault, which wants pages
// only after a record of maxDirLinks links.
const maxDirLinks = lace.MaxFields - 1

// Entry is one entry of a logical directory listing.
type Entry struct {
	Path   string // name components from the root, joined with '/'
	Target string // the entry's target hash text
	Dir    bool   // a Child+Link (directory) entry rather than a File+Link
}

// Directory validates the directory rooted at root, its pages, children and
// files (chunk trees included), and returns the complete logical listing:
// every file and child directory, at every placement, sorted by path bytes.
// On any violation it returns no entries at all.
//
// TRANSITIONAL (issue 16): it takes the process-global switches
// (rules.Current); callers that carry their own use DirectoryWith.
func Directory(res Resolver, root *lace.Record, b Bounds) ([]Entry, error) {
	return DirectoryWith(rules.Current(), res, root, b)
}

// DirectoryWith is Directory under the checks c: the rules the consumer
// enforces and the mutants it carries.
func DirectoryWith(c rules.Checks, res Resolver, root *lace.Record, b Bounds) ([]Entry, error) {
	w := newWalker(c, res, b)
	if !c.Enforced(lace.RuleDirReuse) {
		w.expanded = map[string]bool{} // fault: each child subtree expanded once
	}
	var out []Entry
	if err := w.directory(root, 0, "", &out); err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) })
	return out, nil
}

// CheckRecord validates r alone by the convention its Kind field names (a
// chunk node or a directory), without the records it links to: its shape,
// its link values, ranges or names and ordinals, their order and the form
// of its targets. A record of no convention passes. (A convention-invalid
// record is still a valid record, LACE-LINK-14: this is a consumer's check,
// never a reader's.)
//
// TRANSITIONAL (issue 16): it takes the process-global switches
// (rules.Current); callers that carry their own use CheckRecordWith.
func CheckRecord(r *lace.Record) error { return CheckRecordWith(rules.Current(), r) }

// CheckRecordWith is CheckRecord under the checks c.
func CheckRecordWith(c rules.Checks, r *lace.Record) error {
	w := newWalker(c, Store{}, Bounds{})
	w.local = true
	for _, f := range r.Fields {
		if f.Name != fieldKind {
			continue
		}
		switch f.Value {
		case kindChunks:
			_, err := w.chunkNode(r, 0)
			return err
		case kindDirectory:
			var out []Entry
			return w.directory(r, 0, "", &out)
		}
		break
	}
	return nil
}

// logical is what one logical directory shares across its pages.
type logical struct {
	names map[string]bool // the names so far: unique across it all (LACE-DIR-21)
	// The last file and child names, shared by the pages only under the
	// fault of LACE-DIR-22 (order required across pages).
	order lastNames
}

// lastNames are the last File+Link and Child+Link names seen.
type lastNames struct{ file, child *string }

// directory lists the logical directory whose first record is r: r's own
// entries and those reached through its pages, which add no path component
// (LACE-DIR-20). Names are unique across all of it (LACE-DIR-21).
func (w *walker) directory(r *lace.Record, depth int, prefix string, out *[]Entry) error {
	return w.directoryRecord(r, depth, prefix, &logical{names: map[string]bool{}}, false, out)
}

// directoryRecord validates one directory root or page (page says which)
// and follows its links. Pages may reference further pages (LACE-DIR-26).
func (w *walker) directoryRecord(r *lace.Record, depth int, prefix string, lg *logical, page bool, out *[]Entry) error {
	where := "directory " + r.Hash.String()
	if prefix != "" {
		where += " (at " + strings.TrimSuffix(prefix, "/") + ")"
	}
	// An H3 Plex (LACE-DIR-01) with empty data (LACE-DIR-02), exactly one
	// Kind: directory (LACE-DIR-03) and only link fields (LACE-DIR-04).
	if err := dirShape.check(w.c, r, where); err != nil {
		return err
	}
	if err := layoutFaults(w.c, r, where); err != nil {
		return err
	}
	names := lg.names
	if w.c.Mutated(lace.MutDirUniquePerRecord) {
		names = map[string]bool{} // mutant: names unique per record only
	}
	// Per-record order (LACE-DIR-16, -17); no order between pages (LACE-DIR-22).
	last := &lastNames{}
	if !w.c.Enforced(lace.RuleDirPagesUnordered) {
		last = &lg.order // fault: order required across pages
	}
	byValue := !w.c.Enforced(lace.RuleDirParsedNames)
	pages := 0
	for i, f := range r.Fields {
		at := fmt.Sprintf("%s, field %d (%s)", where, i, f.Name)
		switch f.Name {
		case fieldFileLink, fieldChildLink:
			dir := f.Name == fieldChildLink
			name, target, key, ok, err := w.entryLink(at, f)
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
			// Per-record order by parsed names, not complete values
			// (LACE-DIR-16, -17, -18).
			prev, order := &last.file, lace.RuleDirFileOrder
			if dir {
				prev, order = &last.child, lace.RuleDirChildOrder
			}
			cur := name
			if byValue {
				cur = f.Value // fault: complete link values compared
			}
			if *prev != nil && **prev > cur {
				if byValue {
					return lace.FaultError("%s: value %q sorts before the preceding %q", at, cur, **prev)
				}
				if w.c.Enforced(order) {
					return fail(order, "%s: name %q sorts before the preceding %q", at, name, **prev)
				}
			}
			*prev = &cur
			// Unique across the logical directory (LACE-DIR-21).
			if names[name] && w.c.Enforced(lace.RuleDirUnique) {
				return fail(lace.RuleDirUnique, "%s: name %q already names an entry of this directory", at, name)
			}
			names[name] = true
			if err := w.entry(at, name, target, key, dir, depth, prefix, out); err != nil {
				return err
			}
		case fieldPageLink:
			if page && !w.c.Enforced(lace.RuleDirFanout) {
				continue // fault: pages taken to be one level deep, their pages ignored
			}
			if err := w.page(at, f, pages, depth, prefix, lg, out); err != nil {
				return err
			}
			pages++
		}
	}
	return nil
}

// layoutFaults are the rejections of valid layouts that fault injection
// can make a consumer commit: an empty directory refused (LACE-DIR-08), and
// a page layout required to be canonical, pages only after a full record
// (LACE-DIR-28).
func layoutFaults(c rules.Checks, r *lace.Record, where string) error {
	links, pages := 0, 0
	for _, f := range r.Fields {
		switch f.Name {
		case fieldFileLink, fieldChildLink:
			links++
		case fieldPageLink:
			links++
			pages++
		}
	}
	if links == 0 && !c.Enforced(lace.RuleDirEmpty) {
		return lace.FaultError("%s has no entries", where)
	}
	if pages > 0 && links < maxDirLinks && !c.Enforced(lace.RuleDirHashSignificant) {
		return lace.FaultError("%s has pages but only %d links: not the canonical layout", where, links)
	}
	return nil
}

// entryLink parses a File+Link or Child+Link value and checks its name
// component and target family, format and text; key is the hash text to
// resolve the target by (h3Target).
func (w *walker) entryLink(at string, f lace.Field) (name, target, key string, ok bool, err error) {
	name, target, perr := lace.ParseLinkWith(w.c, f.Value)
	if perr != nil {
		// An empty name is the component rule's (LACE-DIR-09); any other
		// malformed value breaks LACE-LINK-15.
		if rules.RuleOf(perr) == lace.RuleLinkData {
			if w.c.Enforced(lace.RuleDirNameEmpty) {
				return "", "", "", false, fail(lace.RuleDirNameEmpty, "%s: empty name in %q", at, f.Value)
			}
		} else if w.c.Enforced(lace.RuleConvRawFields) {
			return "", "", "", false, fail(lace.RuleConvRawFields, "%s: malformed link value %q: %v", at, f.Value, perr)
		}
		return "", "", "", false, nil
	}
	if !w.c.Enforced(lace.RuleDirNameExact) {
		name = strings.TrimSpace(name) // fault: names trimmed
	}
	if err := checkName(w.c, at, name); err != nil {
		return "", "", "", false, err
	}
	if len(name) > maxChildName && !w.c.Enforced(lace.RuleDirNameBudget) {
		// Fault: the directory-name limit applied to filenames too.
		return "", "", "", false, lace.FaultError("%s: name %q is over %d bytes", at, name, maxChildName)
	}
	if f.Name == fieldFileLink {
		key, err = h3Target(w.c, at, target, "BP", lace.RuleDirFamily, lace.RuleDirFormat, lace.RuleDirFileTarget)
	} else {
		key, err = h3Target(w.c, at, target, "P", lace.RuleDirFamily, lace.RuleDirFormat, lace.RuleDirChildTarget)
	}
	return name, target, key, err == nil, err
}

// maxChildName is the longest directory name a Child+Link line holds:
// 128 - len("Child+Link: ") - 1 - 48 (LACE-DIR-15).
const maxChildName = lace.MaxLine - len(fieldChildLink+": ") - 1 - lace.HashTextLen

// checkName checks a name component: UTF-8 NFC (LACE-DIR-10), not . or ..
// (LACE-DIR-11), no / (LACE-DIR-12), no C0 or DEL (LACE-DIR-13). Accepted
// names keep their exact bytes (LACE-DIR-14).
func checkName(c rules.Checks, at, name string) error {
	if e := nfc17.CheckUTF8([]byte(name)); (e != nil || !nfc17.IsNFCString(name)) && c.Enforced(lace.RuleDirNameNFC) {
		return fail(lace.RuleDirNameNFC, "%s: name %q is not UTF-8 NFC", at, name)
	}
	if (name == "." || name == "..") && c.Enforced(lace.RuleDirNameDots) {
		return fail(lace.RuleDirNameDots, "%s: name %q is not allowed", at, name)
	}
	if strings.Contains(name, "/") && c.Enforced(lace.RuleDirNameSlash) {
		return fail(lace.RuleDirNameSlash, "%s: name %q contains '/'", at, name)
	}
	if hasControl(name) && c.Enforced(lace.RuleDirNameControl) {
		return fail(lace.RuleDirNameControl, "%s: name %q contains a control byte", at, name)
	}
	return nil
}

// entry follows a file or child link: every referenced file and child exists
// and validates (LACE-DIR-23); a child starts a new logical directory and is
// expanded at each placement (LACE-DIR-20, LACE-DIR-27). The entry lists
// target as written; key is what it resolves by.
func (w *walker) entry(at, name, target, key string, dir bool, depth int, prefix string, out *[]Entry) error {
	r, err := w.enter(key, depth+1, lace.RuleDirExists, at)
	if err != nil || r == nil {
		return err // a missing entry is skipped only by CheckRecord, or under a fault
	}
	defer w.leave()
	r = asPlex(w.c, r, lace.RuleDirFamily)
	// The listing's bytes are counted before the entry is made.
	w.listed += uint64(len(prefix) + len(name) + len(target))
	if w.listed > w.b.MaxListingBytes {
		return &ListingTooLarge{Max: w.b.MaxListingBytes}
	}
	path := prefix + name
	*out = append(*out, Entry{Path: path, Target: target, Dir: dir})
	if dir {
		if w.expanded != nil {
			if w.expanded[key] {
				return nil
			}
			w.expanded[key] = true
		}
		return w.directory(r, depth+1, path+"/", out)
	}
	n, err := w.fileLength(r, depth+1)
	if err == nil && r.Form == lace.FormPlex && !w.c.Enforced(lace.RuleChunkHashSignificant) {
		// Fault: a file identified by its bytes: listed as the Blob of them.
		(*out)[len(*out)-1].Target = w.contentBlob(r, n)
	}
	return err
}

// contentBlob is the hash text of the Blob whose data is the assembled file
// r of n bytes (for the fault of LACE-CHUNK-24).
func (w *walker) contentBlob(r *lace.Record, n uint64) string {
	h := blake3.New()
	h.Write([]byte("Data-Length: " + strconv.FormatUint(n, 10) + "\n\n"))
	w.emit(r, func(p []byte) { h.Write(p) })
	d := lace.Hash{Form: lace.FormBlob}
	h.Sum(d.Digest[:0])
	return d.String()
}

// page follows a Page+Link: its ordinal is canonical decimal equal to its
// occurrence index (LACE-DIR-19), its target a directory Plex (LACE-DIR-07,
// -24, -25) whose entries join this logical directory.
func (w *walker) page(at string, f lace.Field, index int, depth int, prefix string, lg *logical, out *[]Entry) error {
	ordinal, target, ok, err := rawLink(w.c, at, f)
	if err != nil || !ok {
		return err
	}
	want := uint64(index)
	if w.c.Mutated(lace.MutPageOrdinalFrom1) {
		want++ // mutant: ordinals counted from 1
	}
	if v, canonical, overflow := parseU64(ordinal); (!canonical || overflow || v != want) && w.c.Enforced(lace.RuleDirPageOrdinal) {
		return fail(lace.RuleDirPageOrdinal, "%s: ordinal %q, want %s", at, ordinal, strconv.FormatUint(want, 10))
	}
	key, err := h3Target(w.c, at, target, "P", lace.RuleDirFamily, lace.RuleDirFormat, lace.RuleDirPageTarget)
	if err != nil {
		return err
	}
	p, err := w.enter(key, depth+1, lace.RuleDirExists, at)
	if err != nil || p == nil {
		return err
	}
	defer w.leave()
	if !w.c.Enforced(lace.RuleDirUnion) {
		prefix += ordinal + "/" // fault: a page taken for a path component
	}
	return w.directoryRecord(asPlex(w.c, p, lace.RuleDirFamily), depth+1, prefix, lg, true, out)
}
