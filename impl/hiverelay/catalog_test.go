package hiverelay

import (
	"bytes"
	"encoding/hex"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/threespec/conformance/impl/cenc"
	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/internal/fault"
	"github.com/threespec/conformance/specs"
)

// The fields whose alignment tab the lossy copy dropped ("name:type"), and
// that the declarations restore as a single space.
var restoredTabs = []string{"blockEncryptionKey", "witnessedSignedHead", "relayPublicKey", "createPrivateKey"}

// The declarations are the lossy copy's readable tail, with only the dropped
// alignment tabs restored as single spaces.
func TestDeclarationsMatchLossyCopy(t *testing.T) {
	t.Parallel()
	lossy := specs.Text(LossyFile)
	for _, name := range Schemas {
		decl, ok := Declaration(name)
		if !ok {
			t.Fatalf("no declaration for %s", name)
		}
		damaged := decl
		for _, f := range restoredTabs {
			damaged = strings.ReplaceAll(damaged, "\n"+f+": ", "\n"+f+":")
		}
		if !bytes.Contains(lossy, []byte(damaged)) {
			t.Errorf("%s: declaration (tabs dropped again) is not in the lossy copy:\n%s", name, damaged)
		}
	}
	// No other field line of the tail lost its separator.
	tail := lossy[bytes.Index(lossy, []byte("generated metadata artifact. Neither")):]
	for _, m := range regexp.MustCompile(`(?m)^([A-Za-z]+):[^ ]`).FindAllSubmatch(tail, -1) {
		found := false
		for _, f := range restoredTabs {
			found = found || string(m[1]) == f
		}
		if !found {
			t.Errorf("field %q lost its separator in the lossy copy but is not restored", m[1])
		}
	}
}

// Dependencies as the lossy copy shows them after each declaration.
func TestDependenciesKnownAnswers(t *testing.T) {
	t.Parallel()
	want := map[string][]string{
		SchemaBlindCoreReadCapV1:      nil,
		SchemaCellBlobV1:              nil,
		SchemaOpaqueChainCheckpointV1: {SchemaReadCellCapV1},
		SchemaOpaqueChainFrameV1:      {SchemaOpaqueChainCheckpointV1, SchemaReadCellCapV1},
		SchemaReadCellCapV1:           nil,
		SchemaWriteCellCapV1:          {SchemaReadCellCapV1},
	}
	for i, e := range SchemaCatalogEntries() {
		if e.Name != Schemas[i] || e.LocalID != uint8(i+1) || e.Category != 3 {
			t.Errorf("entry %d = %s id %d category %d", i, e.Name, e.LocalID, e.Category)
		}
		if !reflect.DeepEqual(e.Dependencies, want[e.Name]) {
			t.Errorf("%s depends on %v, want %v", e.Name, e.Dependencies, want[e.Name])
		}
	}
	if containsWord("xReadCellCapV1", "ReadCellCapV1") || containsWord("ReadCellCapV1s", "ReadCellCapV1") || !containsWord("of ReadCellCapV1\n", "ReadCellCapV1") {
		t.Error("containsWord must match whole words only")
	}
}

// The catalog's bytes follow the layout of docs/hiverelay.md. Declaration
// lengths: the lossy copy's (268, 112, 260, 336, 151, 139 bytes) plus one per
// restored tab (2, 0, 0, 0, 1, 1).
func TestSchemaCatalogKnownAnswer(t *testing.T) {
	t.Parallel()
	type row struct {
		name    string
		declLen int
		deps    []string
	}
	rows := []row{
		{"BlindCoreReadCapV1", 270, nil},
		{"CellBlobV1", 112, nil},
		{"OpaqueChainCheckpointV1", 260, []string{"ReadCellCapV1"}},
		{"OpaqueChainFrameV1", 336, []string{"OpaqueChainCheckpointV1", "ReadCellCapV1"}},
		{"ReadCellCapV1", 152, nil},
		{"WriteCellCapV1", 140, []string{"ReadCellCapV1"}},
	}
	total := 1 // entry count 6
	for _, r := range rows {
		declPrefix := 1
		if r.declLen > 252 {
			declPrefix = 3
		}
		total += 1 + 1 + 1 + len(r.name) + declPrefix + r.declLen + 1
		for _, d := range r.deps {
			total += 1 + len(d)
		}
	}
	c := SchemaCatalog()
	if len(c) != total || total != 1469 {
		t.Fatalf("catalog length %d, want %d (1469)", len(c), total)
	}
	head := "06" + "03" + "01" + "12" + hex.EncodeToString([]byte("BlindCoreReadCapV1")) + "fd0e01" + hex.EncodeToString([]byte("BlindCoreReadCapV1 {\n"))
	if got := hex.EncodeToString(c[:len(head)/2]); got != head {
		t.Fatalf("catalog starts %s, want %s", got, head)
	}
	// The second entry starts right after the first declaration and its zero dependency count.
	second := 4 + 18 + 3 + 270 + 1
	want2 := "03" + "02" + "0a" + hex.EncodeToString([]byte("CellBlobV1")) + "70"
	if got := hex.EncodeToString(c[second : second+len(want2)/2]); got != want2 {
		t.Fatalf("second entry starts %s, want %s", got, want2)
	}
	// The catalog ends with WriteCellCapV1's one dependency.
	if !bytes.HasSuffix(c, []byte("\n}\x01\x0dReadCellCapV1")) {
		t.Fatalf("catalog ends %q", c[len(c)-20:])
	}
	for _, r := range rows {
		if d, _ := Declaration(r.name); len(d) != r.declLen {
			t.Errorf("%s declaration is %d bytes, want %d", r.name, len(d), r.declLen)
		}
	}
}

