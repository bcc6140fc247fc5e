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

// formatVector is one vector of the format family: its name, its input
// (the reference artifact, mutated), what it expects, its tags and its
// comment. Each family below is a table of them; adding a vector is adding
// a row.
type formatVector struct {
	name    string
	in      input
	want    outcome
	tags    []string
	comment string
}

// outcome is what a format vector expects: accepted, testing rules, or
// rejected by rules[0].
type outcome struct {
	accepted bool
	rules    []rules.ID
}

func accepts(rs ...rules.ID) outcome { return outcome{accepted: true, rules: rs} }
func rejects(rule rules.ID) outcome  { return outcome{rules: ids(rule)} }

// formats adds the format family, table by table, in order.
func (g *gen) formats() error {
	f := g.formatRef()
	families := []func() []formatVector{f.artifacts, f.headers, f.specTexts, f.catalogs, f.entryFields, f.declarations, f.dependencies}
	for _, family := range families {
		for _, v := range family() {
			if !v.want.accepted {
				g.reject(v.name, formatOp, v.in, v.want.rules[0], v.tags, v.comment)
				continue
			}
			m := meta{rules: v.want.rules, tags: v.tags, comment: v.comment}
			if !g.add("positive", v.name, formatOp, v.in, map[string]any{"format_hash": formatHash(v.in.b)}, m) {
				panic("hivevec: positive " + v.name + " duplicates another vector")
			}
		}
	}
	return nil
}

// formatRef is what the format vectors are made from: the spec bytes, the
// reference schema catalog and its entries, and the reference artifact
// around them.
type formatRef struct {
	g              *gen
	spec, cat, ref []byte
	entries        []catEntry
	hdr            header
}

func (g *gen) formatRef() *formatRef {
	spec, cat := hr.Spec(), g.files[catalogFile]
	return &formatRef{g: g, spec: spec, cat: cat, ref: artifact(spec, cat), entries: catalogEntries(), hdr: headerFor(spec, cat)}
}

// withHeader is the reference artifact under a header that edit changes.
func (f *formatRef) withHeader(edit func(h *header)) input {
	h := f.hdr
	edit(&h)
	return file(append(h.bytes(), f.ref[30:]...))
}

// withSpec is an artifact around spec bytes s and the reference catalog.
func (f *formatRef) withSpec(s []byte) input { return file(artifact(s, f.cat)) }

// withCatalog is an artifact around the spec and catalog bytes c.
func (f *formatRef) withCatalog(c []byte) input { return file(artifact(f.spec, c)) }

// withCount is the reference catalog with its entry count written b.
func (f *formatRef) withCount(b []byte) input { return f.withCatalog(append(b, f.cat[1:]...)) }

// withEntries is the catalog of the reference entries as edit leaves them.
func (f *formatRef) withEntries(edit func(es []catEntry)) input {
	es := cloneEntries(f.entries)
	edit(es)
	return f.withCatalog(writeCatalog(es))
}

// artifacts: the reference artifact, and the bounds of the spec text
// (section 4, HR-FMT-*).
func (f *formatRef) artifacts() []formatVector {
	mib := hr.MaxSectionLength
	specOf := func(n int) input {
		h := header{"HRBCCF01", 1, 1, 0, uint64(n), uint64(len(f.cat))}
		return f.g.recipe(hexPart(h.bytes()), repeatPart('a', n-1), hexPart([]byte("\n")), filePart(catalogFile))
	}
	return []formatVector{
		{formatArtifactName, file(f.ref), accepts(hr.RuleFmtLayout, hr.RuleFmtSpecExact, hr.RuleFmtHash, hr.RuleFmtCatalogDecode), []string{tagKnown},
			"the authority's format artifact: the spec's exact 7985 bytes and the 1469-byte schema catalog; format_hash is the published clientCompositionFormatHash"},
		{"format-spec-single-lf", f.withSpec([]byte("\n")), accepts(hr.RuleFmtSpecFinalLF, hr.RuleFmtSpecEmpty), []string{tagDecision, tagBoundary},
			"an artifact whose spec text is one LF: the verifier accepts any spec text meeting section 4's rules; only the format hash says whose it is"},
		{"format-spec-1048576-bytes", specOf(mib), accepts(hr.RuleFmtSpecMax), []string{tagBoundary},
			"an artifact whose spec text is 1048575 ASCII 'a' and a final LF: exactly 1 MiB, the largest allowed"},
		{"format-spec-1048577-bytes", specOf(mib + 1), rejects(hr.RuleFmtSpecMax), []string{tagBoundary},
			"a complete artifact whose spec text is 1048576 ASCII 'a' and a final LF: one byte over 1 MiB"},
	}
}

