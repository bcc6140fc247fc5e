package hivevec

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"

	"github.com/threespec/conformance/impl/cenc"
	hr "github.com/threespec/conformance/impl/hiverelay"
	"github.com/threespec/conformance/impl/rules"
)

// hiverelay.format vectors (section 4): the reference artifact, whose
// expected format_hash is clientCompositionFormatHash computed here from the
// formula, and a negative for every rule the artifact and its embedded
// catalog answer to.

// catalogFile is the registry vector's suite-tree path.
const catalogFile = "registry/client-composition-schema-catalog-v1.cenc"

// catEntry is one schema catalog entry in the project's layout
// (docs/hiverelay.md, "The schema catalog").
type catEntry struct {
	category, localID byte
	name, decl        []byte
	deps              [][]byte
}

// catalogEntries builds the six entries as docs/hiverelay.md describes
// them: category 3, local ids 1..6 in raw-ASCII name order, the
// declarations kept as data by the reference (impl/hiverelay/data), and as
// dependencies the other schema names each declaration mentions as whole
// words, in raw-ASCII order. A test checks that they write the registry
// vector byte for byte.
func catalogEntries() []catEntry {
	entries := make([]catEntry, len(hr.Schemas))
	for i, name := range hr.Schemas {
		decl, ok := hr.Declaration(name)
		if !ok {
			panic("hivevec: no declaration of " + name)
		}
		e := catEntry{category: 3, localID: byte(i + 1), name: []byte(name), decl: []byte(decl)}
		for _, other := range hr.Schemas {
			if other != name && regexp.MustCompile(`\b`+other+`\b`).MatchString(decl) {
				e.deps = append(e.deps, []byte(other))
			}
		}
		entries[i] = e
	}
	return entries
}

// writeCatalog writes entries in the catalog layout, exactly as given.
func writeCatalog(entries []catEntry) []byte {
	out := compact(uint64(len(entries)))
	str := func(s []byte) { out = append(append(out, compact(uint64(len(s)))...), s...) }
	for _, e := range entries {
		out = append(out, e.category, e.localID)
		str(e.name)
		str(e.decl)
		out = append(out, compact(uint64(len(e.deps)))...)
		for _, d := range e.deps {
			str(d)
		}
	}
	return out
}

func cloneEntries(es []catEntry) []catEntry {
	out := make([]catEntry, len(es))
	for i, e := range es {
		out[i] = e
		out[i].name = bytes.Clone(e.name)
		out[i].decl = bytes.Clone(e.decl)
		out[i].deps = append([][]byte(nil), e.deps...)
	}
	return out
}

// header is the 30-byte artifact header of section 4.
type header struct {
	magic                   string
	authority, major, minor uint16
	specLen, catLen         uint64
}

func (h header) bytes() []byte {
	b := []byte(h.magic)
	b = binary.BigEndian.AppendUint16(b, h.authority)
	b = binary.BigEndian.AppendUint16(b, h.major)
	b = binary.BigEndian.AppendUint16(b, h.minor)
	b = binary.BigEndian.AppendUint64(b, h.specLen)
	return binary.BigEndian.AppendUint64(b, h.catLen)
}

func headerFor(spec, cat []byte) header {
	return header{"HRBCCF01", 1, 1, 0, uint64(len(spec)), uint64(len(cat))}
}

// artifact writes the format artifact of section 4 around spec and catalog.
func artifact(spec, cat []byte) []byte {
	return append(append(headerFor(spec, cat).bytes(), spec...), cat...)
}

// formatHash is clientCompositionFormatHash of an artifact (section 4).
func formatHash(a []byte) string {
	h := domainHash(formatHashDomain, a)
	return hex.EncodeToString(h[:])
}

// The artifact's layout: header fields, then the two sections.
var headerFields = []struct {
	name string
	off  int
}{{"magic", 0}, {"authorityVersion", 8}, {"formatMajor", 10}, {"formatMinor", 12}, {"specLength", 14}, {"schemaCatalogLength", 22}, {"specBytes", 30}}

const formatArtifactName = "format-artifact-v1"

