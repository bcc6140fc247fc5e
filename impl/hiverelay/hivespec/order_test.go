package hivespec

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"

	hr "github.com/threespec/conformance/impl/hiverelay"
	"github.com/threespec/conformance/impl/spec"
)

// The check order on inputs whose failing checks are known from the spec: every
// codec check gives BAD_ENCODING (§2, §5), the artifact's magic and spec
// text give no named code (§4 names none), and a check that fails only
// after a framing check was skipped is not counted.
func TestCheckOrder(t *testing.T) {
	t.Parallel()
	art := hr.ReferenceFormatArtifact()
	with := func(b []byte, at int, patch ...byte) []byte {
		out := bytes.Clone(b)
		copy(out[at:], patch)
		return out
	}
	rcap := func(patch func([]byte)) []byte {
		b := make([]byte, 99)
		b[0], b[1], b[33], b[65], b[97] = 1, 1, 1, 1, 1
		patch(b)
		return b
	}
	tests := []struct {
		name  string
		op    string
		args  map[string]any
		input []byte
		want  []string
	}{
		{"zero relay key and zero slot: two nonzero checks, one code", "hiverelay.decode", map[string]any{"schema": "ReadCellCapV1"},
			rcap(func(b []byte) { b[1], b[33] = 0, 0 }), []string{"BAD_ENCODING"}},
		{"version 2 and a zero relay key", "hiverelay.decode", map[string]any{"schema": "ReadCellCapV1"},
			rcap(func(b []byte) { b[0], b[1] = 2, 0 }), []string{"BAD_ENCODING"}},
		{"truncated after the version: framing, nothing after it", "hiverelay.decode", map[string]any{"schema": "ReadCellCapV1"},
			[]byte{1, 0}, []string{"BAD_ENCODING"}},
		{"wrong magic alone: the spec names no code", "hiverelay.format", nil, with(art, 0, 'X'), []string{spec.AnyCode}},
		{"wrong magic and authorityVersion 2: either may come first", "hiverelay.format", nil, with(art, 0, 'X', 'R', 'B', 'C', 'C', 'F', '0', '1', 0, 2),
			[]string{spec.AnyCode, "BAD_ENCODING"}},
		{"authorityVersion 2 alone", "hiverelay.format", nil, with(art, 8, 0, 2), []string{"BAD_ENCODING"}},
		{"wrong magic and the artifact cut short: the truncation is framing", "hiverelay.format", nil, with(art[:20], 0, 'X'), []string{spec.AnyCode, "BAD_ENCODING"}},
		{"a truncated manifest", "hiverelay.manifest", nil, []byte{0, 0, 0, 1, 0}, []string{spec.AnyCode}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var args json.RawMessage
			if tt.args != nil {
				b, err := json.Marshal(tt.args)
				if err != nil {
					t.Fatal(err)
				}
				args = b
			}
			got, err := Spec.CheckOrder(tt.op, args, tt.input, nil)
			if err != nil {
				t.Fatal(err)
			}
			slices.Sort(got)
			want := slices.Sorted(slices.Values(tt.want))
			if !slices.Equal(got, want) {
				t.Errorf("CheckOrder = %q, want %q", got, want)
			}
		})
	}
}
