// Package suites lists the definitions of the project's suites for the
// commands that load them (cmd/conform): each suite's own package
// (lacesuite, hivesuite, tracersuite) declares its definition, as each
// generator package declares its vecgen.Suite.
package suites

import (
	"github.com/threespec/conformance/suites/hivesuite"
	"github.com/threespec/conformance/suites/lacesuite"
	"github.com/threespec/conformance/suites/tracersuite"
	"github.com/threespec/conformance/vectorset"
)

// All are the suites' definitions, in the order of vectorset.Suites.
var All = []vectorset.SuiteDef{lacesuite.Def, hivesuite.Def, tracersuite.Def}
