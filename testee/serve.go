package testee

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
)

// Serve is the testee's side of persistent mode: it reads request lines
// from r, answers each with impl, and writes the responses to w, in order,
// until r ends (docs/PROTOCOL.md, "Persistent mode"). `conform serve` is
// Serve over the in-process reference. Output is flushed whenever no further
// request is already buffered, so a pipelining client is answered in batches
// and a lock-step client at once.
//
// Serve returns nil at the end of r. It stops with an error on a request
// line longer than maxLine (0 selects 128 MiB) or that ParseRequest rejects,
// on an error of impl other than a rejection (which is a Response), and on
// read or write errors: the protocol has no answer for a request it cannot
// read, and conform reports the exit as a testee failure.
func Serve(ctx context.Context, r io.Reader, w io.Writer, impl Implementation, maxLine int) error {
	if maxLine <= 0 {
		maxLine = DefaultMaxLine
	}
	lr := newLineReader(r, maxLine)
	bw := bufio.NewWriterSize(w, 64<<10)
	var out []byte
	for n := 1; ; n++ {
		line, err := lr.readLine()
		if err != nil {
			ferr := bw.Flush()
			switch {
			case err == io.EOF && lr.pending() == 0:
				return ferr
			case err == io.EOF:
				return fmt.Errorf("testee: request line %d: input ends inside the line", n)
			case err == errLineTooLong:
				return fmt.Errorf("testee: request line %d: longer than %d bytes", n, maxLine)
			}
			return err
		}
		req, err := ParseRequest(line)
		if err != nil {
			bw.Flush()
			return fmt.Errorf("testee: request line %d: %v", n, err)
		}
		resp, err := impl.Do(ctx, req)
		if err != nil {
			bw.Flush()
			return fmt.Errorf("testee: request %d (%s): %w", req.ID, req.Op, err)
		}
		resp.ID = req.ID
		if out, err = WriteResponse(bw, out, resp); err != nil {
			if errors.Is(err, ErrMalformedResponse) {
				bw.Flush()
				return fmt.Errorf("testee: %w", err)
			}
			return err
		}
		if lr.buffered() == 0 {
			if err := bw.Flush(); err != nil {
				return err
			}
		}
		if cap(out) > keepLong {
			out = nil
		}
	}
}
