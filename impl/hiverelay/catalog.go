package hiverelay

import (
	"embed"
	"slices"
	"strings"

	"github.com/threespec/conformance/impl/cenc"
	"github.com/threespec/conformance/impl/nfc17"
	"github.com/threespec/conformance/impl/rules"
)

// The schema catalog, hiverelay-blind-client-composition-schema-catalog-v1.cenc
// (sections 1 and 4). The spec names the file but not its encoding (the
// "stable master schema meta-grammar" is not given, and the lossy copy of the
// format artifact cannot restore it), so the byte layout below is the
// project's, documented byte by byte in docs/hiverelay.md:
//
//	catalog   = compact-uint entryCount (6), entry x entryCount
//	entry     = category u8 (3) || localId u8 (1..6) || name || declaration ||
//	            compact-uint dependencyCount || dependency x dependencyCount
//	name, declaration, dependency = bounded byte string
//
// Entries are in raw-ASCII name order; dependencies are the names of the
// other schemas a declaration mentions, in raw-ASCII order.

// SchemaCatalogFile is the file name section 1 gives the catalog.
const SchemaCatalogFile = "hiverelay-blind-client-composition-schema-catalog-v1.cenc"

// CategoryClientExample is category 3 (CLIENT_EXAMPLE) of section 1.
const CategoryClientExample = 3

// MaxDeclarationLength bounds a catalog declaration (project-defined, HR-CAT-06).
const MaxDeclarationLength = 0xffff

// maxNameLength bounds a name field before it is compared with the six names.
const maxNameLength = 255

// entryMin is the smallest catalog entry: category, local id, an empty name,
// an empty declaration and a zero dependency count.
const entryMin = 5

// CatalogEntry is one entry of the schema catalog.
type CatalogEntry struct {
	Category     uint8    // 3
	LocalID      uint8    // 1..6
	Name         string   // one of Schemas
	Declaration  string   // canonical declaration text, "<Name> {\n...\n}"
	Dependencies []string // names of the other schemas it uses, raw-ASCII order
}

//go:embed data/declarations/*.decl
var declarationFiles embed.FS

// Declaration returns the canonical declaration text of a schema: the
// declaration of the lossy copy's readable tail with its dropped alignment
// tabs restored as single spaces (data/declarations/<name>.decl without its
// final LF). ok is false for a name outside the six.
func Declaration(schema string) (text string, ok bool) {
	b, err := declarationFiles.ReadFile("data/declarations/" + schema + ".decl")
	if err != nil {
		return "", false
	}
	return strings.TrimSuffix(string(b), "\n"), true
}

// dependencies returns the other schema names that decl mentions as whole
// words, in raw-ASCII order.
func dependencies(self, decl string) []string {
	var deps []string
	for _, name := range Schemas {
		if name != self && containsWord(decl, name) {
			deps = append(deps, name)
		}
	}
	return deps
}

func containsWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(w)
		if (start == 0 || !isIdent(s[start-1])) && (end == len(s) || !isIdent(s[end])) {
			return true
		}
		i = start + 1
	}
}

func isIdent(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z'
}

// SchemaCatalogEntries returns the six catalog entries generated from the
// declarations, in raw-ASCII name order.
func SchemaCatalogEntries() []CatalogEntry {
	entries := make([]CatalogEntry, len(Schemas))
	for i, name := range Schemas {
		decl, ok := Declaration(name)
		if !ok {
			panic("hiverelay: declaration of " + name + " is missing from data/declarations")
		}
		entries[i] = CatalogEntry{
			Category:     CategoryClientExample,
			LocalID:      uint8(i + 1),
			Name:         name,
			Declaration:  decl,
			Dependencies: dependencies(name, decl),
		}
	}
	return entries
}

var generatedCatalog = cached(func(c rules.Checks) ([]byte, error) { return rawCatalog(c, SchemaCatalogEntries()), nil })

// SchemaCatalog returns the bytes of the authority's schema catalog,
// generated from the six declarations (tests check that they decode). The
// caller must not modify them.
func SchemaCatalog() []byte { return schemaCatalog(rules.Checks{}) }

// schemaCatalog is SchemaCatalog generated under c.
func schemaCatalog(c rules.Checks) []byte {
	b, _ := generatedCatalog(c)
	return b
}

