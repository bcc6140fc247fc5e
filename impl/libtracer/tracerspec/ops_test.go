package tracerspec

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
	"github.com/threespec/conformance/reference"
	"github.com/threespec/conformance/reference/referencetest"
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
	resp := referencetest.Do(t, Spec, OpDecode, `{"transport":"datagram"}`, pathFrame())
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
	enc := referencetest.Do(t, Spec, OpEncode, `{"mode":"exact"}`, list)
	var out struct{ Bytes []byte }
	if enc.Outcome != testee.Accepted || json.Unmarshal(enc.Result, &out) != nil || !bytes.Equal(out.Bytes, pathFrame()) {
		t.Fatalf("exact re-encoding: %+v", enc)
	}
}

// TestLibtracerDecodeArgs: every argument of libtracer.decode reaches
// libtracer.ReceiveWith as the receiver's option it names, and its answer
// comes back as the protocol's: a rejection with the spec's code and the
// rule, an argument value the reference does not implement as unsupported,
// a malformed one as a request built wrong (docs/PROTOCOL.md,
// libtracer.decode). What the receiver does with the options is
// impl/libtracer's TestReceive.
func TestLibtracerDecodeArgs(t *testing.T) {
	t.Parallel()
	bad := pathFrame()
	bad[len(bad)-1] ^= 1
	trunc := pathFrame()[:10]
	// an unknown core type 0x0E as the outer TLV, then the empty STATUS
	two := []byte{0x0e, 0x00, 0x01, 0x00, 0xaa, 0x09, 0x00, 0x00, 0x00}
	const invalid testee.Outcome = 0 // a request built wrong: no outcome, an error
	for _, tt := range []struct {
		args       string
		in         []byte
		outcome    testee.Outcome
		code, rule string
		member     string // a member of the result
	}{
		{`{}`, bad, testee.Rejected, "tr::frame::crc_fail", "LT-CRC-09", ""},
		{`{"transport":"datagram"}`, trunc, testee.Rejected, "tr::frame::truncated", "LT-TRUNC-03", ""},
		{`{"transport":"stream"}`, trunc, testee.Rejected, "tr::transport::down", "LT-TRUNC-02", ""},
		{`{"transport":"tcp"}`, pathFrame(), testee.Unsupported, "", "", ""},
		{`{"transport":"tcp","views":[3]}`, pathFrame(), testee.Unsupported, "", "", ""},
		{`{"max_tlv_bytes":17}`, pathFrame(), testee.Rejected, "INVALID", "LT-TRUNC-06", ""},
		{`{"max_tlv_bytes":18}`, pathFrame(), testee.Accepted, "", "", "frames"},
		{`{"work_budget":5}`, pathFrame(), testee.Accepted, "", "", "frames"},
		{`{}`, two, testee.Rejected, "tr::schema::type_mismatch", "LT-UNK-05", ""},
		{`{"report":"verdict"}`, two, testee.Rejected, "tr::schema::type_mismatch", "LT-UNK-05", ""},
		{`{"report":"frames"}`, two, testee.Accepted, "", "", `"code":"tr::schema::type_mismatch"`},
		{`{"report":"frames","transport":"stream"}`, two, testee.Accepted, "", "", `"type":9`},
		{`{"report":"all"}`, two, testee.Unsupported, "", "", ""},
		{`{"views":[5,12]}`, bad, testee.Rejected, "tr::frame::crc_fail", "LT-CRC-09", ""},
		{`{"views":[3,2]}`, pathFrame(), invalid, "", "", ""},
		{`{"views":[27]}`, pathFrame(), invalid, "", "", ""},
		{`{"views":[-1]}`, pathFrame(), invalid, "", "", ""},
		{`{"views":[3],"transport":"stream"}`, pathFrame(), testee.Unsupported, "", "", ""},
		{`{"strip":true}`, pathFrame(), testee.Accepted, "", "", `"stored":"BkASAAIABgBzZW5zb3ICAAQAdGVtcA=="`},
		{`{"strip":true}`, bad, testee.Rejected, "tr::frame::crc_fail", "LT-CRC-09", ""},
		{`{"strip":true,"report":"frames"}`, pathFrame(), testee.Unsupported, "", "", ""},
		{`{"forward":{"crc":0}}`, pathFrame(), testee.Accepted, "", "", `"forwarded":"BkASAAIABgBzZW5zb3ICAAQAdGVtcA=="`},
		{`{"forward":{"crc":16,"ts":"0"}}`, pathFrame(), testee.Accepted, "", "", `"forwarded":"BnQSAAIABgBzZW5zb3ICAAQAdGVtcAAAAAAAAAAA`},
		{`{"forward":{"crc":8}}`, pathFrame(), testee.Unsupported, "", "", ""},
		{`{"forward":{"crc":32,"ts":"-1"}}`, pathFrame(), invalid, "", "", ""},
		{`{"forward":{"crc":32},"report":"frames"}`, pathFrame(), testee.Unsupported, "", "", ""},
	} {
		resp, err := reference.For(Spec).Do(context.Background(), testee.Request{ID: 3, Op: OpDecode, Args: json.RawMessage(tt.args), Input: tt.in})
		switch {
		case tt.outcome == invalid:
			if !errors.Is(err, testee.ErrInvalidRequest) {
				t.Errorf("%s: %+v %v, want a request built wrong", tt.args, resp, err)
			}
		case err != nil || resp.Outcome != tt.outcome || resp.Code != tt.code || resp.Rule != tt.rule || !strings.Contains(string(resp.Result), tt.member):
			t.Errorf("%s: %+v %s %v, want %s %s %s with %s", tt.args, resp, resp.Result, err, tt.outcome, tt.code, tt.rule, tt.member)
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
	r := referencetest.Do(t, Spec, OpDecode, `{"work_budget":30000}`, in)
	if r.Outcome != testee.Accepted {
		t.Fatalf("%+v", r)
	}
	var res struct{ Frames []FlatFrame }
	if err := json.Unmarshal(r.Result, &res); err != nil || len(res.Frames) != depth+1 || res.Frames[depth].Depth != depth {
		t.Fatalf("deep result: %v, %d frames", err, len(res.Frames))
	}
	if r := referencetest.Do(t, Spec, OpDecode, `{"work_budget":100}`, in); r.Code != "tr::tlv::nesting_too_deep" {
		t.Fatalf("small budget: %+v", r)
	}
	list, _ := json.Marshal(res.Frames)
	enc := referencetest.Do(t, Spec, OpEncode, `{}`, list)
	var out struct{ Bytes string }
	if json.Unmarshal(enc.Result, &out); out.Bytes != base64.StdEncoding.EncodeToString(in) {
		t.Fatalf("deep exact re-encoding differs: %+v", enc.Outcome)
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
	std := reference.For(Spec).WithChecks(rules.Checks{})
	off := reference.For(Spec).WithChecks(rules.Checks{Faults: fault.Of("LT-CRC-09")})
	for _, args := range []string{`{"transport":"datagram"}`, `{"transport":"stream"}`, `{"views":[3,9]}`, `{"strip":true}`, `{"forward":{"crc":16}}`} {
		t.Run(args, func(t *testing.T) {
			t.Parallel()
			if r := doOn(t, std, OpDecode, args, bad); r.Code != "tr::frame::crc_fail" {
				t.Errorf("zero Checks: %+v", r)
			}
			if r := doOn(t, off, OpDecode, args, bad); r.Outcome != testee.Accepted {
				t.Errorf("LT-CRC-09 off: %+v", r)
			}
		})
	}
	tree := `[{"type":1,"opt":16,"payload":"2a000000"}]`
	var small, plain struct{ Bytes []byte }
	r1 := doOn(t, std, OpEncode, `{"mode":"smallest"}`, []byte(tree))
	r2 := doOn(t, reference.For(Spec).WithChecks(rules.Checks{Faults: fault.Of("LT-IOP-02")}), OpEncode, `{"mode":"smallest"}`, []byte(tree))
	if json.Unmarshal(r1.Result, &small) != nil || json.Unmarshal(r2.Result, &plain) != nil || len(small.Bytes) < 2 || len(plain.Bytes) < 2 ||
		small.Bytes[1] != 0x14 || plain.Bytes[1] != 0x18 {
		t.Fatalf("smallest encoding: zero Checks %+v, LT-IOP-02 off %+v", r1, r2)
	}
}

// doOn is do against the reference r.
func doOn(t *testing.T, r *reference.Reference, op, args string, input []byte) testee.Response {
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
	r := reference.For(Spec)
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
				resp, err := r.Do(context.Background(), testee.Request{ID: 1, Op: OpDecode, Args: json.RawMessage(c.args), Input: c.in})
				if err != nil || resp.Outcome != testee.Accepted {
					b.Fatalf("%+v %v", resp, err)
				}
			}
		})
	}
}
