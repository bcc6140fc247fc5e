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

// t0 is the wire-time the libtracer features write as T0:
// 2026-05-03T00:00:00Z, the spec's date, in ns since the Unix epoch
// (docs/libtracer.md, "Worked examples, byte for byte").
const t0 uint64 = 1777766400000000000

// Option bits (§Options bitfield).
const (
	optR0 byte = 1 << 0 // reserved
	optTF byte = 1 << 1 // relative timestamp
	optCW byte = 1 << 2 // CRC-16-CCITT
	optLL byte = 1 << 3 // u32 length
	optCR byte = 1 << 4 // trailer has a CRC
	optTS byte = 1 << 5 // trailer has a timestamp
	optPL byte = 1 << 6 // structured payload
	optR7 byte = 1 << 7 // reserved
)

// headerSize is H: 6 with LL=1, else 4 (§Frame layout).
func headerSize(opt byte) int {
	if opt&optLL != 0 {
		return 6
	}
	return 4
}

// trailerSize is T plus the CRC width (§Frame layout, "Total frame size").
func trailerSize(opt byte) int {
	n := 0
	if opt&optTS != 0 {
		n += 8
		if opt&optTF != 0 {
			n = 4
		}
	}
	if opt&optCR != 0 {
		if opt&optCW != 0 {
			n += 2
		} else {
			n += 4
		}
	}
	return n
}

// parseTime reads a wire-time: "T0", "T0+N", "T0-N" (modulo 2^64, as
// the resolved times are) or a decimal u64.
func parseTime(s string) (uint64, error) {
	s = strings.TrimSpace(s)
	if rest, ok := strings.CutPrefix(s, "T0"); ok {
		if rest == "" {
			return t0, nil
		}
		n, err := strconv.ParseUint(rest[1:], 10, 64)
		if err != nil || (rest[0] != '+' && rest[0] != '-') {
			return 0, fmt.Errorf("time %q: want T0, T0+N or T0-N", s)
		}
		if rest[0] == '-' {
			return t0 - n, nil
		}
		return t0 + n, nil
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("time %q: want T0, T0+N, T0-N or a decimal u64", s)
	}
	return v, nil
}

// trailerStamp is a trailer_ts to write: absolute (a u64) or relative (an i32).
type trailerStamp struct {
	rel bool
	abs uint64
	off int32
}

// parseStamp reads a stamp cell: "+N" or "-N" is relative, anything
// parseTime reads is absolute.
func parseStamp(s string) (trailerStamp, error) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "+") || strings.HasPrefix(s, "-") {
		v, err := strconv.ParseInt(s, 10, 32)
		if err != nil {
			return trailerStamp{}, fmt.Errorf("relative stamp %q: want a signed i32", s)
		}
		return trailerStamp{rel: true, off: int32(v)}, nil
	}
	t, err := parseTime(s)
	return trailerStamp{abs: t}, err
}

// maxPattern bounds "[N bytes i mod M]": 64 MiB is more than any
// scenario needs (the largest frame in the features is 102400 bytes).
const maxPattern = 64 << 20

var (
	patternTok = regexp.MustCompile(`\[(\d+) bytes i mod (\d+)\]`)
	timeTok    = regexp.MustCompile(`^T0(?:[+-]\d+)?$`)
)

