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

// fieldKind is the kind of one field.
type fieldKind uint8

const (
	u8       fieldKind = iota + 1
	u16                // big-endian (sections 4 and 5)
	u32                // big-endian
	u64                // big-endian
	fixed              // bytes without a length prefix
	bounded            // compact-uint length, then the bytes
	optional           // tag 0 (absent) or 1 and the value
	array              // compact-uint count (or a u32be count), then the elements
	record             // fields in declaration order
)

// node is one field of a value the steps build.
type node struct {
	name  string
	kind  fieldKind
	num   uint64  // u8..u64
	data  []byte  // fixed, bounded
	size  int     // the declared size of a fixed field; 0 when it varies (spec bytes)
	on    bool    // optional: present
	val   *node   // optional: the value, kept while absent
	items []*node // record: the fields; array: the elements

	// array
	u32Count bool               // the count is a u32be (the manifest), not a compact uint
	elem     func(i int) *node  // a fresh element i, for resizing
	key      func(*node) []byte // the sort key of a strictly sorted array, or nil

	// lengthOf names the sibling field whose encoded length this u16/u64
	// holds (the artifact's lengths, a manifest row's path length); set
	// marks a value the steps gave instead.
	lengthOf string
	set      bool

	// raw replaces the compact length or count, the optional's tag, or the
	// u32be count with exactly these bytes.
	raw []byte
}

func (n *node) clone() *node {
	c := *n
	c.data = bytes.Clone(n.data)
	c.raw = bytes.Clone(n.raw)
	if n.val != nil {
		c.val = n.val.clone()
	}
	c.items = make([]*node, len(n.items))
	for i, it := range n.items {
		c.items[i] = it.clone()
	}
	return &c
}

// encode returns the value's bytes.
func (n *node) encode() []byte { return n.appendTo(nil) }

func (n *node) appendTo(b []byte) []byte {
	switch n.kind {
	case u8, u16, u32, u64:
		return appendUint(b, n.kind, n.num)
	case fixed:
		return append(b, n.data...)
	case bounded:
		b = n.prefix(b, uint64(len(n.data)))
		return append(b, n.data...)
	case optional:
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
	case array:
		switch {
		case n.raw != nil:
			b = append(b, n.raw...)
		case n.u32Count:
			b = binary.BigEndian.AppendUint32(b, uint32(len(n.items)))
		default:
			b = compact(b, uint64(len(n.items)))
		}
		for _, it := range n.items {
			b = it.appendTo(b)
		}
		return b
	case record:
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
			parts[i] = appendUint(nil, f.kind, v)
		}
		for _, p := range parts {
			b = append(b, p...)
		}
		return b
	}
	panic("node: unknown kind")
}

func (n *node) prefix(b []byte, v uint64) []byte {
	if n.raw != nil {
		return append(b, n.raw...)
	}
	return compact(b, v)
}

func appendUint(b []byte, k fieldKind, v uint64) []byte {
	switch k {
	case u8:
		return append(b, byte(v))
	case u16:
		return binary.BigEndian.AppendUint16(b, uint16(v))
	case u32:
		return binary.BigEndian.AppendUint32(b, uint32(v))
	}
	return binary.BigEndian.AppendUint64(b, v)
}

