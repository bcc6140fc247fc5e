package convention

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

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
func Directory(res Resolver, root *lace.Record, b Bounds) ([]Entry, error) {
	w := newWalker(res, b)
	var out []Entry
	if err := w.directory(root, 0, "", &out); err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) })
	return out, nil
}

// directory lists the logical directory whose first record is r: r's own
// entries and those reached through its pages, which add no path component
// (LACE-DIR-20). Names are unique across all of it (LACE-DIR-21).
func (w *walker) directory(r *lace.Record, depth int, prefix string, out *[]Entry) error {
	return w.directoryRecord(r, depth, prefix, map[string]bool{}, out)
}

// directoryRecord validates one directory root or page and follows its links.
func (w *walker) directoryRecord(r *lace.Record, depth int, prefix string, names map[string]bool, out *[]Entry) error {
	where := "directory " + r.Hash.String()
	if prefix != "" {
		where += " (at " + strings.TrimSuffix(prefix, "/") + ")"
	}
	// An H3 Plex (LACE-DIR-01) with empty data (LACE-DIR-02), exactly one
	// Kind: directory (LACE-DIR-03) and only link fields (LACE-DIR-04).
	if err := dirShape.check(r, where); err != nil {
		return err
	}
	var prevFile, prevChild *string
	pages := 0
	for i, f := range r.Fields {
		at := fmt.Sprintf("%s, field %d (%s)", where, i, f.Name)
		switch f.Name {
		case fieldFileLink, fieldChildLink:
			dir := f.Name == fieldChildLink
			name, target, ok, err := w.entryLink(at, f)
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
			// Per-record order by parsed names, not complete values
			// (LACE-DIR-16, -17, -18).
			prev, order := &prevFile, lace.RuleDirFileOrder
			if dir {
				prev, order = &prevChild, lace.RuleDirChildOrder
			}
			if *prev != nil && **prev > name {
				if err := fail(order, "%s: name %q sorts before the preceding %q", at, name, **prev); err != nil {
					return err
				}
			}
			*prev = &name
			// Unique across the logical directory (LACE-DIR-21).
			if names[name] {
				if err := fail(lace.RuleDirUnique, "%s: name %q already names an entry of this directory", at, name); err != nil {
					return err
				}
			}
			names[name] = true
			if err := w.entry(at, name, target, dir, depth, prefix, out); err != nil {
				return err
			}
		case fieldPageLink:
			if err := w.page(at, f, pages, depth, prefix, names, out); err != nil {
				return err
			}
			pages++
		}
	}
	return nil
}

// entryLink parses a File+Link or Child+Link value and checks its name
// component and target family, format and text.
func (w *walker) entryLink(at string, f lace.Field) (name, target string, ok bool, err error) {
	name, target, perr := lace.ParseLink(f.Value)
	if perr != nil {
		// An empty name is the component rule's (LACE-DIR-09); any other
		// malformed value breaks LACE-LINK-15.
		if rules.RuleOf(perr) == lace.RuleLinkData {
			if err := fail(lace.RuleDirNameEmpty, "%s: empty name in %q", at, f.Value); err != nil {
				return "", "", false, err
			}
		} else if err := fail(lace.RuleConvRawFields, "%s: malformed link value %q: %v", at, f.Value, perr); err != nil {
			return "", "", false, err
		}
		return "", "", false, nil
	}
	if err := checkName(at, name); err != nil {
		return "", "", false, err
	}
	if f.Name == fieldFileLink {
		err = h3Target(at, target, "BP", lace.RuleDirFamily, lace.RuleDirFormat, lace.RuleDirFileTarget)
	} else {
		err = h3Target(at, target, "P", lace.RuleDirFamily, lace.RuleDirFormat, lace.RuleDirChildTarget)
	}
	return name, target, err == nil, err
}

// checkName checks a name component: UTF-8 NFC (LACE-DIR-10), not . or ..
// (LACE-DIR-11), no / (LACE-DIR-12), no C0 or DEL (LACE-DIR-13). Accepted
// names keep their exact bytes (LACE-DIR-14).
func checkName(at, name string) error {
	if e := nfc17.CheckUTF8([]byte(name)); e != nil || !nfc17.IsNFCString(name) {
		if err := fail(lace.RuleDirNameNFC, "%s: name %q is not UTF-8 NFC", at, name); err != nil {
			return err
		}
	}
	if name == "." || name == ".." {
		if err := fail(lace.RuleDirNameDots, "%s: name %q is not allowed", at, name); err != nil {
			return err
		}
	}
	if strings.Contains(name, "/") {
		if err := fail(lace.RuleDirNameSlash, "%s: name %q contains '/'", at, name); err != nil {
			return err
		}
	}
	if hasControl(name) {
		if err := fail(lace.RuleDirNameControl, "%s: name %q contains a control byte", at, name); err != nil {
			return err
		}
	}
	return nil
}

// entry follows a file or child link: every referenced file and child exists
// and validates (LACE-DIR-23); a child starts a new logical directory and is
// expanded at each placement (LACE-DIR-20, LACE-DIR-27).
func (w *walker) entry(at, name, target string, dir bool, depth int, prefix string, out *[]Entry) error {
	r, err := w.enter(target, depth+1, lace.RuleDirExists, at)
	if err != nil {
		return err
	}
	defer w.leave()
	path := prefix + name
	*out = append(*out, Entry{Path: path, Target: target, Dir: dir})
	if dir {
		return w.directory(r, depth+1, path+"/", out)
	}
	_, err = w.fileLength(r, depth+1)
	return err
}

// page follows a Page+Link: its ordinal is canonical decimal equal to its
// occurrence index (LACE-DIR-19), its target a directory Plex (LACE-DIR-07,
// -24, -25) whose entries join this logical directory.
func (w *walker) page(at string, f lace.Field, index int, depth int, prefix string, names map[string]bool, out *[]Entry) error {
	ordinal, target, ok, err := rawLink(at, f)
	if err != nil || !ok {
		return err
	}
	if v, canonical, overflow := parseU64(ordinal); !canonical || overflow || v != uint64(index) {
		if err := fail(lace.RuleDirPageOrdinal, "%s: ordinal %q, want %s", at, ordinal, strconv.Itoa(index)); err != nil {
			return err
		}
	}
	if err := h3Target(at, target, "P", lace.RuleDirFamily, lace.RuleDirFormat, lace.RuleDirPageTarget); err != nil {
		return err
	}
	p, err := w.enter(target, depth+1, lace.RuleDirExists, at)
	if err != nil {
		return err
	}
	defer w.leave()
	return w.directoryRecord(p, depth+1, prefix, names, out)
}
