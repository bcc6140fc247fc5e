package libtracer

import (
	"math"

	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/internal/reading"
)

// The walker: one iterative parser for both contexts (§Two parser contexts,
// §Iterative parsing requirement).
//
// It parses one top-level TLV at a time. Its only stack is the explicit
// work stack w.stack, one level per open structured TLV, never the call
// stack (LT-NEST-01). The order of checks for each frame, the one every
// reader of this package sees:
//
//  1. the header, in byte order: type 0x00, reserved bits, length above
//     MAX_TLV_BYTES (INVALID), then the frame's extent against the bytes
//     available (truncated at the top level, INVALID inside a parent);
//  2. the frame's CRC (crc_fail);
//  3. its timestamp anchor (path::invalid);
//  4. its type, for a top-level TLV (type_mismatch);
//  5. the work-stack budget, for a structured TLV about to be walked
//     (nesting_too_deep);
//  6. its children, in order, each the same way.
//
// Step 2 holds for structured frames too: a frame's CRC is checked before
// anything inside it is interpreted, so a corrupted structured frame is
// crc_fail whatever its corrupted children look like. The walker computes
// structured CRCs lazily (see "Splitting a CRC" in crc.go) and, when a later
// check fails, first settles the CRCs of every open frame, outermost
// failure first (resolve).

// frameInfo is what the walker learned about one frame.
type frameInfo struct {
	off          int64 // first byte, source coordinates
	h            Header
	payloadStart int64
	payloadEnd   int64
	hasTS        bool
	ts           Timestamp
	hasCRC       bool
	crc          uint32
}

// level is one node of the work stack: an open structured TLV.
type level struct {
	off          int64 // first byte of the frame
	payloadStart int64
	payloadEnd   int64 // its children must end exactly here (LT-NEST-05)
	tsEnd        int64 // end of the CRC coverage (LT-CRC-11)
	frameEnd     int64
	anchor       uint64 // wire-time its children's relative stamps resolve against
	hasAnchor    bool
	crc          uint8  // CRC still to check: 0, 16 or 32
	head         uint32 // running CRC at payloadStart
	want         uint32 // trailer_crc as received
}

// walker parses; with tree set it builds the frame tree, else it only
// counts and keeps the first error (Validate).
type walker struct {
	src         source
	tree        *treeSink
	d           *dialect // how frames are read: stdDialect but under fault injection
	base        int64    // added to every reported offset
	maxLen      uint64
	budget      int
	preverified bool // the top-level CRC was checked as the bytes arrived (StreamDecoder)
	stack       []level
	r32, r16    crcReg
	items       int   // top-level TLVs framed
	first       error // the first rejected TLV's error
	sticky      Opt   // a fault dialect's CW and TF of the first TLV (LT-IOP-01)
	hasSticky   bool
}

func newWalker(src source, tree *treeSink, lim Limits) walker {
	d := currentDialect()
	return walker{src: src, tree: tree, d: d, maxLen: d.maxLen(lim), budget: d.budget(lim)}
}

// run walks every top-level TLV of the source as one datagram (or one
// complete stream frame) and returns the error that broke framing, if any.
func (w *walker) run() error {
	size := w.src.size()
	if size == 0 {
		// Decision (docs/libtracer.md): an empty datagram carries no
		// frame (LT-TRUNC-08). Under the reading LT-READ-01
		// empty-datagram-no-frames it holds no frame, like an empty stream.
		if reading.Is(ReadEmptyInput, AltEmptyDatagramNoFrames) {
			return nil
		}
		return rules.Fail(RuleTruncEmptyDatagram, CodeTruncated, w.base, "empty datagram: the minimum frame is 4 bytes")
	}
	for off := int64(0); off < size; {
		next, err := w.item(off)
		if err != nil {
			return err
		}
		// LT-UNK-02, LT-CTX-04: parsing continues with the next TLV.
		off = next
	}
	return nil
}

// header reads and checks the header at off, of which avail bytes lie
// inside the source or the parent payload.
func (w *walker) header(off, avail int64, nested bool) (Header, int, error) {
	var hb [6]byte
	n := min(avail, 6)
	w.src.read(hb[:n], off)
	h, need, err := checkHeader(&hb, int(n), w.base+off, w.maxLen, w.d, nested)
	if w.d.std || err != nil || need > 0 {
		return h, need, err
	}
	return w.faultHeader(off, h, nested)
}

