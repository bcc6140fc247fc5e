package libtracer

import (
	"bytes"
	"runtime"
	"testing"

	"github.com/threespec/conformance/impl/rules"
)

// rejectCase is an input Decode rejects: the first error in input order
// (Result.FirstError), whether it broke framing (Result.Err) or is one
// frame's (Frame.Err), and how many top-level frames came back.
type rejectCase struct {
	name    string
	in      []byte
	lim     Limits
	rule    rules.ID
	code    string
	off     int64
	framing bool
	frames  int
}

var (
	vTrue  = []byte{0x01, 0x00, 0x01, 0x00, 0x01} // VALUE true (LT-EX-02)
	pl42   = []byte{0x2a, 0, 0, 0}
	status = []byte{0x09, 0, 0, 0}
)

// rec wraps children in the user record 0x80 with the given options and
// trailer_ts bytes.
func rec(o Opt, ts []byte, children ...[]byte) []byte {
	return mk(0x80, OptPL|o, cat(children...), ts)
}

// chain is n structured user records nested in one another around a
// STATUS: n open levels.
func chain(n int) []byte {
	b := status
	for range n {
		b = mk(0x80, OptPL, b, nil)
	}
	return b
}

func rejectCases(t testing.TB) []rejectCase {
	ex5 := hx(t, "01 10 05 00 aa bb cc dd ee b6 c9 12 23")
	ex4 := hx(t, "01 30 04 00 2a 00 00 00"+t0Hex+"6a 09 50 4d")
	path := hx(t, "06 50 12 00 02 00 06 00 73 65 6e 73 6f 72 02 00 04 00 74 65 6d 70 f3 70 ab 47")
	badChild := []byte{0x01, 0x80, 0x01, 0x00, 0xaa}
	return []rejectCase{
		// Header checks, in byte order (LT-TYPE-01, LT-OPT-01/02, LT-TRUNC-06).
		{name: "reserved bit 7", in: flip(vTrue, 1, 0x80), rule: RuleOptReserved7, code: CodeInvalid, off: 1, framing: true},
		{name: "reserved bit 0", in: flip(vTrue, 1, 0x01), rule: RuleOptReserved0, code: CodeInvalid, off: 1, framing: true},
		{name: "both reserved bits: bit 7 first", in: flip(vTrue, 1, 0x81), rule: RuleOptReserved7, code: CodeInvalid, off: 1, framing: true},
		{name: "type 0x00", in: flip(vTrue, 0, 0x01), rule: RuleTypeZero, code: CodeInvalid, off: 0, framing: true},
		{name: "type 0x00, one byte", in: []byte{0}, rule: RuleTypeZero, code: CodeInvalid, off: 0, framing: true},
		{name: "zeroed buffer", in: make([]byte, 16), rule: RuleTypeZero, code: CodeInvalid, off: 0, framing: true},
		{name: "reserved bit before truncation", in: []byte{0x01, 0x80}, rule: RuleOptReserved7, code: CodeInvalid, off: 1, framing: true},
		{name: "length above MAX_TLV_BYTES", in: mk(1, 0, []byte{1, 2, 3, 4, 5}, nil), lim: Limits{MaxTLVBytes: 4},
			rule: RuleTruncMaxTLV, code: CodeInvalid, off: 2, framing: true},
		{name: "length 16 MiB + 1 by default, bytes absent", in: []byte{0x01, 0x08, 0x01, 0x00, 0x00, 0x01},
			rule: RuleTruncMaxTLV, code: CodeInvalid, off: 2, framing: true},
		{name: "length 0xFFFFFFFF by default", in: []byte{0x01, 0x08, 0xff, 0xff, 0xff, 0xff},
			rule: RuleTruncMaxTLV, code: CodeInvalid, off: 2, framing: true},

		// Truncation of a datagram (LT-TRUNC-03, LT-TRUNC-08).
		{name: "empty datagram", in: []byte{}, rule: RuleTruncEmptyDatagram, code: CodeTruncated, off: 0, framing: true},
		{name: "one byte", in: []byte{0x01}, rule: RuleTruncDatagram, code: CodeTruncated, off: 0, framing: true},
		{name: "three header bytes", in: []byte{0x01, 0x00, 0x05}, rule: RuleTruncDatagram, code: CodeTruncated, off: 0, framing: true},
		{name: "LL=1 header cut", in: []byte{0x01, 0x08, 0x05, 0x00, 0x00}, rule: RuleTruncDatagram, code: CodeTruncated, off: 0, framing: true},
		{name: "payload cut", in: []byte{0x01, 0x00, 0x05, 0x00, 0xaa, 0xbb}, rule: RuleTruncDatagram, code: CodeTruncated, off: 0, framing: true},
		{name: "CRC cut", in: ex5[:len(ex5)-1], rule: RuleTruncDatagram, code: CodeTruncated, off: 0, framing: true},
		{name: "trailer_ts cut", in: ex4[:12], rule: RuleTruncDatagram, code: CodeTruncated, off: 0, framing: true},
		{name: "LL=1 length 0xFFFFFFFF within MAX", in: []byte{0x01, 0x08, 0xff, 0xff, 0xff, 0xff, 0x00}, lim: Limits{MaxTLVBytes: MaxLen32},
			rule: RuleTruncDatagram, code: CodeTruncated, off: 0, framing: true},
		{name: "second frame cut", in: cat(vTrue, []byte{0x01, 0x00}), rule: RuleTruncDatagram, code: CodeTruncated, off: 5, framing: true, frames: 1},

		// CRC (LT-CRC-09, LT-CRC-10, LT-CRC-15, LT-UNK-03).
		{name: "CRC-32C mismatch (payload)", in: flip(ex5, 6, 0x01), rule: RuleCRCVerify32, code: CodeCRCFail, off: 9, frames: 1},
		{name: "CRC-32C mismatch (field)", in: flip(ex5, 12, 0x80), rule: RuleCRCVerify32, code: CodeCRCFail, off: 9, frames: 1},
		{name: "CRC-16 mismatch", in: flip(mk(1, OptCR|OptCW, []byte{0xaa, 0xbb}, nil), 4, 0x10), rule: RuleCRCVerify16, code: CodeCRCFail, off: 6, frames: 1},
		{name: "corrupted trailer_ts is crc_fail", in: flip(ex4, 9, 0x04), rule: RuleCRCVerify32, code: CodeCRCFail, off: 16, frames: 1},
		{name: "unknown type, bad CRC", in: flip(mk(0x0e, OptCR, []byte{1}, nil), 4, 1), rule: RuleCRCVerify32, code: CodeCRCFail, off: 5, frames: 1},
		{name: "structured, bad CRC", in: flip(path, 8, 0x20), rule: RuleCRCVerify32, code: CodeCRCFail, off: 22, frames: 1},

		// Timestamps (LT-TS-04).
		{name: "relative TS at the top", in: mk(1, OptTS|OptTF, pl42, i32le(5)), rule: RuleTSNoAnchor, code: CodePathInvalid, off: 8, frames: 1},
		{name: "relative TS, no ancestor stamp", in: rec(0, nil, rec(0, nil, mk(1, OptTS|OptTF, pl42, i32le(-5)))),
			rule: RuleTSNoAnchor, code: CodePathInvalid, off: 16, frames: 1},
		{name: "relative TS on a structured top", in: rec(OptTS|OptTF, i32le(1), status), rule: RuleTSNoAnchor, code: CodePathInvalid, off: 8, frames: 1},

		// Unknown types (LT-UNK-05), and the stream goes on (LT-UNK-02).
		{name: "unknown 0x0E at the top", in: cat(mk(0x0e, 0, []byte{1}, nil), vTrue), rule: RuleUnkOuter, code: CodeTypeMismatch, off: 0, frames: 2},
		{name: "unknown 0x7F at the top", in: cat(mk(0x7f, OptPL, []byte{0xff}, nil), vTrue), rule: RuleUnkOuter, code: CodeTypeMismatch, off: 0, frames: 2},
		{name: "unknown 0x20 at the top", in: mk(0x20, 0, nil, nil), rule: RuleUnkOuter, code: CodeTypeMismatch, off: 0, frames: 1},
		{name: "reserved 0x05 at the top", in: cat(vTrue, mk(0x05, 0, nil, nil), vTrue), rule: RuleUnkOuter, code: CodeTypeMismatch, off: 5, frames: 3},
		{name: "unknown with relative TS: TS first", in: mk(0x0e, OptTS|OptTF, nil, i32le(0)), rule: RuleTSNoAnchor, code: CodePathInvalid, off: 4, frames: 1},

		// Children fill the payload exactly (LT-NEST-05) and are checked
		// like any header.
		{name: "child overruns the payload", in: cat(hx(t, "80 40 05 00"), []byte{0x01, 0x00, 0x02, 0x00, 0xaa}),
			rule: RuleNestExactFill, code: CodeInvalid, off: 4, frames: 1},
		{name: "remainder shorter than a header", in: cat(hx(t, "80 40 07 00"), vTrue, []byte{0x01, 0x00}),
			rule: RuleNestExactFill, code: CodeInvalid, off: 9, frames: 1},
		{name: "child LL=1 header cut by the payload end", in: cat(hx(t, "80 40 05 00"), []byte{0x01, 0x08, 0x00, 0x00, 0x00}),
			rule: RuleNestExactFill, code: CodeInvalid, off: 4, frames: 1},
		{name: "child reserved bit", in: rec(0, nil, badChild), rule: RuleOptReserved7, code: CodeInvalid, off: 5, frames: 1},
		{name: "child type 0x00", in: rec(0, nil, flip(vTrue, 0, 1)), rule: RuleTypeZero, code: CodeInvalid, off: 4, frames: 1},
		{name: "child length above MAX_TLV_BYTES", in: cat(hx(t, "80 40 06 00"), []byte{0x01, 0x00, 0x64, 0x00, 0xaa, 0xbb}), lim: Limits{MaxTLVBytes: 12},
			rule: RuleTruncMaxTLV, code: CodeInvalid, off: 6, frames: 1},
		{name: "error in the second of three frames", in: cat(vTrue, rec(0, nil, badChild), vTrue),
			rule: RuleOptReserved7, code: CodeInvalid, off: 10, frames: 3},

		// Work-stack budget (LT-NEST-03, LT-NEST-04).
		{name: "6 open levels, budget 5", in: chain(6), lim: Limits{MaxOpenLevels: 5}, rule: RuleNestTooDeep, code: CodeNestingTooDeep, off: 20, frames: 1},
		{name: "6 open levels, budget 1 (raised to 5)", in: chain(6), lim: Limits{MaxOpenLevels: 1}, rule: RuleNestTooDeep, code: CodeNestingTooDeep, off: 20, frames: 1},
		{name: "9 open levels, budget 8", in: chain(9), lim: Limits{MaxOpenLevels: 8}, rule: RuleNestTooDeep, code: CodeNestingTooDeep, off: 32, frames: 1},

		// A frame's CRC comes before anything inside it.
		{name: "bad outer CRC over a bad child", in: flip(mk(0x80, OptPL|OptCR, badChild, nil), 6, 1),
			rule: RuleCRCVerify32, code: CodeCRCFail, off: 9, frames: 1},
		{name: "good outer CRC over a bad child", in: mk(0x80, OptPL|OptCR, badChild, nil),
			rule: RuleOptReserved7, code: CodeInvalid, off: 5, frames: 1},
		{name: "inner and outer CRC bad: outer", in: flip(mk(0x80, OptPL|OptCR|OptCW, ex5, nil), 8, 1),
			rule: RuleCRCVerify16, code: CodeCRCFail, off: 17, frames: 1},
		{name: "inner CRC bad, outer good: inner", in: mk(0x80, OptPL|OptCR|OptCW, flip(ex5, 4, 1), nil),
			rule: RuleCRCVerify32, code: CodeCRCFail, off: 13, frames: 1},
		{name: "bad CRC three levels up over a bad child", in: flip(mk(0x80, OptPL|OptCR, rec(0, nil, mk(0x80, OptPL|OptCR|OptCW, badChild, nil)), nil), 14, 1),
			rule: RuleCRCVerify32, code: CodeCRCFail, off: 19, frames: 1},
		{name: "bad CRC of a structured frame with a relative TS at the top", in: flip(mk(0x80, OptPL|OptTS|OptTF|OptCR, status, i32le(1)), 4, 1),
			rule: RuleCRCVerify32, code: CodeCRCFail, off: 12, frames: 1},
		{name: "bad CRC over too deep a nest", in: flip(mk(0x80, OptPL|OptCR, chain(6), nil), 28, 1), lim: Limits{MaxOpenLevels: 5},
			rule: RuleCRCVerify32, code: CodeCRCFail, off: 32, frames: 1},
		{name: "unknown top-level with a bad CRC over garbage", in: flip(mk(0x0e, OptPL|OptCR, []byte{0, 0, 0}, nil), 5, 1),
			rule: RuleCRCVerify32, code: CodeCRCFail, off: 7, frames: 1},
	}
}