// headers: the reference artifact under a header with one field changed.
func (f *formatRef) headers() []formatVector {
	h := f.withHeader
	b := []string{tagBoundary}
	out := []formatVector{
		{"format-magic-hrbccf02", h(func(h *header) { h.magic = "HRBCCF02" }), rejects(hr.RuleFmtMagic), nil, `the reference artifact with magic "HRBCCF02"`},
		{"format-magic-lower-case", h(func(h *header) { h.magic = "hrbccf01" }), rejects(hr.RuleFmtMagic), nil, `the reference artifact with magic "hrbccf01"`},
		{"format-magic-zero", h(func(h *header) { h.magic = "\x00\x00\x00\x00\x00\x00\x00\x00" }), rejects(hr.RuleFmtMagic), nil,
			`the reference artifact with magic "\x00\x00\x00\x00\x00\x00\x00\x00"`},
		{"format-authority-version-0", h(func(h *header) { h.authority = 0 }), rejects(hr.RuleFmtAuthority), b, "the reference artifact with authority-version 0"},
		{"format-authority-version-2", h(func(h *header) { h.authority = 2 }), rejects(hr.RuleFmtAuthority), b, "the reference artifact with authority-version 2"},
		{"format-format-major-0", h(func(h *header) { h.major = 0 }), rejects(hr.RuleFmtMajor), b, "the reference artifact with format-major 0"},
		{"format-format-major-2", h(func(h *header) { h.major = 2 }), rejects(hr.RuleFmtMajor), b, "the reference artifact with format-major 2"},
		{"format-format-minor-1", h(func(h *header) { h.minor = 1 }), rejects(hr.RuleFmtMinor), b, "the reference artifact with format-minor 1"},
		{"format-format-minor-65535", h(func(h *header) { h.minor = 0xffff }), rejects(hr.RuleFmtMinor), b, "the reference artifact with format-minor 65535"},
		{"format-spec-length-0", h(func(h *header) { h.specLen = 0 }), rejects(hr.RuleFmtSpecEmpty), b,
			"the reference artifact with specLength 0 in front of the reference spec and catalog"},
		{"format-spec-length-18446744073709551615", h(func(h *header) { h.specLen = u64Max }), rejects(hr.RuleFmtSpecMax), b,
			"the reference artifact with specLength 2^64-1: over 1 MiB, rejected before the bytes it needs"},
		{"format-spec-length-1048576-beyond-input", h(func(h *header) { h.specLen = hr.MaxSectionLength }), rejects(cenc.RuleTruncated), b,
			"the reference artifact with specLength 1048576 (allowed) but only the reference's 9454 bytes follow"},
		{"format-catalog-length-0", h(func(h *header) { h.catLen = 0 }), rejects(hr.RuleFmtCatalogEmpty), b,
			"the reference artifact with schemaCatalogLength 0 in front of the reference spec and catalog"},
		{"format-catalog-length-1048577", h(func(h *header) { h.catLen = hr.MaxSectionLength + 1 }), rejects(hr.RuleFmtCatalogMax), b,
			"the reference artifact with schemaCatalogLength 1048577: over 1 MiB, rejected before the bytes it needs"},
		{"format-catalog-length-18446744073709551615", h(func(h *header) { h.catLen = u64Max }), rejects(hr.RuleFmtCatalogMax), b,
			"the reference artifact with schemaCatalogLength 2^64-1: over 1 MiB"},
		{"format-catalog-length-one-beyond-input", h(func(h *header) { h.catLen = uint64(len(f.cat) + 1) }), rejects(cenc.RuleTruncated), b,
			"the reference artifact with schemaCatalogLength 1470, one more than the catalog bytes present"},
	}
	// The u64be lengths at the safe-integer boundary (issue 26, item 7):
	// over 1 MiB whatever reading HR-READ-12 is taken.
	for _, x := range u64Boundaries[:3] {
		out = append(out,
			formatVector{fmt.Sprintf("format-spec-length-%d", x), h(func(h *header) { h.specLen = x }), rejects(hr.RuleFmtSpecMax), b,
				fmt.Sprintf("the reference artifact with specLength %s: over 1 MiB, rejected before the bytes it needs", u64Name(x))},
			formatVector{fmt.Sprintf("format-catalog-length-%d", x), h(func(h *header) { h.catLen = x }), rejects(hr.RuleFmtCatalogMax), b,
				fmt.Sprintf("the reference artifact with schemaCatalogLength %s: over 1 MiB", u64Name(x))})
	}
	return out
}

