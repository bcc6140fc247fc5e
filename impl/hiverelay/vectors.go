package hiverelay

import (
	"bytes"
	"encoding/binary"
	"sort"
	"sync"

	"golang.org/x/crypto/blake2b"

	"github.com/threespec/conformance/impl/rules"
)

// The vector set of section 5: exactly the 18 paths of the closed inventory.
// Positive vector contents are the project's choice, derived from fixed
// labels (docs/hiverelay.md, "Vector derivation"):
//
//	Label32(l)     = BLAKE2b-256(ASCII("hiverelay-bcc-v1/vector/" + l))
//	LabelBytes(l,n) = the first n bytes of
//	                 BLAKE2b-256(ASCII("hiverelay-bcc-v1/vector/" + l) || U64BE(0)) ||
//	                 BLAKE2b-256(ASCII("hiverelay-bcc-v1/vector/" + l) || U64BE(1)) || ...
//
// Each negative vector is a positive vector's value with only the condition
// its path names changed, written without the encoder's checks.

// LabelPrefix starts every label a vector field is derived from.
const LabelPrefix = "hiverelay-bcc-v1/vector/"

// Label32 returns the 32-byte field derived from label.
func Label32(label string) [32]byte { return blake2b.Sum256([]byte(LabelPrefix + label)) }

// LabelBytes returns n bytes derived from label in counter mode.
func LabelBytes(label string, n int) []byte {
	out := make([]byte, 0, n+32)
	in := append([]byte(LabelPrefix+label), make([]byte, 8)...)
	for i := uint64(0); len(out) < n; i++ {
		binary.BigEndian.PutUint64(in[len(in)-8:], i)
		h := blake2b.Sum256(in)
		out = append(out, h[:]...)
	}
	return out[:n]
}

func label32p(label string) *[32]byte {
	h := Label32(label)
	return &h
}

// VectorKind classifies an inventory path by its top directory.
type VectorKind uint8

const (
	Positive VectorKind = iota + 1 // positive/: decodes and re-encodes byte-for-byte
	Negative                       // negative/: fails with BAD_ENCODING for the named condition
	Registry                       // registry/: the schema catalog of the format artifact
)

func (k VectorKind) String() string {
	switch k {
	case Positive:
		return "positive"
	case Negative:
		return "negative"
	case Registry:
		return "registry"
	}
	return "unknown"
}

// Vector is one entry of the closed inventory with its bytes.
type Vector struct {
	Path    string
	Kind    VectorKind
	Schema  string   // the codec that decodes it ("" for the registry vector)
	Class   uint8    // the stated class of a CellBlobV1 vector, else 0
	Rule    rules.ID // negative: the rule its path names; positive: the layout rule it exercises
	Comment string   // one line
	Bytes   []byte
}

