package hiverelay

import (
	"bytes"
	"errors"
	"testing"

	"github.com/threespec/conformance/impl/cenc"
	"github.com/threespec/conformance/impl/rules"
)

// Accepted inputs: every positive shape of section 3, including each
// boundary the spec names.
type acceptCase struct {
	name   string
	schema string
	class  uint8
	in     []byte
}

func acceptCases() []acceptCase {
	bigPayload := fillN(0x99, MaxPayloadLength)
	cases := []acceptCase{
		{"ReadCellCapV1 with expected hash", SchemaReadCellCapV1, 0, stdRcap},
		{"ReadCellCapV1 without expected hash", SchemaReadCellCapV1, 0, rcapB(fill(0x11), fill(0x22), 5, nil)},
		{"ReadCellCapV1 size class 1", SchemaReadCellCapV1, 0, rcapB(fill(0x11), fill(0x22), 1, nil)},
		{"ReadCellCapV1 keys with one nonzero byte", SchemaReadCellCapV1, 0, rcapB(cat(fillN(0, 31), b1(1)), cat(b1(1), fillN(0, 31)), 3, cat(fillN(0, 16), b1(0x80), fillN(0, 15)))},
		{"WriteCellCapV1", SchemaWriteCellCapV1, 0, stdWcap},
		{"WriteCellCapV1 with expected hash, max epoch", SchemaWriteCellCapV1, 0, wcapB(stdRcap, 0xffffffff, fill(1), fill(2), fill(3))},
		{"checkpoint, 1 entry, 1 cap", SchemaOpaqueChainCheckpointV1, 0, ckptB(frontierN(1), capsN(1))},
		{"checkpoint, 2 entries, 2 caps", SchemaOpaqueChainCheckpointV1, 0, stdCkpt},
		{"checkpoint, 1024 entries, 16 caps", SchemaOpaqueChainCheckpointV1, 0, ckptB(frontierN(MaxFrontierEntries), capsN(MaxSnapshotCaps))},
		{"checkpoint, caps with one relay key sorted by slot", SchemaOpaqueChainCheckpointV1, 0, ckptB(frontierN(1), [][]byte{rcapB(fill(0x11), key(0), 1, nil), rcapB(fill(0x11), key(1), 1, nil)})},
		{"frame genesis, one payload", SchemaOpaqueChainFrameV1, 0, stdFrame().bytes()},
		{"frame genesis, one empty payload", SchemaOpaqueChainFrameV1, 0, stdFrame().with(func(f *frameParts) { f.payloads = [][]byte{{}} })},
		{"frame successor with checkpoint only", SchemaOpaqueChainFrameV1, 0, stdFrame().with(func(f *frameParts) {
			f.seq, f.prev, f.payloads, f.ckpt = 1, fill(0x34), nil, stdCkpt
		})},
		{"frame successor, zero previous hash (not marked nonzero)", SchemaOpaqueChainFrameV1, 0, stdFrame().with(func(f *frameParts) { f.seq, f.prev = 1, fill(0) })},
		{"frame at max sequence", SchemaOpaqueChainFrameV1, 0, stdFrame().with(func(f *frameParts) { f.seq, f.prev = ^uint64(0), fill(0x34) })},
		{"frame with payloads, caps and checkpoint", SchemaOpaqueChainFrameV1, 0, stdFrame().with(func(f *frameParts) {
			f.payloads = [][]byte{{}, fillN(7, 252), fillN(8, 253)}
			f.caps, f.ckpt = capsN(3), stdCkpt
		})},
		{"frame, 256 payloads", SchemaOpaqueChainFrameV1, 0, stdFrame().with(func(f *frameParts) { f.payloads = make([][]byte, MaxPayloads) })},
		{"frame, 262144-byte payload", SchemaOpaqueChainFrameV1, 0, stdFrame().with(func(f *frameParts) { f.payloads = [][]byte{bigPayload} })},
		{"frame, 16 next caps", SchemaOpaqueChainFrameV1, 0, stdFrame().with(func(f *frameParts) { f.caps = capsN(MaxNextCaps) })},
		{"BlindCoreReadCapV1", SchemaBlindCoreReadCapV1, 0, stdBcore},
		{"BlindCoreReadCapV1, 1-byte head", SchemaBlindCoreReadCapV1, 0, bcoreB(fill(0x41), fill(0x42), 0, 0, b1(0))},
		{"BlindCoreReadCapV1, 4096-byte head", SchemaBlindCoreReadCapV1, 0, bcoreB(fill(0x41), fill(0x42), ^uint64(0), ^uint64(0), fillN(0xee, MaxSignedHead))},
	}
	for c := uint8(1); c <= NumClasses; c++ {
		cases = append(cases, acceptCase{"CellBlobV1 class " + string(rune('0'+c)), SchemaCellBlobV1, c, blobB(ClassLength(c))})
	}
	return cases
}

