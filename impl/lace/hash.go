// Package lace is the reference implementation of Lace-010 Records
// (specs/lace-010-records.txt): it parses and validates H3 Blob,
// Plex and Seal records and record streams, constructs canonical records,
// and reads record links. Every rejection is a *rules.Violation carrying the
// rule ID of rules.go; docs/lace.md records the decisions where the spec is
// silent.
package lace

import (
	"strings"

	"github.com/zeebo/blake3"

	"github.com/threespec/conformance/impl/b64a"
	"github.com/threespec/conformance/impl/rules"
)

// Form is a record form: Blob, Plex or Seal. The zero Form is no form.
type Form uint8

const (
	FormBlob Form = iota + 1
	FormPlex
	FormSeal
)

// String returns "blob", "plex" or "seal" (the testee protocol's names).
func (f Form) String() string {
	switch f {
	case FormBlob:
		return "blob"
	case FormPlex:
		return "plex"
	case FormSeal:
		return "seal"
	}
	return "none"
}

// Letter returns the hash-text type letter of f: 'B', 'P' or 'S'.
func (f Form) Letter() byte {
	switch f {
	case FormBlob:
		return 'B'
	case FormPlex:
		return 'P'
	case FormSeal:
		return 'S'
	}
	return '?'
}

func formOfLetter(c byte) Form {
	switch c {
	case 'B':
		return FormBlob
	case 'P':
		return FormPlex
	case 'S':
		return FormSeal
	}
	return 0
}

// Fixed H3 text widths (Lace-010, "Maximum H3 record size is bounded").
const (
	DigestSize   = 32                                 // a BLAKE3-256 digest
	HashTextLen  = 2 + 43 + 3                         // "B." + 43 B64A characters + ".H3": 48 bytes
	GlyphLineLen = len(glyphPrefix) + HashTextLen + 1 // "🖧: " + hash text + LF: 55 bytes

	MaxData   = 32 << 20 // Blob data limit, 33,554,432 bytes (LACE-BLOB-05)
	MaxFields = 512      // Plex field limit (LACE-PLEX-03)
	MaxLine   = 128      // complete field line limit, excluding LF (LACE-FIELD-11)

	// The largest complete records (LACE-SIZE-01..03): 33,554,510,
	// 33,620,613 and 33,620,814 bytes. Readers never check them: they
	// follow from the limits above (LACE-SIZE-04).
	MaxBlobRecord = GlyphLineLen + len("Data-Length: 33554432\n\n") + MaxData
	MaxPlexRecord = MaxBlobRecord + GlyphLineLen + MaxFields*(MaxLine+1)
	MaxSealRecord = MaxPlexRecord + GlyphLineLen + byLineLen + markLineLen
)

// Glyph is the record glyph U+1F5A7; ReservedGlyph is U+22EF U+1F5A7.
const (
	Glyph         = "🖧"
	ReservedGlyph = "⋯🖧"
	glyphPrefix   = Glyph + ": "
)

// Hash is an H3 record hash: a form and the BLAKE3-256 digest of the record's
// canonical payload. Its text is T.<43 B64A characters>.H3. The zero Hash is
// no hash.
type Hash struct {
	Form   Form
	Digest [DigestSize]byte
}

// IsZero reports whether h is the zero Hash.
func (h Hash) IsZero() bool { return h.Form == 0 }

// String returns the hash text T.<b64a>.H3, or "" for the zero Hash.
func (h Hash) String() string {
	if h.IsZero() {
		return ""
	}
	return string(h.appendText(make([]byte, 0, HashTextLen)))
}

func (h Hash) appendText(dst []byte) []byte {
	dst = append(dst, h.Form.Letter(), '.')
	dst = b64a.AppendEncode(dst, h.Digest[:])
	return append(dst, ".H3"...)
}

// ParseHash parses canonical H3 hash text T.<43 B64A characters>.H3
// (LACE-GLYPH-02, LACE-GLYPH-04). The error is a *rules.Violation at offset
// -1; callers that know where the text stands make their own.
//
// It enforces every rule and takes every default reading; callers
// that carry a rules.Checks use ParseHashWith.
func ParseHash(s string) (Hash, error) { return ParseHashWith(rules.Checks{}, s) }

// ParseHashWith is ParseHash under the checks c.
func ParseHashWith(c rules.Checks, s string) (Hash, error) {
	h, id, detail := parseHash(c, s)
	if id != "" {
		return Hash{}, &rules.Violation{Rule: id, Offset: -1, Detail: detail}
	}
	return h, nil
}

