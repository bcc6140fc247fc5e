package libtracer

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/threespec/conformance/impl/rules"
)

// A receiver's whole answer to one input: the input taken from a transport
// (or cut into views), parsed back to back, judged as a verdict or frame by
// frame, and, for a recorder or a forwarder, carried through the trailer
// lifecycle. It is what libtracer.decode of the testee protocol asks
// (docs/PROTOCOL.md, section libtracer.decode), without the protocol's
// argument and result shapes: impl/libtracer/tracerspec/ops.go maps those.

// Transport is how the bytes a receiver parses reached it (§Two parser
// contexts, §Truncation handling).
type Transport uint8

// Transports.
const (
	// Datagram: one contiguous wire buffer (LT-CTX-01); bytes that end
	// inside a frame are tr::frame::truncated (LT-TRUNC-03), and an empty
	// datagram is too (LT-TRUNC-08).
	Datagram Transport = iota
	// Stream: what a stream (TCP, UART, I²C) delivered before it closed;
	// closing inside a frame is tr::transport::down (LT-TRUNC-02), closing
	// between frames or before any byte ends cleanly (LT-TRUNC-09).
	Stream
)

// ReceiveOptions are a receiver's options for one input.
type ReceiveOptions struct {
	Transport Transport
	// Views, when not nil, are cut offsets, not decreasing and each in
	// [0, len(input)]: the datagram is cut there into len(Views)+1 views
	// (empty where two cuts coincide) and walked as a rope of views, the
	// in-memory context (LT-CTX-02), whose answer is the datagram's
	// whatever the cuts (LT-CTX-03). Datagram transport only.
	Views []int64
	// Limits are the receiver's bounds (MAX_TLV_BYTES, the work-stack
	// budget); the zero Limits are the defaults.
	Limits Limits
	// PerFrame asks for every frame instead of a verdict: a top-level frame
	// rejected although its extent is known is reported in its
	// Frame.Err and the parse goes on (LT-CTX-04, LT-UNK-02); an error
	// that breaks framing still rejects the input. Without it any error
	// rejects the input: the first in byte order.
	PerFrame bool
	// Strip makes a recorder: Report.Stored gets the at-rest bytes of
	// every top-level frame (LT-LIFE-01, LT-LIFE-03, LT-LIFE-05). Not with
	// PerFrame.
	Strip bool
	// Forward, when not nil, makes a forwarder (or a replay of at-rest
	// bytes): Report.Forwarded gets every top-level frame stripped and sent
	// again with this fresh trailer (LT-LIFE-04, LT-LIFE-05). Not with
	// PerFrame.
	Forward *Trailer
	// Clock gives the wire-time of Forward's trailer_ts; nil is
	// SystemClock.
	Clock Clock
}

// Report is a receiver's answer to an input it accepted.
type Report struct {
	// Frames are the top-level frames in input order, each with its
	// subtree; with PerFrame, a rejected one has Frame.Err set.
	Frames []Frame
	// Stored holds, with Strip, the at-rest bytes of every top-level frame
	// back to back (nil when there are none).
	Stored []byte
	// Forwarded holds, with Forward, every top-level frame with its fresh
	// trailer, back to back (nil when there are none).
	Forwarded []byte
}

// OptionsError is Receive's error for options it cannot act on; it is
// returned before any byte of the input is parsed.
type OptionsError struct {
	// Malformed is true for an option value out of its range (a view cut
	// that decreases or lies past the input), false for options Receive
	// does not implement together (views of a stream; PerFrame with Strip
	// or Forward).
	Malformed bool
	Reason    string
}

func (e *OptionsError) Error() string { return e.Reason }

// Receive parses in as a receiver with the options o does and returns
// its report, or the error that rejects the input: a *rules.Violation (the
// first in byte order, or the one that broke framing), or an
// *OptionsError. It is ReceiveWith under the zero Checks (libtracer-01).
func Receive(in []byte, o ReceiveOptions) (*Report, error) {
	return ReceiveWith(rules.Checks{}, in, o)
}

