// Package cenc implements the canonical primitives of section 2 of HiveRelay
// Blind Client Composition v1: fixed-width big-endian integers, fixed and
// bounded byte strings, arrays with the canonical shortest compact-uint count,
// optionals tagged 0 or 1, strict sorting and nonzero checks.
//
// Every failure is a *rules.Violation with code BAD_ENCODING, the most specific
// rule ID, the byte offset where the offending field starts, and a detail
// naming the field (for example "snapshotReadCaps[1].relayPublicKey").
//
// Decoders never allocate in proportion to a declared length or count: a
// count or length larger than the remaining input fails (HR-CENC-11) before
// anything is allocated for it. Byte strings returned by a Decoder alias its
// input.
package cenc

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"

	"github.com/threespec/conformance/impl/rules"
)

// Code is the code section 2 gives every decoding failure.
const Code = "BAD_ENCODING"

// MaxSafeInteger is JavaScript's largest exact safe integer, 2^53-1, the
// largest value a compact uint may carry (section 2, HR-CENC-08).
const MaxSafeInteger = 1<<53 - 1

// maxScope bounds the nesting a Decoder names in error details; deeper
// scopes are still tracked but rendered as "…".
const maxScope = 6

type scope struct {
	name  string
	index int // -1 when the scope is not an array element
}

// Decoder reads canonical primitives from a byte slice under the
// rules.Checks it was made with. The zero value is not usable; make one with
// NewDecoder.
//
// Under fault injection (its Checks, tests only) a check may be switched
// off; the Decoder then carries on without panicking: a truncated read
// yields the bytes that remain (zero-filled for fixed-width values) and
// marks the Decoder exhausted, so that array loops stop.
type Decoder struct {
	buf       []byte
	off       int
	exhausted bool
	// faulty is c.Faulty(): only then do the per-field checks consult c,
	// so that the hot paths pay one branch for fault injection.
	faulty bool
	c      rules.Checks
	trunc  rules.ID
	scopes [maxScope]scope
	depth  int
	// lax, when set (under fault injection only, SetLax), names the rules
	// Rejects reports as not rejecting: a nested value is then read by its
	// layout alone, its own record checks skipped.
	lax func(rules.ID) bool
}

// NewDecoder returns a Decoder over b under c that reports truncation with
// HR-CENC-11.
func NewDecoder(c rules.Checks, b []byte) Decoder {
	return Decoder{buf: b, trunc: RuleTruncated, c: c, faulty: c.Faulty()}
}

// Checks returns the rules.Checks the Decoder was made with.
func (d *Decoder) Checks() rules.Checks { return d.c }

// Enforced reports whether the layout rule id is enforced: always, unless
// the Decoder's Checks switch it off (tests only). The per-field
// construction checks (which layout to read) ask it.
func (d *Decoder) Enforced(id rules.ID) bool { return !d.faulty || d.c.Enforced(id) }

// Rejects reports whether the Decoder rejects input by rule id: always,
// unless its Checks switch off id or a general rule id realizes
// (RegisterRealized, tests only), or a SetLax setting drops id. Every
// failure is guarded by it, so that Fail itself is pure:
//
//	if zero && d.Rejects(rule) {
//		return d.Fail(rule, at, field, "all bytes are zero")
//	}
func (d *Decoder) Rejects(id rules.ID) bool { return !d.faulty || d.rejects(id) }

// rejects is Rejects under fault injection (kept apart so that Rejects
// inlines).
func (d *Decoder) rejects(id rules.ID) bool {
	return Rejects(d.c, id) && (d.lax == nil || !d.lax(id))
}

// Mutated reports whether the named mutant id is switched on in the
// Decoder's Checks (tests and `conform prove` only).
func (d *Decoder) Mutated(id rules.ID) bool { return d.faulty && d.c.Mutated(id) }