// parseBytes reads a byte string: whitespace-separated tokens, each hex digits
// (an even number, "0x" allowed), a wire-time T0, T0+N or T0-N (its 8
// bytes, u64 little-endian), or "[N bytes i mod M]" (N bytes, byte i
// being i mod M).
func parseBytes(s string) ([]byte, error) {
	var out []byte
	rest := s
	for {
		loc := patternTok.FindStringSubmatchIndex(rest)
		head := rest
		if loc != nil {
			head = rest[:loc[0]]
		}
		for _, tok := range strings.Fields(head) {
			if timeTok.MatchString(tok) {
				t, err := parseTime(tok)
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
		if err1 != nil || err2 != nil || m < 1 || m > 256 || n > maxPattern {
			return nil, fmt.Errorf("byte string %q: bad pattern %q", s, rest[loc[0]:loc[1]])
		}
		for i := 0; i < n; i++ {
			out = append(out, byte(i%m))
		}
		rest = rest[loc[1]:]
	}
}

// crcModel is a CRC in the Rocksoft model: width, polynomial (normal
// form), initial value, input and output reflection, final XOR.
type crcModel struct {
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
	crc32C = crcModel{name: "CRC-32C", width: 32, poly: 0x1EDC6F41, init: 0xFFFFFFFF, refin: true, refout: true, xorout: 0xFFFFFFFF}
	crc16  = crcModel{name: "CRC-16-CCITT", width: 16, poly: 0x1021, init: 0xFFFF, xorout: 0}
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// sum computes the CRC of data bit by bit. The exact CRC-32C goes through
// hash/crc32 (Castagnoli table) instead; the bitwise loop serves CRC-16 and
// every deliberately wrong variant.
func (m crcModel) sum(data []byte) uint32 {
	if m == crc32C {
		return crc32.Checksum(data, castagnoli)
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
func (m crcModel) appendField(dst []byte, c uint32, bigEndian bool) []byte {
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

func model(name string) (crcModel, error) {
	switch name {
	case "CRC-32C", "CRC-32":
		return crc32C, nil
	case "CRC-16-CCITT", "CRC-16":
		return crc16, nil
	}
	return crcModel{}, fmt.Errorf("unknown CRC %q", name)
}

// header reads the type, opt and length of the header at the start of b,
// as the layout gives them: a u16 length at offset 2, or a u32 with LL=1.
func header(b []byte) (typ, opt byte, length uint32, h int, err error) {
	if len(b) < 2 {
		return 0, 0, 0, 0, fmt.Errorf("%d bytes hold no header", len(b))
	}
	typ, opt, h = b[0], b[1], headerSize(b[1])
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

// crcVariant is how a scenario wants a trailer_crc computed; the zero
// value is the spec's way.
type crcVariant struct {
	model         crcModel
	overHeader    bool // cover the header too (LT-CRC-12 says it is not)
	payloadOnly   bool // leave trailer_ts out (LT-CRC-11 says it is in)
	stampFirst    bool // cover trailer_ts before the payload (LT-CRC-11: after)
	bigEndian     bool // write the field big-endian (LT-FRAME-11: little)
	describedText string
}

var variantRE = regexp.MustCompile(`^computed with (initial value|final XOR|polynomial) 0x([0-9A-Fa-f]+)$`)

// parseVariant reads the words after "with a CRC-32C trailer".
func parseVariant(model crcModel, words string) (crcVariant, error) {
	v := crcVariant{model: model, describedText: words}
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
		m := variantRE.FindStringSubmatch(words)
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

// appendCRC appends to frame (header, payload and trailer_ts if any) its
// trailer_crc, computed the way v says.
func appendCRC(frame []byte, v crcVariant) ([]byte, error) {
	_, _, length, h, err := header(frame)
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

// appendHeader appends a header with the given length: a u16 field, or a
// u32 field when opt has LL. A length over 65535 under LL=0 is an error,
// or (lenient, for an encode input the testee is to refuse) cut to 16 bits.
func appendHeader(dst []byte, typ, opt byte, length int, lenient bool) ([]byte, error) {
	dst = append(dst, typ, opt)
	if opt&optLL != 0 {
		return binary.LittleEndian.AppendUint32(dst, uint32(length)), nil
	}
	if length > 0xFFFF && !lenient {
		return nil, fmt.Errorf("a payload of %d bytes needs LL=1 (opt %02x)", length, opt)
	}
	return binary.LittleEndian.AppendUint16(dst, uint16(length)), nil
}

// seal writes one frame: header, content, then the trailer the opt bits
// ask for: trailer_ts from stamp (absolute with TF=0, relative with TF=1)
// and the CRC of the width CW selects over content and stamp.
func seal(typ, opt byte, content []byte, stamp *trailerStamp) ([]byte, error) {
	return sealAs(typ, opt, content, stamp, false)
}

// sealAs is seal, lenient or not (see appendHeader).
func sealAs(typ, opt byte, content []byte, stamp *trailerStamp, lenient bool) ([]byte, error) {
	out, err := appendHeader(nil, typ, opt, len(content), lenient)
	if err != nil {
		return nil, err
	}
	out = append(out, content...)
	if opt&optTS != 0 {
		if stamp == nil {
			return nil, fmt.Errorf("type %02x opt %02x: TS=1 needs a stamp", typ, opt)
		}
		if opt&optTF != 0 {
			out = binary.LittleEndian.AppendUint32(out, uint32(stamp.off))
		} else {
			out = binary.LittleEndian.AppendUint64(out, stamp.abs)
		}
	}
	if opt&optCR != 0 {
		m := crc32C
		if opt&optCW != 0 {
			m = crc16
		}
		return appendCRC(out, crcVariant{model: m})
	}
	return out, nil
}

// nest wraps inner in n structured user frames (type 0x80, PL=1), the
// innermost first, each with LL=1 only when its payload needs it. It writes
// the headers front to back into one buffer, so a deep nest costs its size.
func nest(n int, inner []byte) []byte {
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
			out = append(out, 0x80, optPL|optLL)
			out = binary.LittleEndian.AppendUint32(out, uint32(l))
		} else {
			out = append(out, 0x80, optPL)
			out = binary.LittleEndian.AppendUint16(out, uint16(l))
		}
	}
	return append(out, inner...)
}

// tableRow is one row of a frame table: a frame at a depth in pre-order.
type tableRow struct {
	depth    int
	typ, opt byte
	payload  []byte // nil: none given
	stamp    *trailerStamp
	resolved *uint64 // the wanted wire-time, when the table says it
}

// treeFrame is a frame the table builder wrote, for the encode input.
type treeFrame struct {
	row      tableRow
	offset   int
	length   int
	children int    // -1: opaque payload
	resolved uint64 // resolved wire-time of its stamp
}

// buildFrames writes the frames of a table (rows in pre-order with depths) and
// returns the bytes and each frame's offset, length, children and resolved
// stamp. A row followed by deeper rows is structured and holds them; a
// PL=1 row with neither payload nor deeper rows is an empty structured
// frame. Relative stamps resolve against the nearest stamped ancestor.
//
// For an encode input (lenient), a TS=1 row without a stamp is written with
// a zero stamp and an LL=0 length over 65535 is cut to 16 bits, so that the
// testee gets the frame as the table gives it, and refuses it.
func buildFrames(rows []tableRow, lenient bool) ([]byte, []treeFrame, error) {
	tree := make([]treeFrame, len(rows))
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
		h := headerSize(r.opt)
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
			if r.payload == nil && r.opt&optPL != 0 {
				tf.children = 0
			}
		}
		tf.length = len(content)
		stamp := r.stamp
		if stamp == nil && lenient {
			stamp = &trailerStamp{}
		}
		b, err := sealAs(r.typ, r.opt, content, stamp, lenient)
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