func TestClassLengths(t *testing.T) {
	t.Parallel()
	want := map[uint8]int{0: 0, 1: 4096, 2: 16384, 3: 65536, 4: 262144, 5: 1048576, 6: 0, 255: 0}
	for c, n := range want {
		if got := ClassLength(c); got != n {
			t.Errorf("ClassLength(%d) = %d, want %d", c, got, n)
		}
	}
}

func TestAcceptAndRoundTrip(t *testing.T) {
	t.Parallel()
	for _, tc := range acceptCases() {
		t.Run(tc.name, func(t *testing.T) {
			v, re, err := Decode(tc.schema, tc.class, tc.in)
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if !bytes.Equal(re, tc.in) {
				t.Fatalf("re-encoding differs from the input (%d vs %d bytes)", len(re), len(tc.in))
			}
			if v == nil {
				t.Fatal("no value")
			}
		})
	}
}

// Decoded fields land where the layouts of section 3 put them.
func TestDecodedFields(t *testing.T) {
	t.Parallel()
	rc, err := DecodeReadCellCapV1(stdRcap)
	if err != nil || !bytes.Equal(rc.RelayPublicKey[:], fill(0x11)) || !bytes.Equal(rc.StorageSlot[:], fill(0x22)) ||
		!bytes.Equal(rc.CellKey[:], fill(0xcc)) || rc.SizeClass != 2 || rc.ExpectedCellBlobHash == nil || !bytes.Equal(rc.ExpectedCellBlobHash[:], fill(0x44)) {
		t.Fatalf("ReadCellCapV1 = %+v, %v", rc, err)
	}
	wc, err := DecodeWriteCellCapV1(stdWcap)
	if err != nil || wc.AllocationEpoch != 9 || wc.ReadCap.SizeClass != 1 || wc.ReadCap.ExpectedCellBlobHash != nil ||
		wc.CreatePrivateKey[0] != 0xa1 || wc.RenewPrivateKey[0] != 0xa2 || wc.DropPrivateKey[31] != 0xa3 {
		t.Fatalf("WriteCellCapV1 = %+v, %v", wc, err)
	}
	cp, err := DecodeOpaqueChainCheckpointV1(stdCkpt)
	if err != nil || len(cp.CoveredFrontier) != 2 || cp.CoveredFrontier[1].Sequence != 1 || !bytes.Equal(cp.CoveredFrontier[1].ChainID[:], key(1)) ||
		cp.OpaqueStateCommitment[0] != 0x66 || cp.SnapshotPayloadHash[0] != 0x77 || len(cp.SnapshotReadCaps) != 2 {
		t.Fatalf("checkpoint = %+v, %v", cp, err)
	}
	fr, err := DecodeOpaqueChainFrameV1(stdFrame().with(func(f *frameParts) { f.seq, f.prev, f.caps, f.ckpt = 5, fill(0x34), capsN(1), stdCkpt }))
	if err != nil || fr.Sequence != 5 || fr.PreviousFrameHash[0] != 0x34 || fr.TransportVerifyKey[0] != 0x32 || string(fr.OpaquePayloads[0]) != "hello" ||
		len(fr.NextReadCellCaps) != 1 || fr.Checkpoint == nil || fr.TransportSignature[63] != 0x33 {
		t.Fatalf("frame = %+v, %v", fr, err)
	}
	bc, err := DecodeBlindCoreReadCapV1(stdBcore)
	if err != nil || bc.CorePublicKey[0] != 0x41 || bc.BlockEncryptionKey[0] != 0x42 || bc.WitnessedFork != 2 || bc.WitnessedLength != 77 || string(bc.WitnessedSignedHead) != "signed head" {
		t.Fatalf("BlindCoreReadCapV1 = %+v, %v", bc, err)
	}
	bl, err := DecodeCellBlobV1(blobB(4096), 1)
	if err != nil || bl.Class != 1 || bl.Nonce[11] != 0x0a || len(bl.Sealed) != 4096-13 || bl.Sealed[0] != 0x5e {
		t.Fatalf("CellBlobV1 = class %d nonce %x sealed %d, %v", bl.Class, bl.Nonce, len(bl.Sealed), err)
	}
}