// SetLax makes Rejects report false for every rule lax reports, until it is
// set again (nil ends it); it returns the previous setting. It serves fault
// injection only (a decoder that reads a nested record by its layout and
// skips that record's own checks): the Decoder ignores it unless its Checks
// are faulty.
func (d *Decoder) SetLax(lax func(rules.ID) bool) (prev func(rules.ID) bool) {
	prev = d.lax
	if d.faulty {
		d.lax = lax
	}
	return prev
}

// SetTruncationRule makes the Decoder report truncation with rule id instead
// of HR-CENC-11 (the manifest framing has its own truncation rule).
func (d *Decoder) SetTruncationRule(id rules.ID) { d.trunc = id }

// Offset returns the number of bytes consumed so far.
func (d *Decoder) Offset() int { return d.off }

// Consumed returns the input from offset from up to the bytes consumed so
// far, aliasing it (the bytes a record's signature covers, say).
func (d *Decoder) Consumed(from int) []byte { return d.buf[from:d.off:d.off] }

// Remaining returns the number of bytes not yet consumed.
func (d *Decoder) Remaining() int { return len(d.buf) - d.off }

// Exhausted reports whether a truncation was tolerated under fault injection
// and no input remains; array loops stop when it is true.
func (d *Decoder) Exhausted() bool { return d.exhausted && d.off >= len(d.buf) }

// Enter names a nested scope for error details: a record field (index -1)
// or an array element (index >= 0). Every Enter is paired with a Leave.
func (d *Decoder) Enter(name string, index int) {
	if d.depth < maxScope {
		d.scopes[d.depth] = scope{name, index}
	}
	d.depth++
}

// Leave closes the scope opened by the last Enter.
func (d *Decoder) Leave() { d.depth-- }

// Path renders field inside the current scopes, e.g.
// "snapshotReadCaps[1].relayPublicKey"; an empty field names the innermost
// scope itself ("opaquePayloads[3]").
func (d *Decoder) Path(field string) string {
	var b strings.Builder
	for i := 0; i < d.depth; i++ {
		if i >= maxScope {
			b.WriteString("….")
			break
		}
		s := d.scopes[i]
		b.WriteString(s.name)
		if s.index >= 0 {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(s.index))
			b.WriteByte(']')
		}
		b.WriteByte('.')
	}
	if field == "" {
		return strings.TrimSuffix(b.String(), ".")
	}
	b.WriteString(field)
	return b.String()
}

// Fail returns a BAD_ENCODING violation of rule id at byte offset at, whose
// detail starts with the scoped field name. It is pure: callers guard it
// with Rejects(id) and, where that is false, carry on as if the check had
// passed.
func (d *Decoder) Fail(id rules.ID, at int, field, format string, args ...any) error {
	return &rules.Violation{Rule: id, Code: d.codeOf(id), Offset: int64(at), Detail: d.Path(field) + ": " + fmt.Sprintf(format, args...)}
}

// codeOf is the code of a failure of rule id: BAD_ENCODING (section 2,
// HR-CENC-15). Under fault injection of HR-CENC-15 it is what an
// implementation with its own error names would give instead.
func (d *Decoder) codeOf(id rules.ID) string {
	if d.Enforced(RuleBadEncodingCode) {
		return Code
	}
	switch id {
	case d.trunc:
		return "TRUNCATED"
	case RuleTrailing:
		return "TRAILING_BYTES"
	case RuleUnknownVersion:
		return "UNKNOWN_VERSION"
	}
	return "NON_CANONICAL"
}

// take consumes n bytes. When fewer remain it fails with the truncation rule;
// if that rule is switched off it returns what remains.
func (d *Decoder) take(n int, field string) ([]byte, error) {
	if n <= len(d.buf)-d.off {
		s := d.buf[d.off : d.off+n : d.off+n]
		d.off += n
		return s, nil
	}
	// Section 2, HR-CENC-11: truncation fails with BAD_ENCODING.
	if d.Rejects(d.trunc) {
		return nil, d.Fail(d.trunc, d.off, field, "needs %d bytes, only %d remain", n, len(d.buf)-d.off)
	}
	s := d.buf[d.off:]
	d.off = len(d.buf)
	d.exhausted = true
	return s, nil
}

