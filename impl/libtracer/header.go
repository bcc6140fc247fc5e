package libtracer

import (
	"encoding/binary"
	"fmt"
	"math/bits"

	"github.com/threespec/conformance/impl/rules"
)

// The spec's error codes (docs/DECISIONS.md, libtracer).
const (
	CodeInvalid        = "INVALID"
	CodeCRCFail        = "tr::frame::crc_fail"
	CodeTruncated      = "tr::frame::truncated"
	CodeTransportDown  = "tr::transport::down"
	CodePathInvalid    = "tr::path::invalid"
	CodeNestingTooDeep = "tr::tlv::nesting_too_deep"
	CodeTypeMismatch   = "tr::schema::type_mismatch"
)

// Opt is the options byte at offset 1 of every TLV (§Options bitfield):
//
//	bit 7  6  5  4  3  2  1  0
//	    R  PL TS CR LL CW TF R
type Opt uint8

// The option bits (§Options bitfield, LT-OPT-01..11).
const (
	OptTF Opt = 1 << 1 // timestamp form: 0 absolute u64, 1 relative i32 (LT-OPT-10)
	OptCW Opt = 1 << 2 // CRC width: 0 CRC-32C, 1 CRC-16-CCITT (LT-OPT-08)
	OptLL Opt = 1 << 3 // length width: 0 u16, 1 u32 (LT-OPT-07)
	OptCR Opt = 1 << 4 // trailer has a CRC (LT-OPT-06)
	OptTS Opt = 1 << 5 // trailer has a timestamp (LT-OPT-05)
	OptPL Opt = 1 << 6 // payload is concatenated child TLVs (LT-OPT-04)

	OptReserved7 Opt = 1 << 7 // reserved, MUST be zero (LT-OPT-01)
	OptReserved0 Opt = 1 << 0 // reserved, MUST be zero (LT-OPT-02)
)

// Has reports whether every bit of b is set in o.
func (o Opt) Has(b Opt) bool { return o&b == b }

// HeaderSize is H: 4 with LL=0, 6 with LL=1 (LT-FRAME-03, LT-FRAME-04).
func (o Opt) HeaderSize() int {
	if o.Has(OptLL) {
		return 6
	}
	return 4
}

// TSSize is T, the width of trailer_ts: 8 (TS=1, TF=0), 4 (TS=1, TF=1) or 0
// (LT-FRAME-06, LT-FRAME-07; TF alone is ignored, LT-OPT-11).
func (o Opt) TSSize() int {
	switch {
	case !o.Has(OptTS):
		return 0
	case o.Has(OptTF):
		return 4
	default:
		return 8
	}
}

// CRCSize is the width of trailer_crc: 4 (CR=1, CW=0), 2 (CR=1, CW=1) or 0
// (LT-FRAME-08, LT-FRAME-09; CW alone is ignored, LT-OPT-09).
func (o Opt) CRCSize() int {
	switch {
	case !o.Has(OptCR):
		return 0
	case o.Has(OptCW):
		return 2
	default:
		return 4
	}
}

// TrailerSize is T_ts + T_crc, 0 to 12 bytes (LT-LIFE-02).
func (o Opt) TrailerSize() int { return o.TSSize() + o.CRCSize() }

// Limits of the length field (§Length encoding).
const (
	MaxLen16 = 0xFFFF     // LL=0 (LT-LEN-01)
	MaxLen32 = 0xFFFFFFFF // LL=1 (LT-LEN-02)
)

// Header is the fixed part of a TLV: type, opt and the declared payload
// length.
type Header struct {
	Type   uint8
	Opt    Opt
	Length uint32
}

// Size is H.
func (h Header) Size() int { return h.Opt.HeaderSize() }

// FrameSize is the total frame size H + L + T + C (LT-FRAME-10). It is
// computed in uint64, where it cannot overflow (L < 2^32, the rest <= 18),
// also on 32-bit platforms.
func (h Header) FrameSize() uint64 {
	return uint64(h.Opt.HeaderSize()) + uint64(h.Length) + uint64(h.Opt.TrailerSize())
}

