package libtracer

// Input builders of the libtracer steps: byte strings, the two CRCs with
// the spec's parameters (and deliberately wrong ones, for the negative
// scenarios), and a small frame writer. They are written here from the
// spec text (libtracer-01, §Frame layout, §CRC, §Timestamp form) and share
// no code with impl/libtracer: a scenario compares what the testee does
// with bytes these helpers build.

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"math/bits"
	"regexp"
	"strconv"
	"strings"
)

// ltT0 is the wire-time the libtracer features write as T0:
// 2026-05-03T00:00:00Z, the spec's date, in ns since the Unix epoch
// (docs/libtracer.md, "Worked examples, byte for byte").
const ltT0 uint64 = 1777766400000000000

// Option bits (§Options bitfield).
const (
	ltR0 byte = 1 << 0 // reserved
	ltTF byte = 1 << 1 // relative timestamp
	ltCW byte = 1 << 2 // CRC-16-CCITT
	ltLL byte = 1 << 3 // u32 length
	ltCR byte = 1 << 4 // trailer has a CRC
	ltTS byte = 1 << 5 // trailer has a timestamp
	ltPL byte = 1 << 6 // structured payload
	ltR7 byte = 1 << 7 // reserved
)

// ltHeaderSize is H: 6 with LL=1, else 4 (§Frame layout).
func ltHeaderSize(opt byte) int {
	if opt&ltLL != 0 {
		return 6
	}
	return 4
}

// ltTrailerSize is T plus the CRC width (§Frame layout, "Total frame size").
func ltTrailerSize(opt byte) int {
	n := 0
	if opt&ltTS != 0 {
		n += 8
		if opt&ltTF != 0 {
			n = 4
		}
	}
	if opt&ltCR != 0 {
		if opt&ltCW != 0 {
			n += 2
		} else {
			n += 4
		}
	}
	return n
}

// ltParseTime reads a wire-time: "T0", "T0+N", "T0-N" (modulo 2^64, as
// the resolved times are) or a decimal u64.
func ltParseTime(s string) (uint64, error) {
	s = strings.TrimSpace(s)
	if rest, ok := strings.CutPrefix(s, "T0"); ok {
		if rest == "" {
			return ltT0, nil
		}
		n, err := strconv.ParseUint(rest[1:], 10, 64)
		if err != nil || (rest[0] != '+' && rest[0] != '-') {
			return 0, fmt.Errorf("time %q: want T0, T0+N or T0-N", s)
		}
		if rest[0] == '-' {
			return ltT0 - n, nil
		}
		return ltT0 + n, nil
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("time %q: want T0, T0+N, T0-N or a decimal u64", s)
	}
	return v, nil
}

// ltStamp is a trailer_ts to write: absolute (a u64) or relative (an i32).
type ltStamp struct {
	rel bool
	abs uint64
	off int32
}

// ltParseStamp reads a stamp cell: "+N" or "-N" is relative, anything
// ltParseTime reads is absolute.
func ltParseStamp(s string) (ltStamp, error) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "+") || strings.HasPrefix(s, "-") {
		v, err := strconv.ParseInt(s, 10, 32)
		if err != nil {
			return ltStamp{}, fmt.Errorf("relative stamp %q: want a signed i32", s)
		}
		return ltStamp{rel: true, off: int32(v)}, nil
	}
	t, err := ltParseTime(s)
	return ltStamp{abs: t}, err
}

// ltMaxPattern bounds "[N bytes i mod M]": 64 MiB is more than any
// scenario needs (the largest frame in the features is 102400 bytes).
const ltMaxPattern = 64 << 20

var (
	ltPatternTok = regexp.MustCompile(`\[(\d+) bytes i mod (\d+)\]`)
	ltTimeTok    = regexp.MustCompile(`^T0(?:[+-]\d+)?$`)
)