// fixed consumes n <= 8 bytes into a zero-padded array.
func (d *Decoder) fixed(n int, field string) ([8]byte, error) {
	var a [8]byte
	s, err := d.take(n, field)
	copy(a[:], s)
	return a, err
}

// U8 reads a u8.
func (d *Decoder) U8(field string) (uint8, error) {
	a, err := d.fixed(1, field)
	return a[0], err
}

// uint reads a fixed-width unsigned integer of n = 2, 4 or 8 bytes, in
// declaration order with no alignment (HR-CENC-01), big-endian (HR-CENC-02).
func (d *Decoder) uint(n int, field string) (uint64, error) {
	if !d.Enforced(RuleDeclarationOrder) {
		// Fault: the field is aligned to its width, as a C struct would be.
		if pad := -d.off & (n - 1); pad > 0 {
			if _, err := d.take(pad, field); err != nil {
				return 0, err
			}
		}
	}
	a, err := d.fixed(n, field)
	switch {
	case !d.Enforced(RuleBigEndian):
		// Fault: every width read little-endian.
		return binary.LittleEndian.Uint64(a[:]), err
	case n == 8 && d.Mutated(MutU64HalvesSwapped):
		return uint64(binary.BigEndian.Uint32(a[4:]))<<32 | uint64(binary.BigEndian.Uint32(a[:4])), err
	}
	return binary.BigEndian.Uint64(a[:]) >> (64 - 8*n), err
}

// U16 reads a big-endian u16 (HR-CENC-02).
func (d *Decoder) U16(field string) (uint16, error) {
	v, err := d.uint(2, field)
	return uint16(v), err
}

// U32 reads a big-endian u32 (HR-CENC-02).
func (d *Decoder) U32(field string) (uint32, error) {
	v, err := d.uint(4, field)
	return uint32(v), err
}

// U64 reads a big-endian u64 (HR-CENC-02).
func (d *Decoder) U64(field string) (uint64, error) {
	at := d.off
	v, err := d.uint(8, field)
	// Reading HR-READ-12 (docs/READINGS.md): the safe-integer bound of
	// section 2 binds compact uints; under the alternative
	// fixed-u64-within-safe-range it binds fixed u64 fields too.
	if err == nil && v > MaxSafeInteger && d.c.Takes(ReadFixedU64Range, AltFixedU64SafeRange) && d.Rejects(RuleCompactSafe) {
		return v, d.Fail(RuleCompactSafe, at, field, "u64 %d is above 2^53-1 (reading %s %s)", v, ReadFixedU64Range, AltFixedU64SafeRange)
	}
	return v, err
}

// ReadFixedU64Range is the HiveRelay reading of whether the safe-integer
// bound binds fixed u64 fields; AltFixedU64SafeRange is its alternative that
// says it does (impl/hiverelay.Readings).
const (
	ReadFixedU64Range    = "HR-READ-12"
	AltFixedU64SafeRange = "fixed-u64-within-safe-range"
)

// Fixed reads len(dst) bytes into dst: a fixed byte string has no length
// prefix (HR-CENC-03).
func (d *Decoder) Fixed(field string, dst []byte) error {
	if !d.Enforced(RuleFixedBytes) {
		// Fault: a length prefix is read (and ignored) first, as for a
		// bounded byte string.
		if _, err := d.CompactUint(field); err != nil {
			return err
		}
	}
	s, err := d.take(len(dst), field)
	n := copy(dst, s)
	clear(dst[n:])
	return err
}

