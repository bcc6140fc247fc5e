package tracerspec

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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

// decodeArgs extends the protocol's decode arguments
// (docs/PROTOCOL.md, section libtracer.decode):
//   - report: "verdict" (the default: any error rejects the input with the
//     first error's code) or "frames" (framing errors still reject; a
//     top-level frame rejected although its extent is known is listed with
//     its error, and the parse goes on: how a receiver "continues parsing
//     the surrounding stream");
//   - views: cut offsets that make the datagram a rope of views, walked in
//     the in-memory context (LT-CTX-02, LT-CTX-03);
//   - strip: the result also gives "stored", the at-rest bytes of every
//     top-level frame, back to back (a recorder, LT-LIFE-01, LT-LIFE-03,
//     LT-LIFE-05);
//   - forward: the result also gives "forwarded", every top-level frame
//     stripped and sent again with a fresh trailer: an absolute trailer_ts
//     of the given wire-time (when ts is given) and a CRC of the given width
//     (32, 16, or 0 for none) (a forwarder or a replay, LT-LIFE-04,
//     LT-LIFE-05).
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

func decode(e spec.Env, req testee.Request) (any, error) {
	c, checks := e.Caps, e.Checks
	var a decodeArgs
	if err := spec.DecodeArgs(req, &a); err != nil {
		return nil, err
	}
	// The caller's bounds, within the caps (Spec.Caps). An absent one stays 0,
	// the decoder's default (LT-TRUNC-07's 16 MiB, the project's budget of
	// 1024), unless that is above the cap.
	tlv, err := c.Bound("max_tlv_bytes", a.MaxTLVBytes, boundDefault(libtracer.DefaultMaxTLVBytes, c[LimitMaxTLVBytes]), LimitMaxTLVBytes)
	if err != nil {
		return nil, err
	}
	budget, err := c.Bound("work_budget", a.WorkBudget, boundDefault(libtracer.DefaultMaxOpenLevels, c[LimitWorkBudget]), LimitWorkBudget)
	if err != nil {
		return nil, err
	}
	lim := libtracer.Limits{MaxTLVBytes: uint64(tlv), MaxOpenLevels: int(budget)}
	perFrame := false
	switch a.Report {
	case "", "verdict":
	case "frames":
		perFrame = true
	default:
		return nil, spec.Unsupported("report %q", a.Report)
	}
	lifecycle := a.Strip || a.Forward != nil
	if lifecycle && perFrame {
		return nil, spec.Unsupported("strip and forward take report verdict")
	}
	var trailer libtracer.Trailer
	var clock libtracer.Clock
	if f := a.Forward; f != nil {
		switch f.CRC {
		case 0:
		case 16:
			trailer.CRC = libtracer.TrailerCRC16
		case 32:
			trailer.CRC = libtracer.TrailerCRC32
		default:
			return nil, spec.Unsupported("forward crc %d", f.CRC)
		}
		if f.TS != nil {
			t, err := strconv.ParseUint(*f.TS, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("%w: forward ts %q: %v", testee.ErrInvalidRequest, *f.TS, err)
			}
			trailer.Timestamp, clock = true, func() uint64 { return t }
		}
	}
	// frames are the top-level frames parsed before framing broke, if it
	// did: framing is then the error that broke it.
	var frames []Frame
	var framing error
	switch {
	case a.Views != nil:
		if a.Transport == TransportStream {
			return nil, spec.Unsupported("views are cuts of a datagram")
		}
		views, err := cutViews(req.Input, a.Views)
		if err != nil {
			return nil, err
		}
		res := libtracer.DecodeRopeWith(checks, libtracer.NewRope(views...), lim)
		frames = res.Frames
		if res.Err != nil {
			framing = res.Err
		}
	case a.Transport == "" || a.Transport == TransportDatagram:
		res := libtracer.DecodeWith(checks, req.Input, lim)
		frames = res.Frames
		if res.Err != nil {
			framing = res.Err
		}
	case a.Transport == TransportStream:
		d := libtracer.NewStreamDecoderWith(checks, bytes.NewReader(req.Input), lim)
		for {
			f, err := d.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				framing = err
				break
			}
			frames = append(frames, f)
		}
	default:
		return nil, spec.Unsupported("transport %q", a.Transport)
	}
	// The verdict is the first error in byte order: a frame rejected before
	// the point where framing broke comes first (docs/libtracer.md). Strip
	// and forward validate each frame themselves (LT-LIFE-03).
	if !perFrame && !lifecycle {
		for i := range frames {
			if frames[i].Err != nil {
				return nil, frames[i].Err
			}
		}
	}
	if framing != nil && !lifecycle {
		return nil, framing
	}
	flat := Flatten(frames)
	if flat == nil {
		flat = []FlatFrame{}
	}
	out := map[string]any{"frames": flat}
	if !lifecycle {
		return out, nil
	}
	// Each frame before the point where framing broke, if it did, is
	// validated and stripped in byte order.
	var stored, forwarded []byte
	for i := range frames {
		end := int64(len(req.Input))
		if i+1 < len(frames) {
			end = frames[i+1].Offset
		} else if framing != nil {
			end = frames[i].Offset + int64(frames[i].Opt.HeaderSize()) + int64(frames[i].Length) + int64(frames[i].Opt.TrailerSize())
		}
		end = min(end, int64(len(req.Input))) // (a fault dialect's extents are not libtracer-01's)
		one := req.Input[frames[i].Offset:end]
		if a.Strip {
			b, err := libtracer.StripWith(checks, one, lim)
			if err != nil {
				return nil, err
			}
			stored = append(stored, b...)
		}
		if a.Forward != nil {
			b, err := libtracer.ForwardWith(checks, one, lim, trailer, clock)
			if err != nil {
				return nil, err
			}
			forwarded = append(forwarded, b...)
		}
	}
	if framing != nil {
		return nil, framing
	}
	if a.Strip {
		out["stored"] = spec.BytesMember(stored)
	}
	if a.Forward != nil {
		out["forwarded"] = spec.BytesMember(forwarded)
	}
	return out, nil
}

// cutViews cuts in at the given offsets, which must not decrease and lie
// in [0, len(in)]: len(cuts)+1 views, empty where two cuts coincide.
func cutViews(in []byte, cuts []int64) ([][]byte, error) {
	views := make([][]byte, 0, len(cuts)+1)
	prev := int64(0)
	for _, c := range cuts {
		if c < prev || c > int64(len(in)) {
			return nil, fmt.Errorf("%w: views: cut %d after %d or past the %d input bytes", testee.ErrInvalidRequest, c, prev, len(in))
		}
		views = append(views, in[prev:c:c])
		prev = c
	}
	return append(views, in[prev:]), nil
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
