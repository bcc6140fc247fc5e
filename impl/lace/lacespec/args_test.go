package lacespec

import (
	"testing"

	"github.com/threespec/conformance/impl/spec"
)

// The arguments encode as docs/PROTOCOL.md names their members, and read
// back to the same value.
func TestArgs(t *testing.T) {
	i64 := func(v int64) *int64 { return &v }
	for _, err := range []error{
		spec.CheckArgs(Args{}, `{}`),
		spec.CheckArgs(Args{Mark: MarkNone}, `{"mark":"none"}`),
		spec.CheckArgs(BoundedArgs{Mark: Mark009, Bounds: Bounds{MaxDepth: i64(0), MaxBytes: i64(1 << 20)}}, `{"mark":"009","max_depth":0,"max_bytes":1048576}`),
		spec.CheckArgs(BoundedArgs{Bounds: Bounds{MaxExpansion: i64(5)}}, `{"max_expansion":5}`),
	} {
		if err != nil {
			t.Error(err)
		}
	}
}
