// Package hiverelay is the reference implementation of HiveRelay Blind Client
// Composition v1: the six client-owned record codecs of section 3, the schema
// catalog, the format artifact and its hash (section 4), the closed vector
// set, its manifest and hash (section 5), and the metadata artifact that
// publishes the authority's two-hash identity.
//
// Every rejection is a *rules.Violation with code BAD_ENCODING, the most
// specific rule ID of Catalog(), the byte offset where the offending field
// starts and a detail naming the field. Byte strings of decoded values alias
// the decoded input.
package hiverelay

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"fmt"

	"github.com/threespec/conformance/impl/cenc"
	"github.com/threespec/conformance/impl/rules"
)

// Schema names, in raw-ASCII order (section 1).
const (
	SchemaBlindCoreReadCapV1      = "BlindCoreReadCapV1"
	SchemaCellBlobV1              = "CellBlobV1"
	SchemaOpaqueChainCheckpointV1 = "OpaqueChainCheckpointV1"
	SchemaOpaqueChainFrameV1      = "OpaqueChainFrameV1"
	SchemaReadCellCapV1           = "ReadCellCapV1"
	SchemaWriteCellCapV1          = "WriteCellCapV1"
)

// Schemas lists the six schema names of the authority in raw-ASCII order;
// schema i+1's local ID is i+1 (section 1).
var Schemas = [6]string{
	SchemaBlindCoreReadCapV1,
	SchemaCellBlobV1,
	SchemaOpaqueChainCheckpointV1,
	SchemaOpaqueChainFrameV1,
	SchemaReadCellCapV1,
	SchemaWriteCellCapV1,
}

// Bounds of section 3.
const (
	MaxFrontierEntries = 1024
	MaxSnapshotCaps    = 16
	MaxPayloads        = 256
	MaxPayloadLength   = 262144
	MaxNextCaps        = 16
	MaxSignedHead      = 4096
	NumClasses         = 5
	blobHeader         = 1 + 12 // formatVersion, nonce
)

// ClassLength returns the exact total length of a CellBlobV1 of size class
// c (section 3), or 0 when c is not 1..5.
func ClassLength(c uint8) int {
	if c < 1 || c > NumClasses {
		return 0
	}
	return 4096 << (2 * (c - 1)) // 4096, 16384, 65536, 262144, 1048576
}

// Smallest encodings, for counts checked before allocation.
const (
	readCapMin  = 1 + 32 + 32 + 32 + 1 + 1
	frontierLen = 32 + 8 + 32
	payloadMin  = 1
)

// ReadCellCapV1 is a read capability for one relay cell (section 3). The
// version byte (1) is implied.
type ReadCellCapV1 struct {
	RelayPublicKey       [32]byte
	StorageSlot          [32]byte
	CellKey              [32]byte
	SizeClass            uint8     // 1..5
	ExpectedCellBlobHash *[32]byte // nil when absent
}

// WriteCellCapV1 adds write authority to a read capability (section 3).
type WriteCellCapV1 struct {
	ReadCap          ReadCellCapV1
	AllocationEpoch  uint32
	CreatePrivateKey [32]byte
	RenewPrivateKey  [32]byte
	DropPrivateKey   [32]byte
}

// CellBlobV1 is a sealed cell envelope (section 3). Class is context, never
// serialized: it is the already authenticated size class the blob is decoded
// with and must be encoded for; Sealed holds exactly ClassLength(Class)-13 bytes.
type CellBlobV1 struct {
	Class  uint8
	Nonce  [12]byte
	Sealed []byte
}

// FrontierEntry is one covered chain head of a checkpoint.
type FrontierEntry struct {
	ChainID   [32]byte
	Sequence  uint64
	FrameHash [32]byte
}

// OpaqueChainCheckpointV1 commits to a frontier of chains and a snapshot
// (section 3).
type OpaqueChainCheckpointV1 struct {
	CoveredFrontier       []FrontierEntry // 1..1024, strictly sorted by ChainID
	OpaqueStateCommitment [32]byte
	SnapshotPayloadHash   [32]byte
	SnapshotReadCaps      []ReadCellCapV1 // 1..16, strictly sorted by (RelayPublicKey, StorageSlot)
}

// OpaqueChainFrameV1 is one signed frame of an opaque chain (section 3).
type OpaqueChainFrameV1 struct {
	ChainID            [32]byte
	Sequence           uint64
	PreviousFrameHash  *[32]byte // nil exactly when Sequence is 0
	TransportVerifyKey [32]byte
	OpaquePayloads     [][]byte        // 0..256, each 0..262144 bytes
	NextReadCellCaps   []ReadCellCapV1 // 0..16, strictly sorted by (RelayPublicKey, StorageSlot)
	Checkpoint         *OpaqueChainCheckpointV1
	TransportSignature [64]byte
}

// BlindCoreReadCapV1 is a client's complete read capability for a blind core
// (section 3).
type BlindCoreReadCapV1 struct {
	CorePublicKey       [32]byte
	BlockEncryptionKey  [32]byte
	WitnessedFork       uint64
	WitnessedLength     uint64
	WitnessedSignedHead []byte // 1..4096 bytes
}

// Decoding.

