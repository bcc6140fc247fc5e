package lacevec

import (
	"fmt"

	"github.com/threespec/conformance/internal/vecgen"
	"github.com/threespec/conformance/vectorset"
)

// firing is the Lace suite's vecgen.Generator.Firing (docs/VECTORS.md,
// "Check order"): every error code a reader following Lace-010 could
// report first on a negative's input. Lace-010 names no error codes, so
// every check rejects with the empty code, in whatever order a reader
// makes them: the empty code is the only one, no Lace vector can expect
// another, and none needs acceptable codes. Which rule a reader reports
// first is no code and no verdict (precedence notes, features/RULES.md).
func firing(v *vecgen.Vector, _ []byte) ([]string, error) {
	if v.Expect != vectorset.Reject {
		return nil, fmt.Errorf("%s is no negative", v.ID)
	}
	return []string{""}, nil
}
