package libtracer

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/threespec/conformance/impl/rules"
)

// The spec's worked frame examples and the rows of its frame-size summary,
// byte for byte. The spec leaves some bytes open; the choices (see
// docs/libtracer.md):
//
//   - "[4 bytes payload]" of the uint32 examples: 2a 00 00 00 (42);
//   - every absolute trailer_ts: T0, 2026-05-03T00:00:00Z;
//   - every relative trailer_ts: +1000 ns, inside a user record
//     (type 0x80, opt 0x60 = PL|TS, trailer_ts T0) that anchors it, since a
//     relative stamp at the top level is tr::path::invalid (LT-TS-04);
//   - the 102400-byte payload: byte i is i mod 251;
//   - the size-table rows: a VALUE with the payload ca fe.
//
// Each CRC below was computed by an independent bit-by-bit CRC (Python, and
// bitCRC32C/bitCRC16 here, which the test re-checks) and is written out.

var spb = []byte{0xca, 0xfe}

type byteExample struct {
	rule rules.ID
	name string
	wire string  // the frame bytes, hex
	want []Frame // the parse
	// covered is the bytes one frame's CRC covers, the CRC field's hex,
	// and its width: re-checked against the bit-by-bit CRCs.
	covered  string
	crcHex   string
	crcWidth int
	// smallest is Encode(want): the smallest variants (LT-IOP-02); "" when
	// it equals wire.
	smallest string
}

func examples(t testing.TB) []byteExample {
	big := make([]byte, 102400)
	for i := range big {
		big[i] = byte(i % 251)
	}
	return []byteExample{
		{rule: RuleExStatusOK, name: "empty STATUS=OK",
			wire: "09 00 00 00",
			want: []Frame{{Type: 0x09}}},
		{rule: RuleExBool, name: "single boolean true",
			wire: "01 00 01 00 01",
			want: []Frame{{Type: 0x01, Length: 1, Payload: []byte{0x01}}}},
		{rule: RuleExU32Rel, name: "uint32 with relative TS, in an anchoring record",
			wire: "80 60 0c 00" + "01 22 04 00 2a 00 00 00 e8 03 00 00" + t0Hex,
			want: []Frame{{Type: 0x80, Opt: 0x60, Length: 12, TS: abs(T0), Children: []Frame{
				{Offset: 4, Type: 0x01, Opt: 0x22, Length: 4, Payload: hx(t, "2a000000"), TS: rel(T0, 1000)},
			}}}},
		{rule: RuleExU32AbsCRC, name: "uint32 with absolute TS and CRC-32",
			wire:    "01 30 04 00 2a 00 00 00" + t0Hex + "6a 09 50 4d",
			want:    []Frame{{Type: 0x01, Opt: 0x30, Length: 4, Payload: hx(t, "2a000000"), TS: abs(T0), CRC: c32(0x4d50096a)}},
			covered: "2a 00 00 00" + t0Hex, crcHex: "6a09504d", crcWidth: 32,
			smallest: "01 34 04 00 2a 00 00 00" + t0Hex + "c8 e9"},
		{rule: RuleExValueCRC, name: "5-byte VALUE with CRC-32",
			wire:    "01 10 05 00 aa bb cc dd ee b6 c9 12 23",
			want:    []Frame{{Type: 0x01, Opt: 0x10, Length: 5, Payload: hx(t, "aabbccddee"), CRC: c32(0x2312c9b6)}},
			covered: "aa bb cc dd ee", crcHex: "b6c91223", crcWidth: 32,
			smallest: "01 14 05 00 aa bb cc dd ee 05 be"},
		{rule: RuleExPath, name: "PATH /sensor/temp with outer CRC-32",
			wire: "06 50 12 00 02 00 06 00 73 65 6e 73 6f 72 02 00 04 00 74 65 6d 70 f3 70 ab 47",
			want: []Frame{{Type: 0x06, Opt: 0x50, Length: 18, CRC: c32(0x47ab70f3), Children: []Frame{
				{Offset: 4, Type: 0x02, Length: 6, Payload: []byte("sensor")},
				{Offset: 14, Type: 0x02, Length: 4, Payload: []byte("temp")},
			}}},
			covered: "02 00 06 00 73 65 6e 73 6f 72 02 00 04 00 74 65 6d 70", crcHex: "f370ab47", crcWidth: 32,
			smallest: "06 54 12 00 02 00 06 00 73 65 6e 73 6f 72 02 00 04 00 74 65 6d 70 fc dd"},
		{rule: RuleExLL1, name: "extended length LL=1, 102400-byte payload",
			wire:    "01 18 00 90 01 00" + bigHex(big) + "17 da 57 79",
			want:    []Frame{{Type: 0x01, Opt: 0x18, Length: 102400, Payload: big, CRC: c32(0x7957da17)}},
			covered: bigHex(big), crcHex: "17da5779", crcWidth: 32,
			smallest: "01 1c 00 90 01 00" + bigHex(big) + "97 65"},
		{rule: RuleTSExampleADC, name: "ADC sample record, relative TS per sample",
			wire: "80 60 24 00" +
				"01 22 04 00 64 00 00 00 00 00 00 00" +
				"01 22 04 00 65 00 00 00 01 00 00 00" +
				"01 22 04 00 66 00 00 00 02 00 00 00" + t0Hex,
			want: []Frame{{Type: 0x80, Opt: 0x60, Length: 36, TS: abs(T0), Children: []Frame{
				{Offset: 4, Type: 0x01, Opt: 0x22, Length: 4, Payload: hx(t, "64000000"), TS: rel(T0, 0)},
				{Offset: 16, Type: 0x01, Opt: 0x22, Length: 4, Payload: hx(t, "65000000"), TS: rel(T0, 1)},
				{Offset: 28, Type: 0x01, Opt: 0x22, Length: 4, Payload: hx(t, "66000000"), TS: rel(T0, 2)},
			}}}},
	}
}

