package hivevec

import (
	"bytes"
	"sort"
	"strconv"

	"github.com/threespec/conformance/impl/hiverelay"
)

// The six records of section 3 as the generator writes them. Values are
// written exactly as given: arrays in the given order, any tag, any count.

type readCap struct {
	version           byte
	relay, slot, cell [32]byte
	class             byte
	expected          *[32]byte
}

// writeCap has no version of its own: it begins with one canonical
// ReadCellCapV1 (section 3).
type writeCap struct {
	read                readCap
	epoch               uint32
	create, renew, drop [32]byte
}

type frontierEntry struct {
	chain    [32]byte
	sequence uint64
	frame    [32]byte
}

type checkpoint struct {
	version         byte
	frontier        []frontierEntry
	state, snapshot [32]byte
	caps            []readCap
}

type frame struct {
	version    byte
	chain      [32]byte
	sequence   uint64
	previous   *[32]byte
	verify     [32]byte
	payloads   [][]byte
	next       []readCap
	checkpoint *checkpoint
	signature  [64]byte
}

type blindCore struct {
	version      byte
	core, block  [32]byte
	fork, length uint64
	head         []byte
}

type cellBlob struct {
	version byte
	nonce   [12]byte
	sealed  []byte
}

// Sizes of section 3: a read capability is 99 bytes without and 131 with
// its expected hash; a frontier entry is 72 bytes.
const (
	readCapLen    = 1 + 32 + 32 + 32 + 1 + 1
	frontierLen   = 32 + 8 + 32
	blobHeaderLen = 1 + 12
)

// classLength is the exact total length of a CellBlobV1 of class c (section
// 3): 4096, 16384, 65536, 262144, 1048576.
var classLength = [6]int{0, 4096, 16384, 65536, 262144, 1048576}

func (v readCap) write(w *writer) {
	w.version("version", v.version)
	w.key("relayPublicKey", hiverelay.RuleRCapRelayKey, v.relay)
	w.key("storageSlot", hiverelay.RuleRCapStorageSlot, v.slot)
	w.key("cellKey", hiverelay.RuleRCapCellKey, v.cell)
	w.class("sizeClass", v.class)
	w.tag("expectedCellBlobHash.tag", v.expected != nil)
	if v.expected != nil {
		w.key("expectedCellBlobHash", hiverelay.RuleRCapExpectedHash, *v.expected)
	}
}

func (v writeCap) write(w *writer) {
	w.enter("readCap", -1)
	v.read.write(w)
	w.leave()
	w.u32("allocationEpoch", v.epoch)
	w.key("createPrivateKey", hiverelay.RuleWCapCreateKey, v.create)
	w.key("renewPrivateKey", hiverelay.RuleWCapRenewKey, v.renew)
	w.key("dropPrivateKey", hiverelay.RuleWCapDropKey, v.drop)
}

func (v checkpoint) write(w *writer) {
	w.version("version", v.version)
	w.sorted("coveredFrontier", len(v.frontier), hiverelay.RuleCkptFrontierCount, 0, 32,
		hiverelay.RuleCkptFrontierOrder, hiverelay.RuleCkptFrontierDup, func(i int) {
			e := &v.frontier[i]
			w.key("chainId", hiverelay.RuleCkptChainID, e.chain)
			w.u64("sequence", e.sequence)
			w.key("frameHash", hiverelay.RuleCkptFrameHash, e.frame)
		})
	w.key("opaqueStateCommitment", hiverelay.RuleCkptStateCommit, v.state)
	w.key("snapshotPayloadHash", hiverelay.RuleCkptPayloadHash, v.snapshot)
	w.sorted("snapshotReadCaps", len(v.caps), hiverelay.RuleCkptCapsCount, 1, 64,
		hiverelay.RuleCkptCapsOrder, hiverelay.RuleCkptCapsDuplicate, func(i int) { v.caps[i].write(w) })
}

func (v frame) write(w *writer) {
	w.version("version", v.version)
	w.key("chainId", hiverelay.RuleFrameChainID, v.chain)
	w.u64("sequence", v.sequence)
	w.tag("previousFrameHash.tag", v.previous != nil)
	if v.previous != nil {
		w.fixed("previousFrameHash", v.previous[:])
	}
	w.key("transportVerifyKey", hiverelay.RuleFrameVerifyKey, v.verify)
	w.count("opaquePayloads", hiverelay.RuleFramePayloadCount, len(v.payloads))
	for i, p := range v.payloads {
		w.enter("opaquePayloads", i)
		w.bounded("payload", hiverelay.RuleFramePayloadLength, p)
		w.leave()
	}
	w.sorted("nextReadCellCaps", len(v.next), hiverelay.RuleFrameCapsCount, 1, 64,
		hiverelay.RuleFrameCapsOrder, hiverelay.RuleFrameCapsDuplicate, func(i int) { v.next[i].write(w) })
	w.tag("checkpoint.tag", v.checkpoint != nil)
	if v.checkpoint != nil {
		w.enter("checkpoint", -1)
		v.checkpoint.write(w)
		w.leave()
	}
	w.fixed("transportSignature", v.signature[:])
}

