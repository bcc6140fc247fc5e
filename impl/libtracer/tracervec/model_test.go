package tracervec

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/threespec/conformance/impl/libtracer/tracerspec"
	"github.com/threespec/conformance/internal/allspecs"
	"github.com/threespec/conformance/reference"
	"github.com/threespec/conformance/testee"
)

// TestModelRejections: the model's rule, code and offset for each class of
// error, the offsets being those docs/libtracer.md gives (a header field,
// the first byte of a cut frame, trailer_crc, trailer_ts, the frame's or
// the child's first byte).
func TestModelRejections(t *testing.T) {
	ex5bad := xorAt(wire(examples[4].frame()), 12, 1)
	h := func(s string) []byte { return unhexT(t, s) }
	tests := []struct {
		name string
		in   []byte
		a    decodeArgs
		rule string
		off  int64
	}{
		{"empty datagram", h(""), dgram, "LT-TRUNC-08", 0},
		{"type 00 alone", h("00"), dgram, "LT-TYPE-01", 0},
		{"bit 7 with the header cut after opt", h("01 80"), dgram, "LT-OPT-01", 1},
		{"bit 0", h("01 01 00 00"), dgram, "LT-OPT-02", 1},
		{"bit 7 before bit 0", h("01 81 00 00"), dgram, "LT-OPT-01", 1},
		{"header cut in its length", h("01 00 05"), dgram, "LT-TRUNC-03", 0},
		{"LL=1 header cut", h("01 08 05 00"), dgram, "LT-TRUNC-03", 0},
		{"payload cut", h("01 00 05 00 aa"), dgram, "LT-TRUNC-03", 0},
		{"second frame cut", h("09 00 00 00 01"), dgram, "LT-TRUNC-03", 4},
		{"second frame cut, stream", h("09 00 00 00 01"), stream, "LT-TRUNC-02", 4},
		{"length over max", h("01 00 11 00"), dgram.maxOf(16), "LT-TRUNC-06", 2},
		{"16 MiB + 1", h("01 08 01 00 00 01"), dgram, "LT-TRUNC-06", 2},
		{"unknown outer", h("0e 00 00 00"), dgram, "LT-UNK-05", 0},
		{"relative stamp at the top", h("01 22 01 00 aa 01 00 00 00"), dgram, "LT-TS-04", 5},
		{"unknown outer with a relative stamp", h("0e 22 00 00 01 00 00 00"), dgram, "LT-TS-04", 4},
		{"child overruns", h("06 40 05 00 02 00 02 00 61"), dgram, "LT-NEST-05", 4},
		{"remainder too short", h("06 40 07 00 02 00 01 00 61 09 00"), dgram, "LT-NEST-05", 9},
		{"nested type 00", h("06 40 04 00 00 00 00 00"), dgram, "LT-TYPE-01", 4},
		{"nested length over max", h("06 40 04 00 01 00 11 00"), dgram.maxOf(16), "LT-TRUNC-06", 6},
		{"CRC-32C mismatch", ex5bad, dgram, "LT-CRC-09", 9},
		{"nest over the budget", wire(nest(6, statusOK())), dgram.budgetOf(5), "LT-NEST-03", 30},
		{"nest over a raised budget", wire(nest(6, statusOK())), dgram.budgetOf(2), "LT-NEST-03", 30},
		{"outer CRC first", wire(&node{typ: typePath, opt: bitPL | bitCR, crcXor: 1, kids: []*node{leaf(0, 0, nil)}}), dgram, "LT-CRC-09", 8},
		{"first error in byte order", append(ex5bad, 0x01), dgram, "LT-CRC-09", 9},
		{"report: framing still rejects", append(ex5bad, 0x01), dgram.frames(), "LT-TRUNC-03", 13},
	}
	for _, tt := range tests {
		got := decodeModel(tt.in, tt.a)
		if got.err == nil || got.err.rule != tt.rule || got.err.offset != tt.off || got.err.code != codeOf[tt.rule] {
			t.Errorf("%s: %v, want %s at %d", tt.name, got.err, tt.rule, tt.off)
		}
	}
	if got := decodeModel(nil, stream); got.err != nil || len(got.frames) != 0 {
		t.Errorf("an empty stream ends cleanly: %+v", got)
	}
	got := decodeModel(append(ex5bad, wire(statusOK())...), dgram.frames())
	if got.err != nil || len(got.frames) != 2 || got.frames[0].err == nil || got.frames[0].err.offset != 9 || got.frames[1].typ != typeStatus {
		t.Errorf("report frames lists the rejected frame and goes on: %+v", got)
	}
}