// parseHash returns the hash, or the rule the text breaks and why.
func parseHash(c rules.Checks, s string) (Hash, rules.ID, string) {
	var h Hash
	// Lace-010 "Every stored record starts with a record glyph line":
	// T.<b64a>.H3 with T in B, P, S (LACE-GLYPH-02).
	var detail string
	if len(s) < 2 || s[1] != '.' || formOfLetter(s[0]) == 0 {
		detail = "hash text " + quote(s) + " does not begin with B., P. or S."
	} else if len(s) < 5 || s[len(s)-3:] != ".H3" {
		detail = "hash text " + quote(s) + " does not end with .H3"
	}
	payload := ""
	switch {
	case detail == "":
		payload = s[2 : len(s)-3]
	case c.Enforced(RuleGlyphHashText):
		return h, RuleGlyphHashText, detail
	default:
		// Fault: a reader that checks neither the type letter nor the
		// suffix reads the digest between the first and the last dot.
		i, j := strings.IndexByte(s, '.'), strings.LastIndexByte(s, '.')
		if i < 0 || j <= i {
			return h, RuleGlyphHashText, detail
		}
		payload = s[i+1 : j]
	}
	// The digest payload is 32 bytes: exactly 43 canonical B64A characters (LACE-GLYPH-04).
	d, err := b64a.DecodeN(payload, DigestSize)
	if err != nil {
		var ok bool
		if h.Digest, ok = lenientDigest(payload); !ok || c.Enforced(RuleGlyphDigestText) && !c.Takes(ReadPadBits, AltPadBitsIgnored) {
			return Hash{}, RuleGlyphDigestText, "hash text " + quote(s) + ": digest is not 43 canonical B64A characters: " + err.Error()
		}
		// Reading LACE-READ-05 pad-bits-ignored, or the fault of
		// LACE-GLYPH-04: a decoder that ignores the pad bits.
	} else {
		copy(h.Digest[:], d)
	}
	h.Form = formOfLetter(s[0])
	if h.Form == 0 {
		h.Form = FormBlob
	}
	return h, "", ""
}

// lenientDigest decodes 43 B64A characters as a decoder that ignores the two
// pad bits of the last character would.
func lenientDigest(payload string) ([DigestSize]byte, bool) {
	var d [DigestSize]byte
	if len(payload) != b64a.EncodedLen(DigestSize) {
		return d, false
	}
	if err := b64a.DecodeInto(d[:], withoutPadBits(payload, len(payload)-1, DigestSize)); err != nil {
		return d, false
	}
	return d, true
}

// withoutPadBits returns s with the pad bits of its B64A character at i
// cleared: the low bits of the last character of a size-byte value's text,
// which encode no byte of it (2 of them for 32 bytes, 4 for 64). s is
// returned as it is when i holds no B64A character.
func withoutPadBits(s string, i, size int) string {
	if i < 0 || i >= len(s) {
		return s
	}
	k := strings.IndexByte(b64a.Alphabet, s[i])
	if k < 0 {
		return s
	}
	pad := b64a.EncodedLen(size)*6 - size*8
	return s[:i] + string(b64a.Alphabet[k&^(1<<pad-1)]) + s[i+1:]
}

// ParseHashLenient parses hash text T.<b64a>.H3 as a careless reader does:
// the type letter and the suffix must be right, but the two pad bits of the
// digest's last character are ignored, so that several texts name one hash.
// Conforming readers use ParseHash; the convention consumers use this only
// under fault injection (LACE-CHUNK-06, LACE-DIR-05..07).
func ParseHashLenient(s string) (Hash, bool) {
	if len(s) != HashTextLen || s[1] != '.' || formOfLetter(s[0]) == 0 || s[len(s)-3:] != ".H3" {
		return Hash{}, false
	}
	d, ok := lenientDigest(s[2 : len(s)-3])
	return Hash{Form: formOfLetter(s[0]), Digest: d}, ok
}

// digest is BLAKE3-256 of a record's canonical payload, every byte after the
// glyph line's LF (LACE-GLYPH-03).
func digest(payload []byte) [DigestSize]byte { return blake3.Sum256(payload) }

// digestOf is BLAKE3-256 of the concatenated parts.
func digestOf(parts ...[]byte) [DigestSize]byte {
	h := blake3.New()
	for _, p := range parts {
		h.Write(p)
	}
	var d [DigestSize]byte
	h.Sum(d[:0])
	return d
}