// ltBytes reads a byte string: whitespace-separated tokens, each hex digits
// (an even number, "0x" allowed), a wire-time T0, T0+N or T0-N (its 8
// bytes, u64 little-endian), or "[N bytes i mod M]" (N bytes, byte i
// being i mod M).
func ltBytes(s string) ([]byte, error) {
	var out []byte
	rest := s
	for {
		loc := ltPatternTok.FindStringSubmatchIndex(rest)
		head := rest
		if loc != nil {
			head = rest[:loc[0]]
		}
		for _, tok := range strings.Fields(head) {
			if ltTimeTok.MatchString(tok) {
				t, err := ltParseTime(tok)
				if err != nil {
					return nil, err
				}
				out = binary.LittleEndian.AppendUint64(out, t)
				continue
			}
			b, err := hex.DecodeString(strings.TrimPrefix(strings.ToLower(tok), "0x"))
			if err != nil {
				return nil, fmt.Errorf("byte string %q: token %q is not hex, a time or [N bytes i mod M]", s, tok)
			}
			out = append(out, b...)
		}
		if loc == nil {
			return out, nil
		}
		n, err1 := strconv.Atoi(rest[loc[2]:loc[3]])
		m, err2 := strconv.Atoi(rest[loc[4]:loc[5]])
		if err1 != nil || err2 != nil || m < 1 || m > 256 || n > ltMaxPattern {
			return nil, fmt.Errorf("byte string %q: bad pattern %q", s, rest[loc[0]:loc[1]])
		}
		for i := 0; i < n; i++ {
			out = append(out, byte(i%m))
		}
		rest = rest[loc[1]:]
	}
}

// ltCRCModel is a CRC in the Rocksoft model: width, polynomial (normal
// form), initial value, input and output reflection, final XOR.
type ltCRCModel struct {
	name   string
	width  int
	poly   uint32
	init   uint32
	refin  bool
	refout bool
	xorout uint32
}

// The spec's two CRCs (§CRC). CRC-32C: Castagnoli 0x1EDC6F41, reflected
// (0x82F63B78), init and xorout 0xFFFFFFFF, check 0xE3069283.
// CRC-16-CCITT: 0x1021, init 0xFFFF, not reflected, xorout 0, check 0x29B1.
var (
	ltCRC32C = ltCRCModel{name: "CRC-32C", width: 32, poly: 0x1EDC6F41, init: 0xFFFFFFFF, refin: true, refout: true, xorout: 0xFFFFFFFF}
	ltCRC16  = ltCRCModel{name: "CRC-16-CCITT", width: 16, poly: 0x1021, init: 0xFFFF, xorout: 0}
)

var ltCastagnoli = crc32.MakeTable(crc32.Castagnoli)

// sum computes the CRC of data bit by bit. The exact CRC-32C goes through
// hash/crc32 (Castagnoli table) instead; the bitwise loop serves CRC-16 and
// every deliberately wrong variant.
func (m ltCRCModel) sum(data []byte) uint32 {
	if m == ltCRC32C {
		return crc32.Checksum(data, ltCastagnoli)
	}
	top := uint32(1) << (m.width - 1)
	mask := uint32(1<<m.width - 1)
	if m.width == 32 {
		mask = 0xFFFFFFFF
	}
	reg := m.init & mask
	for _, b := range data {
		if m.refin {
			b = bits.Reverse8(b)
		}
		reg ^= uint32(b) << (m.width - 8)
		for k := 0; k < 8; k++ {
			if reg&top != 0 {
				reg = (reg<<1 ^ m.poly) & mask
			} else {
				reg = reg << 1 & mask
			}
		}
	}
	if m.refout {
		reg = bits.Reverse32(reg) >> (32 - m.width)
	}
	return (reg ^ m.xorout) & mask
}

// appendLE appends the CRC field in its width, little-endian (LT-FRAME-11),
// or big-endian when bigEndian (a negative case).
func (m ltCRCModel) appendField(dst []byte, c uint32, bigEndian bool) []byte {
	if m.width == 16 {
		if bigEndian {
			return binary.BigEndian.AppendUint16(dst, uint16(c))
		}
		return binary.LittleEndian.AppendUint16(dst, uint16(c))
	}
	if bigEndian {
		return binary.BigEndian.AppendUint32(dst, c)
	}
	return binary.LittleEndian.AppendUint32(dst, c)
}

func ltModel(name string) (ltCRCModel, error) {
	switch name {
	case "CRC-32C", "CRC-32":
		return ltCRC32C, nil
	case "CRC-16-CCITT", "CRC-16":
		return ltCRC16, nil
	}
	return ltCRCModel{}, fmt.Errorf("unknown CRC %q", name)
}

// ltHeader reads the type, opt and length of the header at the start of b,
// as the layout gives them: a u16 length at offset 2, or a u32 with LL=1.
func ltHeader(b []byte) (typ, opt byte, length uint32, h int, err error) {
	if len(b) < 2 {
		return 0, 0, 0, 0, fmt.Errorf("%d bytes hold no header", len(b))
	}
	typ, opt, h = b[0], b[1], ltHeaderSize(b[1])
	if len(b) < h {
		return 0, 0, 0, 0, fmt.Errorf("%d bytes hold no %d-byte header", len(b), h)
	}
	if h == 6 {
		length = binary.LittleEndian.Uint32(b[2:6])
	} else {
		length = uint32(binary.LittleEndian.Uint16(b[2:4]))
	}
	return typ, opt, length, h, nil
}

