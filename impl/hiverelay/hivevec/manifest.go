package hivevec

import (
	"encoding/hex"
	"fmt"
	"sort"

	"golang.org/x/crypto/blake2b"

	"github.com/threespec/conformance/impl/cenc"
	hr "github.com/threespec/conformance/impl/hiverelay"
	"github.com/threespec/conformance/impl/manifest"
	"github.com/threespec/conformance/impl/rules"
)

// hiverelay.manifest vectors (section 5): the authority's vector manifest,
// whose expected result lists its rows and clientCompositionVectorSetHash
// computed here from the formula, and a negative for every rule of the
// strict framing.

// row is one manifest row.
type row struct {
	path   string
	length uint64
	hash   [32]byte
}

func rowFor(p string, b []byte) row { return row{p, uint64(len(b)), blake2b.Sum256(b)} }

// writeManifest writes the framing of section 5 with the given count and
// rows, exactly as given.
func writeManifest(count uint32, rows []row) []byte {
	entries := make([]manifest.Entry, len(rows))
	for i, r := range rows {
		entries[i] = manifest.Entry{Path: r.path, Length: r.length, Hash: r.hash}
	}
	return manifest.WriteRaw(count, entries)
}

func manifestOf(rows []row) []byte { return writeManifest(uint32(len(rows)), rows) }

// authorityRows are the rows of the authority's manifest, computed here
// from the 18 inventory files, sorted by raw path bytes.
func authorityRows() []row {
	var rows []row
	for p, b := range hr.VectorFiles() {
		rows = append(rows, rowFor(p, b))
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].path < rows[j].path })
	return rows
}

// manifestResult is the expected result of an accepted manifest: its rows
// and clientCompositionVectorSetHash over its bytes.
func manifestResult(rows []row, b []byte) map[string]any {
	entries := make([]map[string]any, len(rows))
	for i, r := range rows {
		entries[i] = map[string]any{"path": r.path, "length": r.length, "blake2b": hex.EncodeToString(r.hash[:])}
	}
	h := domainHash(vectorSetHashDomain, b)
	return map[string]any{"entries": entries, "vector_set_hash": hex.EncodeToString(h[:])}
}

const authorityManifestName = "manifest-authority-v1"

