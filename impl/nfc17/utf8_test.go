package nfc17_test

import (
	"testing"
	"unicode/utf8"

	"github.com/threespec/conformance/impl/nfc17"
)

// TestCheckUTF8 names one case of every class of ill-formed UTF-8 with the
// offset and reason CheckUTF8 must give.
func TestCheckUTF8(t *testing.T) {
	const (
		over  = nfc17.ReasonOverlong
		sur   = nfc17.ReasonSurrogate
		above = nfc17.ReasonAbove
		trunc = nfc17.ReasonTruncated
		stray = nfc17.ReasonStray
		inval = nfc17.ReasonInvalid
	)
	tests := []struct {
		name   string
		in     string
		off    int
		reason string // "" for valid input
	}{
		// Valid input, at the edges of each sequence length.
		{"empty", "", 0, ""},
		{"ASCII", "Name: note", 0, ""},
		{"NUL and DEL are valid UTF-8", "\x00\x7f", 0, ""},
		{"U+0080", "\xc2\x80", 0, ""},
		{"U+07FF", "\xdf\xbf", 0, ""},
		{"U+0800", "\xe0\xa0\x80", 0, ""},
		{"U+D7FF", "\xed\x9f\xbf", 0, ""},
		{"U+E000", "\xee\x80\x80", 0, ""},
		{"U+FFFD", "\xef\xbf\xbd", 0, ""},
		{"U+FFFF", "\xef\xbf\xbf", 0, ""},
		{"U+10000", "\xf0\x90\x80\x80", 0, ""},
		{"U+10FFFF", "\xf4\x8f\xbf\xbf", 0, ""},
		{"the record glyph U+1F5A7", "🖧: B.x", 0, ""},
		{"é after 9 ASCII bytes", "123456789é", 0, ""},

		// Overlong encodings.
		{"C0 80 (NUL in 2 bytes)", "\xc0\x80", 0, over},
		{"C0 AF ('/' in 2 bytes)", "ab\xc0\xaf", 2, over},
		{"C1 BF", "\xc1\xbf", 0, over},
		{"C0 alone", "\xc0", 0, over},
		{"E0 80 80 (NUL in 3 bytes)", "\xe0\x80\x80", 0, over},
		{"E0 9F BF (U+07FF in 3 bytes)", "x\xe0\x9f\xbf", 1, over},
		{"E0 80 at the end", "\xe0\x80", 0, over},
		{"F0 80 80 80 (NUL in 4 bytes)", "\xf0\x80\x80\x80", 0, over},
		{"F0 8F BF BF (U+FFFF in 4 bytes)", "\xf0\x8f\xbf\xbf", 0, over},

		// Surrogates.
		{"ED A0 80 (U+D800)", "\xed\xa0\x80", 0, sur},
		{"ED AD BF (U+DB7F)", "\xed\xad\xbf", 0, sur},
		{"ED B0 80 (U+DC00)", "0123456789\xed\xb0\x80", 10, sur},
		{"ED BF BF (U+DFFF)", "\xed\xbf\xbf", 0, sur},
		{"CESU-8 pair for U+10000", "\xed\xa0\x80\xed\xb0\x80", 0, sur},

		// Values above U+10FFFF.
		{"F4 90 80 80 (U+110000)", "\xf4\x90\x80\x80", 0, above},
		{"F4 BF BF BF", "\xf4\xbf\xbf\xbf", 0, above},
		{"F5 80 80 80", "\xf5\x80\x80\x80", 0, above},
		{"F7 BF BF BF", "\xf7\xbf\xbf\xbf", 0, above},
		{"F8 88 80 80 80 (5-byte form)", "\xf8\x88\x80\x80\x80", 0, above},
		{"FC 84 80 80 80 80 (6-byte form)", "\xfc\x84\x80\x80\x80\x80", 0, above},
		{"FD alone", "a\xfd", 1, above},

		// Bytes no UTF-8 has.
		{"FE", "\xfe", 0, inval},
		{"FF after valid text", "é\xff", 2, inval},

		// Stray continuation bytes.
		{"80 alone", "\x80", 0, stray},
		{"BF after ASCII", "abc\xbf", 3, stray},
		{"continuation after a whole sequence", "\xc3\xa9\xa9", 2, stray},
		{"continuation after a whole 4-byte sequence", "\xf0\x9f\x96\xa7\x80", 4, stray},

		// Truncated sequences: cut by the end of input or by another byte.
		{"C3 at the end", "abc\xc3", 3, trunc},
		{"C3 then ASCII", "\xc3A", 0, trunc},
		{"E2 82 at the end", "\xe2\x82", 0, trunc},
		{"E2 then ASCII", "\xe2(\xa1", 0, trunc},
		{"E2 82 then ASCII", "\xe2\x82A", 0, trunc},
		{"E0 at the end", "\xe0", 0, trunc},
		{"E0 then a lead byte", "\xe0\xc3\xa9", 0, trunc},
		{"ED at the end", "\xed", 0, trunc},
		{"F0 9F 96 at the end", "\xf0\x9f\x96", 0, trunc},
		{"F0 9F then ASCII", "\xf0\x9fAB", 0, trunc},
		{"F4 at the end", "\xf4", 0, trunc},
		{"F4 8F BF then a new sequence", "\xf4\x8f\xbf\xc3\xa9", 0, trunc},
		{"a truncated sequence after 8 ASCII bytes", "12345678\xf0\x90", 8, trunc},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := nfc17.CheckUTF8([]byte(tt.in))
			errS := nfc17.CheckUTF8String(tt.in)
			if tt.reason == "" {
				if err != nil || errS != nil {
					t.Fatalf("CheckUTF8 = %v, CheckUTF8String = %v, want nil", err, errS)
				}
				if !utf8.ValidString(tt.in) {
					t.Fatal("table error: unicode/utf8 rejects this input")
				}
				return
			}
			if err == nil || err.Offset != tt.off || err.Reason != tt.reason {
				t.Fatalf("CheckUTF8 = %v, want %q at byte %d", err, tt.reason, tt.off)
			}
			if errS == nil || *errS != *err {
				t.Fatalf("CheckUTF8String = %v, CheckUTF8 = %v", errS, err)
			}
			if utf8.ValidString(tt.in) {
				t.Fatal("table error: unicode/utf8 accepts this input")
			}
		})
	}
}

