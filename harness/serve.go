package harness

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strconv"

	"github.com/threespec/conformance/testee"
	"github.com/threespec/conformance/vectorset"
)

// BadRequest is the code `conform serve` answers a request it cannot read
// with (docs/PROTOCOL.md, "conform serve"): a line that is not a request
// (not JSON, a member missing or of the wrong type, input that is not
// canonical base64), a line longer than the read cap, or arguments the
// operation cannot use.
const BadRequest = "BAD_REQUEST"

// InternalError is the code of an answer to a request the implementation
// failed on for a reason of its own (never seen from the reference).
const InternalError = "INTERNAL_ERROR"

// UnknownID is the id of the answer to a request line whose own id cannot
// be read.
const UnknownID = -1

// Serve is the testee's side of persistent mode that never gives up on its
// input: it reads request lines from r until r ends and writes one response
// line per request line to w, in order, answering from impl. A line it
// cannot use is answered with ok:false and code BadRequest (with the line's
// id when one can be read, else UnknownID), a line longer than maxLine (0
// selects testee.DefaultMaxLine) is skipped to its LF and answered the same
// way, and an error of impl is answered with BadRequest (a request built
// wrong) or InternalError. A final line without LF is answered like any
// other. Output is flushed whenever no further request is already buffered.
//
// Serve returns nil at the end of r, or the first write error.
func Serve(ctx context.Context, r io.Reader, w io.Writer, impl testee.Implementation, maxLine int) error {
	if maxLine <= 0 {
		maxLine = testee.DefaultMaxLine
	}
	lr := &requestReader{br: bufio.NewReaderSize(r, 64<<10), max: maxLine}
	bw := bufio.NewWriterSize(w, 64<<10)
	var out []byte
	for n := 1; ; n++ {
		line, err := lr.next()
		if err == io.EOF {
			return bw.Flush()
		}
		var resp testee.Response
		release := func() {}
		switch {
		case errors.Is(err, errRequestTooLong):
			resp = badRequest(UnknownID, "request line %d: longer than the read cap of %d bytes", n, maxLine)
		case err != nil:
			bw.Flush()
			return err
		default:
			resp, release = answer(ctx, impl, line, n, maxLine)
		}
		out, err = testee.WriteResponse(bw, out, resp)
		if errors.Is(err, testee.ErrMalformedResponse) {
			// Only an implementation's malformed result gets here.
			out, err = testee.WriteResponse(bw, out, internalError(resp.ID, "request line %d: %v", n, err))
		}
		release() // the answer is written out (its result may hold the input): let go of the input
		if err != nil {
			return err
		}
		if lr.br.Buffered() == 0 {
			if err := bw.Flush(); err != nil {
				return err
			}
		}
		if cap(out) > 4<<20 {
			out = nil // do not hold a huge answer's memory for the rest of the run
		}
	}
}

// answer parses one request line and answers it, never failing. The line
// is decoded in place (it is the reader's buffer, not read again before
// the answer is written). An input given by path is read from its file, at
// most maxInput bytes, or mapped (openInputFile); release lets go of it,
// once the answer is written out. hello's answer claims
// testee.CapabilityInputPath.
func answer(ctx context.Context, impl testee.Implementation, line []byte, n, maxInput int) (resp testee.Response, release func()) {
	release = func() {}
	req, err := testee.ParseRequestInPlace(line)
	if err != nil {
		id := req.ID
		// The line is overwritten only after its id was read.
		if re := (*testee.RequestError)(nil); !errors.As(err, &re) || !re.HasID {
			id = lenientID(line)
		}
		return badRequest(id, "request line %d: %v", n, err), release
	}
	if req.InputPath != "" {
		if req.Input, release, err = openInput(req.InputPath, maxInput); err != nil {
			return badRequest(req.ID, "request line %d: \"input_path\": %v", n, err), func() {}
		}
		req.InputPath = ""
		resp = answerMapped(ctx, impl, req, n)
	} else {
		resp = Answer(ctx, impl, req)
	}
	if req.Op == testee.OpHello && resp.Outcome == testee.Accepted {
		resp.Result = withCapability(resp.Result, testee.CapabilityInputPath)
	}
	return resp, release
}

