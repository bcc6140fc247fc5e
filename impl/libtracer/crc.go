package libtracer

import (
	"encoding/binary"
	"hash/crc32"
)

// CRC-32C (§CRC / CRC-32C, LT-CRC-01..04), the full parameter set:
//
//	width  32
//	poly   0x1EDC6F41 (Castagnoli), reflected 0x82F63B78
//	init   0xFFFFFFFF
//	refin  true
//	refout true
//	xorout 0xFFFFFFFF
//	check  0xE3069283 (CRC of the ASCII bytes "123456789")
//	wire   u32 little-endian (LT-FRAME-08)
//
// It is hash/crc32 with the Castagnoli table: crc32 uses the SSE 4.2 or
// ARMv8 CRC32C instructions when the CPU has them and slicing-by-8 tables
// otherwise; both give the same values.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// CRC32C returns the CRC-32C of p.
func CRC32C(p []byte) uint32 { return crc32.Checksum(p, castagnoli) }

// UpdateCRC32C returns the CRC-32C of m||p given crc = CRC32C(m)
// (UpdateCRC32C(0, p) = CRC32C(p)).
func UpdateCRC32C(crc uint32, p []byte) uint32 { return crc32.Update(crc, castagnoli, p) }

// CRC-16-CCITT (§CRC / CRC-16-CCITT, LT-CRC-05..08), the full parameter set
// (the variant catalogues call CRC-16/IBM-3740 or CRC-16/CCITT-FALSE):
//
//	width  16
//	poly   0x1021 (x^16 + x^12 + x^5 + 1)
//	init   0xFFFF
//	refin  false
//	refout false
//	xorout 0x0000
//	check  0x29B1 (CRC of the ASCII bytes "123456789")
//	wire   u16 little-endian (LT-FRAME-09)
//
// Table-driven, most significant bit first, one 256-entry table.
const (
	crc16Poly = 0x1021
	crc16Init = 0xFFFF
)

var crc16Table = func() (t [256]uint16) {
	for i := range t {
		c := uint16(i) << 8
		for range 8 {
			if c&0x8000 != 0 {
				c = c<<1 ^ crc16Poly
			} else {
				c <<= 1
			}
		}
		t[i] = c
	}
	return t
}()

// CRC16 returns the CRC-16-CCITT of p.
func CRC16(p []byte) uint16 { return UpdateCRC16(crc16Init, p) }

// UpdateCRC16 returns the CRC-16-CCITT of m||p given crc = CRC16(m)
// (UpdateCRC16(0xFFFF, p) = CRC16(p)).
func UpdateCRC16(crc uint16, p []byte) uint16 {
	for _, b := range p {
		crc = crc<<8 ^ crc16Table[byte(crc>>8)^b]
	}
	return crc
}

// CRCAccumulator computes a trailer CRC incrementally, as streaming senders
// and receivers do (§CRC / Coverage, LT-CRC-13, LT-CRC-14): write the payload
// chunks as they pass, then the trailer_ts bytes, then read Sum. The header
// is never written to it (LT-CRC-12). The zero value is not ready: use
// NewCRCAccumulator.
type CRCAccumulator struct {
	cw16 bool
	c    uint32
}

// NewCRCAccumulator returns an empty accumulator of the width opt.CW
// selects: CRC-16-CCITT when CW=1, CRC-32C otherwise.
func NewCRCAccumulator(o Opt) CRCAccumulator {
	cw16 := o.Has(OptCW)
	return CRCAccumulator{cw16: cw16, c: crcInit(cw16)}
}

// Write folds p into the accumulator. It never fails.
func (a *CRCAccumulator) Write(p []byte) (int, error) {
	a.c = crcUpdate(a.cw16, a.c, p)
	return len(p), nil
}

// Sum returns the CRC of everything written so far.
func (a *CRCAccumulator) Sum() uint32 { return a.c }

// Size is the width of the trailer_crc field: 4 or 2 bytes.
func (a *CRCAccumulator) Size() int {
	if a.cw16 {
		return 2
	}
	return 4
}

// AppendSum appends the trailer_crc field, little-endian (LT-FRAME-08,
// LT-FRAME-09).
func (a *CRCAccumulator) AppendSum(dst []byte) []byte { return appendCRC(dst, a.cw16, a.c) }

func crcInit(cw16 bool) uint32 {
	if cw16 {
		return crc16Init
	}
	return 0 // CRC32C of no bytes
}

func crcUpdate(cw16 bool, c uint32, p []byte) uint32 {
	if cw16 {
		return uint32(UpdateCRC16(uint16(c), p))
	}
	return crc32.Update(c, castagnoli, p)
}

