package tracerspec

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/threespec/conformance/impl/libtracer"
	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/impl/spec"
	"github.com/threespec/conformance/testee"
)

// FlatFrame is one frame of the libtracer.decode result. The frame tree is
// sent as a flat list in pre-order (a frame, then its children, then its
// next sibling), each frame giving its depth (0 for a top-level frame), so
// that a tree of any depth is a JSON value of depth three: JSON readers
// limit nesting (encoding/json to 10,000 levels, Python's to about 1,000),
// libtracer does not. docs/PROTOCOL.md (libtracer.decode) gives the fields.
type FlatFrame struct {
	Depth    int      `json:"depth"`
	Offset   int64    `json:"offset"`
	Type     uint8    `json:"type"`
	Opt      uint8    `json:"opt"`
	Length   uint32   `json:"length"`
	Payload  *string  `json:"payload,omitempty"`  // hex, for a frame kept as opaque bytes
	Children *int     `json:"children,omitempty"` // the number of children of a walked structured frame
	TS       *FlatTS  `json:"ts,omitempty"`
	CRC      *FlatCRC `json:"crc,omitempty"`
	Error    *FlatErr `json:"error,omitempty"` // a rejected top-level frame (report "frames" only)
}

// Frame aliases libtracer.Frame for the flattening code.
type Frame = libtracer.Frame

// FlatTS is a trailer_ts: its form, the received field and the resolved
// absolute wire-time, as decimal strings (a u64 is not a JSON number in
// every language).
type FlatTS struct {
	Form     string `json:"form"` // "abs" or "rel"
	Raw      string `json:"raw"`
	Resolved string `json:"resolved"`
}

// FlatCRC is a trailer_crc as received (and verified).
type FlatCRC struct {
	Width int    `json:"width"` // 32 or 16
	Value string `json:"value"` // 8 or 4 lower-case hex digits
}

// FlatErr is the error of a rejected top-level frame.
type FlatErr struct {
	Rule   string `json:"rule"`
	Code   string `json:"code"`
	Offset int64  `json:"offset"`
	Detail string `json:"detail"`
}

// Flatten lists a frame tree in pre-order with depths, without recursion.
func Flatten(frames []Frame) []FlatFrame {
	var out []FlatFrame
	type item struct {
		f     *Frame
		depth int
	}
	stack := make([]item, 0, 16)
	for i := len(frames) - 1; i >= 0; i-- {
		stack = append(stack, item{&frames[i], 0})
	}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		f := it.f
		ff := FlatFrame{Depth: it.depth, Offset: f.Offset, Type: f.Type, Opt: uint8(f.Opt), Length: f.Length}
		switch {
		case f.Err != nil:
			ff.Error = &FlatErr{Rule: string(f.Err.Rule), Code: f.Err.Code, Offset: f.Err.Offset, Detail: f.Err.Detail}
		case f.Children != nil:
			n := len(f.Children)
			ff.Children = &n
			for i := n - 1; i >= 0; i-- {
				stack = append(stack, item{&f.Children[i], it.depth + 1})
			}
		default:
			p := hex.EncodeToString(f.Payload)
			ff.Payload = &p
		}
		if f.Err == nil && f.TS != nil {
			ts := &FlatTS{Form: "abs", Raw: strconv.FormatUint(f.TS.Abs, 10), Resolved: strconv.FormatUint(f.TS.Resolved, 10)}
			if f.TS.Relative {
				ts.Form, ts.Raw = "rel", strconv.FormatInt(int64(f.TS.Rel), 10)
			}
			ff.TS = ts
		}
		if f.Err == nil && f.CRC != nil {
			digits := 8
			if f.CRC.Width == 16 {
				digits = 4
			}
			ff.CRC = &FlatCRC{Width: f.CRC.Width, Value: fmt.Sprintf("%0*x", digits, f.CRC.Value)}
		}
		out = append(out, ff)
	}
	return out
}

// decodeArgs are the arguments of libtracer.decode
// (docs/PROTOCOL.md, section libtracer.decode): DecodeArgs, which every
// vector gives, and report ("verdict" or "frames"), views (cut offsets),
// strip and forward (a fresh trailer's wire-time and CRC width). options
// makes them the libtracer.ReceiveOptions that mean the same.
type decodeArgs struct {
	DecodeArgs
	Report  string       `json:"report,omitempty"`
	Views   []int64      `json:"views,omitempty"`
	Strip   bool         `json:"strip,omitempty"`
	Forward *forwardArgs `json:"forward,omitempty"`
}