func bigHex(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return string(out)
}

// sizeRows are the frame-size summary table: H, T_ts, T_crc, overhead, and
// the frame of a VALUE ca fe in that configuration. The relative rows are
// wrapped in the anchoring record 80 60 LL 00 ... T0.
var sizeRows = []struct {
	rule              rules.ID
	config            string
	h, tts, tcrc, ovh int
	opt               Opt
	frame             string
	smallest          int // the row whose bytes Encode gives (1-based); 0 for this one
}{
	{RuleSizeMinimum, "Minimum (LL=0, no trailer)", 4, 0, 0, 4, 0x00, "01 00 02 00 ca fe", 0},
	{RuleSizeCRC16, "LL=0, CRC-16 only", 4, 0, 2, 6, 0x14, "01 14 02 00 ca fe 41 ea", 0},
	{RuleSizeCRC32, "LL=0, CRC-32 only", 4, 0, 4, 8, 0x10, "01 10 02 00 ca fe 2b 68 f2 10", 2},
	{RuleSizeRel, "LL=0, TS rel only", 4, 4, 0, 8, 0x22, "01 22 02 00 ca fe e8 03 00 00", 0},
	{RuleSizeRelCRC16, "LL=0, TS rel + CRC-16", 4, 4, 2, 10, 0x36, "01 36 02 00 ca fe e8 03 00 00 a5 9e", 0},
	{RuleSizeRelCRC32, "LL=0, TS rel + CRC-32", 4, 4, 4, 12, 0x32, "01 32 02 00 ca fe e8 03 00 00 a2 08 9c 54", 5},
	{RuleSizeAbs, "LL=0, TS abs only", 4, 8, 0, 12, 0x20, "01 20 02 00 ca fe" + t0Hex, 0},
	{RuleSizeAbsCRC16, "LL=0, TS abs + CRC-16", 4, 8, 2, 14, 0x34, "01 34 02 00 ca fe" + t0Hex + "1b 9a", 0},
	{RuleSizeAbsCRC32, "LL=0, TS abs + CRC-32 (typical wire frame)", 4, 8, 4, 16, 0x30, "01 30 02 00 ca fe" + t0Hex + "aa 55 2e aa", 8},
	{RuleSizeLL1AbsCRC2, "LL=1 (extended length), TS abs + CRC-32", 6, 8, 4, 18, 0x38, "01 38 02 00 00 00 ca fe" + t0Hex + "aa 55 2e aa", 8},
}

// sizeRowExample turns a row into a byte example.
func sizeRowExample(t testing.TB, i int) byteExample {
	r := sizeRows[i]
	f := Frame{Type: 0x01, Opt: r.opt, Length: 2, Payload: spb}
	if r.opt.Has(OptTS) {
		f.TS = abs(T0)
	}
	if r.tcrc > 0 {
		b := hx(t, r.frame)
		f.CRC = &Checksum{Width: 8 * r.tcrc, Value: readCRC(b[len(b)-r.tcrc:], r.tcrc == 2)}
	}
	ex := byteExample{rule: r.rule, name: r.config, wire: r.frame, want: []Frame{f}}
	if r.smallest != 0 {
		ex.smallest = sizeRowExample(t, r.smallest-1).wire
	}
	if r.opt.Has(OptTF) {
		f.Offset = 4
		f.TS = rel(T0, 1000)
		ex.wire = "80 60" + bigHex(binary.LittleEndian.AppendUint16(nil, uint16(len(hx(t, r.frame))))) + r.frame + t0Hex
		ex.want = []Frame{{Type: 0x80, Opt: 0x60, Length: uint32(len(hx(t, r.frame))), TS: abs(T0), Children: []Frame{f}}}
	}
	return ex
}

