package suites

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/threespec/conformance/impl/hiverelay"
	"github.com/threespec/conformance/suites/hivesuite"
	"github.com/threespec/conformance/suites/lacesuite"
	"github.com/threespec/conformance/suites/tracersuite"
	"github.com/threespec/conformance/testee"
	"github.com/threespec/conformance/vectorset"
)

// All defines every suite of vectorset.Suites, once each and in its order.
func TestAllIsEverySuite(t *testing.T) {
	var names []string
	for _, d := range All {
		names = append(names, d.Name)
	}
	if !slices.Equal(names, vectorset.Suites) {
		t.Errorf("All defines %q, vectorset.Suites names %q", names, vectorset.Suites)
	}
}

// decodeAs reads args back through a request line, as a testee would.
func decodeAs[T any](t *testing.T, args json.RawMessage) T {
	t.Helper()
	line, err := testee.AppendRequest(nil, testee.Request{Op: "x", Args: args})
	if err != nil {
		t.Fatal(err)
	}
	req, err := testee.ParseRequest(line[:len(line)-1])
	if err != nil {
		t.Fatal(err)
	}
	var v T
	if err := req.DecodeArgs(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// Every suite's argument structs encode as docs/PROTOCOL.md names the
// members, and read back to the same value.
func TestArgs(t *testing.T) {
	i64 := func(v int64) *int64 { return &v }
	tests := []struct {
		args any
		want string
	}{
		{lacesuite.Args{}, `{}`},
		{lacesuite.Args{Mark: testee.MarkNone}, `{"mark":"none"}`},
		{lacesuite.BoundedArgs{Mark: testee.Mark009, Bounds: lacesuite.Bounds{MaxDepth: i64(0), MaxBytes: i64(1 << 20)}}, `{"mark":"009","max_depth":0,"max_bytes":1048576}`},
		{lacesuite.BoundedArgs{Bounds: lacesuite.Bounds{MaxExpansion: i64(5)}}, `{"max_expansion":5}`},
		{hivesuite.DecodeArgs{Schema: hiverelay.SchemaCellBlobV1, Class: 3}, `{"schema":"CellBlobV1","class":3}`},
		{hivesuite.DecodeArgs{Schema: hiverelay.SchemaReadCellCapV1}, `{"schema":"ReadCellCapV1"}`},
		{tracersuite.DecodeArgs{Transport: tracersuite.TransportStream, WorkBudget: i64(64)}, `{"transport":"stream","work_budget":64}`},
		{tracersuite.DecodeArgs{Transport: tracersuite.TransportDatagram, MaxTLVBytes: i64(16 << 20)}, `{"transport":"datagram","max_tlv_bytes":16777216}`},
		{tracersuite.EncodeArgs{Mode: tracersuite.ModeSmallest}, `{"mode":"smallest"}`},
	}
	for _, tt := range tests {
		got, err := testee.MarshalArgs(tt.args)
		if err != nil || string(got) != tt.want {
			t.Errorf("%+v: got %s, %v; want %s", tt.args, got, err, tt.want)
			continue
		}
		var back any
		switch tt.args.(type) {
		case lacesuite.Args:
			back = decodeAs[lacesuite.Args](t, got)
		case lacesuite.BoundedArgs:
			back = decodeAs[lacesuite.BoundedArgs](t, got)
		case hivesuite.DecodeArgs:
			back = decodeAs[hivesuite.DecodeArgs](t, got)
		case tracersuite.DecodeArgs:
			back = decodeAs[tracersuite.DecodeArgs](t, got)
		case tracersuite.EncodeArgs:
			back = decodeAs[tracersuite.EncodeArgs](t, got)
		}
		if !reflect.DeepEqual(back, tt.args) {
			t.Errorf("round trip: got %+v, want %+v", back, tt.args)
		}
	}
}