// Rejected inputs: each failure condition of sections 2 and 3.
type rejectCase struct {
	name   string
	schema string
	class  uint8
	in     []byte
	rule   rules.ID
	off    int64  // byte offset of the violation
	field  string // the detail starts with this field path
}

func codecRejectCases() []rejectCase {
	const rc, wc, bl, cp, fr, bc = SchemaReadCellCapV1, SchemaWriteCellCapV1, SchemaCellBlobV1, SchemaOpaqueChainCheckpointV1, SchemaOpaqueChainFrameV1, SchemaBlindCoreReadCapV1
	// Offsets in stdCkpt (one-byte counts): frontier at 2, commitments after.
	ckptCommit := int64(2 + 2*frontierLen)
	frameAfterPrev := int64(framePrevOff + 1) // vkey of a frame without previous hash
	frameCapsCount := frameAfterPrev + 32 + 1 + 1 + 5
	cases := []rejectCase{
		// ReadCellCapV1.
		{"rcap version 0", rc, 0, cat(b1(0), stdRcap[1:]), cenc.RuleUnknownVersion, 0, "version"},
		{"rcap version 2", rc, 0, cat(b1(2), stdRcap[1:]), cenc.RuleUnknownVersion, 0, "version"},
		{"rcap zero relay key", rc, 0, rcapB(fill(0), fill(0x22), 2, nil), RuleRCapRelayKey, 1, "relayPublicKey"},
		{"rcap zero storage slot", rc, 0, rcapB(fill(0x11), fill(0), 2, nil), RuleRCapStorageSlot, 33, "storageSlot"},
		{"rcap zero cell key", rc, 0, cat(stdRcap[:65], fill(0), stdRcap[97:]), RuleRCapCellKey, 65, "cellKey"},
		{"rcap size class 0", rc, 0, rcapB(fill(0x11), fill(0x22), 0, nil), RuleRCapSizeClass, 97, "sizeClass"},
		{"rcap size class 6", rc, 0, rcapB(fill(0x11), fill(0x22), 6, nil), RuleRCapSizeClass, 97, "sizeClass"},
		{"rcap size class 255", rc, 0, rcapB(fill(0x11), fill(0x22), 255, nil), RuleRCapSizeClass, 97, "sizeClass"},
		{"rcap optional tag 2", rc, 0, cat(stdRcap[:98], b1(2), fill(0x44)), cenc.RuleOptionalTag, 98, "expectedCellBlobHash"},
		{"rcap optional tag 0xff", rc, 0, cat(stdRcap[:98], b1(0xff)), cenc.RuleOptionalTag, 98, "expectedCellBlobHash"},
		{"rcap zero expected hash", rc, 0, rcapB(fill(0x11), fill(0x22), 2, fill(0)), RuleRCapExpectedHash, 99, "expectedCellBlobHash"},
		{"rcap empty", rc, 0, nil, cenc.RuleTruncated, 0, "version"},
		{"rcap truncated in relay key", rc, 0, stdRcap[:20], cenc.RuleTruncated, 1, "relayPublicKey"},
		{"rcap truncated before tag", rc, 0, stdRcap[:98], cenc.RuleTruncated, 98, "expectedCellBlobHash"},
		{"rcap truncated in expected hash", rc, 0, stdRcap[:130], cenc.RuleTruncated, 99, "expectedCellBlobHash"},
		{"rcap absent hash, then 32 bytes", rc, 0, cat(stdRcap[:98], b1(0), fill(0x44)), cenc.RuleTrailing, 99, "end"},
		{"rcap trailing byte", rc, 0, cat(stdRcap, b1(0)), cenc.RuleTrailing, 131, "end"},

		// WriteCellCapV1.
		{"wcap invalid read cap", wc, 0, wcapB(rcapB(fill(0x11), fill(0), 1, nil), 9, fill(1), fill(2), fill(3)), RuleRCapStorageSlot, 33, "readCap.storageSlot"},
		{"wcap read cap version 3", wc, 0, cat(b1(3), stdWcap[1:]), cenc.RuleUnknownVersion, 0, "readCap.version"},
		{"wcap zero create key", wc, 0, wcapB(stdWcap[:99], 9, fill(0), fill(2), fill(3)), RuleWCapCreateKey, 103, "createPrivateKey"},
		{"wcap zero renew key", wc, 0, wcapB(stdWcap[:99], 9, fill(1), fill(0), fill(3)), RuleWCapRenewKey, 135, "renewPrivateKey"},
		{"wcap zero drop key", wc, 0, wcapB(stdWcap[:99], 9, fill(1), fill(2), fill(0)), RuleWCapDropKey, 167, "dropPrivateKey"},
		{"wcap create = renew", wc, 0, wcapB(stdWcap[:99], 9, fill(1), fill(1), fill(3)), RuleWCapDistinct, 135, "renewPrivateKey"},
		{"wcap create = drop", wc, 0, wcapB(stdWcap[:99], 9, fill(1), fill(2), fill(1)), RuleWCapDistinct, 167, "dropPrivateKey"},
		{"wcap renew = drop", wc, 0, wcapB(stdWcap[:99], 9, fill(1), fill(2), fill(2)), RuleWCapDistinct, 167, "dropPrivateKey"},
		{"wcap all three equal", wc, 0, wcapB(stdWcap[:99], 9, fill(1), fill(1), fill(1)), RuleWCapDistinct, 135, "renewPrivateKey"},
		{"wcap truncated epoch", wc, 0, stdWcap[:101], cenc.RuleTruncated, 99, "allocationEpoch"},
		{"wcap truncated drop key", wc, 0, stdWcap[:198], cenc.RuleTruncated, 167, "dropPrivateKey"},
		{"wcap trailing", wc, 0, cat(stdWcap, b1(1)), cenc.RuleTrailing, 199, "end"},

		// CellBlobV1.
		{"blob class 0", bl, 0, blobB(4096), RuleBlobClassSelect, -1, "class"},
		{"blob class 6", bl, 6, blobB(4096), RuleBlobClassSelect, -1, "class"},
		{"blob class 1 empty", bl, 1, nil, RuleBlobShort, 0, "blob"},
		{"blob class 1, 4095 bytes", bl, 1, blobB(4095), RuleBlobShort, 4095, "blob"},
		{"blob class 1, 4097 bytes", bl, 1, blobB(4097), RuleBlobLong, 4096, "blob"},
		{"blob class 5, 1048575 bytes", bl, 5, blobB(1048575), RuleBlobShort, 1048575, "blob"},
		{"blob class 5, 1048577 bytes", bl, 5, blobB(1048577), RuleBlobLong, 1048576, "blob"},
		{"blob class 3, 13 bytes", bl, 3, blobB(13), RuleBlobShort, 13, "blob"},
		{"blob version 0", bl, 1, cat(b1(0), blobB(4096)[1:]), cenc.RuleUnknownVersion, 0, "formatVersion"},
		{"blob version 2", bl, 2, cat(b1(2), blobB(16384)[1:]), cenc.RuleUnknownVersion, 0, "formatVersion"},

		// OpaqueChainCheckpointV1.
		{"ckpt version 0", cp, 0, cat(b1(0), stdCkpt[1:]), cenc.RuleUnknownVersion, 0, "version"},
		{"ckpt empty frontier", cp, 0, ckptB(nil, capsN(1)), RuleCkptFrontierCount, 1, "coveredFrontier"},
		{"ckpt 1025 frontier entries", cp, 0, ckptB(frontierN(MaxFrontierEntries+1), capsN(1)), RuleCkptFrontierCount, 1, "coveredFrontier"},
		{"ckpt frontier count overlong", cp, 0, cat(b1(1), []byte{0xfd, 2, 0}, join(frontierN(2)), stdCkpt[2+2*frontierLen:]), cenc.RuleCompactOverlong, 1, "coveredFrontier"},
		{"ckpt frontier count beyond input", cp, 0, cat(b1(1), cu(1000), join(frontierN(2))), cenc.RuleTruncated, 4, "coveredFrontier"},
		{"ckpt frontier count 2^53", cp, 0, cat(b1(1), []byte{0xff, 0, 0, 0, 0, 0, 0, 0x20, 0}, join(frontierN(2))), cenc.RuleCompactSafe, 1, "coveredFrontier"},
		{"ckpt unsorted frontier", cp, 0, ckptB([][]byte{frontierB(1), frontierB(0)}, capsN(1)), RuleCkptFrontierOrder, 2 + frontierLen, "coveredFrontier[1].chainId"},
		{"ckpt duplicate chain id", cp, 0, ckptB([][]byte{frontierB(0), cat(key(0), u64be(9), fill(0x56))}, capsN(1)), RuleCkptFrontierDup, 2 + frontierLen, "coveredFrontier[1].chainId"},
		{"ckpt zero chain id", cp, 0, ckptB([][]byte{cat(fill(0), u64be(0), fill(0x55))}, capsN(1)), RuleCkptChainID, 2, "coveredFrontier[0].chainId"},
		{"ckpt zero frame hash", cp, 0, ckptB([][]byte{frontierB(0), cat(key(1), u64be(1), fill(0))}, capsN(1)), RuleCkptFrameHash, 2 + frontierLen + 40, "coveredFrontier[1].frameHash"},
		{"ckpt zero state commitment", cp, 0, cat(stdCkpt[:ckptCommit], fill(0), stdCkpt[ckptCommit+32:]), RuleCkptStateCommit, ckptCommit, "opaqueStateCommitment"},
		{"ckpt zero payload hash", cp, 0, cat(stdCkpt[:ckptCommit+32], fill(0), stdCkpt[ckptCommit+64:]), RuleCkptPayloadHash, ckptCommit + 32, "snapshotPayloadHash"},
		{"ckpt no snapshot caps", cp, 0, ckptB(frontierN(2), nil), RuleCkptCapsCount, ckptCommit + 64, "snapshotReadCaps"},
		{"ckpt 17 snapshot caps", cp, 0, ckptB(frontierN(2), capsN(MaxSnapshotCaps+1)), RuleCkptCapsCount, ckptCommit + 64, "snapshotReadCaps"},
		{"ckpt caps unsorted by relay key", cp, 0, ckptB(frontierN(1), [][]byte{rcapB(key(1), fill(1), 1, nil), rcapB(key(0), fill(9), 1, nil)}), RuleCkptCapsOrder, 2 + frontierLen + 64 + 1 + 99 + 1, "snapshotReadCaps[1].(relayPublicKey, storageSlot)"},
		{"ckpt caps unsorted by slot", cp, 0, ckptB(frontierN(1), [][]byte{rcapB(fill(0x11), key(1), 1, nil), rcapB(fill(0x11), key(0), 1, nil)}), RuleCkptCapsOrder, 2 + frontierLen + 64 + 1 + 99 + 1, "snapshotReadCaps[1]"},
		{"ckpt caps duplicate (relay, slot)", cp, 0, ckptB(frontierN(1), [][]byte{rcapB(fill(0x11), key(0), 1, nil), rcapB(fill(0x11), key(0), 2, fill(3))}), RuleCkptCapsDuplicate, 2 + frontierLen + 64 + 1 + 99 + 1, "snapshotReadCaps[1]"},
		{"ckpt invalid snapshot cap", cp, 0, ckptB(frontierN(1), [][]byte{rcapB(fill(0x11), fill(0x22), 9, nil)}), RuleRCapSizeClass, 2 + frontierLen + 64 + 1 + 97, "snapshotReadCaps[0].sizeClass"},
		{"ckpt caps count needs more bytes than remain", cp, 0, stdCkpt[:len(stdCkpt)-1], cenc.RuleTruncated, ckptCommit + 65, "snapshotReadCaps"},
		{"ckpt truncated in a cap", cp, 0, ckptTwoHashCaps[:len(ckptTwoHashCaps)-1], cenc.RuleTruncated, int64(len(ckptTwoHashCaps) - 32), "snapshotReadCaps[1].expectedCellBlobHash"},
		{"ckpt caps count beyond input", cp, 0, ckptB(frontierN(1), capsN(1))[:2+frontierLen+64+1], cenc.RuleTruncated, 2 + frontierLen + 64 + 1, "snapshotReadCaps"},
		{"ckpt trailing", cp, 0, cat(stdCkpt, b1(0)), cenc.RuleTrailing, int64(len(stdCkpt)), "end"},

		// OpaqueChainFrameV1.
		{"frame version 9", fr, 0, cat(b1(9), stdFrame().bytes()[1:]), cenc.RuleUnknownVersion, 0, "version"},
		{"frame zero chain id", fr, 0, stdFrame().with(func(f *frameParts) { f.chain = fill(0) }), RuleFrameChainID, 1, "chainId"},
		{"frame sequence 0 with previous hash", fr, 0, stdFrame().with(func(f *frameParts) { f.prev = fill(0x34) }), RuleFrameGenesisNoPrev, framePrevOff, "previousFrameHash"},
		{"frame sequence 1 without previous hash", fr, 0, stdFrame().with(func(f *frameParts) { f.seq = 1 }), RuleFrameSuccessorPrev, framePrevOff, "previousFrameHash"},
		{"frame sequence 2^64-1 without previous hash", fr, 0, stdFrame().with(func(f *frameParts) { f.seq = ^uint64(0) }), RuleFrameSuccessorPrev, framePrevOff, "previousFrameHash"},
		{"frame previous hash tag 2", fr, 0, cat(stdFrame().bytes()[:framePrevOff], b1(2)), cenc.RuleOptionalTag, framePrevOff, "previousFrameHash"},
		{"frame zero verify key", fr, 0, stdFrame().with(func(f *frameParts) { f.vkey = fill(0) }), RuleFrameVerifyKey, frameAfterPrev, "transportVerifyKey"},
		{"frame 257 payloads", fr, 0, stdFrame().with(func(f *frameParts) { f.payloads = make([][]byte, MaxPayloads+1) }), RuleFramePayloadCount, frameAfterPrev + 32, "opaquePayloads"},
		{"frame 262145-byte payload", fr, 0, stdFrame().with(func(f *frameParts) { f.payloads = [][]byte{{}, fillN(1, MaxPayloadLength+1)} }), RuleFramePayloadLength, frameAfterPrev + 32 + 2, "opaquePayloads[1]"},
		{"frame payload count above 256, input short", fr, 0, cat(stdFrame().bytes()[:frameAfterPrev+32], cu(1<<20), b1(0)), RuleFramePayloadCount, frameAfterPrev + 32, "opaquePayloads"},
		{"frame payload count beyond input", fr, 0, cat(stdFrame().bytes()[:frameAfterPrev+32], cu(200), b1(0)), cenc.RuleTruncated, frameAfterPrev + 33, "opaquePayloads"},
		{"frame payload length beyond input", fr, 0, cat(stdFrame().bytes()[:frameAfterPrev+32], cu(1), cu(100), fillN(1, 10)), cenc.RuleTruncated, frameAfterPrev + 32 + 2, "opaquePayloads[0]"},
		{"frame payload length overlong", fr, 0, cat(stdFrame().bytes()[:frameAfterPrev+32], cu(1), []byte{0xfe, 5, 0, 0, 0}, []byte("hello")), cenc.RuleCompactOverlong, frameAfterPrev + 33, "opaquePayloads[0]"},
		{"frame 17 next caps", fr, 0, stdFrame().with(func(f *frameParts) { f.caps = capsN(MaxNextCaps + 1) }), RuleFrameCapsCount, frameCapsCount, "nextReadCellCaps"},
		{"frame next caps unsorted", fr, 0, stdFrame().with(func(f *frameParts) { f.caps = [][]byte{capsN(2)[1], capsN(2)[0]} }), RuleFrameCapsOrder, frameCapsCount + 1 + 99 + 1, "nextReadCellCaps[1]"},
		{"frame next caps duplicate", fr, 0, stdFrame().with(func(f *frameParts) { f.caps = [][]byte{capsN(1)[0], capsN(1)[0]} }), RuleFrameCapsDuplicate, frameCapsCount + 1 + 99 + 1, "nextReadCellCaps[1]"},
		{"frame invalid next cap", fr, 0, stdFrame().with(func(f *frameParts) { f.caps = [][]byte{rcapB(fill(1), fill(0), 1, nil)} }), RuleRCapStorageSlot, frameCapsCount + 1 + 33, "nextReadCellCaps[0].storageSlot"},
		{"frame no payload, no checkpoint", fr, 0, stdFrame().with(func(f *frameParts) { f.payloads = nil }), RuleFrameNotEmpty, frameAfterPrev + 32 + 1 + 1, "checkpoint"},
		{"frame checkpoint tag 2", fr, 0, cat(stdFrame().bytes()[:frameCapsCount+1], b1(2)), cenc.RuleOptionalTag, frameCapsCount + 1, "checkpoint"},
		{"frame invalid checkpoint", fr, 0, stdFrame().with(func(f *frameParts) { f.ckpt = ckptB([][]byte{frontierB(1), frontierB(0)}, capsN(1)) }), RuleCkptFrontierOrder, frameCapsCount + 2 + 2 + frontierLen, "checkpoint.coveredFrontier[1].chainId"},
		{"frame truncated signature", fr, 0, stdFrame().bytes()[:frameCapsCount+2+63], cenc.RuleTruncated, frameCapsCount + 2, "transportSignature"},
		{"frame trailing", fr, 0, cat(stdFrame().bytes(), b1(0)), cenc.RuleTrailing, frameCapsCount + 2 + 64, "end"},

		// BlindCoreReadCapV1.
		{"bcore version 0", bc, 0, cat(b1(0), stdBcore[1:]), cenc.RuleUnknownVersion, 0, "version"},
		{"bcore zero core key", bc, 0, bcoreB(fill(0), fill(0x42), 2, 77, []byte("h")), RuleCorePublicKey, 1, "corePublicKey"},
		{"bcore zero block key", bc, 0, bcoreB(fill(0x41), fill(0), 2, 77, []byte("h")), RuleCoreBlockKey, 33, "blockEncryptionKey"},
		{"bcore empty head", bc, 0, bcoreB(fill(0x41), fill(0x42), 2, 77, nil), RuleCoreHeadLength, 81, "witnessedSignedHead"},
		{"bcore 4097-byte head", bc, 0, bcoreB(fill(0x41), fill(0x42), 2, 77, fillN(1, MaxSignedHead+1)), RuleCoreHeadLength, 81, "witnessedSignedHead"},
		{"bcore head length overlong", bc, 0, cat(stdBcore[:81], []byte{0xfd, 11, 0}, []byte("signed head")), cenc.RuleCompactOverlong, 81, "witnessedSignedHead"},
		{"bcore head beyond input", bc, 0, stdBcore[:len(stdBcore)-1], cenc.RuleTruncated, 82, "witnessedSignedHead"},
		{"bcore truncated length", bc, 0, stdBcore[:75], cenc.RuleTruncated, 73, "witnessedLength"},
		{"bcore trailing", bc, 0, cat(stdBcore, b1(0)), cenc.RuleTrailing, int64(len(stdBcore)), "end"},
	}
	// Every class decoded as every other class: the wrong class fails closed.
	for c := uint8(1); c <= NumClasses; c++ {
		for w := uint8(1); w <= NumClasses; w++ {
			if w != c {
				cases = append(cases, rejectCase{"blob of class " + string(rune('0'+c)) + " decoded as class " + string(rune('0'+w)),
					bl, w, blobB(ClassLength(c)), RuleBlobWrongClass, 0, "blob"})
			}
		}
	}
	return cases
}

