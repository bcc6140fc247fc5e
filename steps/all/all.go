// Package all lists the project's specs' steps for the callers that run
// every feature (conform features, the fault proof, the features test):
// each spec's package declares its own steps.Spec.
package all

import (
	"github.com/threespec/conformance/steps"
	"github.com/threespec/conformance/steps/hiverelay"
	"github.com/threespec/conformance/steps/lace"
	"github.com/threespec/conformance/steps/libtracer"
)

// Specs are the three specs' steps, in the catalog's order.
var Specs = []steps.Spec{lace.Steps, hiverelay.Steps, libtracer.Steps}