func TestDecodeRejects(t *testing.T) {
	t.Parallel()
	for _, c := range rejectCases(t) {
		t.Run(c.name, func(t *testing.T) {
			r := Decode(c.in, c.lim)
			wantViolation(t, r.FirstError(), c.rule, c.code, c.off)
			if c.framing != (r.Err != nil && r.Err == r.FirstError()) {
				t.Errorf("framing error = %v, want framing %v", r.Err, c.framing)
			}
			if len(r.Frames) != c.frames {
				t.Errorf("%d frames, want %d", len(r.Frames), c.frames)
			}
			n, err := Validate(c.in, c.lim)
			wantViolation(t, err, c.rule, c.code, c.off)
			if n != c.frames {
				t.Errorf("Validate counted %d frames, want %d", n, c.frames)
			}
		})
	}
}

// A rejected frame keeps its header and nothing else; the frames around it
// are parsed (LT-CTX-04, LT-UNK-02, LT-UNK-04).
func TestBackToBack(t *testing.T) {
	t.Parallel()
	ex5 := hx(t, "01 10 05 00 aa bb cc dd ee b6 c9 12 23")
	in := cat(vTrue, flip(ex5, 5, 1), mk(0x0e, OptCR, []byte{7, 7}, nil), status, []byte{0x01, 0x00, 0x09})
	r := Decode(in, Limits{})
	want := []Frame{
		{Type: 1, Length: 1, Payload: []byte{1}},
		{Offset: 5, Type: 1, Opt: 0x10, Length: 5, Err: &rules.Violation{Rule: RuleCRCVerify32, Code: CodeCRCFail, Offset: 14,
			Detail: "trailer_crc 0x2312c9b6 of the frame at 5, computed CRC-32C 0x" + hexU32(bitCRC32C(hx(t, "aa ba cc dd ee")))}},
		{Offset: 18, Type: 0x0e, Opt: 0x10, Length: 2, Err: &rules.Violation{Rule: RuleUnkOuter, Code: CodeTypeMismatch, Offset: 18,
			Detail: "type 0x0e (unknown) is not a type this receiver knows"}},
		{Offset: 28, Type: 9},
	}
	sameFrames(t, "Decode", r.Frames, want)
	wantViolation(t, r.Err, RuleTruncDatagram, CodeTruncated, 32)
	if r.FirstError() != r.Frames[1].Err {
		t.Fatal("FirstError must be the first rejected frame's")
	}
}

