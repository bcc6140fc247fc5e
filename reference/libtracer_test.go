package reference

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"hash/crc32"
	"strings"
	"testing"

	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/internal/fault"
	"github.com/threespec/conformance/testee"
)

// pathFrame is the worked example "PATH /sensor/temp ... outer CRC-32" of
// libtracer-01, §Worked frame examples, with its CRC-32C computed here from
// the spec's parameters (Castagnoli, reflected, init and xorout 0xFFFFFFFF)
// over the 18 payload bytes.
func pathFrame() []byte {
	children, _ := hex.DecodeString("0200060073656e736f72" + "0200040074656d70")
	f := append([]byte{0x06, 0x50, 0x12, 0x00}, children...)
	c := crc32.Checksum(children, crc32.MakeTable(crc32.Castagnoli))
	return append(f, byte(c), byte(c>>8), byte(c>>16), byte(c>>24))
}

func TestLibtracerDecodeFlat(t *testing.T) {
	resp := do(t, testee.OpLibtracerDecode, `{"transport":"datagram"}`, pathFrame())
	var res struct{ Frames []FlatFrame }
	if resp.Outcome != testee.Accepted || json.Unmarshal(resp.Result, &res) != nil {
		t.Fatalf("%+v", resp)
	}
	if len(res.Frames) != 3 || res.Frames[0].Depth != 0 || res.Frames[0].Children == nil || *res.Frames[0].Children != 2 ||
		res.Frames[1].Depth != 1 || *res.Frames[1].Payload != hex.EncodeToString([]byte("sensor")) ||
		res.Frames[2].Depth != 1 || *res.Frames[2].Payload != hex.EncodeToString([]byte("temp")) || res.Frames[0].CRC == nil {
		t.Fatalf("flat frames %s", resp.Result)
	}
	// The flat list is also the encoder's input: exact encoding gives the bytes back.
	list, _ := json.Marshal(res.Frames)
	enc := do(t, testee.OpLibtracerEncode, `{"mode":"exact"}`, list)
	var out struct{ Bytes []byte }
	if enc.Outcome != testee.Accepted || json.Unmarshal(enc.Result, &out) != nil || !bytes.Equal(out.Bytes, pathFrame()) {
		t.Fatalf("exact re-encoding: %+v", enc)
	}
}

func TestLibtracerVerdicts(t *testing.T) {
	bad := pathFrame()
	bad[len(bad)-1] ^= 1
	if r := do(t, testee.OpLibtracerDecode, `{}`, bad); r.Outcome != testee.Rejected || r.Code != "tr::frame::crc_fail" {
		t.Errorf("CRC mismatch: %+v", r)
	}
	trunc := pathFrame()[:10]
	if r := do(t, testee.OpLibtracerDecode, `{"transport":"datagram"}`, trunc); r.Code != "tr::frame::truncated" {
		t.Errorf("truncated datagram: %+v", r)
	}
	if r := do(t, testee.OpLibtracerDecode, `{"transport":"stream"}`, trunc); r.Code != "tr::transport::down" {
		t.Errorf("stream closed inside a frame: %+v", r)
	}
	// An unknown core type 0x0E as the outer TLV, then the empty STATUS.
	two := []byte{0x0e, 0x00, 0x01, 0x00, 0xaa, 0x09, 0x00, 0x00, 0x00}
	if r := do(t, testee.OpLibtracerDecode, `{}`, two); r.Code != "tr::schema::type_mismatch" {
		t.Errorf("unknown outer type: %+v", r)
	}
	r := do(t, testee.OpLibtracerDecode, `{"report":"frames"}`, two)
	if r.Outcome != testee.Accepted || !strings.Contains(string(r.Result), `"code":"tr::schema::type_mismatch"`) || !strings.Contains(string(r.Result), `"type":9`) {
		t.Errorf("per-frame report must list the error and go on: %+v %s", r, r.Result)
	}
}