// decodeAll decodes one complete record under c with dec and fails on
// trailing bytes (section 2, HR-CENC-12).
func decodeAll[T any](c rules.Checks, b []byte, dec func(*cenc.Decoder, *T) error) (T, error) {
	var v T
	d := cenc.NewDecoder(c, b)
	if err := dec(&d, &v); err != nil {
		var zero T
		return zero, err
	}
	if err := d.End(cenc.RuleTrailing); err != nil {
		var zero T
		return zero, err
	}
	return v, nil
}

// The six decoders below enforce every rule; DecodeWith carries a
// rules.Checks.

// DecodeReadCellCapV1 decodes a complete canonical ReadCellCapV1.
func DecodeReadCellCapV1(b []byte) (ReadCellCapV1, error) {
	return decodeAll(rules.Checks{}, b, decodeReadCap)
}

// DecodeWriteCellCapV1 decodes a complete canonical WriteCellCapV1.
func DecodeWriteCellCapV1(b []byte) (WriteCellCapV1, error) {
	return decodeAll(rules.Checks{}, b, decodeWriteCap)
}

// DecodeOpaqueChainCheckpointV1 decodes a complete canonical checkpoint.
func DecodeOpaqueChainCheckpointV1(b []byte) (OpaqueChainCheckpointV1, error) {
	return decodeAll(rules.Checks{}, b, decodeCheckpoint)
}

// DecodeOpaqueChainFrameV1 decodes a complete canonical frame.
func DecodeOpaqueChainFrameV1(b []byte) (OpaqueChainFrameV1, error) {
	return decodeAll(rules.Checks{}, b, decodeFrame)
}

// DecodeBlindCoreReadCapV1 decodes a complete canonical BlindCoreReadCapV1.
func DecodeBlindCoreReadCapV1(b []byte) (BlindCoreReadCapV1, error) {
	return decodeAll(rules.Checks{}, b, decodeBlindCore)
}

// DecodeCellBlobV1 decodes a CellBlobV1 with the already authenticated size
// class (section 3): the length must be exactly ClassLength(class).
func DecodeCellBlobV1(b []byte, class uint8) (CellBlobV1, error) {
	return decodeAll(rules.Checks{}, b, blobDecoder(class))
}

// blobDecoder is the decoder of a CellBlobV1 of the given class.
func blobDecoder(class uint8) func(*cenc.Decoder, *CellBlobV1) error {
	return func(d *cenc.Decoder, v *CellBlobV1) error { return decodeBlob(d, v, class) }
}

func decodeReadCap(d *cenc.Decoder, v *ReadCellCapV1) error {
	if err := d.Version("version", 1); err != nil {
		return err
	}
	// Section 3: the three mandatory byte strings are nonzero (HR-RCAP-03/04/05).
	if err := d.FixedNonzero("relayPublicKey", v.RelayPublicKey[:], RuleRCapRelayKey); err != nil {
		return err
	}
	if err := d.FixedNonzero("storageSlot", v.StorageSlot[:], RuleRCapStorageSlot); err != nil {
		return err
	}
	if err := d.FixedNonzero("cellKey", v.CellKey[:], RuleRCapCellKey); err != nil {
		return err
	}
	// Section 3, HR-RCAP-01: sizeClass, then the optional expected hash.
	// Under its fault injection the tag is read first.
	tagFirst := !d.Enforced(RuleRCapLayout)
	var present bool
	var err error
	if tagFirst {
		if present, err = d.Optional("expectedCellBlobHash"); err != nil {
			return err
		}
	}
	at := d.Offset()
	c, err := d.U8("sizeClass")
	if err != nil {
		return err
	}
	v.SizeClass = c
	maxClass := uint8(NumClasses)
	if d.Mutated(MutSizeClass6) {
		maxClass++
	}
	if (c < 1 || c > maxClass) && d.Rejects(RuleRCapSizeClass) {
		// Section 3, HR-RCAP-02: size class 1..5.
		return d.Fail(RuleRCapSizeClass, at, "sizeClass", "size class %d is outside 1..5", c)
	}
	if !tagFirst {
		if present, err = d.Optional("expectedCellBlobHash"); err != nil {
			return err
		}
	}
	if !present {
		return nil
	}
	v.ExpectedCellBlobHash = new([32]byte)
	// Section 3, HR-RCAP-06: a present expected hash is nonzero.
	return d.FixedNonzero("expectedCellBlobHash", v.ExpectedCellBlobHash[:], RuleRCapExpectedHash)
}

