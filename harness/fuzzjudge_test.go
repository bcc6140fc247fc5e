package harness

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"

	"github.com/threespec/conformance/internal/allspecs"
	"github.com/threespec/conformance/internal/fuzzgen"
	"github.com/threespec/conformance/reference"
	"github.com/threespec/conformance/testee"
)

// recoder is the reference answering with other codes: for each input (by
// hex) in codes, its rejection carries that code instead.
type recoder struct {
	*reference.Reference
	codes map[string]string
}

func (r recoder) Do(ctx context.Context, req testee.Request) (testee.Response, error) {
	resp, err := r.Reference.Do(ctx, req)
	if c, ok := r.codes[hex.EncodeToString(req.Input)]; ok && err == nil && resp.Outcome == testee.Rejected {
		resp.Code = c
	}
	if err == nil && resp.Outcome == testee.Accepted { // its own words for an error a result lists
		resp.Result = json.RawMessage(strings.ReplaceAll(string(resp.Result), `"detail":"`, `"detail":"in other words: `))
	}
	return resp, err
}

// TestFuzzJudgesCodesAsVectorsDo: conform fuzz accepts a rejection's code
// where a vector of the case would (docs/VECTORS.md, "Check order"): any
// code where the spec names none, and every code that a check order the
// spec allows reports first (spec.Spec.CheckOrder); a code no such order
// gives is a disagreement named by the reference's rule. A result's free
// text (the detail of an error a frame list carries) is free in fuzz as in
// the vectors (spec.Spec.ExpectedResult).
func TestFuzzJudgesCodesAsVectorsDo(t *testing.T) {
	t.Parallel()
	h := func(s string) []byte {
		b, err := hex.DecodeString(s)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	rcap := make([]byte, 99) // ReadCellCapV1 with version 2 and a zero relay key: two checks, both BAD_ENCODING (§5)
	rcap[0], rcap[65], rcap[97] = 2, 1, 1
	type tcase struct {
		op, args string
		in       []byte
		code     string // the testee's code
	}
	cases := []tcase{
		// An outer 0x0E whose CRC fails: its CRC or its type, in either
		// order (LT-CRC-09, LT-UNK-05); the reference reports one.
		{"libtracer.decode", `{"transport":"datagram"}`, h("0e100100" + "01" + "00000000"), ""},
		// Lace-010 names no codes.
		{"lace.record", `{}`, []byte("x"), "MY_OWN_CODE"},
		// A manifest cut short: §5 says only that it fails closed.
		{"hiverelay.manifest", `{}`, h("0000000100"), "MY_OWN_CODE"},
		// §5 names BAD_ENCODING for every failing check of a ReadCellCapV1.
		{"hiverelay.decode", `{"schema":"ReadCellCapV1"}`, rcap, "MY_OWN_CODE"},
		// A CRC failure alone: crc_fail, nothing else (LT-CRC-09).
		{"libtracer.decode", `{"transport":"datagram"}`, h("011005" + "00aabbccddeeb6c91222"), "INVALID"},
		// The same in a frame list: accepted, the error listed in the
		// testee's own words.
		{"libtracer.decode", `{"transport":"datagram","report":"frames"}`, h("011005" + "00aabbccddeeb6c91222"), ""},
	}
	specs := allspecs.Set()
	ref := reference.New(specs)
	codes := map[string]string{}
	for i, c := range cases {
		resp, err := ref.Do(context.Background(), testee.Request{Op: c.op, Args: json.RawMessage(c.args), Input: c.in})
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if resp.Outcome == testee.Accepted {
			continue
		}
		if c.code == "" { // the other code of the two the order gives
			for _, o := range []string{"tr::frame::crc_fail", "tr::schema::type_mismatch"} {
				if o != resp.Code {
					cases[i].code = o
				}
			}
		}
		codes[hex.EncodeToString(c.in)] = cases[i].code
	}
	var ops []string
	for _, c := range cases {
		ops = append(ops, c.op)
	}
	gen := fuzzgen.Generator{Suite: "fixed", Ops: ops, AcceptRule: map[string]string{},
		Generate: func(r *fuzzgen.Rand, op string) fuzzgen.Case {
			var of []tcase
			for _, c := range cases {
				if c.op == op {
					of = append(of, c)
				}
			}
			c := of[r.N(len(of))]
			return fuzzgen.Case{Op: c.op, Args: json.RawMessage(c.args), Input: c.in, Generator: "fixed"}
		}}
	rep := Fuzz(context.Background(), FuzzConfig{Specs: specs, Gens: []fuzzgen.Generator{gen}, Impl: recoder{ref, codes}, Jobs: 1, Seed: 1, Count: 200})
	if rep.ConformError != "" || rep.Aborted != "" {
		t.Fatalf("run: %s %s", rep.ConformError, rep.Aborted)
	}
	if len(rep.Findings) != 2 {
		for _, f := range rep.Findings {
			t.Logf("finding %s: %s", f.Key, f.Reason)
		}
		t.Fatalf("%d findings, want 2 (the ReadCellCapV1's code and the lone CRC failure's)", len(rep.Findings))
	}
	for _, f := range rep.Findings {
		if f.Key.Direction != DirCode || (f.Key.Rule != "LT-CRC-09" && f.Key.Op != "hiverelay.decode") {
			t.Errorf("finding %s [%s]: want a code disagreement of hiverelay.decode or LT-CRC-09", f.Key, f.Kind)
		}
	}
	if rep.OtherOrder == 0 {
		t.Errorf("no case counted as another check order's code")
	}
}