// TestLibtracerVerdictIsFirstInByteOrder: a frame rejected although its
// extent is known, followed by bytes that break framing, is rejected with
// the first error in byte order (docs/libtracer.md, Result.FirstError), on
// both transports; with report "frames" the framing error still rejects.
func TestLibtracerVerdictIsFirstInByteOrder(t *testing.T) {
	bad := pathFrame()
	bad[len(bad)-1] ^= 1
	in := append(bad, 0x01) // then a header cut after its type byte
	for _, tt := range []struct{ args, code string }{
		{`{"transport":"datagram"}`, "tr::frame::crc_fail"},
		{`{"transport":"stream"}`, "tr::frame::crc_fail"},
		{`{"transport":"datagram","report":"frames"}`, "tr::frame::truncated"},
		{`{"transport":"stream","report":"frames"}`, "tr::transport::down"},
	} {
		if r := do(t, testee.OpLibtracerDecode, tt.args, in); r.Outcome != testee.Rejected || r.Code != tt.code {
			t.Errorf("%s: %+v, want rejection with %s", tt.args, r, tt.code)
		}
	}
}

func TestLibtracerDeepNestIsFlat(t *testing.T) {
	// 20,000 nested user TLVs (opt 0x48: PL=1, LL=1) around the empty STATUS:
	// deeper than encoding/json can nest, yet the flat result is shallow.
	const depth = 20000
	in := make([]byte, depth*6+4)
	copy(in[depth*6:], []byte{0x09, 0, 0, 0})
	for k := 0; k < depth; k++ {
		n := uint32(len(in) - (k+1)*6)
		copy(in[k*6:], []byte{0x80, 0x48, byte(n), byte(n >> 8), byte(n >> 16), byte(n >> 24)})
	}
	r := do(t, testee.OpLibtracerDecode, `{"work_budget":30000}`, in)
	if r.Outcome != testee.Accepted {
		t.Fatalf("%+v", r)
	}
	var res struct{ Frames []FlatFrame }
	if err := json.Unmarshal(r.Result, &res); err != nil || len(res.Frames) != depth+1 || res.Frames[depth].Depth != depth {
		t.Fatalf("deep result: %v, %d frames", err, len(res.Frames))
	}
	if r := do(t, testee.OpLibtracerDecode, `{"work_budget":100}`, in); r.Code != "tr::tlv::nesting_too_deep" {
		t.Fatalf("small budget: %+v", r)
	}
	list, _ := json.Marshal(res.Frames)
	enc := do(t, testee.OpLibtracerEncode, `{}`, list)
	var out struct{ Bytes string }
	if json.Unmarshal(enc.Result, &out); out.Bytes != base64.StdEncoding.EncodeToString(in) {
		t.Fatalf("deep exact re-encoding differs: %+v", enc.Outcome)
	}
}

// TestLibtracerVerdictIsFirstErrorInByteOrder: a frame rejected before the
// point where framing breaks gives the verdict, on both transports
// (docs/libtracer.md: the first error in byte order); with per-frame
// reports the framing error still rejects.
func TestLibtracerVerdictIsFirstErrorInByteOrder(t *testing.T) {
	// A 5-byte VALUE with a CRC-16-CCITT that does not match (the worked
	// example's CRC-32C bytes "b6 c9"), then a header cut short.
	in := []byte{0x01, 0x14, 0x05, 0x00, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xb6, 0xc9, 0x09, 0x00}
	for _, c := range []struct{ args, code, rule string }{
		{`{"transport":"datagram"}`, "tr::frame::crc_fail", "LT-CRC-10"},
		{`{"transport":"stream"}`, "tr::frame::crc_fail", "LT-CRC-10"},
		{`{"transport":"datagram","report":"frames"}`, "tr::frame::truncated", "LT-TRUNC-03"},
		{`{"transport":"stream","report":"frames"}`, "tr::transport::down", "LT-TRUNC-02"},
	} {
		r := do(t, testee.OpLibtracerDecode, c.args, in)
		if r.Outcome != testee.Rejected || r.Code != c.code || r.Rule != c.rule {
			t.Errorf("%s: %+v, want %s by %s", c.args, r, c.code, c.rule)
		}
	}
}