// compact appends the canonical shortest compact uint of v (section 2):
// 0..252 in one byte, then 0xfd + u16 LE, 0xfe + u32 LE, 0xff + u64 LE.
func compact(b []byte, v uint64) []byte {
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

func unsigned(name string, k fieldKind, v uint64) *node { return &node{name: name, kind: k, num: v} }

func fixedBytes(name string, b []byte) *node {
	return &node{name: name, kind: fixed, data: b, size: len(b)}
}

func varBytes(name string, b []byte) *node { return &node{name: name, kind: fixed, data: b} }

func bound(name string, b []byte) *node { return &node{name: name, kind: bounded, data: b} }

func opt(name string, on bool, v *node) *node {
	v.name = name
	return &node{name: name, kind: optional, on: on, val: v}
}

func rec(name string, fields ...*node) *node {
	return &node{name: name, kind: record, items: fields}
}

func arr(name string, elem func(int) *node, key func(*node) []byte, items ...*node) *node {
	a := &node{name: name, kind: array, elem: elem, key: key, items: items}
	a.sort()
	return a
}

// sort orders a strictly sorted array by its key (unsigned bytes).
func (n *node) sort() {
	if n.key == nil {
		return
	}
	sort.SliceStable(n.items, func(i, j int) bool { return bytes.Compare(n.key(n.items[i]), n.key(n.items[j])) < 0 })
}

// resize makes an array hold count fresh elements, sorted when the array is.
func (n *node) resize(count int) error {
	if n.kind != array || n.elem == nil {
		return fmt.Errorf("%s is not an array the steps can fill", n.name)
	}
	n.items = make([]*node, count)
	for i := range n.items {
		n.items[i] = n.elem(i)
	}
	n.sort()
	return nil
}

// field returns the named field of a record (an optional is looked through),
// comparing names without case and spaces ("size class" is sizeClass).
func (n *node) field(name string) *node {
	if n.kind == optional {
		n = n.val
	}
	want := strings.ReplaceAll(name, " ", "")
	if n.kind != record {
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
func (n *node) resolve(path string) (*node, error) {
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
			if next.kind != array || idx >= len(next.items) {
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

const labelPrefix = "hiverelay-bcc-v1/vector/"

func label32(l string) []byte {
	h := blake2b.Sum256([]byte(labelPrefix + l))
	return h[:]
}

func labelBytes(l string, n int) []byte {
	out := make([]byte, 0, n+32)
	in := append([]byte(labelPrefix+l), make([]byte, 8)...)
	for i := uint64(0); len(out) < n; i++ {
		binary.BigEndian.PutUint64(in[len(in)-8:], i)
		h := blake2b.Sum256(in)
		out = append(out, h[:]...)
	}
	return out[:n]
}

// The six records (section 3), each with its positive vector's value.

var schemas = []string{"BlindCoreReadCapV1", "CellBlobV1", "OpaqueChainCheckpointV1", "OpaqueChainFrameV1", "ReadCellCapV1", "WriteCellCapV1"}

// schemaPattern matches one of the six schema names in a step.
const schemaPattern = `(BlindCoreReadCapV1|CellBlobV1|OpaqueChainCheckpointV1|OpaqueChainFrameV1|ReadCellCapV1|WriteCellCapV1)`

// classLength is the exact length of a CellBlobV1 of class c (section 3).
func classLength(c int) int {
	return map[int]int{1: 4096, 2: 16384, 3: 65536, 4: 262144, 5: 1048576}[c]
}

func readCap(name, prefix string, class uint64, withHash bool) *node {
	return rec(name,
		unsigned("version", u8, 1),
		fixedBytes("relayPublicKey", label32(prefix+"/relay-public-key")),
		fixedBytes("storageSlot", label32(prefix+"/storage-slot")),
		fixedBytes("cellKey", label32(prefix+"/cell-key")),
		unsigned("sizeClass", u8, class),
		opt("expectedCellBlobHash", withHash, fixedBytes("", label32(prefix+"/expected-cell-blob-hash"))),
	)
}

// capKey is the sort key of a read capability: relayPublicKey || storageSlot.
func capKey(c *node) []byte { return append(bytes.Clone(c.items[1].data), c.items[2].data...) }

// caps is a sorted array of read capabilities; fresh elements come from
// labels of the steps' own.
func caps(name string, caps ...*node) *node {
	elem := func(i int) *node {
		return readCap("", fmt.Sprintf("steps/%s/%d", name, i), uint64(1+i%5), i%2 == 0)
	}
	return arr(name, elem, capKey, caps...)
}

func writeCap() *node {
	return rec("WriteCellCapV1",
		readCap("readCap", "write-cell-cap/read-cap", 1, false),
		unsigned("allocationEpoch", u32, 7),
		fixedBytes("createPrivateKey", label32("write-cell-cap/create-private-key")),
		fixedBytes("renewPrivateKey", label32("write-cell-cap/renew-private-key")),
		fixedBytes("dropPrivateKey", label32("write-cell-cap/drop-private-key")),
	)
}

func blob(class int) *node {
	p := fmt.Sprintf("cell-blob/class-%d", class)
	return rec("CellBlobV1",
		unsigned("formatVersion", u8, 1),
		fixedBytes("nonce", labelBytes(p+"/nonce", 12)),
		fixedBytes("sealed", labelBytes(p+"/sealed", classLength(class)-13)),
	)
}

func frontierEntry(prefix string, seq uint64) *node {
	return rec("",
		fixedBytes("chainId", label32(prefix+"/chain-id")),
		unsigned("sequence", u64, seq),
		fixedBytes("frameHash", label32(prefix+"/frame-hash")),
	)
}

func checkpoint() *node {
	elem := func(i int) *node { return frontierEntry(fmt.Sprintf("steps/frontier/%d", i), uint64(i)) }
	chainID := func(e *node) []byte { return e.items[0].data }
	return rec("OpaqueChainCheckpointV1",
		unsigned("version", u8, 1),
		arr("coveredFrontier", elem, chainID,
			frontierEntry("checkpoint/frontier/0", 0),
			frontierEntry("checkpoint/frontier/1", 1),
			frontierEntry("checkpoint/frontier/2", 1<<32)),
		fixedBytes("opaqueStateCommitment", label32("checkpoint/opaque-state-commitment")),
		fixedBytes("snapshotPayloadHash", label32("checkpoint/snapshot-payload-hash")),
		caps("snapshotReadCaps",
			readCap("", "checkpoint/snapshot-read-cap/0", 3, true),
			readCap("", "checkpoint/snapshot-read-cap/1", 4, false)),
	)
}

func payloads(payloads ...[]byte) *node {
	a := arr("opaquePayloads", func(int) *node { return bound("", nil) }, nil)
	for _, p := range payloads {
		a.items = append(a.items, bound("", p))
	}
	return a
}

func frame(name string, seq uint64, prev bool, payloads, caps, ckpt *node) *node {
	cp := ckpt
	if cp == nil {
		cp = checkpoint()
	}
	return rec("OpaqueChainFrameV1",
		unsigned("version", u8, 1),
		fixedBytes("chainId", label32("frame/chain-id")),
		unsigned("sequence", u64, seq),
		opt("previousFrameHash", prev, fixedBytes("", label32("frame/successor/previous-frame-hash"))),
		fixedBytes("transportVerifyKey", label32("frame/transport-verify-key")),
		payloads,
		caps,
		opt("checkpoint", ckpt != nil, cp),
		fixedBytes("transportSignature", labelBytes("frame/"+name+"/transport-signature", 64)),
	)
}

func genesisFrame() *node {
	return frame("genesis", 0, false,
		payloads([]byte{}, labelBytes("frame/genesis/payload/1", 300)),
		caps("nextReadCellCaps", readCap("", "frame/genesis/next-read-cap/0", 5, true)),
		nil)
}

func successorFrame() *node {
	return frame("successor", 1, true,
		payloads(),
		caps("nextReadCellCaps",
			readCap("", "frame/successor/next-read-cap/0", 1, false),
			readCap("", "frame/successor/next-read-cap/1", 2, true)),
		checkpoint())
}

func blindCore() *node {
	return rec("BlindCoreReadCapV1",
		unsigned("version", u8, 1),
		fixedBytes("corePublicKey", label32("blind-core-read-cap/core-public-key")),
		fixedBytes("blockEncryptionKey", label32("blind-core-read-cap/block-encryption-key")),
		unsigned("witnessedFork", u64, 3),
		unsigned("witnessedLength", u64, 1000),
		bound("witnessedSignedHead", labelBytes("blind-core-read-cap/witnessed-signed-head", 300)),
	)
}

// recordOf returns the default value of a schema: its positive vector's.
func recordOf(schema string) (*node, error) {
	switch schema {
	case "ReadCellCapV1":
		return readCap("ReadCellCapV1", "read-cell-cap", 2, true), nil
	case "WriteCellCapV1":
		return writeCap(), nil
	case "CellBlobV1":
		return blob(1), nil
	case "OpaqueChainCheckpointV1":
		return checkpoint(), nil
	case "OpaqueChainFrameV1":
		return genesisFrame(), nil
	case "BlindCoreReadCapV1":
		return blindCore(), nil
	}
	return nil, fmt.Errorf("%q is not one of the six schemas", schema)
}