type forwardArgs struct {
	TS  *string `json:"ts,omitempty"` // decimal u64 ns since the Unix epoch
	CRC int     `json:"crc"`          // 32, 16 or 0
}

// boundDefault is the limit an absent libtracer bound takes: 0, the
// decoder's own default def, or the cap when def is above it.
func boundDefault(def, cap int64) int64 {
	if def > cap {
		return cap
	}
	return 0
}

// decode answers libtracer.decode: the arguments become a
// receiver's options, libtracer.ReceiveWith does the rest, and its report
// becomes the result (frames flattened, stored and forwarded as base64).
func decode(e spec.Env, req testee.Request) (any, error) {
	var a decodeArgs
	if err := spec.DecodeArgs(req, &a); err != nil {
		return nil, err
	}
	o, err := a.options(e.Caps)
	if err != nil {
		return nil, err
	}
	r, err := libtracer.ReceiveWith(e.Checks, req.Input, o)
	var oe *libtracer.OptionsError
	switch {
	case errors.As(err, &oe) && oe.Malformed:
		return nil, fmt.Errorf("%w: %s", testee.ErrInvalidRequest, oe.Reason)
	case oe != nil:
		return nil, spec.Unsupported("%s", oe.Reason)
	case err != nil:
		return nil, err // a rejection: a *rules.Violation
	}
	flat := Flatten(r.Frames)
	if flat == nil {
		flat = []FlatFrame{}
	}
	out := map[string]any{"frames": flat}
	if a.Strip {
		out["stored"] = spec.BytesMember(r.Stored)
	}
	if a.Forward != nil {
		out["forwarded"] = spec.BytesMember(r.Forwarded)
	}
	return out, nil
}

// options are the receiver's options a asks for, within the caps c
// (Spec.Caps); an argument value the reference does not implement is
// unsupported, a forward.ts that is no decimal u64 a request built wrong.
func (a *decodeArgs) options(c spec.Caps) (libtracer.ReceiveOptions, error) {
	var o libtracer.ReceiveOptions
	// The caller's bounds, within the caps. An absent one stays 0, the
	// decoder's default (LT-TRUNC-07's 16 MiB, the project's budget of
	// 1024), unless that is above the cap.
	tlv, err := c.Bound("max_tlv_bytes", a.MaxTLVBytes, boundDefault(libtracer.DefaultMaxTLVBytes, c[LimitMaxTLVBytes]), LimitMaxTLVBytes)
	if err != nil {
		return o, err
	}
	budget, err := c.Bound("work_budget", a.WorkBudget, boundDefault(libtracer.DefaultMaxOpenLevels, c[LimitWorkBudget]), LimitWorkBudget)
	if err != nil {
		return o, err
	}
	o.Limits = libtracer.Limits{MaxTLVBytes: uint64(tlv), MaxOpenLevels: int(budget)}
	switch a.Report {
	case "", "verdict":
	case "frames":
		o.PerFrame = true
	default:
		return o, spec.Unsupported("report %q", a.Report)
	}
	o.Strip = a.Strip
	if f := a.Forward; f != nil {
		o.Forward = &libtracer.Trailer{}
		switch f.CRC {
		case 0:
		case 16:
			o.Forward.CRC = libtracer.TrailerCRC16
		case 32:
			o.Forward.CRC = libtracer.TrailerCRC32
		default:
			return o, spec.Unsupported("forward crc %d", f.CRC)
		}
		if f.TS != nil {
			t, err := strconv.ParseUint(*f.TS, 10, 64)
			if err != nil {
				return o, fmt.Errorf("%w: forward ts %q: %v", testee.ErrInvalidRequest, *f.TS, err)
			}
			o.Forward.Timestamp, o.Clock = true, func() uint64 { return t }
		}
	}
	switch a.Transport {
	case "", TransportDatagram:
		o.Transport = libtracer.Datagram
	case TransportStream:
		o.Transport = libtracer.Stream
	default:
		return o, spec.Unsupported("transport %q", a.Transport)
	}
	o.Views = a.Views
	return o, nil
}