// item parses the top-level TLV at off. It returns the offset after it, or
// an error that breaks framing. Errors inside a TLV whose extent is known
// go to the sink (LT-CTX-04).
func (w *walker) item(off int64) (int64, error) {
	size := w.src.size()
	h, need, err := w.header(off, size-off, false)
	if err != nil {
		return off, err
	}
	if need > 0 {
		// §Truncation handling: datagram truncation (LT-TRUNC-03).
		if err := w.truncated(w.base+off, "header needs %d more bytes, the datagram ends after %d", need, min(size-off, 6)); err != nil {
			return off, err
		}
		return size, nil // fault injected: drop the tail
	}
	// §Truncation handling: validate the length against the available
	// buffer before reading any payload byte (LT-TRUNC-05); the size
	// arithmetic is uint64 (LT-FRAME-10).
	total := h.FrameSize()
	if !w.d.std {
		total = w.d.extent(h)
	}
	if total > uint64(size-off) {
		if !w.d.std {
			if end, err, done := w.faultTruncated(off, h, total); done {
				return end, err
			}
		}
	}
	if total > uint64(w.src.size()-off) {
		if err := w.truncated(w.base+off, "frame (%s) needs %d bytes, the datagram has %d left", h, total, size-off); err != nil {
			return off, err
		}
		return size, nil
	}
	end := off + int64(total)
	if !w.d.std {
		if skip, err := w.faultItem(off, h); err != nil || skip {
			return end, err
		}
	}
	w.items++
	if w.tree != nil {
		w.tree.beginItem(w.base+off, h)
	}
	if err := w.frame(off, h); err != nil {
		if w.d.frameErrStops {
			return end, err // fault: an error inside a frame taken to break framing
		}
		if w.first == nil {
			w.first = err
		}
		if w.tree != nil {
			w.tree.failItem(err)
		}
	}
	if !w.d.std && w.d.unknownStops && !w.d.known(h.Type) {
		return size, nil // fault: nothing after an unknown TLV is parsed
	}
	return end, nil
}

// truncated is the datagram truncation at off (LT-TRUNC-03).
func (w *walker) truncated(off int64, format string, args ...any) error {
	if w.d.dgramTruncAsDown {
		return faultErr(RuleTruncDatagram, CodeTransportDown, off, "fault: datagram truncation reported as the stream's")
	}
	return rules.Fail(RuleTruncDatagram, CodeTruncated, off, format, args...)
}

