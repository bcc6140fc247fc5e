package hiverelay

import (
	"testing"

	"github.com/threespec/conformance/impl/manifest"
	"github.com/threespec/conformance/impl/rules"
)

// Each named mutant of this package and of the manifest framing makes its
// mistake (the run returns true), and only under fault injection. The
// primitives' mutants are tested in package cenc.
func TestMutants(t *testing.T) {
	t.Parallel()
	decodes := func(c rules.Checks, schema string, class uint8, b []byte) bool {
		_, _, err := DecodeWith(c, schema, class, b)
		return err == nil
	}
	verifies := func(c rules.Checks, b []byte) bool { _, err := VerifyFormatArtifactWith(c, b); return err == nil }
	oneRelay := [][]byte{rcapB(fill(0x11), key(0), 1, nil), rcapB(fill(0x11), key(1), 1, nil)}
	ref := FormatHash(ReferenceFormatArtifact())
	tests := []struct {
		mutant rules.ID
		run    func(c rules.Checks) bool
	}{
		{MutBlobClassFromLength, func(c rules.Checks) bool { return decodes(c, SchemaCellBlobV1, 1, blobB(ClassLength(2))) }},
		{MutSizeClass6, func(c rules.Checks) bool {
			return decodes(c, SchemaReadCellCapV1, 0, rcapB(fill(0x11), fill(0x22), 6, nil))
		}},
		{MutKeysAdjacentOnly, func(c rules.Checks) bool {
			return decodes(c, SchemaWriteCellCapV1, 0, wcapB(stdWcap[:99], 9, fill(1), fill(2), fill(1)))
		}},
		{MutCapsByRelayKey, func(c rules.Checks) bool {
			return !decodes(c, SchemaOpaqueChainCheckpointV1, 0, ckptB(frontierN(1), oneRelay))
		}},
		{MutFrontier1025, func(c rules.Checks) bool {
			return decodes(c, SchemaOpaqueChainCheckpointV1, 0, ckptB(frontierN(MaxFrontierEntries+1), capsN(1)))
		}},
		{MutPayload262145, func(c rules.Checks) bool {
			return decodes(c, SchemaOpaqueChainFrameV1, 0, stdFrame().with(func(f *frameParts) { f.payloads = [][]byte{fillN(1, MaxPayloadLength+1)} }))
		}},
		{MutPayloadRequired, func(c rules.Checks) bool {
			return !decodes(c, SchemaOpaqueChainFrameV1, 0, stdFrame().with(func(f *frameParts) { f.seq, f.prev, f.payloads, f.ckpt = 1, fill(0x34), nil, stdCkpt }))
		}},
		{MutHashWithoutLength, func(c rules.Checks) bool { return FormatHashWith(c, ReferenceFormatArtifact()) != ref }},
		{MutSpecFinalLFLastByte, func(c rules.Checks) bool { return verifies(c, artOf([]byte("spec\n\n"))) }},
		{MutSpecBOMAnywhere, func(c rules.Checks) bool { return !verifies(c, artOf([]byte("sp\ufeffec\n"))) }},
		{manifest.MutDotPrefix, func(c rules.Checks) bool {
			_, err := manifest.BuildWith(c, map[string][]byte{"a/.hidden": nil})
			return err != nil
		}},
	}
	for _, tc := range tests {
		if tc.run(std) {
			t.Errorf("%s: mistaken without the mutant", tc.mutant)
		}
		if !tc.run(faults(tc.mutant)) {
			t.Errorf("%s: no mistake with the mutant switched on", tc.mutant)
		}
	}
}
