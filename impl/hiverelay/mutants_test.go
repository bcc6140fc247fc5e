package hiverelay

import (
	"testing"

	"github.com/threespec/conformance/impl/manifest"
	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/internal/fault"
)

// Each named mutant of this package and of the manifest framing makes its
// mistake (the run returns true), and only under fault injection. The
// primitives' mutants are tested in package cenc.
func TestMutants(t *testing.T) {
	decodes := func(schema string, class uint8, b []byte) bool {
		_, _, err := Decode(schema, class, b)
		return err == nil
	}
	verifies := func(b []byte) bool { _, err := VerifyFormatArtifact(b); return err == nil }
	oneRelay := [][]byte{rcapB(fill(0x11), key(0), 1, nil), rcapB(fill(0x11), key(1), 1, nil)}
	ref := FormatHash(ReferenceFormatArtifact())
	tests := []struct {
		mutant rules.ID
		run    func() bool
	}{
		{MutBlobClassFromLength, func() bool { return decodes(SchemaCellBlobV1, 1, blobB(ClassLength(2))) }},
		{MutSizeClass6, func() bool { return decodes(SchemaReadCellCapV1, 0, rcapB(fill(0x11), fill(0x22), 6, nil)) }},
		{MutKeysAdjacentOnly, func() bool {
			return decodes(SchemaWriteCellCapV1, 0, wcapB(stdWcap[:99], 9, fill(1), fill(2), fill(1)))
		}},
		{MutCapsByRelayKey, func() bool { return !decodes(SchemaOpaqueChainCheckpointV1, 0, ckptB(frontierN(1), oneRelay)) }},
		{MutFrontier1025, func() bool {
			return decodes(SchemaOpaqueChainCheckpointV1, 0, ckptB(frontierN(MaxFrontierEntries+1), capsN(1)))
		}},
		{MutPayload262145, func() bool {
			return decodes(SchemaOpaqueChainFrameV1, 0, stdFrame().with(func(f *frameParts) { f.payloads = [][]byte{fillN(1, MaxPayloadLength+1)} }))
		}},
		{MutPayloadRequired, func() bool {
			return !decodes(SchemaOpaqueChainFrameV1, 0, stdFrame().with(func(f *frameParts) { f.seq, f.prev, f.payloads, f.ckpt = 1, fill(0x34), nil, stdCkpt }))
		}},
		{MutHashWithoutLength, func() bool { return FormatHash(ReferenceFormatArtifact()) != ref }},
		{MutSpecFinalLFLastByte, func() bool { return verifies(artOf([]byte("spec\n\n"))) }},
		{MutSpecBOMAtStartOnly, func() bool { return verifies(artOf([]byte("sp\ufeffec\n"))) }},
		{manifest.MutDotPrefix, func() bool { _, err := manifest.Build(map[string][]byte{"a/.hidden": nil}); return err != nil }},
	}
	for _, tc := range tests {
		if tc.run() {
			t.Errorf("%s: mistaken without the mutant", tc.mutant)
		}
		restore := fault.SetGlobal(string(tc.mutant))
		mistaken := tc.run()
		restore()
		if !mistaken {
			t.Errorf("%s: no mistake with the mutant switched on", tc.mutant)
		}
	}
}