// EncodeSchemaCatalog writes entries in the catalog layout and refuses
// entries that DecodeSchemaCatalog would reject.
func EncodeSchemaCatalog(entries []CatalogEntry) ([]byte, error) {
	return encodeSchemaCatalog(rules.Checks{}, entries)
}

func encodeSchemaCatalog(c rules.Checks, entries []CatalogEntry) ([]byte, error) {
	return checked(c, rawCatalog(c, entries), decodeCatalog)
}

// RawSchemaCatalog returns the bytes the catalog encoder writes for
// entries without checking any rule (a wrong count, category, local id,
// name, declaration or dependency list is written as it is): fuzz
// generation (impl/hiverelay/hivefuzz) builds the catalogs that break a
// rule of sections 1 and 4 with it. EncodeSchemaCatalog checks.
func RawSchemaCatalog(entries []CatalogEntry) []byte { return rawCatalog(rules.Checks{}, entries) }

func rawCatalog(c rules.Checks, entries []CatalogEntry) []byte {
	e := cenc.NewEncoder(c, 0)
	e.Count(len(entries))
	for _, en := range entries {
		// HR-CAT-01: category, then local id (swapped under its fault
		// injection, as DecodeSchemaCatalog then reads them).
		if e.Enforced(RuleCatalogLayout) {
			e.U8(en.Category)
			e.U8(en.LocalID)
		} else {
			e.U8(en.LocalID)
			e.U8(en.Category)
		}
		e.BoundedBytes([]byte(en.Name))
		e.BoundedBytes([]byte(en.Declaration))
		e.Count(len(en.Dependencies))
		for _, dep := range en.Dependencies {
			e.BoundedBytes([]byte(dep))
		}
	}
	return e.Bytes()
}

// DecodeSchemaCatalog decodes a schema catalog canonically and checks that it
// holds exactly the six names and local IDs of section 1 in raw-ASCII order,
// category 3, well-formed declarations and closed, sorted dependencies.
func DecodeSchemaCatalog(b []byte) ([]CatalogEntry, error) {
	return decodeAll(rules.Checks{}, b, decodeCatalog)
}

// decodeCatalog decodes the catalog's entries (a complete catalog once
// decodeAll has checked that nothing trails them).
func decodeCatalog(d *cenc.Decoder, out *[]CatalogEntry) error {
	// Section 4, HR-CAT-02: exactly six entries.
	n, err := d.Count("entries", uint64(len(Schemas)), uint64(len(Schemas)), entryMin, RuleCatalogEntryCount)
	if err != nil {
		return err
	}
	entries := make([]CatalogEntry, 0, n)
	for i := 0; i < n && !d.Exhausted(); i++ {
		d.Enter("entries", i)
		var en CatalogEntry
		if err := decodeCatalogEntry(d, i, &en); err != nil {
			return err
		}
		entries = append(entries, en)
		d.Leave()
	}
	*out = entries
	return nil
}