// frame walks the top-level TLV at off, whose header h has been checked
// and whose extent lies inside the source.
func (w *walker) frame(off int64, h Header) error {
	w.stack = w.stack[:0]
	w.r32, w.r16 = crcReg{}, crcReg{}
	d := w.d
	std := d.std // fault-only checks below are skipped on this local
	pos := off
	for first := true; ; first = false {
		if !first {
			var ok bool
			var err error
			h, ok, err = w.child(pos)
			if err != nil {
				return w.resolve(err, nil)
			}
			if !ok { // fault injected: skip the rest of the parent
				pos = w.stack[len(w.stack)-1].payloadEnd
				goto pop
			}
		}
		{
			top := len(w.stack) == 0
			var pl place
			var sh shape
			var walk bool
			if std {
				// libtracer-01's layout (LT-FRAME-03..10), without the dialect.
				sh = shape{ts: uint8(h.Opt.TSSize()), rel: h.Opt.Has(OptTF), crc: uint8(h.Opt.CRCSize()), cw16: h.Opt.Has(OptCW)}
				pl.ps = pos + int64(h.Opt.HeaderSize())
				pl.pe = pl.ps + int64(h.Length)
				pl.tsAt = pl.pe
				pl.crcAt = pl.pe + int64(sh.ts)
				pl.end = pl.crcAt + int64(sh.crc)
				walk = h.Opt.Has(OptPL) && Known(h.Type) // LT-OPT-04, LT-UNK-06
			} else {
				var err error
				if walk, err = w.faultFrame(pos, h, top, &sh, &pl); err != nil {
					return w.resolve(err, nil)
				}
			}
			fi := frameInfo{off: pos, h: h, payloadStart: pl.ps, payloadEnd: pl.pe}
			tsEnd := pl.tsAt + int64(sh.ts)

			// 2. CRC (§CRC, LT-CRC-09, LT-CRC-10, LT-UNK-03).
			var lv level
			if sh.crc > 0 {
				cw16 := sh.cw16
				var tb [4]byte
				w.read(tb[:sh.crc], pl.crcAt)
				fi.hasCRC, fi.crc = true, readCRC(tb[:], cw16)
				switch {
				case !std:
					if err := w.faultCRC(pos, h, &pl, walk, &fi, &tb, top); err != nil {
						return w.resolve(err, nil)
					}
				case top && w.preverified:
				default:
					reg, width := &w.r32, uint8(32)
					if cw16 {
						reg, width = &w.r16, 16
					}
					head := crcStart(reg, w.src, cw16, fi.payloadStart)
					if walk {
						lv.crc, lv.head, lv.want = width, head, fi.crc
					} else if got := crcFinish(reg, w.src, cw16, head, fi.payloadStart, tsEnd); got != fi.crc {
						if err := crcMismatch(cw16, w.base+fi.off, w.base+pl.crcAt, fi.crc, got); err != nil {
							return w.resolve(err, nil)
						}
					}
				}
			}
			lv.off, lv.payloadStart, lv.payloadEnd, lv.tsEnd, lv.frameEnd = fi.off, fi.payloadStart, fi.payloadEnd, tsEnd, pl.end

			// 3. Timestamp (§Timestamp form).
			var anchor uint64
			hasAnchor := false
			if !top {
				p := &w.stack[len(w.stack)-1]
				anchor, hasAnchor = p.anchor, p.hasAnchor
			}
			if sh.ts > 0 {
				var tb [8]byte
				w.read(tb[:sh.ts], pl.tsAt)
				fi.hasTS = true
				if sh.rel {
					rel := int32(d.u32(tb[:4])) // LT-FRAME-07
					if !hasAnchor {
						// LT-TS-04: no ancestor has a trailer_ts.
						if err := rules.Fail(RuleTSNoAnchor, CodePathInvalid, w.base+pl.tsAt, "relative trailer_ts %+d ns of the frame at %d has no ancestor with a trailer_ts", rel, w.base+fi.off); err != nil {
							return w.resolve(err, lvIf(walk, &lv))
						}
					}
					// LT-TS-02, LT-TS-03: the parent's wire-time plus the
					// offset, modulo 2^64 (LT-TS-07).
					fi.ts = Timestamp{Relative: true, Rel: rel, Resolved: anchor + uint64(int64(rel))}
				} else {
					abs := d.u64(tb[:]) // LT-FRAME-06, LT-TS-01
					fi.ts = Timestamp{Abs: abs, Resolved: abs}
				}
				if !std {
					w.faultStamp(&fi.ts, anchor, hasAnchor)
					if d.absSigned && !fi.ts.Relative && fi.ts.Abs > math.MaxInt64 {
						// Fault of LT-TS-08: the stamp read into a signed int64
						// and a negative time refused.
						return w.resolve(faultErr(RuleTSAbsAny, CodeInvalid, w.base+pl.tsAt, "fault: absolute trailer_ts above 2^63-1 read as a negative time"), lvIf(walk, &lv))
					}
				}
				if std || !(d.anchorOutermost && hasAnchor) {
					anchor, hasAnchor = fi.ts.Resolved, true
				}
				if !std && d.siblingChain && !top { // fault: the next sibling resolves against this one
					p := &w.stack[len(w.stack)-1]
					p.anchor, p.hasAnchor = fi.ts.Resolved, true
				}
			}
			lv.anchor, lv.hasAnchor = anchor, hasAnchor
			if !std && d.anchorDirectParent && sh.ts == 0 {
				lv.hasAnchor = false // fault: only a parent's own stamp anchors its children
			}

			// 4. Type (§Handling unknown type codes, LT-UNK-05).
			if top && !d.known(h.Type) {
				if err := rules.Fail(RuleUnkOuter, CodeTypeMismatch, w.base+fi.off, "type 0x%02x (%s) is not a type this receiver knows", h.Type, ClassOf(h.Type)); err != nil {
					return w.resolve(err, lvIf(walk, &lv))
				}
			}

			if walk {
				// 5. Work-stack budget (LT-NEST-03).
				if len(w.stack) >= w.budget && (std || !(d.budgetOffByOne && len(w.stack) == w.budget)) {
					if err := rules.Fail(RuleNestTooDeep, CodeNestingTooDeep, w.base+fi.off, "structured TLV at depth %d exceeds this receiver's work-stack budget of %d open levels", len(w.stack)+1, w.budget); err != nil {
						return w.resolve(err, &lv)
					}
				}
				w.stack = append(w.stack, lv)
				if w.tree != nil {
					w.tree.open(&fi)
				}
				pos = fi.payloadStart
			} else {
				if w.tree != nil && (std || !(d.zeroLenDropped && h.Length == 0)) {
					w.tree.leaf(&fi, w.payload(fi.payloadStart, fi.payloadEnd, pl.end))
				}
				pos = pl.end
				if !std && d.unknownStops && !top && !d.known(h.Type) {
					pos = w.stack[len(w.stack)-1].payloadEnd // fault: the rest of the parent is dropped
				}
			}
		}
	pop:
		for len(w.stack) > 0 {
			lv := &w.stack[len(w.stack)-1]
			if pos != lv.payloadEnd {
				break
			}
			if err := w.finish(lv); err != nil {
				return w.resolve(err, nil)
			}
			pos = lv.frameEnd
			if !std && d.popNoTrailer && w.src.rope == nil && len(w.stack) > 1 {
				pos = lv.payloadEnd // fault: the cursor does not step over the child's trailer
			}
			w.stack = w.stack[:len(w.stack)-1]
			if w.tree != nil {
				w.tree.close()
			}
		}
		if len(w.stack) == 0 {
			return nil
		}
	}
}

