package libtracer

import (
	"errors"
	"io"

	"github.com/threespec/conformance/impl/rules"
)

// StreamDecoder reads frames from a stream transport (TCP, UART, I2C): it
// waits for more bytes while a frame is incomplete (LT-TRUNC-01) and
// reports tr::transport::down when the stream closes inside a frame
// (LT-TRUNC-02). It checks each header as its bytes arrive, so an INVALID
// header is reported before its payload is awaited, and it accumulates the
// top-level CRC over the payload and then the trailer_ts as they arrive
// (LT-CRC-14). Its memory is bounded by the bytes received: a frame's
// buffer grows with the bytes that arrive, never to its declared length
// ahead of them.
type StreamDecoder struct {
	r       io.Reader
	lim     Limits
	c       rules.Checks // the rules, mutants and readings of every frame
	mis     misreading   // nil: libtracer-01 (faultwalk.go); set at the first frame
	started bool         // mis is set
	current bool         // TRANSITIONAL (issue 16): c is rules.Current() at the first frame
	off     int64        // stream offset of pending[0]
	buf     []byte       // read buffer, streamChunk bytes
	pending []byte       // bytes read and not yet consumed: a part of buf
	eof     bool
	err     error // sticky: framing broke, or the reader failed
}

// streamChunk is how many bytes the decoder asks its reader for at a time.
const streamChunk = 32 << 10

// NewStreamDecoder returns a decoder reading frames from r under lim.
func NewStreamDecoder(r io.Reader, lim Limits) *StreamDecoder {
	return &StreamDecoder{r: r, lim: lim, current: true}
}

// NewStreamDecoderWith is NewStreamDecoder under the Checks c, which every
// frame it reads carries.
func NewStreamDecoderWith(c rules.Checks, r io.Reader, lim Limits) *StreamDecoder {
	return &StreamDecoder{r: r, lim: lim, c: c}
}

// Next returns the next top-level frame. A frame rejected although its
// extent is known comes back with Frame.Err set and a nil error, and the
// stream goes on (LT-CTX-04). Next returns io.EOF when the stream closes
// between frames, a *rules.Violation when framing broke (INVALID header,
// tr::transport::down), or the reader's own error; every later call returns
// the same error.
func (d *StreamDecoder) Next() (Frame, error) {
	if d.err != nil {
		return Frame{}, d.err
	}
	f, err := d.next()
	if err != nil {
		d.err = err
	}
	return f, err
}

func (d *StreamDecoder) next() (Frame, error) {
	if !d.started { // here rather than in the constructors, which then inline
		if d.current {
			d.c = rules.Current()
		}
		d.mis, d.started = newMisreading(d.c), true
	}
	for {
		f, ok, err := d.frame()
		if ok || err != nil {
			return f, err
		}
	}
}

// frame reads one frame; ok is false for a frame a fault dialect drops.
func (d *StreamDecoder) frame() (Frame, bool, error) {
	mis := d.mis
	maxLen := d.lim.maxLen()
	if mis != nil {
		maxLen, _ = mis.limits(d.lim)
	}
	start := d.off
	// The header, checked in byte order as its bytes arrive.
	var hb [6]byte
	var h Header
	for want := 1; ; {
		if err := d.fill(want); err != nil {
			return Frame{}, false, err
		}
		have := copy(hb[:], d.pending)
		if have == 0 {
			if mis != nil {
				if err := mis.streamEnd(start); err != nil {
					return Frame{}, false, err
				}
			}
			return Frame{}, false, io.EOF // closed between frames: a clean end (LT-TRUNC-09)
		}
		var need int
		var err error
		if mis != nil {
			h, need, err = mis.checkHeader(hb, have, start, maxLen, false)
		} else {
			h, need, err = checkHeader(d.c, &hb, have, start, maxLen)
		}
		if err != nil {
			return Frame{}, false, err
		}
		if need == 0 {
			break
		}
		if have < want {
			return Frame{}, false, d.down(start, uint64(want))
		}
		want = have + need
	}
	total := h.FrameSize()
	// The frame's bytes as they arrive, the CRC accumulated over the
	// payload and then the trailer_ts on the way (LT-CRC-14).
	preverify, payloadOnly := true, false
	if mis != nil {
		if err := mis.outer(h, start); err != nil {
			return Frame{}, false, err
		}
		total = mis.extent(h)
		preverify, payloadOnly = mis.streamCRC()
	}
	acc := NewCRCAccumulator(h.Opt)
	covStart := int64(h.Size())
	covEnd := covStart + int64(h.Length) + int64(h.Opt.TSSize())
	crcAt := covEnd
	if payloadOnly {
		covEnd = covStart + int64(h.Length)
	}
	covered := covStart
	buf := make([]byte, 0, min(total, uint64(max(len(d.pending), streamChunk))))
	for {
		take := min(uint64(len(d.pending)), total-uint64(len(buf)))
		buf = append(buf, d.pending[:take]...)
		d.pending = d.pending[take:]
		d.off += int64(take)
		if end := min(int64(len(buf)), covEnd); preverify && h.Opt.Has(OptCR) && covered < end {
			acc.Write(buf[covered:end])
			covered = end
		}
		if uint64(len(buf)) == total {
			break
		}
		if mis != nil && !mis.streamWaits() { // fault: what has not arrived yet is taken as lost
			return Frame{}, false, d.down(start, total)
		}
		if err := d.fill(1); err != nil {
			return Frame{}, false, err
		}
		if len(d.pending) == 0 {
			return Frame{}, false, d.down(start, total)
		}
	}
	if preverify && h.Opt.Has(OptCR) {
		cw16 := h.Opt.Has(OptCW)
		if want := readCRC(buf[crcAt:], cw16); acc.Sum() != want {
			if err := crcMismatch(d.c, cw16, start, start+crcAt, want, acc.Sum()); err != nil {
				return Frame{Offset: start, Type: h.Type, Opt: h.Opt, Length: h.Length, Err: asViolation(err)}, true, nil
			}
		}
	}
	r := decode(d.c, source{buf: buf}, d.lim, start, preverify)
	if r.Err != nil {
		return Frame{}, false, r.Err // not reached but under fault injection: the frame is whole and its header checked
	}
	if len(r.Frames) == 0 {
		return Frame{}, false, nil // a fault dialect dropped it
	}
	return r.Frames[0], true, nil
}

// fill reads until at least n (at most 6) bytes are pending or the stream
// ends. Pending bytes live in one reused buffer of streamChunk bytes.
func (d *StreamDecoder) fill(n int) error {
	for len(d.pending) < n && !d.eof {
		if d.buf == nil {
			d.buf = make([]byte, streamChunk)
		}
		k := copy(d.buf, d.pending) // the few bytes left move to the front
		m, err := d.r.Read(d.buf[k:])
		d.pending = d.buf[:k+m]
		switch {
		case errors.Is(err, io.EOF):
			d.eof = true
		case err != nil:
			return err
		}
	}
	return nil
}

// down is the stream closing inside the frame at start, which needed at
// least need bytes (LT-TRUNC-02).
func (d *StreamDecoder) down(start int64, need uint64) error {
	got := d.off - start + int64(len(d.pending))
	if d.mis != nil {
		if err := d.mis.streamDown(start); err != nil {
			return err
		}
	}
	if !d.c.Enforced(RuleTruncStreamDown) {
		return io.EOF // fault injected: end quietly
	}
	return rules.Fail(RuleTruncStreamDown, CodeTransportDown, start, "stream closed after %d of the %d bytes the frame at %d needs", got, need, start)
}
