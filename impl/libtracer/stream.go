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
	off     int64  // stream offset of pending[0]
	buf     []byte // read buffer, streamChunk bytes
	pending []byte // bytes read and not yet consumed: a part of buf
	eof     bool
	err     error // sticky: framing broke, or the reader failed
}

// streamChunk is how many bytes the decoder asks its reader for at a time.
const streamChunk = 32 << 10

// NewStreamDecoder returns a decoder reading frames from r under lim.
func NewStreamDecoder(r io.Reader, lim Limits) *StreamDecoder {
	return &StreamDecoder{r: r, lim: lim}
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
	start := d.off
	// The header, checked in byte order as its bytes arrive.
	var hb [6]byte
	var h Header
	for want := 1; ; {
		if err := d.fill(want); err != nil {
			return Frame{}, err
		}
		have := copy(hb[:], d.pending)
		if have == 0 {
			return Frame{}, io.EOF // closed between frames: a clean end (LT-TRUNC-09)
		}
		var need int
		var err error
		h, need, err = checkHeader(&hb, have, start, d.lim.maxLen())
		if err != nil {
			return Frame{}, err
		}
		if need == 0 {
			break
		}
		if have < want {
			return Frame{}, d.down(start, uint64(want))
		}
		want = have + need
	}
	total := h.FrameSize()
	// The frame's bytes as they arrive, the CRC accumulated over the
	// payload and then the trailer_ts on the way (LT-CRC-14).
	acc := NewCRCAccumulator(h.Opt)
	covStart := int64(h.Size())
	covEnd := covStart + int64(h.Length) + int64(h.Opt.TSSize())
	covered := covStart
	buf := make([]byte, 0, min(total, uint64(max(len(d.pending), streamChunk))))
	for {
		take := min(uint64(len(d.pending)), total-uint64(len(buf)))
		buf = append(buf, d.pending[:take]...)
		d.pending = d.pending[take:]
		d.off += int64(take)
		if end := min(int64(len(buf)), covEnd); h.Opt.Has(OptCR) && covered < end {
			acc.Write(buf[covered:end])
			covered = end
		}
		if uint64(len(buf)) == total {
			break
		}
		if err := d.fill(1); err != nil {
			return Frame{}, err
		}
		if len(d.pending) == 0 {
			return Frame{}, d.down(start, total)
		}
	}
	if h.Opt.Has(OptCR) {
		cw16 := h.Opt.Has(OptCW)
		if want := readCRC(buf[covEnd:], cw16); acc.Sum() != want {
			if err := crcMismatch(cw16, start, start+covEnd, want, acc.Sum()); err != nil {
				return Frame{Offset: start, Type: h.Type, Opt: h.Opt, Length: h.Length, Err: asViolation(err)}, nil
			}
		}
	}
	r := decode(source{buf: buf}, d.lim, start, true)
	if r.Err != nil {
		return Frame{}, r.Err // not reached: the frame is whole and its header checked
	}
	return r.Frames[0], nil
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
	if err := rules.Fail(RuleTruncStreamDown, CodeTransportDown, start, "stream closed after %d of the %d bytes the frame at %d needs", got, need, start); err != nil {
		return err
	}
	return io.EOF // fault injected: end quietly
}