// The closed inventory, in raw path order (section 5), with how each vector
// is made under the Checks of the generation (raw writes a layout rule's
// fault into the bytes).
var inventory = []struct {
	Vector
	gen func(c rules.Checks) []byte
}{
	{Vector{Path: "negative/blind-core-read-cap-zero-core-public-key.bin", Kind: Negative, Schema: SchemaBlindCoreReadCapV1, Rule: RuleCorePublicKey,
		Comment: "the positive BlindCoreReadCapV1 with corePublicKey set to 32 zero bytes"},
		func(c rules.Checks) []byte { v := vecBlindCore(); v.CorePublicKey = [32]byte{}; return v.raw(c) }},
	{Vector{Path: "negative/cell-blob-v1-class-1-truncated.bin", Kind: Negative, Schema: SchemaCellBlobV1, Class: 1, Rule: RuleBlobShort,
		Comment: "the positive class-1 CellBlobV1 without its last byte (4095 bytes), decoded as class 1"},
		func(c rules.Checks) []byte { v := vecBlob(1); b := v.raw(c); return b[:len(b)-1] }},
	{Vector{Path: "negative/opaque-chain-checkpoint-unsorted-frontier.bin", Kind: Negative, Schema: SchemaOpaqueChainCheckpointV1, Rule: RuleCkptFrontierOrder,
		Comment: "the positive OpaqueChainCheckpointV1 with its first two frontier entries swapped"},
		func(c rules.Checks) []byte {
			v := vecCheckpoint()
			f := v.CoveredFrontier
			f[0], f[1] = f[1], f[0]
			return v.raw(c)
		}},
	{Vector{Path: "negative/opaque-chain-frame-sequence-one-without-predecessor.bin", Kind: Negative, Schema: SchemaOpaqueChainFrameV1, Rule: RuleFrameSuccessorPrev,
		Comment: "the positive successor frame (sequence 1) with previousFrameHash absent"},
		func(c rules.Checks) []byte { v := vecFrameSuccessor(); v.PreviousFrameHash = nil; return v.raw(c) }},
	{Vector{Path: "negative/read-cell-cap-zero-relay-public-key.bin", Kind: Negative, Schema: SchemaReadCellCapV1, Rule: RuleRCapRelayKey,
		Comment: "the positive ReadCellCapV1 with relayPublicKey set to 32 zero bytes"},
		func(c rules.Checks) []byte { v := vecReadCap(); v.RelayPublicKey = [32]byte{}; return v.raw(c) }},
	{Vector{Path: "negative/write-cell-cap-duplicate-private-keys.bin", Kind: Negative, Schema: SchemaWriteCellCapV1, Rule: RuleWCapDistinct,
		Comment: "the positive WriteCellCapV1 with renewPrivateKey equal to createPrivateKey"},
		func(c rules.Checks) []byte {
			v := vecWriteCap()
			v.RenewPrivateKey = v.CreatePrivateKey
			return v.raw(c)
		}},
	{Vector{Path: "positive/blind-core-read-cap-v1.bin", Kind: Positive, Schema: SchemaBlindCoreReadCapV1, Rule: RuleCoreLayout,
		Comment: "BlindCoreReadCapV1 with a 300-byte witnessed signed head (0xfd length form)"},
		func(c rules.Checks) []byte { v := vecBlindCore(); return v.raw(c) }},
	{Vector{Path: "positive/cell-blob-v1-class-1.bin", Kind: Positive, Schema: SchemaCellBlobV1, Class: 1, Rule: RuleBlobLayout,
		Comment: "CellBlobV1 of class 1 (4096 bytes)"}, func(c rules.Checks) []byte { v := vecBlob(1); return v.raw(c) }},
	{Vector{Path: "positive/cell-blob-v1-class-2.bin", Kind: Positive, Schema: SchemaCellBlobV1, Class: 2, Rule: RuleBlobLayout,
		Comment: "CellBlobV1 of class 2 (16384 bytes)"}, func(c rules.Checks) []byte { v := vecBlob(2); return v.raw(c) }},
	{Vector{Path: "positive/cell-blob-v1-class-3.bin", Kind: Positive, Schema: SchemaCellBlobV1, Class: 3, Rule: RuleBlobLayout,
		Comment: "CellBlobV1 of class 3 (65536 bytes)"}, func(c rules.Checks) []byte { v := vecBlob(3); return v.raw(c) }},
	{Vector{Path: "positive/cell-blob-v1-class-4.bin", Kind: Positive, Schema: SchemaCellBlobV1, Class: 4, Rule: RuleBlobLayout,
		Comment: "CellBlobV1 of class 4 (262144 bytes)"}, func(c rules.Checks) []byte { v := vecBlob(4); return v.raw(c) }},
	{Vector{Path: "positive/cell-blob-v1-class-5.bin", Kind: Positive, Schema: SchemaCellBlobV1, Class: 5, Rule: RuleBlobLayout,
		Comment: "CellBlobV1 of class 5 (1048576 bytes)"}, func(c rules.Checks) []byte { v := vecBlob(5); return v.raw(c) }},
	{Vector{Path: "positive/opaque-chain-checkpoint-v1.bin", Kind: Positive, Schema: SchemaOpaqueChainCheckpointV1, Rule: RuleCkptLayout,
		Comment: "OpaqueChainCheckpointV1 with 3 sorted frontier entries and 2 sorted snapshot read capabilities"},
		func(c rules.Checks) []byte { v := vecCheckpoint(); return v.raw(c) }},
	{Vector{Path: "positive/opaque-chain-frame-v1-genesis.bin", Kind: Positive, Schema: SchemaOpaqueChainFrameV1, Rule: RuleFrameLayout,
		Comment: "OpaqueChainFrameV1 at sequence 0: no previous hash, an empty and a 300-byte payload, 1 next capability, no checkpoint"},
		func(c rules.Checks) []byte { v := vecFrameGenesis(); return v.raw(c) }},
	{Vector{Path: "positive/opaque-chain-frame-v1-successor.bin", Kind: Positive, Schema: SchemaOpaqueChainFrameV1, Rule: RuleFrameLayout,
		Comment: "OpaqueChainFrameV1 at sequence 1: previous hash present, no payload, 2 next capabilities, the positive checkpoint"},
		func(c rules.Checks) []byte { v := vecFrameSuccessor(); return v.raw(c) }},
	{Vector{Path: "positive/read-cell-cap-v1.bin", Kind: Positive, Schema: SchemaReadCellCapV1, Rule: RuleRCapLayout,
		Comment: "ReadCellCapV1 of size class 2 with an expected cell blob hash"},
		func(c rules.Checks) []byte { v := vecReadCap(); return v.raw(c) }},
	{Vector{Path: "positive/write-cell-cap-v1.bin", Kind: Positive, Schema: SchemaWriteCellCapV1, Rule: RuleWCapLayout,
		Comment: "WriteCellCapV1 around a size-class-1 ReadCellCapV1 without expected hash"},
		func(c rules.Checks) []byte { v := vecWriteCap(); return v.raw(c) }},
	{Vector{Path: "registry/client-composition-schema-catalog-v1.cenc", Kind: Registry, Rule: RuleVecRegistry,
		Comment: "the schema catalog embedded in the format artifact"},
		func(c rules.Checks) []byte { return bytes.Clone(schemaCatalog(c)) }},
}

