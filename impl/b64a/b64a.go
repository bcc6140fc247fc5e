// Package b64a implements B64A, the base64 variant Lace hash, By and Mark
// text uses (Lace document 006, not published; the project's decision is in
// docs/DECISIONS.md, section "Decisions on what the specifications leave
// open / Lace", and docs/text.md).
//
// B64A is base64 over the ASCII-sorted alphabet Alphabet with big-endian bit
// packing and no padding characters: 32 bytes are 43 characters, 64 bytes 86.
// Canonical text has exactly EncodedLen(n) characters, every one from
// Alphabet, and zero pad bits; Decode rejects anything else, so every byte
// string has exactly one B64A text and every accepted text re-encodes to
// itself.
//
// The package knows nothing about rules: its errors are *Error values with a
// Kind and an offset, which the record parsers (impl/lace) turn into
// *rules.Violation values of their own rules.
package b64a

import (
	"fmt"
	"unsafe"
)

// Alphabet is the B64A alphabet: the 64 characters of base64 in ASCII order,
// '_' (0x5F) and '~' (0x7E) standing in for '+' and '/'. The value of a
// character is its index.
const Alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~"

const invalid = 0xff

// decodeMap maps a byte to its value in Alphabet, or to invalid.
var decodeMap = func() (m [256]byte) {
	for i := range m {
		m[i] = invalid
	}
	for i := 0; i < len(Alphabet); i++ {
		m[Alphabet[i]] = byte(i)
	}
	return m
}()

// EncodedLen is the length of the canonical B64A text of n bytes: ceil(8n/6).
func EncodedLen(n int) int { return (n*8 + 5) / 6 }

// decodedLen is the number of bytes canonical text of m characters encodes,
// and false when no byte count has a text of length m (m%4 == 1, m < 0).
func decodedLen(m int) (int, bool) {
	if m < 0 || m%4 == 1 {
		return 0, false
	}
	return m * 6 / 8, true
}

// Encoding.

// Encode returns the canonical B64A text of src.
func Encode(src []byte) string {
	if len(src) == 0 {
		return ""
	}
	buf := make([]byte, EncodedLen(len(src)))
	encode(buf, src)
	// buf is never written again: hand it over as the string's bytes, as
	// strings.Builder does, so that Encode allocates once.
	return unsafe.String(unsafe.SliceData(buf), len(buf))
}

// AppendEncode appends the canonical B64A text of src to dst and returns the
// extended slice.
func AppendEncode(dst, src []byte) []byte {
	n := len(dst)
	dst = grow(dst, EncodedLen(len(src)))
	encode(dst[n:], src)
	return dst
}

// encode writes the text of src into dst, which has length EncodedLen(len(src)).
func encode(dst, src []byte) {
	// Whole 3-byte groups: 24 bits, four characters.
	for len(src) >= 3 {
		v := uint(src[0])<<16 | uint(src[1])<<8 | uint(src[2])
		dst[0] = Alphabet[v>>18&0x3f]
		dst[1] = Alphabet[v>>12&0x3f]
		dst[2] = Alphabet[v>>6&0x3f]
		dst[3] = Alphabet[v&0x3f]
		src, dst = src[3:], dst[4:]
	}
	// The tail: 1 byte is two characters (4 zero pad bits), 2 bytes three
	// characters (2 zero pad bits).
	switch len(src) {
	case 1:
		v := uint(src[0]) << 4
		dst[0] = Alphabet[v>>6&0x3f]
		dst[1] = Alphabet[v&0x3f]
	case 2:
		v := (uint(src[0])<<8 | uint(src[1])) << 2
		dst[0] = Alphabet[v>>12&0x3f]
		dst[1] = Alphabet[v>>6&0x3f]
		dst[2] = Alphabet[v&0x3f]
	}
}

// grow extends dst by n bytes, reallocating at most once.
func grow(dst []byte, n int) []byte {
	if cap(dst)-len(dst) < n {
		nd := make([]byte, len(dst), len(dst)+n)
		copy(nd, dst)
		dst = nd
	}
	return dst[:len(dst)+n]
}

// Errors.

// Kind classifies why text is not canonical B64A.
type Kind uint8

const (
	// BadCharacter: a byte outside Alphabet ('=', '+', '/', '-', CR, LF,
	// space and every byte >= 0x80 among them). Offset is its index.
	BadCharacter Kind = iota + 1
	// BadLength: a length that is the B64A length of no byte count
	// (len%4 == 1). Offset is the length of the text.
	BadLength
	// BadPadBits: the last character carries nonzero pad bits, so the text
	// is not the one Encode gives for its bytes. Offset is that character's.
	BadPadBits
	// WrongLength: DecodeN or DecodeInto was given text of a length other
	// than the one the wanted byte count has. Offset is the smaller of the
	// two lengths.
	WrongLength
)

