package harness

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"
)

// FuzzRequestReader: the request reader of conform serve gives the lines
// that splitting on LF gives (the last one without LF included), reports
// each line over the cap as too long and goes on with the next, and never
// holds more than the cap for a line, however long.
func FuzzRequestReader(f *testing.F) {
	f.Add([]byte("a\nbc\n\nd"), uint16(2), uint16(1))
	f.Add(bytes.Repeat([]byte("x"), 300), uint16(100), uint16(16))
	f.Add([]byte("short\n"+string(bytes.Repeat([]byte("y"), 5000))+"\nok"), uint16(4096), uint16(16))
	f.Fuzz(func(t *testing.T, in []byte, capLine, bufSize uint16) {
		limit := int(capLine)%5000 + 1
		size := max(int(bufSize)%9000, 16) // bufio's minimum
		l := &requestReader{br: bufio.NewReaderSize(iotest.HalfReader(bytes.NewReader(in)), size), max: limit}
		want := bytes.Split(in, []byte("\n"))
		if len(in) > 0 && in[len(in)-1] == '\n' {
			want = want[:len(want)-1]
		}
		if len(in) == 0 {
			want = nil
		}
		for i, w := range want {
			line, err := l.next()
			switch {
			case len(w) > limit:
				if !errors.Is(err, errRequestTooLong) {
					t.Fatalf("line %d (%d bytes, cap %d): got %q, %v; want too long", i, len(w), limit, line, err)
				}
			case err != nil || !bytes.Equal(line, w):
				t.Fatalf("line %d: got %q, %v; want %q", i, line, err, w)
			}
			if cap(l.long) > limit {
				t.Fatalf("line %d: holds %d bytes for a cap of %d", i, cap(l.long), limit)
			}
		}
		if line, err := l.next(); err != io.EOF {
			t.Fatalf("after the last line: %q, %v; want EOF", line, err)
		}
	})
}
