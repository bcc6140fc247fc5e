package libtracer

import (
	"bytes"
	"errors"
	"testing"

	"github.com/threespec/conformance/impl/rules"
)

// receiveCase is one input given to Receive under options, and its answer:
// a rejection (rule, code and offset, -2 for any), an OptionsError
// (malformed or not), or a report whose frames are Decode's of the same
// bytes (LT-CTX-03: every transport and every cut gives the datagram's
// answer), with the given per-frame error codes ("" for an accepted frame)
// and the stored and forwarded bytes.
type receiveCase struct {
	name   string
	in     []byte
	o      ReceiveOptions
	faults []string

	rule rules.ID
	code string
	off  int64

	optErr    string // "unsupported" or "malformed"
	errs      []string
	stored    []byte
	forwarded []byte
}

func TestReceive(t *testing.T) {
	t.Parallel()
	ex6 := mk(6, OptPL|OptCR, cat(mk(2, 0, []byte("sensor"), nil), mk(2, 0, []byte("temp"), nil)), nil) // LT-EX-06, 26 bytes
	bad6 := flip(ex6, len(ex6)-1, 1)
	ex4 := mk(1, OptTS|OptCR, pl42, u64le(T0)) // LT-EX-04
	ex4Stored := []byte{0x01, 0x00, 0x04, 0x00, 0x2a, 0, 0, 0}
	ex6Stored := append([]byte{0x06, 0x40}, ex6[2:22]...)
	// an unknown core type 0x0E as the outer TLV, then the empty STATUS
	two := []byte{0x0e, 0x00, 0x01, 0x00, 0xaa, 0x09, 0x00, 0x00, 0x00}
	// a 5-byte VALUE whose CRC-16-CCITT does not match (LT-EX-05's CRC-32C
	// bytes), then a header cut short
	crc16Cut := []byte{0x01, 0x14, 0x05, 0x00, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xb6, 0xc9, 0x09, 0x00}
	stream := ReceiveOptions{Transport: Stream}
	perFrame := ReceiveOptions{PerFrame: true}
	perFrameStream := ReceiveOptions{Transport: Stream, PerFrame: true}
	strip := ReceiveOptions{Strip: true}
	forward32 := ReceiveOptions{Forward: &Trailer{Timestamp: true, CRC: TrailerCRC32}, Clock: fixed(T0)}
	forward16 := ReceiveOptions{Forward: &Trailer{CRC: TrailerCRC16}}

	tests := []receiveCase{
		// The two transports and the rope of views (LT-CTX-01..03, LT-TRUNC-01..03, -08, -09).
		{name: "datagram", in: ex6, errs: []string{""}},
		{name: "stream", in: ex6, o: stream, errs: []string{""}},
		{name: "views in every field", in: ex6, o: ReceiveOptions{Views: []int64{2, 6, 10, 16, 20, 24}}, errs: []string{""}},
		{name: "empty views", in: ex6, o: ReceiveOptions{Views: []int64{0, 0, 13, 13, 26}}, errs: []string{""}},
		{name: "a view a byte", in: ex6, o: ReceiveOptions{Views: []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25}}, errs: []string{""}},
		{name: "datagram, bad CRC", in: bad6, rule: RuleCRCVerify32, code: CodeCRCFail, off: 22},
		{name: "stream, bad CRC", in: bad6, o: stream, rule: RuleCRCVerify32, code: CodeCRCFail, off: 22},
		{name: "views, bad CRC", in: flip(ex6, 9, 1), o: ReceiveOptions{Views: []int64{5, 12}}, rule: RuleCRCVerify32, code: CodeCRCFail, off: 22},
		{name: "datagram cut", in: ex6[:10], rule: RuleTruncDatagram, code: CodeTruncated, off: 0},
		{name: "stream closed inside a frame", in: ex6[:10], o: stream, rule: RuleTruncStreamDown, code: CodeTransportDown, off: 0},
		{name: "empty datagram", in: []byte{}, rule: RuleTruncEmptyDatagram, code: CodeTruncated, off: 0},
		{name: "empty stream", in: []byte{}, o: stream, errs: []string{}},
		// The receiver's limits, on every transport.
		{name: "MAX_TLV_BYTES", in: ex4, o: ReceiveOptions{Limits: Limits{MaxTLVBytes: 3}}, rule: RuleTruncMaxTLV, code: CodeInvalid, off: 2},
		{name: "MAX_TLV_BYTES, stream", in: ex4, o: ReceiveOptions{Transport: Stream, Limits: Limits{MaxTLVBytes: 3}}, rule: RuleTruncMaxTLV, code: CodeInvalid, off: 2},
		{name: "MAX_TLV_BYTES equal", in: ex4, o: ReceiveOptions{Limits: Limits{MaxTLVBytes: 4}}, errs: []string{""}},
		{name: "work budget", in: chain(6), o: ReceiveOptions{Limits: Limits{MaxOpenLevels: 5}}, rule: RuleNestTooDeep, code: CodeNestingTooDeep, off: 20},
		{name: "work budget, views", in: chain(6), o: ReceiveOptions{Views: []int64{21}, Limits: Limits{MaxOpenLevels: 5}}, rule: RuleNestTooDeep, code: CodeNestingTooDeep, off: 20},
		{name: "work budget, stream", in: chain(6), o: ReceiveOptions{Transport: Stream, Limits: Limits{MaxOpenLevels: 6}}, errs: []string{""}},
		// Verdict or every frame (LT-CTX-04, LT-UNK-02, LT-UNK-05): the
		// verdict is the first error in byte order (docs/libtracer.md); an
		// error that breaks framing rejects either way.
		{name: "verdict: unknown outer type", in: two, rule: RuleUnkOuter, code: CodeTypeMismatch, off: 0},
		{name: "per frame: the parse goes on", in: two, o: perFrame, errs: []string{CodeTypeMismatch, ""}},
		{name: "per frame, stream", in: two, o: perFrameStream, errs: []string{CodeTypeMismatch, ""}},
		{name: "verdict: bad frame before the cut", in: cat(bad6, []byte{0x01}), rule: RuleCRCVerify32, code: CodeCRCFail, off: 22},
		{name: "verdict, stream: bad frame before the cut", in: cat(bad6, []byte{0x01}), o: stream, rule: RuleCRCVerify32, code: CodeCRCFail, off: 22},
		{name: "per frame: the cut", in: cat(bad6, []byte{0x01}), o: perFrame, rule: RuleTruncDatagram, code: CodeTruncated, off: 26},
		{name: "per frame, stream: the cut", in: cat(bad6, []byte{0x01}), o: perFrameStream, rule: RuleTruncStreamDown, code: CodeTransportDown, off: 26},
		{name: "verdict: CRC-16 before the cut", in: crc16Cut, rule: RuleCRCVerify16, code: CodeCRCFail, off: 9},
		{name: "verdict, stream: CRC-16 before the cut", in: crc16Cut, o: stream, rule: RuleCRCVerify16, code: CodeCRCFail, off: 9},
		{name: "per frame: cut after a CRC-16 error", in: crc16Cut, o: perFrame, rule: RuleTruncDatagram, code: CodeTruncated, off: 11},
		{name: "per frame, stream: cut after a CRC-16 error", in: crc16Cut, o: perFrameStream, rule: RuleTruncStreamDown, code: CodeTransportDown, off: 11},
		// The trailer lifecycle (LT-LIFE-01, -03, -04, -05).
		{name: "strip", in: ex4, o: strip, errs: []string{""}, stored: ex4Stored},
		{name: "strip, two frames", in: cat(ex4, ex6), o: strip, errs: []string{"", ""}, stored: cat(ex4Stored, ex6Stored)},
		{name: "strip, stream", in: cat(ex4, ex6), o: ReceiveOptions{Transport: Stream, Strip: true}, errs: []string{"", ""}, stored: cat(ex4Stored, ex6Stored)},
		{name: "replay of stored bytes", in: ex4Stored, o: forward32, errs: []string{""}, forwarded: ex4},
		{name: "strip and forward", in: ex4, o: ReceiveOptions{Strip: true, Forward: &Trailer{Timestamp: true, CRC: TrailerCRC32}, Clock: fixed(T0)}, errs: []string{""}, stored: ex4Stored, forwarded: ex4},
		{name: "forward without a stamp", in: ex4, o: forward16, errs: []string{""}, forwarded: mk(1, OptCR|OptCW, pl42, nil)},
		{name: "validated before it is stored", in: flip(ex4, 9, 1), o: strip, rule: RuleCRCVerify32, code: CodeCRCFail, off: 16},
		{name: "validated before it is forwarded", in: flip(ex4, 9, 1), o: forward16, rule: RuleCRCVerify32, code: CodeCRCFail, off: 16},
		{name: "strip, then framing breaks", in: cat(ex4, []byte{0x01}), o: strip, rule: RuleTruncDatagram, code: CodeTruncated, off: 20},
		{name: "strip, a bad frame after a good one", in: cat(ex4, bad6), o: strip, rule: RuleCRCVerify32, code: CodeCRCFail, off: 22},
		// Options Receive cannot act on.
		{name: "per frame with strip", in: ex4, o: ReceiveOptions{PerFrame: true, Strip: true}, optErr: "unsupported"},
		{name: "per frame with forward", in: ex4, o: ReceiveOptions{PerFrame: true, Forward: &Trailer{}}, optErr: "unsupported"},
		{name: "views of a stream", in: ex6, o: ReceiveOptions{Transport: Stream, Views: []int64{3}}, optErr: "unsupported"},
		{name: "no such transport", in: ex6, o: ReceiveOptions{Transport: 7}, optErr: "unsupported"},
		{name: "cuts decrease", in: ex6, o: ReceiveOptions{Views: []int64{3, 2}}, optErr: "malformed"},
		{name: "cut past the input", in: ex6, o: ReceiveOptions{Views: []int64{27}}, optErr: "malformed"},
		{name: "negative cut", in: ex6, o: ReceiveOptions{Views: []int64{-1}}, optErr: "malformed"},
		// The Checks reach every parse, strip and forward: with LT-CRC-09
		// switched off a bad CRC-32C is accepted.
		{name: "LT-CRC-09 off", in: bad6, faults: []string{"LT-CRC-09"}, errs: []string{""}},
		{name: "LT-CRC-09 off, stream", in: bad6, o: stream, faults: []string{"LT-CRC-09"}, errs: []string{""}},
		{name: "LT-CRC-09 off, views", in: bad6, o: ReceiveOptions{Views: []int64{3, 9}}, faults: []string{"LT-CRC-09"}, errs: []string{""}},
		{name: "LT-CRC-09 off, strip", in: bad6, o: strip, faults: []string{"LT-CRC-09"}, errs: []string{""}, stored: ex6Stored},
		{name: "LT-CRC-09 off, forward", in: bad6, o: forward16, faults: []string{"LT-CRC-09"}, errs: []string{""},
			forwarded: mk(6, OptPL|OptCR|OptCW, ex6[4:22], nil)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := faultChecks(tt.faults...)
			r, err := ReceiveWith(c, tt.in, tt.o)
			var oe *OptionsError
			switch {
			case tt.optErr != "":
				if !errors.As(err, &oe) || oe.Malformed != (tt.optErr == "malformed") {
					t.Fatalf("error %v, want %s options", err, tt.optErr)
				}
				return
			case tt.code != "":
				wantViolation(t, err, tt.rule, tt.code, tt.off)
				if r != nil {
					t.Fatalf("a report with the rejection: %+v", r)
				}
				return
			case err != nil:
				t.Fatalf("rejected: %v", err)
			}
			sameFrames(t, "frames", r.Frames, DecodeWith(c, tt.in, tt.o.Limits).Frames)
			if len(r.Frames) != len(tt.errs) {
				t.Fatalf("%d frames, want %d", len(r.Frames), len(tt.errs))
			}
			for i, code := range tt.errs {
				if got := r.Frames[i].Err; (got == nil) != (code == "") || got != nil && got.Code != code {
					t.Errorf("frame %d: error %v, want %q", i, got, code)
				}
			}
			if !bytes.Equal(r.Stored, tt.stored) || (r.Stored == nil) != (tt.stored == nil) {
				t.Errorf("stored %x, want %x", r.Stored, tt.stored)
			}
			if !bytes.Equal(r.Forwarded, tt.forwarded) || (r.Forwarded == nil) != (tt.forwarded == nil) {
				t.Errorf("forwarded %x, want %x", r.Forwarded, tt.forwarded)
			}
		})
	}
}

// Receive is ReceiveWith under the zero Checks; a forward without a clock
// stamps the system's wall-clock time.
func TestReceiveDefaults(t *testing.T) {
	t.Parallel()
	ex4 := mk(1, OptTS|OptCR, pl42, u64le(T0))
	r, err := Receive(ex4, ReceiveOptions{Forward: &Trailer{Timestamp: true}})
	if err != nil {
		t.Fatal(err)
	}
	got := Decode(r.Forwarded, Limits{})
	if got.FirstError() != nil || len(got.Frames) != 1 || got.Frames[0].TS == nil || got.Frames[0].TS.Abs < T0 {
		t.Fatalf("forwarded %x: %+v", r.Forwarded, got)
	}
	if _, err := Receive(flip(ex4, 9, 1), ReceiveOptions{}); err == nil {
		t.Fatal("a bad CRC accepted under the zero Checks")
	}
}
