package hiverelay

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/crypto/blake2b"
)

// The HiveRelay input builder of the steps: a small tree of fields and its own
// canonical encoder (HiveRelay BCC v1, section 2), written from the spec and
// docs/hiverelay.md, never with impl/hiverelay's encoders or decoders. A
// record's default value is the one docs/hiverelay.md gives its positive
// vector, derived from fixed labels, so that a step-built record and the
// committed vector can be compared byte for byte.

// hrKind is the kind of one field.
type hrKind uint8

const (
	hrU8       hrKind = iota + 1
	hrU16             // big-endian (sections 4 and 5)
	hrU32             // big-endian
	hrU64             // big-endian
	hrFixed           // bytes without a length prefix
	hrBounded         // compact-uint length, then the bytes
	hrOptional        // tag 0 (absent) or 1 and the value
	hrArray           // compact-uint count (or a u32be count), then the elements
	hrRecord          // fields in declaration order
)

// hrNode is one field of a value the steps build.
type hrNode struct {
	name  string
	kind  hrKind
	num   uint64    // hrU8..hrU64
	data  []byte    // hrFixed, hrBounded
	size  int       // the declared size of a fixed field; 0 when it varies (spec bytes)
	on    bool      // hrOptional: present
	val   *hrNode   // hrOptional: the value, kept while absent
	items []*hrNode // hrRecord: the fields; hrArray: the elements

	// hrArray
	u32Count bool                 // the count is a u32be (the manifest), not a compact uint
	elem     func(i int) *hrNode  // a fresh element i, for resizing
	key      func(*hrNode) []byte // the sort key of a strictly sorted array, or nil

	// lengthOf names the sibling field whose encoded length this u16/u64
	// holds (the artifact's lengths, a manifest row's path length); set
	// marks a value the steps gave instead.
	lengthOf string
	set      bool

	// raw replaces the compact length or count, the optional's tag, or the
	// u32be count with exactly these bytes.
	raw []byte
}

func (n *hrNode) clone() *hrNode {
	c := *n
	c.data = bytes.Clone(n.data)
	c.raw = bytes.Clone(n.raw)
	if n.val != nil {
		c.val = n.val.clone()
	}
	c.items = make([]*hrNode, len(n.items))
	for i, it := range n.items {
		c.items[i] = it.clone()
	}
	return &c
}

// encode returns the value's bytes.
func (n *hrNode) encode() []byte { return n.appendTo(nil) }

func (n *hrNode) appendTo(b []byte) []byte {
	switch n.kind {
	case hrU8, hrU16, hrU32, hrU64:
		return hrAppendUint(b, n.kind, n.num)
	case hrFixed:
		return append(b, n.data...)
	case hrBounded:
		b = n.prefix(b, uint64(len(n.data)))
		return append(b, n.data...)
	case hrOptional:
		switch {
		case n.raw != nil:
			b = append(b, n.raw...)
		case n.on:
			b = append(b, 1)
		default:
			b = append(b, 0)
		}
		if n.on {
			b = n.val.appendTo(b)
		}
		return b
	case hrArray:
		switch {
		case n.raw != nil:
			b = append(b, n.raw...)
		case n.u32Count:
			b = binary.BigEndian.AppendUint32(b, uint32(len(n.items)))
		default:
			b = hrCompact(b, uint64(len(n.items)))
		}
		for _, it := range n.items {
			b = it.appendTo(b)
		}
		return b
	case hrRecord:
		parts := make([][]byte, len(n.items))
		for i, f := range n.items {
			if f.lengthOf == "" {
				parts[i] = f.encode()
			}
		}
		for i, f := range n.items {
			if f.lengthOf == "" {
				continue
			}
			v := f.num
			if !f.set {
				for j, g := range n.items {
					if g.name == f.lengthOf {
						v = uint64(len(parts[j]))
					}
				}
			}
			parts[i] = hrAppendUint(nil, f.kind, v)
		}
		for _, p := range parts {
			b = append(b, p...)
		}
		return b
	}
	panic("hrNode: unknown kind")
}

func (n *hrNode) prefix(b []byte, v uint64) []byte {
	if n.raw != nil {
		return append(b, n.raw...)
	}
	return hrCompact(b, v)
}

