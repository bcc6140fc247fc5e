// Command conform-features is `conform features` and `conform prove`
// (docs/CONFORM.md), which conform runs as this separate program so that
// its own start (`conform serve` above all) does not pay for the Gherkin
// runner's initialisation. Install it beside conform (go install
// ./cmd/...), or let conform run it with `go run` inside the module.
//
// Usage:
//
//	conform-features features [flags] -- TESTEE ARGS...
//	conform-features prove [flags]
package main

import (
	"os"

	"github.com/threespec/conformance/internal/featurescmd"
)

func main() { os.Exit(featurescmd.Main(os.Args[1:], os.Stdout, os.Stderr)) }
