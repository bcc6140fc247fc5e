package libtracer

import (
	"bytes"
	"testing"
)

func fixed(t uint64) Clock { return func() uint64 { return t } }

// Strip then Attach with the same clock and CRC gives back the worked
// examples byte for byte (LT-LIFE-01, LT-LIFE-03, LT-LIFE-04).
func TestStripAttachKnownAnswers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		wire   string
		stored string
		tr     Trailer
	}{
		{"uint32 abs TS + CRC-32", "01 30 04 00 2a 00 00 00" + t0Hex + "6a 09 50 4d", "01 00 04 00 2a 00 00 00", Trailer{Timestamp: true, CRC: TrailerCRC32}},
		{"5-byte VALUE + CRC-32", "01 10 05 00 aa bb cc dd ee b6 c9 12 23", "01 00 05 00 aa bb cc dd ee", Trailer{CRC: TrailerCRC32}},
		{"PATH + CRC-32", "06 50 12 00 02 00 06 00 73 65 6e 73 6f 72 02 00 04 00 74 65 6d 70 f3 70 ab 47",
			"06 40 12 00 02 00 06 00 73 65 6e 73 6f 72 02 00 04 00 74 65 6d 70", Trailer{CRC: TrailerCRC32}},
		{"LL=0 TS abs + CRC-16: CW stays", "01 34 02 00 ca fe" + t0Hex + "1b 9a", "01 04 02 00 ca fe", Trailer{Timestamp: true, CRC: TrailerCRC16}},
		{"no trailer", "01 00 01 00 01", "01 00 01 00 01", Trailer{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wire := hx(t, tt.wire)
			stored, err := Strip(wire, Limits{})
			if err != nil || !bytes.Equal(stored, hx(t, tt.stored)) {
				t.Fatalf("Strip = %x, %v", stored, err)
			}
			// The stored bytes are a frame, with the same payload.
			r := Decode(stored, Limits{})
			if v := r.FirstError(); v != nil {
				t.Fatalf("stored bytes: %v", v)
			}
			h, _ := ParseHeader(wire, Limits{})
			if !bytes.Equal(stored[4:], wire[4:4+h.Length]) {
				t.Fatal("payload changed")
			}
			again, err := Attach(stored, tt.tr, fixed(T0))
			if err != nil || !bytes.Equal(again, wire) {
				t.Fatalf("Attach = %x, %v\nwant %x", again, err, wire)
			}
		})
	}
}

// Forwarding gives a fresh stamp and a fresh CRC over the same payload
// (LT-LIFE-04, LT-LIFE-06).
func TestForward(t *testing.T) {
	t.Parallel()
	wire := hx(t, "01 30 04 00 2a 00 00 00"+t0Hex+"6a 09 50 4d")
	out, err := Forward(wire, Limits{}, Trailer{Timestamp: true, CRC: TrailerCRC16}, fixed(T0+5))
	if err != nil {
		t.Fatal(err)
	}
	if want := mk(1, OptTS|OptCR|OptCW, pl42, u64le(T0+5)); !bytes.Equal(out, want) {
		t.Fatalf("Forward = %x, want %x", out, want)
	}
	// A relative TF on the at-rest bytes does not survive Attach, which
	// writes an absolute stamp.
	stored := mk(1, OptTF|OptCW, pl42, nil)
	out, err = Attach(stored, Trailer{Timestamp: true}, fixed(T0))
	if err != nil || !bytes.Equal(out, mk(1, OptTS, pl42, u64le(T0))) {
		t.Fatalf("Attach = %x, %v", out, err)
	}
}

func TestStripAttachRefuse(t *testing.T) {
	t.Parallel()
	_, err := Strip(flip(hx(t, "01 10 05 00 aa bb cc dd ee b6 c9 12 23"), 4, 1), Limits{})
	wantViolation(t, err, RuleCRCVerify32, CodeCRCFail, 9)
	_, err = Strip(cat(vTrue, vTrue), Limits{})
	wantViolation(t, err, RuleLifeStrip, CodeInvalid, 5)
	_, err = Attach(hx(t, "01 10 05 00 aa bb cc dd ee b6 c9 12 23"), Trailer{}, fixed(0))
	wantViolation(t, err, RuleLifeAtRest, CodeInvalid, 0)
	_, err = Attach(hx(t, "01 00 05 00 aa bb"), Trailer{}, fixed(0))
	wantViolation(t, err, RuleLifeAtRest, CodeInvalid, 0)
}

