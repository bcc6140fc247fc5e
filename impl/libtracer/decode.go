package libtracer

import (
	"errors"
	"sync"

	"github.com/threespec/conformance/impl/rules"
)

// Frame is one TLV of a parse result: a node of the project's frame tree,
// the one libtracer.decode returns as JSON and the encoders take.
type Frame struct {
	// Offset is the byte offset of the frame's first header byte in the
	// decoded input (the stream, for a StreamDecoder). Encoders ignore it.
	Offset int64
	Type   uint8
	Opt    Opt
	// Length is the declared payload length. Encoders ignore it and write
	// the length of the payload or children they are given.
	Length uint32
	// Payload is the payload of a frame kept as opaque bytes: PL=0, or an
	// unknown type nested under PL=1 (LT-UNK-06). It is nil when the frame
	// was walked. Decode returns subslices of its input; DecodeRope and
	// StreamDecoder return copies.
	Payload []byte
	// Children are the child TLVs of a walked structured frame (PL=1 and a
	// known type): non-nil, empty for an empty payload (LT-NEST-06).
	Children []Frame
	// TS is the trailer_ts, nil when TS=0.
	TS *Timestamp
	// CRC is the trailer_crc as received (and verified), nil when CR=0.
	CRC *Checksum
	// Err is set on a top-level frame that was rejected although its
	// extent is known (crc_fail, path::invalid, type_mismatch,
	// nesting_too_deep, or INVALID inside it): Type, Opt and Length are
	// then its header's, and Payload, Children, TS and CRC are empty
	// (LT-CTX-04).
	Err *rules.Violation
}

// Walked reports whether f's payload was parsed into children.
func (f *Frame) Walked() bool { return f.Children != nil }

// Timestamp is a trailer_ts (§Timestamp form).
type Timestamp struct {
	Relative bool   // TF=1
	Abs      uint64 // the absolute stamp as received (TF=0)
	Rel      int32  // the relative offset as received (TF=1)
	// Resolved is the absolute wire-time: Abs, or the anchor's resolved
	// time plus Rel modulo 2^64 (LT-TS-02, LT-TS-03, LT-TS-07). The smallest-variant
	// encoder takes only Resolved.
	Resolved uint64
}

// Checksum is a trailer_crc.
type Checksum struct {
	Width int    // 32 (CRC-32C) or 16 (CRC-16-CCITT)
	Value uint32 // as received
}

// Result is what Decode and DecodeRope return.
type Result struct {
	// Frames are the top-level TLVs in input order, each parsed or, when
	// its extent is known, rejected with Err set (LT-CTX-04).
	Frames []Frame
	// Err is the error that broke framing and stopped the parse: an
	// INVALID header, a truncated frame, an empty datagram. Nil when every
	// byte was framed.
	Err *rules.Violation
}

// FirstError returns the first error in input order: the first rejected
// frame's, else Err; nil when the input was accepted whole. It is the
// verdict of libtracer.decode.
func (r *Result) FirstError() *rules.Violation {
	for i := range r.Frames {
		if r.Frames[i].Err != nil {
			return r.Frames[i].Err
		}
	}
	return r.Err
}

// Decode parses buf as one datagram in the wire-receive context (LT-CTX-01):
// every top-level TLV, back to back. Truncation is tr::frame::truncated
// (LT-TRUNC-03). Opaque payloads in the result share buf's memory.
//
// Decode and the other entry points without a Checks parameter take the
// process-global switches (rules.Current, TRANSITIONAL, issue 16); their
// With forms take the rules.Checks the parse carries, the zero Checks being
// libtracer-01.
func Decode(buf []byte, lim Limits) *Result { return DecodeWith(rules.Current(), buf, lim) }

// DecodeWith is Decode under the Checks c.
func DecodeWith(c rules.Checks, buf []byte, lim Limits) *Result {
	return decode(c, source{buf: buf}, lim, 0, false)
}

