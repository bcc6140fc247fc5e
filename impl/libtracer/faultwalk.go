package libtracer

import (
	"math"

	"github.com/threespec/conformance/impl/rules"
)

// misreading is how a receiver that ignores a rule, makes a named mistake
// or takes another reading of the spec departs from libtracer-01 (docs/
// libtracer.md "Fault proof"). The walker (walk.go) and the StreamDecoder
// run libtracer-01's steps themselves and, when a parse's rules.Checks name
// a libtracer fault, mutant or reading, ask their misreading at each step;
// the standard parse has none (nil) and reads no dialect.
//
// Its one implementation is faultReader, over a fault dialect (dialect.go).
// A new fault or mutant goes there and nowhere else: a dialect flag, the
// line of faultDialect that sets it from the Checks, and its effect in a
// method below (or in a dialect method these call). The methods take and
// return values, never a pointer into the walker, so that the standard
// walker stays on the stack.
type misreading interface {
	// limits are MAX_TLV_BYTES and the work-stack budget under lim.
	limits(lim Limits) (maxLen uint64, budget int)

	// Step 1, the header at off (source coordinates; base is added to
	// reported offsets): read from its first n bytes hb and checked,
	// with what the receiver does to it (the walker's header).
	header(hb [6]byte, n int, src source, base, off int64, max uint64, nested bool) (Header, int, error)
	// checkHeader is the header check alone (the StreamDecoder's); off
	// is the reported offset.
	checkHeader(hb [6]byte, n int, off int64, max uint64, nested bool) (Header, int, error)
	// extent is the size of a frame with header h.
	extent(h Header) uint64
	// truncated decides, when done, a top-level frame needing total
	// bytes where fewer are left; else the walk goes on over src.
	truncated(src source, base, off int64, h Header, total uint64) (next source, end int64, err error, done bool)
	// truncation is the receiver's own report of a datagram truncation
	// at off, or nil for the spec's.
	truncation(off int64) error
	// dropped reports a top-level frame left out of the result.
	dropped(h Header) bool
	// errorStops reports that an error inside a frame breaks framing.
	errorStops() bool
	// stopsAfter reports that nothing after a frame with header h is
	// parsed, in its parent or in the datagram.
	stopsAfter(h Header) bool
	// outer checks, at off, the type of a top-level header h.
	outer(h Header, off int64) error

	// The parts of a frame, and steps 2 to 5.
	layout(base, pos int64, h Header, top bool) (shape, place, bool, error)
	crc(src source, base, pos int64, h Header, p place, walk, preverified bool) (uint32, error)
	readStamp(src source, at int64, s shape) Timestamp
	stamp(ts Timestamp, anchor uint64, hasAnchor bool, at int64) (Timestamp, error)
	// anchor is what a frame's children resolve relative stamps
	// against, and whether the frame's own resolved stamp also becomes
	// its parent's anchor for its next children.
	anchor(stamped bool, own, inherited uint64, hasInherited, top bool) (a uint64, has, sibling bool)
	known(t uint8) bool
	// tooDeep confirms that depth open levels reach the budget.
	tooDeep(depth, budget int) bool
	// payload is the payload of an opaque frame, and whether the frame
	// is reported.
	payload(src source, h Header, p place) ([]byte, bool)
	// popsAtPayloadEnd reports that the cursor stays at a closed child's
	// payload end, depth levels open.
	popsAtPayloadEnd(rope bool, depth int) bool

	// A stream receiver.
	streamEnd(off int64) error                // the stream closed between frames; nil: a clean end
	streamCRC() (preverify, payloadOnly bool) // how the top-level CRC is accumulated
	streamWaits() bool                        // waits for bytes not yet arrived
	streamDown(off int64) error               // the report of a stream closed inside a frame, or nil for the spec's
}

// newMisreading is the misreading of the Checks c: nil unless they name a
// libtracer fault, mutant or reading.
func newMisreading(c rules.Checks) misreading {
	d := dialectOf(c)
	if d.std {
		return nil
	}
	return &faultReader{d: d, c: c}
}

// faultReader is the misreading of a fault dialect, one per parse: it
// keeps what the receiver remembers across frames.
type faultReader struct {
	d         *dialect
	c         rules.Checks
	sticky    Opt // CW and TF of the first TLV (LT-IOP-01)
	hasSticky bool
}

func (r *faultReader) limits(lim Limits) (uint64, int) {
	return r.d.maxLen(lim), r.d.budget(lim, r.c)
}

func (r *faultReader) checkHeader(hb [6]byte, n int, off int64, max uint64, nested bool) (Header, int, error) {
	return r.d.checkHeader(r.c, &hb, n, off, max, nested)
}