// Append appends the header's 4 or 6 bytes, the length little-endian in the
// width h.Opt.LL selects (LT-FRAME-03, LT-FRAME-04, LT-FRAME-11). It fails
// when LL=0 and the length exceeds 65535 (LT-LEN-01).
func (h Header) Append(dst []byte) ([]byte, error) { return h.appendWith(rules.Current(), dst) }

// appendWith is Append under the Checks c.
func (h Header) appendWith(c rules.Checks, dst []byte) ([]byte, error) {
	if !h.Opt.Has(OptLL) && h.Length > MaxLen16 && c.Enforced(RuleLenMax16) {
		return dst, rules.Fail(RuleLenMax16, CodeInvalid, -1, "length %d does not fit the u16 length of LL=0", h.Length)
	}
	dst = append(dst, h.Type, byte(h.Opt))
	if h.Opt.Has(OptLL) {
		return binary.LittleEndian.AppendUint32(dst, h.Length), nil
	}
	return binary.LittleEndian.AppendUint16(dst, uint16(h.Length)), nil
}

// Limits are a receiver's options (docs/DECISIONS.md: depth and size limits are
// receiver options, never constants of the format). The zero value gives the
// defaults.
type Limits struct {
	// MaxTLVBytes is MAX_TLV_BYTES: the largest declared payload length the
	// receiver accepts (LT-TRUNC-06). 0 means DefaultMaxTLVBytes.
	MaxTLVBytes uint64
	// MaxOpenLevels is the work-stack budget: how many structured (PL=1)
	// TLVs may be open at once (LT-NEST-02). 0 means DefaultMaxOpenLevels;
	// a value below MinOpenLevels is raised to it (LT-NEST-04).
	MaxOpenLevels int
}

// Defaults and floor of the limits.
const (
	DefaultMaxTLVBytes   = 16 << 20 // 16 MiB, the spec's recommendation (LT-TRUNC-07)
	DefaultMaxOpenLevels = 1024     // the project's default work-stack budget
	MinOpenLevels        = 5        // protocol shapes nest at most 5 deep (LT-NEST-04)
)

func (l Limits) maxLen() uint64 {
	if l.MaxTLVBytes == 0 {
		return DefaultMaxTLVBytes
	}
	return l.MaxTLVBytes
}

// budget is the work-stack budget under the Checks c: a requested budget
// below MinOpenLevels is raised to it (LT-NEST-04) unless c switches that
// rule off or takes LT-READ-18's alternative (the budget used as given).
func (l Limits) budget(c rules.Checks) int {
	switch {
	case l.MaxOpenLevels == 0:
		return DefaultMaxOpenLevels
	case l.MaxOpenLevels < MinOpenLevels && c.Enforced(RuleNestProtocolDepth) && !c.Takes(ReadDepthFloor, AltBudgetAsConfigured):
		return MinOpenLevels
	case l.MaxOpenLevels < 1:
		return 1
	}
	return l.MaxOpenLevels
}

// ParseHeader reads the header at the start of b and checks it in byte
// order: type (LT-TYPE-01), opt (LT-OPT-01, LT-OPT-02), the length field
// (LT-FRAME-03, LT-FRAME-04) and MAX_TLV_BYTES (LT-TRUNC-06). It does not
// require the payload or trailer to be present. A header cut short is
// tr::frame::truncated (LT-TRUNC-03).
func ParseHeader(b []byte, lim Limits) (Header, error) { return parseHeader(rules.Current(), b, lim) }

// parseHeader is ParseHeader under the Checks c.
func parseHeader(c rules.Checks, b []byte, lim Limits) (Header, error) {
	var hb [6]byte
	n := copy(hb[:], b)
	var h Header
	var need int
	var err error
	if d := dialectOf(c); d.std {
		h, need, err = checkHeader(c, &hb, n, 0, lim.maxLen())
	} else {
		h, need, err = d.checkHeader(c, &hb, n, 0, d.maxLen(lim), false)
	}
	if err != nil {
		return h, err
	}
	if need > 0 && c.Enforced(RuleTruncDatagram) {
		return h, rules.Fail(RuleTruncDatagram, CodeTruncated, 0, "header needs %d more bytes, %d present", need, n)
	}
	return h, nil
}

