package libtracer

import (
	"encoding/binary"

	"github.com/threespec/conformance/impl/rules"
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
// item checks a top-level header and extent (1); frame then places each
// frame's parts (LT-FRAME-03..10) and runs the other steps in that order,
// one function each: checkCRC (2), stamp (3), checkType (4), open (5) or
// leaf, and next (6), which closes the frames whose children are done
// (pop) and reads and checks the next child's header and extent (1).
//
// The walk is libtracer-01's. A parse whose rules.Checks name a libtracer
// fault, mutant or reading has a misreading (faultwalk.go), which the walker
// asks, at each step, how that receiver departs from the spec; the
// standard walk has none and only tests that it has none.
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
	c           rules.Checks // the rules, mutants and readings of this parse
	mis         misreading   // nil: libtracer-01; else how this receiver departs from it
	base        int64        // added to every reported offset
	maxLen      uint64
	budget      int
	preverified bool // the top-level CRC was checked as the bytes arrived (StreamDecoder)
	stack       []level
	r32, r16    crcReg
	items       int   // top-level TLVs framed
	first       error // the first rejected TLV's error
}

func newWalker(c rules.Checks, src source, tree *treeSink, lim Limits) walker {
	w := walker{src: src, tree: tree, c: c, maxLen: lim.maxLen(), budget: lim.budget(c)}
	if mis := newMisreading(c); mis != nil {
		w.mis = mis
		w.maxLen, w.budget = mis.limits(lim)
	}
	return w
}

// run walks every top-level TLV of the source as one datagram (or one
// complete stream frame) and returns the error that broke framing, if any.
func (w *walker) run() error {
	size := w.src.size()
	if size == 0 {
		// Decision (docs/libtracer.md): an empty datagram carries no
		// frame (LT-TRUNC-08). Under the reading LT-READ-01
		// empty-datagram-no-frames it holds no frame, like an empty stream.
		if w.c.Takes(ReadEmptyInput, AltEmptyDatagramNoFrames) || !w.c.Enforced(RuleTruncEmptyDatagram) {
			return nil
		}
		return rules.Fail(RuleTruncEmptyDatagram, CodeTruncated, w.base, "empty datagram: the minimum frame is 4 bytes")
	}
	for off := int64(0); off < size; {
		if off > 0 && w.c.Takes(ReadDatagramFrames, AltOnePerDatagram) {
			// LT-READ-23 one-per-datagram: the datagram's one TLV ended.
			return rules.Fail(RuleCtxBackToBack, CodeInvalid, w.base+off, "%d bytes after the datagram's one TLV", size-off)
		}
		next, err := w.item(off)
		if err != nil {
			return err
		}
		// LT-UNK-02, LT-CTX-04: parsing continues with the next TLV.
		off = next
	}
	return nil
}

// header reads and checks (step 1) the header at off, of which avail bytes
// lie inside the source or the parent payload.
func (w *walker) header(off, avail int64, nested bool) (Header, int, error) {
	var hb [6]byte
	n := min(avail, 6)
	w.src.read(hb[:n], off)
	if w.mis != nil {
		return w.mis.header(hb, int(n), w.src, w.base, off, w.maxLen, nested)
	}
	return checkHeader(w.c, &hb, int(n), w.base+off, w.maxLen)
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
	if w.mis != nil {
		if total = w.mis.extent(h); total > uint64(size-off) {
			src, end, err, done := w.mis.truncated(w.src, w.base, off, h, total)
			if done {
				return end, err
			}
			w.src = src
		}
	}
	if total > uint64(w.src.size()-off) {
		if err := w.truncated(w.base+off, "frame (%s) needs %d bytes, the datagram has %d left", h, total, size-off); err != nil {
			return off, err
		}
		return size, nil
	}
	end := off + int64(total)
	if w.mis != nil && w.mis.dropped(h) {
		return end, nil
	}
	w.items++
	if w.tree != nil {
		w.tree.beginItem(w.base+off, h)
	}
	if err := w.frame(off, h); err != nil {
		if w.mis != nil && w.mis.errorStops() {
			return end, err
		}
		if w.first == nil {
			w.first = err
		}
		if w.tree != nil {
			w.tree.failItem(err)
		}
	}
	if w.mis != nil && w.mis.stopsAfter(h) {
		return size, nil
	}
	return end, nil
}

// truncated is the datagram truncation at off (LT-TRUNC-03); nil when
// that rule is switched off.
func (w *walker) truncated(off int64, format string, args ...any) error {
	if w.mis != nil {
		if err := w.mis.truncation(off); err != nil {
			return err
		}
	}
	if !w.c.Enforced(RuleTruncDatagram) {
		return nil
	}
	return rules.Fail(RuleTruncDatagram, CodeTruncated, off, format, args...)
}