func decodeWriteCap(d *cenc.Decoder, v *WriteCellCapV1) error {
	// Section 3, HR-WCAP-01: the read capability, then allocationEpoch.
	// Under its fault injection the epoch is read first.
	epochFirst := !d.Enforced(RuleWCapLayout)
	var err error
	if epochFirst {
		if v.AllocationEpoch, err = d.U32("allocationEpoch"); err != nil {
			return err
		}
	}
	d.Enter("readCap", -1)
	if err := decodeReadCap(d, &v.ReadCap); err != nil {
		return err
	}
	d.Leave()
	if !epochFirst {
		if v.AllocationEpoch, err = d.U32("allocationEpoch"); err != nil {
			return err
		}
	}
	keys := [3]struct {
		name string
		dst  *[32]byte
		rule rules.ID
	}{
		{"createPrivateKey", &v.CreatePrivateKey, RuleWCapCreateKey},
		{"renewPrivateKey", &v.RenewPrivateKey, RuleWCapRenewKey},
		{"dropPrivateKey", &v.DropPrivateKey, RuleWCapDropKey},
	}
	for i, k := range keys {
		at := d.Offset()
		// Section 3, HR-WCAP-02/03/04: each private key is nonzero.
		if err := d.FixedNonzero(k.name, k.dst[:], k.rule); err != nil {
			return err
		}
		earlierKeys := keys[:i]
		if d.Mutated(MutKeysAdjacentOnly) && i > 0 {
			earlierKeys = keys[i-1 : i]
		}
		for _, earlier := range earlierKeys {
			if *earlier.dst == *k.dst && d.Rejects(RuleWCapDistinct) {
				// Section 3, HR-WCAP-05: the three keys are pairwise distinct.
				return d.Fail(RuleWCapDistinct, at, k.name, "equals %s; the three private keys must be pairwise distinct", earlier.name)
			}
		}
	}
	return nil
}

func decodeBlob(d *cenc.Decoder, v *CellBlobV1, class uint8) error {
	if c := classOfLength(d.Remaining()); d.Mutated(MutBlobClassFromLength) && c != 0 {
		class = c // the mistake: the length chooses the class
	}
	v.Class = class
	want := ClassLength(class)
	if want == 0 {
		// Section 3, HR-BLOB-01: the decoder is selected by an authenticated class 1..5.
		if d.Rejects(RuleBlobClassSelect) {
			return d.Fail(RuleBlobClassSelect, -1, "class", "size class %d is not an authenticated class 1..5", class)
		}
		want = d.Remaining() // carry on under fault injection: take what is there
	}
	switch n := d.Remaining(); {
	case n == want:
	case classOfLength(n) != 0:
		// Section 3, HR-BLOB-05: decoding with the wrong class fails closed.
		if d.Rejects(RuleBlobWrongClass) {
			return d.Fail(RuleBlobWrongClass, 0, "blob", "%d bytes is the length of class %d, not class %d (%d bytes)", n, classOfLength(n), class, want)
		}
	case n < want:
		// Section 3, HR-BLOB-06: a short blob fails closed.
		if d.Rejects(RuleBlobShort) {
			return d.Fail(RuleBlobShort, n, "blob", "%d bytes is shorter than class %d's %d bytes", n, class, want)
		}
	default:
		// Section 3, HR-BLOB-07: a long blob fails closed.
		if d.Rejects(RuleBlobLong) {
			return d.Fail(RuleBlobLong, want, "blob", "%d bytes is longer than class %d's %d bytes", n, class, want)
		}
	}
	if err := d.Version("formatVersion", 1); err != nil {
		return err
	}
	if !d.Enforced(RuleBlobNoClassByte) {
		// Fault (section 3, HR-BLOB-04): a class discriminator is read
		// after the version, and must be the class decoded with.
		at := d.Offset()
		c, err := d.U8("class")
		if err != nil {
			return err
		}
		if c != class {
			if !d.Rejects(RuleBlobWrongClass) {
				return nil // both faults: the rest of the blob is not read
			}
			return d.Fail(RuleBlobWrongClass, at, "class", "class byte %d, decoded as class %d", c, class)
		}
	}
	at := d.Offset()
	if err := d.Fixed("nonce", v.Nonce[:]); err != nil {
		return err
	}
	if !d.Enforced(RuleBlobAEADOutside) && v.Nonce == [12]byte{} {
		// Fault (section 3, HR-BLOB-08): the codec polices nonce use, which
		// is the encryption profile's job, and refuses an all-zero nonce.
		return overstep(d, RuleBlobAEADOutside, at, "nonce", "an all-zero nonce is refused by the codec")
	}
	// Section 3, HR-BLOB-03: exactly classLength - 13 sealed bytes, which is
	// what remains once the length matched (under fault injection of the
	// length rules: whatever remains).
	n := uint64(d.Remaining())
	if !d.Enforced(RuleBlobLayout) && want > 0 {
		n = uint64(want - 12) // fault: the version byte left out of the header
	}
	var err error
	v.Sealed, err = d.Raw("sealed", n)
	return err
}

// classOfLength returns the class whose exact length is n, or 0.
func classOfLength(n int) uint8 {
	for c := uint8(1); c <= NumClasses; c++ {
		if ClassLength(c) == n {
			return c
		}
	}
	return 0
}

// decodeCaps decodes a sorted array of ReadCellCapV1 (section 3): count in
// min..max (countRule), strictly sorted by (relayPublicKey, storageSlot).
//
// Each element is a canonical ReadCellCapV1 (nested: HR-CKPT-12 or
// HR-FRAME-13). Under fault injection of nested the elements are read by
// their layout alone, their own checks skipped (a cold path: once per
// element).
func decodeCaps(d *cenc.Decoder, field string, min, max uint64, countRule, orderRule, dupRule, nested rules.ID) ([]ReadCellCapV1, error) {
	n, err := d.Count(field, min, max, readCapMin, countRule)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, nil
	}
	caps := make([]ReadCellCapV1, 0, n)
	for i := 0; i < n && !d.Exhausted(); i++ {
		d.Enter(field, i)
		caps = append(caps, ReadCellCapV1{})
		at := d.Offset() + 1 // the sort key starts at relayPublicKey
		if err := decodeNested(d, nested, func() error { return decodeReadCap(d, &caps[i]) }); err != nil {
			return nil, err
		}
		if i > 0 {
			if err := checkCapOrder(d, &caps[i-1], &caps[i], at, orderRule, dupRule); err != nil {
				return nil, err
			}
		}
		d.Leave()
	}
	return caps, nil
}