// FixedNonzero reads len(dst) bytes into dst and fails with rule when they
// are all zero (section 2, HR-CENC-16, through the field's own rule).
func (d *Decoder) FixedNonzero(field string, dst []byte, rule rules.ID) error {
	at := d.off
	if err := d.Fixed(field, dst); err != nil {
		return err
	}
	zero := IsZero(dst)
	if d.Mutated(MutNonzeroFirstByte) {
		zero = len(dst) > 0 && dst[0] == 0
	}
	if zero && d.Rejects(rule) {
		return d.Fail(rule, at, field, "all %d bytes are zero; the field must be nonzero", len(dst))
	}
	return nil
}

// Raw consumes exactly n bytes and returns them, aliasing the input. When
// fewer remain it fails with the truncation rule (HR-CENC-11).
func (d *Decoder) Raw(field string, n uint64) ([]byte, error) {
	if rem := uint64(d.Remaining()); n > rem {
		// Section 2, HR-CENC-11: checked before the bytes are taken.
		if d.Rejects(d.trunc) {
			return nil, d.Fail(d.trunc, d.off, field, "needs %d bytes, only %d remain", n, rem)
		}
		n = rem
		d.exhausted = true
	}
	return d.take(int(n), field)
}

// CompactUint reads a canonical shortest compact uint (section 2): 0..252 in
// one byte, 0xfd + u16 LE, 0xfe + u32 LE, 0xff + u64 LE. Overlong forms fail
// with HR-CENC-07 and values above 2^53-1 with HR-CENC-08.
func (d *Decoder) CompactUint(field string) (uint64, error) {
	at := d.off
	m, err := d.U8(field)
	if err != nil || m < 0xfd {
		return uint64(m), err
	}
	var v, min uint64
	switch m {
	case 0xfd:
		a, err := d.fixed(2, field)
		if err != nil {
			return 0, err
		}
		v, min = uint64(binary.LittleEndian.Uint16(a[:])), 0xfd
	case 0xfe:
		a, err := d.fixed(4, field)
		if err != nil {
			return 0, err
		}
		v, min = uint64(binary.LittleEndian.Uint32(a[:])), 0x10000
	default:
		a, err := d.fixed(8, field)
		if err != nil {
			return 0, err
		}
		v, min = binary.LittleEndian.Uint64(a[:]), 0x100000000
	}
	switch {
	case d.Mutated(MutOverlongFDOnly) && m != 0xfd:
		min = 0
	case d.Mutated(MutCompactFD252) && m == 0xfd:
		min = 0xfc
	}
	if v < min && d.Rejects(RuleCompactOverlong) {
		// Section 2, HR-CENC-07: an overlong form fails closed.
		return 0, d.Fail(RuleCompactOverlong, at, field, "compact uint %d written with marker 0x%02x is overlong", v, m)
	}
	if v > MaxSafeInteger && d.Rejects(RuleCompactSafe) {
		// Section 2, HR-CENC-08: above JavaScript's exact safe integer range.
		return 0, d.Fail(RuleCompactSafe, at, field, "compact uint %d is above 2^53-1", v)
	}
	return v, nil
}

// prefix reads an array count (HR-CENC-05) or a byte-string length
// (HR-CENC-04): a canonical compact uint. When the rule is switched off by
// fault injection (compact false) it reads a big-endian integer of width
// bytes instead, as an implementation that took the manifest framing's
// u32be count or u16be path length for the codecs' would.
func (d *Decoder) prefix(field string, compact bool, width int) (uint64, error) {
	if compact {
		return d.CompactUint(field)
	}
	return d.uint(width, field)
}

// Count reads an array count (HR-CENC-05) and checks it against min..max
// with rangeRule. elemMin is the smallest encoding of one element (at least
// 1): a count that the remaining bytes cannot hold fails with the truncation
// rule before the caller allocates anything. The count returned never
// exceeds Remaining()/elemMin, so callers may allocate it.
func (d *Decoder) Count(field string, min, max uint64, elemMin int, rangeRule rules.ID) (int, error) {
	at := d.off
	n, err := d.prefix(field, d.Enforced(RuleArray), 4)
	if err != nil {
		return 0, err
	}
	if (n < min || n > max) && d.Rejects(rangeRule) {
		return 0, d.Fail(rangeRule, at, field, "count %d is outside %d..%d", n, min, max)
	}
	return d.Fits(field, n, elemMin)
}

