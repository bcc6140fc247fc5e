// Package lacespec is the Lace-010 Records wing's Spec (impl/spec): its
// rules, mutants and readings (impl/lace, impl/lace/convention), the
// operations it defines in testee protocol v1 with the reference's
// handlers (docs/PROTOCOL.md, lace.*), their arguments, caps and profiles.
package lacespec

import (
	"encoding/json"

	"github.com/threespec/conformance/impl/lace"
	"github.com/threespec/conformance/impl/lace/convention"
	"github.com/threespec/conformance/impl/spec"
)

// Spec is Lace-010 Records as the core is handed it.
var Spec = &spec.Spec{
	Name:     "lace",
	Prefix:   "LACE",
	Title:    "Lace-010 Records",
	TextFile: lace.TextFile,
	Doc:      "docs/lace.md",
	Rules:    lace.Catalog(),
	Mutants:  lace.Mutants(),
	Readings: lace.Readings(),
	Retired:  lace.Retired(),
	Ops: []spec.Op{
		{Name: OpRecord, Handle: record},
		{Name: OpStream, Handle: stream},
		{Name: OpConstruct, Handle: construct},
		{Name: OpChunks, Handle: chunks},
		{Name: OpDirectory, Handle: directory},
	},
	Profiles: []spec.Profile{
		{Name: Profile009},
		{Name: ProfileMarkBIP340Standin, StandIn: &spec.StandIn{Policy: MarkBIP340Standin, What: "the stand-in Mark scheme"}, Reference: true},
	},
	Caps: []spec.Cap{
		{Name: LimitMaxDepth, Default: convention.DefaultMaxDepth},
		{Name: LimitMaxExpansion, Default: convention.DefaultMaxExpansion},
		{Name: LimitMaxAssembledBytes, Default: convention.DefaultMaxBytes},
		{Name: LimitMaxListingBytes, Default: convention.DefaultMaxListingBytes},
	},
	Limits: func(spec.Caps) map[string]int64 {
		return map[string]int64{"lace.max_blob_data": lace.MaxData}
	},
	CheckOrder: checkOrder,
}

// checkOrder is the Lace Spec's CheckOrder (docs/VECTORS.md, "Check
// order"): Lace-010 names no error codes, so whatever check a reader makes
// first rejects with a code of its own, and every rejection is the spec's
// whatever its code (spec.AnyCode). Which rule a reader reports first is no
// code and no verdict (precedence notes, features/RULES.md).
func checkOrder(string, json.RawMessage, []byte, map[string]string) ([]string, error) {
	return []string{spec.AnyCode}, nil
}

// Operation names (docs/PROTOCOL.md, "Operations").
const (
	OpRecord    = "lace.record"
	OpStream    = "lace.stream"
	OpConstruct = "lace.construct"
	OpChunks    = "lace.chunks"
	OpDirectory = "lace.directory"
)

// Profiles a testee may claim (docs/PROTOCOL.md, "Profiles").
const (
	// Profile009 verifies Seal Marks under the real Lace document 009.
	Profile009 = "lace-009"
	// ProfileMarkBIP340Standin verifies Seal Marks under the project's
	// stand-in scheme, BIP-340 Schnorr over secp256k1.
	ProfileMarkBIP340Standin = "lace-mark-bip340-standin"
)

// Values of the "mark" argument of the lace operations.
const (
	MarkBIP340Standin = "bip340-standin" // the default when "mark" is absent
	MarkNone          = "none"           // canonical By and Mark text only, signature not checked
	Mark009           = "009"            // the real Lace document 009
)

// The hello limits of the caps (docs/PROTOCOL.md, "Arguments"), each the
// reference's cap and default of a bound of lace.chunks and
// lace.directory.
const (
	LimitMaxDepth          = "lace.max_depth"
	LimitMaxExpansion      = "lace.max_expansion"       // max_expansion
	LimitMaxAssembledBytes = "lace.max_assembled_bytes" // max_bytes of lace.chunks
	// LimitMaxListingBytes is the largest lace.directory listing the
	// reference builds, in bytes of paths and targets; no request raises
	// it, a larger listing is answered unsupported.
	LimitMaxListingBytes = "lace.max_listing_bytes"
)

// Args are the arguments of lace.record and lace.stream (docs/PROTOCOL.md,
// "Lace arguments").
type Args struct {
	Mark string `json:"mark,omitempty"` // MarkBIP340Standin (default when empty), MarkNone or Mark009
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