// checkCapOrder checks that cur strictly follows prev by (relayPublicKey,
// storageSlot) in unsigned-byte order (section 3; section 2, HR-CENC-17/18).
func checkCapOrder(d *cenc.Decoder, prev, cur *ReadCellCapV1, at int, orderRule, dupRule rules.ID) error {
	relayOnly := d.Mutated(MutCapsByRelayKey)
	c := bytes.Compare(prev.RelayPublicKey[:], cur.RelayPublicKey[:])
	if c == 0 && !relayOnly {
		c = bytes.Compare(prev.StorageSlot[:], cur.StorageSlot[:])
	}
	if c < 0 {
		return nil
	}
	if relayOnly {
		return d.Ascending(prev.RelayPublicKey[:], cur.RelayPublicKey[:], at, "relayPublicKey", orderRule, dupRule)
	}
	return d.Ascending(capKey(prev), capKey(cur), at, "(relayPublicKey, storageSlot)", orderRule, dupRule)
}

// capKey is the sort key of a read capability: relayPublicKey || storageSlot.
func capKey(c *ReadCellCapV1) []byte {
	k := make([]byte, 0, 64)
	return append(append(k, c.RelayPublicKey[:]...), c.StorageSlot[:]...)
}

func decodeCheckpoint(d *cenc.Decoder, v *OpaqueChainCheckpointV1) error {
	if err := d.Version("version", 1); err != nil {
		return err
	}
	// Section 3, HR-CKPT-02: a 1..1024 array of frontier entries.
	maxFrontier := uint64(MaxFrontierEntries)
	if d.Mutated(MutFrontier1025) {
		maxFrontier++
	}
	n, err := d.Count("coveredFrontier", 1, maxFrontier, frontierLen, RuleCkptFrontierCount)
	if err != nil {
		return err
	}
	v.CoveredFrontier = make([]FrontierEntry, 0, n)
	for i := 0; i < n && !d.Exhausted(); i++ {
		d.Enter("coveredFrontier", i)
		v.CoveredFrontier = append(v.CoveredFrontier, FrontierEntry{})
		e := &v.CoveredFrontier[i]
		at := d.Offset()
		// Section 3, HR-CKPT-05: frontier chain IDs are nonzero.
		if err := d.FixedNonzero("chainId", e.ChainID[:], RuleCkptChainID); err != nil {
			return err
		}
		if i > 0 {
			// Section 3, HR-CKPT-03/04: strictly sorted by chain ID.
			if err := d.Ascending(v.CoveredFrontier[i-1].ChainID[:], e.ChainID[:], at, "chainId", RuleCkptFrontierOrder, RuleCkptFrontierDup); err != nil {
				return err
			}
		}
		if e.Sequence, err = d.U64("sequence"); err != nil {
			return err
		}
		// Section 3, HR-CKPT-06: frontier frame hashes are nonzero.
		if err := d.FixedNonzero("frameHash", e.FrameHash[:], RuleCkptFrameHash); err != nil {
			return err
		}
		d.Leave()
	}
	// Section 3, HR-CKPT-01: the two commitments, then the snapshot caps.
	// Under its fault injection the caps come first.
	capsFirst := !d.Enforced(RuleCkptLayout)
	if capsFirst {
		if v.SnapshotReadCaps, err = decodeSnapshotCaps(d); err != nil {
			return err
		}
	}
	// Section 3, HR-CKPT-07/08: both commitments are nonzero.
	if err := d.FixedNonzero("opaqueStateCommitment", v.OpaqueStateCommitment[:], RuleCkptStateCommit); err != nil {
		return err
	}
	if err := d.FixedNonzero("snapshotPayloadHash", v.SnapshotPayloadHash[:], RuleCkptPayloadHash); err != nil {
		return err
	}
	if !capsFirst {
		v.SnapshotReadCaps, err = decodeSnapshotCaps(d)
	}
	return err
}

// decodeSnapshotCaps decodes a checkpoint's 1..16 snapshot caps, strictly
// sorted (section 3, HR-CKPT-09/10/11).
func decodeSnapshotCaps(d *cenc.Decoder) ([]ReadCellCapV1, error) {
	return decodeCaps(d, "snapshotReadCaps", 1, MaxSnapshotCaps, RuleCkptCapsCount, RuleCkptCapsOrder, RuleCkptCapsDuplicate, RuleCkptCapsCanonical)
}

