package hiverelay

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/threespec/conformance/impl/cenc"
	"github.com/threespec/conformance/impl/rules"
)

// The rules the catalog marks untestable because another rule subsumes them
// (rules.Rule.Untestable, "subsumed by ..."): on their boundary inputs an
// implementation without the check still rejects, with BAD_ENCODING, by the
// rule the reason names. With the check in place the input is rejected by
// the subsumed rule itself.

type subsumedCase struct {
	name    string
	decode  func(c rules.Checks) error
	rule    rules.ID   // the subsumed rule: the reference's answer
	without []rules.ID // the rules that reject it with rule switched off
}

func checkSubsumed(t *testing.T, cases []subsumedCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.decode(std); rules.RuleOf(err) != tc.rule {
				t.Fatalf("with the check: %v, want %s", err, tc.rule)
			}
			err := tc.decode(faults(tc.rule))
			if rules.CodeOf(err) != cenc.Code || !containsID(tc.without, rules.RuleOf(err)) {
				t.Fatalf("with %s switched off: %v, want BAD_ENCODING by one of %v", tc.rule, err, tc.without)
			}
		})
	}
}

func containsID(ids []rules.ID, id rules.ID) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// ffForm is v in the 0xff compact form.
func ffForm(v uint64) []byte { return binary.LittleEndian.AppendUint64([]byte{0xff}, v) }

// HR-CENC-08 is subsumed by the range rules: every compact uint of the six
// records and of the catalog is a count or length whose range maximum is
// far below 2^53, checked before the input's end. 2^53 and 2^64-1 stand in
// for every value above 2^53-1.
func TestSafeIntegerBoundSubsumed(t *testing.T) {
	t.Parallel()
	const fr, cp, bc = SchemaOpaqueChainFrameV1, SchemaOpaqueChainCheckpointV1, SchemaBlindCoreReadCapV1
	frameHead := stdFrame().bytes()[:frameAfterPrevOffset()+32] // up to the payload count
	ckptCommitEnd := 2 + 2*frontierLen + 64                     // stdCkpt up to the caps count
	frameCaps := cat(frameHead, cu(1), cu(5), []byte("hello"))  // stdFrame up to the caps count
	cat0 := SchemaCatalog()
	entries := SchemaCatalogEntries()
	e3 := int(entryOff(entries, 3)) // entry 4 (OpaqueChainFrameV1) starts here
	e4 := int(entryOff(entries, 4))
	nameLenAt := 1 + 2                                                               // entry 1's name length
	declLenAt := nameLenAt + 1 + len(entries[0].Name)                                // entry 1's declaration length (fd form)
	depsAt := e4 - 1 - len("ReadCellCapV1") - 1 - len("OpaqueChainCheckpointV1") - 1 // entry 4's dependency count
	depLenAt := e4 - 1 - len("ReadCellCapV1")                                        // entry 4's last dependency length
	if cat0[depsAt] != 2 || cat0[depLenAt] != byte(len("ReadCellCapV1")) || e3 >= depsAt {
		t.Fatalf("catalog offsets: %d %d", cat0[depsAt], cat0[depLenAt])
	}
	catWith := func(at, n int, v uint64) []byte { return cat(cat0[:at], ffForm(v), cat0[at+n:]) }
	type site struct {
		name   string
		schema string // "" for the catalog
		build  func(v uint64) []byte
		rng    rules.ID
	}
	sites := []site{
		{"checkpoint frontier count", cp, func(v uint64) []byte { return cat(b1(1), ffForm(v), stdCkpt[2:]) }, RuleCkptFrontierCount},
		{"checkpoint snapshot caps count", cp, func(v uint64) []byte { return cat(stdCkpt[:ckptCommitEnd], ffForm(v), stdCkpt[ckptCommitEnd+1:]) }, RuleCkptCapsCount},
		{"frame payload count", fr, func(v uint64) []byte { return cat(frameHead, ffForm(v), stdFrame().bytes()[len(frameHead)+1:]) }, RuleFramePayloadCount},
		{"frame payload length", fr, func(v uint64) []byte { return cat(frameHead, cu(1), ffForm(v), stdFrame().bytes()[len(frameHead)+2:]) }, RuleFramePayloadLength},
		{"frame next caps count", fr, func(v uint64) []byte { return cat(frameCaps, ffForm(v), stdFrame().bytes()[len(frameCaps)+1:]) }, RuleFrameCapsCount},
		{"signed head length", bc, func(v uint64) []byte { return cat(stdBcore[:81], ffForm(v), stdBcore[82:]) }, RuleCoreHeadLength},
		{"catalog entry count", "", func(v uint64) []byte { return catWith(0, 1, v) }, RuleCatalogEntryCount},
		{"catalog name length", "", func(v uint64) []byte { return catWith(nameLenAt, 1, v) }, RuleCatalogNames},
		{"catalog declaration length", "", func(v uint64) []byte { return catWith(declLenAt, 3, v) }, RuleCatalogDeclLength},
		{"catalog dependency count", "", func(v uint64) []byte { return catWith(depsAt, 1, v) }, RuleCatalogDepsClosed},
		{"catalog dependency length", "", func(v uint64) []byte { return catWith(depLenAt, 1, v) }, RuleCatalogDepsClosed},
	}
	var cases []subsumedCase
	for _, s := range sites {
		for _, v := range []uint64{1 << 53, 1<<64 - 1} {
			in := s.build(v)
			dec := func(c rules.Checks) error {
				if s.schema == "" {
					_, err := decodeAll(c, in, decodeCatalog)
					return err
				}
				_, _, err := DecodeWith(c, s.schema, 0, in)
				return err
			}
			cases = append(cases, subsumedCase{s.name, dec, cenc.RuleCompactSafe, []rules.ID{s.rng}})
		}
	}
	checkSubsumed(t, cases)
}

