// Package catalog gathers the rule catalogs of the three specifications: the
// complete list of rule IDs the features, the vectors and the reference
// implementations share.
package catalog

import (
	"slices"

	"github.com/threespec/conformance/impl/hiverelay"
	"github.com/threespec/conformance/impl/lace"
	"github.com/threespec/conformance/impl/libtracer"
	"github.com/threespec/conformance/impl/rules"
)

// Specs are the specification names, in report order.
var Specs = []string{rules.Lace.String(), rules.HiveRelay.String(), rules.LibTracer.String()}

// The catalogs of the three specifications, joined once, spec by spec in
// spec order.
var (
	all     = rules.Join(lace.Catalog(), hiverelay.Catalog(), libtracer.Catalog())
	mutants = slices.Concat(lace.Mutants(), hiverelay.Mutants(), libtracer.Mutants())
)

// All returns every rule of every specification, spec by spec in spec order.
func All() []rules.Rule { return all.Rules() }

// Lookup returns the rule with the given ID.
func Lookup(id rules.ID) (rules.Rule, bool) { return all.Lookup(id) }

// Mutants returns the named mutants of the three reference implementations:
// classic implementation mistakes the fault proof switches on one at a time.
func Mutants() []rules.Mutant { return slices.Clone(mutants) }