// views: the same answer as the contiguous datagram, for cuts inside every
// field and empty views (LT-CTX-03); bad cuts are a request built wrong.
func TestLibtracerDecodeViews(t *testing.T) {
	whole := do(t, testee.OpLibtracerDecode, `{}`, pathFrame())
	for _, v := range []string{`[2,6,10,16,20,24]`, `[0,0,13,13,26]`, `[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25]`} {
		r := do(t, testee.OpLibtracerDecode, `{"views":`+v+`}`, pathFrame())
		if r.Outcome != testee.Accepted || !bytes.Equal(r.Result, whole.Result) {
			t.Errorf("views %s: %s, want %s", v, r.Result, whole.Result)
		}
	}
	bad := pathFrame()
	bad[9] ^= 1
	if r := do(t, testee.OpLibtracerDecode, `{"views":[5,12]}`, bad); r.Code != "tr::frame::crc_fail" {
		t.Errorf("CRC mismatch across views: %+v", r)
	}
	for _, v := range []string{`[3,2]`, `[27]`, `[-1]`} {
		if _, err := New().Do(context.Background(), testee.Request{Op: testee.OpLibtracerDecode, Args: json.RawMessage(`{"views":` + v + `}`), Input: pathFrame()}); !errors.Is(err, testee.ErrInvalidRequest) {
			t.Errorf("views %s: %v, want a request built wrong", v, err)
		}
	}
}

// strip and forward: the at-rest bytes and a fresh trailer, known answers
// written from the spec (CRC by hash/crc32 Castagnoli).
func TestLibtracerStripForward(t *testing.T) {
	t0 := []byte{0x00, 0x00, 0xa0, 0x2d, 0x1f, 0xe5, 0xab, 0x18} // 1777766400000000000 LE
	payload := []byte{0x2a, 0, 0, 0}
	cov := append(append([]byte(nil), payload...), t0...)
	c := crc32.Checksum(cov, crc32.MakeTable(crc32.Castagnoli))
	ex4 := append(append([]byte{0x01, 0x30, 0x04, 0x00}, cov...), byte(c), byte(c>>8), byte(c>>16), byte(c>>24))
	r := do(t, testee.OpLibtracerDecode, `{"strip":true}`, ex4)
	var res struct{ Stored, Forwarded []byte }
	if r.Outcome != testee.Accepted || json.Unmarshal(r.Result, &res) != nil || !bytes.Equal(res.Stored, []byte{0x01, 0x00, 0x04, 0x00, 0x2a, 0, 0, 0}) {
		t.Fatalf("strip EX-04: %+v", r)
	}
	// Replay of the stored bytes with the stamp T0 and a CRC-32C is EX-04 again.
	r = do(t, testee.OpLibtracerDecode, `{"forward":{"ts":"1777766400000000000","crc":32}}`, res.Stored)
	if r.Outcome != testee.Accepted || json.Unmarshal(r.Result, &res) != nil || !bytes.Equal(res.Forwarded, ex4) {
		t.Fatalf("replay of stored EX-04: %+v", r)
	}
	bad := append([]byte(nil), ex4...)
	bad[9] ^= 1
	if r := do(t, testee.OpLibtracerDecode, `{"strip":true}`, bad); r.Code != "tr::frame::crc_fail" {
		t.Errorf("a corrupted frame is validated before it is stored: %+v", r)
	}
	if r := do(t, testee.OpLibtracerDecode, `{"strip":true,"report":"frames"}`, ex4); r.Outcome != testee.Unsupported {
		t.Errorf("strip with report frames: %+v", r)
	}
}

