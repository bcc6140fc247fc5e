package cenc

import (
	"encoding/binary"

	"github.com/threespec/conformance/impl/rules"
)

// Encoder appends canonical primitives to a byte slice. It writes what it is
// given: callers (the codecs) refuse invalid values before or after writing.
// The zero value is an empty Encoder of the standard reference (every rule
// enforced), ready for use.
//
// Under fault injection of a layout rule (its Checks, tests and `conform
// prove` only) it makes the same mistake as a Decoder with those Checks, so
// that what it writes reads back.
type Encoder struct {
	buf []byte
	c   rules.Checks
	// faulty is c.Faulty(): only then do the layout rules consult c, so
	// that the hot paths pay one branch for fault injection.
	faulty bool
}

// NewEncoder returns an Encoder under c whose buffer starts with capacity n.
func NewEncoder(c rules.Checks, n int) Encoder {
	return Encoder{buf: make([]byte, 0, n), c: c, faulty: c.Faulty()}
}

// Enforced reports whether the layout rule id is enforced: always, unless
// the Encoder's Checks switch it off (tests only). The codecs' layout
// choices ask it.
func (e *Encoder) Enforced(id rules.ID) bool { return !e.faulty || e.c.Enforced(id) }

// Bytes returns the bytes written so far.
func (e *Encoder) Bytes() []byte { return e.buf }

// U8 appends a u8.
func (e *Encoder) U8(v uint8) { e.buf = append(e.buf, v) }

// uint appends the n = 2, 4 or 8 low bytes of v, unaligned (HR-CENC-01)
// and big-endian (HR-CENC-02). Under fault injection of either rule it
// makes the same mistake as the Decoder, so that what it writes reads back.
func (e *Encoder) uint(n int, v uint64) {
	if !e.Enforced(RuleDeclarationOrder) {
		for len(e.buf)&(n-1) != 0 {
			e.buf = append(e.buf, 0)
		}
	}
	var a [8]byte
	if e.Enforced(RuleBigEndian) {
		binary.BigEndian.PutUint64(a[:], v<<(64-8*n))
	} else {
		binary.LittleEndian.PutUint64(a[:], v)
	}
	e.buf = append(e.buf, a[:n]...)
}

// U16 appends a big-endian u16 (HR-CENC-02).
func (e *Encoder) U16(v uint16) { e.uint(2, uint64(v)) }

// U32 appends a big-endian u32 (HR-CENC-02).
func (e *Encoder) U32(v uint32) { e.uint(4, uint64(v)) }

// U64 appends a big-endian u64 (HR-CENC-02).
func (e *Encoder) U64(v uint64) { e.uint(8, v) }

// Fixed appends a fixed byte string, with no length prefix (HR-CENC-03; under
// its fault injection, with one, as the Decoder then expects).
func (e *Encoder) Fixed(b []byte) {
	if !e.Enforced(RuleFixedBytes) {
		e.CompactUint(uint64(len(b)))
	}
	e.buf = append(e.buf, b...)
}

// Raw appends b as it is: bytes whose length the layout fixes elsewhere
// (an artifact's sections, a manifest path, a blob's sealed bytes), which
// Decoder.Raw reads.
func (e *Encoder) Raw(b []byte) { e.buf = append(e.buf, b...) }

// Count appends an array count: the canonical shortest compact uint
// (HR-CENC-05; under its fault injection a u32be, as the Decoder then expects).
func (e *Encoder) Count(n int) {
	if !e.Enforced(RuleArray) {
		e.U32(uint32(n))
		return
	}
	e.CompactUint(uint64(n))
}

// CompactUint appends v in its canonical shortest compact form (HR-CENC-06).
// Under fault injection of HR-CENC-06 (choosing the form is a construction
// rule) every value is written in the 0xff form.
func (e *Encoder) CompactUint(v uint64) {
	if !e.Enforced(RuleCompactForms) {
		e.buf = binary.LittleEndian.AppendUint64(append(e.buf, 0xff), v)
		return
	}
	e.buf = AppendCompactUint(e.buf, v)
}

// BoundedBytes appends the compact length of b, then b (HR-CENC-04; under
// its fault injection a u16be length, as the Decoder then expects).
func (e *Encoder) BoundedBytes(b []byte) {
	if e.Enforced(RuleBoundedBytes) {
		e.CompactUint(uint64(len(b)))
	} else {
		e.U16(uint16(len(b)))
	}
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
// they are; decoding refuses them (HR-CENC-08). It is the standard form
// whatever the faults (Encoder.CompactUint makes the HR-CENC-06 mistake).
func AppendCompactUint(dst []byte, v uint64) []byte {
	switch {
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
