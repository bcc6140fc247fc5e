package tracerspec

import (
	"testing"

	"github.com/threespec/conformance/impl/spec"
)

// The arguments encode as docs/PROTOCOL.md names their members, and read
// back to the same value.
func TestArgs(t *testing.T) {
	i64 := func(v int64) *int64 { return &v }
	for _, err := range []error{
		spec.CheckArgs(DecodeArgs{Transport: TransportStream, WorkBudget: i64(64)}, `{"transport":"stream","work_budget":64}`),
		spec.CheckArgs(DecodeArgs{Transport: TransportDatagram, MaxTLVBytes: i64(16 << 20)}, `{"transport":"datagram","max_tlv_bytes":16777216}`),
		spec.CheckArgs(EncodeArgs{Mode: ModeSmallest}, `{"mode":"smallest"}`),
	} {
		if err != nil {
			t.Error(err)
		}
	}
}