// decodeNested runs decode, which reads a nested value that is itself a
// canonical record (a Nesting rule: HR-CKPT-12, HR-FRAME-13/14). Only under
// fault injection of rule does it read the value by its layout alone: the
// value's own record checks (RecordCheck) are dropped while it runs.
func decodeNested(d *cenc.Decoder, rule rules.ID, decode func() error) error {
	if d.Enforced(rule) {
		return decode()
	}
	prev := d.SetLax(RecordCheck)
	err := decode()
	d.SetLax(prev)
	return err
}

func decodeFrame(d *cenc.Decoder, v *OpaqueChainFrameV1) error {
	start := d.Offset()
	if err := d.Version("version", 1); err != nil {
		return err
	}
	// Section 3, HR-FRAME-02: nonzero chain ID.
	if err := d.FixedNonzero("chainId", v.ChainID[:], RuleFrameChainID); err != nil {
		return err
	}
	var err error
	if v.Sequence, err = d.U64("sequence"); err != nil {
		return err
	}
	// Section 3, HR-FRAME-01: the optional previous hash, then the transport
	// verification key. Under its fault injection the key is read first.
	keyFirst := !d.Enforced(RuleFrameLayout)
	if keyFirst {
		if err := decodeVerifyKey(d, v); err != nil {
			return err
		}
	}
	at := d.Offset()
	present, err := d.Optional("previousFrameHash")
	if err != nil {
		return err
	}
	switch {
	case present && v.Sequence == 0 && d.Rejects(RuleFrameGenesisNoPrev):
		// Section 3, HR-FRAME-03: absent exactly when sequence is zero.
		return d.Fail(RuleFrameGenesisNoPrev, at, "previousFrameHash", "present at sequence 0; it must be absent exactly when sequence is zero")
	case !present && v.Sequence != 0 && d.Rejects(RuleFrameSuccessorPrev):
		// Section 3, HR-FRAME-04: present whenever sequence is nonzero.
		return d.Fail(RuleFrameSuccessorPrev, at, "previousFrameHash", "absent at sequence %d; it must be present whenever sequence is nonzero", v.Sequence)
	}
	if present {
		v.PreviousFrameHash = new([32]byte)
		if err := d.Fixed("previousFrameHash", v.PreviousFrameHash[:]); err != nil {
			return err
		}
		// Reading HR-READ-03 (docs/READINGS.md): a zero previous hash is
		// accepted by default; readings.go holds the other branch.
		if err := previousHashBranch(d, at+1, v.PreviousFrameHash[:]); err != nil {
			return err
		}
	}
	if !keyFirst {
		if err := decodeVerifyKey(d, v); err != nil {
			return err
		}
	}
	// Section 3, HR-FRAME-06/07: 0..256 payloads of 0..262144 bytes each.
	n, err := d.Count("opaquePayloads", 0, MaxPayloads, payloadMin, RuleFramePayloadCount)
	if err != nil {
		return err
	}
	if n > 0 {
		v.OpaquePayloads = make([][]byte, 0, n)
	}
	maxPayload := uint64(MaxPayloadLength)
	if d.Mutated(MutPayload262145) {
		maxPayload++
	}
	for i := 0; i < n && !d.Exhausted(); i++ {
		d.Enter("opaquePayloads", i)
		p, err := d.BoundedBytes("", 0, maxPayload, RuleFramePayloadLength)
		if err != nil {
			return err
		}
		v.OpaquePayloads = append(v.OpaquePayloads, p)
		d.Leave()
	}
	// Section 3, HR-FRAME-08/09/10: 0..16 next caps, strictly sorted.
	if v.NextReadCellCaps, err = decodeCaps(d, "nextReadCellCaps", 0, MaxNextCaps, RuleFrameCapsCount, RuleFrameCapsOrder, RuleFrameCapsDuplicate, RuleFrameCapsCanonical); err != nil {
		return err
	}
	at = d.Offset()
	if present, err = d.Optional("checkpoint"); err != nil {
		return err
	}
	if present {
		v.Checkpoint = new(OpaqueChainCheckpointV1)
		d.Enter("checkpoint", -1)
		// Section 3, HR-FRAME-14: the checkpoint is a canonical
		// OpaqueChainCheckpointV1.
		if err := decodeNested(d, RuleFrameCkptCanonical, func() error { return decodeCheckpoint(d, v.Checkpoint) }); err != nil {
			return err
		}
		d.Leave()
	}
	if len(v.OpaquePayloads) == 0 && (!present || d.Mutated(MutPayloadRequired)) && d.Rejects(RuleFrameNotEmpty) {
		// Section 3, HR-FRAME-11: at least one payload or a checkpoint.
		return d.Fail(RuleFrameNotEmpty, at, "checkpoint", "absent while opaquePayloads is empty; a frame needs at least one payload or a checkpoint")
	}
	signed := d.Consumed(start)
	at = d.Offset()
	if err := d.Fixed("transportSignature", v.TransportSignature[:]); err != nil {
		return err
	}
	if !d.Enforced(RuleFrameHigherLevel) && !ed25519.Verify(v.TransportVerifyKey[:], signed, v.TransportSignature[:]) {
		// Fault (section 3, HR-FRAME-12): the codec verifies the transport
		// signature, a higher-level composition check.
		return overstep(d, RuleFrameHigherLevel, at, "transportSignature", "does not verify under transportVerifyKey (Ed25519 over the frame's preceding bytes)")
	}
	return nil
}

