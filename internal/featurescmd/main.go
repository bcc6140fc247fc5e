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
)

// Main runs `features ARGS...` or `prove ARGS...` and returns the exit
// status (docs/CONFORM.md).
func Main(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "features":
			return featuresCmd(args[1:], stdout, stderr)
		case "prove":
			return proveCmd(args[1:], stdout, stderr)
		}
	}
	fmt.Fprintln(stderr, "usage: conform-features features|prove [flags] ... (run as conform features, conform prove; see docs/CONFORM.md)")
	return 2
}
