package libtracer

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"reflect"
	"runtime"
	"testing"
	"testing/iotest"

	"github.com/threespec/conformance/impl/rules"
)

// chunkReader hands out its bytes in pieces of the sizes given, cycling.
type chunkReader struct {
	b     []byte
	sizes []int
	i     int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	n := min(len(p), len(r.b), r.sizes[r.i%len(r.sizes)])
	r.i++
	copy(p, r.b[:n])
	r.b = r.b[n:]
	return n, nil
}

// readAll drains a StreamDecoder: its frames, and the error it ended with
// (nil for a clean io.EOF).
func readAll(d *StreamDecoder) ([]Frame, error) {
	var fs []Frame
	for {
		f, err := d.Next()
		if errors.Is(err, io.EOF) {
			return fs, nil
		}
		if err != nil {
			return fs, err
		}
		fs = append(fs, f)
	}
}

// streamOf is what a stream receiver must give for the bytes of a
// datagram: the same frames; a datagram truncation is a stream closed
// inside a frame, tr::transport::down (LT-TRUNC-02); an empty stream is a
// clean end (LT-TRUNC-09).
func streamOf(r *Result) ([]Frame, *rules.Violation) {
	err := r.Err
	switch {
	case err == nil:
	case err.Rule == RuleTruncEmptyDatagram:
		err = nil
	case err.Rule == RuleTruncDatagram:
		err = &rules.Violation{Rule: RuleTruncStreamDown, Code: CodeTransportDown, Offset: err.Offset}
	}
	return r.Frames, err
}

func TestStreamAgreesWithDatagram(t *testing.T) {
	t.Parallel()
	ins, lims := corpus(t)
	rng := rand.New(rand.NewPCG(7, 7))
	for i, in := range ins {
		wantFrames, wantErr := streamOf(Decode(in, lims[i]))
		readers := []io.Reader{
			bytes.NewReader(in),
			iotest.OneByteReader(bytes.NewReader(in)),
			iotest.HalfReader(bytes.NewReader(in)),
			&chunkReader{b: in, sizes: []int{1 + rng.IntN(7), 1 + rng.IntN(300), 1 + rng.IntN(3)}},
		}
		for k, rd := range readers {
			got, err := readAll(NewStreamDecoder(rd, lims[i]))
			if !reflect.DeepEqual(normalize(got), normalize(wantFrames)) {
				t.Fatalf("input %d reader %d: frames\n got %+v\nwant %+v", i, k, got, wantFrames)
			}
			if wantErr == nil {
				if err != nil {
					t.Fatalf("input %d reader %d: %v", i, k, err)
				}
				continue
			}
			wantViolation(t, err, wantErr.Rule, wantErr.Code, wantErr.Offset)
		}
	}
}

func TestStreamClosedInsideAFrame(t *testing.T) {
	t.Parallel()
	ex4 := hx(t, "01 30 04 00 2a 00 00 00"+t0Hex+"6a 09 50 4d")
	for cut := 1; cut < len(ex4); cut++ {
		in := cat(vTrue, ex4[:cut])
		d := NewStreamDecoder(iotest.OneByteReader(bytes.NewReader(in)), Limits{})
		if f, err := d.Next(); err != nil || f.Type != 1 {
			t.Fatalf("cut %d: first frame %+v, %v", cut, f, err)
		}
		_, err := d.Next()
		wantViolation(t, err, RuleTruncStreamDown, CodeTransportDown, 5)
		if _, again := d.Next(); again != err {
			t.Fatalf("cut %d: the error must stick, got %v then %v", cut, err, again)
		}
	}
}

// The decoder waits for bytes that have not arrived yet (LT-TRUNC-01): a
// frame written in pieces through a pipe comes out whole.
func TestStreamWaitsForMoreBytes(t *testing.T) {
	t.Parallel()
	path := hx(t, "06 50 12 00 02 00 06 00 73 65 6e 73 6f 72 02 00 04 00 74 65 6d 70 f3 70 ab 47")
	pr, pw := io.Pipe()
	go func() {
		for _, piece := range [][]byte{path[:1], path[1:5], path[5:20], path[20:], vTrue} {
			pw.Write(piece)
		}
		pw.Close()
	}()
	fs, err := readAll(NewStreamDecoder(pr, Limits{}))
	if err != nil || len(fs) != 2 || len(fs[0].Children) != 2 || fs[1].Offset != 26 {
		t.Fatalf("frames %+v, %v", fs, err)
	}
}

// A frame that declares 16 MiB and sends 10 bytes costs about the bytes
// received, not the declared length.
func TestStreamMemoryBoundedByBytesReceived(t *testing.T) { // not parallel: it measures the process's allocations
	in := cat([]byte{0x01, 0x08, 0x00, 0x00, 0x00, 0x01}, make([]byte, 10))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := readAll(NewStreamDecoder(bytes.NewReader(in), Limits{}))
	runtime.ReadMemStats(&after)
	wantViolation(t, err, RuleTruncStreamDown, CodeTransportDown, 0)
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Fatalf("%d bytes allocated for 16 bytes received", n)
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, io.ErrUnexpectedEOF }

func TestStreamReaderError(t *testing.T) {
	t.Parallel()
	_, err := NewStreamDecoder(failingReader{}, Limits{}).Next()
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("error %v", err)
	}
}

// The stream receiver's CRC is accumulated over payload chunks and then
// the trailer_ts as they arrive (LT-CRC-14); a corrupted stamp is
// crc_fail and the stream goes on.
func TestStreamCRC(t *testing.T) {
	t.Parallel()
	ex4 := hx(t, "01 30 04 00 2a 00 00 00"+t0Hex+"6a 09 50 4d")
	in := cat(flip(ex4, 10, 1), status)
	fs, err := readAll(NewStreamDecoder(iotest.OneByteReader(bytes.NewReader(in)), Limits{}))
	if err != nil || len(fs) != 2 {
		t.Fatalf("frames %+v, %v", fs, err)
	}
	wantViolation(t, fs[0].Err, RuleCRCVerify32, CodeCRCFail, 16)
	if fs[1].Type != 9 || fs[1].Offset != 20 {
		t.Fatalf("second frame %+v", fs[1])
	}
}