// DecodeRope parses the bytes of r as Decode parses a datagram, in the
// in-memory walk context (LT-CTX-02): a TLV's header, payload and trailer
// may each span several views. The result equals Decode's of the same bytes
// (LT-CTX-03), except that opaque payloads are copies.
func DecodeRope(r *Rope, lim Limits) *Result { return DecodeRopeWith(rules.Current(), r, lim) }

// DecodeRopeWith is DecodeRope under the Checks c.
func DecodeRopeWith(c rules.Checks, r *Rope, lim Limits) *Result {
	return decode(c, source{rope: r}, lim, 0, false)
}

func decode(c rules.Checks, src source, lim Limits, base int64, preverified bool) *Result {
	t := &treeSink{base: base}
	w := newWalker(c, src, t, lim)
	w.base, w.preverified = base, preverified
	err := w.run()
	return &Result{Frames: t.items, Err: asViolation(err)}
}

func asViolation(err error) *rules.Violation {
	if v, ok := err.(*rules.Violation); ok || err == nil {
		return v
	}
	var v *rules.Violation
	if errors.As(err, &v) {
		return v
	}
	return nil
}

// treeSink builds the frame tree.
type treeSink struct {
	base    int64 // the walker's base
	items   []Frame
	parents []*Frame // open walked frames, outermost first
}

func (t *treeSink) beginItem(off int64, h Header) {
	t.items = append(t.items, Frame{Offset: off, Type: h.Type, Opt: h.Opt, Length: h.Length})
	t.parents = t.parents[:0]
}

// slot returns the frame the walker reports next: the current item for the
// top-level frame, else a new last child of the innermost open frame. A
// pointer into a parent's Children stays valid while that frame is open,
// because the parent gets no new child until it closes.
func (t *treeSink) slot(fi *frameInfo) *Frame {
	var f *Frame
	if len(t.parents) == 0 {
		f = &t.items[len(t.items)-1]
	} else {
		p := t.parents[len(t.parents)-1]
		p.Children = append(p.Children, Frame{})
		f = &p.Children[len(p.Children)-1]
		f.Offset = t.base + fi.off
	}
	f.Type, f.Opt, f.Length = fi.h.Type, fi.h.Opt, fi.h.Length
	if fi.hasTS {
		ts := fi.ts
		f.TS = &ts
	}
	if fi.hasCRC {
		w := 32
		if fi.h.Opt.Has(OptCW) {
			w = 16
		}
		f.CRC = &Checksum{Width: w, Value: fi.crc}
	}
	return f
}

func (t *treeSink) open(fi *frameInfo) {
	f := t.slot(fi)
	f.Children = []Frame{}
	t.parents = append(t.parents, f)
}

func (t *treeSink) leaf(fi *frameInfo, payload []byte) {
	f := t.slot(fi)
	f.Payload = payload
}

func (t *treeSink) close() { t.parents = t.parents[:len(t.parents)-1] }

func (t *treeSink) failItem(err error) {
	it := &t.items[len(t.items)-1]
	*it = Frame{Offset: it.Offset, Type: it.Type, Opt: it.Opt, Length: it.Length, Err: asViolation(err)}
	t.parents = t.parents[:0]
}

// Validate checks buf as Decode does, without building a tree, and returns
// the number of top-level TLVs it framed and the first error in input
// order (Result.FirstError). It allocates nothing unless it fails: its work
// stack comes from a pool.
func Validate(buf []byte, lim Limits) (frames int, err error) {
	return ValidateWith(rules.Current(), buf, lim)
}

// ValidateWith is Validate under the Checks c.
func ValidateWith(c rules.Checks, buf []byte, lim Limits) (frames int, err error) {
	w := newWalker(c, source{buf: buf}, nil, lim)
	s := stackPool.Get().(*[]level)
	w.stack = (*s)[:0]
	if err := w.run(); err != nil && w.first == nil {
		w.first = err
	}
	if cap(w.stack) <= maxPooledLevels {
		*s = w.stack[:0]
		stackPool.Put(s)
	}
	return w.items, w.first
}

// maxPooledLevels bounds the work stacks Validate keeps for reuse.
const maxPooledLevels = 1 << 12

var stackPool = sync.Pool{New: func() any { s := make([]level, 0, 16); return &s }}