// ltCRCVariant is how a scenario wants a trailer_crc computed; the zero
// value is the spec's way.
type ltCRCVariant struct {
	model         ltCRCModel
	overHeader    bool // cover the header too (LT-CRC-12 says it is not)
	payloadOnly   bool // leave trailer_ts out (LT-CRC-11 says it is in)
	stampFirst    bool // cover trailer_ts before the payload (LT-CRC-11: after)
	bigEndian     bool // write the field big-endian (LT-FRAME-11: little)
	describedText string
}

var ltVariantRE = regexp.MustCompile(`^computed with (initial value|final XOR|polynomial) 0x([0-9A-Fa-f]+)$`)

// ltParseVariant reads the words after "with a CRC-32C trailer".
func ltParseVariant(model ltCRCModel, words string) (ltCRCVariant, error) {
	v := ltCRCVariant{model: model, describedText: words}
	switch words = strings.TrimSpace(words); words {
	case "":
	case "computed over the header and payload":
		v.overHeader = true
	case "computed over the payload only":
		v.payloadOnly = true
	case "computed over the trailer_ts then the payload":
		v.stampFirst = true
	case "written big-endian":
		v.bigEndian = true
	case "computed reflected":
		v.model.refin, v.model.refout = true, true
	case "computed unreflected":
		v.model.refin, v.model.refout = false, false
	default:
		m := ltVariantRE.FindStringSubmatch(words)
		if m == nil {
			return v, fmt.Errorf("unknown CRC variant %q", words)
		}
		x, err := strconv.ParseUint(m[2], 16, 32)
		if err != nil {
			return v, err
		}
		switch m[1] {
		case "initial value":
			v.model.init = uint32(x)
		case "final XOR":
			v.model.xorout = uint32(x)
		case "polynomial":
			v.model.poly = uint32(x)
		}
		v.model.name += " variant"
	}
	return v, nil
}

// ltAppendCRC appends to frame (header, payload and trailer_ts if any) its
// trailer_crc, computed the way v says.
func ltAppendCRC(frame []byte, v ltCRCVariant) ([]byte, error) {
	_, _, length, h, err := ltHeader(frame)
	if err != nil {
		return nil, err
	}
	if uint64(len(frame)) < uint64(h)+uint64(length) {
		return nil, fmt.Errorf("frame %x is shorter than its header says", frame)
	}
	payload, stamp := frame[h:h+int(length)], frame[h+int(length):]
	var covered []byte
	switch {
	case v.overHeader:
		covered = frame
	case v.payloadOnly:
		covered = payload
	case v.stampFirst:
		covered = append(append([]byte{}, stamp...), payload...)
	default:
		covered = frame[h:]
	}
	return v.model.appendField(frame, v.model.sum(covered), v.bigEndian), nil
}

// ltAppendHeader appends a header with the given length: a u16 field, or a
// u32 field when opt has LL. A length over 65535 under LL=0 is an error,
// or (lenient, for an encode input the testee is to refuse) cut to 16 bits.
func ltAppendHeader(dst []byte, typ, opt byte, length int, lenient bool) ([]byte, error) {
	dst = append(dst, typ, opt)
	if opt&ltLL != 0 {
		return binary.LittleEndian.AppendUint32(dst, uint32(length)), nil
	}
	if length > 0xFFFF && !lenient {
		return nil, fmt.Errorf("a payload of %d bytes needs LL=1 (opt %02x)", length, opt)
	}
	return binary.LittleEndian.AppendUint16(dst, uint16(length)), nil
}

// ltSeal writes one frame: header, content, then the trailer the opt bits
// ask for: trailer_ts from stamp (absolute with TF=0, relative with TF=1)
// and the CRC of the width CW selects over content and stamp.
func ltSeal(typ, opt byte, content []byte, stamp *ltStamp) ([]byte, error) {
	return ltSealAs(typ, opt, content, stamp, false)
}

// ltSealAs is ltSeal, lenient or not (see ltAppendHeader).
func ltSealAs(typ, opt byte, content []byte, stamp *ltStamp, lenient bool) ([]byte, error) {
	out, err := ltAppendHeader(nil, typ, opt, len(content), lenient)
	if err != nil {
		return nil, err
	}
	out = append(out, content...)
	if opt&ltTS != 0 {
		if stamp == nil {
			return nil, fmt.Errorf("type %02x opt %02x: TS=1 needs a stamp", typ, opt)
		}
		if opt&ltTF != 0 {
			out = binary.LittleEndian.AppendUint32(out, uint32(stamp.off))
		} else {
			out = binary.LittleEndian.AppendUint64(out, stamp.abs)
		}
	}
	if opt&ltCR != 0 {
		m := ltCRC32C
		if opt&ltCW != 0 {
			m = ltCRC16
		}
		return ltAppendCRC(out, ltCRCVariant{model: m})
	}
	return out, nil
}