// InventoryPaths returns the 18 paths of the closed inventory in raw path order.
func InventoryPaths() []string {
	out := make([]string, len(inventory))
	for i, v := range inventory {
		out[i] = v.Path
	}
	return out
}

var generated = cached(func(c rules.Checks) ([][]byte, error) {
	out := make([][]byte, len(inventory))
	for i, v := range inventory {
		out[i] = v.gen(c)
	}
	return out, nil
})

// cached returns f's results under the Checks it is called with. The
// standard reference's results (no fault: generation takes no reading) are
// computed once; under Checks with a fault (tests only) they are computed
// every time, so that a faulty result is never cached and a cached result
// never hides a fault.
func cached[T any](f func(rules.Checks) (T, error)) func(rules.Checks) (T, error) {
	once := sync.OnceValues(func() (T, error) { return f(rules.Checks{}) })
	return func(c rules.Checks) (T, error) {
		if c.Faulty() {
			return f(c)
		}
		return once()
	}
}

// Vectors returns the 18 vectors of the closed inventory with their bytes
// (fresh copies the caller may modify), in raw path order. Every call
// returns the same bytes.
func Vectors() []Vector { return vectors(rules.Current()) }

// vectors is Vectors generated under c.
func vectors(c rules.Checks) []Vector {
	gen, _ := generated(c)
	out := make([]Vector, len(inventory))
	for i, v := range inventory {
		out[i] = v.Vector
		out[i].Bytes = bytes.Clone(gen[i])
	}
	return out
}

// VectorFiles returns the vector set as path -> bytes.
func VectorFiles() map[string][]byte { return vectorFiles(rules.Current()) }

// vectorFiles is VectorFiles generated under c.
func vectorFiles(c rules.Checks) map[string][]byte {
	files := make(map[string][]byte, len(inventory))
	for _, v := range vectors(c) {
		files[v.Path] = v.Bytes
	}
	return files
}

// Positive vector values.

func vecReadCapFrom(prefix string, class uint8, withHash bool) ReadCellCapV1 {
	v := ReadCellCapV1{
		RelayPublicKey: Label32(prefix + "/relay-public-key"),
		StorageSlot:    Label32(prefix + "/storage-slot"),
		CellKey:        Label32(prefix + "/cell-key"),
		SizeClass:      class,
	}
	if withHash {
		v.ExpectedCellBlobHash = label32p(prefix + "/expected-cell-blob-hash")
	}
	return v
}