func allByteExamples(t testing.TB) []byteExample {
	exs := examples(t)
	for i := range sizeRows {
		exs = append(exs, sizeRowExample(t, i))
	}
	return exs
}

func TestWorkedExamples(t *testing.T) {
	t.Parallel()
	for _, ex := range allByteExamples(t) {
		t.Run(string(ex.rule), func(t *testing.T) {
			wire := hx(t, ex.wire)
			if ex.covered != "" {
				cov, field := hx(t, ex.covered), hx(t, ex.crcHex)
				var got uint32
				if ex.crcWidth == 32 {
					got = bitCRC32C(cov)
				} else {
					got = uint32(bitCRC16(cov))
				}
				if want := readCRC(field, ex.crcWidth == 16); got != want {
					t.Fatalf("%s: bit-by-bit CRC %08x, the example says %08x", ex.name, got, want)
				}
			}
			r := Decode(wire, Limits{})
			if v := r.FirstError(); v != nil {
				t.Fatalf("%s: Decode: %v", ex.name, v)
			}
			sameFrames(t, ex.name+": Decode", r.Frames, ex.want)
			if n, err := Validate(wire, Limits{}); err != nil || n != len(ex.want) {
				t.Fatalf("%s: Validate = %d, %v", ex.name, n, err)
			}
			exact, err := EncodeExact(ex.want)
			if err != nil || !bytes.Equal(exact, wire) {
				t.Fatalf("%s: EncodeExact = %x, %v\nwant %x", ex.name, exact, err, wire)
			}
			small := wire
			if ex.smallest != "" {
				small = hx(t, ex.smallest)
			}
			if got, err := Encode(ex.want); err != nil || !bytes.Equal(got, small) {
				t.Fatalf("%s: Encode = %x, %v\nwant %x", ex.name, got, err, small)
			}
		})
	}
}

func TestSizeTable(t *testing.T) {
	t.Parallel()
	for _, r := range sizeRows {
		t.Run(string(r.rule), func(t *testing.T) {
			b := hx(t, r.frame)
			if r.opt.HeaderSize() != r.h || r.opt.TSSize() != r.tts || r.opt.CRCSize() != r.tcrc {
				t.Fatalf("%s: H, T_ts, T_crc = %d, %d, %d; the table says %d, %d, %d",
					r.config, r.opt.HeaderSize(), r.opt.TSSize(), r.opt.CRCSize(), r.h, r.tts, r.tcrc)
			}
			if got := len(b) - len(spb); got != r.ovh {
				t.Fatalf("%s: frame of %d bytes has overhead %d, the table says %d", r.config, len(b), got, r.ovh)
			}
			h := Header{Type: 1, Opt: r.opt, Length: 2}
			if h.FrameSize() != uint64(len(b)) {
				t.Fatalf("%s: FrameSize = %d, want %d", r.config, h.FrameSize(), len(b))
			}
		})
	}
}

// The standalone uint32-with-relative-TS example has no anchor at the top
// level: tr::path::invalid at its trailer_ts (LT-TS-04). Its layout is
// three 4-byte chunks at 0, 4 and 8.
func TestRelativeExampleAlone(t *testing.T) {
	t.Parallel()
	b := hx(t, "01 22 04 00 2a 00 00 00 e8 03 00 00")
	r := Decode(b, Limits{})
	if len(r.Frames) != 1 || r.Err != nil {
		t.Fatalf("Decode = %+v", r)
	}
	wantViolation(t, r.Frames[0].Err, RuleTSNoAnchor, CodePathInvalid, 8)
	if h, _ := ParseHeader(b, Limits{}); h.Size() != 4 || h.FrameSize() != 12 {
		t.Fatalf("header %v: H %d, size %d", h, h.Size(), h.FrameSize())
	}
}

func TestCheckValues(t *testing.T) {
	t.Parallel()
	in := []byte("123456789")
	if got := CRC32C(in); got != 0xE3069283 || bitCRC32C(in) != 0xE3069283 {
		t.Errorf("CRC-32C check = %08x (bitwise %08x), want e3069283 (LT-CRC-04)", got, bitCRC32C(in))
	}
	if got := CRC16(in); got != 0x29B1 || bitCRC16(in) != 0x29B1 {
		t.Errorf("CRC-16-CCITT check = %04x (bitwise %04x), want 29b1 (LT-CRC-08)", got, bitCRC16(in))
	}
}
