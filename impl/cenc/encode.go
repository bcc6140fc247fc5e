package cenc

import (
	"encoding/binary"

	"github.com/threespec/conformance/impl/rules"
)

// Encoder appends canonical primitives to a byte slice. It writes what it is
// given: callers (the codecs) refuse invalid values before or after writing.
// The zero value is an empty Encoder ready for use.
type Encoder struct {
	buf []byte
}

// NewEncoder returns an Encoder whose buffer starts with capacity n.
func NewEncoder(n int) Encoder { return Encoder{buf: make([]byte, 0, n)} }

// Bytes returns the bytes written so far.
func (e *Encoder) Bytes() []byte { return e.buf }

// U8 appends a u8.
func (e *Encoder) U8(v uint8) { e.buf = append(e.buf, v) }

// U16 appends a big-endian u16 (HR-CENC-02).
func (e *Encoder) U16(v uint16) { e.buf = binary.BigEndian.AppendUint16(e.buf, v) }

// U32 appends a big-endian u32 (HR-CENC-02).
func (e *Encoder) U32(v uint32) { e.buf = binary.BigEndian.AppendUint32(e.buf, v) }

// U64 appends a big-endian u64 (HR-CENC-02).
func (e *Encoder) U64(v uint64) { e.buf = binary.BigEndian.AppendUint64(e.buf, v) }

// Fixed appends b with no length prefix (HR-CENC-03).
func (e *Encoder) Fixed(b []byte) { e.buf = append(e.buf, b...) }

// CompactUint appends v in its canonical shortest compact form (HR-CENC-06).
func (e *Encoder) CompactUint(v uint64) { e.buf = AppendCompactUint(e.buf, v) }

// BoundedBytes appends the compact length of b, then b (HR-CENC-04).
func (e *Encoder) BoundedBytes(b []byte) {
	e.CompactUint(uint64(len(b)))
	e.buf = append(e.buf, b...)
}

// Optional appends an optional's tag: 1 when present, 0 when absent (HR-CENC-09).
func (e *Encoder) Optional(present bool) {
	if present {
		e.buf = append(e.buf, 1)
	} else {
		e.buf = append(e.buf, 0)
	}
}

// AppendCompactUint appends v to dst in the canonical shortest compact-uint
// form of section 2 (HR-CENC-06): one byte for 0..252, else 0xfd + u16 LE,
// 0xfe + u32 LE or 0xff + u64 LE. Values above MaxSafeInteger are written as
// they are; decoding refuses them (HR-CENC-08). Under fault injection of
// HR-CENC-06 (tests only) every value is written in the 0xff form.
func AppendCompactUint(dst []byte, v uint64) []byte {
	switch {
	case !rules.Enforced(RuleCompactForms):
		return binary.LittleEndian.AppendUint64(append(dst, 0xff), v)
	case v <= 252:
		return append(dst, byte(v))
	case v <= 0xffff:
		return binary.LittleEndian.AppendUint16(append(dst, 0xfd), uint16(v))
	case v <= 0xffffffff:
		return binary.LittleEndian.AppendUint32(append(dst, 0xfe), uint32(v))
	default:
		return binary.LittleEndian.AppendUint64(append(dst, 0xff), v)
	}
}

// CompactUintLen returns the number of bytes AppendCompactUint writes for v.
func CompactUintLen(v uint64) int {
	switch {
	case v <= 252:
		return 1
	case v <= 0xffff:
		return 3
	case v <= 0xffffffff:
		return 5
	default:
		return 9
	}
}