// frameStep is what the walker knows of the frame it is checking.
type frameStep struct {
	fi   frameInfo
	sh   shape // its layout
	pl   place // where its parts lie
	top  bool  // a top-level TLV
	walk bool  // its payload is parsed into children (LT-OPT-04, LT-UNK-06)
	lv   level // its work-stack level, when walked
}

// cur is the frame's level for resolve: the frame when it is walked.
func (f *frameStep) cur() *level {
	if f.walk {
		return &f.lv
	}
	return nil
}

// frame walks the top-level TLV at off, whose header h has been checked
// and whose extent lies inside the source: for each frame in turn, its
// layout and steps 2 to 5, then the next child (6), until the work stack
// is empty.
func (w *walker) frame(off int64, h Header) error {
	w.stack = w.stack[:0]
	w.r32, w.r16 = crcReg{}, crcReg{}
	pos := off
	for {
		f := frameStep{top: len(w.stack) == 0}
		if !f.top {
			p := &w.stack[len(w.stack)-1]
			f.lv.anchor, f.lv.hasAnchor = p.anchor, p.hasAnchor // the anchor it inherits (step 3)
		}
		if w.mis != nil {
			if err := w.misLayout(&f, pos, h); err != nil {
				return w.resolve(err, nil)
			}
		} else {
			// libtracer-01's layout (LT-FRAME-03..10).
			o := h.Opt
			f.sh = shape{ts: uint8(o.TSSize()), rel: o.Has(OptTF), crc: uint8(o.CRCSize()), cw16: o.Has(OptCW)}
			f.pl.ps = pos + int64(o.HeaderSize())
			f.pl.pe = f.pl.ps + int64(h.Length)
			f.pl.tsAt = f.pl.pe
			f.pl.crcAt = f.pl.pe + int64(f.sh.ts)
			f.pl.end = f.pl.crcAt + int64(f.sh.crc)
			f.walk = o.Has(OptPL) && Known(h.Type) // LT-OPT-04, LT-UNK-06
			f.placed(pos, h)
		}
		if err := w.checkCRC(&f); err != nil {
			return w.resolve(err, nil)
		}
		if err := w.stamp(&f); err != nil {
			return w.resolve(err, f.cur())
		}
		if err := w.checkType(&f); err != nil {
			return w.resolve(err, f.cur())
		}
		var err error
		if f.walk {
			if pos, err = w.open(&f); err != nil {
				return w.resolve(err, &f.lv)
			}
		} else {
			pos = w.leaf(&f)
		}
		if h, pos, err = w.next(pos); err != nil || len(w.stack) == 0 {
			return err
		}
	}
}

// misLayout places the parts of the frame at pos as the misreading does,
// says whether it is walked, and makes the frame's own checks of the
// misreading.
func (w *walker) misLayout(f *frameStep, pos int64, h Header) error {
	var err error
	f.sh, f.pl, f.walk, err = w.mis.layout(w.base, pos, h, f.top)
	f.placed(pos, h)
	return err
}

// placed records the frame at pos with header h once its parts are placed.
func (f *frameStep) placed(pos int64, h Header) {
	f.fi = frameInfo{off: pos, h: h, payloadStart: f.pl.ps, payloadEnd: f.pl.pe}
	f.lv.off, f.lv.payloadStart, f.lv.payloadEnd, f.lv.frameEnd = pos, f.pl.ps, f.pl.pe, f.pl.end
	f.lv.tsEnd = f.pl.tsAt + int64(f.sh.ts)
}

// checkCRC is step 2 (§CRC, LT-CRC-09, LT-CRC-10, LT-UNK-03), for a frame
// with a trailer_crc.
func (w *walker) checkCRC(f *frameStep) error {
	if f.sh.crc == 0 {
		return nil
	}
	return w.crc(f)
}

// crc reads the frame's trailer_crc and checks an opaque frame's at once;
// a structured frame's is left in its level, to be settled when its
// children are walked (finish).
func (w *walker) crc(f *frameStep) error {
	f.fi.hasCRC = true
	if w.mis != nil {
		var err error
		f.fi.crc, err = w.mis.crc(w.src, w.base, f.fi.off, f.fi.h, f.pl, f.walk, f.top && w.preverified)
		return err
	}
	cw16 := f.sh.cw16
	var tb [4]byte
	w.src.read(tb[:f.sh.crc], f.pl.crcAt)
	f.fi.crc = readCRC(tb[:], cw16)
	if f.top && w.preverified {
		return nil
	}
	reg, width := &w.r32, uint8(32)
	if cw16 {
		reg, width = &w.r16, 16
	}
	head := crcStart(reg, w.src, cw16, f.fi.payloadStart)
	if f.walk {
		f.lv.crc, f.lv.head, f.lv.want = width, head, f.fi.crc
		return nil
	}
	if got := crcFinish(reg, w.src, cw16, head, f.fi.payloadStart, f.lv.tsEnd); got != f.fi.crc {
		return crcMismatch(w.c, cw16, w.base+f.fi.off, w.base+f.pl.crcAt, f.fi.crc, got)
	}
	return nil
}