func (g *gen) manifests() error {
	mpos := func(name string, rows []row, rs []rules.ID, tags []string, comment string) {
		sort.Slice(rows, func(i, j int) bool { return rows[i].path < rows[j].path })
		b := manifestOf(rows)
		if !g.add("positive", name, manifestOp, file(b), manifestResult(rows, b), meta{rules: rs, tags: tags, comment: comment}) {
			panic("hivevec: positive " + name + " duplicates another vector")
		}
	}
	mneg := func(name string, b []byte, rule rules.ID, tags []string, comment string) {
		g.reject("manifest-"+name, manifestOp, file(b), rule, tags, comment)
	}
	auth := authorityRows()
	mpos(authorityManifestName, auth, ids(manifest.RuleFraming, manifest.RuleVectorHash, hr.RuleVecSetHash, hr.RuleVecInventory), []string{tagKnown},
		"the authority's vector manifest of the 18 inventory paths; vector_set_hash is the published clientCompositionVectorSetHash")
	mpos("manifest-empty", nil, ids(manifest.RuleFraming), []string{tagBoundary}, "a manifest of no rows: the count 0 and nothing else")
	empty := func(p string) row { return rowFor(p, nil) }
	mpos("manifest-dot-names-are-not-dot-components", []row{empty(".hidden"), empty("..."), empty("a..b"), empty("a/.b"), empty("a/b..")},
		ids(manifest.RuleDotSegment), []string{tagDecision},
		`only whole "." and ".." components are dot components: .hidden, ..., a..b, a/.b and a/b.. are names`)
	mpos("manifest-nfc-non-ascii-path", []row{empty("positive/caf\u00e9.bin"), empty("positive/\u00c5ngstr\u00f6m.bin")},
		ids(manifest.RuleNFC, manifest.RuleUTF8), []string{tagDecision},
		"paths in NFC with non-ASCII letters (U+00E9, U+00C5, U+00F6) are canonical")

	// A row's vector length is a u64be: every value at the safe-integer
	// boundary (issue 26, item 7); whether those above 2^53-1 are accepted
	// is reading HR-READ-12.
	for _, x := range []uint64{maxSafe, two53, two53 + 1, u64Max} {
		r := empty("positive/read-cell-cap-v1.bin")
		r.length = x
		mpos(fmt.Sprintf("manifest-row-length-%d", x), []row{r}, ids(manifest.RuleFraming, cenc.RuleBigEndian), []string{tagBoundary},
			fmt.Sprintf("one row whose vector length is %s (u64 big-endian); the hash is of no bytes, which the framing does not check against a length", u64Name(x)))
	}

	// Rows out of order and duplicated.
	swapped := append([]row(nil), auth...)
	swapped[0], swapped[1] = swapped[1], swapped[0]
	mneg("rows-0-and-1-swapped", manifestOf(swapped), manifest.RuleUnsorted, nil, "the authority manifest with its first two rows swapped")
	dup := append(append(append([]row(nil), auth[:6]...), auth[5]), auth[6:]...)
	mneg("row-5-duplicated", manifestOf(dup), manifest.RuleDuplicate, nil, "the authority manifest with row 5 repeated (19 rows, count 19)")
	samePath := append([]row(nil), auth...)
	samePath[6].path = samePath[5].path
	mneg("row-6-same-path-as-row-5", manifestOf(samePath), manifest.RuleDuplicate, nil,
		"the authority manifest with row 6 naming row 5's path (its length and hash differ)")

	// One-row manifests whose path breaks one rule.
	for _, c := range []struct {
		name, path string
		rule       rules.ID
		what       string
	}{
		{"path-absolute", "/positive/read-cell-cap-v1.bin", manifest.RuleAbsolute, "an absolute path"},
		{"path-dot-first", "./positive/read-cell-cap-v1.bin", manifest.RuleDotSegment, `a leading "." component`},
		{"path-dot-inner", "positive/./read-cell-cap-v1.bin", manifest.RuleDotSegment, `an inner "." component`},
		{"path-dot-last", "positive/.", manifest.RuleDotSegment, `a final "." component`},
		{"path-dot-dot-first", "../positive/read-cell-cap-v1.bin", manifest.RuleDotSegment, `a leading ".." component`},
		{"path-dot-dot-inner", "positive/../read-cell-cap-v1.bin", manifest.RuleDotSegment, `an inner ".." component`},
		{"path-dot-dot-last", "positive/..", manifest.RuleDotSegment, `a final ".." component`},
		{"path-backslash", "positive\\read-cell-cap-v1.bin", manifest.RuleBackslash, "a backslash separator"},
		{"path-empty", "", manifest.RuleEmptySegment, "the empty path"},
		{"path-empty-component", "positive//read-cell-cap-v1.bin", manifest.RuleEmptySegment, "an empty component (//)"},
		{"path-trailing-slash", "positive/", manifest.RuleEmptySegment, "a trailing / (an empty last component)"},
		{"path-utf8-lone-continuation", "positive/\x80.bin", manifest.RuleUTF8, "a lone continuation byte 0x80"},
		{"path-utf8-overlong-slash", "positive\xc0\xafx.bin", manifest.RuleUTF8, "C0 AF, an overlong form of /"},
		{"path-utf8-surrogate", "positive/\xed\xa0\x80.bin", manifest.RuleUTF8, "the surrogate U+D800 (ED A0 80)"},
		{"path-utf8-above-10ffff", "positive/\xf4\x90\x80\x80.bin", manifest.RuleUTF8, "F4 90 80 80, above U+10FFFF"},
		{"path-utf8-cut-sequence", "positive/caf\xc3.bin", manifest.RuleUTF8, "a two-byte sequence cut after its first byte (C3)"},
	} {
		mneg(c.name, manifestOf([]row{empty(c.path)}), c.rule, nil, "a one-row manifest whose path has "+c.what)
	}
	// Paths that only a reading's alternative refuses (HR-READ-07, 09):
	// section 5's list of failing conditions names neither normalization
	// nor control bytes, so by default they are canonical.
	for _, c := range []struct {
		name, path string
		rule       rules.ID
		what, why  string
	}{
		{"path-not-nfc-combining-accent", "positive/cafe\u0301.bin", manifest.RuleNFC, "e U+0301 where NFC has U+00E9", "strict UTF-8, not in NFC (HR-READ-07 strict-utf8-only)"},
		{"path-not-nfc-angstrom-sign", "positive/\u212b.bin", manifest.RuleNFC, "U+212B ANGSTROM SIGN, whose NFC is U+00C5", "strict UTF-8, not in NFC (HR-READ-07 strict-utf8-only)"},
		{"path-control-nul", "positive/a\x00.bin", manifest.RuleControl, "a NUL byte", "a control byte, which section 5 does not list (HR-READ-09 controls-allowed)"},
		{"path-control-tab", "positive/a\t.bin", manifest.RuleControl, "a tab", "a control byte, which section 5 does not list (HR-READ-09 controls-allowed)"},
		{"path-control-1f", "positive/a\x1f.bin", manifest.RuleControl, "the control byte 0x1F", "a control byte, which section 5 does not list (HR-READ-09 controls-allowed)"},
		{"path-control-del", "positive/a\x7f.bin", manifest.RuleControl, "a DEL byte", "a control byte, which section 5 does not list (HR-READ-09 controls-allowed)"},
	} {
		mpos("manifest-"+c.name, []row{empty(c.path)}, ids(c.rule), []string{tagDecision},
			"a one-row manifest whose path has "+c.what+": accepted, "+c.why)
	}

	// Counts that disagree with the rows.
	ab := manifestOf(auth)
	n := uint32(len(auth))
	for _, c := range []struct {
		count uint32
		rule  rules.ID
		what  string
	}{
		{n + 1, manifest.RuleTruncated, "19 with 18 rows: the 19th row is missing"},
		{n - 1, manifest.RuleTrailing, "17 with 18 rows: the 18th row is trailing bytes"},
		{0, manifest.RuleTrailing, "0 in front of the 18 rows"},
		{0xffffffff, manifest.RuleTruncated, "2^32-1: refused before anything is allocated for it (42 bytes per row at least)"},
	} {
		mneg(fmt.Sprintf("count-%d", c.count), writeManifest(c.count, auth), c.rule, []string{tagBoundary}, "the authority manifest with count "+c.what)
	}
	mneg("trailing-byte", append(ab, 0), manifest.RuleTrailing, nil, "the authority manifest and one more byte")
	return nil
}