// answerMapped is Answer for an input that may be a mapped file: a fault
// reading it (the file was cut short after it was mapped) is answered with
// BadRequest, not a crash.
func answerMapped(ctx context.Context, impl testee.Implementation, req testee.Request, n int) (resp testee.Response) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if e := recover(); e != nil {
			if _, fault := e.(interface{ Addr() uintptr }); !fault {
				panic(e)
			}
			resp = badRequest(req.ID, "request line %d: \"input_path\": the file changed while it was read (%v)", n, e)
		}
	}()
	return Answer(ctx, impl, req)
}

// openInput is openInputFile; FuzzServe replaces it, so that fuzzed paths
// name no real files.
var openInput = openInputFile

// readInputFile reads the input file a request names, failing for one
// longer than max bytes (openInputSized, readOpened).
func readInputFile(path string, max int) ([]byte, error) {
	f, size, err := openInputSized(path, max)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readOpened(f, path, size, max)
}

// openInputSized opens the input file a request names, which must be a
// regular file (a link to one is followed), and returns its size; a file
// longer than max bytes is an error. Nothing else is opened for reading:
// a FIFO's open would wait for a writer, and a read of /dev/stdin or a
// terminal for its end, holding up every later request (issue 30). The
// path is checked with Stat before it is opened, and the file once open:
// the open does not block (openNonBlocking), so a FIFO put in its place in
// between is refused too.
func openInputSized(path string, max int) (*os.File, int, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, 0, err
	}
	if !fi.Mode().IsRegular() {
		return nil, 0, fmt.Errorf("%s: not a regular file (%s)", path, vectorset.FileKind(fi.Mode()))
	}
	f, err := openNonBlocking(path)
	if err != nil {
		return nil, 0, err
	}
	st, err := f.Stat()
	switch {
	case err != nil:
		f.Close()
		return nil, 0, err
	case !st.Mode().IsRegular():
		f.Close()
		return nil, 0, fmt.Errorf("%s: not a regular file (%s)", path, vectorset.FileKind(st.Mode()))
	case st.Size() > int64(max):
		f.Close()
		return nil, 0, fmt.Errorf("%s: %d bytes, longer than the read cap of %d bytes", path, st.Size(), max)
	}
	return f, int(st.Size()), nil
}

// readOpened reads f, named path, of the given size (-1: unknown), failing
// once it holds more than limit bytes (checked as it is read, so a growing
// file or a device costs at most limit+1 bytes). A regular file is read into
// one buffer of its size and a byte more, so that reaching its end needs
// no second buffer (bytes.Buffer.ReadFrom would double a full buffer
// before it sees EOF: a 32 MiB input cost 64 MiB more, touched and
// copied).
func readOpened(f *os.File, path string, size, limit int) ([]byte, error) {
	buf := make([]byte, 0, max(size, 0)+1) // unknown size: grown as it fills
	for {
		n, err := f.Read(buf[len(buf):min(cap(buf), limit+1)])
		buf = buf[:len(buf)+n]
		switch {
		case len(buf) > limit:
			return nil, fmt.Errorf("%s: longer than the read cap of %d bytes", path, limit)
		case err == io.EOF:
			return buf, nil
		case err != nil:
			return nil, err
		case len(buf) == cap(buf):
			buf = append(buf, 0)[:len(buf)] // it grew, or it is no regular file: grow geometrically
		}
	}
}

// withCapability adds c to the "capabilities" of a hello result object
// (left as it is when that member is there but not a list of strings:
// then the client judges the hello).
func withCapability(result json.RawMessage, c string) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(result, &m) != nil || m == nil {
		return result
	}
	var caps []string
	if raw, ok := m["capabilities"]; ok {
		if json.Unmarshal(raw, &caps) != nil {
			return result
		}
	}
	if slices.Contains(caps, c) {
		return result
	}
	b, err := json.Marshal(append(caps, c))
	if err != nil {
		return result
	}
	m["capabilities"] = b
	out, err := json.Marshal(m)
	if err != nil {
		return result
	}
	return out
}

// Answer asks impl and turns an error into a rejection: BadRequest for a
// request built wrong (testee.ErrInvalidRequest), InternalError otherwise.
// The response carries req's id.
func Answer(ctx context.Context, impl testee.Implementation, req testee.Request) testee.Response {
	resp, err := impl.Do(ctx, req)
	switch {
	case errors.Is(err, testee.ErrInvalidRequest):
		return badRequest(req.ID, "%v", err)
	case err != nil:
		return internalError(req.ID, "%v", err)
	}
	resp.ID = req.ID
	return resp
}