func hrAppendUint(b []byte, k hrKind, v uint64) []byte {
	switch k {
	case hrU8:
		return append(b, byte(v))
	case hrU16:
		return binary.BigEndian.AppendUint16(b, uint16(v))
	case hrU32:
		return binary.BigEndian.AppendUint32(b, uint32(v))
	}
	return binary.BigEndian.AppendUint64(b, v)
}

// hrCompact appends the canonical shortest compact uint of v (section 2):
// 0..252 in one byte, then 0xfd + u16 LE, 0xfe + u32 LE, 0xff + u64 LE.
func hrCompact(b []byte, v uint64) []byte {
	switch {
	case v <= 252:
		return append(b, byte(v))
	case v <= 0xffff:
		return binary.LittleEndian.AppendUint16(append(b, 0xfd), uint16(v))
	case v <= 0xffffffff:
		return binary.LittleEndian.AppendUint32(append(b, 0xfe), uint32(v))
	}
	return binary.LittleEndian.AppendUint64(append(b, 0xff), v)
}

// Field constructors.

func hrUint(name string, k hrKind, v uint64) *hrNode { return &hrNode{name: name, kind: k, num: v} }

func hrBytes(name string, b []byte) *hrNode {
	return &hrNode{name: name, kind: hrFixed, data: b, size: len(b)}
}

func hrVar(name string, b []byte) *hrNode { return &hrNode{name: name, kind: hrFixed, data: b} }

func hrBound(name string, b []byte) *hrNode { return &hrNode{name: name, kind: hrBounded, data: b} }

func hrOpt(name string, on bool, v *hrNode) *hrNode {
	v.name = name
	return &hrNode{name: name, kind: hrOptional, on: on, val: v}
}

func hrRec(name string, fields ...*hrNode) *hrNode {
	return &hrNode{name: name, kind: hrRecord, items: fields}
}

func hrArr(name string, elem func(int) *hrNode, key func(*hrNode) []byte, items ...*hrNode) *hrNode {
	a := &hrNode{name: name, kind: hrArray, elem: elem, key: key, items: items}
	a.sort()
	return a
}

// sort orders a strictly sorted array by its key (unsigned bytes).
func (n *hrNode) sort() {
	if n.key == nil {
		return
	}
	sort.SliceStable(n.items, func(i, j int) bool { return bytes.Compare(n.key(n.items[i]), n.key(n.items[j])) < 0 })
}

// resize makes an array hold count fresh elements, sorted when the array is.
func (n *hrNode) resize(count int) error {
	if n.kind != hrArray || n.elem == nil {
		return fmt.Errorf("%s is not an array the steps can fill", n.name)
	}
	n.items = make([]*hrNode, count)
	for i := range n.items {
		n.items[i] = n.elem(i)
	}
	n.sort()
	return nil
}

// field returns the named field of a record (an optional is looked through),
// comparing names without case and spaces ("size class" is sizeClass).
func (n *hrNode) field(name string) *hrNode {
	if n.kind == hrOptional {
		n = n.val
	}
	want := strings.ReplaceAll(name, " ", "")
	if n.kind != hrRecord {
		return nil
	}
	for _, f := range n.items {
		if strings.EqualFold(f.name, want) {
			return f
		}
	}
	return nil
}

// resolve finds the field at a path such as "readCap.sizeClass" or
// "coveredFrontier[1].chainId".
func (n *hrNode) resolve(path string) (*hrNode, error) {
	cur := n
	for _, seg := range strings.Split(strings.TrimSpace(path), ".") {
		name, idx := seg, -1
		if i := strings.IndexByte(seg, '['); i >= 0 && strings.HasSuffix(seg, "]") {
			v, err := strconv.Atoi(seg[i+1 : len(seg)-1])
			if err != nil {
				return nil, fmt.Errorf("bad index in %q", seg)
			}
			name, idx = seg[:i], v
		}
		next := cur.field(name)
		if next == nil {
			return nil, fmt.Errorf("%s has no field %q (path %q)", cur.name, name, path)
		}
		if idx >= 0 {
			if next.kind != hrArray || idx >= len(next.items) {
				return nil, fmt.Errorf("%s has no element %d (path %q)", next.name, idx, path)
			}
			next = next.items[idx]
		}
		cur = next
	}
	return cur, nil
}