// encode writes v in the size-byte form of UTF-8's bit layout, valid or not.
func encode(v uint32, size int) []byte {
	lead := [...]byte{0, 0, 0xc0, 0xe0, 0xf0}[size]
	b := make([]byte, size)
	for i := size - 1; i > 0; i-- {
		b[i] = 0x80 | byte(v&0x3f)
		v >>= 6
	}
	b[0] = lead | byte(v)
	return b
}

// TestCheckUTF8AllForms encodes every value a 2-, 3- or 4-byte form can hold
// and checks the verdict against the definition: the shortest form only, no
// surrogates, nothing above U+10FFFF. Every valid form cut short by one byte
// is a truncated sequence.
func TestCheckUTF8AllForms(t *testing.T) {
	counts := map[string]int{}
	for _, f := range []struct {
		size     int
		min, max uint32 // the values the form may carry
	}{
		{2, 0x80, 1<<11 - 1},
		{3, 0x800, 1<<16 - 1},
		{4, 0x10000, 1<<21 - 1},
	} {
		for v := uint32(0); v <= f.max; v++ {
			b := encode(v, f.size)
			want := ""
			switch {
			case v < f.min:
				want = nfc17.ReasonOverlong
			case v >= 0xd800 && v <= 0xdfff:
				want = nfc17.ReasonSurrogate
			case v > 0x10ffff:
				want = nfc17.ReasonAbove
			}
			counts[want]++
			err := nfc17.CheckUTF8(b)
			if want == "" {
				if err != nil {
					t.Fatalf("% X (U+%04X): %v", b, v, err)
				}
				if r, _ := utf8.DecodeRune(b); uint32(r) != v {
					t.Fatalf("table error: % X is not U+%04X", b, v)
				}
				if err := nfc17.CheckUTF8(b[:f.size-1]); err == nil || err.Offset != 0 || err.Reason != nfc17.ReasonTruncated {
					t.Fatalf("% X (U+%04X cut short): %v, want a truncated sequence at 0", b[:f.size-1], v, err)
				}
				continue
			}
			if err == nil || err.Offset != 0 || err.Reason != want {
				t.Fatalf("% X (value %#x in %d bytes): %v, want %q at 0", b, v, f.size, err, want)
			}
		}
	}
	t.Logf("forms checked: %d valid, %d overlong, %d surrogate, %d above U+10FFFF",
		counts[""], counts[nfc17.ReasonOverlong], counts[nfc17.ReasonSurrogate], counts[nfc17.ReasonAbove])
}

