// Package mark holds the By/Mark evidence of Lace Seal records (Lace-010,
// "Seal records carry one Mark over one Plex"; the key and Mark scheme is
// Lace document 009, not published).
//
// A Scheme derives By from a By-secret, signs a 32-byte subject with a
// 32-byte auxRand, and verifies a Mark under By. The project's scheme,
// BIP340Standin, is BIP-340 Schnorr over secp256k1 (../shared/DESIGN.md):
// the By-secret is the BIP-340 secret key, By is its x-only public key, and
// the Mark is the 64-byte signature. Its By and Mark texts are canonical
// 009 texts, but its Marks are not 009 Marks: the seed's Seal does not verify
// under it.
package mark

import (
	"errors"
	"fmt"
	"strings"

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

// Text widths of the canonical forms.
const (
	ByTextLen   = 2 + 43 + 3 // "V." + 43 B64A characters + ".H3"
	MarkTextLen = 86         // 86 B64A characters
)

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

// BIP340Standin is the project's stand-in scheme: BIP-340 Schnorr over secp256k1.
var BIP340Standin Scheme = bip340{}

type bip340 struct{}

func (bip340) Name() string { return string(CheckBIP340Standin) }

func (bip340) By(secret [KeySize]byte) ([KeySize]byte, error) {
	var by [KeySize]byte
	if err := checkSecret(secret); err != nil {
		return by, err
	}
	priv, _ := btcec.PrivKeyFromBytes(secret[:])
	copy(by[:], schnorr.SerializePubKey(priv.PubKey()))
	return by, nil
}

func (bip340) Sign(secret [KeySize]byte, subject [SubjectLen]byte, aux [AuxSize]byte) ([MarkSize]byte, error) {
	var m [MarkSize]byte
	if err := checkSecret(secret); err != nil {
		return m, err
	}
	priv, _ := btcec.PrivKeyFromBytes(secret[:])
	sig, err := schnorr.Sign(priv, subject[:], schnorr.CustomNonce(aux))
	if err != nil {
		return m, fmt.Errorf("mark: bip340-standin sign: %w", err)
	}
	copy(m[:], sig.Serialize())
	return m, nil
}

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

// checkSecret rejects secrets outside 1..n-1, as BIP-340 requires.
func checkSecret(secret [KeySize]byte) error {
	var s btcec.ModNScalar
	if overflow := s.SetBytes(&secret); overflow != 0 || s.IsZero() {
		return errors.New("mark: By-secret is not a valid secp256k1 secret key (must be in 1..n-1)")
	}
	return nil
}

// FormatBy returns the canonical By text V.<b64a>.H3 of a verification key.
func FormatBy(by [KeySize]byte) string { return "V." + b64a.Encode(by[:]) + ".H3" }

// ParseBy parses canonical By text V.<43 B64A characters>.H3.
func ParseBy(s string) ([KeySize]byte, error) {
	var by [KeySize]byte
	if len(s) != ByTextLen || !strings.HasPrefix(s, "V.") || !strings.HasSuffix(s, ".H3") {
		return by, fmt.Errorf("By %q is not V.<43 B64A characters>.H3", s)
	}
	b, err := b64a.DecodeN(s[2:len(s)-3], KeySize)
	if err != nil {
		return by, fmt.Errorf("By key text: %w", err)
	}
	copy(by[:], b)
	return by, nil
}

// FormatMark returns the canonical Mark text (86 B64A characters).
func FormatMark(m [MarkSize]byte) string { return b64a.Encode(m[:]) }

// ParseMark parses canonical Mark text (86 B64A characters).
func ParseMark(s string) ([MarkSize]byte, error) {
	var m [MarkSize]byte
	b, err := b64a.DecodeN(s, MarkSize)
	if err != nil {
		return m, fmt.Errorf("Mark text: %w", err)
	}
	copy(m[:], b)
	return m, nil
}