// specTexts: artifacts around the spec text with one of section 4's text
// rules broken.
func (f *formatRef) specTexts() []formatVector {
	spec := f.spec
	firstLF := bytes.IndexByte(spec, '\n')
	line2 := firstLF + 1
	insert := func(at int, b string) input {
		return f.withSpec(append(append(append([]byte(nil), spec[:at]...), b...), spec[at:]...))
	}
	replace := func(at int, b byte) input { s := bytes.Clone(spec); s[at] = b; return f.withSpec(s) }
	const around = "an artifact around the spec with "
	return []formatVector{
		{"format-spec-cr-for-first-lf", replace(firstLF, '\r'), rejects(hr.RuleFmtSpecCR), nil, around + "its first LF replaced by CR"},
		{"format-spec-crlf-at-end", insert(len(spec)-1, "\r"), rejects(hr.RuleFmtSpecCR), nil, around + "a CR before its final LF"},
		{"format-spec-bom-at-start", insert(0, "\ufeff"), rejects(hr.RuleFmtSpecBOM), nil, around + "a byte order mark (EF BB BF) in front"},
		{"format-spec-feff-at-line-2", insert(line2, "\ufeff"), accepts(hr.RuleFmtSpecBOM), []string{tagDecision},
			"an artifact around the spec with U+FEFF at the start of line 2: not a byte order mark, which is U+FEFF at the start of the text (HR-READ-19 leading-bom-only), so accepted with its own format hash"},
		{"format-spec-nul-for-first-space", replace(bytes.IndexByte(spec, ' '), 0), rejects(hr.RuleFmtSpecNUL), nil, around + "its first space replaced by NUL"},
		{"format-spec-utf8-lone-continuation", insert(line2, "\x80"), rejects(hr.RuleFmtSpecUTF8), nil, around + "a lone continuation byte 0x80 at the start of line 2"},
		{"format-spec-utf8-overlong", insert(line2, "\xc0\xaf"), rejects(hr.RuleFmtSpecUTF8), nil, around + "the overlong C0 AF at the start of line 2"},
		{"format-spec-utf8-surrogate", insert(line2, "\xed\xa0\x80"), rejects(hr.RuleFmtSpecUTF8), nil, around + "the surrogate U+D800 (ED A0 80) at the start of line 2"},
		{"format-spec-utf8-above-10ffff", insert(line2, "\xf4\x90\x80\x80"), rejects(hr.RuleFmtSpecUTF8), nil, around + "F4 90 80 80 (above U+10FFFF) at the start of line 2"},
		{"format-spec-utf8-cut-sequence", insert(line2, "\xe2\x82"), rejects(hr.RuleFmtSpecUTF8), nil,
			around + "a three-byte sequence cut after two bytes (E2 82) at the start of line 2"},
		{"format-spec-utf8-byte-ff", insert(line2, "\xff"), rejects(hr.RuleFmtSpecUTF8), nil, around + "the byte 0xFF at the start of line 2"},
		{"format-spec-no-final-lf", f.withSpec(spec[:len(spec)-1]), rejects(hr.RuleFmtSpecFinalLF), nil, around + "its final LF removed"},
		{"format-spec-two-final-lfs", insert(len(spec), "\n"), rejects(hr.RuleFmtSpecFinalLF), nil, around + "a second LF at its end"},
	}
}