func TestSchemaCatalogRoundTrip(t *testing.T) {
	t.Parallel()
	entries, err := DecodeSchemaCatalog(SchemaCatalog())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(entries, SchemaCatalogEntries()) {
		t.Fatal("decoded entries differ from the generated ones")
	}
	b, err := EncodeSchemaCatalog(entries)
	if err != nil || !bytes.Equal(b, SchemaCatalog()) {
		t.Fatalf("re-encoding: %v", err)
	}
	if _, ok := Declaration("RelayWireV1"); ok {
		t.Fatal("Declaration of a foreign name")
	}
}

// entryOff is the offset of entry i in rawCatalog(std, entries) (one-byte count).
func entryOff(entries []CatalogEntry, i int) int64 { return int64(len(rawCatalog(std, entries[:i]))) }

func catalogRejectCases() []rejectCase {
	ref := SchemaCatalog()
	mut := func(edit func(e []CatalogEntry)) []byte {
		e := SchemaCatalogEntries()
		edit(e)
		return rawCatalog(std, e)
	}
	e := SchemaCatalogEntries()
	declOff := func(i int) int64 { return entryOff(e, i) + 3 + int64(len(e[i].Name)) }
	depsOff := func(i int) int64 {
		return declOff(i) + int64(cenc.CompactUintLen(uint64(len(e[i].Declaration)))+len(e[i].Declaration))
	}
	const field = "entries["
	return []rejectCase{
		{"empty", "", 0, nil, cenc.RuleTruncated, 0, "entries"},
		{"five entries", "", 0, rawCatalog(std, e[:5]), RuleCatalogEntryCount, 0, "entries"},
		{"seven entries", "", 0, cat(b1(7), rawCatalog(std, append(e[:6:6], e[0]))[1:]), RuleCatalogEntryCount, 0, "entries"},
		{"count overlong", "", 0, cat([]byte{0xfd, 6, 0}, ref[1:]), cenc.RuleCompactOverlong, 0, "entries"},
		{"category 1", "", 0, mut(func(e []CatalogEntry) { e[2].Category = 1 }), RuleCatalogCategory, entryOff(e, 2), field + "2].category"},
		{"category 4", "", 0, mut(func(e []CatalogEntry) { e[0].Category = 4 }), RuleCatalogCategory, 1, field + "0].category"},
		{"local ids swapped", "", 0, mut(func(e []CatalogEntry) { e[0].LocalID, e[1].LocalID = 2, 1 }), RuleCatalogLocalID, 2, field + "0].localId"},
		{"local id 0", "", 0, mut(func(e []CatalogEntry) { e[5].LocalID = 0 }), RuleCatalogLocalID, entryOff(e, 5) + 1, field + "5].localId"},
		{"foreign name", "", 0, mut(func(e []CatalogEntry) { e[3].Name = "RelayWireV1" }), RuleCatalogNames, entryOff(e, 3) + 2, field + "3].name"},
		{"names out of order", "", 0, mut(func(e []CatalogEntry) { e[0].Name = "CellBlobV1" }), RuleCatalogNames, 3, field + "0].name"},
		{"empty declaration", "", 0, mut(func(e []CatalogEntry) { e[1].Declaration = "" }), RuleCatalogDeclLength, declOff(1), field + "1].declaration"},
		{"65536-byte declaration", "", 0, mut(func(e []CatalogEntry) {
			e[1].Declaration = "CellBlobV1 {\n" + strings.Repeat("x", MaxDeclarationLength-14) + "\n}"
		}), RuleCatalogDeclLength, declOff(1), field + "1].declaration"},
		{"tab in declaration", "", 0, mut(func(e []CatalogEntry) { e[1].Declaration = "CellBlobV1 {\nnonce:\t12 bytes\n}" }), RuleCatalogDeclText, declOff(1) + 1 + 19, field + "1].declaration"},
		{"CR in declaration", "", 0, mut(func(e []CatalogEntry) { e[1].Declaration = "CellBlobV1 {\r\n}" }), RuleCatalogDeclText, declOff(1) + 1 + 12, field + "1].declaration"},
		{"invalid UTF-8 in declaration", "", 0, mut(func(e []CatalogEntry) { e[1].Declaration = "CellBlobV1 {\n\xc0\xaf\n}" }), RuleCatalogDeclText, declOff(1) + 1 + 13, field + "1].declaration"},
		{"declaration of another schema", "", 0, mut(func(e []CatalogEntry) { e[1].Declaration = e[0].Declaration }), RuleCatalogDeclHead, declOff(1) + 3, field + "1].declaration"},
		{"declaration with final LF", "", 0, mut(func(e []CatalogEntry) { e[1].Declaration += "\n" }), RuleCatalogDeclHead, declOff(1) + 1, field + "1].declaration"},
		{"dependencies unsorted", "", 0, mut(func(e []CatalogEntry) { e[3].Dependencies = []string{"ReadCellCapV1", "OpaqueChainCheckpointV1"} }), RuleCatalogDepsOrder, depsOff(3) + 1 + 14, field + "3].dependencies[1]"},
		{"dependency duplicate", "", 0, mut(func(e []CatalogEntry) { e[3].Dependencies = []string{"ReadCellCapV1", "ReadCellCapV1"} }), RuleCatalogDepsDuplicate, depsOff(3) + 1 + 14, field + "3].dependencies[1]"},
		{"foreign dependency", "", 0, mut(func(e []CatalogEntry) { e[5].Dependencies = []string{"RelayWireV1"} }), RuleCatalogDepsClosed, depsOff(5) + 1, field + "5].dependencies[0]"},
		{"self dependency", "", 0, mut(func(e []CatalogEntry) { e[4].Dependencies = []string{"ReadCellCapV1"} }), RuleCatalogDepsClosed, depsOff(4) + 1, field + "4].dependencies[0]"},
		{"six dependencies", "", 0, mut(func(e []CatalogEntry) { e[0].Dependencies = Schemas[:] }), RuleCatalogDepsClosed, depsOff(0), field + "0].dependencies"},
		{"truncated", "", 0, ref[:len(ref)-1], cenc.RuleTruncated, int64(len(ref) - 13), field + "5].dependencies[0]"},
		{"trailing", "", 0, cat(ref, b1(0)), cenc.RuleTrailing, int64(len(ref)), "end"},
	}
}