func (r *faultReader) header(hb [6]byte, n int, src source, base, off int64, max uint64, nested bool) (Header, int, error) {
	h, need, err := r.checkHeader(hb, n, base+off, max, nested)
	if err != nil || need > 0 {
		return h, need, err
	}
	d := r.d
	if d.stickyVariants { // LT-IOP-01: CW and TF fixed by the first TLV, as if negotiated
		if !r.hasSticky {
			r.sticky, r.hasSticky = h.Opt&(OptCW|OptTF), true
		} else {
			h.Opt = h.Opt&^(OptCW|OptTF) | r.sticky
		}
	}
	if d.ropeSplitHeader && src.rope != nil && src.rope.viewEnd(off) < off+int64(d.shapes[h.Opt].h) {
		// LT-CTX-03: a header that spans two views read as cut short.
		if !r.c.Enforced(RuleTruncDatagram) {
			return h, 0, nil
		}
		return h, 0, rules.Fail(RuleTruncDatagram, CodeTruncated, base+off, "fault: a header across two views read as truncated")
	}
	if d.unknownFatal && !d.known(h.Type) {
		return h, 0, faultErr(RuleUnkNoCrash, CodeInvalid, base+off, "fault: an unknown type code stops the receiver")
	}
	if !nested {
		return h, 0, r.outer(h, base+off)
	}
	return h, 0, nil
}

func (r *faultReader) outer(h Header, off int64) error {
	if r.d.unknownOuterFraming && !r.d.known(h.Type) {
		return faultErr(RuleTypeLayering, CodeTypeMismatch, off, "fault: an unknown outer type breaks framing")
	}
	return nil
}

func (r *faultReader) extent(h Header) uint64 { return r.d.extent(h) }

func (r *faultReader) truncated(src source, base, off int64, h Header, total uint64) (source, int64, error, bool) {
	d := r.d
	size := src.size()
	switch {
	case d.zeroFill && total-uint64(size-off) <= 64<<10:
		// LT-TRUNC-04: read past the end of the buffer, into zeros (up to
		// 64 KiB past it: the fault's memory stays bounded too).
		buf := append(src.bytes(0, size), make([]byte, total-uint64(size-off))...)
		return source{buf: buf}, 0, nil, false
	case d.crcBeforeLength && d.shapes[h.Opt].crc > 0:
		// LT-TRUNC-05: the payload read and its CRC compared before the
		// length was checked against the bytes present.
		return src, off, faultErr(RuleCRCVerify32, CodeCRCFail, base+off, "fault: the CRC of a cut frame compared before its length was checked"), true
	}
	return src, 0, nil, false
}

func (r *faultReader) truncation(off int64) error {
	if r.d.dgramTruncAsDown {
		return faultErr(RuleTruncDatagram, CodeTransportDown, off, "fault: datagram truncation reported as the stream's")
	}
	return nil
}

// dropped: LT-EX-01, an empty opaque frame dropped as padding.
func (r *faultReader) dropped(h Header) bool {
	return r.d.zeroLenDropped && h.Length == 0 && !r.d.walks(h.Type, h.Opt, true)
}

// errorStops: LT-CTX-04's fault, LT-READ-08's alternative.
func (r *faultReader) errorStops() bool { return r.d.frameErrStops }

// stopsAfter: LT-UNK-02, nothing after an unknown TLV is parsed.
func (r *faultReader) stopsAfter(h Header) bool { return r.d.unknownStops && !r.d.known(h.Type) }

// layout is the shape and place of the frame at pos as the dialect reads
// them, whether it walks the frame, and the frame's own fault checks.
func (r *faultReader) layout(base, pos int64, h Header, top bool) (shape, place, bool, error) {
	d := r.d
	s, p := d.shapes[h.Opt], d.place(pos, h)
	walk := d.walks(h.Type, h.Opt, top)
	if d.unalignedInvalid {
		// LT-FRAME-12: a receiver that requires natural alignment.
		lw := int64(2)
		if s.len32 {
			lw = 4
		}
		if (base+pos+2)%lw != 0 || (s.ts > 0 && (base+p.tsAt)%int64(s.ts) != 0) || (s.crc > 0 && (base+p.crcAt)%int64(s.crc) != 0) {
			return s, p, walk, faultErr(RuleFrameUnaligned, CodeInvalid, base+pos, "fault: an unaligned length or trailer field")
		}
	}
	if d.emptyPL1Invalid && walk && h.Length == 0 {
		return s, p, walk, faultErr(RuleNestEmpty, CodeInvalid, base+pos, "fault: a structured frame without children")
	}
	return s, p, walk, nil
}

// crc reads the trailer_crc of the frame at pos as the dialect does and
// checks it as the dialect computes it, at once (no lazy split).
func (r *faultReader) crc(src source, base, pos int64, h Header, p place, walk, preverified bool) (uint32, error) {
	d := r.d
	s := d.shapes[h.Opt]
	var tb [4]byte
	src.readClamped(tb[:s.crc], p.crcAt)
	want := d.crcField(tb[:], s.crc, s.cw16)
	if preverified || (d.unknownNoCRC && !d.known(h.Type)) || (d.skipStructuredCRC && walk) {
		return want, nil
	}
	got := d.frameCRC(r.c, src.clamped, pos, s, p, walk)
	if got == want {
		return want, nil
	}
	if d.crcLenientTS && s.ts > 0 {
		return want, nil // LT-CRC-15: a mismatch of a stamped frame tolerated, the stamp passed on as received
	}
	return want, crcMismatch(r.c, s.cw16, base+pos, base+p.crcAt, want, got)
}