// catalogs: the schema catalog's entry count and extent.
func (f *formatRef) catalogs() []formatVector {
	b := []string{tagBoundary}
	const count = "the reference catalog with its entry count "
	return []formatVector{
		{"format-catalog-entry-count-0", f.withCount(compact(0)), rejects(hr.RuleCatalogEntryCount), b, count + "set to 0 in front of the same six entries"},
		{"format-catalog-entry-count-5", f.withCount(compact(5)), rejects(hr.RuleCatalogEntryCount), b, count + "set to 5 in front of the same six entries"},
		{"format-catalog-entry-count-7", f.withCount(compact(7)), rejects(hr.RuleCatalogEntryCount), b, count + "set to 7 in front of the same six entries"},
		{"format-catalog-entry-count-overlong-fd", f.withCount(compactForm(6, 0xfd)), rejects(cenc.RuleCompactOverlong), nil, count + "6 written fd 0600, an overlong form"},
		{"format-catalog-entry-count-9007199254740991", f.withCount(compactForm(maxSafe, 0xff)), rejects(hr.RuleCatalogEntryCount), b,
			count + "2^53-1 in front of the six entries: the count is range-checked (exactly 6) first"},
		{"format-catalog-entry-count-9007199254740992", f.withCount(compactForm(two53, 0xff)), rejects(cenc.RuleCompactSafe), b,
			count + "2^53 in front of the six entries: above JavaScript's safe integer range"},
		{"format-catalog-missing-last-entry", f.withCatalog(append(compact(6), writeCatalog(f.entries[:5])[1:]...)), rejects(cenc.RuleTruncated), nil,
			"a catalog whose count says 6 but that holds only the first five entries (the header's lengths match the bytes)"},
		{"format-catalog-five-entries", f.withCatalog(writeCatalog(f.entries[:5])), rejects(hr.RuleCatalogEntryCount), b,
			"a catalog of entry count 5 holding the first five entries (WriteCellCapV1 left out): well formed, but not the six of section 1"},
		{"format-catalog-trailing-byte", f.withCatalog(append(bytes.Clone(f.cat), 0)), rejects(cenc.RuleTrailing), nil,
			"the reference catalog and one more byte, inside schemaCatalogLength"},
		{"format-trailing-byte", file(append(bytes.Clone(f.ref), 0)), rejects(hr.RuleFmtTrailing), nil, "the reference artifact and one more byte after the catalog"},
	}
}

// entryFields: catalogs with one entry's category, local id or name changed.
func (f *formatRef) entryFields() []formatVector {
	e := f.withEntries
	b := []string{tagBoundary}
	const with = "a catalog with "
	name := func(n string) func(es []catEntry) { return func(es []catEntry) { es[0].name = []byte(n) } }
	return []formatVector{
		{"format-catalog-entry-1-category-0", e(func(es []catEntry) { es[0].category = 0 }), rejects(hr.RuleCatalogCategory), b, with + "entry 1 (BlindCoreReadCapV1) in category 0 instead of 3"},
		{"format-catalog-entry-1-category-1", e(func(es []catEntry) { es[0].category = 1 }), rejects(hr.RuleCatalogCategory), b, with + "entry 1 (BlindCoreReadCapV1) in category 1 instead of 3"},
		{"format-catalog-entry-1-category-2", e(func(es []catEntry) { es[0].category = 2 }), rejects(hr.RuleCatalogCategory), b, with + "entry 1 (BlindCoreReadCapV1) in category 2 instead of 3"},
		{"format-catalog-entry-1-category-4", e(func(es []catEntry) { es[0].category = 4 }), rejects(hr.RuleCatalogCategory), b, with + "entry 1 (BlindCoreReadCapV1) in category 4 instead of 3"},
		{"format-catalog-entry-1-category-5", e(func(es []catEntry) { es[0].category = 5 }), rejects(hr.RuleCatalogCategory), b, with + "entry 1 (BlindCoreReadCapV1) in category 5 instead of 3"},
		{"format-catalog-entry-6-category-4", e(func(es []catEntry) { es[5].category = 4 }), rejects(hr.RuleCatalogCategory), nil, with + "entry 6 (WriteCellCapV1) in category 4 (relay persistence)"},
		{"format-catalog-entry-1-local-id-0", e(func(es []catEntry) { es[0].localID = 0 }), rejects(hr.RuleCatalogLocalID), b, with + "entry 1 carrying local id 0"},
		{"format-catalog-entry-1-local-id-2", e(func(es []catEntry) { es[0].localID = 2 }), rejects(hr.RuleCatalogLocalID), b, with + "entry 1 carrying local id 2"},
		{"format-catalog-entry-6-local-id-7", e(func(es []catEntry) { es[5].localID = 7 }), rejects(hr.RuleCatalogLocalID), b, with + "entry 6 carrying local id 7"},
		{"format-catalog-entries-1-and-2-local-ids-swapped", e(func(es []catEntry) { es[0].localID, es[1].localID = es[1].localID, es[0].localID }),
			rejects(hr.RuleCatalogLocalID), nil, with + "local ids 2, 1, 3, 4, 5, 6"},
		{"format-catalog-entries-1-and-2-swapped", e(func(es []catEntry) { es[0], es[1] = es[1], es[0]; es[0].localID, es[1].localID = 1, 2 }),
			rejects(hr.RuleCatalogNames), nil, with + "entries 1 and 2 swapped, local ids kept 1 and 2: names out of raw-ASCII order"},
		{"format-catalog-entry-1-renamed", e(name("BlindCoreReadCapV2")), rejects(hr.RuleCatalogNames), nil, with + "entry 1 named BlindCoreReadCapV2"},
		{"format-catalog-entry-1-foreign-name", e(name("RelayWireFrameV1")), rejects(hr.RuleCatalogNames), nil, with + "entry 1 named RelayWireFrameV1, a name outside the six"},
		{"format-catalog-entry-1-empty-name", e(name("")), rejects(hr.RuleCatalogNames), nil, with + "entry 1's name empty"},
		{"format-catalog-entry-1-name-256-bytes", e(name(strings.Repeat("A", 256))), rejects(hr.RuleCatalogNames), nil,
			with + "entry 1's name 256 bytes long (names are at most 255 bytes before they are compared)"},
		{"format-catalog-entry-1-name-length-overlong-fd", f.withCatalog(bytes.Replace(f.cat, []byte("\x03\x01\x12Blind"), []byte("\x03\x01\xfd\x12\x00Blind"), 1)),
			rejects(cenc.RuleCompactOverlong), nil, "a catalog whose entry 1 name length 18 is written fd 1200, an overlong form"},
	}
}

