package libtracer

import (
	"encoding/binary"
	"math"

	"github.com/threespec/conformance/impl/rules"
)

// Encoders. Both take a frame tree (the one Decode returns, or one built by
// hand) and write each top-level frame back to back. A frame's content is
// its Children when non-nil (they are encoded in turn), else its Payload.
// Both compute every length and CRC afresh; both refuse what no sender may
// emit: type 0x00 (LT-TYPE-01), type 0x05 (LT-TYPE-06), a reserved option
// bit (LT-OPT-03), a payload longer than a u32 length (LT-LEN-03). Both are
// iterative, whatever the depth of the tree.
//
// Encode writes the smallest variants (§Interop, LT-IOP-02). From each
// frame it takes Type, the PL, TS and CR bits of Opt (PL is also set by
// non-nil Children) and, when TS=1, TS.Resolved, the absolute wire-time
// wanted; it chooses the rest:
//
//   - LL=0, or LL=1 when the payload exceeds 65535 bytes;
//   - CW=1 (CRC-16-CCITT) when CR=1; CW=0 when CR=0;
//   - TF=1 (relative, i32) when an ancestor has a trailer_ts and the
//     wanted time minus the nearest such ancestor's fits an i32; TF=0
//     (absolute) otherwise, and TF=0 when TS=0.
//
// EncodeExact honours every bit of Opt as given, and writes TS.Abs (TF=0) or
// TS.Rel (TF=1) as the trailer_ts. It refuses LL=0 with more than 65535
// payload bytes (LT-LEN-01), children under PL=0 (LT-OPT-04), TS=1 without
// a TS (LT-OPT-05), and a relative stamp with no ancestor stamp (LT-TS-04).
// For every frame tree Decode accepts, EncodeExact gives back the input
// bytes.

// Encode returns the frames in the smallest variants.
func Encode(frames []Frame) ([]byte, error) { return encode(rules.Checks{}, frames, false) }

// EncodeWith is Encode under the Checks c.
func EncodeWith(c rules.Checks, frames []Frame) ([]byte, error) { return encode(c, frames, false) }

// EncodeExact returns the frames with every option bit as given.
func EncodeExact(frames []Frame) ([]byte, error) { return encode(rules.Checks{}, frames, true) }

// EncodeExactWith is EncodeExact under the Checks c.
func EncodeExactWith(c rules.Checks, frames []Frame) ([]byte, error) { return encode(c, frames, true) }

// plan is what the first pass decides for one frame, in pre-order.
type plan struct {
	opt    Opt
	length uint64
	ts     uint64 // trailer_ts as written: the u64, or the i32 as uint32
}

// encFrame is the first pass's state for an open frame.
type encFrame struct {
	plan      int
	anchor    uint64
	hasAnchor bool
	sum       uint64 // sizes of the children so far
}