// readStamp reads the trailer_ts at at in the dialect's byte order
// (LT-FRAME-06, LT-FRAME-07), unresolved.
func (r *faultReader) readStamp(src source, at int64, s shape) Timestamp {
	var tb [8]byte
	src.readClamped(tb[:s.ts], at)
	if s.rel {
		return Timestamp{Relative: true, Rel: int32(r.d.u32(tb[:4]))}
	}
	abs := r.d.u64(tb[:])
	return Timestamp{Abs: abs, Resolved: abs}
}

// stamp applies the stamp faults to ts, resolved against anchor.
func (r *faultReader) stamp(ts Timestamp, anchor uint64, hasAnchor bool, at int64) (Timestamp, error) {
	d := r.d
	switch {
	case ts.Relative && d.relNoSignExt: // LT-FRAME-07: the i32 not sign-extended
		ts.Resolved = anchor + uint64(uint32(ts.Rel))
	case ts.Relative && d.relUnresolved: // LT-TS-02: the offset taken for the time
		ts.Resolved = uint64(int64(ts.Rel))
	case !ts.Relative && d.absRelative && hasAnchor: // LT-TS-01: an absolute stamp taken relative
		ts.Resolved = anchor + ts.Abs
	case ts.Relative && d.tsSaturate: // LT-TS-07: no wrap-around, the sum clamped to the u64 range
		switch rl := int64(ts.Rel); {
		case rl < 0 && uint64(-rl) > anchor:
			ts.Resolved = 0
		case rl > 0 && anchor > math.MaxUint64-uint64(rl):
			ts.Resolved = math.MaxUint64
		}
	}
	if d.absSigned && !ts.Relative && ts.Abs > math.MaxInt64 {
		// Fault of LT-TS-08: the stamp read into a signed int64 and a
		// negative time refused.
		return ts, faultErr(RuleTSAbsAny, CodeInvalid, at, "fault: absolute trailer_ts above 2^63-1 read as a negative time")
	}
	return ts, nil
}

func (r *faultReader) anchor(stamped bool, own, inherited uint64, hasInherited, top bool) (uint64, bool, bool) {
	d := r.d
	a, has := inherited, hasInherited
	if stamped && !(d.anchorOutermost && hasInherited) { // LT-TS-03's fault: the outermost stamp anchors
		a, has = own, true
	}
	if !stamped && d.anchorDirectParent {
		has = false // fault: only a parent's own stamp anchors its children
	}
	return a, has, stamped && d.siblingChain && !top // fault: the next sibling resolves against this one
}

func (r *faultReader) known(t uint8) bool { return r.d.known(t) }

func (r *faultReader) tooDeep(depth, budget int) bool {
	return !(r.d.budgetOffByOne && depth == budget)
}

func (r *faultReader) payload(src source, h Header, p place) ([]byte, bool) {
	d := r.d
	if d.zeroLenDropped && h.Length == 0 {
		return nil, false
	}
	pe := p.pe
	switch {
	case d.payloadWithTrailer: // fault: the trailer reported as payload
		pe = p.end
	case d.ropeOneView && src.rope != nil && pe > p.ps: // fault: the payload read from its first view only
		pe = min(pe, src.rope.viewEnd(p.ps))
	}
	return src.clamped(p.ps, pe), true
}

func (r *faultReader) popsAtPayloadEnd(rope bool, depth int) bool {
	return r.d.popNoTrailer && !rope && depth > 1 // fault: the cursor does not step over the child's trailer
}

func (r *faultReader) streamEnd(off int64) error {
	if r.d.streamEndDown { // fault: the end of the stream taken for a broken transport
		return faultErr(RuleTruncEmptyStream, CodeTransportDown, off, "fault: the stream closed between frames")
	}
	return nil
}

// streamCRC: a fault dialect leaves the CRC to the walker, but for
// LT-CRC-14's own fault: the trailer_ts left out of the accumulator.
func (r *faultReader) streamCRC() (bool, bool) { return r.d.streamCRCPayload, r.d.streamCRCPayload }

func (r *faultReader) streamWaits() bool { return !r.d.streamNoWait }

func (r *faultReader) streamDown(off int64) error {
	if r.d.streamDownAsTrunc {
		return faultErr(RuleTruncStreamDown, CodeTruncated, off, "fault: a closed stream reported as datagram truncation")
	}
	return nil
}

// readClamped copies len(p) bytes at off into p; the bytes past the
// source's end read as zeros (a fault dialect's places may lie there).
func (s source) readClamped(p []byte, off int64) {
	clear(p)
	if n := min(int64(len(p)), s.size()-off); off < s.size() && n > 0 {
		s.read(p[:n], off)
	}
}

// clamped returns [a, b) clamped to the source.
func (s source) clamped(a, b int64) []byte {
	a, b = max(min(a, s.size()), 0), max(min(b, s.size()), 0)
	if b <= a {
		return []byte{}
	}
	return s.bytes(a, b)
}