// decodeVerifyKey reads a frame's nonzero transport verification key
// (section 3, HR-FRAME-05).
func decodeVerifyKey(d *cenc.Decoder, v *OpaqueChainFrameV1) error {
	return d.FixedNonzero("transportVerifyKey", v.TransportVerifyKey[:], RuleFrameVerifyKey)
}

// overstep is the violation of a codec that makes a check the spec leaves
// to others (rule id, an Outside-style rule such as HR-FRAME-12), reached
// only under fault injection of id (so never guarded by Rejects(id)).
func overstep(d *cenc.Decoder, id rules.ID, at int, field, format string, args ...any) error {
	return &rules.Violation{Rule: id, Code: cenc.Code, Offset: int64(at), Detail: d.Path(field) + ": " + fmt.Sprintf(format, args...)}
}

func decodeBlindCore(d *cenc.Decoder, v *BlindCoreReadCapV1) error {
	if err := d.Version("version", 1); err != nil {
		return err
	}
	// Section 3, HR-BCORE-02/03: nonzero core public key and block-encryption key.
	if err := d.FixedNonzero("corePublicKey", v.CorePublicKey[:], RuleCorePublicKey); err != nil {
		return err
	}
	if err := d.FixedNonzero("blockEncryptionKey", v.BlockEncryptionKey[:], RuleCoreBlockKey); err != nil {
		return err
	}
	// Section 3, HR-BCORE-01: the two u64s, then the head. Under its fault
	// injection the head is read first.
	headFirst := !d.Enforced(RuleCoreLayout)
	var err error
	if headFirst {
		if v.WitnessedSignedHead, err = decodeSignedHead(d); err != nil {
			return err
		}
	}
	if v.WitnessedFork, err = d.U64("witnessedFork"); err != nil {
		return err
	}
	if v.WitnessedLength, err = d.U64("witnessedLength"); err != nil {
		return err
	}
	if !headFirst {
		v.WitnessedSignedHead, err = decodeSignedHead(d)
	}
	return err
}

// decodeSignedHead reads a 1..4096-byte witnessed signed head (section 3,
// HR-BCORE-04).
func decodeSignedHead(d *cenc.Decoder) ([]byte, error) {
	return d.BoundedBytes("witnessedSignedHead", 1, MaxSignedHead, RuleCoreHeadLength)
}

// Encoding.
//
// Each Encode method writes the value's canonical bytes (raw) and then
// decodes them, returning the decoder's violation if the value breaks an
// invariant: the decoder is the single statement of every invariant, so
// nothing it would reject can be encoded. raw alone, unchecked, builds the
// negative vectors. Both carry the Checks of the call (Encode: the zero
// Checks, enforcing every rule): under a layout rule's fault raw
// writes what the decoder with those Checks reads.

// checked returns out if dec accepts it as one complete record under c.
func checked[T any](c rules.Checks, out []byte, dec func(*cenc.Decoder, *T) error) ([]byte, error) {
	if _, err := decodeAll(c, out, dec); err != nil {
		return nil, err
	}
	return out, nil
}

func appendReadCap(e *cenc.Encoder, v *ReadCellCapV1) {
	e.U8(1)
	e.Fixed(v.RelayPublicKey[:])
	e.Fixed(v.StorageSlot[:])
	e.Fixed(v.CellKey[:])
	if e.Enforced(RuleRCapLayout) {
		e.U8(v.SizeClass)
		e.Optional(v.ExpectedCellBlobHash != nil)
	} else {
		e.Optional(v.ExpectedCellBlobHash != nil)
		e.U8(v.SizeClass)
	}
	if v.ExpectedCellBlobHash != nil {
		e.Fixed(v.ExpectedCellBlobHash[:])
	}
}

func (v *ReadCellCapV1) raw(c rules.Checks) []byte {
	e := cenc.NewEncoder(c, readCapMin+32)
	appendReadCap(&e, v)
	return e.Bytes()
}

// Encode returns the canonical bytes of v, or the violation of the first
// invariant v breaks.
func (v *ReadCellCapV1) Encode() ([]byte, error) { return v.encode(rules.Checks{}) }

// Raw returns the bytes the encoder writes for v without checking any
// invariant (an out-of-range value, an unsorted or over-long array is
// written as it is): fuzz generation (impl/hiverelay/hivefuzz) builds the
// inputs that break a rule of section 3 with it. Encode checks.
func (v *ReadCellCapV1) Raw() []byte { return v.raw(rules.Checks{}) }

func (v *ReadCellCapV1) encode(c rules.Checks) ([]byte, error) {
	return checked(c, v.raw(c), decodeReadCap)
}

func (v *WriteCellCapV1) raw(c rules.Checks) []byte {
	e := cenc.NewEncoder(c, readCapMin+32+4+96)
	if e.Enforced(RuleWCapLayout) {
		appendReadCap(&e, &v.ReadCap)
		e.U32(v.AllocationEpoch)
	} else {
		e.U32(v.AllocationEpoch)
		appendReadCap(&e, &v.ReadCap)
	}
	e.Fixed(v.CreatePrivateKey[:])
	e.Fixed(v.RenewPrivateKey[:])
	e.Fixed(v.DropPrivateKey[:])
	return e.Bytes()
}

