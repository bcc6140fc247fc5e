// Package nfc17 checks the text rules Lace H3 places on every field name and
// value: strict UTF-8 and Unicode Normalization Form C under Unicode 17.0.0
// (Lace-010, section "Shared field-line rules keep bytes canonical": "names
// and values are UTF-8 NFC; H3 NFC uses Unicode Normalization Form C under
// Unicode 17.0.0").
//
// NFC comes from golang.org/x/text/unicode/norm, whose Unicode 17.0.0 tables
// are compiled only with Go 1.27 or newer (see docs/DECISIONS.md and
// docs/text.md); this package refuses to build with an older Go (see
// require_go127.go), and its tests pass every line of Unicode's
// NormalizationTest 17.0.0.
//
// The package knows nothing about rules: its results are booleans and
// *UTF8Error values, which the record parsers (impl/lace) turn into
// *rules.Violation values of their own rules.
package nfc17

import (
	"fmt"

	"golang.org/x/text/unicode/norm"
)

// UnicodeVersion is the Unicode version whose NFC this package judges.
const UnicodeVersion = "17.0.0"

// TablesVersion is the Unicode version of the normalization tables compiled
// into this binary; a test fails unless it equals UnicodeVersion.
var TablesVersion = norm.Version

// Strict UTF-8.

// The reasons CheckUTF8 gives, one per class of ill-formed sequence.
const (
	ReasonOverlong  = "overlong encoding"       // C0, C1; E0 80..9F; F0 80..8F
	ReasonSurrogate = "surrogate"               // ED A0..BF: U+D800..U+DFFF
	ReasonAbove     = "above U+10FFFF"          // F4 90..BF; lead bytes F5..FD
	ReasonTruncated = "truncated sequence"      // the input or a non-continuation byte cuts a sequence short
	ReasonStray     = "stray continuation byte" // 80..BF where a character must start
	ReasonInvalid   = "invalid byte"            // FE, FF: bytes no form of UTF-8 has
)

// UTF8Error describes bytes that are not strict UTF-8.
type UTF8Error struct {
	Offset int    // byte offset of the first byte of the bad sequence
	Reason string // one of the Reason constants
}

func (e *UTF8Error) Error() string {
	return fmt.Sprintf("invalid UTF-8 at byte %d: %s", e.Offset, e.Reason)
}

// CheckUTF8 reports the first violation of strict UTF-8 (RFC 3629, section
// 4; Unicode 17.0.0, Table 3-7 "Well-Formed UTF-8 Byte Sequences") in b:
// overlong encodings, UTF-16 surrogates (U+D800..U+DFFF), values above
// U+10FFFF, stray continuation bytes, bytes FE and FF, and truncated
// sequences are all invalid. A sequence is judged as soon as its bytes so far
// cannot start a well-formed one, so "E0 80" is an overlong encoding even at
// the end of the input. The offset is that of the sequence's first byte. It
// returns nil for valid UTF-8.
//
// The result is a *UTF8Error: compare it with nil before storing it in an
// error variable, or use it as CheckUTF8(b) == nil.
func CheckUTF8(b []byte) *UTF8Error { return checkUTF8(b) }

// CheckUTF8String is CheckUTF8 for a string.
func CheckUTF8String(s string) *UTF8Error { return checkUTF8(s) }

// leadByte is what a byte says as the first byte of a sequence (Table 3-7):
// the sequence's size and the range of its second byte, or, for a byte that
// starts no well-formed sequence (size 0), the reason.
type leadByte struct {
	size   uint8
	lo, hi byte  // the second byte's range; later bytes are always 80..BF
	reason uint8 // for size 0: an index into reasons
}

// reasons holds the reasons a lead byte alone can give, for leadByte.reason.
var reasons = [...]string{leadStray: ReasonStray, leadOverlong: ReasonOverlong, leadAbove: ReasonAbove, leadInvalid: ReasonInvalid}

const (
	leadStray = iota
	leadOverlong
	leadAbove
	leadInvalid
)

var leads = func() (t [256]leadByte) {
	for c := 0; c < 256; c++ {
		l := leadByte{lo: 0x80, hi: 0xbf}
		switch {
		case c < 0x80:
			l.size = 1
		case c < 0xc0:
			l.reason = leadStray
		case c < 0xc2: // C0, C1: two-byte forms of U+0000..U+007F
			l.reason = leadOverlong
		case c < 0xe0:
			l.size = 2
		case c < 0xf0:
			l.size = 3
			switch c {
			case 0xe0:
				l.lo = 0xa0 // E0 80..9F: three-byte forms below U+0800
			case 0xed:
				l.hi = 0x9f // ED A0..BF: U+D800..U+DFFF
			}
		case c < 0xf5:
			l.size = 4
			switch c {
			case 0xf0:
				l.lo = 0x90 // F0 80..8F: four-byte forms below U+10000
			case 0xf4:
				l.hi = 0x8f // F4 90..BF: U+110000 and above
			}
		case c < 0xfe: // F5..F7, and the RFC 2279 five- and six-byte leads F8..FD
			l.reason = leadAbove
		default:
			l.reason = leadInvalid
		}
		t[c] = l
	}
	return t
}()

func checkUTF8[T string | []byte](b T) *UTF8Error {
	n := len(b)
	for i := 0; i < n; {
		c := b[i]
		if c < 0x80 {
			// ASCII runs, eight bytes at a time.
			if i+8 <= n && load64(b[i:i+8])&0x8080808080808080 == 0 {
				i += 8
			} else {
				i++
			}
			continue
		}
		l := &leads[c]
		size := int(l.size)
		if size == 0 {
			return &UTF8Error{i, reasons[l.reason]}
		}
		if i+1 >= n {
			return &UTF8Error{i, ReasonTruncated}
		}
		if c2 := b[i+1]; c2 < l.lo || c2 > l.hi {
			// A continuation byte outside the lead's range is the first
			// byte that makes the sequence ill-formed; anything else cuts
			// it short.
			switch {
			case c2 < 0x80 || c2 > 0xbf:
				return &UTF8Error{i, ReasonTruncated}
			case c == 0xed:
				return &UTF8Error{i, ReasonSurrogate}
			case c == 0xf4:
				return &UTF8Error{i, ReasonAbove}
			default: // E0, F0
				return &UTF8Error{i, ReasonOverlong}
			}
		}
		for j := 2; j < size; j++ {
			if i+j >= n || b[i+j]&0xc0 != 0x80 {
				return &UTF8Error{i, ReasonTruncated}
			}
		}
		i += size
	}
	return nil
}

// load64 reads eight bytes of a string or a byte slice, little-endian (the
// compiler turns this pattern into one load).
func load64[T string | []byte](b T) uint64 {
	_ = b[7]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// Normalization Form C.

// IsNFC reports whether b, which must already be valid UTF-8, is in
// Normalization Form C under Unicode 17.0.0.
func IsNFC(b []byte) bool { return norm.NFC.IsNormal(b) }

// IsNFCString is IsNFC for a string.
func IsNFCString(s string) bool { return norm.NFC.IsNormalString(s) }

// NFC returns the NFC form of b under Unicode 17.0.0.
func NFC(b []byte) []byte { return norm.NFC.Bytes(b) }

// NFCString returns the NFC form of s under Unicode 17.0.0.
func NFCString(s string) string { return norm.NFC.String(s) }
