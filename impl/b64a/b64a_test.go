package b64a_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/zeebo/blake3"

	"github.com/threespec/conformance/impl/b64a"
)

// The B64A texts of Lace-010's canonical vector (section "A canonical vector
// covers all three record forms") and its rejection examples (section
// "Boundary and rejection examples"). Known answers from the spec.
const (
	blobHash = "kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8"
	plexHash = "roNBC0l3CG4ezmPY5F3H_pLBDBecaAYZRbOJ1aT7pqK"
	sealHash = "ZGEVHbEEKmCMF2aSbmbQ4~trwxANOQFmraeGg_JAp9C"
	byKey    = "8qgOfsaEJkK1tzX51sTT9NKdM8J2SrzQq6k8cRPzvP0"
	seedMark = "t9QAUgyE1c391D6RsPH_gok2OXEPTRfcp4HOa_Wcyx8143adV34c1ReKeGmWXXn6ictYPxDz5ULgqz0RK4sbPl"
	kaMark   = "gZnQE_RNHTpWu8N~RYMGMTjGo~CTh6qutD7ZfmssgOGH8E_wSP3cEf_Q6QGOGpC2Pkl_~4lVP9NtD5gsNxrxhG"
)

// The canonical payloads: every byte after the record glyph line's LF.
const (
	blobPayload = "Data-Length: 5\n\nhello"
	plexPayload = "App: chat\nApp: archive\nGroup: room7\nName: note\nTAI: tomorrow\n" +
		"🖧: B." + blobHash + ".H3\n" + blobPayload
	sealPayload = "By: V." + byKey + ".H3\nMark: " + seedMark + "\n" +
		"🖧: P." + plexHash + ".H3\n" + plexPayload
)

// refEncode is B64A written out bit by bit, as docs/DECISIONS.md states it: the bits
// of src, most significant first, padded with zero bits to a multiple of 6,
// each 6 bits one character of Alphabet.
func refEncode(src []byte) string {
	var bits []byte
	for _, b := range src {
		for k := 7; k >= 0; k-- {
			bits = append(bits, b>>k&1)
		}
	}
	for len(bits)%6 != 0 {
		bits = append(bits, 0)
	}
	var out strings.Builder
	for i := 0; i < len(bits); i += 6 {
		v := 0
		for _, bit := range bits[i : i+6] {
			v = v<<1 | int(bit)
		}
		out.WriteByte(b64a.Alphabet[v])
	}
	return out.String()
}

// refDecode is the bit-by-bit inverse of refEncode with the documented order
// of checks: a length no byte count has, then the first character outside
// the alphabet, then leftover bits that are not all zero. It returns the
// bytes, or the kind and offset of the error Decode must report.
func refDecode(s string) ([]byte, b64a.Kind, int) {
	// Every character carries 6 bits; the leftover bits after the last
	// whole byte are pad bits. Six or more leftover bits would be a whole
	// character of padding, which Encode never writes.
	if len(s)*6%8 >= 6 {
		return nil, b64a.BadLength, len(s)
	}
	var bits []byte
	for i := 0; i < len(s); i++ {
		v := strings.IndexByte(b64a.Alphabet, s[i])
		if v < 0 {
			return nil, b64a.BadCharacter, i
		}
		for k := 5; k >= 0; k-- {
			bits = append(bits, byte(v>>k&1))
		}
	}
	whole := len(bits) / 8 * 8
	for _, bit := range bits[whole:] {
		if bit != 0 {
			return nil, b64a.BadPadBits, len(s) - 1
		}
	}
	out := []byte{}
	for i := 0; i < whole; i += 8 {
		var b byte
		for _, bit := range bits[i : i+8] {
			b = b<<1 | bit
		}
		out = append(out, b)
	}
	return out, 0, 0
}

// checkErr fails unless err is a *b64a.Error of the given kind and offset.
func checkErr(t *testing.T, what string, err error, kind b64a.Kind, off int) {
	t.Helper()
	var e *b64a.Error
	if !errors.As(err, &e) {
		t.Fatalf("%s: error %v, want a *b64a.Error of kind %v", what, err, kind)
	}
	if e.Kind != kind || e.Offset != off {
		t.Fatalf("%s: %v (kind %v, offset %d), want kind %v at offset %d", what, err, e.Kind, e.Offset, kind, off)
	}
}