// TestCheckUTF8AgreesWithStdlib compares validity and the offset of the first
// error with unicode/utf8 on every input of up to two bytes and on every
// lead byte followed by every second byte and a few third and fourth bytes.
func TestCheckUTF8AgreesWithStdlib(t *testing.T) {
	for a := 0; a < 256; a++ {
		agree(t, []byte{byte(a)})
		for b := 0; b < 256; b++ {
			agree(t, []byte{byte(a), byte(b)})
			for _, c := range []byte{0x00, 0x41, 0x7f, 0x80, 0x9f, 0xa0, 0xbf, 0xc0, 0xff} {
				agree(t, []byte{byte(a), byte(b), c})
				agree(t, []byte{byte(a), byte(b), c, 0x80})
				agree(t, []byte{byte(a), byte(b), c, 0x41})
			}
		}
	}
}

// agree fails unless CheckUTF8 and unicode/utf8 agree on b: the same
// validity, and CheckUTF8's offset is the first place utf8.DecodeRune
// reports an encoding error.
func agree(t testing.TB, b []byte) {
	err := nfc17.CheckUTF8(b)
	if valid := utf8.Valid(b); valid != (err == nil) {
		t.Fatalf("% X: utf8.Valid = %v, CheckUTF8 = %v", b, valid, err)
	}
	if err == nil {
		return
	}
	off := 0
	for off < len(b) {
		r, size := utf8.DecodeRune(b[off:])
		if r == utf8.RuneError && size == 1 {
			break
		}
		off += size
	}
	if err.Offset != off {
		t.Fatalf("% X: CheckUTF8 = %v, but unicode/utf8 finds the first error at byte %d", b, err, off)
	}
	if e2 := nfc17.CheckUTF8String(string(b)); e2 == nil || *e2 != *err {
		t.Fatalf("% X: CheckUTF8String = %v, CheckUTF8 = %v", b, e2, err)
	}
}

func TestUTF8ErrorText(t *testing.T) {
	err := nfc17.CheckUTF8([]byte("ab\xed\xa0\x80"))
	if got, want := err.Error(), "invalid UTF-8 at byte 2: surrogate"; got != want {
		t.Fatalf("Error() = %q, want %q", got, want)
	}
}

// TestNFCExamples: a few decisions a Lace field line depends on, from
// Lace-010's boundary examples and Unicode's composition rules.
func TestNFCExamples(t *testing.T) {
	for _, tt := range []struct {
		in, nfc string
	}{
		{"é", "é"},                 // U+00E9 is NFC
		{"e\u0301", "é"},           // e + COMBINING ACUTE composes
		{"\u212b", "Å"},            // ANGSTROM SIGN is a singleton decomposition
		{"\u1100\u1161", "\uac00"}, // conjoining jamo compose to a Hangul syllable
		{"Name: note", "Name: note"},
		{"🖧: x", "🖧: x"},
		{"\u0344", "\u0308\u0301"}, // COMBINING GREEK DIALYTIKA TONOS decomposes, never recomposes
		// Unicode 16.0 compositions, new since the 15.0.0 tables Go 1.26
		// builds x/text with (NormalizationTest 17.0.0 lines 105C9 and 11383):
		{"\U000105D2\u0307", "\U000105C9"},     // TODHRI LETTER EI
		{"\U00011382\U000113C9", "\U00011383"}, // TULU-TIGALARI LETTER II
	} {
		isNFC := tt.in == tt.nfc
		if got := nfc17.NFCString(tt.in); got != tt.nfc {
			t.Errorf("NFCString(%+q) = %+q, want %+q", tt.in, got, tt.nfc)
		}
		if got := nfc17.IsNFC([]byte(tt.in)); got != isNFC {
			t.Errorf("IsNFC(%+q) = %v, want %v", tt.in, got, isNFC)
		}
	}
}