var ckptTwoHashCaps = ckptB(frontierN(2), [][]byte{rcapB(key(0), fill(1), 1, fill(2)), rcapB(key(1), fill(1), 1, fill(2))})

func TestRejects(t *testing.T) {
	t.Parallel()
	for _, tc := range codecRejectCases() {
		t.Run(tc.name, func(t *testing.T) {
			v, re, err := Decode(tc.schema, tc.class, tc.in)
			if v != nil || re != nil {
				t.Fatal("a rejected input must give no value and no re-encoding")
			}
			wantViolation(t, err, tc.rule, tc.off, tc.field)
		})
	}
}

// Under fault injection of the rule a case names, decoding carries on
// without panicking (and either accepts, or rejects with another rule).
func TestRejectsCarryOnUnderFault(t *testing.T) {
	t.Parallel()
	for _, tc := range codecRejectCases() {
		_, _, err := DecodeWith(faults(tc.rule), tc.schema, tc.class, tc.in)
		if rules.RuleOf(err) == tc.rule {
			t.Errorf("%s: %s still reported with the rule switched off", tc.name, tc.rule)
		}
	}
}

func TestDecodeUnknownSchema(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "readcellcapv1", "ReadCellCapV2", "RelayWireV1"} {
		if _, _, err := Decode(s, 0, stdRcap); !errors.Is(err, ErrUnknownSchema) {
			t.Errorf("Decode(%q) = %v", s, err)
		}
	}
}