func TestAlphabet(t *testing.T) {
	if len(b64a.Alphabet) != 64 {
		t.Fatalf("alphabet has %d characters", len(b64a.Alphabet))
	}
	// docs/DECISIONS.md: the 64 base64 characters sorted by ASCII, with '_' and '~'
	// in the places of '+' and '/'.
	for i := 1; i < len(b64a.Alphabet); i++ {
		if b64a.Alphabet[i-1] >= b64a.Alphabet[i] {
			t.Fatalf("alphabet is not strictly ascending at %d", i)
		}
	}
	for _, c := range "=+/-" {
		if strings.ContainsRune(b64a.Alphabet, c) {
			t.Fatalf("alphabet contains %q", c)
		}
	}
}

func TestEncodedLen(t *testing.T) {
	for _, tt := range []struct{ n, want int }{
		{0, 0}, {1, 2}, {2, 3}, {3, 4}, {4, 6}, {5, 7}, {6, 8},
		{32, 43}, // a hash, a By key
		{64, 86}, // a Mark
	} {
		if got := b64a.EncodedLen(tt.n); got != tt.want {
			t.Errorf("EncodedLen(%d) = %d, want %d", tt.n, got, tt.want)
		}
	}
}

// TestLaceTexts: every B64A text of the Lace document decodes to the byte
// count its role has and re-encodes to itself.
func TestLaceTexts(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		n          int
	}{
		{"Blob hash", blobHash, 32},
		{"Plex hash", plexHash, 32},
		{"Seal hash", sealHash, 32},
		{"Seal By key", byKey, 32},
		{"Seal Mark", seedMark, 64},
		{"known-answer Mark", kaMark, 64},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b, err := b64a.DecodeN(tt.text, tt.n)
			if err != nil {
				t.Fatal(err)
			}
			if len(b) != tt.n {
				t.Fatalf("%d bytes, want %d", len(b), tt.n)
			}
			if got := b64a.Encode(b); got != tt.text {
				t.Fatalf("re-encodes to %s", got)
			}
			if ref, kind, _ := refDecode(tt.text); kind != 0 || !bytes.Equal(ref, b) {
				t.Fatalf("reference decoder disagrees: %x (%v)", ref, kind)
			}
			dst := make([]byte, tt.n)
			if err := b64a.DecodeInto(dst, tt.text); err != nil || !bytes.Equal(dst, b) {
				t.Fatalf("DecodeInto = %x, %v", dst, err)
			}
		})
	}
}

// TestLaceHashesAreBLAKE3: the Lace hash texts are B64A of BLAKE3-256 over
// the canonical payloads (Lace-010: "the B64A payload is the BLAKE3-256
// digest of every canonical byte after the record glyph line LF").
func TestLaceHashesAreBLAKE3(t *testing.T) {
	for _, tt := range []struct{ name, payload, hash string }{
		{"Blob", blobPayload, blobHash},
		{"Plex", plexPayload, plexHash},
		{"Seal", sealPayload, sealHash},
	} {
		sum := blake3.Sum256([]byte(tt.payload))
		if got := b64a.Encode(sum[:]); got != tt.hash {
			t.Errorf("%s: B64A(BLAKE3-256(payload)) = %s, want %s", tt.name, got, tt.hash)
		}
		if got := refEncode(sum[:]); got != tt.hash {
			t.Errorf("%s: reference encoder gives %s, want %s", tt.name, got, tt.hash)
		}
	}
}