// ltNest wraps inner in n structured user frames (type 0x80, PL=1), the
// innermost first, each with LL=1 only when its payload needs it. It writes
// the headers front to back into one buffer, so a deep nest costs its size.
func ltNest(n int, inner []byte) []byte {
	sizes := make([]int, n+1) // sizes[k]: bytes inside the k-th level from the inside
	sizes[0] = len(inner)
	for k := 1; k <= n; k++ {
		sizes[k] = sizes[k-1] + 4
		if sizes[k-1] > 0xFFFF {
			sizes[k] += 2
		}
	}
	out := make([]byte, 0, sizes[n])
	for k := n; k >= 1; k-- {
		l := sizes[k-1]
		if l > 0xFFFF {
			out = append(out, 0x80, ltPL|ltLL)
			out = binary.LittleEndian.AppendUint32(out, uint32(l))
		} else {
			out = append(out, 0x80, ltPL)
			out = binary.LittleEndian.AppendUint16(out, uint16(l))
		}
	}
	return append(out, inner...)
}

// ltRow is one row of a frame table: a frame at a depth in pre-order.
type ltRow struct {
	depth    int
	typ, opt byte
	payload  []byte // nil: none given
	stamp    *ltStamp
	resolved *uint64 // the wanted wire-time, when the table says it
}

// ltTreeFrame is a frame the table builder wrote, for the encode input.
type ltTreeFrame struct {
	row      ltRow
	offset   int
	length   int
	children int    // -1: opaque payload
	resolved uint64 // resolved wire-time of its stamp
}

// ltBuild writes the frames of a table (rows in pre-order with depths) and
// returns the bytes and each frame's offset, length, children and resolved
// stamp. A row followed by deeper rows is structured and holds them; a
// PL=1 row with neither payload nor deeper rows is an empty structured
// frame. Relative stamps resolve against the nearest stamped ancestor.
//
// For an encode input (lenient), a TS=1 row without a stamp is written with
// a zero stamp and an LL=0 length over 65535 is cut to 16 bits, so that the
// testee gets the frame as the table gives it, and refuses it.
func ltBuild(rows []ltRow, lenient bool) ([]byte, []ltTreeFrame, error) {
	tree := make([]ltTreeFrame, len(rows))
	var build func(i, base int, anchor *uint64) ([]byte, int, error)
	build = func(i, base int, anchor *uint64) ([]byte, int, error) {
		r := rows[i]
		tf := &tree[i]
		tf.row, tf.offset, tf.children = r, base, -1
		var own *uint64
		if r.stamp != nil {
			t := r.stamp.abs
			if r.stamp.rel {
				if anchor != nil {
					t = *anchor + uint64(int64(r.stamp.off))
				}
			}
			if r.resolved != nil {
				t = *r.resolved
			}
			tf.resolved, own = t, &t
		}
		childAnchor := anchor
		if own != nil {
			childAnchor = own
		}
		h := ltHeaderSize(r.opt)
		j := i + 1
		var content []byte
		if j < len(rows) && rows[j].depth > r.depth {
			if r.payload != nil {
				return nil, 0, fmt.Errorf("row %d has both a payload and deeper rows", i+1)
			}
			tf.children = 0
			for j < len(rows) && rows[j].depth > r.depth {
				if rows[j].depth != r.depth+1 {
					return nil, 0, fmt.Errorf("row %d: depth %d under depth %d", j+1, rows[j].depth, r.depth)
				}
				b, next, err := build(j, base+h+len(content), childAnchor)
				if err != nil {
					return nil, 0, err
				}
				content = append(content, b...)
				tf.children++
				j = next
			}
		} else {
			content = r.payload
			if r.payload == nil && r.opt&ltPL != 0 {
				tf.children = 0
			}
		}
		tf.length = len(content)
		stamp := r.stamp
		if stamp == nil && lenient {
			stamp = &ltStamp{}
		}
		b, err := ltSealAs(r.typ, r.opt, content, stamp, lenient)
		return b, j, err
	}
	var out []byte
	for i := 0; i < len(rows); {
		if rows[i].depth != 0 {
			return nil, nil, fmt.Errorf("row %d: a top-level row has depth 0", i+1)
		}
		b, next, err := build(i, len(out), nil)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, b...)
		i = next
	}
	return out, tree, nil
}
