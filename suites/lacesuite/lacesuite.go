// Package lacesuite is what the spec-neutral packages are told of the
// Lace-010 Records suite: its definition for the harness (Def) and the
// argument vocabulary of its operations in testee protocol v1
// (docs/PROTOCOL.md, lace.*).
package lacesuite

import "github.com/threespec/conformance/vectorset"

// Def is the lace suite as conform loads it: its set hash is all it
// publishes.
var Def = vectorset.SuiteDef{Name: "lace"}