func encode(e spec.Env, req testee.Request) (any, error) {
	var a EncodeArgs
	if err := spec.DecodeArgs(req, &a); err != nil {
		return nil, err
	}
	frames, err := parseEncodeInput(req.Input)
	if err != nil {
		return nil, err
	}
	var out []byte
	switch a.Mode {
	case "", ModeExact:
		out, err = libtracer.EncodeExactWith(e.Checks, frames)
	case ModeSmallest:
		out, err = libtracer.EncodeWith(e.Checks, frames)
	default:
		return nil, spec.Unsupported("mode %q", a.Mode)
	}
	if err != nil {
		if rules.RuleOf(err) == "" {
			return nil, fmt.Errorf("%w: libtracer.encode: %v", testee.ErrInvalidRequest, err)
		}
		return nil, err
	}
	return map[string]any{"bytes": spec.BytesMember(out)}, nil
}

// parseEncodeInput reads the frame tree of libtracer.encode: the flat list
// libtracer.decode returns (objects with "depth"), or the nested form of
// docs/libtracer.md (objects with "children" arrays).
func parseEncodeInput(in []byte) ([]Frame, error) {
	var probe []map[string]json.RawMessage
	if err := json.Unmarshal(in, &probe); err == nil && len(probe) > 0 && probe[0]["depth"] != nil {
		return unflatten(in)
	}
	frames, err := libtracer.ParseFramesJSON(in)
	if err != nil {
		return nil, fmt.Errorf("%w: libtracer.encode input: %v", testee.ErrInvalidRequest, err)
	}
	return frames, nil
}

// unflatten rebuilds a frame tree from the flat pre-order list.
func unflatten(in []byte) ([]Frame, error) {
	var flat []FlatFrame
	dec := json.NewDecoder(bytes.NewReader(in))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&flat); err != nil {
		return nil, fmt.Errorf("%w: libtracer.encode flat input: %v", testee.ErrInvalidRequest, err)
	}
	bad := func(i int, format string, args ...any) error {
		return fmt.Errorf("%w: libtracer.encode flat input, frame %d: %s", testee.ErrInvalidRequest, i, fmt.Sprintf(format, args...))
	}
	// open holds, per depth, the slice the next frame at that depth joins
	// and how many children the open parent still expects.
	type open struct {
		list *[]Frame
		want int
	}
	var top []Frame
	stack := []open{{list: &top, want: -1}}
	for i, ff := range flat {
		for len(stack) > 1 && stack[len(stack)-1].want == 0 {
			stack = stack[:len(stack)-1]
		}
		if ff.Depth != len(stack)-1 {
			return nil, bad(i, "depth %d where %d is expected", ff.Depth, len(stack)-1)
		}
		f := Frame{Type: ff.Type, Opt: libtracer.Opt(ff.Opt)}
		switch {
		case ff.Payload != nil && ff.Children != nil:
			return nil, bad(i, "both payload and children")
		case ff.Payload != nil:
			p, err := hex.DecodeString(*ff.Payload)
			if err != nil {
				return nil, bad(i, "payload: %v", err)
			}
			f.Payload = p
		case ff.Children != nil:
			if *ff.Children < 0 {
				return nil, bad(i, "negative children count")
			}
			f.Children = []Frame{}
		default:
			return nil, bad(i, "neither payload nor children")
		}
		if ff.TS != nil {
			ts := &libtracer.Timestamp{Relative: ff.TS.Form == "rel"}
			switch ff.TS.Form {
			case "abs":
				v, err := strconv.ParseUint(ff.TS.Raw, 10, 64)
				if err != nil {
					return nil, bad(i, "ts raw: %v", err)
				}
				ts.Abs, ts.Resolved = v, v
			case "rel":
				v, err := strconv.ParseInt(ff.TS.Raw, 10, 32)
				if err != nil {
					return nil, bad(i, "ts raw: %v", err)
				}
				ts.Rel = int32(v)
				if ff.TS.Resolved != "" {
					if ts.Resolved, err = strconv.ParseUint(ff.TS.Resolved, 10, 64); err != nil {
						return nil, bad(i, "ts resolved: %v", err)
					}
				}
			default:
				return nil, bad(i, "ts form %q", ff.TS.Form)
			}
			f.TS = ts
		}
		top := &stack[len(stack)-1]
		*top.list = append(*top.list, f)
		if top.want > 0 {
			top.want--
		}
		if ff.Children != nil && *ff.Children > 0 {
			list := *top.list
			stack = append(stack, open{list: &list[len(list)-1].Children, want: *ff.Children})
		}
	}
	for _, o := range stack[1:] {
		if o.want > 0 {
			return nil, fmt.Errorf("%w: libtracer.encode flat input ends with %d children missing", testee.ErrInvalidRequest, o.want)
		}
	}
	return top, nil
}