// declarations: catalogs with entry 1's declaration replaced, and its
// length bounds.
func (f *formatRef) declarations() []formatVector {
	decl := string(f.entries[0].decl)
	line2 := strings.IndexByte(decl, '\n') + 1
	line3 := line2 + strings.IndexByte(decl[line2:], '\n') + 1
	space := line2 + strings.IndexByte(decl[line2:], ' ')
	at := func(i int, b string) string { return decl[:i] + b + decl[i+1:] }
	ins := func(i int, b string) string { return decl[:i] + b + decl[i:] }
	set := func(d string) input { return f.withEntries(func(es []catEntry) { es[0].decl = []byte(d) }) }
	// Declarations are 1..65535 bytes: entry 1's padded with a comment line.
	padded := func(n int) string {
		head := decl[:len(decl)-2] + "\n// "
		return head + strings.Repeat("x", n-len(head)-2) + "\n}"
	}
	name := []byte("BlindCoreReadCapV1")
	overlongLength := bytes.Replace(f.cat, append(name, compact(uint64(len(decl)))...), append(name, compactForm(uint64(len(decl)), 0xfe)...), 1)
	const by = "a catalog with entry 1's declaration replaced by "
	return []formatVector{
		{"format-catalog-entry-1-declaration-empty", set(""), rejects(hr.RuleCatalogDeclLength), nil, by + "an empty declaration"},
		{"format-catalog-entry-1-declaration-tab", set(at(space, "\t")), rejects(hr.RuleCatalogDeclText), nil, by + "a tab for the first space of line 2"},
		{"format-catalog-entry-1-declaration-cr", set(at(line3-1, "\r")), rejects(hr.RuleCatalogDeclText), nil, by + "a CR for the LF ending line 2"},
		{"format-catalog-entry-1-declaration-nul", set(at(space, "\x00")), rejects(hr.RuleCatalogDeclText), nil, by + "a NUL for the first space of line 2"},
		{"format-catalog-entry-1-declaration-del", set(at(space, "\x7f")), rejects(hr.RuleCatalogDeclText), nil, by + "a DEL for the first space of line 2"},
		{"format-catalog-entry-1-declaration-invalid-utf8", set(ins(line2, "\x80")), rejects(hr.RuleCatalogDeclText), nil,
			"a catalog with a lone continuation byte 0x80 inserted at the start of line 2 of entry 1's declaration (one byte longer; no byte is replaced)"},
		{"format-catalog-entry-1-declaration-head-paren", set(strings.Replace(decl, " {\n", " (\n", 1)), rejects(hr.RuleCatalogDeclHead), nil, by + "its head BlindCoreReadCapV1 ( instead of {"},
		{"format-catalog-entry-1-declaration-head-no-space", set(strings.Replace(decl, " {\n", "{\n", 1)), rejects(hr.RuleCatalogDeclHead), nil, by + "its head BlindCoreReadCapV1{ without the space"},
		{"format-catalog-entry-1-declaration-no-closing-brace", set(strings.TrimSuffix(decl, "}")), rejects(hr.RuleCatalogDeclHead), nil, by + "its final } removed (it ends with LF)"},
		{"format-catalog-entry-1-declaration-lf-after-closing-brace", set(decl + "\n"), rejects(hr.RuleCatalogDeclHead), nil, by + "an LF after its final }"},
		{"format-catalog-entry-1-declaration-other-schema", set(string(f.entries[1].decl)), rejects(hr.RuleCatalogDeclHead), nil, by + "the CellBlobV1 declaration in entry 1"},
		{"format-catalog-declaration-65535-bytes", set(padded(0xffff)), accepts(hr.RuleCatalogDeclLength), []string{tagBoundary},
			"entry 1's declaration padded with a comment line to 65535 bytes, the largest allowed"},
		{"format-catalog-entry-1-declaration-65536-bytes", set(padded(0x10000)), rejects(hr.RuleCatalogDeclLength), []string{tagBoundary},
			"a catalog with entry 1's declaration padded with a comment line to 65536 bytes, one over the bound"},
		{"format-catalog-entry-1-declaration-length-overlong-fe", f.withCatalog(overlongLength), rejects(cenc.RuleCompactOverlong), nil,
			"a catalog whose entry 1 declaration length 270 is written in the 0xfe form, overlong for fd 0e01"},
	}
}

