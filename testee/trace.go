package testee

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"
)

// Trace writes a testee's conversation as it happens, for an adapter's
// author to debug it (conform run, features and smoke --trace FILE): every
// request line sent and every answer line read, each with the time since
// the trace began, the process it went to (its pid; "one-shot" with the
// operation in one-shot mode) and, for an answer, how long it took. A long
// input is abbreviated to its first TraceInput bytes (in base64) and its
// size; a long answer line to its first TraceAnswer bytes and its length;
// a testee failure is a line of its own. Lines look like
//
//	+0.004s pid 4242 > {"id":0,"op":"hello","args":{},"input":""}
//	+0.006s pid 4242 < {"id":0,"ok":true,"result":{...}}  (1.9ms)
//	+0.210s pid 4242 ! timeout: no answer within 10s  (10s)
//
// A nil *Trace traces nothing. It is safe for concurrent use (the lines of
// several processes interleave, each whole); a write error stops the trace
// and is kept (Err).
type Trace struct {
	mu    sync.Mutex
	w     io.Writer
	start time.Time
	buf   []byte
	err   error
}

// Sizes a trace line shows in full: the input bytes (before base64) and
// the answer line.
const (
	TraceInput  = 48
	TraceAnswer = 512
)

// NewTrace returns a trace that writes to w, its clock starting now.
func NewTrace(w io.Writer) *Trace { return &Trace{w: w, start: time.Now()} }

// Err is the first error writing the trace, if any.
func (t *Trace) Err() error {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.err
}

func (t *Trace) line(who string, dir byte, body []byte, took time.Duration) {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.err != nil {
		return
	}
	b := t.buf[:0]
	b = fmt.Appendf(b, "+%.3fs %s %c ", time.Since(t.start).Seconds(), who, dir)
	b = append(b, body...)
	if took >= 0 {
		b = fmt.Appendf(b, "  (%v)", took.Round(time.Microsecond))
	}
	b = append(b, '\n')
	_, t.err = t.w.Write(b)
	t.buf = b
}

// Request traces a request as its line, the input abbreviated.
func (t *Trace) Request(who string, req Request) {
	if t == nil {
		return
	}
	head, err := appendRequestHead(nil, req)
	if err != nil {
		t.line(who, '>', fmt.Appendf(nil, "(not sent: %v)", err), -1)
		return
	}
	if req.InputPath != "" {
		head = append(head, `,"input_path":`...)
		head = appendString(head, req.InputPath)
		head = fmt.Appendf(head, "} (%d bytes by path)", req.InputSize)
		t.line(who, '>', head, -1)
		return
	}
	in := req.Input
	head = append(head, `,"input":"`...)
	head = base64.StdEncoding.AppendEncode(head, in[:min(len(in), TraceInput)])
	if len(in) > TraceInput {
		head = fmt.Appendf(head, `..."} (input %d bytes, %d in base64)`, len(in), base64.StdEncoding.EncodedLen(len(in)))
	} else {
		head = append(head, `"}`...)
	}
	t.line(who, '>', head, -1)
}

// Answer traces an answer line as read (without its LF), abbreviated.
func (t *Trace) Answer(who string, line []byte, took time.Duration) {
	if t == nil {
		return
	}
	line = bytes.TrimRight(line, "\r\n")
	if len(line) <= TraceAnswer {
		t.line(who, '<', line, took)
		return
	}
	cut := TraceAnswer
	for cut > 0 && !utf8.RuneStart(line[cut]) {
		cut--
	}
	body := append(line[:cut:cut], "... ("...)
	body = strconv.AppendInt(body, int64(len(line)), 10)
	body = append(body, " bytes)"...)
	t.line(who, '<', body, took)
}

// Failure traces a testee failure (or any error) in place of an answer.
func (t *Trace) Failure(who string, err error, took time.Duration) {
	if t == nil || err == nil {
		return
	}
	msg := err.Error()
	if f := (*Failure)(nil); errors.As(err, &f) {
		msg = f.Kind.String() + ": " + f.Detail
	}
	if len(msg) > TraceAnswer {
		msg = msg[:TraceAnswer] + "..."
	}
	t.line(who, '!', []byte(msg), took)
}

// tracePid names a persistent process in a trace.
func tracePid(p *proc) string {
	if p == nil {
		return "pid ?"
	}
	return "pid " + strconv.Itoa(p.pid)
}
