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

	"github.com/threespec/conformance/impl/hiverelay/hivespec"
	"github.com/threespec/conformance/impl/lace/lacespec"
	"github.com/threespec/conformance/impl/libtracer/tracerspec"
	"github.com/threespec/conformance/impl/spec"
	"github.com/threespec/conformance/internal/featurescmd"
	"github.com/threespec/conformance/steps"
	"github.com/threespec/conformance/steps/hiverelay"
	"github.com/threespec/conformance/steps/lace"
	"github.com/threespec/conformance/steps/libtracer"
)

// wings are the specs and their steps, in report order: the one list of
// them in this command.
var wings = featurescmd.Wings{
	Specs: spec.MustSet(lacespec.Spec, hivespec.Spec, tracerspec.Spec),
	Steps: []steps.Wing{lace.Steps, hiverelay.Steps, libtracer.Steps},
}

func main() { os.Exit(featurescmd.Main(wings, os.Args[1:], os.Stdout, os.Stderr)) }
