package harness

import (
	"slices"
	"testing"

	"github.com/threespec/conformance/internal/allspecs"
)

func TestParseFaults(t *testing.T) {
	cases := []struct {
		in      string
		ids     []string
		unknown []string
		err     bool
	}{
		{in: "HR-RCAP-03", ids: []string{"HR-RCAP-03"}},
		{in: "LT-CRC-09,MUT-LT-CRC-OVER-HEADER", ids: []string{"LT-CRC-09", "MUT-LT-CRC-OVER-HEADER"}},
		{in: "MUT-LACE-CRLF-ACCEPTED", ids: []string{"MUT-LACE-CRLF-ACCEPTED"}},
		{in: "LACE-FIELD-99,MUT-HR-NO-SUCH", ids: []string{"LACE-FIELD-99", "MUT-HR-NO-SUCH"}, unknown: []string{"LACE-FIELD-99", "MUT-HR-NO-SUCH"}},
		{in: "not-a-rule", err: true},
		{in: "MUT-", err: true},
		{in: "mut-lt-crc-over-header", err: true},
	}
	for _, c := range cases {
		ids, unknown, err := ParseFaults(allspecs.Set(), c.in)
		if (err != nil) != c.err {
			t.Errorf("ParseFaults(allspecs.Set(), %q): error %v, want error %v", c.in, err, c.err)
			continue
		}
		if !slices.Equal(ids, c.ids) || !slices.Equal(unknown, c.unknown) {
			t.Errorf("ParseFaults(allspecs.Set(), %q) = %q, unknown %q; want %q, unknown %q", c.in, ids, unknown, c.ids, c.unknown)
		}
	}
}
