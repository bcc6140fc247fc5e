package mark_test

import (
	"bytes"
	"testing"

	"github.com/btcsuite/btcd/btcec/v2/schnorr"

	"github.com/threespec/conformance/impl/b64a"
	"github.com/threespec/conformance/impl/mark"
)

// TestSeedSealIsNotBIP340 pins the decision docs/DECISIONS.md ("Marks") takes on
// the seed's Seal: the Lace document says the Seal uses the 009 secret
// 32x07 and auxRand 32x01 over the decoded Plex digest, but plain BIP-340
// reproduces neither its By nor its Mark. The bip340-standin scheme is
// therefore a stand-in, and the seed's Mark is reported as not verifiable
// here. Should any of these facts change (a real 009 appears, or the scheme
// changes), this test fails and the decision must be revisited.
func TestSeedSealIsNotBIP340(t *testing.T) {
	s := mark.BIP340Standin
	secret := [32]byte(bytes.Repeat([]byte{0x07}, 32))
	aux := [32]byte(bytes.Repeat([]byte{0x01}, 32))
	digest, err := b64a.DecodeN(seedPlexHash, 32)
	if err != nil {
		t.Fatal(err)
	}
	subject := [32]byte(digest)

	seedByKey, err := mark.ParseBy(seedBy)
	if err != nil {
		t.Fatal(err)
	}
	seedM, err := mark.ParseMark(seedMark)
	if err != nil {
		t.Fatal(err)
	}

	// The seed's By is a valid x-only secp256k1 key, so the failures
	// below are not parse failures.
	if _, err := schnorr.ParsePubKey(seedByKey[:]); err != nil {
		t.Fatalf("the seed's By is not an x-only secp256k1 key: %v", err)
	}

	// The BIP-340 key of 32x07 is not the seed's By.
	by, err := s.By(secret)
	if err != nil {
		t.Fatal(err)
	}
	if by == seedByKey {
		t.Fatal("By(32x07) is the seed's By: bip340-standin derives 009 keys after all; revisit docs/DECISIONS.md")
	}

	// The seed's Mark does not verify over the Plex digest, under the
	// seed's By or under By(32x07).
	if s.Verify(seedByKey, subject, seedM) {
		t.Fatal("the seed's Mark verifies under bip340-standin; revisit docs/DECISIONS.md")
	}
	if s.Verify(by, subject, seedM) {
		t.Fatal("the seed's Mark verifies under By(32x07)")
	}

	// BIP-340 signing with the seed's inputs gives another Mark, which
	// verifies under By(32x07) and not under the seed's By.
	m, err := s.Sign(secret, subject, aux)
	if err != nil {
		t.Fatal(err)
	}
	if mark.FormatMark(m) == seedMark {
		t.Fatal("Sign(32x07, digest, 32x01) is the seed's Mark; revisit docs/DECISIONS.md")
	}
	if !s.Verify(by, subject, m) || s.Verify(seedByKey, subject, m) {
		t.Fatal("the standin Mark of the seed's inputs verifies wrongly")
	}

	// The known-answer Mark has the seed's key in 009 but another digest:
	// it does not verify over the Plex digest under either key here.
	ka, err := mark.ParseMark(kaMark)
	if err != nil {
		t.Fatal(err)
	}
	if s.Verify(seedByKey, subject, ka) || s.Verify(by, subject, ka) {
		t.Fatal("the known-answer Mark verifies over the Plex digest")
	}
}