// ReceiveWith is Receive under the Checks c, which every parse, strip and
// forward it runs carries.
func ReceiveWith(c rules.Checks, in []byte, o ReceiveOptions) (*Report, error) {
	lifecycle := o.Strip || o.Forward != nil
	if lifecycle && o.PerFrame {
		return nil, &OptionsError{Reason: "strip and forward take report verdict"}
	}
	frames, framing, err := receiveFrames(c, in, o)
	if err != nil {
		return nil, err
	}
	if lifecycle { // strip and forward validate each frame themselves (LT-LIFE-03)
		return carry(c, in, o, frames, framing)
	}
	// The verdict is the first error in byte order: a frame rejected before
	// the point where framing broke comes first (docs/libtracer.md,
	// Result.FirstError). Every frame instead lists the rejected ones and
	// goes on (LT-CTX-04, LT-UNK-02), up to a framing error, which rejects.
	if !o.PerFrame {
		for i := range frames {
			if frames[i].Err != nil {
				return nil, frames[i].Err
			}
		}
	}
	if framing != nil {
		return nil, framing
	}
	return &Report{Frames: frames}, nil
}

// receiveFrames parses in as o's transport, or o's views, carries it:
// frames are the top-level frames parsed before framing broke, if it did,
// and framing is then the error that broke it (LT-CTX-04); err is an
// *OptionsError.
func receiveFrames(c rules.Checks, in []byte, o ReceiveOptions) (frames []Frame, framing, err error) {
	var res *Result
	switch {
	case o.Views != nil:
		if o.Transport != Datagram {
			return nil, nil, &OptionsError{Reason: "views are cuts of a datagram"}
		}
		views, err := cutViews(in, o.Views)
		if err != nil {
			return nil, nil, err
		}
		res = DecodeRopeWith(c, NewRope(views...), o.Limits) // LT-CTX-02, LT-CTX-03
	case o.Transport == Datagram:
		res = DecodeWith(c, in, o.Limits) // LT-CTX-01, LT-TRUNC-03, LT-TRUNC-08
	case o.Transport == Stream:
		d := NewStreamDecoderWith(c, bytes.NewReader(in), o.Limits) // LT-TRUNC-01, LT-TRUNC-02
		for {
			f, err := d.Next()
			if errors.Is(err, io.EOF) { // closed between frames: a clean end (LT-TRUNC-09)
				return frames, nil, nil
			}
			if err != nil {
				return frames, err, nil
			}
			frames = append(frames, f)
		}
	default:
		return nil, nil, &OptionsError{Reason: fmt.Sprintf("transport %d", o.Transport)}
	}
	if res.Err != nil {
		return res.Frames, res.Err, nil
	}
	return res.Frames, nil, nil
}

// carry takes each frame before the point where framing broke, if it did,
// in byte order: validated and stripped (LT-LIFE-03), then stored
// (LT-LIFE-01, LT-LIFE-05) or sent again with a fresh trailer (LT-LIFE-04).
// The first error rejects the input, framing last.
func carry(c rules.Checks, in []byte, o ReceiveOptions, frames []Frame, framing error) (*Report, error) {
	clock := o.Clock
	if clock == nil {
		clock = SystemClock
	}
	r := &Report{Frames: frames}
	for i := range frames {
		end := int64(len(in))
		if i+1 < len(frames) {
			end = frames[i+1].Offset
		} else if framing != nil {
			end = frames[i].Offset + int64(frames[i].Opt.HeaderSize()) + int64(frames[i].Length) + int64(frames[i].Opt.TrailerSize())
		}
		end = min(end, int64(len(in))) // (a fault dialect's extents are not libtracer-01's)
		one := in[frames[i].Offset:end]
		if o.Strip {
			b, err := StripWith(c, one, o.Limits)
			if err != nil {
				return nil, err
			}
			r.Stored = append(r.Stored, b...)
		}
		if o.Forward != nil {
			b, err := ForwardWith(c, one, o.Limits, *o.Forward, clock)
			if err != nil {
				return nil, err
			}
			r.Forwarded = append(r.Forwarded, b...)
		}
	}
	if framing != nil {
		return nil, framing
	}
	return r, nil
}

// cutViews cuts in at the given offsets, which must not decrease and lie
// in [0, len(in)]: len(cuts)+1 views, empty where two cuts coincide.
func cutViews(in []byte, cuts []int64) ([][]byte, error) {
	views := make([][]byte, 0, len(cuts)+1)
	prev := int64(0)
	for _, c := range cuts {
		if c < prev || c > int64(len(in)) {
			return nil, &OptionsError{Malformed: true, Reason: fmt.Sprintf("views: cut %d after %d or past the %d input bytes", c, prev, len(in))}
		}
		views = append(views, in[prev:c:c])
		prev = c
	}
	return append(views, in[prev:]), nil
}
