package reference_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/threespec/conformance/impl/lace/lacespec"
	"github.com/threespec/conformance/internal/allspecs"
	"github.com/threespec/conformance/reference"

	"github.com/threespec/conformance/testee"
)

func do(t *testing.T, op string, args string, input []byte) testee.Response {
	t.Helper()
	resp, err := reference.New(allspecs.Set()).Do(context.Background(), testee.Request{ID: 3, Op: op, Args: json.RawMessage(args), Input: input})
	if err != nil {
		t.Fatalf("%s: %v", op, err)
	}
	if resp.ID != 3 {
		t.Fatalf("%s: response id %d, want 3", op, resp.ID)
	}
	return resp
}

func TestHelloListsEveryImplementedOp(t *testing.T) {
	resp := do(t, testee.OpHello, "{}", nil)
	h, err := testee.ParseHello(resp.Result)
	if err != nil {
		t.Fatal(err)
	}
	if h.Protocol != testee.ProtocolVersion || !h.ClaimsProfile(lacespec.ProfileMarkBIP340Standin) || h.ClaimsProfile(lacespec.Profile009) {
		t.Fatalf("hello = %+v", h)
	}
	known := map[string]bool{}
	for _, op := range allspecs.Set().Ops() {
		known[op] = true
	}
	for _, op := range h.Ops {
		if !known[op] {
			t.Errorf("hello claims %q, which the protocol does not define", op)
		}
	}
	if !h.Claims(lacespec.OpRecord) || !h.Claims(lacespec.OpDirectory) {
		t.Errorf("hello does not claim the lace operations: %v", h.Ops)
	}
}

func TestUnsupported(t *testing.T) {
	if r := do(t, "lace.nonsense", "{}", nil); r.Outcome != testee.Unsupported {
		t.Fatalf("unknown op: %+v", r)
	}
}