// Labels (docs/hiverelay.md, "The vector set"): every 32-byte field of a
// vector is Label32 of its label, other byte strings LabelBytes.

const hrLabelPrefix = "hiverelay-bcc-v1/vector/"

func hrLabel32(l string) []byte {
	h := blake2b.Sum256([]byte(hrLabelPrefix + l))
	return h[:]
}

func hrLabelBytes(l string, n int) []byte {
	out := make([]byte, 0, n+32)
	in := append([]byte(hrLabelPrefix+l), make([]byte, 8)...)
	for i := uint64(0); len(out) < n; i++ {
		binary.BigEndian.PutUint64(in[len(in)-8:], i)
		h := blake2b.Sum256(in)
		out = append(out, h[:]...)
	}
	return out[:n]
}

// The six records (section 3), each with its positive vector's value.

var hrSchemas = []string{"BlindCoreReadCapV1", "CellBlobV1", "OpaqueChainCheckpointV1", "OpaqueChainFrameV1", "ReadCellCapV1", "WriteCellCapV1"}

// hrSchemaPattern matches one of the six schema names in a step.
const hrSchemaPattern = `(BlindCoreReadCapV1|CellBlobV1|OpaqueChainCheckpointV1|OpaqueChainFrameV1|ReadCellCapV1|WriteCellCapV1)`

// hrClassLength is the exact length of a CellBlobV1 of class c (section 3).
func hrClassLength(c int) int {
	return map[int]int{1: 4096, 2: 16384, 3: 65536, 4: 262144, 5: 1048576}[c]
}

func hrReadCap(name, prefix string, class uint64, withHash bool) *hrNode {
	return hrRec(name,
		hrUint("version", hrU8, 1),
		hrBytes("relayPublicKey", hrLabel32(prefix+"/relay-public-key")),
		hrBytes("storageSlot", hrLabel32(prefix+"/storage-slot")),
		hrBytes("cellKey", hrLabel32(prefix+"/cell-key")),
		hrUint("sizeClass", hrU8, class),
		hrOpt("expectedCellBlobHash", withHash, hrBytes("", hrLabel32(prefix+"/expected-cell-blob-hash"))),
	)
}

// hrCapKey is the sort key of a read capability: relayPublicKey || storageSlot.
func hrCapKey(c *hrNode) []byte { return append(bytes.Clone(c.items[1].data), c.items[2].data...) }

// hrCaps is a sorted array of read capabilities; fresh elements come from
// labels of the steps' own.
func hrCaps(name string, caps ...*hrNode) *hrNode {
	elem := func(i int) *hrNode {
		return hrReadCap("", fmt.Sprintf("steps/%s/%d", name, i), uint64(1+i%5), i%2 == 0)
	}
	return hrArr(name, elem, hrCapKey, caps...)
}

func hrWriteCap() *hrNode {
	return hrRec("WriteCellCapV1",
		hrReadCap("readCap", "write-cell-cap/read-cap", 1, false),
		hrUint("allocationEpoch", hrU32, 7),
		hrBytes("createPrivateKey", hrLabel32("write-cell-cap/create-private-key")),
		hrBytes("renewPrivateKey", hrLabel32("write-cell-cap/renew-private-key")),
		hrBytes("dropPrivateKey", hrLabel32("write-cell-cap/drop-private-key")),
	)
}

func hrBlob(class int) *hrNode {
	p := fmt.Sprintf("cell-blob/class-%d", class)
	return hrRec("CellBlobV1",
		hrUint("formatVersion", hrU8, 1),
		hrBytes("nonce", hrLabelBytes(p+"/nonce", 12)),
		hrBytes("sealed", hrLabelBytes(p+"/sealed", hrClassLength(class)-13)),
	)
}

func hrFrontierEntry(prefix string, seq uint64) *hrNode {
	return hrRec("",
		hrBytes("chainId", hrLabel32(prefix+"/chain-id")),
		hrUint("sequence", hrU64, seq),
		hrBytes("frameHash", hrLabel32(prefix+"/frame-hash")),
	)
}