// stamp is step 3 (§Timestamp form): the frame's trailer_ts, resolved
// against the anchor it inherits (in f.lv), and the anchor its children
// resolve against: its own stamp, else the one it inherits.
func (w *walker) stamp(f *frameStep) error {
	if f.sh.ts == 0 && w.mis == nil {
		return nil
	}
	return w.resolveStamp(f)
}

// resolveStamp is stamp for a frame with a trailer_ts, or under a
// misreading.
func (w *walker) resolveStamp(f *frameStep) error {
	anchor, hasAnchor := f.lv.anchor, f.lv.hasAnchor
	if f.sh.ts > 0 {
		var ts Timestamp
		if w.mis != nil {
			ts = w.mis.readStamp(w.src, f.pl.tsAt, f.sh)
		} else {
			var tb [8]byte
			w.src.read(tb[:f.sh.ts], f.pl.tsAt)
			if f.sh.rel {
				ts = Timestamp{Relative: true, Rel: int32(binary.LittleEndian.Uint32(tb[:4]))} // LT-FRAME-07
			} else {
				abs := binary.LittleEndian.Uint64(tb[:]) // LT-FRAME-06, LT-TS-01
				ts = Timestamp{Abs: abs, Resolved: abs}
			}
		}
		f.fi.hasTS = true
		if ts.Relative {
			// LT-READ-22 accepted-as-shown: a top-level relative stamp
			// (the worked example standalone) is left relative to nothing.
			if !hasAnchor && w.c.Enforced(RuleTSNoAnchor) && !(f.top && w.c.Takes(ReadStandaloneRel, AltAcceptedAsShown)) {
				// LT-TS-04: no ancestor has a trailer_ts.
				return rules.Fail(RuleTSNoAnchor, CodePathInvalid, w.base+f.pl.tsAt, "relative trailer_ts %+d ns of the frame at %d has no ancestor with a trailer_ts", ts.Rel, w.base+f.fi.off)
			}
			// LT-TS-02, LT-TS-03: the parent's wire-time plus the
			// offset, modulo 2^64 (LT-TS-07).
			ts.Resolved = anchor + uint64(int64(ts.Rel))
		}
		if w.mis != nil {
			var err error
			if ts, err = w.mis.stamp(ts, anchor, hasAnchor, w.base+f.pl.tsAt); err != nil {
				return err
			}
		}
		f.fi.ts = ts
	}
	if w.mis != nil {
		var sibling bool
		f.lv.anchor, f.lv.hasAnchor, sibling = w.mis.anchor(f.sh.ts > 0, f.fi.ts.Resolved, anchor, hasAnchor, f.top)
		if sibling {
			p := &w.stack[len(w.stack)-1]
			p.anchor, p.hasAnchor = f.fi.ts.Resolved, true
		}
		return nil
	}
	f.lv.anchor, f.lv.hasAnchor = f.fi.ts.Resolved, true // the frame has a stamp
	return nil
}

// checkType is step 4 (§Handling unknown type codes, LT-UNK-05), for a
// top-level TLV.
func (w *walker) checkType(f *frameStep) error {
	if !f.top {
		return nil
	}
	return w.outerType(f)
}

// outerType rejects a top-level TLV of a type the receiver does not know
// as type_mismatch.
func (w *walker) outerType(f *frameStep) error {
	t := f.fi.h.Type
	known := Known(t)
	if w.mis != nil {
		known = w.mis.known(t)
	}
	// LT-READ-14 silently-skipped: with no return path nothing is
	// reported, and the TLV is kept as opaque bytes.
	if !known && w.c.Enforced(RuleUnkOuter) && !w.c.Takes(ReadReturnPath, AltSilentlySkipped) {
		return rules.Fail(RuleUnkOuter, CodeTypeMismatch, w.base+f.fi.off, "type 0x%02x (%s) is not a type this receiver knows", t, ClassOf(t))
	}
	return nil
}

// open is step 5 (LT-NEST-03): a structured frame opens a level of the
// work stack, within the budget. Its children come next (6), from its
// payload's start.
func (w *walker) open(f *frameStep) (int64, error) {
	// LT-READ-12 empty-free: an empty structured TLV needs no node.
	free := f.pl.pe == f.pl.ps && w.c.Takes(ReadEmptyLevel, AltEmptyFree)
	if depth := len(w.stack); depth >= w.budget && !free && w.c.Enforced(RuleNestTooDeep) && (w.mis == nil || w.mis.tooDeep(depth, w.budget)) {
		return f.fi.off, rules.Fail(RuleNestTooDeep, CodeNestingTooDeep, w.base+f.fi.off, "structured TLV at depth %d exceeds this receiver's work-stack budget of %d open levels", depth+1, w.budget)
	}
	w.stack = append(w.stack, f.lv)
	if w.tree != nil {
		w.tree.open(&f.fi)
	}
	return f.fi.payloadStart, nil
}

