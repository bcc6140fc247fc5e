package tracerspec

import (
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"

	"github.com/threespec/conformance/reference/referencetest"
	"github.com/threespec/conformance/testee"
	"github.com/threespec/conformance/vectorset"
)

// TestExpectedResult: a frame list's error is judged by its code and
// offset, its rule and detail being free text (docs/PROTOCOL.md), as the
// generator writes the vectors; conform fuzz judges by this.
func TestExpectedResult(t *testing.T) {
	bad, _ := hex.DecodeString("011005" + "00aabbccddee" + "b6c91222") // EX-05 with its CRC wrong (LT-CRC-09)
	resp := referencetest.Do(t, Spec, OpDecode, `{"transport":"datagram","report":"frames"}`, bad)
	if resp.Outcome != testee.Accepted {
		t.Fatalf("the reference answers %+v", resp)
	}
	want, err := Spec.ExpectedResult(OpDecode, resp.Result)
	if err != nil {
		t.Fatal(err)
	}
	v := vectorset.Vector{Op: OpDecode, Expect: vectorset.Accept, Result: want}
	judge := func(from, to string) vectorset.Verdict {
		got := strings.Replace(string(resp.Result), from, to, 1)
		if got == string(resp.Result) {
			t.Fatalf("%q is not in the result %s", from, resp.Result)
		}
		return vectorset.Judge(&v, testee.Response{Outcome: testee.Accepted, Result: json.RawMessage(got)}, false)
	}
	if vd := judge(`"rule":"LT-CRC-09"`, `"rule":"my-crc-rule"`); !vd.Pass {
		t.Errorf("another rule inside the frame list fails: %s", vd.Reason)
	}
	if vd := judge(`"detail":"`, `"detail":"in other words: `); !vd.Pass {
		t.Errorf("another detail fails: %s", vd.Reason)
	}
	if vd := judge(`"code":"tr::frame::crc_fail"`, `"code":"INVALID"`); vd.Pass {
		t.Errorf("another code passes")
	}
	if same, err := Spec.ExpectedResult(OpEncode, resp.Result); err != nil || string(same) != string(resp.Result) {
		t.Errorf("libtracer.encode's result changed: %s, %v", same, err)
	}
}
