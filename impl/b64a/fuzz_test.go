package b64a_test

import (
	"bytes"
	"testing"

	"github.com/threespec/conformance/impl/b64a"
)

// FuzzDecode: Decode agrees with the bit-by-bit reference on acceptance, on
// the bytes and on the error's kind and offset, and every accepted text
// re-encodes to itself (decode then encode is the identity).
func FuzzDecode(f *testing.F) {
	for _, s := range []string{"", "A", "AB", "00", "001", blobHash, plexHash, sealHash, byKey, seedMark, kaMark,
		"AA==", "A+/-", blobHash[:42] + "9", "\xff\x80\r\n "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := b64a.Decode(s)
		want, kind, off := refDecode(s)
		if kind != 0 {
			checkErr(t, "Decode", err, kind, off)
			return
		}
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("Decode(%q) = %x, %v; reference %x", s, got, err, want)
		}
		if back := b64a.Encode(got); back != s {
			t.Fatalf("Encode(Decode(%q)) = %q", s, back)
		}
		if _, err := b64a.DecodeN(s, len(got)); err != nil {
			t.Fatalf("DecodeN(%q, %d): %v", s, len(got), err)
		}
	})
}

// FuzzEncode: encode then decode is the identity, and the text is the
// reference encoder's.
func FuzzEncode(f *testing.F) {
	for _, b := range [][]byte{nil, {0}, {0xff}, {0xff, 0xff}, []byte("hello"), bytes.Repeat([]byte{7}, 32)} {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s := b64a.Encode(b)
		if want := refEncode(b); s != want {
			t.Fatalf("Encode(%x) = %q, want %q", b, s, want)
		}
		back, err := b64a.DecodeN(s, len(b))
		if err != nil || !bytes.Equal(back, b) {
			t.Fatalf("DecodeN(Encode(%x)) = %x, %v", b, back, err)
		}
	})
}