func hexU32(v uint32) string {
	return bigHex([]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)})
}

// Relative stamps resolve against the nearest ancestor that has a
// trailer_ts (LT-TS-02, LT-TS-03), modulo 2^64 (LT-TS-07).
func TestTimestampResolution(t *testing.T) {
	t.Parallel()
	leaf := func(r int32) []byte { return mk(1, OptTS|OptTF, pl42, i32le(r)) }
	tests := []struct {
		name string
		in   []byte
		path []int // child indexes to the frame checked
		want uint64
	}{
		{"child of a stamped parent", rec(OptTS, u64le(T0), leaf(-5)), []int{0}, T0 - 5},
		{"grandparent when the parent has none", rec(OptTS, u64le(T0), rec(0, nil, leaf(7))), []int{0, 0}, T0 + 7},
		{"a relative parent anchors its children", rec(OptTS, u64le(T0), rec(OptTS|OptTF, i32le(100), leaf(7))), []int{0, 0}, T0 + 107},
		{"the relative parent itself", rec(OptTS, u64le(T0), rec(OptTS|OptTF, i32le(100), leaf(7))), []int{0}, T0 + 100},
		{"an absolute child resets the anchor", rec(OptTS, u64le(T0), rec(OptTS, u64le(5), leaf(1))), []int{0, 0}, 6},
		{"i32 minimum", rec(OptTS, u64le(T0), leaf(-1<<31)), []int{0}, T0 - 1<<31},
		{"i32 maximum", rec(OptTS, u64le(T0), leaf(1<<31-1)), []int{0}, T0 + 1<<31 - 1},
		{"wraps past 2^64 - 1", rec(OptTS, u64le(^uint64(0)), leaf(2)), []int{0}, 1},
		{"wraps below 0", rec(OptTS, u64le(1), leaf(-2)), []int{0}, ^uint64(0)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Decode(tt.in, Limits{})
			if v := r.FirstError(); v != nil {
				t.Fatal(v)
			}
			f := &r.Frames[0]
			for _, i := range tt.path {
				f = &f.Children[i]
			}
			if f.TS == nil || f.TS.Resolved != tt.want {
				t.Fatalf("TS = %+v, want resolved %d", f.TS, tt.want)
			}
		})
	}
}

