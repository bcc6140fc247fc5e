// Package tracersuite is what the spec-neutral packages are told of the
// libtracer v1 wire format suite: its definition for the harness (Def) and
// the argument vocabulary of its operations in testee protocol v1
// (docs/PROTOCOL.md, libtracer.*).
package tracersuite

import "github.com/threespec/conformance/vectorset"

// Def is the libtracer suite as conform loads it: its set hash is all it
// publishes.
var Def = vectorset.SuiteDef{Name: "libtracer"}