func encode(c rules.Checks, frames []Frame, exact bool) ([]byte, error) {
	d := dialectOf(c)
	if !d.std {
		sender := *d
		sender.sending = true
		d = &sender
	}
	// Pass 1: decide opt, length and trailer_ts of every frame.
	var plans []plan
	var open []encFrame
	var total uint64
	pre := func(f *Frame, _ int) error {
		var anchor uint64
		hasAnchor := false
		if len(open) > 0 {
			p := &open[len(open)-1]
			anchor, hasAnchor = p.anchor, p.hasAnchor
		}
		p, err := planFrame(c, f, exact, anchor, hasAnchor, d)
		if err != nil {
			return err
		}
		if p.opt.Has(OptTS) {
			anchor, hasAnchor = f.tsResolved(exact, anchor), true
		}
		plans = append(plans, p)
		open = append(open, encFrame{plan: len(plans) - 1, anchor: anchor, hasAnchor: hasAnchor})
		return nil
	}
	post := func(f *Frame) error {
		e := open[len(open)-1]
		open = open[:len(open)-1]
		p := &plans[e.plan]
		p.length = uint64(len(f.Payload))
		if f.Children != nil {
			p.length = e.sum
		}
		if err := finishPlan(c, f, p, exact); err != nil {
			return err
		}
		size := uint64(p.opt.HeaderSize()) + p.length + uint64(p.opt.TrailerSize())
		if len(open) > 0 {
			open[len(open)-1].sum += size
		} else {
			total += size
		}
		return nil
	}
	if err := visitTree(frames, pre, post); err != nil {
		return nil, err
	}
	if total > math.MaxInt {
		if !c.Enforced(RuleLenAddressShift) {
			return nil, nil
		}
		return nil, rules.Fail(RuleLenAddressShift, CodeInvalid, -1, "%d bytes of frames do not fit in memory", total)
	}

	// Pass 2: write.
	out := make([]byte, total)
	src := source{buf: out}
	var r32, r16 crcReg
	type wframe struct {
		plan         int
		payloadStart int64
		head         uint32
	}
	var wopen []wframe
	pos := int64(0)
	next := 0
	pre = func(f *Frame, _ int) error {
		p := plans[next]
		wf := wframe{plan: next}
		next++
		out[pos], out[pos+1] = f.Type, byte(p.opt)
		length := p.length
		if d.encodeLenTrailer { // fault: the trailer counted in the length
			length += uint64(p.opt.TrailerSize())
		}
		if p.opt.Has(OptLL) {
			binary.LittleEndian.PutUint32(out[pos+2:], uint32(length)) // LT-FRAME-04
		} else {
			binary.LittleEndian.PutUint16(out[pos+2:], uint16(length)) // LT-FRAME-03
		}
		pos += int64(p.opt.HeaderSize())
		wf.payloadStart = pos
		if p.opt.Has(OptCR) {
			cw16 := p.opt.Has(OptCW)
			wf.head = crcStart(regFor(&r32, &r16, cw16), src, cw16, pos)
		}
		if f.Children == nil {
			pos += int64(copy(out[pos:], f.Payload)) // LT-FRAME-05
		}
		wopen = append(wopen, wf)
		return nil
	}
	post = func(f *Frame) error {
		wf := wopen[len(wopen)-1]
		wopen = wopen[:len(wopen)-1]
		p := plans[wf.plan]
		switch p.opt.TSSize() {
		case 8:
			binary.LittleEndian.PutUint64(out[pos:], p.ts) // LT-FRAME-06
		case 4:
			binary.LittleEndian.PutUint32(out[pos:], uint32(p.ts)) // LT-FRAME-07
		}
		pos += int64(p.opt.TSSize())
		if p.opt.Has(OptCR) {
			// LT-CRC-11: payload, then trailer_ts; the header is not
			// covered (LT-CRC-12).
			cw16 := p.opt.Has(OptCW)
			sum := crcFinish(regFor(&r32, &r16, cw16), src, cw16, wf.head, wf.payloadStart, pos)
			if !d.std { // a fault dialect's CRC, computed at once
				ts := int64(p.opt.TSSize())
				pl := place{ps: wf.payloadStart, pe: pos - ts, tsAt: pos - ts, crcAt: pos}
				sh := stdDialect.shapes[p.opt]
				sum = d.frameCRC(c, func(a, b int64) []byte { return append([]byte(nil), out[a:b]...) }, wf.payloadStart-int64(p.opt.HeaderSize()), sh, pl, f.Children != nil)
			}
			appendCRC(out[pos:pos], cw16, sum)
			pos += int64(p.opt.CRCSize())
		}
		return nil
	}
	if err := visitTree(frames, pre, post); err != nil {
		return nil, err
	}
	return out, nil
}

func regFor(r32, r16 *crcReg, cw16 bool) *crcReg {
	if cw16 {
		return r16
	}
	return r32
}

// planFrame checks f and decides its option bits except LL (smallest) and
// its trailer_ts.
func planFrame(c rules.Checks, f *Frame, exact bool, anchor uint64, hasAnchor bool, d *dialect) (plan, error) {
	var p plan
	if err := checkSendable(c, f.Type, f.Opt); err != nil {
		return p, err
	}
	o := f.Opt
	if f.Children != nil && !o.Has(OptPL) {
		if exact && c.Enforced(RuleOptPL) {
			return p, rules.Fail(RuleOptPL, CodeInvalid, -1, "frame of type 0x%02x has children but PL=0", f.Type)
		}
		o |= OptPL
	}
	if o.Has(OptTS) && f.TS == nil {
		if !c.Enforced(RuleOptTS) {
			return p, nil // as the fault-injected reference always did: a frame planned empty
		}
		return p, rules.Fail(RuleOptTS, CodeInvalid, -1, "frame of type 0x%02x has TS=1 but no timestamp", f.Type)
	}
	if exact {
		if o.Has(OptTS) && o.Has(OptTF) && !hasAnchor && c.Enforced(RuleTSNoAnchor) {
			return p, rules.Fail(RuleTSNoAnchor, CodePathInvalid, -1, "frame of type 0x%02x has a relative trailer_ts but no ancestor with a trailer_ts", f.Type)
		}
		p.opt = o
		if o.Has(OptTS) {
			p.ts = f.TS.Abs
			if o.Has(OptTF) {
				p.ts = uint64(uint32(f.TS.Rel))
			}
		}
		return p, nil
	}
	// Smallest variants (LT-IOP-02); a fault on it keeps the defaults.
	small := c.Enforced(RuleIopSmallest)
	o &^= OptLL | OptCW | OptTF
	// LT-READ-24: CRC-16, the smaller variant §Interop names, unless the
	// alternative takes the options table's DEFAULT, CRC-32C.
	if o.Has(OptCR) && small && !c.Takes(ReadSmallestCRC, AltCRC32CDefault) {
		o |= OptCW
	}
	if o.Has(OptTS) {
		want := f.TS.Resolved
		// LT-TS-02: the offset must fit an i32; wire-times are modulo 2^64.
		top := int64(math.MaxInt32)
		if d.smallestRangeOff { // fault: the i32 range taken one too wide at the top
			top++
		}
		if off := int64(want - anchor); hasAnchor && small && off >= math.MinInt32 && off <= top {
			o |= OptTF
			p.ts = uint64(uint32(int32(off)))
		} else {
			p.ts = want
		}
	}
	p.opt = o
	return p, nil
}