func (g *gen) formats() error {
	spec := hr.Spec()
	cat := g.files[catalogFile]
	entries := catalogEntries()
	ref := artifact(spec, cat)
	fpos := func(name string, in input, rs []rules.ID, tags []string, comment string) {
		if !g.add("positive", name, formatOp, in, map[string]any{"format_hash": formatHash(in.b)}, meta{rules: rs, tags: tags, comment: comment}) {
			panic("hivevec: positive " + name + " duplicates another vector")
		}
	}
	fneg := func(name string, b []byte, rule rules.ID, tags []string, comment string) {
		g.reject("format-"+name, formatOp, file(b), rule, tags, comment)
	}
	fpos(formatArtifactName, file(ref), ids(hr.RuleFmtLayout, hr.RuleFmtSpecExact, hr.RuleFmtHash, hr.RuleFmtCatalogDecode), []string{tagKnown},
		"the authority's format artifact: the spec's exact 7985 bytes and the 1469-byte schema catalog; format_hash is the published clientCompositionFormatHash")
	fpos("format-spec-single-lf", file(artifact([]byte("\n"), cat)), ids(hr.RuleFmtSpecFinalLF, hr.RuleFmtSpecEmpty), []string{tagDecision, tagBoundary},
		"an artifact whose spec text is one LF: the verifier accepts any spec text meeting section 4's rules; only the format hash says whose it is")
	mib := hr.MaxSectionLength
	for _, n := range []int{mib, mib + 1} {
		h := header{"HRBCCF01", 1, 1, 0, uint64(n), uint64(len(cat))}
		in := g.recipe(hexPart(h.bytes()), repeatPart('a', n-1), hexPart([]byte("\n")), filePart(catalogFile))
		if n == mib {
			fpos("format-spec-1048576-bytes", in, ids(hr.RuleFmtSpecMax), []string{tagBoundary},
				"an artifact whose spec text is 1048575 ASCII 'a' and a final LF: exactly 1 MiB, the largest allowed")
		} else {
			g.reject("format-spec-1048577-bytes", formatOp, in, hr.RuleFmtSpecMax, []string{tagBoundary},
				"a complete artifact whose spec text is 1048576 ASCII 'a' and a final LF: one byte over 1 MiB")
		}
	}

	// The header.
	withHeader := func(h header) []byte { return append(h.bytes(), ref[30:]...) }
	hdr := headerFor(spec, cat)
	for _, c := range []struct {
		name  string
		magic string
	}{{"hrbccf02", "HRBCCF02"}, {"lower-case", "hrbccf01"}, {"zero", "\x00\x00\x00\x00\x00\x00\x00\x00"}} {
		h := hdr
		h.magic = c.magic
		fneg("magic-"+c.name, withHeader(h), hr.RuleFmtMagic, nil, fmt.Sprintf("the reference artifact with magic %q", c.magic))
	}
	for _, c := range []struct {
		name  string
		field func(h *header) *uint16
		rule  rules.ID
		vals  []uint16
	}{
		{"authority-version", func(h *header) *uint16 { return &h.authority }, hr.RuleFmtAuthority, []uint16{0, 2}},
		{"format-major", func(h *header) *uint16 { return &h.major }, hr.RuleFmtMajor, []uint16{0, 2}},
		{"format-minor", func(h *header) *uint16 { return &h.minor }, hr.RuleFmtMinor, []uint16{1, 0xffff}},
	} {
		for _, v := range c.vals {
			h := hdr
			*c.field(&h) = v
			fneg(fmt.Sprintf("%s-%d", c.name, v), withHeader(h), c.rule, []string{tagBoundary}, fmt.Sprintf("the reference artifact with %s %d", c.name, v))
		}
	}
	lengths := []struct {
		name    string
		spec    bool
		v       uint64
		rule    rules.ID
		comment string
	}{
		{"spec-length-0", true, 0, hr.RuleFmtSpecEmpty, "specLength 0 in front of the reference spec and catalog"},
		{"spec-length-18446744073709551615", true, u64Max, hr.RuleFmtSpecMax, "specLength 2^64-1: over 1 MiB, rejected before the bytes it needs"},
		{"spec-length-1048576-beyond-input", true, uint64(mib), cenc.RuleTruncated, "specLength 1048576 (allowed) but only the reference's 9454 bytes follow"},
		{"catalog-length-0", false, 0, hr.RuleFmtCatalogEmpty, "schemaCatalogLength 0 in front of the reference spec and catalog"},
		{"catalog-length-1048577", false, uint64(mib + 1), hr.RuleFmtCatalogMax, "schemaCatalogLength 1048577: over 1 MiB, rejected before the bytes it needs"},
		{"catalog-length-18446744073709551615", false, u64Max, hr.RuleFmtCatalogMax, "schemaCatalogLength 2^64-1: over 1 MiB"},
		{"catalog-length-one-beyond-input", false, uint64(len(cat) + 1), cenc.RuleTruncated, "schemaCatalogLength 1470, one more than the catalog bytes present"},
	}
	for _, c := range lengths {
		h := hdr
		if c.spec {
			h.specLen = c.v
		} else {
			h.catLen = c.v
		}
		fneg(c.name, withHeader(h), c.rule, []string{tagBoundary}, "the reference artifact with "+c.comment)
	}

	// The spec text.
	firstLF := bytes.IndexByte(spec, '\n')
	withSpec := func(s []byte) []byte { return artifact(s, cat) }
	insert := func(at int, b string) []byte {
		return append(append(append([]byte(nil), spec[:at]...), b...), spec[at:]...)
	}
	replace := func(at int, b byte) []byte { s := bytes.Clone(spec); s[at] = b; return s }
	body := firstLF + 1 // the start of line 2
	for _, c := range []struct {
		name string
		spec []byte
		rule rules.ID
		what string
	}{
		{"spec-cr-for-first-lf", replace(firstLF, '\r'), hr.RuleFmtSpecCR, "its first LF replaced by CR"},
		{"spec-crlf-at-end", insert(len(spec)-1, "\r"), hr.RuleFmtSpecCR, "a CR before its final LF"},
		{"spec-bom-at-start", insert(0, "\ufeff"), hr.RuleFmtSpecBOM, "a byte order mark (EF BB BF) in front"},
		{"spec-bom-at-line-2", insert(body, "\ufeff"), hr.RuleFmtSpecBOM, "U+FEFF at the start of line 2"},
		{"spec-nul-for-first-space", replace(bytes.IndexByte(spec, ' '), 0), hr.RuleFmtSpecNUL, "its first space replaced by NUL"},
		{"spec-utf8-lone-continuation", insert(body, "\x80"), hr.RuleFmtSpecUTF8, "a lone continuation byte 0x80 at the start of line 2"},
		{"spec-utf8-overlong", insert(body, "\xc0\xaf"), hr.RuleFmtSpecUTF8, "the overlong C0 AF at the start of line 2"},
		{"spec-utf8-surrogate", insert(body, "\xed\xa0\x80"), hr.RuleFmtSpecUTF8, "the surrogate U+D800 (ED A0 80) at the start of line 2"},
		{"spec-utf8-above-10ffff", insert(body, "\xf4\x90\x80\x80"), hr.RuleFmtSpecUTF8, "F4 90 80 80 (above U+10FFFF) at the start of line 2"},
		{"spec-utf8-cut-sequence", insert(body, "\xe2\x82"), hr.RuleFmtSpecUTF8, "a three-byte sequence cut after two bytes (E2 82) at the start of line 2"},
		{"spec-utf8-byte-ff", insert(body, "\xff"), hr.RuleFmtSpecUTF8, "the byte 0xFF at the start of line 2"},
		{"spec-no-final-lf", spec[:len(spec)-1], hr.RuleFmtSpecFinalLF, "its final LF removed"},
		{"spec-two-final-lfs", insert(len(spec), "\n"), hr.RuleFmtSpecFinalLF, "a second LF at its end"},
	} {
		fneg(c.name, withSpec(c.spec), c.rule, nil, "an artifact around the spec with "+c.what)
	}

	// The catalog.
	withCat := func(c []byte) []byte { return artifact(spec, c) }
	catWith := func(edit func(es []catEntry) []catEntry) []byte {
		return withCat(writeCatalog(edit(cloneEntries(entries))))
	}
	countTo := func(b []byte) []byte { return withCat(append(b, cat[1:]...)) }
	for _, n := range []uint64{0, 5, 7} {
		fneg(fmt.Sprintf("catalog-entry-count-%d", n), countTo(compact(n)), hr.RuleCatalogEntryCount, []string{tagBoundary},
			fmt.Sprintf("the reference catalog with its entry count set to %d in front of the same six entries", n))
	}
	fneg("catalog-entry-count-overlong-fd", countTo(compactForm(6, 0xfd)), cenc.RuleCompactOverlong, nil,
		"the reference catalog with its entry count 6 written fd 0600, an overlong form")
	fneg("catalog-entry-count-9007199254740991", countTo(compactForm(maxSafe, 0xff)), hr.RuleCatalogEntryCount, []string{tagBoundary},
		"the reference catalog with its entry count 2^53-1 in front of the six entries: the count is range-checked (exactly 6) first")
	fneg("catalog-entry-count-9007199254740992", countTo(compactForm(two53, 0xff)), cenc.RuleCompactSafe, []string{tagBoundary},
		"the reference catalog with its entry count 2^53 in front of the six entries: above JavaScript's safe integer range")
	fneg("catalog-missing-last-entry", withCat(append(compact(6), writeCatalog(entries[:5])[1:]...)), cenc.RuleTruncated, nil,
		"a catalog whose count says 6 but that holds only the first five entries (the header's lengths match the bytes)")
	fneg("catalog-five-entries", withCat(writeCatalog(entries[:5])), hr.RuleCatalogEntryCount, []string{tagBoundary},
		"a catalog of entry count 5 holding the first five entries (WriteCellCapV1 left out): well formed, but not the six of section 1")
	fneg("catalog-trailing-byte", withCat(append(bytes.Clone(cat), 0)), cenc.RuleTrailing, nil,
		"the reference catalog and one more byte, inside schemaCatalogLength")
	fneg("trailing-byte", append(bytes.Clone(ref), 0), hr.RuleFmtTrailing, nil, "the reference artifact and one more byte after the catalog")

	edit := func(name string, rule rules.ID, tags []string, comment string, f func(es []catEntry)) {
		fneg("catalog-"+name, catWith(func(es []catEntry) []catEntry { f(es); return es }), rule, tags, "a catalog with "+comment)
	}
	for _, c := range []byte{0, 1, 2, 4, 5} {
		edit(fmt.Sprintf("entry-1-category-%d", c), hr.RuleCatalogCategory, []string{tagBoundary},
			fmt.Sprintf("entry 1 (BlindCoreReadCapV1) in category %d instead of 3", c), func(es []catEntry) { es[0].category = c })
	}
	edit("entry-6-category-4", hr.RuleCatalogCategory, nil, "entry 6 (WriteCellCapV1) in category 4 (relay persistence)",
		func(es []catEntry) { es[5].category = 4 })
	for _, id := range []byte{0, 2} {
		edit(fmt.Sprintf("entry-1-local-id-%d", id), hr.RuleCatalogLocalID, []string{tagBoundary},
			fmt.Sprintf("entry 1 carrying local id %d", id), func(es []catEntry) { es[0].localID = id })
	}
	edit("entry-6-local-id-7", hr.RuleCatalogLocalID, []string{tagBoundary}, "entry 6 carrying local id 7", func(es []catEntry) { es[5].localID = 7 })
	edit("entries-1-and-2-local-ids-swapped", hr.RuleCatalogLocalID, nil, "local ids 2, 1, 3, 4, 5, 6", func(es []catEntry) {
		es[0].localID, es[1].localID = es[1].localID, es[0].localID
	})
	edit("entries-1-and-2-swapped", hr.RuleCatalogNames, nil, "entries 1 and 2 swapped, local ids kept 1 and 2: names out of raw-ASCII order", func(es []catEntry) {
		es[0], es[1] = es[1], es[0]
		es[0].localID, es[1].localID = 1, 2
	})
	for _, c := range []struct{ name, val, what string }{
		{"renamed", "BlindCoreReadCapV2", "entry 1 named BlindCoreReadCapV2"},
		{"foreign-name", "RelayWireFrameV1", "entry 1 named RelayWireFrameV1, a name outside the six"},
		{"empty-name", "", "entry 1's name empty"},
		{"name-256-bytes", strings.Repeat("A", 256), "entry 1's name 256 bytes long (names are at most 255 bytes before they are compared)"},
	} {
		edit("entry-1-"+c.name, hr.RuleCatalogNames, nil, c.what, func(es []catEntry) { es[0].name = []byte(c.val) })
	}
	fneg("catalog-entry-1-name-length-overlong-fd", withCat(bytes.Replace(cat, []byte("\x03\x01\x12Blind"), []byte("\x03\x01\xfd\x12\x00Blind"), 1)),
		cenc.RuleCompactOverlong, nil, "a catalog whose entry 1 name length 18 is written fd 1200, an overlong form")

	decl := string(entries[0].decl)
	line2 := strings.IndexByte(decl, '\n') + 1
	line3 := line2 + strings.IndexByte(decl[line2:], '\n') + 1
	setDecl := func(d string) func(es []catEntry) { return func(es []catEntry) { es[0].decl = []byte(d) } }
	at := func(i int, b string) string { return decl[:i] + b + decl[i+1:] }
	ins := func(i int, b string) string { return decl[:i] + b + decl[i:] }
	space := line2 + strings.IndexByte(decl[line2:], ' ')
	for _, c := range []struct {
		name string
		d    string
		rule rules.ID
		what string
	}{
		{"empty", "", hr.RuleCatalogDeclLength, "an empty declaration"},
		{"tab", at(space, "\t"), hr.RuleCatalogDeclText, "a tab for the first space of line 2"},
		{"cr", at(line3-1, "\r"), hr.RuleCatalogDeclText, "a CR for the LF ending line 2"},
		{"nul", at(space, "\x00"), hr.RuleCatalogDeclText, "a NUL for the first space of line 2"},
		{"del", at(space, "\x7f"), hr.RuleCatalogDeclText, "a DEL for the first space of line 2"},
		{"invalid-utf8", ins(line2, "\x80"), hr.RuleCatalogDeclText, "a lone continuation byte 0x80 at the start of line 2"},
		{"head-paren", strings.Replace(decl, " {\n", " (\n", 1), hr.RuleCatalogDeclHead, "its head BlindCoreReadCapV1 ( instead of {"},
		{"head-no-space", strings.Replace(decl, " {\n", "{\n", 1), hr.RuleCatalogDeclHead, "its head BlindCoreReadCapV1{ without the space"},
		{"no-closing-brace", strings.TrimSuffix(decl, "}"), hr.RuleCatalogDeclHead, "its final } removed (it ends with LF)"},
		{"lf-after-closing-brace", decl + "\n", hr.RuleCatalogDeclHead, "an LF after its final }"},
		{"other-schema", string(entries[1].decl), hr.RuleCatalogDeclHead, "the CellBlobV1 declaration in entry 1"},
	} {
		edit("entry-1-declaration-"+c.name, c.rule, nil, "entry 1's declaration replaced by "+c.what, setDecl(c.d))
	}
	// Declarations are 1..65535 bytes: entry 1's padded with a comment line.
	padded := func(n int) string {
		head := decl[:len(decl)-2] + "\n// "
		return head + strings.Repeat("x", n-len(head)-2) + "\n}"
	}
	fpos("format-catalog-declaration-65535-bytes", file(catWith(func(es []catEntry) []catEntry { setDecl(padded(0xffff))(es); return es })),
		ids(hr.RuleCatalogDeclLength), []string{tagBoundary}, "entry 1's declaration padded with a comment line to 65535 bytes, the largest allowed")
	edit("entry-1-declaration-65536-bytes", hr.RuleCatalogDeclLength, []string{tagBoundary},
		"entry 1's declaration padded with a comment line to 65536 bytes, one over the bound", setDecl(padded(0x10000)))
	fneg("catalog-entry-1-declaration-length-overlong-fe", withCat(bytes.Replace(cat, append([]byte("BlindCoreReadCapV1"), compact(uint64(len(decl)))...),
		append([]byte("BlindCoreReadCapV1"), compactForm(uint64(len(decl)), 0xfe)...), 1)), cenc.RuleCompactOverlong, nil,
		"a catalog whose entry 1 declaration length 270 is written in the 0xfe form, overlong for fd 0e01")

	// Dependencies: entry 4 (OpaqueChainFrameV1) depends on
	// OpaqueChainCheckpointV1 and ReadCellCapV1.
	depsOf := func(names ...string) func(es []catEntry) {
		return func(es []catEntry) {
			es[3].deps = nil
			for _, n := range names {
				es[3].deps = append(es[3].deps, []byte(n))
			}
		}
	}
	ck, rc := hr.SchemaOpaqueChainCheckpointV1, hr.SchemaReadCellCapV1
	for _, c := range []struct {
		name string
		deps []string
		rule rules.ID
	}{
		{"unsorted", []string{rc, ck}, hr.RuleCatalogDepsOrder},
		{"duplicate", []string{ck, ck}, hr.RuleCatalogDepsDuplicate},
		{"foreign", []string{ck, "RelayWireFrameV1"}, hr.RuleCatalogDepsClosed},
		{"self", []string{ck, hr.SchemaOpaqueChainFrameV1, rc}, hr.RuleCatalogDepsClosed},
		{"empty-name", []string{"", ck}, hr.RuleCatalogDepsClosed},
		{"all-six", hr.Schemas[:], hr.RuleCatalogDepsClosed},
	} {
		edit("entry-4-dependencies-"+c.name, c.rule, nil, "entry 4 (OpaqueChainFrameV1) depending on "+strings.Join(quoteAll(c.deps), ", "), depsOf(c.deps...))
	}
	five := cloneEntries(entries)
	five[0].deps = nil
	for _, n := range hr.Schemas[1:] {
		five[0].deps = append(five[0].deps, []byte(n))
	}
	fpos("format-catalog-entry-1-five-dependencies", file(withCat(writeCatalog(five))), ids(hr.RuleCatalogDepsClosed), []string{tagBoundary, tagDecision},
		"entry 1 listing the five other names as dependencies, the most allowed: dependencies must be closed and sorted, not derived from the declaration")
	return nil
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}
