package tracervec

import (
	"slices"

	"github.com/threespec/conformance/impl/libtracer/tracermodel"
)

// acceptableCodes is what a negative of in under a accepts beside code:
// every other code firing gives (docs/VECTORS.md, "Check order"), and the
// rules of their checks, which the vector then tests as well.
func acceptableCodes(in []byte, a decodeArgs, code string) (codes, ruleIDs []string) {
	set := tracermodel.Order(in, a.Args, tracermodel.Alternatives{})
	for _, c := range set.List() {
		if c != code {
			codes = append(codes, c)
			if !slices.Contains(ruleIDs, set[c]) {
				ruleIDs = append(ruleIDs, set[c])
			}
		}
	}
	return codes, ruleIDs
}
