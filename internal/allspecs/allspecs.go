// Package allspecs is the one test helper that lists every spec's wing, for
// the tests of the spec-neutral core (the reference's dispatch, the
// harness, the generator engine, the fault proof, the steps' world): the
// commands keep their own lists (cmd/conform, cmd/conform-features,
// cmd/vecgen), and no other package names a spec.
package allspecs

import (
	"github.com/threespec/conformance/impl/hiverelay/hivespec"
	"github.com/threespec/conformance/impl/lace/lacespec"
	"github.com/threespec/conformance/impl/libtracer/tracerspec"
	"github.com/threespec/conformance/impl/spec"
)

var set = spec.MustSet(lacespec.Spec, hivespec.Spec, tracerspec.Spec)

// Set returns every spec, in report order.
func Set() *spec.Set { return set }
