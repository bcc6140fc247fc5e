package testee

import (
	"fmt"
	"strconv"
	"strings"
)

// Kind classifies a testee failure: what the testee did wrong, as opposed to
// a rejection, which is a well-formed answer (docs/PROTOCOL.md, "Anything
// else is a testee failure").
type Kind uint8

const (
	// Timeout: no answer within the per-request timeout, or the testee did
	// not read its request within it.
	Timeout Kind = iota + 1
	// Exited: the testee exited, or closed its standard output, before answering.
	Exited
	// InvalidJSON: the answer is not one JSON object in UTF-8.
	InvalidJSON
	// BadShape: the answer is a JSON object but none of the three response shapes.
	BadShape
	// WrongID: the answer's id is missing, not an integer, or not the request's.
	WrongID
	// Flood: the answer is longer than the read cap.
	Flood
	// StartFailed: the testee could not be started.
	StartFailed
	// BadExit: one-shot mode: the exit status is neither 0 nor 1, or
	// disagrees with the response (0 for ok and unsupported, 1 for rejected).
	BadExit
	// BadHello: the answer to hello is well-formed but not a valid hello
	// result (protocol not 1, ops missing, a rejection, ...).
	BadHello
	// Canceled: the caller's context ended before the answer came. The
	// testee is restarted all the same, since an answer may still be on its way.
	Canceled
	// Closed: the adapter was closed before the request.
	Closed
)

var kindNames = [...]string{
	Timeout:     "timeout",
	Exited:      "exited",
	InvalidJSON: "invalid-json",
	BadShape:    "bad-shape",
	WrongID:     "wrong-id",
	Flood:       "flood",
	StartFailed: "start-failed",
	BadExit:     "bad-exit",
	BadHello:    "bad-hello",
	Canceled:    "canceled",
	Closed:      "closed",
}

// String returns the kind's name as reports show it ("timeout", "wrong-id", ...).
func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Failure is a testee failure on one request: the error Implementation.Do
// returns when the testee did not give a well-formed answer. After a Failure
// the external adapters restart the testee for the next request.
type Failure struct {
	Kind   Kind
	ID     int64  // the request's id
	Op     string // the request's op ("" when not known)
	Detail string // what happened, naming the offending value
	Stderr []byte // the tail of the testee's standard error (at most the configured bound), when known
	Err    error  // the underlying error (a context error for Canceled), or nil
}

// Error renders the failure on one line, without the stderr tail:
//
//	testee failure (wrong-id) on request 7 lace.record: answer carries id 8 (out of order)
func (f *Failure) Error() string {
	var b strings.Builder
	b.WriteString("testee failure (")
	b.WriteString(f.Kind.String())
	b.WriteString(")")
	if f.Op != "" {
		fmt.Fprintf(&b, " on request %d %s", f.ID, f.Op)
	}
	if f.Detail != "" {
		b.WriteString(": ")
		b.WriteString(f.Detail)
	}
	return b.String()
}

// Unwrap returns the underlying error, so errors.Is(err, context.Canceled)
// holds for a Canceled failure.
func (f *Failure) Unwrap() error { return f.Err }
