package libtracer

import (
	"encoding/binary"
	"io"
	"time"

	"github.com/threespec/conformance/impl/rules"
)

// The trailer lifecycle (§Append-only-at-egress, strip-only-at-ingress): a
// TLV is header + payload at rest, and gains a trailer only in transit.
// Strip removes the trailer at ingress, Attach adds a fresh one at egress,
// Forward does both; the payload bytes never change (LT-LIFE-06). Only the
// outermost TLV's trailer is touched: the trailers of nested TLVs are part
// of its payload.

// Clock gives the wire-time, in ns since the Unix epoch, for a fresh
// trailer_ts. Tests inject a fixed one.
type Clock func() uint64

// SystemClock reads the system's wall clock.
func SystemClock() uint64 { return uint64(time.Now().UnixNano()) }

// CRCWidth selects the trailer_crc Attach writes.
type CRCWidth uint8

// CRC widths.
const (
	TrailerNoCRC CRCWidth = iota
	TrailerCRC16
	TrailerCRC32
)

// Trailer says what Attach appends: an absolute trailer_ts from the clock
// (a top-level TLV has no ancestor to be relative to), and a CRC.
type Trailer struct {
	Timestamp bool
	CRC       CRCWidth
}

// Strip validates frame as one received TLV (Decode under lim: any error is
// returned, LT-LIFE-03) and returns its at-rest bytes: the header with the
// TS and CR bits cleared, then the payload, byte for byte (LT-LIFE-01,
// LT-LIFE-05). TF and CW, which mean nothing without TS and CR, are left as
// they were (LT-OPT-09, LT-OPT-11).
//
// A nested relative trailer_ts anchored only on the stripped outer stamp
// loses its anchor: such stored bytes decode as tr::path::invalid until a
// trailer with a timestamp is attached again (docs/libtracer.md).
func Strip(frame []byte, lim Limits) ([]byte, error) { return StripWith(rules.Checks{}, frame, lim) }

// StripWith is Strip under the Checks c.
func StripWith(c rules.Checks, frame []byte, lim Limits) ([]byte, error) {
	d := dialectOf(c)
	if d.stripNoValidate { // fault: stored without being validated
		h, err := parseHeader(c, frame, lim)
		if err != nil {
			return nil, err
		}
		n := min(uint64(h.Size())+uint64(h.Length), uint64(len(frame)))
		out := append([]byte(nil), frame[:n]...)
		out[1] &^= byte(OptTS | OptCR)
		return out, nil
	}
	r := DecodeWith(c, frame, lim)
	if v := r.FirstError(); v != nil {
		return nil, v
	}
	if len(r.Frames) != 1 {
		if !c.Enforced(RuleLifeStrip) {
			return nil, nil
		}
		return nil, rules.Fail(RuleLifeStrip, CodeInvalid, r.Frames[1].Offset, "strip takes one TLV, the input holds %d", len(r.Frames))
	}
	switch {
	case d.stripKeepsTrailer: // fault: the frame stored as received
		return append([]byte(nil), frame...), nil
	case d.stripNested: // fault: the trailers of nested TLVs stripped too
		fs := r.Frames
		_ = visitTree(fs, func(f *Frame, _ int) error { f.Opt &^= OptTS | OptCR; return nil }, func(*Frame) error { return nil })
		return encode(c, fs, true)
	}
	h := Header{Type: r.Frames[0].Type, Opt: r.Frames[0].Opt, Length: r.Frames[0].Length}
	n := int64(h.Size()) + int64(h.Length)
	if !d.std { // a fault dialect's payload end, within the frame
		n = min(max(d.place(0, h).pe, 2), int64(len(frame)))
	}
	out := append([]byte(nil), frame[:n]...)
	if !d.stripKeepsBits {
		out[1] &^= byte(OptTS | OptCR)
	}
	return out, nil
}

// Attach takes the at-rest bytes of one TLV (header + payload, TS=0, CR=0)
// and returns them in transit: with a fresh absolute trailer_ts from clock
// when t.Timestamp, and a fresh CRC of the payload and that stamp
// (LT-LIFE-04, LT-CRC-11). The header's TS, TF, CR and CW bits are set to
// match; the payload is copied unchanged.
func Attach(stored []byte, t Trailer, clock Clock) ([]byte, error) {
	return attach(rules.Checks{}, stored, t, clock)
}

// attach is Attach under the Checks c.
func attach(c rules.Checks, stored []byte, t Trailer, clock Clock) ([]byte, error) {
	h, err := parseHeader(c, stored, Limits{MaxTLVBytes: MaxLen32})
	if err != nil {
		return nil, err
	}
	// Under LT-READ-20 header-kept, at-rest bytes keep the received TS and
	// CR bits: only their length says they are at rest.
	kept := c.Takes(ReadStoredBits, AltHeaderKept)
	if (h.Opt&(OptTS|OptCR) != 0 && !kept) || uint64(len(stored)) != uint64(h.Size())+uint64(h.Length) {
		if c.Enforced(RuleLifeAtRest) {
			return nil, rules.Fail(RuleLifeAtRest, CodeInvalid, 0, "attach takes at-rest bytes: %d bytes of %s, header + payload is %d", len(stored), h, uint64(h.Size())+uint64(h.Length))
		}
		stored = stored[:min(uint64(len(stored)), uint64(h.Size())+uint64(h.Length))]
	}
	h.Opt &^= OptTS | OptTF | OptCR | OptCW
	if t.Timestamp {
		h.Opt |= OptTS
	}
	switch t.CRC {
	case TrailerCRC16:
		h.Opt |= OptCR | OptCW
	case TrailerCRC32:
		h.Opt |= OptCR
	}
	out := make([]byte, len(stored), len(stored)+h.Opt.TrailerSize())
	copy(out, stored)
	out[1] = byte(h.Opt)
	acc := NewCRCAccumulator(h.Opt)
	acc.Write(out[min(h.Size(), len(out)):]) // (a fault dialect may read a longer header than there is)
	if t.Timestamp {
		out = binary.LittleEndian.AppendUint64(out, clock()) // LT-FRAME-06
		acc.Write(out[len(out)-8:])
	}
	if h.Opt.Has(OptCR) {
		out = acc.AppendSum(out)
	}
	return out, nil
}