// leaf reports a frame kept as opaque bytes and returns where the walk
// goes on: after it.
func (w *walker) leaf(f *frameStep) int64 {
	if w.tree == nil && w.mis == nil {
		return f.pl.end
	}
	return w.keep(f)
}

// keep is leaf with a tree to build or under a misreading.
func (w *walker) keep(f *frameStep) int64 {
	if w.mis == nil {
		w.tree.leaf(&f.fi, w.src.bytes(f.fi.payloadStart, f.fi.payloadEnd))
		return f.pl.end
	}
	if w.tree != nil {
		if payload, kept := w.mis.payload(w.src, f.fi.h, f.pl); kept {
			w.tree.leaf(&f.fi, payload)
		}
	}
	if !f.top && w.mis.stopsAfter(f.fi.h) {
		return w.stack[len(w.stack)-1].payloadEnd
	}
	return f.pl.end
}

// next is step 6: it closes every structured frame whose children end at
// pos (pop), and reads and checks the header of the next child of the
// innermost one still open: children fill their parent's payload exactly
// (LT-NEST-05), and nothing is read past it (LT-TRUNC-04; decision,
// docs/libtracer.md). It returns that header and the child's offset; the
// work stack is empty when the top-level frame is done.
func (w *walker) next(pos int64) (Header, int64, error) {
	for {
		for len(w.stack) > 0 && pos == w.stack[len(w.stack)-1].payloadEnd {
			var err error
			if pos, err = w.pop(); err != nil {
				return Header{}, pos, w.resolve(err, nil)
			}
		}
		if len(w.stack) == 0 {
			return Header{}, pos, nil
		}
		avail := w.stack[len(w.stack)-1].payloadEnd - pos
		h, need, err := w.header(pos, avail, true)
		if err != nil {
			return h, pos, w.resolve(err, nil)
		}
		var total uint64
		if need == 0 {
			total = h.FrameSize()
			if w.mis != nil {
				total = w.mis.extent(h)
			}
			if total <= uint64(avail) {
				return h, pos, nil
			}
		}
		if w.c.Enforced(RuleNestExactFill) {
			if need > 0 {
				err = rules.Fail(RuleNestExactFill, CodeInvalid, w.base+pos, "%d bytes left in the parent payload, too few for a child header", avail)
			} else {
				err = rules.Fail(RuleNestExactFill, CodeInvalid, w.base+pos, "child (%s) needs %d bytes, %d left in the parent payload", h, total, avail)
			}
			return h, pos, w.resolve(err, nil)
		}
		pos = w.stack[len(w.stack)-1].payloadEnd // fault injected: skip the rest of the parent
	}
}

// pop closes the innermost structured frame, whose children are done,
// checking its CRC (finish), and returns the offset after it.
func (w *walker) pop() (int64, error) {
	lv := &w.stack[len(w.stack)-1]
	if err := w.finish(lv); err != nil {
		return lv.payloadEnd, err
	}
	pos := lv.frameEnd
	if w.mis != nil && w.mis.popsAtPayloadEnd(w.src.rope != nil, len(w.stack)) {
		pos = lv.payloadEnd
	}
	w.stack = w.stack[:len(w.stack)-1]
	if w.tree != nil {
		w.tree.close()
	}
	return pos, nil
}

// crcMismatch is the crc_fail of the frame at frameOff whose trailer_crc,
// at offset at, holds want where got was computed (LT-CRC-09, LT-CRC-10);
// nil when c switches that rule off.
func crcMismatch(c rules.Checks, cw16 bool, frameOff, at int64, want, got uint32) error {
	switch {
	case cw16 && c.Enforced(RuleCRCVerify16):
		return rules.Fail(RuleCRCVerify16, CodeCRCFail, at, "trailer_crc 0x%04x of the frame at %d, computed CRC-16-CCITT 0x%04x", want, frameOff, got)
	case !cw16 && c.Enforced(RuleCRCVerify32):
		return rules.Fail(RuleCRCVerify32, CodeCRCFail, at, "trailer_crc 0x%08x of the frame at %d, computed CRC-32C 0x%08x", want, frameOff, got)
	}
	return nil
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
		return crcMismatch(w.c, cw16, w.base+lv.off, w.base+lv.tsEnd, lv.want, got)
	}
	return nil
}