// HR-FMT-06 is subsumed by HR-FMT-14 (empty spec bytes have no final LF),
// HR-FMT-08 by HR-CENC-11 (an empty catalog holds no entry count).
func TestEmptySectionsSubsumed(t *testing.T) {
	t.Parallel()
	catalog := SchemaCatalog()
	n := uint64(len(catalog))
	verify := func(b []byte) func(rules.Checks) error {
		return func(c rules.Checks) error { _, err := VerifyFormatArtifactWith(c, b); return err }
	}
	checkSubsumed(t, []subsumedCase{
		{"specLength 0", verify(art(FormatMagic, 1, 1, 0, 0, n, catalog)), RuleFmtSpecEmpty, []rules.ID{RuleFmtSpecFinalLF}},
		{"schemaCatalogLength 0", verify(art(FormatMagic, 1, 1, 0, 5, 0, []byte("spec\n"))), RuleFmtCatalogEmpty, []rules.ID{cenc.RuleTruncated}},
	})
}

// maxCatalog is the longest catalog the catalog rules accept: the six
// names, every declaration 65535 bytes (HR-CAT-06), every entry depending
// on the five other names (HR-CAT-11).
func maxCatalog(t *testing.T) []byte {
	t.Helper()
	entries := SchemaCatalogEntries()
	for i := range entries {
		head := entries[i].Name + " {\n// "
		entries[i].Declaration = head + strings.Repeat("x", MaxDeclarationLength-len(head)-2) + "\n}"
		entries[i].Dependencies = nil
		for _, n := range Schemas {
			if n != entries[i].Name {
				entries[i].Dependencies = append(entries[i].Dependencies, n)
			}
		}
	}
	b, err := EncodeSchemaCatalog(entries)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// HR-FMT-09 is subsumed by the catalog rules: no valid catalog is longer
// than 393859 bytes, so catalog bytes over 1 MiB leave trailing bytes
// (HR-CENC-12) after the longest valid catalog, or are cut short by the
// input's end (HR-CENC-11).
func TestLargeCatalogSubsumed(t *testing.T) {
	t.Parallel()
	mc := maxCatalog(t)
	// 1 count byte; per entry category, local id, the declaration's fd form
	// and 65535 bytes, the dependency count; the six names with their
	// length bytes (96 + 6); the five others' names as dependencies
	// (6*5 length bytes + 5*96 name bytes).
	if want := 1 + 6*(2+3+0xffff+1) + (96 + 6) + (30 + 5*96); len(mc) != want || want != 393859 {
		t.Fatalf("the longest valid catalog is %d bytes, want %d", len(mc), want)
	}
	spec := []byte("spec\n")
	over := uint64(MaxSectionLength + 1)
	padded := cat(mc, make([]byte, int(over)-len(mc)))
	verify := func(b []byte) func(rules.Checks) error {
		return func(c rules.Checks) error { _, err := VerifyFormatArtifactWith(c, b); return err }
	}
	checkSubsumed(t, []subsumedCase{
		{"1 MiB + 1 of catalog bytes", verify(art(FormatMagic, 1, 1, 0, 5, over, spec, padded)), RuleFmtCatalogMax, []rules.ID{cenc.RuleTrailing}},
		{"1 MiB + 1 declared, the longest catalog present", verify(art(FormatMagic, 1, 1, 0, 5, over, spec, mc)), RuleFmtCatalogMax, []rules.ID{cenc.RuleTruncated}},
		{"2^64-1 declared", verify(art(FormatMagic, 1, 1, 0, 5, 1<<64-1, spec, mc)), RuleFmtCatalogMax, []rules.ID{cenc.RuleTruncated}},
	})
	if _, err := VerifyFormatArtifact(art(FormatMagic, 1, 1, 0, 5, uint64(len(mc)), spec, mc)); err != nil {
		t.Fatalf("the longest valid catalog: %v", err)
	}
	if bytes.Equal(mc, SchemaCatalog()) {
		t.Fatal("maxCatalog is the reference catalog")
	}
}