// sortCaps sorts read capabilities by (relayPublicKey, storageSlot).
func sortCaps(caps []ReadCellCapV1) {
	sort.Slice(caps, func(i, j int) bool {
		return bytes.Compare(capKey(&caps[i]), capKey(&caps[j])) < 0
	})
}

func vecReadCap() ReadCellCapV1 { return vecReadCapFrom("read-cell-cap", 2, true) }

func vecWriteCap() WriteCellCapV1 {
	return WriteCellCapV1{
		ReadCap:          vecReadCapFrom("write-cell-cap/read-cap", 1, false),
		AllocationEpoch:  7,
		CreatePrivateKey: Label32("write-cell-cap/create-private-key"),
		RenewPrivateKey:  Label32("write-cell-cap/renew-private-key"),
		DropPrivateKey:   Label32("write-cell-cap/drop-private-key"),
	}
}

func vecBlob(class uint8) CellBlobV1 {
	p := "cell-blob/class-" + string(rune('0'+class))
	v := CellBlobV1{Class: class, Sealed: LabelBytes(p+"/sealed", ClassLength(class)-blobHeader)}
	copy(v.Nonce[:], LabelBytes(p+"/nonce", 12))
	return v
}

func vecCheckpoint() OpaqueChainCheckpointV1 {
	// Sequences 0, 1 and 2^32 exercise both halves of the u64.
	seqs := [3]uint64{0, 1, 1 << 32}
	v := OpaqueChainCheckpointV1{
		OpaqueStateCommitment: Label32("checkpoint/opaque-state-commitment"),
		SnapshotPayloadHash:   Label32("checkpoint/snapshot-payload-hash"),
	}
	for i, s := range seqs {
		p := "checkpoint/frontier/" + string(rune('0'+i))
		v.CoveredFrontier = append(v.CoveredFrontier, FrontierEntry{
			ChainID: Label32(p + "/chain-id"), Sequence: s, FrameHash: Label32(p + "/frame-hash"),
		})
	}
	sort.Slice(v.CoveredFrontier, func(i, j int) bool {
		return bytes.Compare(v.CoveredFrontier[i].ChainID[:], v.CoveredFrontier[j].ChainID[:]) < 0
	})
	v.SnapshotReadCaps = []ReadCellCapV1{
		vecReadCapFrom("checkpoint/snapshot-read-cap/0", 3, true),
		vecReadCapFrom("checkpoint/snapshot-read-cap/1", 4, false),
	}
	sortCaps(v.SnapshotReadCaps)
	return v
}

func vecFrame(name string, sequence uint64) OpaqueChainFrameV1 {
	var sig [64]byte
	copy(sig[:], LabelBytes("frame/"+name+"/transport-signature", 64))
	return OpaqueChainFrameV1{
		ChainID:            Label32("frame/chain-id"),
		Sequence:           sequence,
		TransportVerifyKey: Label32("frame/transport-verify-key"),
		TransportSignature: sig,
	}
}

func vecFrameGenesis() OpaqueChainFrameV1 {
	v := vecFrame("genesis", 0)
	v.OpaquePayloads = [][]byte{{}, LabelBytes("frame/genesis/payload/1", 300)}
	v.NextReadCellCaps = []ReadCellCapV1{vecReadCapFrom("frame/genesis/next-read-cap/0", 5, true)}
	return v
}

func vecFrameSuccessor() OpaqueChainFrameV1 {
	v := vecFrame("successor", 1)
	v.PreviousFrameHash = label32p("frame/successor/previous-frame-hash")
	v.NextReadCellCaps = []ReadCellCapV1{
		vecReadCapFrom("frame/successor/next-read-cap/0", 1, false),
		vecReadCapFrom("frame/successor/next-read-cap/1", 2, true),
	}
	sortCaps(v.NextReadCellCaps)
	cp := vecCheckpoint()
	v.Checkpoint = &cp
	return v
}

func vecBlindCore() BlindCoreReadCapV1 {
	return BlindCoreReadCapV1{
		CorePublicKey:       Label32("blind-core-read-cap/core-public-key"),
		BlockEncryptionKey:  Label32("blind-core-read-cap/block-encryption-key"),
		WitnessedFork:       3,
		WitnessedLength:     1000,
		WitnessedSignedHead: LabelBytes("blind-core-read-cap/witnessed-signed-head", 300),
	}
}
