// Package tracersuite is what the spec-neutral packages are told of the
// libtracer v1 wire format suite: its definition for the harness (Def) and
// the argument vocabulary of its operations in testee protocol v1
// (docs/PROTOCOL.md, libtracer.*).
package tracersuite

import "github.com/threespec/conformance/vectorset"

// Def is the libtracer suite as conform loads it: its set hash is all it
// publishes.
var Def = vectorset.SuiteDef{Name: "libtracer"}

// Values of the "transport" argument of libtracer.decode.
const (
	TransportDatagram = "datagram"
	TransportStream   = "stream"
)

// Values of the "mode" argument of libtracer.encode.
const (
	ModeExact    = "exact"
	ModeSmallest = "smallest"
)

// DecodeArgs are the arguments of libtracer.decode; a nil limit is absent
// and means the testee's default.
type DecodeArgs struct {
	Transport   string `json:"transport"`               // TransportDatagram or TransportStream
	MaxTLVBytes *int64 `json:"max_tlv_bytes,omitempty"` // the receiver's MAX_TLV_BYTES (default 16 MiB)
	WorkBudget  *int64 `json:"work_budget,omitempty"`   // nesting work-stack budget in open levels
}

// EncodeArgs are the arguments of libtracer.encode.
type EncodeArgs struct {
	Mode string `json:"mode"` // ModeExact or ModeSmallest
}
