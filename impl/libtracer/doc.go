// Package libtracer is the reference implementation of the libtracer v1 wire
// format (specs/libtracer-01-data-format.txt, "Reference 01 — Data
// Format"): TLV frames of a type byte, an options byte, a u16 or u32
// little-endian length, the payload, and an optional trailer of a u64
// absolute or i32 relative timestamp and a CRC-32C or CRC-16-CCITT.
//
// Receiving: Decode parses a datagram (the contiguous wire buffer),
// DecodeRope the same bytes held as a rope of views (the in-memory walk),
// StreamDecoder frames arriving on a stream, and Validate checks a datagram
// without building a tree or allocating. All of them share one iterative
// walker whose work stack is bounded by Limits, and report every rejection
// as a *rules.Violation carrying the rule ID of Catalog and the spec's code.
// Receive is a receiver's whole answer to one input, as the testee
// protocol's libtracer.decode asks it: the input on a transport or cut into
// views, a verdict or every frame, and the trailer lifecycle of a recorder
// or a forwarder.
//
// Sending: Encode writes a frame tree in the smallest variants, EncodeExact
// with every option bit as given; FrameWriter streams one frame. Strip,
// Attach and Forward carry a frame between transit and rest.
//
// Each entry point has a With form (DecodeWith, EncodeWith, ...) taking
// the rules.Checks the call carries: rules switched off and mutants
// switched on for the fault proof, readings taken; the zero Checks is
// libtracer-01, which the forms without one are.
//
// docs/libtracer.md gives the decisions taken where the spec is silent and
// the JSON form of the frame tree.
package libtracer