func lvIf(walk bool, lv *level) *level {
	if walk {
		return lv
	}
	return nil
}

// read copies len(p) bytes at off into p; under a fault dialect the bytes
// past the source's end read as zeros.
func (w *walker) read(p []byte, off int64) {
	if w.d.std {
		w.src.read(p, off)
		return
	}
	clear(p)
	if n := min(int64(len(p)), w.src.size()-off); off < w.src.size() && n > 0 {
		w.src.read(p[:n], off)
	}
}

// bytes returns [a, b) clamped to the source.
func (w *walker) bytes(a, b int64) []byte {
	a, b = max(min(a, w.src.size()), 0), max(min(b, w.src.size()), 0)
	if b <= a {
		return []byte{}
	}
	return w.src.bytes(a, b)
}

// payload is the opaque payload [ps, pe) of a frame ending at end.
func (w *walker) payload(ps, pe, end int64) []byte {
	if w.d.std {
		return w.src.bytes(ps, pe)
	}
	switch {
	case w.d.payloadWithTrailer: // fault: the trailer reported as payload
		pe = end
	case w.d.ropeOneView && w.src.rope != nil && pe > ps: // fault: the payload read from its first view only
		pe = min(pe, w.src.rope.viewEnd(ps))
	}
	return w.bytes(ps, pe)
}

// child reads and checks the header of a child TLV at pos inside the
// innermost open structured TLV. ok is false when a fault-injected check
// let a malformed child through; the caller then skips the rest of the
// parent.
func (w *walker) child(pos int64) (h Header, ok bool, err error) {
	avail := w.stack[len(w.stack)-1].payloadEnd - pos
	var hb [6]byte
	n := min(avail, 6)
	w.src.read(hb[:n], pos)
	h, need, err := checkHeader(&hb, int(n), w.base+pos, w.maxLen, w.d, true)
	if !w.d.std && err == nil && need == 0 {
		h, need, err = w.faultHeader(pos, h, true)
	}
	if err != nil {
		return h, false, err
	}
	// Decision (docs/libtracer.md): children fill the payload exactly
	// (LT-NEST-05); nothing is read past the parent's payload (LT-TRUNC-04).
	if need > 0 {
		return h, false, rules.Fail(RuleNestExactFill, CodeInvalid, w.base+pos, "%d bytes left in the parent payload, too few for a child header", avail)
	}
	total := h.FrameSize()
	if !w.d.std {
		total = w.d.extent(h)
	}
	if total > uint64(avail) {
		return h, false, rules.Fail(RuleNestExactFill, CodeInvalid, w.base+pos, "child (%s) needs %d bytes, %d left in the parent payload", h, total, avail)
	}
	return h, true, nil
}

// crcMismatch is the crc_fail of the frame at frameOff whose trailer_crc,
// at offset at, holds want where got was computed (LT-CRC-09, LT-CRC-10).
func crcMismatch(cw16 bool, frameOff, at int64, want, got uint32) error {
	if cw16 {
		return rules.Fail(RuleCRCVerify16, CodeCRCFail, at, "trailer_crc 0x%04x of the frame at %d, computed CRC-16-CCITT 0x%04x", want, frameOff, got)
	}
	return rules.Fail(RuleCRCVerify32, CodeCRCFail, at, "trailer_crc 0x%08x of the frame at %d, computed CRC-32C 0x%08x", want, frameOff, got)
}

// resolve settles, before err is reported, the CRCs of every frame still
// open (the work stack, then cur, the frame being checked when it is a
// structured one): a frame's CRC comes before anything inside it, so the
// outermost mismatch is reported instead of err. The extent of every open
// frame lies inside the top-level TLV's, which is present, so the folding
// reads only present bytes.
func (w *walker) resolve(err error, cur *level) error {
	var outer error
	if cur != nil {
		outer = w.finish(cur)
	}
	for i := len(w.stack) - 1; i >= 0; i-- {
		if e := w.finish(&w.stack[i]); e != nil {
			outer = e
		}
	}
	if outer != nil {
		return outer
	}
	return err
}

// finish checks the CRC of the structured frame lv once its covered range
// has been walked, and marks it checked.
func (w *walker) finish(lv *level) error {
	if lv.crc == 0 {
		return nil
	}
	cw16 := lv.crc == 16
	reg := &w.r32
	if cw16 {
		reg = &w.r16
	}
	lv.crc = 0
	if got := crcFinish(reg, w.src, cw16, lv.head, lv.payloadStart, lv.tsEnd); got != lv.want {
		return crcMismatch(cw16, w.base+lv.off, w.base+lv.tsEnd, lv.want, got)
	}
	return nil
}
