package tracervec

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strconv"

	"github.com/threespec/conformance/impl/libtracer/tracermodel"
	"github.com/threespec/conformance/vectorset"
)

// The generator's own wire writer. It shares no code with impl/libtracer:
// the vectors check that package, so their bytes and expected frame lists
// come from this file, written from libtracer-01 alone.

// The wire's option bits, sizes, type registry and checksums are
// tracermodel's (the part of this reading that conform links too).
const (
	bitR0 = tracermodel.BitR0
	bitTF = tracermodel.BitTF
	bitCW = tracermodel.BitCW
	bitLL = tracermodel.BitLL
	bitCR = tracermodel.BitCR
	bitTS = tracermodel.BitTS
	bitPL = tracermodel.BitPL
	bitR7 = tracermodel.BitR7
)

var (
	known   = tracermodel.Known
	crc32c  = tracermodel.CRC32C
	crc16   = tracermodel.CRC16
	tsSize  = tracermodel.TSSize
	crcSize = tracermodel.CRCSize
	hdrSize = tracermodel.HeaderSize
)

// Type codes the spec names, and the user type the examples use for
// records (libtracer-01 §Type code registry).
const (
	typeValue  uint8 = 0x01
	typeName   uint8 = 0x02
	typePath   uint8 = 0x06
	typeStatus uint8 = 0x09
	typeUser   uint8 = 0x80
)

// node is one frame the generator builds: its header bits, its content and
// its trailer_ts. The length and the CRC are computed when it is written.
type node struct {
	typ uint8
	opt uint8
	// payload is the content of a frame built from raw bytes; kids, when
	// non-nil, are the content instead: child frames written back to back.
	payload []byte
	kids    []*node
	// ts is trailer_ts as written: the u64 (TF=0) or the i32's bits (TF=1).
	ts uint64
	// Corruptions for negative vectors: crcXor is XORed into the CRC as
	// written, lenAdj added to the length as written; an ancestor's CRC
	// still covers the bytes as written.
	crcXor uint32
	lenAdj int
	// raw, when non-nil, is written verbatim instead of a frame (bytes
	// that are no TLV, inside a parent's payload).
	raw []byte
}

// leaf is a frame with raw content.
func leaf(typ, opt uint8, payload []byte) *node {
	return &node{typ: typ, opt: opt, payload: payload}
}

// rec is a frame whose content is the given child frames (PL is not set
// for the caller: opt is written as given).
func rec(typ, opt uint8, kids ...*node) *node {
	if kids == nil {
		kids = []*node{}
	}
	return &node{typ: typ, opt: opt, kids: kids}
}

// abs sets an absolute trailer_ts value (the opt must say TS=1, TF=0).
func (n *node) abs(t uint64) *node { n.ts = t; return n }

// rel sets a relative trailer_ts value (the opt must say TS=1, TF=1).
func (n *node) rel(d int32) *node { n.ts = uint64(uint32(d)); return n }

// write appends n's frame to dst (libtracer-01 §Frame layout): header,
// payload, trailer_ts, trailer_crc over payload then trailer_ts
// (LT-CRC-11), the header not covered (LT-CRC-12). Children are written in
// place, depth first; the generator's trees are at most a few thousand
// deep.
func (n *node) write(dst []byte) []byte { return n.emit(dst, nil) }

// span is where emit put one frame: its first byte and its payload.
type span struct {
	off, start, end int
}

// emit writes n like write and, when spans is not nil, records where each
// frame of the tree went.
func (n *node) emit(dst []byte, spans map[*node]span) []byte {
	if n.raw != nil {
		return append(dst, n.raw...)
	}
	off := len(dst)
	dst = append(dst, n.typ, n.opt, 0, 0)
	if n.opt&bitLL != 0 {
		dst = append(dst, 0, 0)
	}
	start := len(dst)
	if n.kids != nil {
		for _, k := range n.kids {
			dst = k.emit(dst, spans)
		}
	} else {
		dst = append(dst, n.payload...)
	}
	end := len(dst)
	length := uint64(int64(end-start) + int64(n.lenAdj))
	if n.opt&bitLL != 0 {
		binary.LittleEndian.PutUint32(dst[off+2:], uint32(length))
	} else {
		if length > 0xFFFF {
			panic(fmt.Sprintf("tracervec: a %d-byte payload does not fit LL=0", length))
		}
		binary.LittleEndian.PutUint16(dst[off+2:], uint16(length))
	}
	switch tsSize(n.opt) {
	case 8:
		dst = binary.LittleEndian.AppendUint64(dst, n.ts)
	case 4:
		dst = binary.LittleEndian.AppendUint32(dst, uint32(n.ts))
	}
	switch crcSize(n.opt) {
	case 4:
		dst = binary.LittleEndian.AppendUint32(dst, crc32c(dst[start:])^n.crcXor)
	case 2:
		dst = binary.LittleEndian.AppendUint16(dst, crc16(dst[start:])^uint16(n.crcXor))
	}
	if spans != nil {
		spans[n] = span{off, start, end}
	}
	return dst
}

// wire writes frames back to back.
func wire(frames ...*node) []byte {
	var b []byte
	for _, f := range frames {
		b = f.write(b)
	}
	return b
}