// Fits checks that n elements of at least elemMin bytes each (elemMin >= 1)
// can be held by the remaining input, failing with the truncation rule
// otherwise, so that callers allocate only in proportion to the bytes
// present. The count returned never exceeds Remaining()/elemMin.
func (d *Decoder) Fits(field string, n uint64, elemMin int) (int, error) {
	if limit := uint64(d.Remaining() / elemMin); n > limit {
		// Section 2, HR-CENC-11: checked before any allocation.
		if d.Rejects(d.trunc) {
			return 0, d.Fail(d.trunc, d.off, field, "count %d needs at least %d bytes per element, only %d bytes remain", n, elemMin, d.Remaining())
		}
		n = limit
		d.exhausted = true
	}
	return int(n), nil
}

// BoundedBytes reads a bounded byte string (HR-CENC-04) whose length must lie
// in min..max (rangeRule). The result aliases the input.
func (d *Decoder) BoundedBytes(field string, min, max uint64, rangeRule rules.ID) ([]byte, error) {
	at := d.off
	n, err := d.prefix(field, d.Enforced(RuleBoundedBytes), 2)
	if err != nil {
		return nil, err
	}
	if (n < min || n > max) && d.Rejects(rangeRule) {
		return nil, d.Fail(rangeRule, at, field, "length %d is outside %d..%d", n, min, max)
	}
	return d.Raw(field, n)
}

// Optional reads an optional's tag: 0 absent, 1 present; any other tag fails
// with HR-CENC-09.
func (d *Decoder) Optional(field string) (bool, error) {
	at := d.off
	t, err := d.U8(field)
	if err != nil || t <= 1 {
		return t == 1, err
	}
	if d.Mutated(MutOptionalNonzero) || !d.Rejects(RuleOptionalTag) {
		return true, nil
	}
	// Section 2, HR-CENC-09: every other tag fails closed.
	return true, d.Fail(RuleOptionalTag, at, field, "optional tag %d is neither 0 (absent) nor 1 (present)", t)
}

// Version reads a u8 version and fails with HR-CENC-10 unless it is want.
func (d *Decoder) Version(field string, want uint8) error {
	at := d.off
	v, err := d.U8(field)
	if err != nil || v == want || !d.Rejects(RuleUnknownVersion) {
		return err
	}
	// Section 2, HR-CENC-10: unknown versions fail.
	return d.Fail(RuleUnknownVersion, at, field, "unknown version %d (want %d)", v, want)
}

// End fails with rule (HR-CENC-12 for the codecs) when input remains.
func (d *Decoder) End(rule rules.ID) error {
	if n := d.Remaining(); n > 0 && d.Rejects(rule) {
		if d.Mutated(MutTrailingZeros) && IsZero(d.buf[d.off:]) {
			return nil
		}
		return d.Fail(rule, d.off, "end", "%d trailing bytes after the record", n)
	}
	return nil
}

// Ascending checks that key cur strictly follows prev in lexicographic
// unsigned-byte order (section 2, HR-CENC-17/18): a smaller key fails with
// orderRule, an equal one with dupRule. at is the offset of cur.
func (d *Decoder) Ascending(prev, cur []byte, at int, field string, orderRule, dupRule rules.ID) error {
	switch bytes.Compare(prev, cur) {
	case 0:
		if d.Mutated(MutSortNotStrict) || !d.Rejects(dupRule) {
			return nil
		}
		return d.Fail(dupRule, at, field, "duplicate key %x (equal to its predecessor)", cur)
	case 1:
		if !d.Rejects(orderRule) {
			return nil
		}
		return d.Fail(orderRule, at, field, "key %x sorts before its predecessor %x", cur, prev)
	}
	return nil
}

// IsZero reports whether every byte of b is zero.
func IsZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}
