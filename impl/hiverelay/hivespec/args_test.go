package hivespec

import (
	"testing"

	"github.com/threespec/conformance/impl/hiverelay"
	"github.com/threespec/conformance/impl/spec"
)

// The arguments encode as docs/PROTOCOL.md names their members, and read
// back to the same value.
func TestArgs(t *testing.T) {
	for _, err := range []error{
		spec.CheckArgs(DecodeArgs{Schema: hiverelay.SchemaCellBlobV1, Class: 3}, `{"schema":"CellBlobV1","class":3}`),
		spec.CheckArgs(DecodeArgs{Schema: hiverelay.SchemaReadCellCapV1}, `{"schema":"ReadCellCapV1"}`),
	} {
		if err != nil {
			t.Error(err)
		}
	}
}