func unhexT(t *testing.T, s string) []byte {
	if s == "" {
		return []byte{}
	}
	return unhex(t, s)
}

// agree compares the model with the reference on one request: the same
// verdict, rule and code, or the same frame list, including the rule of
// every frame listed with an error (which vectors leave free).
func agree(ref *reference.Reference, in []byte, a decodeArgs) (string, bool) {
	ab, _ := json.Marshal(a)
	resp, err := ref.Do(context.Background(), testee.Request{Op: tracerspec.OpDecode, Args: ab, Input: in})
	if err != nil {
		return err.Error(), false
	}
	got := decodeModel(in, a)
	switch {
	case resp.Outcome == testee.Unsupported:
		return "unsupported: " + resp.Detail, false
	case got.err != nil:
		if resp.Outcome != testee.Rejected || resp.Rule != got.err.rule || resp.Code != got.err.code {
			return "model " + got.err.String() + ", reference " + string(resp.Outcome) + " " + resp.Rule + " " + resp.Code + " " + string(resp.Result), false
		}
		return "", true
	case resp.Outcome != testee.Accepted:
		return "model accepts, reference " + resp.Rule + " " + resp.Detail, false
	}
	var res struct {
		Frames []struct {
			Error *struct {
				Rule string `json:"rule"`
			} `json:"error"`
		} `json:"frames"`
	}
	want, _ := json.Marshal(framesResult(got.frames))
	if err := json.Unmarshal(resp.Result, &res); err != nil || len(res.Frames) != len(got.frames) {
		return "frame lists differ in length: " + string(resp.Result), false
	}
	for i, f := range got.frames {
		if (f.err == nil) != (res.Frames[i].Error == nil) || (f.err != nil && f.err.rule != res.Frames[i].Error.Rule) {
			return "frame " + string(rune('0'+i%10)) + ": error rules differ: " + string(resp.Result), false
		}
	}
	if d := diffResult(want, resp.Result); d != "" {
		return "frames differ: " + d, false
	}
	return "", true
}

// FuzzModelAgainstReference: the model and the reference read every input
// the same way, under both transports, both report modes and small limits.
// Seeds: the inputs of the generated vectors (up to 4 KiB).
func FuzzModelAgainstReference(f *testing.F) {
	vecs, err := generate(vecgenOptions())
	if err != nil {
		f.Fatal(err)
	}
	for _, v := range vecs {
		if v.Op == tracerspec.OpDecode && v.Data != nil && len(v.Data) <= 4<<10 {
			f.Add(v.Data, uint8(0))
			f.Add(v.Data, uint8(15))
		}
	}
	ref := reference.New(allspecs.Set())
	f.Fuzz(func(t *testing.T, in []byte, mode uint8) {
		a := dgram
		if mode&1 != 0 {
			a = stream
		}
		if mode&2 != 0 {
			a = a.frames()
		}
		if mode&4 != 0 {
			a = a.budgetOf(int64(mode>>4) + 1)
		}
		if mode&8 != 0 {
			a = a.maxOf(16)
		}
		if why, ok := agree(ref, in, a); !ok {
			t.Fatalf("%x %+v: %s", in, a, why)
		}
	})
}

func BenchmarkModel(b *testing.B) {
	for _, c := range []struct {
		name string
		in   []byte
		a    decodeArgs
	}{
		{"ex06-path", wire(pathSensorTemp()), dgram},
		{"ex07-100kib", wire(examples[6].frame()), dgram},
		{"nest-2000", deepNest(2000, wire(statusOK())), dgram.budgetOf(2000)},
		{"nest-1e6-rejected", deepNest(1_000_000, wire(statusOK())), dgram},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.in)))
			for i := 0; i < b.N; i++ {
				decodeModel(c.in, c.a)
			}
		})
	}
}