func hrCheckpoint() *hrNode {
	elem := func(i int) *hrNode { return hrFrontierEntry(fmt.Sprintf("steps/frontier/%d", i), uint64(i)) }
	chainID := func(e *hrNode) []byte { return e.items[0].data }
	return hrRec("OpaqueChainCheckpointV1",
		hrUint("version", hrU8, 1),
		hrArr("coveredFrontier", elem, chainID,
			hrFrontierEntry("checkpoint/frontier/0", 0),
			hrFrontierEntry("checkpoint/frontier/1", 1),
			hrFrontierEntry("checkpoint/frontier/2", 1<<32)),
		hrBytes("opaqueStateCommitment", hrLabel32("checkpoint/opaque-state-commitment")),
		hrBytes("snapshotPayloadHash", hrLabel32("checkpoint/snapshot-payload-hash")),
		hrCaps("snapshotReadCaps",
			hrReadCap("", "checkpoint/snapshot-read-cap/0", 3, true),
			hrReadCap("", "checkpoint/snapshot-read-cap/1", 4, false)),
	)
}

func hrPayloads(payloads ...[]byte) *hrNode {
	a := hrArr("opaquePayloads", func(int) *hrNode { return hrBound("", nil) }, nil)
	for _, p := range payloads {
		a.items = append(a.items, hrBound("", p))
	}
	return a
}

func hrFrame(name string, seq uint64, prev bool, payloads, caps, checkpoint *hrNode) *hrNode {
	cp := checkpoint
	if cp == nil {
		cp = hrCheckpoint()
	}
	return hrRec("OpaqueChainFrameV1",
		hrUint("version", hrU8, 1),
		hrBytes("chainId", hrLabel32("frame/chain-id")),
		hrUint("sequence", hrU64, seq),
		hrOpt("previousFrameHash", prev, hrBytes("", hrLabel32("frame/successor/previous-frame-hash"))),
		hrBytes("transportVerifyKey", hrLabel32("frame/transport-verify-key")),
		payloads,
		caps,
		hrOpt("checkpoint", checkpoint != nil, cp),
		hrBytes("transportSignature", hrLabelBytes("frame/"+name+"/transport-signature", 64)),
	)
}

func hrGenesisFrame() *hrNode {
	return hrFrame("genesis", 0, false,
		hrPayloads([]byte{}, hrLabelBytes("frame/genesis/payload/1", 300)),
		hrCaps("nextReadCellCaps", hrReadCap("", "frame/genesis/next-read-cap/0", 5, true)),
		nil)
}

func hrSuccessorFrame() *hrNode {
	return hrFrame("successor", 1, true,
		hrPayloads(),
		hrCaps("nextReadCellCaps",
			hrReadCap("", "frame/successor/next-read-cap/0", 1, false),
			hrReadCap("", "frame/successor/next-read-cap/1", 2, true)),
		hrCheckpoint())
}

func hrBlindCore() *hrNode {
	return hrRec("BlindCoreReadCapV1",
		hrUint("version", hrU8, 1),
		hrBytes("corePublicKey", hrLabel32("blind-core-read-cap/core-public-key")),
		hrBytes("blockEncryptionKey", hrLabel32("blind-core-read-cap/block-encryption-key")),
		hrUint("witnessedFork", hrU64, 3),
		hrUint("witnessedLength", hrU64, 1000),
		hrBound("witnessedSignedHead", hrLabelBytes("blind-core-read-cap/witnessed-signed-head", 300)),
	)
}

// hrRecordOf returns the default value of a schema: its positive vector's.
func hrRecordOf(schema string) (*hrNode, error) {
	switch schema {
	case "ReadCellCapV1":
		return hrReadCap("ReadCellCapV1", "read-cell-cap", 2, true), nil
	case "WriteCellCapV1":
		return hrWriteCap(), nil
	case "CellBlobV1":
		return hrBlob(1), nil
	case "OpaqueChainCheckpointV1":
		return hrCheckpoint(), nil
	case "OpaqueChainFrameV1":
		return hrGenesisFrame(), nil
	case "BlindCoreReadCapV1":
		return hrBlindCore(), nil
	}
	return nil, fmt.Errorf("%q is not one of the six schemas", schema)
}