// dependencies: catalogs with the dependency list of entry 4
// (OpaqueChainFrameV1, which depends on OpaqueChainCheckpointV1 and
// ReadCellCapV1) or entry 1 changed.
func (f *formatRef) dependencies() []formatVector {
	depsOf := func(entry int, names ...string) input {
		return f.withEntries(func(es []catEntry) {
			es[entry].deps = nil
			for _, n := range names {
				es[entry].deps = append(es[entry].deps, []byte(n))
			}
		})
	}
	ck, rc := hr.SchemaOpaqueChainCheckpointV1, hr.SchemaReadCellCapV1
	const on = "a catalog with entry 4 (OpaqueChainFrameV1) depending on "
	return []formatVector{
		{"format-catalog-entry-4-dependencies-unsorted", depsOf(3, rc, ck), rejects(hr.RuleCatalogDepsOrder), nil, on + quoteAll(rc, ck)},
		{"format-catalog-entry-4-dependencies-duplicate", depsOf(3, ck, ck), rejects(hr.RuleCatalogDepsDuplicate), nil, on + quoteAll(ck, ck)},
		{"format-catalog-entry-4-dependencies-foreign", depsOf(3, ck, "RelayWireFrameV1"), rejects(hr.RuleCatalogDepsClosed), nil, on + quoteAll(ck, "RelayWireFrameV1")},
		{"format-catalog-entry-4-dependencies-self", depsOf(3, ck, hr.SchemaOpaqueChainFrameV1, rc), rejects(hr.RuleCatalogDepsClosed), nil,
			on + quoteAll(ck, hr.SchemaOpaqueChainFrameV1, rc)},
		{"format-catalog-entry-4-dependencies-empty-name", depsOf(3, "", ck), rejects(hr.RuleCatalogDepsClosed), nil, on + quoteAll("", ck)},
		{"format-catalog-entry-4-dependencies-all-six", depsOf(3, hr.Schemas[:]...), rejects(hr.RuleCatalogDepsClosed), nil, on + quoteAll(hr.Schemas[:]...)},
		{"format-catalog-entry-1-five-dependencies", depsOf(0, hr.Schemas[1:]...), accepts(hr.RuleCatalogDepsClosed), []string{tagBoundary, tagDecision},
			"entry 1 listing the five other names as dependencies, the most allowed: dependencies must be closed and sorted, not derived from the declaration"},
	}
}

// quoteAll lists ss quoted, comma-separated.
func quoteAll(ss ...string) string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(out, ", ")
}
