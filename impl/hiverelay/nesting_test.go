package hiverelay

import (
	"testing"

	"github.com/threespec/conformance/impl/rules"
)

// The Nesting rules (HR-CKPT-12, HR-FRAME-13/14): a nested capability or
// checkpoint is itself canonical, so a nested value that breaks one of its
// own rules fails under that rule; switching the Nesting rule off (a codec
// that reads the nested value by its layout alone) lets exactly those
// inputs through and leaves the top-level record's checks in place.
func TestNestedValuesAreCanonical(t *testing.T) {
	t.Parallel()
	zeroCell := rcapB(key(0), fill(0x22), 1, nil)
	copy(zeroCell[1+32+32:], make([]byte, 32)) // cellKey of 32 zero bytes
	class6 := rcapB(key(1), fill(0x22), 6, nil)
	badCkpt := ckptB(frontierN(2), [][]byte{zeroCell, rcapB(key(1), fill(0x22), 1, nil)})
	withCaps := func(caps ...[]byte) []byte {
		return stdFrame().with(func(f *frameParts) { f.caps = caps })
	}
	withCkpt := func(c []byte) []byte { return stdFrame().with(func(f *frameParts) { f.ckpt = c }) }
	for _, tc := range []struct {
		name, schema string
		in           []byte
		want, off    rules.ID // the rule that rejects it; the Nesting rule whose fault accepts it
	}{
		{"snapshot cap cellKey zero", SchemaOpaqueChainCheckpointV1, badCkpt, RuleRCapCellKey, RuleCkptCapsCanonical},
		{"snapshot cap class 6", SchemaOpaqueChainCheckpointV1, ckptB(frontierN(1), [][]byte{rcapB(key(0), fill(0x22), 1, nil), class6}), RuleRCapSizeClass, RuleCkptCapsCanonical},
		{"next cap cellKey zero", SchemaOpaqueChainFrameV1, withCaps(zeroCell), RuleRCapCellKey, RuleFrameCapsCanonical},
		{"next cap class 6", SchemaOpaqueChainFrameV1, withCaps(rcapB(key(0), fill(0x22), 1, nil), class6), RuleRCapSizeClass, RuleFrameCapsCanonical},
		{"frame checkpoint's snapshot cap", SchemaOpaqueChainFrameV1, withCkpt(badCkpt), RuleRCapCellKey, RuleFrameCkptCanonical},
		{"frame checkpoint's snapshot cap, by the checkpoint rule", SchemaOpaqueChainFrameV1, withCkpt(badCkpt), RuleRCapCellKey, RuleCkptCapsCanonical},
		{"frame checkpoint without frontier", SchemaOpaqueChainFrameV1, withCkpt(ckptB(nil, capsN(1))), RuleCkptFrontierCount, RuleFrameCkptCanonical},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, _, err := Decode(tc.schema, 0, tc.in); rules.RuleOf(err) != tc.want {
				t.Fatalf("decoded with %v, want a rejection by %s", err, tc.want)
			}
			if _, _, err := DecodeWith(faults(tc.off), tc.schema, 0, tc.in); err != nil {
				t.Errorf("with %s off: %v, want the nested value read by its layout alone", tc.off, err)
			}
		})
	}
	// The fault skips nested values only: a top-level ReadCellCapV1 with
	// the same defect, and the checkpoint's own checks, still fail.
	for _, off := range []rules.ID{RuleCkptCapsCanonical, RuleFrameCapsCanonical, RuleFrameCkptCanonical} {
		_, _, err1 := DecodeWith(faults(off), SchemaReadCellCapV1, 0, zeroCell)
		_, _, err2 := DecodeWith(faults(off), SchemaOpaqueChainCheckpointV1, 0, ckptB(nil, capsN(1)))
		if rules.RuleOf(err1) != RuleRCapCellKey || rules.RuleOf(err2) != RuleCkptFrontierCount {
			t.Errorf("with %s off: a top-level cap gives %v, a top-level checkpoint %v", off, err1, err2)
		}
	}
}

// NestingRules names the Nesting rules of a record check inside a nested
// value, and none for a primitive's reading or a field outside one.
func TestNestingRules(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		schema, path string
		rule         rules.ID
		want         []rules.ID
	}{
		{SchemaOpaqueChainCheckpointV1, "snapshotReadCaps[1].cellKey", RuleRCapCellKey, []rules.ID{RuleCkptCapsCanonical}},
		{SchemaOpaqueChainFrameV1, "checkpoint.snapshotReadCaps[0].version", "HR-CENC-10", []rules.ID{RuleCkptCapsCanonical, RuleFrameCkptCanonical}},
		{SchemaOpaqueChainFrameV1, "nextReadCellCaps[0].sizeClass", RuleRCapSizeClass, []rules.ID{RuleFrameCapsCanonical}},
		{SchemaOpaqueChainFrameV1, "checkpoint.coveredFrontier", RuleCkptFrontierOrder, []rules.ID{RuleFrameCkptCanonical}},
		{SchemaOpaqueChainFrameV1, "nextReadCellCaps", RuleFrameCapsOrder, nil},
		{SchemaOpaqueChainFrameV1, "nextReadCellCaps[0].expectedCellBlobHash", "HR-CENC-09", nil},
		{SchemaWriteCellCapV1, "readCap.cellKey", RuleRCapCellKey, nil},
	} {
		got := NestingRules(tc.schema, tc.path, tc.rule)
		if len(got) != len(tc.want) {
			t.Errorf("NestingRules(%s, %s, %s) = %v, want %v", tc.schema, tc.path, tc.rule, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("NestingRules(%s, %s, %s) = %v, want %v", tc.schema, tc.path, tc.rule, got, tc.want)
			}
		}
	}
}
