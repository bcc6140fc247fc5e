// Package nfc17 checks the text rules Lace H3 places on every field name and
// value: strict UTF-8 and Unicode Normalization Form C under Unicode 17.0.0
// (Lace-010, "Shared field-line rules keep bytes canonical").
//
// NFC comes from golang.org/x/text/unicode/norm, whose Unicode 17.0.0 tables
// are compiled only with Go 1.27 or newer (see ../shared/DESIGN.md); this
// package refuses to build with an older Go (see require_go127.go).
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

// UTF8Error describes bytes that are not strict UTF-8.
type UTF8Error struct {
	Offset int    // byte offset of the first byte of the bad sequence
	Reason string // "overlong encoding", "surrogate", "above U+10FFFF", "truncated sequence", "invalid byte"
}

func (e *UTF8Error) Error() string {
	return fmt.Sprintf("invalid UTF-8 at byte %d: %s", e.Offset, e.Reason)
}

// CheckUTF8 reports the first violation of strict UTF-8 (RFC 3629) in b:
// overlong encodings, UTF-16 surrogates (U+D800..U+DFFF), values above
// U+10FFFF, stray continuation bytes, invalid lead bytes and truncated
// sequences are all invalid. It returns nil for valid UTF-8.
func CheckUTF8(b []byte) *UTF8Error {
	for i := 0; i < len(b); {
		c := b[i]
		if c < 0x80 {
			i++
			continue
		}
		n, min := 0, rune(0)
		var r rune
		switch {
		case c&0xe0 == 0xc0:
			n, min, r = 2, 0x80, rune(c&0x1f)
		case c&0xf0 == 0xe0:
			n, min, r = 3, 0x800, rune(c&0x0f)
		case c&0xf8 == 0xf0:
			n, min, r = 4, 0x10000, rune(c&0x07)
		default:
			if c >= 0xf8 {
				return &UTF8Error{i, "invalid byte"}
			}
			return &UTF8Error{i, "invalid byte (stray continuation byte)"}
		}
		if i+n > len(b) {
			// A sequence cut short by the end of the input, unless one of the
			// bytes present already is not a continuation byte.
			for j := i + 1; j < len(b); j++ {
				if b[j]&0xc0 != 0x80 {
					return &UTF8Error{i, "truncated sequence"}
				}
			}
			return &UTF8Error{i, "truncated sequence"}
		}
		for j := 1; j < n; j++ {
			cc := b[i+j]
			if cc&0xc0 != 0x80 {
				return &UTF8Error{i, "truncated sequence"}
			}
			r = r<<6 | rune(cc&0x3f)
		}
		switch {
		case r < min:
			return &UTF8Error{i, "overlong encoding"}
		case r >= 0xd800 && r <= 0xdfff:
			return &UTF8Error{i, "surrogate"}
		case r > 0x10ffff:
			return &UTF8Error{i, "above U+10FFFF"}
		}
		i += n
	}
	return nil
}

// IsNFC reports whether b, which must already be valid UTF-8, is in
// Normalization Form C under Unicode 17.0.0.
func IsNFC(b []byte) bool { return norm.NFC.IsNormal(b) }

// IsNFCString is IsNFC for a string.
func IsNFCString(s string) bool { return norm.NFC.IsNormalString(s) }

// NFC returns the NFC form of b under Unicode 17.0.0.
func NFC(b []byte) []byte { return norm.NFC.Bytes(b) }