func (k Kind) String() string {
	switch k {
	case BadCharacter:
		return "bad character"
	case BadLength:
		return "bad length"
	case BadPadBits:
		return "nonzero pad bits"
	case WrongLength:
		return "wrong length"
	}
	return fmt.Sprintf("b64a.Kind(%d)", uint8(k))
}

// Error describes text that is not canonical B64A.
type Error struct {
	Offset int    // index of the offending character, or a length for a length error (see Kind)
	Reason string // what is wrong, in words
	Kind   Kind   // the class of the problem
}

func (e *Error) Error() string { return fmt.Sprintf("b64a: %s at offset %d", e.Reason, e.Offset) }

func badCharacter(s string, i int) *Error {
	return &Error{Offset: i, Kind: BadCharacter, Reason: describe(s[i]) + " is not in the B64A alphabet"}
}

// describe names a byte for an error message: printable ASCII as a quoted
// character, anything else (controls, bytes of UTF-8 sequences) in hex.
func describe(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return fmt.Sprintf("character %q", c)
	}
	return fmt.Sprintf("byte 0x%02X", c)
}

// Decoding.

// Decode decodes canonical B64A text of any length. It rejects characters
// outside Alphabet, a length that no byte count has (len%4 == 1), and nonzero
// pad bits, with an *Error.
func Decode(s string) ([]byte, error) {
	return AppendDecode(nil, s)
}

// AppendDecode appends the bytes of canonical B64A text s to dst and returns
// the extended slice; on error it returns dst unchanged and an *Error.
func AppendDecode(dst []byte, s string) ([]byte, error) {
	n, ok := decodedLen(len(s))
	if !ok {
		return dst, &Error{Offset: len(s), Kind: BadLength,
			Reason: fmt.Sprintf("length %d is not the B64A length of any byte count", len(s))}
	}
	m := len(dst)
	out := grow(dst, n)
	if err := decode(out[m:], s); err != nil {
		return dst, err
	}
	return out, nil
}

// DecodeN decodes canonical B64A text that must encode exactly n bytes.
func DecodeN(s string, n int) ([]byte, error) {
	if err := checkLen(s, n); err != nil {
		return nil, err
	}
	return Decode(s)
}

// DecodeInto decodes canonical B64A text that must encode exactly len(dst)
// bytes into dst, without allocating on success. On error dst may hold
// partial output.
func DecodeInto(dst []byte, s string) error {
	if err := checkLen(s, len(dst)); err != nil {
		return err
	}
	return decode(dst, s)
}

func checkLen(s string, n int) error {
	if n < 0 {
		return &Error{Offset: 0, Kind: WrongLength, Reason: fmt.Sprintf("negative byte count %d", n)}
	}
	if want := EncodedLen(n); len(s) != want {
		return &Error{Offset: min(len(s), want), Kind: WrongLength,
			Reason: fmt.Sprintf("%d characters, want %d for %d bytes", len(s), want, n)}
	}
	return nil
}

// decode writes the bytes of s into dst, which has length decodedLen(len(s)).
func decode(dst []byte, s string) error {
	i := 0
	// Whole 4-character groups: 24 bits, three bytes. An invalid character
	// maps to 0xff, so OR-ing the four values shows one with bits 6 and 7.
	for ; len(s)-i >= 4; i += 4 {
		a, b, c, d := decodeMap[s[i]], decodeMap[s[i+1]], decodeMap[s[i+2]], decodeMap[s[i+3]]
		if (a|b|c|d)&0xc0 != 0 {
			return firstBad(s, i)
		}
		v := uint(a)<<18 | uint(b)<<12 | uint(c)<<6 | uint(d)
		j := i / 4 * 3
		dst[j], dst[j+1], dst[j+2] = byte(v>>16), byte(v>>8), byte(v)
	}
	// The tail of 2 or 3 characters: 12 bits (1 byte + 4 pad bits) or 18
	// bits (2 bytes + 2 pad bits). Canonical text has zero pad bits.
	if tail := len(s) - i; tail > 0 {
		var v uint
		for k := i; k < len(s); k++ {
			x := decodeMap[s[k]]
			if x == invalid {
				return badCharacter(s, k)
			}
			v = v<<6 | uint(x)
		}
		j := i / 4 * 3
		pad := uint(tail*6) % 8 // 4 for a 2-character tail, 2 for a 3-character one
		if v&(1<<pad-1) != 0 {
			return &Error{Offset: len(s) - 1, Kind: BadPadBits,
				Reason: fmt.Sprintf("%s leaves nonzero pad bits (its low %d bits must be zero)", describe(s[len(s)-1]), pad)}
		}
		v >>= pad
		if tail == 3 {
			dst[j], dst[j+1] = byte(v>>8), byte(v)
		} else {
			dst[j] = byte(v)
		}
	}
	return nil
}

// firstBad reports the first character of s[i:] outside Alphabet.
func firstBad(s string, i int) *Error {
	for ; decodeMap[s[i]] != invalid; i++ {
	}
	return badCharacter(s, i)
}