// checkSendable refuses what no sender emits: type 0x00 (LT-TYPE-01),
// type 0x05 (LT-TYPE-06) and a reserved option bit (LT-OPT-03).
func checkSendable(c rules.Checks, t uint8, o Opt) error {
	switch {
	case t == 0x00 && c.Enforced(RuleTypeZero):
		return rules.Fail(RuleTypeZero, CodeInvalid, -1, "type 0x00 is the reserved sentinel")
	case t == 0x05 && c.Enforced(RuleType05NoSend):
		// §Type code registry: senders MUST NOT emit 0x05 (LT-TYPE-06).
		return rules.Fail(RuleType05NoSend, CodeInvalid, -1, "type 0x05 is reserved and never emitted")
	}
	if o&(OptReserved7|OptReserved0) != 0 && c.Enforced(RuleOptReservedFrozen) {
		return rules.Fail(RuleOptReservedFrozen, CodeInvalid, -1, "opt 0x%02x sets a reserved bit", byte(o))
	}
	return nil
}

// finishPlan decides LL once the payload length is known.
func finishPlan(c rules.Checks, f *Frame, p *plan, exact bool) error {
	if p.length > MaxLen32 {
		// LT-LEN-03: larger data is sliced by address shift, never one TLV.
		if c.Enforced(RuleLenAddressShift) {
			return rules.Fail(RuleLenAddressShift, CodeInvalid, -1, "payload of %d bytes of the frame of type 0x%02x exceeds the u32 length", p.length, f.Type)
		}
		p.length = MaxLen32
	}
	if exact {
		if !p.opt.Has(OptLL) && p.length > MaxLen16 && c.Enforced(RuleLenMax16) {
			return rules.Fail(RuleLenMax16, CodeInvalid, -1, "payload of %d bytes of the frame of type 0x%02x does not fit the u16 length of LL=0", p.length, f.Type)
		}
		return nil
	}
	if p.length > MaxLen16 || !c.Enforced(RuleIopSmallest) {
		p.opt |= OptLL
	}
	return nil
}

// tsResolved is the wire-time f's children resolve relative stamps
// against, as the encoder writes f.
func (f *Frame) tsResolved(exact bool, anchor uint64) uint64 {
	switch {
	case !exact:
		return f.TS.Resolved
	case f.Opt.Has(OptTF):
		return anchor + uint64(int64(f.TS.Rel))
	default:
		return f.TS.Abs
	}
}

// visitTree calls pre on every frame of the trees in pre-order, with its
// index among its siblings, and post once its children are done. It is
// iterative: its stack is a slice, whatever the depth.
func visitTree(frames []Frame, pre func(f *Frame, i int) error, post func(f *Frame) error) error {
	type node struct {
		f    *Frame
		next int
	}
	var stack []node
	for i := range frames {
		if err := pre(&frames[i], i); err != nil {
			return err
		}
		stack = append(stack[:0], node{f: &frames[i]})
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.next < len(top.f.Children) {
				c := &top.f.Children[top.next]
				if err := pre(c, top.next); err != nil {
					return err
				}
				top.next++
				stack = append(stack, node{f: c})
				continue
			}
			if err := post(top.f); err != nil {
				return err
			}
			stack = stack[:len(stack)-1]
		}
	}
	return nil
}