// checkHeader decodes and checks the first n (0..6) bytes of a header at
// offset off, in byte order, as far as they go, as libtracer-01 reads them
// under the Checks c (a fault dialect reads them with its own
// dialect.checkHeader). It returns the header, the number of header bytes
// it still needs (0 when complete), and the first violation: type 0x00
// (LT-TYPE-01), reserved bits (LT-OPT-01, LT-OPT-02), length above max
// (LT-TRUNC-06). Callers decide what a short header means.
func checkHeader(c rules.Checks, hb *[6]byte, n int, off int64, max uint64) (Header, int, error) {
	var h Header
	if n < 1 {
		return h, 1, nil
	}
	h.Type = hb[0]
	// §Type code registry: "Receivers MUST treat type=0x00 as INVALID." (LT-TYPE-01)
	if h.Type == 0x00 && c.Enforced(RuleTypeZero) {
		return h, 0, rules.Fail(RuleTypeZero, CodeInvalid, off, "type 0x00 is the reserved sentinel (zeroed buffer or framing corruption)")
	}
	if n < 2 {
		return h, 1, nil
	}
	h.Opt = Opt(hb[1])
	// §Options bitfield: reserved bits 7 and 0 MUST be zero; receivers MUST
	// reject non-zero as INVALID (LT-OPT-01, LT-OPT-02).
	if h.Opt.Has(OptReserved7) && c.Enforced(RuleOptReserved7) {
		return h, 0, rules.Fail(RuleOptReserved7, CodeInvalid, off+1, "opt 0x%02x has reserved bit 7 set", byte(h.Opt))
	}
	if h.Opt.Has(OptReserved0) && c.Enforced(RuleOptReserved0) {
		return h, 0, rules.Fail(RuleOptReserved0, CodeInvalid, off+1, "opt 0x%02x has reserved bit 0 set", byte(h.Opt))
	}
	size := h.Opt.HeaderSize()
	if n < size {
		return h, size - n, nil
	}
	if h.Opt.Has(OptLL) {
		h.Length = binary.LittleEndian.Uint32(hb[2:6]) // LT-FRAME-04
	} else {
		h.Length = uint32(binary.LittleEndian.Uint16(hb[2:4])) // LT-FRAME-03
	}
	if uint64(h.Length) > max {
		return h, 0, checkMax(c, h, off, max)
	}
	return h, 0, nil
}

// checkMax rejects a length above MAX_TLV_BYTES: §Truncation handling, it
// MUST be rejected as INVALID without allocating the segment (LT-TRUNC-06).
func checkMax(c rules.Checks, h Header, off int64, max uint64) error {
	if uint64(h.Length) > max && c.Enforced(RuleTruncMaxTLV) {
		return rules.Fail(RuleTruncMaxTLV, CodeInvalid, off+2, "length %d exceeds MAX_TLV_BYTES %d", h.Length, max)
	}
	return nil
}

// checkHeader is checkHeader as a fault dialect reads the header: the type
// and opt bytes as it takes them, the reserved bits as it checks them
// (libtracer-01's checks on those), then the length as it reads it.
func (d *dialect) checkHeader(c rules.Checks, hb *[6]byte, n int, off int64, max uint64, nested bool) (Header, int, error) {
	b := *hb
	if d.swapTypeOpt { // the header read as opt, type
		if n < 2 {
			return Header{}, 1, nil
		}
		b[0], b[1] = b[1], b[0]
	}
	if d.revOpt { // opt bits numbered from the left
		b[1] = bits.Reverse8(b[1])
	}
	checked := b
	switch {
	case nested && d.reservedTopOnly:
		checked[1] &^= byte(OptReserved7 | OptReserved0)
	case d.versionBit:
		checked[1] &^= byte(OptReserved7)
	}
	h, need, err := checkHeader(c, &checked, min(n, 2), off, max)
	if err != nil || n < 2 {
		return h, need, err
	}
	h.Opt = Opt(b[1])
	if need, err := d.faultLength(&b, n, off, max, &h); need > 0 || err != nil {
		return h, need, err
	}
	return h, 0, checkMax(c, h, off, max)
}