func decodeCatalogEntry(d *cenc.Decoder, i int, en *CatalogEntry) error {
	// HR-CAT-01: category, then local id. Under its fault injection the
	// local id is read first.
	idFirst := !d.Enforced(RuleCatalogLayout)
	if idFirst {
		if err := decodeLocalID(d, i, en); err != nil {
			return err
		}
	}
	at := d.Offset()
	var err error
	if en.Category, err = d.U8("category"); err != nil {
		return err
	}
	if en.Category != CategoryClientExample && d.Rejects(RuleCatalogCategory) {
		// Section 1, HR-CAT-03: category 3 (CLIENT_EXAMPLE) only.
		return d.Fail(RuleCatalogCategory, at, "category", "category %d is not 3 (CLIENT_EXAMPLE)", en.Category)
	}
	if !idFirst {
		if err := decodeLocalID(d, i, en); err != nil {
			return err
		}
	}
	want := ""
	if i < len(Schemas) {
		want = Schemas[i]
	}
	at = d.Offset()
	name, err := d.BoundedBytes("name", 0, maxNameLength, RuleCatalogNames)
	if err != nil {
		return err
	}
	en.Name = string(name)
	if en.Name != want && d.Rejects(RuleCatalogNames) {
		// Section 1, HR-CAT-05: the six names, in raw-ASCII order.
		return d.Fail(RuleCatalogNames, at, "name", "name %q, want %q (entry %d of the six names in raw-ASCII order)", name, want, i+1)
	}
	at = d.Offset()
	decl, err := d.BoundedBytes("declaration", 1, MaxDeclarationLength, RuleCatalogDeclLength)
	if err != nil {
		return err
	}
	en.Declaration = string(decl)
	if err := checkDeclaration(d, at+cenc.CompactUintLen(uint64(len(decl))), en.Name, decl); err != nil {
		return err
	}
	n, err := d.Count("dependencies", 0, uint64(len(Schemas)-1), 1, RuleCatalogDepsClosed)
	if err != nil {
		return err
	}
	for j := 0; j < n && !d.Exhausted(); j++ {
		d.Enter("dependencies", j)
		at := d.Offset()
		dep, err := d.BoundedBytes("", 0, maxNameLength, RuleCatalogDepsClosed)
		if err != nil {
			return err
		}
		if (!isSchema(string(dep)) || string(dep) == en.Name) && d.Rejects(RuleCatalogDepsClosed) {
			// Section 1, HR-CAT-11: only the other names of this authority.
			return d.Fail(RuleCatalogDepsClosed, at, "", "%q is not one of the other five schema names of this authority", dep)
		}
		if j > 0 {
			// HR-CAT-09/10: raw-ASCII order, no duplicates.
			if err := d.Ascending([]byte(en.Dependencies[j-1]), dep, at, "", RuleCatalogDepsOrder, RuleCatalogDepsDuplicate); err != nil {
				return err
			}
		}
		en.Dependencies = append(en.Dependencies, string(dep))
		d.Leave()
	}
	// Reading HR-READ-04: under derived-from-declaration the dependencies
	// are exactly the other names the declaration mentions as whole words.
	if d.Checks().Takes(ReadCatalogDeps, AltDepsFromDeclaration) && d.Rejects(RuleCatalogDepsClosed) {
		if want := dependencies(en.Name, en.Declaration); !slices.Equal(want, en.Dependencies) {
			return d.Fail(RuleCatalogDepsClosed, at, "dependencies", "%q, but the declaration mentions %q (reading %s %s)",
				en.Dependencies, want, ReadCatalogDeps, AltDepsFromDeclaration)
		}
	}
	return nil
}

// decodeLocalID reads entry i's local id, which is i+1 (section 1,
// HR-CAT-04: rows 1 through 6 respectively).
func decodeLocalID(d *cenc.Decoder, i int, en *CatalogEntry) error {
	at := d.Offset()
	var err error
	if en.LocalID, err = d.U8("localId"); err != nil {
		return err
	}
	if int(en.LocalID) != i+1 && d.Rejects(RuleCatalogLocalID) {
		return d.Fail(RuleCatalogLocalID, at, "localId", "local id %d, want %d", en.LocalID, i+1)
	}
	return nil
}

// checkDeclaration checks a declaration's text, which starts at byte at
// (HR-CAT-07, HR-CAT-08; project-defined).
func checkDeclaration(d *cenc.Decoder, at int, name string, decl []byte) error {
	if d.Rejects(RuleCatalogDeclText) {
		if e := nfc17.CheckUTF8(decl); e != nil {
			return d.Fail(RuleCatalogDeclText, at+e.Offset, "declaration", "%s", e.Reason)
		}
		for i, c := range decl {
			if c < 0x20 && c != '\n' || c == 0x7f {
				return d.Fail(RuleCatalogDeclText, at+i, "declaration", "control byte 0x%02x", c)
			}
		}
	}
	s := string(decl)
	if (!strings.HasPrefix(s, name+" {\n") || !strings.HasSuffix(s, "\n}")) && d.Rejects(RuleCatalogDeclHead) {
		return d.Fail(RuleCatalogDeclHead, at, "declaration", "does not begin with %q and end with %q", name+" {\\n", "\\n}")
	}
	return nil
}

func isSchema(name string) bool {
	for _, s := range Schemas {
		if s == name {
			return true
		}
	}
	return false
}