// Encode returns the canonical bytes of v, or the violation of the first
// invariant v breaks.
func (v *WriteCellCapV1) Encode() ([]byte, error) { return v.encode(rules.Checks{}) }

// Raw returns the bytes the encoder writes for v without checking any
// invariant (an out-of-range value, an unsorted or over-long array is
// written as it is): fuzz generation (impl/hiverelay/hivefuzz) builds the
// inputs that break a rule of section 3 with it. Encode checks.
func (v *WriteCellCapV1) Raw() []byte { return v.raw(rules.Checks{}) }

func (v *WriteCellCapV1) encode(c rules.Checks) ([]byte, error) {
	return checked(c, v.raw(c), decodeWriteCap)
}

func (v *CellBlobV1) raw(c rules.Checks) []byte {
	e := cenc.NewEncoder(c, blobHeader+1+len(v.Sealed))
	e.U8(1)
	if !e.Enforced(RuleBlobNoClassByte) {
		e.U8(v.Class)
	}
	e.Fixed(v.Nonce[:])
	e.Raw(v.Sealed)
	return e.Bytes()
}

// Encode returns the canonical bytes of v for its Class, or the violation of
// the first invariant v breaks (a Sealed length other than
// ClassLength(Class)-13 fails as a short or long blob).
func (v *CellBlobV1) Encode() ([]byte, error) { return v.encode(rules.Checks{}) }

// Raw returns the bytes the encoder writes for v without checking any
// invariant (an out-of-range value, an unsorted or over-long array is
// written as it is): fuzz generation (impl/hiverelay/hivefuzz) builds the
// inputs that break a rule of section 3 with it. Encode checks.
func (v *CellBlobV1) Raw() []byte { return v.raw(rules.Checks{}) }

func (v *CellBlobV1) encode(c rules.Checks) ([]byte, error) {
	return checked(c, v.raw(c), blobDecoder(v.Class))
}

func appendCaps(e *cenc.Encoder, caps []ReadCellCapV1) {
	e.Count(len(caps))
	for i := range caps {
		appendReadCap(e, &caps[i])
	}
}

func appendCheckpoint(e *cenc.Encoder, v *OpaqueChainCheckpointV1) {
	e.U8(1)
	e.Count(len(v.CoveredFrontier))
	for i := range v.CoveredFrontier {
		f := &v.CoveredFrontier[i]
		e.Fixed(f.ChainID[:])
		e.U64(f.Sequence)
		e.Fixed(f.FrameHash[:])
	}
	if !e.Enforced(RuleCkptLayout) {
		appendCaps(e, v.SnapshotReadCaps)
	}
	e.Fixed(v.OpaqueStateCommitment[:])
	e.Fixed(v.SnapshotPayloadHash[:])
	if e.Enforced(RuleCkptLayout) {
		appendCaps(e, v.SnapshotReadCaps)
	}
}

func checkpointSize(v *OpaqueChainCheckpointV1) int {
	return 1 + 9 + frontierLen*len(v.CoveredFrontier) + 64 + 9 + (readCapMin+32)*len(v.SnapshotReadCaps)
}

func (v *OpaqueChainCheckpointV1) raw(c rules.Checks) []byte {
	e := cenc.NewEncoder(c, checkpointSize(v))
	appendCheckpoint(&e, v)
	return e.Bytes()
}

// Encode returns the canonical bytes of v, or the violation of the first
// invariant v breaks.
func (v *OpaqueChainCheckpointV1) Encode() ([]byte, error) { return v.encode(rules.Checks{}) }

// Raw returns the bytes the encoder writes for v without checking any
// invariant (an out-of-range value, an unsorted or over-long array is
// written as it is): fuzz generation (impl/hiverelay/hivefuzz) builds the
// inputs that break a rule of section 3 with it. Encode checks.
func (v *OpaqueChainCheckpointV1) Raw() []byte { return v.raw(rules.Checks{}) }

func (v *OpaqueChainCheckpointV1) encode(c rules.Checks) ([]byte, error) {
	return checked(c, v.raw(c), decodeCheckpoint)
}

func (v *OpaqueChainFrameV1) raw(c rules.Checks) []byte {
	size := 1 + 32 + 8 + 33 + 32 + 9 + 9 + (readCapMin+32)*len(v.NextReadCellCaps) + 1 + 64
	for _, p := range v.OpaquePayloads {
		size += 9 + len(p)
	}
	if v.Checkpoint != nil {
		size += checkpointSize(v.Checkpoint)
	}
	e := cenc.NewEncoder(c, size)
	e.U8(1)
	e.Fixed(v.ChainID[:])
	e.U64(v.Sequence)
	keyFirst := !e.Enforced(RuleFrameLayout)
	if keyFirst {
		e.Fixed(v.TransportVerifyKey[:])
	}
	e.Optional(v.PreviousFrameHash != nil)
	if v.PreviousFrameHash != nil {
		e.Fixed(v.PreviousFrameHash[:])
	}
	if !keyFirst {
		e.Fixed(v.TransportVerifyKey[:])
	}
	e.Count(len(v.OpaquePayloads))
	for _, p := range v.OpaquePayloads {
		e.BoundedBytes(p)
	}
	appendCaps(&e, v.NextReadCellCaps)
	e.Optional(v.Checkpoint != nil)
	if v.Checkpoint != nil {
		appendCheckpoint(&e, v.Checkpoint)
	}
	e.Fixed(v.TransportSignature[:])
	return e.Bytes()
}