// faultLength reads the length field of h as a fault dialect does, and
// makes the length checks of its faults.
func (d *dialect) faultLength(hb *[6]byte, n int, off int64, max uint64, h *Header) (int, error) {
	s := d.shapes[h.Opt]
	size := int(s.h)
	if n < size {
		return size - n, nil
	}
	switch {
	case s.len32:
		h.Length = d.u32(hb[2:6]) // LT-FRAME-04
	case d.lenU32Load: // fault: a u32 load whatever LL
		h.Length = binary.LittleEndian.Uint32(hb[2:6])
	case d.lenBE:
		h.Length = uint32(binary.BigEndian.Uint16(hb[2:4]))
	default:
		h.Length = uint32(d.u16(hb[2:4])) // LT-FRAME-03
	}
	switch {
	case d.ll1Max16 && h.Opt.Has(OptLL) && h.Length > MaxLen16:
		return 0, faultErr(RuleLenMax32, CodeInvalid, off+2, "fault: an LL=1 length above 65535")
	case d.zeroLenInvalid && h.Length == 0:
		return 0, faultErr(RuleFrameMinimum, CodeInvalid, off+2, "fault: an empty payload taken for a zeroed buffer")
	case d.maxOffByOne && uint64(h.Length) == max:
		return 0, faultErr(RuleTruncMaxTLV, CodeInvalid, off+2, "fault: a length equal to MAX_TLV_BYTES")
	}
	return 0, nil
}

// TypeClass sorts type codes by the registry (§Type code registry).
type TypeClass uint8

// Type classes.
const (
	ClassSentinel TypeClass = iota // 0x00: INVALID (LT-TYPE-01)
	ClassCore                      // 0x01..0x0D except 0x05: assigned core types (LT-TYPE-02)
	ClassReserved                  // 0x05: reserved-unassigned, handled as unknown (LT-TYPE-05)
	ClassUnknown                   // 0x0E..0x7F: unassigned in v1 (LT-TYPE-03)
	ClassUser                      // 0x80..0xFF: user-defined (LT-TYPE-04)
)

// ClassOf returns the registry class of type code t.
func ClassOf(t uint8) TypeClass {
	switch {
	case t == 0x00:
		return ClassSentinel
	case t == 0x05:
		return ClassReserved
	case t <= 0x0D:
		return ClassCore
	case t <= 0x7F:
		return ClassUnknown
	default:
		return ClassUser
	}
}

// Known reports whether a v1 receiver understands type code t: an assigned
// core type or a user type. Unknown codes (0x05, 0x0E..0x7F) are skipped by
// length (LT-UNK-04) and never walked (LT-UNK-06).
func Known(t uint8) bool {
	c := ClassOf(t)
	return c == ClassCore || c == ClassUser
}

func (c TypeClass) String() string {
	switch c {
	case ClassSentinel:
		return "sentinel"
	case ClassCore:
		return "core"
	case ClassReserved:
		return "reserved"
	case ClassUnknown:
		return "unknown"
	}
	return "user"
}

// Type codes whose names the spec gives (docs/DECISIONS.md: the other assigned codes
// are named in a chapter not given).
const (
	TypeValue  uint8 = 0x01
	TypeName   uint8 = 0x02
	TypePath   uint8 = 0x06
	TypeStatus uint8 = 0x09
)

// NameOf returns the spec's name of type code t, or "" where it gives none.
func NameOf(t uint8) string {
	switch t {
	case TypeValue:
		return "VALUE"
	case TypeName:
		return "NAME"
	case TypePath:
		return "PATH"
	case TypeStatus:
		return "STATUS"
	}
	return ""
}

func (h Header) String() string {
	return fmt.Sprintf("type 0x%02x opt 0x%02x length %d", h.Type, byte(h.Opt), h.Length)
}