// The ADC record's children are anchored only on the outer stamp: at rest
// they have no anchor (docs/libtracer.md), and re-attaching a stamp
// anchors them again, at the new wire-time.
func TestStripDanglingRelativeStamps(t *testing.T) {
	t.Parallel()
	child := mk(1, OptTS|OptTF, pl42, i32le(3))
	wire := rec(OptTS|OptCR, u64le(T0), child)
	stored, err := Strip(wire, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	wantViolation(t, Decode(stored, Limits{}).FirstError(), RuleTSNoAnchor, CodePathInvalid, 12)
	replayed, err := Attach(stored, Trailer{Timestamp: true}, fixed(T0+1000))
	if err != nil {
		t.Fatal(err)
	}
	r := Decode(replayed, Limits{})
	if v := r.FirstError(); v != nil || r.Frames[0].Children[0].TS.Resolved != T0+1003 {
		t.Fatalf("replayed: %v %+v", v, r.Frames)
	}
}

// Streaming send: header, payload chunks, then the trailer_ts from the
// clock folded into the CRC, then the CRC (LT-CRC-13).
func TestFrameWriter(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	fw, err := NewFrameWriter(&out, Header{Type: 1, Opt: OptTS | OptCR, Length: 4}, fixed(T0))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range [][]byte{{0x2a}, {}, {0, 0}, {0}} {
		if _, err := fw.Write(c); err != nil {
			t.Fatal(err)
		}
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	if want := hx(t, "01 30 04 00 2a 00 00 00"+t0Hex+"6a 09 50 4d"); !bytes.Equal(out.Bytes(), want) {
		t.Fatalf("FrameWriter wrote %x, want %x", out.Bytes(), want)
	}

	out.Reset()
	fw, _ = NewFrameWriter(&out, Header{Type: 0x80, Opt: OptCR | OptCW | OptLL, Length: 2}, fixed(0))
	fw.Write(spb)
	if _, err := fw.Write([]byte{1}); err == nil {
		t.Fatal("write past the declared length accepted")
	}
	if err := fw.Close(); err != nil || !bytes.Equal(out.Bytes(), mk(0x80, OptCR|OptCW|OptLL, spb, nil)) {
		t.Fatalf("wrote %x, %v", out.Bytes(), err)
	}

	fw, _ = NewFrameWriter(&out, Header{Type: 1, Length: 3}, fixed(0))
	fw.Write(spb)
	wantViolation(t, fw.Close(), RuleFramePayload, CodeInvalid, 6)
	_, err = NewFrameWriter(&out, Header{Type: 1, Opt: OptTS | OptTF}, fixed(0))
	wantViolation(t, err, RuleTSNoAnchor, CodePathInvalid, -1)
	_, err = NewFrameWriter(&out, Header{Type: 5}, fixed(0))
	wantViolation(t, err, RuleType05NoSend, CodeInvalid, -1)
	_, err = NewFrameWriter(&out, Header{Type: 1, Length: 70000}, fixed(0))
	wantViolation(t, err, RuleLenMax16, CodeInvalid, -1)
}

// Forwarding copies payload bytes, so a nested 0x05 (accepted as opaque
// bytes, LT-UNK-06) passes through, although no encoder emits one
// (LT-TYPE-06).
func TestForwardPassesNested05(t *testing.T) {
	t.Parallel()
	inner := mk(0x05, 0, []byte{9}, nil)
	out, err := Forward(rec(OptCR, nil, inner), Limits{}, Trailer{CRC: TrailerCRC16}, fixed(0))
	if err != nil || !bytes.Equal(out, rec(OptCR|OptCW, nil, inner)) {
		t.Fatalf("Forward = %x, %v", out, err)
	}
	if _, err := EncodeExact(Decode(out, Limits{}).Frames); err == nil {
		t.Fatal("EncodeExact emitted 0x05")
	}
}
