// Package featurescmd is `conform features` and `conform prove`: the
// commands that link the Gherkin runner (godog) and the fault proof. They
// live in their own program, cmd/conform-features, which conform runs for
// them, so that the conform binary (`conform run`, `conform serve`) does not
// pay godog's package initialisation (it runs `go env GOTOOLDIR`) at every
// start.
package featurescmd

import (
	"fmt"
	"io"

	"github.com/threespec/conformance/impl/spec"
	"github.com/threespec/conformance/steps"
)

// Wings are what the commands are handed of the specs: the specs (their
// catalogs, mutants, readings and reference handlers) and their steps, in
// the same order.
type Wings struct {
	Specs *spec.Set
	Steps []steps.Wing
}

// Main runs `features ARGS...` or `prove ARGS...` over the wings w and
// returns the exit status (docs/CONFORM.md).
func Main(w Wings, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "features":
			return featuresCmd(w, args[1:], stdout, stderr)
		case "prove":
			return proveCmd(w, args[1:], stdout, stderr)
		}
	}
	fmt.Fprintln(stderr, "usage: conform-features features|prove [flags] ... (run as conform features, conform prove; see docs/CONFORM.md)")
	return 2
}