// Every combination of LL, CW and TF, with and without TS and CR, is
// accepted (LT-IOP-01); CW without CR and TF without TS are ignored
// (LT-OPT-09, LT-OPT-11).
func TestAllOptionCombinations(t *testing.T) {
	t.Parallel()
	payload := []byte("abc")
	for o := Opt(0); o < 0x40; o += 2 { // bits 1..5; PL and the reserved bits stay clear
		var ts []byte
		switch {
		case o.Has(OptTS | OptTF):
			ts = i32le(-3)
		case o.Has(OptTS):
			ts = u64le(T0)
		}
		in := mk(1, o, payload, ts)
		anchored := o.Has(OptTS | OptTF)
		if anchored {
			in = rec(OptTS, u64le(T0), in)
		}
		r := Decode(in, Limits{})
		if v := r.FirstError(); v != nil {
			t.Fatalf("opt 0x%02x: %v", byte(o), v)
		}
		f := r.Frames[0]
		if anchored {
			f = f.Children[0]
		}
		if !bytes.Equal(f.Payload, payload) || f.Opt != o {
			t.Fatalf("opt 0x%02x: frame %+v", byte(o), f)
		}
		if (f.TS != nil) != o.Has(OptTS) || (f.CRC != nil) != o.Has(OptCR) {
			t.Fatalf("opt 0x%02x: TS %v, CRC %v", byte(o), f.TS, f.CRC)
		}
		if f.TS != nil && f.TS.Relative != o.Has(OptTF) {
			t.Fatalf("opt 0x%02x: TS form %+v", byte(o), f.TS)
		}
		if f.CRC != nil && (f.CRC.Width == 16) != o.Has(OptCW) {
			t.Fatalf("opt 0x%02x: CRC width %d", byte(o), f.CRC.Width)
		}
		if got := uint64(len(in)); !anchored && got != (Header{Opt: o, Length: 3}).FrameSize() {
			t.Fatalf("opt 0x%02x: %d bytes, FrameSize %d", byte(o), got, (Header{Opt: o, Length: 3}).FrameSize())
		}
	}
}

