package tracermodel

import (
	"testing"
)

// TestCRCCheckValues: the check values of the CRCs as the spec and
// docs/DECISIONS.md give them (LT-CRC-04, LT-CRC-08), and LT-READ-19's
// reflected alternative (CRC-16/MCRF4XX).
func TestCRCCheckValues(t *testing.T) {
	in := []byte("123456789")
	if got := CRC32C(in); got != 0xE3069283 {
		t.Errorf("CRC-32C check = %#08x, want 0xE3069283", got)
	}
	if got := CRC16(in); got != 0x29B1 {
		t.Errorf("CRC-16-CCITT check = %#04x, want 0x29B1", got)
	}
	if got := CRC16Reflected(in); got != 0x6F91 {
		t.Errorf("CRC-16/MCRF4XX check = %#04x, want 0x6F91", got)
	}
}

// TestSizes: the frame-size table of libtracer-01 §Frame size: header 4 or
// 6 bytes, trailer_ts 0, 4 or 8, trailer_crc 0, 2 or 4.
func TestSizes(t *testing.T) {
	for _, tt := range []struct {
		opt           uint8
		hdr, ts, crcs int
	}{
		{0, 4, 0, 0},
		{BitLL, 6, 0, 0},
		{BitTS, 4, 8, 0},
		{BitTS | BitTF, 4, 4, 0},
		{BitTF, 4, 0, 0}, // TF ignored without TS
		{BitCR, 4, 0, 4},
		{BitCR | BitCW, 4, 0, 2},
		{BitCW, 4, 0, 0}, // CW ignored without CR
		{BitLL | BitTS | BitCR, 6, 8, 4},
	} {
		if HeaderSize(tt.opt) != tt.hdr || TSSize(tt.opt) != tt.ts || CRCSize(tt.opt) != tt.crcs {
			t.Errorf("opt %08b: sizes %d %d %d, want %d %d %d", tt.opt, HeaderSize(tt.opt), TSSize(tt.opt), CRCSize(tt.opt), tt.hdr, tt.ts, tt.crcs)
		}
	}
}

// FuzzCodes: the check-order model reads any bytes under any arguments
// without panicking, and a set it gives is of the spec's codes.
func FuzzCodes(f *testing.F) {
	f.Add([]byte{0x09, 0, 0, 0}, false, int64(0), false)
	f.Add([]byte{0x06, 0x40, 5, 0, 2, 0, 2, 0, 0xaa}, true, int64(5), true)
	f.Add([]byte{0x01, 0x08, 0, 0, 0, 1}, false, int64(6), false)
	codes := map[string]bool{CodeInvalid: true, CodeCRCFail: true, CodeTruncated: true, CodeDown: true, CodePath: true, CodeTooDeep: true, CodeMismatch: true}
	f.Fuzz(func(t *testing.T, in []byte, stream bool, bound int64, frames bool) {
		a := Args{Transport: TransportDatagram}
		if stream {
			a.Transport = TransportStream
		}
		if bound > 0 {
			a.WorkBudget, a.MaxTLVBytes = &bound, &bound
		}
		if frames {
			a.Report = "frames"
		}
		for _, alt := range []Alternatives{{}, {StopAtFirst: true, EmptyInvalid: true, DownAsTruncated: true, OnePerDatagram: true}} {
			for _, c := range Codes(in, a, alt) {
				if !codes[c] {
					t.Fatalf("%x: code %q is none of the spec's", in, c)
				}
			}
		}
	})
}