// Forward re-emits a received TLV on another transport: Strip under lim,
// then Attach with t and clock (LT-LIFE-04).
func Forward(frame []byte, lim Limits, t Trailer, clock Clock) ([]byte, error) {
	return ForwardWith(rules.Checks{}, frame, lim, t, clock)
}

// ForwardWith is Forward under the Checks c.
func ForwardWith(c rules.Checks, frame []byte, lim Limits, t Trailer, clock Clock) ([]byte, error) {
	stored, err := StripWith(c, frame, lim)
	if err != nil {
		return nil, err
	}
	d := dialectOf(c)
	switch {
	case d.forwardPassThrough: // fault: the incoming trailer kept
		return append([]byte(nil), frame...), nil
	case d.forwardKeepsStamp: // fault: the sender's wire-time kept as if it were the TLV's own time
		if r := DecodeWith(c, frame, lim); len(r.Frames) == 1 && r.Frames[0].TS != nil {
			old := r.Frames[0].TS.Resolved
			clock = func() uint64 { return old }
		}
	}
	return attach(c, stored, t, clock)
}

// FrameWriter sends one top-level TLV on a stream, payload first and
// trailer last, as a streaming sender does (§CRC / Coverage, LT-CRC-13):
// it writes the header at once, passes payload chunks through while it
// accumulates the CRC, and on Close takes the wire-time from its clock,
// folds the trailer_ts into the accumulator, and appends trailer_ts and
// then the CRC.
type FrameWriter struct {
	c       rules.Checks
	w       io.Writer
	h       Header
	clock   Clock
	acc     CRCAccumulator
	written uint64
	err     error
}

// NewFrameWriter writes the header h to w and returns the writer for its
// payload. h.Length must be the exact payload length. A top-level TLV has
// no ancestor stamp, so TS=1 with TF=1 is refused (LT-TS-04), as are what
// no sender emits (type 0x00 or 0x05, reserved bits) and LL=0 with a
// length over 65535.
func NewFrameWriter(w io.Writer, h Header, clock Clock) (*FrameWriter, error) {
	return newFrameWriter(rules.Checks{}, w, h, clock)
}

// newFrameWriter is NewFrameWriter under the Checks c.
func newFrameWriter(c rules.Checks, w io.Writer, h Header, clock Clock) (*FrameWriter, error) {
	if err := checkSendable(c, h.Type, h.Opt); err != nil {
		return nil, err
	}
	if h.Opt.Has(OptTS) && h.Opt.Has(OptTF) {
		if !c.Enforced(RuleTSNoAnchor) {
			return nil, nil // as the fault-injected reference always did: no writer
		}
		return nil, rules.Fail(RuleTSNoAnchor, CodePathInvalid, -1, "a top-level TLV cannot carry a relative trailer_ts")
	}
	hdr, err := h.appendWith(c, nil)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(hdr); err != nil {
		return nil, err
	}
	return &FrameWriter{c: c, w: w, h: h, clock: clock, acc: NewCRCAccumulator(h.Opt)}, nil
}

// Write sends payload bytes. Writing past the declared length fails.
func (fw *FrameWriter) Write(p []byte) (int, error) {
	if fw.err != nil {
		return 0, fw.err
	}
	if uint64(len(p)) > uint64(fw.h.Length)-fw.written {
		if !fw.c.Enforced(RuleFramePayload) {
			return 0, nil // fault injected: the bytes dropped
		}
		return 0, rules.Fail(RuleFramePayload, CodeInvalid, int64(fw.h.Size())+int64(fw.written), "payload exceeds the declared length %d", fw.h.Length)
	}
	n, err := fw.w.Write(p)
	fw.acc.Write(p[:n])
	fw.written += uint64(n)
	if err != nil {
		fw.err = err
	}
	return n, err
}

// Close ends the frame: it checks that the whole declared payload was
// written, then appends the trailer.
func (fw *FrameWriter) Close() error {
	if fw.err != nil {
		return fw.err
	}
	if fw.written != uint64(fw.h.Length) {
		if !fw.c.Enforced(RuleFramePayload) {
			return nil // fault injected: no trailer
		}
		return rules.Fail(RuleFramePayload, CodeInvalid, int64(fw.h.Size())+int64(fw.written), "payload ends after %d of the declared %d bytes", fw.written, fw.h.Length)
	}
	var tr []byte
	if fw.h.Opt.Has(OptTS) {
		tr = binary.LittleEndian.AppendUint64(tr, fw.clock())
		fw.acc.Write(tr) // folded into the accumulator (LT-CRC-13)
	}
	if fw.h.Opt.Has(OptCR) {
		tr = fw.acc.AppendSum(tr)
	}
	_, err := fw.w.Write(tr)
	fw.err = io.ErrClosedPipe
	return err
}