// A reference made WithChecks carries its Checks into every libtracer
// parse and construction, whatever the process-global switches say: a
// frame whose CRC-32C fails is crc_fail under the zero Checks and accepted
// with LT-CRC-09 switched off, on every transport and in strip; the
// smallest-variant encoder writes CR with CW=1 and LL=0 (opt 0x14) under the
// zero Checks, and keeps the other variants (CW=0, LL=1: opt 0x18) with
// LT-IOP-02 switched off.
func TestLibtracerCarriesChecks(t *testing.T) {
	t.Parallel()
	bad := pathFrame()
	bad[len(bad)-1] ^= 1
	std := New().WithChecks(rules.Checks{})
	off := New().WithChecks(rules.Checks{Faults: fault.Of("LT-CRC-09")})
	for _, args := range []string{`{"transport":"datagram"}`, `{"transport":"stream"}`, `{"views":[3,9]}`, `{"strip":true}`, `{"forward":{"crc":16}}`} {
		t.Run(args, func(t *testing.T) {
			t.Parallel()
			if r := doOn(t, std, testee.OpLibtracerDecode, args, bad); r.Code != "tr::frame::crc_fail" {
				t.Errorf("zero Checks: %+v", r)
			}
			if r := doOn(t, off, testee.OpLibtracerDecode, args, bad); r.Outcome != testee.Accepted {
				t.Errorf("LT-CRC-09 off: %+v", r)
			}
		})
	}
	tree := `[{"type":1,"opt":16,"payload":"2a000000"}]`
	var small, plain struct{ Bytes []byte }
	r1 := doOn(t, std, testee.OpLibtracerEncode, `{"mode":"smallest"}`, []byte(tree))
	r2 := doOn(t, New().WithChecks(rules.Checks{Faults: fault.Of("LT-IOP-02")}), testee.OpLibtracerEncode, `{"mode":"smallest"}`, []byte(tree))
	if json.Unmarshal(r1.Result, &small) != nil || json.Unmarshal(r2.Result, &plain) != nil || len(small.Bytes) < 2 || len(plain.Bytes) < 2 ||
		small.Bytes[1] != 0x14 || plain.Bytes[1] != 0x18 {
		t.Fatalf("smallest encoding: zero Checks %+v, LT-IOP-02 off %+v", r1, r2)
	}
}

// doOn is do against the reference r.
func doOn(t *testing.T, r *Reference, op, args string, input []byte) testee.Response {
	t.Helper()
	resp, err := r.Do(context.Background(), testee.Request{ID: 3, Op: op, Args: json.RawMessage(args), Input: input})
	if err != nil {
		t.Fatalf("%s: %v", op, err)
	}
	return resp
}

// children10K is a user record (PL=1, LL=1, CR=1, CRC-32C) of 10,000 NAME
// children of two bytes each, 60,012 bytes.
func children10K() []byte {
	kids := make([]byte, 0, 60000)
	for i := range 10000 {
		kids = append(kids, 0x02, 0x00, 0x02, 0x00, byte('a'+i%26), byte('a'+i/26%26))
	}
	n := len(kids)
	f := append([]byte{0x80, 0x58, byte(n), byte(n >> 8), byte(n >> 16), byte(n >> 24)}, kids...)
	c := crc32.Checksum(kids, crc32.MakeTable(crc32.Castagnoli))
	return append(f, byte(c), byte(c>>8), byte(c>>16), byte(c>>24))
}

// BenchmarkLibtracerDecode measures libtracer.decode requests through the
// adapter: the parse, the flattening and the JSON of the result, on one
// frame of 10,000 children under each transport and report, and the
// trailer lifecycle on 1,000 worked examples LT-EX-06 back to back.
func BenchmarkLibtracerDecode(b *testing.B) {
	big := children10K()
	many := bytes.Repeat(pathFrame(), 1000)
	r := New()
	for _, c := range []struct {
		name, args string
		in         []byte
	}{
		{"datagram", `{"transport":"datagram"}`, big},
		{"stream", `{"transport":"stream"}`, big},
		{"views", `{"views":[3,1000,50001,60009]}`, big},
		{"frames", `{"report":"frames"}`, big},
		{"strip", `{"strip":true}`, many},
		{"forward", `{"forward":{"ts":"1777766400000000000","crc":16}}`, many},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.in)))
			b.ReportAllocs()
			for b.Loop() {
				resp, err := r.Do(context.Background(), testee.Request{ID: 1, Op: testee.OpLibtracerDecode, Args: json.RawMessage(c.args), Input: c.in})
				if err != nil || resp.Outcome != testee.Accepted {
					b.Fatalf("%+v %v", resp, err)
				}
			}
		})
	}
}
