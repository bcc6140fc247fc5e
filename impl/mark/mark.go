// Package mark holds the By/Mark evidence of Lace Seal records (Lace-010,
// section "Seal records carry one Mark over one Plex"; the key and Mark
// scheme is Lace document 009, not published).
//
// A Scheme derives By from a By-secret, signs a 32-byte subject with a
// 32-byte auxRand, and verifies a Mark under By. The project's scheme,
// BIP340Standin, is BIP-340 Schnorr over secp256k1 (docs/DECISIONS.md,
// "Marks"; docs/text.md): the By-secret is the BIP-340 secret key, By is its
// x-only public key, and the Mark is the 64-byte signature. Its By and Mark
// texts are canonical 009 texts, but its Marks are not 009 Marks: the seed's
// Seal does not verify under it, and the seed's By is not the BIP-340 key of
// the seed's secret (the tests pin both facts).
//
// The text forms are independent of the scheme: ParseBy and ParseMark accept
// exactly the canonical texts, whatever checking a reader runs with.
package mark

import (
	"errors"
	"fmt"

	"github.com/btcsuite/btcd/btcec/v2"
	"github.com/btcsuite/btcd/btcec/v2/schnorr"

	"github.com/threespec/conformance/impl/b64a"
)

// Sizes of the decoded values.
const (
	KeySize    = 32 // a By verification key and a By-secret
	MarkSize   = 64 // a Mark
	AuxSize    = 32 // the auxRand32 signing input
	SubjectLen = 32 // a Mark subject: the decoded digest of the embedded Plex
)

// Text widths of the canonical forms (Lace-010, "Maximum H3 record size is
// bounded": a 53-byte By line and a 93-byte Mark line, LF included).
const (
	ByTextLen   = 2 + 43 + 3 // "V." + 43 B64A characters + ".H3"
	MarkTextLen = 86         // 86 B64A characters
)

// The fixed parts of By text.
const (
	ByPrefix = "V."
	BySuffix = ".H3"
)

// Schemes.

// A Scheme is a By/Mark signature scheme.
type Scheme interface {
	// Name is the scheme's name as conform and the testee protocol use it.
	Name() string
	// By derives the public verification key from a By-secret.
	By(secret [KeySize]byte) ([KeySize]byte, error)
	// Sign makes the Mark of subject under secret with the given auxRand.
	Sign(secret [KeySize]byte, subject [SubjectLen]byte, aux [AuxSize]byte) ([MarkSize]byte, error)
	// Verify reports whether mark is a valid Mark of subject under by.
	Verify(by [KeySize]byte, subject [SubjectLen]byte, mark [MarkSize]byte) bool
}

// Checking selects how a reader treats Marks.
type Checking string

const (
	// CheckBIP340Standin verifies every Mark under the bip340-standin scheme.
	CheckBIP340Standin Checking = "bip340-standin"
	// CheckNone checks only that By and Mark are canonical text; a reader
	// running with it must say that Marks were not verified.
	CheckNone Checking = "none"
)

// ParseChecking parses the name of a mark-checking mode ("" means the default, bip340-standin).
func ParseChecking(s string) (Checking, error) {
	switch Checking(s) {
	case "", CheckBIP340Standin:
		return CheckBIP340Standin, nil
	case CheckNone:
		return CheckNone, nil
	}
	return "", fmt.Errorf("mark: unknown mark checking %q (want %q or %q)", s, CheckBIP340Standin, CheckNone)
}

// Scheme returns the scheme that verifies Marks under c, or nil for
// CheckNone and for names ParseChecking does not give.
func (c Checking) Scheme() Scheme {
	if c == CheckBIP340Standin {
		return BIP340Standin
	}
	return nil
}

// ErrInvalidSecret is the error By and Sign return for a By-secret that is
// not a secp256k1 secret key: zero, or the group order n or more.
var ErrInvalidSecret = errors.New("mark: By-secret is not a valid secp256k1 secret key (must be in 1..n-1)")

// BIP340Standin is the project's stand-in scheme: BIP-340 Schnorr over
// secp256k1, as specified in BIP-340 ("Default Signing" with auxiliary
// random data aux, and "Verification").
var BIP340Standin Scheme = bip340{}

type bip340 struct{}

func (bip340) Name() string { return string(CheckBIP340Standin) }

// By is BIP-340's PubKey(sk): the x coordinate of sk·G.
func (bip340) By(secret [KeySize]byte) ([KeySize]byte, error) {
	var by [KeySize]byte
	priv, err := privKey(secret)
	if err != nil {
		return by, err
	}
	copy(by[:], schnorr.SerializePubKey(priv.PubKey()))
	return by, nil
}

// Sign is BIP-340's Sign(sk, m, a) with a = aux. The library verifies each
// signature before returning it, as BIP-340 recommends.
func (bip340) Sign(secret [KeySize]byte, subject [SubjectLen]byte, aux [AuxSize]byte) ([MarkSize]byte, error) {
	var m [MarkSize]byte
	priv, err := privKey(secret)
	if err != nil {
		return m, err
	}
	// CustomNonce selects BIP-340's nonce derivation from aux; without it
	// the library would derive the nonce by RFC 6979, which is not BIP-340.
	sig, err := schnorr.Sign(priv, subject[:], schnorr.CustomNonce(aux))
	if err != nil {
		return m, fmt.Errorf("mark: bip340-standin sign: %w", err)
	}
	copy(m[:], sig.Serialize())
	return m, nil
}