func TestDecodeSchemaCatalogRejects(t *testing.T) {
	t.Parallel()
	for _, tc := range catalogRejectCases() {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeSchemaCatalog(tc.in)
			wantViolation(t, err, tc.rule, tc.off, tc.field)
			if _, err := EncodeSchemaCatalog(mustDecodeLoosely(tc.in)); err == nil && tc.rule != cenc.RuleTruncated && tc.rule != cenc.RuleTrailing && tc.rule != cenc.RuleCompactOverlong {
				t.Fatal("EncodeSchemaCatalog accepted entries the decoder rejects")
			}
			_, err = decodeAll(faults(tc.rule), tc.in, decodeCatalog)
			if rules.RuleOf(err) == tc.rule {
				t.Fatalf("still %s with the rule switched off", tc.rule)
			}
		})
	}
}

// mustDecodeLoosely decodes a catalog with every catalog rule switched off,
// to hand its entries back to the encoder.
func mustDecodeLoosely(b []byte) []CatalogEntry {
	var ids []string
	for _, r := range Catalog() {
		if strings.HasPrefix(string(r.ID), "HR-CAT-") {
			ids = append(ids, string(r.ID))
		}
	}
	e, _ := decodeAll(rules.Checks{Faults: fault.Of(ids...)}, b, decodeCatalog)
	return e
}