// TestRejections covers every class of non-canonical text.
func TestRejections(t *testing.T) {
	tests := []struct {
		name string
		text string
		n    int // DecodeN's byte count; -1 tests Decode
		kind b64a.Kind
		off  int
	}{
		// Characters outside the alphabet: base64's padding and its two
		// alphabets' extra characters, line breaks, space, high bytes.
		{"'=' padding", "AA==", -1, b64a.BadCharacter, 2},
		{"'=' after 43 characters", blobHash + "=", -1, b64a.BadCharacter, 43},
		{"'+'", "AB+D", -1, b64a.BadCharacter, 2},
		{"'/'", "/BCD", -1, b64a.BadCharacter, 0},
		{"'-'", "ABC-", -1, b64a.BadCharacter, 3},
		{"CR", "AB\rD", -1, b64a.BadCharacter, 2},
		{"LF", "ABC\n", -1, b64a.BadCharacter, 3},
		{"space", "AB D", -1, b64a.BadCharacter, 2},
		{"byte 0x80", "A\x80CD", -1, b64a.BadCharacter, 1},
		{"byte 0xff", "ABC\xff", -1, b64a.BadCharacter, 3},
		{"NUL", "\x00", -1, b64a.BadLength, 1}, // length is checked first
		{"bad character in a 2-character tail", "ABCDE=", -1, b64a.BadCharacter, 5},
		{"bad character in a 3-character tail", "ABCD.F0", -1, b64a.BadCharacter, 4},
		{"first of two bad characters", "AB=/", -1, b64a.BadCharacter, 2},
		{"UTF-8 é in a hash", strings.Replace(blobHash, "k", "é", 1)[:43], 32, b64a.BadCharacter, 0},

		// Lengths no byte count has.
		{"1 character", "A", -1, b64a.BadLength, 1},
		{"5 characters", "AAAAA", -1, b64a.BadLength, 5},
		{"45 characters", blobHash + "AA", -1, b64a.BadLength, 45},

		// Nonzero pad bits: a 1-byte tail leaves 4, a 2-byte tail 2.
		{"1-byte tail, lowest pad bit", "01", -1, b64a.BadPadBits, 1},
		{"1-byte tail, highest pad bit", "08", -1, b64a.BadPadBits, 1},
		{"2-byte tail, lowest pad bit", "001", -1, b64a.BadPadBits, 2},
		{"2-byte tail, highest pad bit", "002", -1, b64a.BadPadBits, 2},
		{"hash with pad bits (2)", blobHash[:42] + "9", 32, b64a.BadPadBits, 42},
		{"Mark with pad bits (4)", seedMark[:85] + "m", 64, b64a.BadPadBits, 85},

		// DecodeN with the wrong length.
		{"42 characters for 32 bytes", blobHash[:42], 32, b64a.WrongLength, 42},
		{"44 characters for 32 bytes", blobHash + "0", 32, b64a.WrongLength, 43},
		{"a Mark for a key", seedMark, 32, b64a.WrongLength, 43},
		{"a key for a Mark", byKey, 64, b64a.WrongLength, 43},
		{"empty for 32 bytes", "", 32, b64a.WrongLength, 0},
		{"negative byte count", "", -1 << 8, b64a.WrongLength, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.n == -1 {
				b, err := b64a.Decode(tt.text)
				checkErr(t, "Decode", err, tt.kind, tt.off)
				if b != nil {
					t.Fatalf("Decode returned %x with its error", b)
				}
				_, kind, off := refDecode(tt.text)
				if kind != tt.kind || off != tt.off {
					t.Fatalf("table disagrees with the reference decoder: %v at %d", kind, off)
				}
				return
			}
			b, err := b64a.DecodeN(tt.text, tt.n)
			checkErr(t, "DecodeN", err, tt.kind, tt.off)
			if b != nil {
				t.Fatalf("DecodeN returned %x with its error", b)
			}
			if tt.n >= 0 {
				checkErr(t, "DecodeInto", b64a.DecodeInto(make([]byte, tt.n), tt.text), tt.kind, tt.off)
			}
		})
	}
}

// TestEveryBadByte: each of the 192 bytes outside the alphabet is rejected in
// a whole group and in a tail.
func TestEveryBadByte(t *testing.T) {
	bad := 0
	for c := 0; c < 256; c++ {
		if strings.IndexByte(b64a.Alphabet, byte(c)) >= 0 {
			continue
		}
		bad++
		b := byte(c)
		for _, s := range [][]byte{{'0', '0', '0', b}, {'0', '0', '0', '0', b, '0'}} {
			_, err := b64a.Decode(string(s))
			checkErr(t, fmt.Sprintf("byte %#x in %q", b, s), err, b64a.BadCharacter, bytes.IndexByte(s, b))
		}
	}
	if bad != 192 {
		t.Fatalf("%d bytes outside the alphabet, want 192", bad)
	}
}

// TestExhaustiveSmall compares Encode and Decode with the bit-by-bit
// reference on every byte string of up to 2 bytes, every text of up to 2
// characters, and every text of 3 characters over the alphabet plus
// representative bad bytes.
func TestExhaustiveSmall(t *testing.T) {
	check := func(src []byte) {
		got := b64a.Encode(src)
		if want := refEncode(src); got != want {
			t.Fatalf("Encode(%x) = %q, want %q", src, got, want)
		}
		if len(got) != b64a.EncodedLen(len(src)) {
			t.Fatalf("Encode(%x) has %d characters", src, len(got))
		}
		back, err := b64a.DecodeN(got, len(src))
		if err != nil || !bytes.Equal(back, src) {
			t.Fatalf("DecodeN(Encode(%x)) = %x, %v", src, back, err)
		}
	}
	check(nil)
	for a := 0; a < 256; a++ {
		check([]byte{byte(a)})
		for b := 0; b < 256; b++ {
			check([]byte{byte(a), byte(b)})
		}
	}

	compare := func(s string) {
		got, err := b64a.Decode(s)
		want, kind, off := refDecode(s)
		if kind == 0 {
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("Decode(%q) = %x, %v; want %x", s, got, err, want)
			}
			return
		}
		checkErr(t, "Decode("+s+")", err, kind, off)
	}
	compare("")
	for a := 0; a < 256; a++ {
		compare(string([]byte{byte(a)}))
		for b := 0; b < 256; b++ {
			compare(string([]byte{byte(a), byte(b)}))
		}
	}
	chars := b64a.Alphabet + "=+/- \r\n\x00\x80\xff"
	for i := 0; i < len(chars); i++ {
		for j := 0; j < len(chars); j++ {
			for k := 0; k < len(chars); k++ {
				compare(string([]byte{chars[i], chars[j], chars[k]}))
			}
		}
	}
}