// Encode returns the canonical bytes of v, or the violation of the first
// invariant v breaks.
func (v *OpaqueChainFrameV1) Encode() ([]byte, error) { return v.encode(rules.Checks{}) }

// Raw returns the bytes the encoder writes for v without checking any
// invariant (an out-of-range value, an unsorted or over-long array is
// written as it is): fuzz generation (impl/hiverelay/hivefuzz) builds the
// inputs that break a rule of section 3 with it. Encode checks.
func (v *OpaqueChainFrameV1) Raw() []byte { return v.raw(rules.Checks{}) }

func (v *OpaqueChainFrameV1) encode(c rules.Checks) ([]byte, error) {
	return checked(c, v.raw(c), decodeFrame)
}

func (v *BlindCoreReadCapV1) raw(c rules.Checks) []byte {
	e := cenc.NewEncoder(c, 1+64+16+9+len(v.WitnessedSignedHead))
	e.U8(1)
	e.Fixed(v.CorePublicKey[:])
	e.Fixed(v.BlockEncryptionKey[:])
	headFirst := !e.Enforced(RuleCoreLayout)
	if headFirst {
		e.BoundedBytes(v.WitnessedSignedHead)
	}
	e.U64(v.WitnessedFork)
	e.U64(v.WitnessedLength)
	if !headFirst {
		e.BoundedBytes(v.WitnessedSignedHead)
	}
	return e.Bytes()
}

// Encode returns the canonical bytes of v, or the violation of the first
// invariant v breaks.
func (v *BlindCoreReadCapV1) Encode() ([]byte, error) { return v.encode(rules.Checks{}) }

// Raw returns the bytes the encoder writes for v without checking any
// invariant (an out-of-range value, an unsorted or over-long array is
// written as it is): fuzz generation (impl/hiverelay/hivefuzz) builds the
// inputs that break a rule of section 3 with it. Encode checks.
func (v *BlindCoreReadCapV1) Raw() []byte { return v.raw(rules.Checks{}) }

func (v *BlindCoreReadCapV1) encode(c rules.Checks) ([]byte, error) {
	return checked(c, v.raw(c), decodeBlindCore)
}

// The generic entry point of the testee protocol.

// ErrUnknownSchema is returned by Decode for a schema name outside the six.
var ErrUnknownSchema = errors.New("hiverelay: unknown schema name")

// Decode decodes b as the named schema (class selects the CellBlobV1 decoder
// and is ignored otherwise) and returns the decoded value (one of the six
// record types, by value) and its canonical re-encoding, which equals b for
// every accepted input. A schema name outside the six gives ErrUnknownSchema.
//
// It enforces every rule and takes every default reading; DecodeWith
// carries a rules.Checks.
func Decode(schema string, class uint8, b []byte) (value any, reencoded []byte, err error) {
	return DecodeWith(rules.Checks{}, schema, class, b)
}

// DecodeWith is Decode under c: the rules c switches off are not enforced,
// the mutants it switches on make their mistakes and the readings it takes
// are taken, in the decoding and in the re-encoding.
func DecodeWith(c rules.Checks, schema string, class uint8, b []byte) (value any, reencoded []byte, err error) {
	switch schema {
	case SchemaBlindCoreReadCapV1:
		v, err := decodeAll(c, b, decodeBlindCore)
		return reencode(c, &v, err, (*BlindCoreReadCapV1).encode)
	case SchemaCellBlobV1:
		v, err := decodeAll(c, b, blobDecoder(class))
		return reencode(c, &v, err, (*CellBlobV1).encode)
	case SchemaOpaqueChainCheckpointV1:
		v, err := decodeAll(c, b, decodeCheckpoint)
		return reencode(c, &v, err, (*OpaqueChainCheckpointV1).encode)
	case SchemaOpaqueChainFrameV1:
		v, err := decodeAll(c, b, decodeFrame)
		return reencode(c, &v, err, (*OpaqueChainFrameV1).encode)
	case SchemaReadCellCapV1:
		v, err := decodeAll(c, b, decodeReadCap)
		return reencode(c, &v, err, (*ReadCellCapV1).encode)
	case SchemaWriteCellCapV1:
		v, err := decodeAll(c, b, decodeWriteCap)
		return reencode(c, &v, err, (*WriteCellCapV1).encode)
	}
	return nil, nil, fmt.Errorf("%w %q", ErrUnknownSchema, schema)
}

// reencode returns the value v that decoding gave (unless it failed with
// err) and its canonical re-encoding under c. It is small enough to be
// inlined, so that enc is a direct call and v stays on the caller's stack.
func reencode[T any](c rules.Checks, v *T, err error, enc func(*T, rules.Checks) ([]byte, error)) (any, []byte, error) {
	if err != nil {
		return nil, nil, err
	}
	out, err := enc(v, c)
	if err != nil {
		return nil, nil, err
	}
	return *v, out, nil
}