func (v blindCore) write(w *writer) {
	w.version("version", v.version)
	w.key("corePublicKey", hiverelay.RuleCorePublicKey, v.core)
	w.key("blockEncryptionKey", hiverelay.RuleCoreBlockKey, v.block)
	w.u64("witnessedFork", v.fork)
	w.u64("witnessedLength", v.length)
	w.bounded("witnessedSignedHead", hiverelay.RuleCoreHeadLength, v.head)
}

func (v cellBlob) write(w *writer) {
	w.version("formatVersion", v.version)
	w.fixed("nonce", v.nonce[:])
	w.fixed("sealed", v.sealed)
}

// encoded writes a record and returns its bytes and layout.
func encoded(write func(*writer)) *writer {
	w := &writer{}
	write(w)
	return w
}

func record(write func(*writer)) []byte { return encoded(write).b }

// The inventory's positive values, from the label table of docs/hiverelay.md
// ("The vector set"). A test checks that they reproduce the 18 inventory
// files byte for byte.

func lp(l string) *[32]byte { h := label32(l); return &h }

// readCapFrom is the read capability of prefix p: p/relay-public-key,
// p/storage-slot, p/cell-key and, when present, p/expected-cell-blob-hash.
func readCapFrom(p string, class byte, withHash bool) readCap {
	v := readCap{version: 1, relay: label32(p + "/relay-public-key"), slot: label32(p + "/storage-slot"),
		cell: label32(p + "/cell-key"), class: class}
	if withHash {
		v.expected = lp(p + "/expected-cell-blob-hash")
	}
	return v
}

// sortCaps sorts read capabilities by relayPublicKey || storageSlot.
func sortCaps(caps []readCap) {
	sort.Slice(caps, func(i, j int) bool {
		if c := bytes.Compare(caps[i].relay[:], caps[j].relay[:]); c != 0 {
			return c < 0
		}
		return bytes.Compare(caps[i].slot[:], caps[j].slot[:]) < 0
	})
}

func sortFrontier(f []frontierEntry) {
	sort.Slice(f, func(i, j int) bool { return bytes.Compare(f[i].chain[:], f[j].chain[:]) < 0 })
}

func posReadCap() readCap { return readCapFrom("read-cell-cap", 2, true) }

func posWriteCap() writeCap {
	return writeCap{
		read:   readCapFrom("write-cell-cap/read-cap", 1, false),
		epoch:  7,
		create: label32("write-cell-cap/create-private-key"),
		renew:  label32("write-cell-cap/renew-private-key"),
		drop:   label32("write-cell-cap/drop-private-key"),
	}
}

func posBlob(class int) cellBlob {
	p := "cell-blob/class-" + strconv.Itoa(class)
	v := cellBlob{version: 1, sealed: labelBytes(p+"/sealed", classLength[class]-blobHeaderLen)}
	copy(v.nonce[:], labelBytes(p+"/nonce", 12))
	return v
}

func posCheckpoint() checkpoint {
	v := checkpoint{version: 1, state: label32("checkpoint/opaque-state-commitment"),
		snapshot: label32("checkpoint/snapshot-payload-hash")}
	for i, seq := range []uint64{0, 1, 1 << 32} {
		p := "checkpoint/frontier/" + strconv.Itoa(i)
		v.frontier = append(v.frontier, frontierEntry{chain: label32(p + "/chain-id"), sequence: seq, frame: label32(p + "/frame-hash")})
	}
	sortFrontier(v.frontier)
	v.caps = []readCap{
		readCapFrom("checkpoint/snapshot-read-cap/0", 3, true),
		readCapFrom("checkpoint/snapshot-read-cap/1", 4, false),
	}
	sortCaps(v.caps)
	return v
}

func frameBase(name string, sequence uint64) frame {
	v := frame{version: 1, chain: label32("frame/chain-id"), sequence: sequence, verify: label32("frame/transport-verify-key")}
	copy(v.signature[:], labelBytes("frame/"+name+"/transport-signature", 64))
	return v
}

func posGenesis() frame {
	v := frameBase("genesis", 0)
	v.payloads = [][]byte{{}, labelBytes("frame/genesis/payload/1", 300)}
	v.next = []readCap{readCapFrom("frame/genesis/next-read-cap/0", 5, true)}
	return v
}

func posSuccessor() frame {
	v := frameBase("successor", 1)
	v.previous = lp("frame/successor/previous-frame-hash")
	v.next = []readCap{
		readCapFrom("frame/successor/next-read-cap/0", 1, false),
		readCapFrom("frame/successor/next-read-cap/1", 2, true),
	}
	sortCaps(v.next)
	cp := posCheckpoint()
	v.checkpoint = &cp
	return v
}

func posBlindCore() blindCore {
	return blindCore{version: 1, core: label32("blind-core-read-cap/core-public-key"),
		block: label32("blind-core-read-cap/block-encryption-key"), fork: 3, length: 1000,
		head: labelBytes("blind-core-read-cap/witnessed-signed-head", 300)}
}
