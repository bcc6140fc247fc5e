package testee

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"
)

// FuzzReadAnswer: the answer reader of conform run, given any bytes from a
// testee, gives for each line either a well-formed response to the
// request's id or a *Failure of a kind a bad answer can have, reports a
// line over the cap as a flood, ends at the end of the input, and never
// holds more than the cap and its read buffer.
func FuzzReadAnswer(f *testing.F) {
	for _, s := range responseSeeds {
		f.Add([]byte(s+"\n"+s), uint16(200))
	}
	f.Add([]byte(`{"id":1,"ok":true,"result":{}}`+"\n"+`{"id":2,"ok":true,"result":{"x":"`+string(bytes.Repeat([]byte("A"), 400))+`"}}`+"\n"), uint16(100))
	f.Add([]byte("\xff\xfe\n{\n"), uint16(10))
	f.Fuzz(func(t *testing.T, in []byte, capLine uint16) {
		max := int(capLine)%4096 + 1
		l := newLineReader(iotest.OneByteReader(bytes.NewReader(in)), max)
		for id := int64(1); ; id++ {
			resp, err := l.readAnswer(id)
			if cap(l.long) > max || len(l.buf) != readBufSize {
				t.Fatalf("answer %d: holds %d+%d bytes for a cap of %d", id, cap(l.long), len(l.buf), max)
			}
			var f *Failure
			switch {
			case err == nil:
				if resp.ID != id || resp.Outcome < Accepted || resp.Outcome > Unsupported ||
					resp.Outcome == Rejected && resp.Code == "" {
					t.Fatalf("answer %d: %+v is no well-formed response", id, resp)
				}
			case errors.As(err, &f):
				if f.ID != id || f.Detail == "" || (f.Kind != InvalidJSON && f.Kind != BadShape && f.Kind != WrongID) {
					t.Fatalf("answer %d: failure %+v", id, f)
				}
			case errors.Is(err, errLineTooLong):
				return // a flood ends the testee's process
			case err == io.EOF:
				return
			default:
				t.Fatalf("answer %d: unexpected error %v", id, err)
			}
		}
	})
}