// flat is one entry of the flat pre-order frame list of libtracer.decode
// (docs/PROTOCOL.md, section libtracer.decode). Exactly one
// of payload (hasPayload) and children is set, or err for a top-level frame
// rejected in report mode "frames".
type flat struct {
	depth      int
	offset     int64
	typ, opt   uint8
	length     uint32
	payload    []byte
	hasPayload bool
	children   int
	ts         *flatTS
	crc        *flatCRC
	err        *violation
}

// flatTS is a trailer_ts: form, the received field, the resolved wire-time.
type flatTS struct {
	rel      bool
	raw      uint64 // the u64, or the i32's bits
	resolved uint64
}

// flatCRC is a trailer_crc as received.
type flatCRC struct {
	width int
	value uint32
}

// violation is a rejection: the rule, the spec's code and the byte offset
// docs/libtracer.md gives for it.
type violation struct {
	rule   string
	code   string
	offset int64
	frame  int64  // the first byte of the frame (or header) it is found in
	why    string // what the receiver finds, in words (vector comments)
}

func (v *violation) String() string {
	return fmt.Sprintf("%s %s at %d", v.rule, v.code, v.offset)
}

// flatten lists the frames of nodes written back to back from offset 0, in
// pre-order, as a receiver reports them: walked structured frames with
// their child count, everything else (PL=0, or an unknown type nested under
// PL=1, LT-UNK-06) with its payload, and every trailer_ts resolved against
// the nearest stamped ancestor modulo 2^64 (LT-TS-01..03). It describes
// what the generator built, independently of model's reading of the bytes.
func flatten(frames ...*node) []flat {
	spans := map[*node]span{}
	var b []byte
	for _, f := range frames {
		b = f.emit(b, spans)
	}
	var out []flat
	for _, f := range frames {
		out = f.flatten(out, b, spans, 0, 0, false)
	}
	return out
}

func (n *node) flatten(out []flat, b []byte, spans map[*node]span, depth int, anchor uint64, hasAnchor bool) []flat {
	sp := spans[n]
	e := flat{depth: depth, offset: int64(sp.off), typ: n.typ, opt: n.opt, length: uint32(sp.end - sp.start)}
	if n.opt&bitTS != 0 {
		ts := &flatTS{raw: n.ts, resolved: n.ts}
		if n.opt&bitTF != 0 {
			ts.rel = true
			ts.resolved = anchor + uint64(int64(int32(uint32(n.ts))))
		}
		e.ts = ts
		anchor, hasAnchor = ts.resolved, true
	}
	if at := sp.end + tsSize(n.opt); crcSize(n.opt) == 4 {
		e.crc = &flatCRC{width: 32, value: binary.LittleEndian.Uint32(b[at:])}
	} else if crcSize(n.opt) == 2 {
		e.crc = &flatCRC{width: 16, value: uint32(binary.LittleEndian.Uint16(b[at:]))}
	}
	if !(n.opt&bitPL != 0 && known(n.typ) && n.kids != nil) {
		e.payload, e.hasPayload = b[sp.start:sp.end], true
		return append(out, e)
	}
	e.children = len(n.kids)
	out = append(out, e)
	for _, k := range n.kids {
		out = k.flatten(out, b, spans, depth+1, anchor, hasAnchor)
	}
	return out
}

// contentBytes is n's payload as written: its raw bytes or its children.
func (n *node) contentBytes() []byte {
	if n.kids == nil {
		return n.payload
	}
	var c []byte
	for _, k := range n.kids {
		c = k.write(c)
	}
	return c
}

// jsonFrames renders a frame list as the values of the protocol's
// "frames" field. With expected set it gives an expected result: payloads
// over 3 KiB by digest (vectorset.HexMatcher), an error's rule and detail
// as free text (vectorset.AnyString: PROTOCOL.md compares the code, not the
// wording nor the testee's choice of rule). Without it, it gives
// libtracer.encode's input: literal hex, every field.
func jsonFrames(list []flat, expected bool) []any {
	out := make([]any, 0, len(list))
	for _, f := range list {
		m := map[string]any{"depth": f.depth, "offset": f.offset, "type": f.typ, "opt": f.opt, "length": f.length}
		switch {
		case f.err != nil:
			m["error"] = map[string]any{"rule": vectorset.AnyString(), "code": f.err.code, "offset": f.err.offset, "detail": vectorset.AnyString()}
			out = append(out, m)
			continue
		case f.hasPayload && expected:
			m["payload"] = vectorset.HexMatcher(f.payload)
		case f.hasPayload:
			m["payload"] = hex.EncodeToString(f.payload)
		default:
			m["children"] = f.children
		}
		if f.ts != nil {
			ts := map[string]any{"form": "abs", "raw": strconv.FormatUint(f.ts.raw, 10), "resolved": strconv.FormatUint(f.ts.resolved, 10)}
			if f.ts.rel {
				ts["form"], ts["raw"] = "rel", strconv.FormatInt(int64(int32(uint32(f.ts.raw))), 10)
			}
			m["ts"] = ts
		}
		if f.crc != nil {
			m["crc"] = map[string]any{"width": f.crc.width, "value": fmt.Sprintf("%0*x", f.crc.width/4, f.crc.value)}
		}
		out = append(out, m)
	}
	return out
}