// The header is not covered by the CRC (LT-CRC-12): another type or the
// LL=1 form of the same payload keeps the same CRC.
func TestCRCHeaderNotCovered(t *testing.T) {
	t.Parallel()
	for _, in := range [][]byte{
		hx(t, "02 10 05 00 aa bb cc dd ee b6 c9 12 23"),
		hx(t, "01 18 05 00 00 00 aa bb cc dd ee b6 c9 12 23"),
		hx(t, "80 14 05 00 aa bb cc dd ee 05 be"),
	} {
		if v := Decode(in, Limits{}).FirstError(); v != nil {
			t.Errorf("%x: %v", in, v)
		}
	}
}

func TestUnknownNestedIsOpaque(t *testing.T) {
	t.Parallel()
	garbage := []byte{0xff, 0x00, 0xff} // not TLVs: would be INVALID if walked
	in := rec(0, nil, mk(0x0e, OptPL, garbage, nil), mk(0x05, OptCR|OptCW, []byte{1}, nil), vTrue)
	r := Decode(in, Limits{})
	if v := r.FirstError(); v != nil {
		t.Fatal(v)
	}
	kids := r.Frames[0].Children
	if len(kids) != 3 || !bytes.Equal(kids[0].Payload, garbage) || kids[0].Walked() || !bytes.Equal(kids[1].Payload, []byte{1}) || kids[2].Type != 1 {
		t.Fatalf("children %+v", kids)
	}
	// Its CRC is still checked (LT-UNK-03).
	bad := rec(0, nil, flip(mk(0x0e, OptCR, []byte{1}, nil), 4, 1))
	wantViolation(t, Decode(bad, Limits{}).FirstError(), RuleCRCVerify32, CodeCRCFail, 9)
}