func appendCRC(dst []byte, cw16 bool, c uint32) []byte {
	if cw16 {
		return binary.LittleEndian.AppendUint16(dst, uint16(c))
	}
	return binary.LittleEndian.AppendUint32(dst, c)
}

func readCRC(b []byte, cw16 bool) uint32 {
	if cw16 {
		return uint32(binary.LittleEndian.Uint16(b))
	}
	return binary.LittleEndian.Uint32(b)
}

// Splitting a CRC.
//
// A frame nested in others is covered by its own CRC and by the CRC of every
// structured ancestor that has one. Checking each of them over its own bytes
// would cost (depth x size). Instead the walker keeps one running CRC per
// width over the bytes in walk order, remembers its value C(A) where a
// covered range starts, and at the range's end derives the range's CRC from
// the running value C(AB):
//
//	CRC-32C:       C(B) = C(AB) ^ shift(C(A), |B|)
//	CRC-16-CCITT:  C(B) = C(AB) ^ shift(C(A) ^ 0xFFFF, |B|)
//
// where shift(v, n) multiplies v by x^(8n) modulo the polynomial (the effect
// of n zero bytes on a register). This follows from the linearity of the
// CRC register (zlib's crc32_combine, turned around). Each byte is then
// folded once per width and each covered range costs one shift: O(log n)
// carry-less products.

// mulmod32 returns a*b modulo the reflected CRC-32C polynomial, bit 31
// standing for x^0 (zlib's multmodp).
func mulmod32(a, b uint32) uint32 {
	var p uint32
	for m := uint32(1) << 31; m != 0; m >>= 1 {
		if a&m != 0 {
			p ^= b
			if a&(m-1) == 0 {
				break
			}
		}
		if b&1 != 0 {
			b = b>>1 ^ 0x82F63B78
		} else {
			b >>= 1
		}
	}
	return p
}

// mulmod16 returns a*b modulo the CRC-16-CCITT polynomial, bit 15 standing
// for x^15 (not reflected).
func mulmod16(a, b uint16) uint16 {
	var p uint16
	for i := 15; i >= 0; i-- {
		if p&0x8000 != 0 {
			p = p<<1 ^ crc16Poly
		} else {
			p <<= 1
		}
		if a>>uint(i)&1 != 0 {
			p ^= b
		}
	}
	return p
}

// x8pow32[k] and x8pow16[k] are x^(8*2^k) modulo each polynomial: the shift
// of 2^k zero bytes. 64 entries cover every int64 length.
var x8pow32, x8pow16 = func() (t32 [64]uint32, t16 [64]uint16) {
	p32 := uint32(1) << (31 - 8) // x^8, reflected
	p16 := uint16(1) << 8        // x^8
	for k := range t32 {
		t32[k], t16[k] = p32, p16
		p32, p16 = mulmod32(p32, p32), mulmod16(p16, p16)
	}
	return t32, t16
}()

// shiftCRC returns v * x^(8n) modulo the polynomial of the width cw16 selects.
func shiftCRC(cw16 bool, v uint32, n int64) uint32 {
	for k := 0; n != 0 && v != 0; k, n = k+1, n>>1 {
		if n&1 == 0 {
			continue
		}
		if cw16 {
			v = uint32(mulmod16(x8pow16[k], uint16(v)))
		} else {
			v = mulmod32(x8pow32[k], v)
		}
	}
	return v
}

// splitCRC returns C(B) from whole = C(AB), head = C(A) and n = |B|.
func splitCRC(cw16 bool, whole, head uint32, n int64) uint32 {
	if cw16 {
		return whole ^ shiftCRC(true, head^crc16Init, n)
	}
	return whole ^ shiftCRC(false, head, n)
}

// crcReg is one running CRC of a walk (see "Splitting a CRC"). It runs only
// while a covered range is open: the first range to open restarts it at the
// range's start.
type crcReg struct {
	open int   // covered ranges open on it
	pos  int64 // source offset it has folded up to
	c    uint32
}

// start opens a covered range at offset at and returns the running value
// there, to give to finish.
func crcStart(r *crcReg, src source, cw16 bool, at int64) uint32 {
	if r.open == 0 {
		r.pos, r.c = at, crcInit(cw16)
	} else {
		r.c = src.crc(cw16, r.c, r.pos, at)
		r.pos = at
	}
	r.open++
	return r.c
}

// finish closes the covered range [start, end) opened with value head and
// returns its CRC.
func crcFinish(r *crcReg, src source, cw16 bool, head uint32, start, end int64) uint32 {
	r.c = src.crc(cw16, r.c, r.pos, end)
	r.pos = end
	r.open--
	return splitCRC(cw16, r.c, head, end-start)
}