// Encoders refuse values that break an invariant, with the decoder's rule.
func TestEncodeRefusesInvalidValues(t *testing.T) {
	t.Parallel()
	rc := ReadCellCapV1{RelayPublicKey: [32]byte{1}, StorageSlot: [32]byte{2}, CellKey: [32]byte{3}, SizeClass: 1}
	ok := func(b []byte, err error) []byte {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	ok(rc.Encode())
	check := func(name string, err error, want rules.ID) {
		t.Helper()
		if rules.RuleOf(err) != want {
			t.Errorf("%s: Encode = %v, want %s", name, err, want)
		}
	}
	bad := rc
	bad.SizeClass = 0
	_, err := bad.Encode()
	check("size class 0", err, RuleRCapSizeClass)
	bad = rc
	bad.ExpectedCellBlobHash = &[32]byte{}
	_, err = bad.Encode()
	check("zero expected hash", err, RuleRCapExpectedHash)

	wc := WriteCellCapV1{ReadCap: rc, CreatePrivateKey: [32]byte{1}, RenewPrivateKey: [32]byte{1}, DropPrivateKey: [32]byte{2}}
	_, err = wc.Encode()
	check("equal private keys", err, RuleWCapDistinct)

	blob := CellBlobV1{Class: 2, Sealed: make([]byte, 16384-13)}
	ok(blob.Encode())
	blob.Sealed = blob.Sealed[1:]
	_, err = blob.Encode()
	check("short sealed", err, RuleBlobShort)
	blob = CellBlobV1{Class: 1, Sealed: make([]byte, 16384-13)}
	_, err = blob.Encode()
	check("class 2 length for class 1", err, RuleBlobWrongClass)

	fe := func(i byte) FrontierEntry { return FrontierEntry{ChainID: [32]byte{i}, FrameHash: [32]byte{1}} }
	cp := OpaqueChainCheckpointV1{CoveredFrontier: []FrontierEntry{fe(2), fe(1)}, OpaqueStateCommitment: [32]byte{1}, SnapshotPayloadHash: [32]byte{1}, SnapshotReadCaps: []ReadCellCapV1{rc}}
	_, err = cp.Encode()
	check("unsorted frontier", err, RuleCkptFrontierOrder)
	cp.CoveredFrontier = []FrontierEntry{fe(1), fe(2)}
	ok(cp.Encode())
	cp.SnapshotReadCaps = nil
	_, err = cp.Encode()
	check("no snapshot caps", err, RuleCkptCapsCount)

	fr := OpaqueChainFrameV1{ChainID: [32]byte{1}, Sequence: 1, TransportVerifyKey: [32]byte{1}, OpaquePayloads: [][]byte{nil}}
	_, err = fr.Encode()
	check("successor without previous hash", err, RuleFrameSuccessorPrev)
	fr.PreviousFrameHash = &[32]byte{}
	ok(fr.Encode())
	fr.OpaquePayloads = nil
	_, err = fr.Encode()
	check("empty frame", err, RuleFrameNotEmpty)
	fr.Checkpoint = &OpaqueChainCheckpointV1{CoveredFrontier: []FrontierEntry{fe(1)}, OpaqueStateCommitment: [32]byte{1}, SnapshotPayloadHash: [32]byte{1}, SnapshotReadCaps: []ReadCellCapV1{rc}}
	ok(fr.Encode())
	fr.NextReadCellCaps = []ReadCellCapV1{rc, rc}
	_, err = fr.Encode()
	check("duplicate next caps", err, RuleFrameCapsDuplicate)

	bc := BlindCoreReadCapV1{CorePublicKey: [32]byte{1}, BlockEncryptionKey: [32]byte{1}}
	_, err = bc.Encode()
	check("empty head", err, RuleCoreHeadLength)
	bc.WitnessedSignedHead = make([]byte, MaxSignedHead)
	ok(bc.Encode())
}

// A count far beyond the input fails before any allocation in proportion to it.
func TestHugeCountsFailBeforeAllocation(t *testing.T) {
	safeMax := []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x1f, 0}
	inputs := []struct {
		schema string
		in     []byte
	}{
		{SchemaOpaqueChainFrameV1, cat(stdFrame().bytes()[:frameAfterPrevOffset()+32], safeMax)},
		{SchemaOpaqueChainCheckpointV1, cat(b1(1), []byte{0xfd, 0, 4}, join(frontierN(3)))},
		{SchemaBlindCoreReadCapV1, cat(stdBcore[:81], []byte{0xfd, 0, 0x10})},
	}
	for _, in := range inputs {
		allocs := testing.AllocsPerRun(20, func() {
			if _, _, err := Decode(in.schema, 0, in.in); err == nil {
				t.Fatal("accepted")
			}
		})
		if allocs > 12 {
			t.Errorf("%s: %v allocations for a rejected count", in.schema, allocs)
		}
	}
}

func frameAfterPrevOffset() int { return framePrevOff + 1 }
