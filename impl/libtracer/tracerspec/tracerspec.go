// Package tracerspec is the libtracer v1 wire format wing's Spec
// (impl/spec): its rules, mutants and readings (impl/libtracer), and the
// operations it defines in testee protocol v1 with the reference's
// handlers (docs/PROTOCOL.md, libtracer.*), their arguments and caps.
package tracerspec

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/threespec/conformance/impl/libtracer"
	"github.com/threespec/conformance/impl/libtracer/tracermodel"
	"github.com/threespec/conformance/impl/spec"
	"github.com/threespec/conformance/vectorset"
)

// Spec is the libtracer v1 wire format as the core is handed it.
var Spec = &spec.Spec{
	Name:     "libtracer",
	Prefix:   "LT",
	Title:    "libtracer v1 wire data format",
	TextFile: libtracer.TextFile,
	Doc:      "docs/libtracer.md",
	Rules:    libtracer.Catalog(),
	Mutants:  libtracer.Mutants(),
	Readings: libtracer.Readings(),
	Retired:  libtracer.RetiredReadings(),
	Ops: []spec.Op{
		{Name: OpDecode, Handle: decode},
		{Name: OpEncode, Handle: encode},
	},
	Caps: []spec.Cap{
		{Name: LimitMaxTLVBytes, Default: libtracer.MaxLen32}, // the largest length the format has (LT-LEN-02)
		{Name: LimitWorkBudget, Default: 1 << 20},
	},
	// The defaults of the bounds, where they differ from the caps.
	Limits: func(c spec.Caps) map[string]int64 {
		return map[string]int64{
			"libtracer.default_max_tlv_bytes": min(c[LimitMaxTLVBytes], libtracer.DefaultMaxTLVBytes),
			"libtracer.default_work_budget":   min(c[LimitWorkBudget], libtracer.DefaultMaxOpenLevels),
		}
	},
	CheckOrder:     checkOrder,
	ExpectedResult: expectedResult,
}

// expectedResult is the libtracer Spec's ExpectedResult: in a
// libtracer.decode frame list (report "frames"), an error's rule and detail
// are free text, as the generator writes them (docs/PROTOCOL.md compares
// the code, not the wording nor the testee's choice of rule).
func expectedResult(op string, result json.RawMessage) (json.RawMessage, error) {
	if op != OpDecode {
		return result, nil
	}
	dec := json.NewDecoder(bytes.NewReader(result))
	dec.UseNumber() // offsets and stamps kept exact
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	frames, _ := m["frames"].([]any)
	for _, f := range frames {
		fm, _ := f.(map[string]any)
		if e, ok := fm["error"].(map[string]any); ok {
			e["rule"], e["detail"] = vectorset.AnyString(), vectorset.AnyString()
		}
	}
	return json.Marshal(m)
}

// checkOrder is the libtracer Spec's CheckOrder (docs/VECTORS.md, "Check
// order"): for libtracer.decode, the codes of the check orders
// libtracer-01 leaves free (tracermodel.Codes, the suite's second reading
// of the wire, which shares no code with the reference), under the
// alternatives of the readings taken; for libtracer.encode, any code: the
// spec's codes are a receiver's, and it names none for a sender that
// refuses to write what it must not (docs/PROTOCOL.md, libtracer.encode:
// "Rejection: any code").
func checkOrder(op string, args json.RawMessage, input []byte, readings map[string]string) ([]string, error) {
	switch op {
	case OpEncode:
		return []string{spec.AnyCode}, nil
	case OpDecode:
	default:
		return nil, fmt.Errorf("no check order is modelled for %s", op)
	}
	var a tracermodel.Args
	if len(args) > 0 {
		if err := json.Unmarshal(args, &a); err != nil {
			return nil, fmt.Errorf("args: %w", err)
		}
	}
	alt, err := tracermodel.AlternativesOf(readings)
	if err != nil {
		return nil, err
	}
	codes := tracermodel.Codes(input, a, alt)
	if len(codes) == 0 {
		return nil, fmt.Errorf("a receiver following the spec accepts it")
	}
	return codes, nil
}

// Operation names (docs/PROTOCOL.md, "Operations").
const (
	OpDecode = "libtracer.decode"
	OpEncode = "libtracer.encode"
)

// The hello limits of the caps (docs/PROTOCOL.md, "Arguments"): the
// reference's caps on max_tlv_bytes and work_budget of libtracer.decode.
const (
	LimitMaxTLVBytes = "libtracer.max_tlv_bytes"
	LimitWorkBudget  = "libtracer.work_budget"
)

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
