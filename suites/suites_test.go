package suites

import (
	"slices"
	"testing"

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
