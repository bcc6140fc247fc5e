// Package catalog gathers the rule catalogs of the three specifications: the
// complete list of rule IDs the features, the vectors and the reference
// implementations share.
package catalog

import (
	"github.com/threespec/conformance/impl/hiverelay"
	"github.com/threespec/conformance/impl/lace"
	"github.com/threespec/conformance/impl/libtracer"
	"github.com/threespec/conformance/impl/rules"
)

// Specs are the specification names, in report order.
var Specs = []string{rules.Lace.String(), rules.HiveRelay.String(), rules.LibTracer.String()}

// All returns every rule of every specification, spec by spec in spec order.
func All() []rules.Rule {
	var all []rules.Rule
	all = append(all, lace.Catalog()...)
	all = append(all, hiverelay.Catalog()...)
	all = append(all, libtracer.Catalog()...)
	return all
}

// Lookup returns the rule with the given ID.
func Lookup(id rules.ID) (rules.Rule, bool) {
	for _, r := range All() {
		if r.ID == id {
			return r, true
		}
	}
	return rules.Rule{}, false
}

// Mutants returns the named mutants of the three reference implementations:
// classic implementation mistakes the fault proof switches on one at a time.
func Mutants() []rules.Mutant {
	var all []rules.Mutant
	all = append(all, lace.Mutants()...)
	all = append(all, hiverelay.Mutants()...)
	all = append(all, libtracer.Mutants()...)
	return all
}