func badRequest(id int64, format string, args ...any) testee.Response {
	return testee.Response{ID: id, Outcome: testee.Rejected, Code: BadRequest, Detail: fmt.Sprintf(format, args...)}
}

func internalError(id int64, format string, args ...any) testee.Response {
	return testee.Response{ID: id, Outcome: testee.Rejected, Code: InternalError, Detail: fmt.Sprintf(format, args...)}
}

// lenientID returns the integer "id" of a line that is a JSON object
// holding one, else UnknownID.
func lenientID(line []byte) int64 {
	var v struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &v) != nil || len(v.ID) == 0 || bytes.ContainsAny(v.ID, ".eE") {
		return UnknownID
	}
	id, err := strconv.ParseInt(string(v.ID), 10, 64)
	if err != nil {
		return UnknownID
	}
	return id
}

var errRequestTooLong = errors.New("request line longer than the read cap")

// requestReader reads LF-terminated lines of at most max bytes (without the
// LF). A longer line is read to its LF and dropped, costing at most max
// bytes of memory, and reported as errRequestTooLong; reading goes on with
// the next line.
type requestReader struct {
	br   *bufio.Reader
	max  int
	long []byte
}

func (l *requestReader) next() ([]byte, error) {
	if cap(l.long) > 4<<20 {
		l.long = nil
	}
	l.long = l.long[:0]
	tooLong := false
	for {
		chunk, err := l.br.ReadSlice('\n')
		if err == nil || err == io.EOF {
			chunk = bytes.TrimSuffix(chunk, []byte("\n"))
		}
		switch {
		case tooLong:
		case len(l.long)+len(chunk) > l.max:
			tooLong = true
		case err == bufio.ErrBufferFull || len(l.long) > 0:
			if need := len(l.long) + len(chunk); need > cap(l.long) {
				// Double (never beyond the cap): a 44.7 MiB line is
				// copied a few times, not at every 25 % of growth.
				nl := make([]byte, len(l.long), min(max(2*cap(l.long), need, 64<<10), l.max))
				copy(nl, l.long)
				l.long = nl
			}
			l.long = append(l.long, chunk...)
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF && len(chunk) == 0 && len(l.long) == 0 && !tooLong:
			return nil, io.EOF
		case err != nil && err != io.EOF:
			return nil, err
		case tooLong:
			return nil, errRequestTooLong
		case len(l.long) > 0:
			return l.long, nil
		}
		return chunk, nil
	}
}

// ServeOneShot is the testee's side of one-shot mode (docs/PROTOCOL.md,
// "One-shot mode"): it answers operation op for the input read from r (at
// most maxInput bytes; 0 selects testee.DefaultMaxLine) with args, the
// value of CONFORM_ARGS ("" is {}), writes the response to w and returns
// the exit status the protocol asks for: 0 for ok:true and unsupported, 1
// for ok:false. Args that are not a JSON object (or name a member twice,
// testee.CheckArgs) and an input over the cap are answered with
// BadRequest.
func ServeOneShot(ctx context.Context, op string, r io.Reader, args string, w io.Writer, impl testee.Implementation, maxInput int) (int, error) {
	if maxInput <= 0 {
		maxInput = testee.DefaultMaxLine
	}
	var resp testee.Response
	input, err := io.ReadAll(io.LimitReader(r, int64(maxInput)+1))
	switch {
	case err != nil:
		return 1, err
	case len(input) > maxInput:
		resp = badRequest(0, "input longer than the read cap of %d bytes", maxInput)
	case op == "":
		resp = badRequest(0, "empty operation")
	default:
		raw := json.RawMessage(args)
		if len(bytes.TrimSpace(raw)) == 0 {
			raw = json.RawMessage("{}")
		}
		if err := testee.CheckArgs(raw); err != nil {
			resp = badRequest(0, "%s is %.60q: %v", testee.ArgsEnv, args, err)
			break
		}
		resp = Answer(ctx, impl, testee.Request{Op: op, Args: raw, Input: input})
	}
	out, err := testee.AppendResponse(nil, resp)
	if err != nil {
		out, _ = testee.AppendResponse(nil, internalError(0, "%v", err))
		resp.Outcome = testee.Rejected
	}
	if _, err := w.Write(out); err != nil {
		return 1, err
	}
	if resp.Outcome == testee.Rejected {
		return 1, nil
	}
	return 0, nil
}
