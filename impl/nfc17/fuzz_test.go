package nfc17_test

import (
	"testing"

	"github.com/threespec/conformance/impl/nfc17"
)

// FuzzCheckUTF8 is a differential fuzz target: CheckUTF8 must agree with
// unicode/utf8.Valid on validity for every input, report the first error
// where utf8.DecodeRune first fails, and agree with CheckUTF8String.
func FuzzCheckUTF8(f *testing.F) {
	for _, s := range []string{"", "Name: note", "é", "🖧: B.x", "\xc0\x80", "\xe0\x80\x80", "\xf0\x80\x80\x80",
		"\xed\xa0\x80", "\xed\xbf\xbf", "\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "\xf8\x88\x80\x80\x80",
		"\x80", "\xc3", "\xe2\x82", "12345678\xf0\x90", "\xfe\xff"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		agree(t, b)
	})
}

// FuzzNFC: for valid UTF-8, NFC is idempotent, its result is NFC, and IsNFC
// holds exactly when NFC changes nothing.
func FuzzNFC(f *testing.F) {
	for _, s := range []string{"", "e\u0301", "\u212b", "\u1100\u1161\u11a8", "\U000105D2\u0307", "a\u0328\u0301\u0323"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if nfc17.CheckUTF8String(s) != nil {
			return
		}
		n := nfc17.NFCString(s)
		if nfc17.NFCString(n) != n || !nfc17.IsNFCString(n) {
			t.Fatalf("NFC(%+q) = %+q is not stable", s, n)
		}
		if nfc17.IsNFCString(s) != (n == s) {
			t.Fatalf("IsNFC(%+q) = %v, but NFC gives %+q", s, nfc17.IsNFCString(s), n)
		}
	})
}
