// Package allspecs is the one test helper that lists every spec's wing
// (its Spec and its steps), for the tests of the spec-neutral core (the
// reference's dispatch, the harness, the generator engine, the fault
// proof, the steps' world); the commands keep their own lists
// (cmd/conform, cmd/conform-features, cmd/vecgen, cmd/rulesdoc), and no
// other package names a spec (TestOnlyWingsNameSpecs). Its own tests run
// every feature against the reference (TestFeatures), check the
// readings' scenarios and the rules the reference rejects with, and check
// the counts and hashes README.md and docs/ state (TestDocFigures).
package allspecs

import (
	"github.com/threespec/conformance/harness/harnesstest"
	"github.com/threespec/conformance/impl/hiverelay/hivespec"
	"github.com/threespec/conformance/impl/lace/lacespec"
	"github.com/threespec/conformance/impl/libtracer/tracerspec"
	"github.com/threespec/conformance/impl/spec"
	"github.com/threespec/conformance/steps"
	"github.com/threespec/conformance/steps/hiverelay"
	"github.com/threespec/conformance/steps/lace"
	"github.com/threespec/conformance/steps/libtracer"
)

var set = spec.MustSet(lacespec.Spec, hivespec.Spec, tracerspec.Spec)

// Set returns every spec, in report order.
func Set() *spec.Set { return set }

// Steps returns every spec's steps, in the same order.
func Steps() []steps.Wing { return []steps.Wing{lace.Steps, hiverelay.Steps, libtracer.Steps} }

// Synthetic is what the harness's synthetic suites (harness/harnesstest)
// stand in for: the lace suite, whose operations the fake testee claims.
func Synthetic() harnesstest.Synthetic {
	return harnesstest.Synthetic{Suite: "lace", Ops: []string{lacespec.OpRecord, lacespec.OpStream}, Rule: "LACE-TEST-01"}
}
