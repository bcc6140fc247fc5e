// Package lacesuite is what the spec-neutral packages are told of the
// Lace-010 Records suite: its definition for the harness (Def) and the
// argument vocabulary of its operations in testee protocol v1
// (docs/PROTOCOL.md, lace.*).
package lacesuite

import "github.com/threespec/conformance/vectorset"

// Def is the lace suite as conform loads it: its set hash is all it
// publishes.
var Def = vectorset.SuiteDef{Name: "lace"}

// Args are the arguments of lace.record and lace.stream (docs/PROTOCOL.md,
// "Lace arguments").
type Args struct {
	Mark string `json:"mark,omitempty"` // testee.MarkBIP340Standin (default when empty), MarkNone or Mark009
}

// Bounds are the resource bounds of lace.chunks and lace.directory; a nil
// field is absent and means the testee's default.
type Bounds struct {
	MaxDepth     *int64 `json:"max_depth,omitempty"`
	MaxExpansion *int64 `json:"max_expansion,omitempty"` // logical nodes visited, counting repeats
	MaxBytes     *int64 `json:"max_bytes,omitempty"`     // assembled bytes
}

// BoundedArgs are the arguments of lace.chunks and lace.directory.
type BoundedArgs struct {
	Mark string `json:"mark,omitempty"`
	Bounds
}