// TestRandomRoundTrip: random inputs of every length up to 100 bytes.
func TestRandomRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n <= 100; n++ {
		for range 20 {
			src := make([]byte, n)
			for i := range src {
				src[i] = byte(r.Uint32())
			}
			text := b64a.Encode(src)
			if want := refEncode(src); text != want {
				t.Fatalf("Encode(%x) = %s, want %s", src, text, want)
			}
			back, err := b64a.Decode(text)
			if err != nil || !bytes.Equal(back, src) {
				t.Fatalf("Decode(%s) = %x, %v", text, back, err)
			}
			// A random change of one character must agree with the reference.
			if n > 0 {
				b := []byte(text)
				b[r.IntN(len(b))] = byte(r.Uint32())
				got, err := b64a.Decode(string(b))
				want, kind, off := refDecode(string(b))
				if kind == 0 {
					if err != nil || !bytes.Equal(got, want) {
						t.Fatalf("Decode(%q) = %x, %v; want %x", b, got, err, want)
					}
				} else {
					checkErr(t, "Decode", err, kind, off)
				}
			}
		}
	}
}

func TestAppend(t *testing.T) {
	prefix := []byte("xy")
	got := b64a.AppendEncode(prefix[:2:2], []byte("hello"))
	if string(got) != "xy"+refEncode([]byte("hello")) {
		t.Fatalf("AppendEncode = %q", got)
	}
	dec, err := b64a.AppendDecode([]byte("ab"), b64a.Encode([]byte("hello")))
	if err != nil || string(dec) != "abhello" {
		t.Fatalf("AppendDecode = %q, %v", dec, err)
	}
	dst := []byte("keep")
	out, err := b64a.AppendDecode(dst, "AB")
	checkErr(t, "AppendDecode", err, b64a.BadPadBits, 1)
	if string(out) != "keep" {
		t.Fatalf("AppendDecode changed dst on error: %q", out)
	}
}

func TestErrorText(t *testing.T) {
	_, err := b64a.Decode("AB=D")
	if got, want := err.Error(), `b64a: character '=' is not in the B64A alphabet at offset 2`; got != want {
		t.Fatalf("Error() = %q, want %q", got, want)
	}
	_, err = b64a.Decode("AB\xc3\xa9")
	if got, want := err.Error(), `b64a: byte 0xC3 is not in the B64A alphabet at offset 2`; got != want {
		t.Fatalf("Error() = %q, want %q", got, want)
	}
	_, err = b64a.Decode("AB")
	if got, want := err.Error(), `b64a: character 'B' leaves nonzero pad bits (its low 4 bits must be zero) at offset 1`; got != want {
		t.Fatalf("Error() = %q, want %q", got, want)
	}
	if got := b64a.BadPadBits.String(); got != "nonzero pad bits" {
		t.Fatalf("Kind.String() = %q", got)
	}
}

// TestAllocs pins the allocation counts of the hot paths: Encode and Decode
// allocate their result only, DecodeInto and AppendEncode into room nothing.
func TestAllocs(t *testing.T) {
	src := bytes.Repeat([]byte{0xa5}, 64)
	text := b64a.Encode(src)
	dst := make([]byte, 64)
	buf := make([]byte, 0, 128)
	for _, tt := range []struct {
		name string
		f    func()
		want float64
	}{
		{"Encode", func() { _ = b64a.Encode(src) }, 1},
		{"Decode", func() { _, _ = b64a.Decode(text) }, 1},
		{"DecodeInto", func() { _ = b64a.DecodeInto(dst, text) }, 0},
		{"AppendEncode", func() { _ = b64a.AppendEncode(buf[:0], src) }, 0},
	} {
		if got := testing.AllocsPerRun(100, tt.f); got != tt.want {
			t.Errorf("%s: %v allocations, want %v", tt.name, got, tt.want)
		}
	}
}