// A PL=1 TLV with an empty payload has zero children (LT-NEST-06); user
// types are walked (LT-TYPE-04).
func TestEmptyStructured(t *testing.T) {
	t.Parallel()
	r := Decode(cat(hx(t, "06 40 00 00"), rec(0, nil)), Limits{})
	if v := r.FirstError(); v != nil {
		t.Fatal(v)
	}
	for _, f := range r.Frames {
		if f.Children == nil || len(f.Children) != 0 || f.Payload != nil {
			t.Fatalf("frame %+v", f)
		}
	}
}

func TestMaxTLVBytesBoundary(t *testing.T) {
	t.Parallel()
	in := mk(1, 0, []byte{1, 2, 3, 4, 5}, nil)
	if v := Decode(in, Limits{MaxTLVBytes: 5}).FirstError(); v != nil {
		t.Fatalf("length = MAX_TLV_BYTES rejected: %v", v)
	}
	big := mk(1, OptLL, make([]byte, DefaultMaxTLVBytes), nil)
	if v := Decode(big, Limits{}).FirstError(); v != nil {
		t.Fatalf("16 MiB payload rejected by default: %v", v)
	}
}

// A length is never trusted before it is checked: a header declaring 4 GiB
// allocates nothing for the payload (LT-TRUNC-05, LT-TRUNC-06).
func TestHugeLengthAllocatesNothing(t *testing.T) { // not parallel: it measures the process's allocations
	in := []byte{0x01, 0x08, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00}
	for _, lim := range []Limits{{}, {MaxTLVBytes: MaxLen32}} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		r := Decode(in, lim)
		runtime.ReadMemStats(&after)
		if r.Err == nil {
			t.Fatalf("%+v: accepted", lim)
		}
		if n := after.TotalAlloc - before.TotalAlloc; n > 64<<10 {
			t.Fatalf("%+v: %d bytes allocated for a 4 GiB header", lim, n)
		}
	}
}

// Reads of length, trailer_ts and trailer_crc at any alignment
// (LT-FRAME-12).
func TestUnaligned(t *testing.T) {
	t.Parallel()
	for _, ex := range allByteExamples(t) {
		wire := hx(t, ex.wire)
		for k := 1; k < 8; k++ {
			buf := make([]byte, k+len(wire))
			copy(buf[k:], wire)
			r := Decode(buf[k:], Limits{})
			if v := r.FirstError(); v != nil {
				t.Fatalf("%s at alignment %d: %v", ex.name, k, v)
			}
			sameFrames(t, ex.name, r.Frames, ex.want)
		}
	}
}

func TestParseHeader(t *testing.T) {
	t.Parallel()
	h, err := ParseHeader(hx(t, "01 18 00 90 01 00"), Limits{})
	if err != nil || h != (Header{Type: 1, Opt: 0x18, Length: 102400}) || h.FrameSize() != 102410 {
		t.Fatalf("ParseHeader = %v, %v", h, err)
	}
	_, err = ParseHeader(hx(t, "01 08 00 90"), Limits{})
	wantViolation(t, err, RuleTruncDatagram, CodeTruncated, 0)
	_, err = ParseHeader(hx(t, "01 81 00 00"), Limits{})
	wantViolation(t, err, RuleOptReserved7, CodeInvalid, 1)
	b, err := (Header{Type: 1, Opt: OptLL, Length: 102400}).Append(nil)
	if err != nil || !bytes.Equal(b, hx(t, "01 08 00 90 01 00")) {
		t.Fatalf("Append = %x, %v", b, err)
	}
	_, err = (Header{Type: 1, Length: 65536}).Append(nil)
	wantViolation(t, err, RuleLenMax16, CodeInvalid, -1)
}

func TestTypeClasses(t *testing.T) {
	t.Parallel()
	for c := 0; c < 256; c++ {
		want := ClassUser
		switch {
		case c == 0:
			want = ClassSentinel
		case c == 5:
			want = ClassReserved
		case c >= 0x01 && c <= 0x0d:
			want = ClassCore
		case c >= 0x0e && c <= 0x7f:
			want = ClassUnknown
		}
		if got := ClassOf(uint8(c)); got != want {
			t.Errorf("ClassOf(0x%02x) = %v, want %v", c, got, want)
		}
		if Known(uint8(c)) != (want == ClassCore || want == ClassUser) {
			t.Errorf("Known(0x%02x) = %v", c, Known(uint8(c)))
		}
	}
}