// Verify is BIP-340's Verify(pk, m, sig). It is false for a By that is not
// the x coordinate of a curve point (or is >= p), and for a Mark whose r is
// >= p or whose s is >= n.
func (bip340) Verify(by [KeySize]byte, subject [SubjectLen]byte, mark [MarkSize]byte) bool {
	pub, err := schnorr.ParsePubKey(by[:])
	if err != nil {
		return false
	}
	sig, err := schnorr.ParseSignature(mark[:])
	if err != nil {
		return false
	}
	return sig.Verify(subject[:], pub)
}

// WellFormed reports whether by is a bip340-standin key (the x coordinate of
// a curve point) and mark a well-formed signature (r < p, s < n), without
// checking that mark verifies. No reader accepts a Mark on this alone; the
// Lace reference uses it only under fault injection, to behave as a reader
// that checks a Mark's form and key but not what it was made over
// (LACE-EX-09).
func WellFormed(by [KeySize]byte, mark [MarkSize]byte) bool {
	if _, err := schnorr.ParsePubKey(by[:]); err != nil {
		return false
	}
	_, err := schnorr.ParseSignature(mark[:])
	return err == nil
}

// privKey turns a By-secret into a secret key, rejecting values outside
// 1..n-1 as BIP-340 requires ("Fail if d' = 0 or d' ≥ n").
func privKey(secret [KeySize]byte) (*btcec.PrivateKey, error) {
	var s btcec.ModNScalar
	if overflow := s.SetBytes(&secret); overflow != 0 || s.IsZero() {
		return nil, ErrInvalidSecret
	}
	return btcec.PrivKeyFromScalar(&s), nil
}

// Texts.

// TextError describes By or Mark text that is not canonical.
type TextError struct {
	Field  string      // "By" or "Mark"
	Offset int         // byte offset into the text
	Reason string      // what is wrong
	B64A   *b64a.Error // the B64A error, when the B64A part is at fault; its offset is relative to that part
}

func (e *TextError) Error() string {
	return fmt.Sprintf("mark: %s text: %s at offset %d", e.Field, e.Reason, e.Offset)
}

// Unwrap returns the B64A error, if any.
func (e *TextError) Unwrap() error {
	if e.B64A == nil {
		return nil
	}
	return e.B64A
}

// textError wraps a B64A error found at offset base of a By or Mark text.
func textError(field string, base int, err error) *TextError {
	var be *b64a.Error
	if !errors.As(err, &be) { // DecodeInto returns only *b64a.Error
		return &TextError{Field: field, Offset: base, Reason: err.Error()}
	}
	return &TextError{Field: field, Offset: base + be.Offset, Reason: be.Reason, B64A: be}
}

// FormatBy returns the canonical By text V.<b64a>.H3 of a verification key.
func FormatBy(by [KeySize]byte) string {
	var buf [ByTextLen]byte
	b := append(buf[:0], ByPrefix...)
	b = b64a.AppendEncode(b, by[:])
	return string(append(b, BySuffix...))
}

// ParseBy parses canonical By text: V., 43 B64A characters with zero pad
// bits, .H3 (Lace-010 "Seal rules": "canonical V.<b64a>.H3 verification-key
// text defined by 009"). It returns a *TextError for anything else.
func ParseBy(s string) ([KeySize]byte, error) {
	var by [KeySize]byte
	switch {
	case len(s) < len(ByPrefix) || s[:len(ByPrefix)] != ByPrefix:
		return by, &TextError{Field: "By", Offset: 0, Reason: fmt.Sprintf("does not start with %q", ByPrefix)}
	case len(s) < len(ByPrefix)+len(BySuffix) || s[len(s)-len(BySuffix):] != BySuffix:
		return by, &TextError{Field: "By", Offset: max(len(s)-len(BySuffix), len(ByPrefix)),
			Reason: fmt.Sprintf("does not end with %q", BySuffix)}
	}
	if err := b64a.DecodeInto(by[:], s[len(ByPrefix):len(s)-len(BySuffix)]); err != nil {
		return by, textError("By", len(ByPrefix), err)
	}
	return by, nil
}

// FormatMark returns the canonical Mark text (86 B64A characters).
func FormatMark(m [MarkSize]byte) string { return b64a.Encode(m[:]) }

// ParseMark parses canonical Mark text: 86 B64A characters with zero pad
// bits (Lace-010 "Seal rules": "one canonical 009 Mark"). It returns a
// *TextError for anything else.
func ParseMark(s string) ([MarkSize]byte, error) {
	var m [MarkSize]byte
	if err := b64a.DecodeInto(m[:], s); err != nil {
		return m, textError("Mark", 0, err)
	}
	return m, nil
}
