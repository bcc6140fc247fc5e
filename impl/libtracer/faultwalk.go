package libtracer

import (
	"math"

	"github.com/threespec/conformance/impl/rules"
)

// The walker's fault paths: what a receiver of a fault dialect (dialect.go)
// does besides reading other widths and places. The walker calls them only
// when its dialect is not stdDialect.

// faultHeader applies the header faults to h, the checked header at off.
func (w *walker) faultHeader(off int64, h Header, nested bool) (Header, int, error) {
	d := w.d
	if d.stickyVariants { // LT-IOP-01: CW and TF fixed by the first TLV, as if negotiated
		if !w.hasSticky {
			w.sticky, w.hasSticky = h.Opt&(OptCW|OptTF), true
		} else {
			h.Opt = h.Opt&^(OptCW|OptTF) | w.sticky
		}
	}
	if d.ropeSplitHeader && w.src.rope != nil && w.src.rope.viewEnd(off) < off+int64(d.shapes[h.Opt].h) {
		// LT-CTX-03: a header that spans two views read as cut short.
		return h, 0, rules.Fail(RuleTruncDatagram, CodeTruncated, w.base+off, "fault: a header across two views read as truncated")
	}
	if d.unknownFatal && !d.known(h.Type) {
		return h, 0, faultErr(RuleUnkNoCrash, CodeInvalid, w.base+off, "fault: an unknown type code stops the receiver")
	}
	if d.unknownOuterFraming && !nested && !d.known(h.Type) {
		return h, 0, faultErr(RuleTypeLayering, CodeTypeMismatch, w.base+off, "fault: an unknown outer type breaks framing")
	}
	return h, 0, nil
}

// faultTruncated handles, for a fault dialect, a top-level frame at off
// with header h that needs total bytes where fewer are left. done reports
// that the fault decided (end, err).
func (w *walker) faultTruncated(off int64, h Header, total uint64) (end int64, err error, done bool) {
	d := w.d
	size := w.src.size()
	switch {
	case d.zeroFill && total-uint64(size-off) <= 64<<10:
		// LT-TRUNC-04: read past the end of the buffer, into zeros (up to
		// 64 KiB past it: the fault's memory stays bounded too).
		buf := append(w.src.bytes(0, size), make([]byte, total-uint64(size-off))...)
		w.src = source{buf: buf}
		return 0, nil, false
	case d.crcBeforeLength && d.shapes[h.Opt].crc > 0:
		// LT-TRUNC-05: the payload read and its CRC compared before the
		// length was checked against the bytes present.
		return off, faultErr(RuleCRCVerify32, CodeCRCFail, w.base+off, "fault: the CRC of a cut frame compared before its length was checked"), true
	}
	return 0, nil, false
}

// faultItem is checked for a top-level frame whose extent is present:
// skip drops it from the result.
func (w *walker) faultItem(off int64, h Header) (skip bool, err error) {
	// LT-EX-01: an empty opaque frame dropped as padding.
	return w.d.zeroLenDropped && h.Length == 0 && !w.d.walks(h.Type, h.Opt, true), nil
}

// faultFrame sets the shape and place of the frame at pos as the fault
// dialect reads them, says whether it walks the frame, and makes the
// frame's fault checks.
func (w *walker) faultFrame(pos int64, h Header, top bool, sh *shape, place *place) (walk bool, err error) {
	d := w.d
	*sh, *place = d.shapes[h.Opt], d.place(pos, h)
	walk = d.walks(h.Type, h.Opt, top)
	return walk, w.faultChecks(pos, h, *place, walk)
}

func (w *walker) faultChecks(pos int64, h Header, pl place, walk bool) error {
	d := w.d
	s := d.shapes[h.Opt]
	if d.unalignedInvalid {
		// LT-FRAME-12: a receiver that requires natural alignment.
		lw := int64(2)
		if s.len32 {
			lw = 4
		}
		if (w.base+pos+2)%lw != 0 || (s.ts > 0 && (w.base+pl.tsAt)%int64(s.ts) != 0) || (s.crc > 0 && (w.base+pl.crcAt)%int64(s.crc) != 0) {
			return faultErr(RuleFrameUnaligned, CodeInvalid, w.base+pos, "fault: an unaligned length or trailer field")
		}
	}
	if d.emptyPL1Invalid && walk && h.Length == 0 {
		return faultErr(RuleNestEmpty, CodeInvalid, w.base+pos, "fault: a structured frame without children")
	}
	return nil
}

// faultCRC reads the trailer_crc (in tb) of the frame at pos as the fault
// dialect does and checks it as the dialect computes it, at once (no lazy
// split).
func (w *walker) faultCRC(pos int64, h Header, p *place, walk bool, fi *frameInfo, tb *[4]byte, top bool) error {
	d := w.d
	s := d.shapes[h.Opt]
	pl := *p
	fi.crc = d.crcField(tb[:], s.crc, s.cw16)
	want := fi.crc
	if (top && w.preverified) || (d.unknownNoCRC && !d.known(h.Type)) || (d.skipStructuredCRC && walk) {
		return nil
	}
	got := d.frameCRC(w.bytes, pos, s, pl, walk)
	if got == want {
		return nil
	}
	if d.crcLenientTS && s.ts > 0 {
		return nil // LT-CRC-15: a mismatch of a stamped frame tolerated, the stamp passed on as received
	}
	return crcMismatch(s.cw16, w.base+pos, w.base+pl.crcAt, want, got)
}

// faultStamp applies the stamp faults to ts, resolved against anchor.
func (w *walker) faultStamp(ts *Timestamp, anchor uint64, hasAnchor bool) {
	d := w.d
	switch {
	case ts.Relative && d.relNoSignExt: // LT-FRAME-07: the i32 not sign-extended
		ts.Resolved = anchor + uint64(uint32(ts.Rel))
	case ts.Relative && d.relUnresolved: // LT-TS-02: the offset taken for the time
		ts.Resolved = uint64(int64(ts.Rel))
	case !ts.Relative && d.absRelative && hasAnchor: // LT-TS-01: an absolute stamp taken relative
		ts.Resolved = anchor + ts.Abs
	case ts.Relative && d.tsSaturate: // LT-TS-07: no wrap-around, the sum clamped to the u64 range
		switch r := int64(ts.Rel); {
		case r < 0 && uint64(-r) > anchor:
			ts.Resolved = 0
		case r > 0 && anchor > math.MaxUint64-uint64(r):
			ts.Resolved = math.MaxUint64
		}
	}
}
