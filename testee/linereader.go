package testee

import (
	"bytes"
	"errors"
	"io"
	"sync"
)

// errLineTooLong is returned by lineReader.readLine for a line longer than its cap.
var errLineTooLong = errors.New("line longer than the read cap")

// lineReader reads LF-terminated lines from r with a bound on the line
// length. A line that fits the read buffer is returned as a slice of it
// without copying; a longer one is gathered in a second buffer that grows
// geometrically up to the cap and never beyond it: a testee that writes
// gigabytes without a newline costs at most the cap plus the read buffer
// before readLine returns errLineTooLong.
type lineReader struct {
	r       io.Reader
	max     int    // the longest line accepted, without its LF
	buf     []byte // the read buffer; buf[r0:w] is read but not yet returned
	r0, w   int
	long    []byte // a line that outgrew buf, gathered so far
	spilled bool   // the current line is being gathered in long
	// expect is the expected length of the next line (0: none): a line
	// that outgrows buf is gathered in one buffer of that length at once,
	// not in doubling ones (each an extra copy and, until the garbage is
	// collected, resident memory).
	expect int
	// trace, when set, is given each answer line as it is read
	// (readAnswer), before it is parsed.
	trace func(line []byte)
}

const (
	readBufSize = 64 << 10
	keepLong    = 4 << 20
)

func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{r: r, max: max, buf: make([]byte, readBufSize)}
}

// reset starts reading from r, forgetting what was buffered.
func (l *lineReader) reset(r io.Reader) {
	l.r, l.r0, l.w, l.spilled = r, 0, 0, false
	l.long = l.long[:0]
}

// readLine returns the next line without its LF. The slice is valid until
// the next call. At the end of input or on a read error it returns the
// error; pending then tells how many bytes of an unterminated line were read.
func (l *lineReader) readLine() ([]byte, error) {
	if l.spilled {
		l.long, l.spilled = l.long[:0], false
		if cap(l.long) > keepLong {
			l.long = nil // do not hold a huge line's memory for the rest of the run
		}
	}
	for {
		if i := bytes.IndexByte(l.buf[l.r0:l.w], '\n'); i >= 0 {
			line := l.buf[l.r0 : l.r0+i]
			l.r0 += i + 1
			if l.spilled {
				if len(l.long)+len(line) > l.max {
					return nil, errLineTooLong
				}
				l.long = append(l.long, line...)
				return l.long, nil
			}
			if len(line) > l.max {
				return nil, errLineTooLong
			}
			return line, nil
		}
		if l.pending() > l.max {
			return nil, errLineTooLong
		}
		switch {
		case l.spilled || (l.r0 == 0 && l.w == len(l.buf)):
			// The line outgrows the read buffer: move what is read to long.
			l.grow(len(l.long) + l.w - l.r0)
			l.long = append(l.long, l.buf[l.r0:l.w]...)
			l.r0, l.w, l.spilled = 0, 0, true
		case l.r0 > 0:
			l.w = copy(l.buf, l.buf[l.r0:l.w])
			l.r0 = 0
		}
		n, err := l.r.Read(l.buf[l.w:])
		l.w += n
		if err != nil && n == 0 {
			return nil, err
		}
	}
}

// grow makes room in long for need bytes (need <= max), doubling but never
// beyond max.
func (l *lineReader) grow(need int) {
	if need <= cap(l.long) {
		return
	}
	c := max(2*cap(l.long), need, readBufSize)
	if l.expect >= need {
		c = l.expect + readBufSize // the expected line at once, and a little more
	}
	c = min(c, l.max)
	nl := make([]byte, len(l.long), c)
	copy(nl, l.long)
	l.long = nl
}

// pending is the number of bytes of the current, unterminated line read so far.
func (l *lineReader) pending() int {
	n := l.w - l.r0
	if l.spilled {
		n += len(l.long)
	}
	return n
}

// buffered is the number of bytes read beyond the last line returned.
func (l *lineReader) buffered() int { return l.w - l.r0 }

// tail keeps the last max bytes written to it: the stderr ring buffer.
type tail struct {
	mu    sync.Mutex
	max   int
	data  []byte // grows to max, then is overwritten circularly from pos
	pos   int
	total int64 // bytes written in all
}

func newTail(max int) *tail { return &tail{max: max} }

// Write keeps the last max bytes of everything written; it never fails.
func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	t.total += int64(n)
	if t.max <= 0 {
		return n, nil
	}
	if room := t.max - len(t.data); room > 0 {
		k := min(room, len(p))
		t.data = append(t.data, p[:k]...)
		p = p[k:]
	}
	if len(p) >= t.max {
		p = p[len(p)-t.max:]
		copy(t.data, p)
		t.pos = 0
		return n, nil
	}
	for len(p) > 0 {
		k := copy(t.data[t.pos:], p)
		p = p[k:]
		t.pos = (t.pos + k) % t.max
	}
	return n, nil
}

// Bytes returns a copy of the kept bytes, oldest first.
func (t *tail) Bytes() []byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]byte, 0, len(t.data))
	out = append(out, t.data[t.pos:]...)
	return append(out, t.data[:t.pos]...)
}

// Total returns the number of bytes written in all, kept or not.
func (t *tail) Total() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.total
}
