// Package b64a implements B64A, the base64 variant Lace hash, By and Mark
// text uses (Lace document 006, not published; the project's decision is in
// ../shared/DESIGN.md and docs/lace.md).
//
// B64A is base64 over the ASCII-sorted alphabet Alphabet with big-endian bit
// packing and no padding characters: 32 bytes are 43 characters, 64 bytes 86.
// Canonical text has exactly EncodedLen(n) characters, every one from
// Alphabet, and zero pad bits; Decode rejects anything else.
package b64a

import "fmt"

// Alphabet is the B64A alphabet: the 64 characters of base64 in ASCII order.
const Alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~"

const invalid = 0xff

var decodeMap = func() (m [256]byte) {
	for i := range m {
		m[i] = invalid
	}
	for i := 0; i < len(Alphabet); i++ {
		m[Alphabet[i]] = byte(i)
	}
	return m
}()

// EncodedLen is the length of the canonical B64A text of n bytes.
func EncodedLen(n int) int { return (n*8 + 5) / 6 }

// Encode returns the canonical B64A text of src.
func Encode(src []byte) string { return string(AppendEncode(nil, src)) }

// AppendEncode appends the canonical B64A text of src to dst.
func AppendEncode(dst, src []byte) []byte {
	var acc uint32
	bits := 0
	for _, b := range src {
		acc = acc<<8 | uint32(b)
		bits += 8
		for bits >= 6 {
			bits -= 6
			dst = append(dst, Alphabet[(acc>>bits)&0x3f])
		}
	}
	if bits > 0 {
		dst = append(dst, Alphabet[(acc<<(6-bits))&0x3f])
	}
	return dst
}

// Error describes text that is not canonical B64A.
type Error struct {
	Offset int    // index of the offending character, or len(text) for a length error
	Reason string // what is wrong
}

func (e *Error) Error() string { return fmt.Sprintf("b64a: %s at offset %d", e.Reason, e.Offset) }

// Decode decodes canonical B64A text of any length. It rejects characters
// outside Alphabet, a length that no byte count has (len%4 == 1), and nonzero
// pad bits.
func Decode(s string) ([]byte, error) {
	if len(s)%4 == 1 {
		return nil, &Error{Offset: len(s), Reason: fmt.Sprintf("length %d is not the B64A length of any byte count", len(s))}
	}
	dst := make([]byte, 0, len(s)*6/8)
	var acc uint32
	bits := 0
	for i := 0; i < len(s); i++ {
		v := decodeMap[s[i]]
		if v == invalid {
			return nil, &Error{Offset: i, Reason: fmt.Sprintf("character %q is not in the B64A alphabet", s[i])}
		}
		acc = acc<<6 | uint32(v)
		bits += 6
		if bits >= 8 {
			bits -= 8
			dst = append(dst, byte(acc>>bits))
		}
	}
	if bits > 0 && acc&(1<<bits-1) != 0 {
		return nil, &Error{Offset: len(s) - 1, Reason: "nonzero pad bits"}
	}
	return dst, nil
}

// DecodeN decodes canonical B64A text that must encode exactly n bytes.
func DecodeN(s string, n int) ([]byte, error) {
	if want := EncodedLen(n); len(s) != want {
		return nil, &Error{Offset: min(len(s), want), Reason: fmt.Sprintf("%d characters, want %d for %d bytes", len(s), want, n)}
	}
	return Decode(s)
}
