// Package tracermodel is the part of the suite's second reading of
// libtracer-01 that conform links as well as the generator: the wire's
// option bits, sizes, type registry and checksums, the codes the spec
// names, and the check orders the spec allows (Order), all written from
// libtracer-01 and docs/libtracer.md alone and sharing no code with
// impl/libtracer, the reference that the vectors and conform fuzz check.
// The generator (impl/libtracer/tracervec) builds its wire writer and its
// own receiver on it; the Spec's CheckOrder (impl/libtracer/tracerspec)
// answers with it.
package tracermodel

import (
	"hash/crc32"
)

// Option bits (libtracer-01 §Options bitfield): bit 7 R, 6 PL, 5 TS, 4 CR,
// 3 LL, 2 CW, 1 TF, 0 R.
const (
	BitR0 uint8 = 1 << 0
	BitTF uint8 = 1 << 1
	BitCW uint8 = 1 << 2
	BitLL uint8 = 1 << 3
	BitCR uint8 = 1 << 4
	BitTS uint8 = 1 << 5
	BitPL uint8 = 1 << 6
	BitR7 uint8 = 1 << 7
)

// Codes of libtracer-01 (docs/DECISIONS.md).
const (
	CodeInvalid   = "INVALID"
	CodeCRCFail   = "tr::frame::crc_fail"
	CodeTruncated = "tr::frame::truncated"
	CodeDown      = "tr::transport::down"
	CodePath      = "tr::path::invalid"
	CodeTooDeep   = "tr::tlv::nesting_too_deep"
	CodeMismatch  = "tr::schema::type_mismatch"
)

// Bounds and transports of libtracer.decode (docs/PROTOCOL.md).
const (
	DefaultMaxTLV     = 16 << 20 // MAX_TLV_BYTES recommended by §Truncation handling (LT-TRUNC-07)
	DefaultBudget     = 1024     // the reference's default work-stack budget (docs/libtracer.md)
	MinBudget         = 5        // protocol shapes nest at most 5 deep (LT-NEST-04)
	TransportDatagram = "datagram"
	TransportStream   = "stream"
)

// Known reports whether a v1 receiver walks type t when PL=1: the assigned
// core codes 0x01..0x0D except the reserved 0x05 (docs/DECISIONS.md) and
// the user codes 0x80..0xFF. 0x05 and 0x0E..0x7F are unknown (LT-TYPE-03,
// LT-TYPE-05).
func Known(t uint8) bool {
	return (t >= 0x01 && t <= 0x0D && t != 0x05) || t >= 0x80
}

// castagnoli is CRC-32C: polynomial 0x1EDC6F41, reflected 0x82F63B78,
// init 0xFFFFFFFF, xorout 0xFFFFFFFF, refin = refout = true, check
// ("123456789") 0xE3069283 (libtracer-01 §CRC-32C, LT-CRC-01..04).
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// CRC32C is the CRC-32C of b.
func CRC32C(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }

// CRC16 is CRC-16-CCITT as libtracer-01 §CRC-16-CCITT gives it: polynomial
// 0x1021, init 0xFFFF, refin = refout = false, xorout 0x0000, check
// ("123456789") 0x29B1 (LT-CRC-05..08). Bit by bit: the model's inputs
// are small.
func CRC16(b []byte) uint16 {
	c := uint16(0xFFFF)
	for _, x := range b {
		c ^= uint16(x) << 8
		for range 8 {
			if c&0x8000 != 0 {
				c = c<<1 ^ 0x1021
			} else {
				c <<= 1
			}
		}
	}
	return c
}

// CRC16Reflected is the CRC-16 of LT-READ-19's alternative: polynomial
// 0x1021 reflected (0x8408), init 0xFFFF, refin = refout = true, xorout 0
// (CRC-16/MCRF4XX, check 0x6F91).
func CRC16Reflected(b []byte) uint16 {
	c := uint16(0xFFFF)
	for _, x := range b {
		c ^= uint16(x)
		for range 8 {
			if c&1 != 0 {
				c = c>>1 ^ 0x8408
			} else {
				c >>= 1
			}
		}
	}
	return c
}

// TSSize is the size of a frame's trailer_ts under opt: 0, 4 (TF=1) or 8.
func TSSize(opt uint8) int {
	switch {
	case opt&BitTS == 0:
		return 0
	case opt&BitTF != 0:
		return 4
	}
	return 8
}

// CRCSize is the size of a frame's trailer_crc under opt: 0, 2 (CW=1) or 4.
func CRCSize(opt uint8) int {
	switch {
	case opt&BitCR == 0:
		return 0
	case opt&BitCW != 0:
		return 2
	}
	return 4
}

// HeaderSize is the size of a frame's header under opt: 6 with LL=1, else 4.
func HeaderSize(opt uint8) int {
	if opt&BitLL != 0 {
		return 6
	}
	return 4
}

// Args are the arguments of libtracer.decode that its verdict depends on
// (docs/PROTOCOL.md).
type Args struct {
	Transport   string `json:"transport"`
	MaxTLVBytes *int64 `json:"max_tlv_bytes,omitempty"`
	WorkBudget  *int64 `json:"work_budget,omitempty"`
	Report      string `json:"report,omitempty"`
}

// MaxTLV is MAX_TLV_BYTES under a.
func (a Args) MaxTLV() uint64 {
	if a.MaxTLVBytes == nil {
		return DefaultMaxTLV
	}
	return uint64(*a.MaxTLVBytes)
}

// Budget is the work-stack budget under a: the budget asked for, raised
// to MinBudget (LT-NEST-04).
func (a Args) Budget() int {
	switch {
	case a.WorkBudget == nil:
		return DefaultBudget
	case *a.WorkBudget < MinBudget:
		return MinBudget
	}
	return int(*a.WorkBudget)
}
