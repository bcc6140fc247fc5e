package testee

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ProtocolVersion is the testee protocol version this package speaks; a
// testee's hello result must carry it as "protocol" (docs/PROTOCOL.md, "The
// handshake").
const ProtocolVersion = 1

// OpHello is the handshake operation (docs/PROTOCOL.md, "The handshake");
// every other operation belongs to a spec, whose wing names it
// (spec.Spec.Ops, <spec>.<op>).
const OpHello = "hello"

// Arguments. Each spec's wing declares the argument structs and values
// of its operations; this package knows only that args are a JSON object.

// MarshalArgs encodes an argument struct (or map) as the JSON object a
// Request carries in Args.
func MarshalArgs(v any) (json.RawMessage, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	if !isObject(b) {
		return nil, fmt.Errorf("%w: args encode to %.40s, not a JSON object", ErrInvalidRequest, b)
	}
	return b, nil
}

// Requests.

// Request is one question to a testee:
// {"id":..,"op":..,"args":{..},"input":".."}, or, to a testee that claims
// CapabilityInputPath, {"id":..,"op":..,"args":{..},"input_path":"/abs/file"}.
type Request struct {
	ID    int64           // request number; the response carries it back
	Op    string          // the operation, one of the Op* names
	Args  json.RawMessage // a JSON object; nil or empty means {}
	Input []byte          // the input bytes; sent as standard base64 with padding
	// InputPath, when set, is sent instead of Input: the absolute path of a
	// file holding exactly the input bytes, InputSize of them
	// (docs/PROTOCOL.md, "Inputs by path"). Input is then empty.
	InputPath string
	InputSize int64
	// AnswerSize, when above 0, is the answer's expected length in bytes
	// (the caller's guess, from what it expects; never sent): the
	// persistent adapter reads a long answer line into one buffer of that
	// length rather than growing one.
	AnswerSize int64
}

// Size is the number of input bytes, sent or named by path.
func (r Request) Size() int64 {
	if r.InputPath != "" {
		return r.InputSize
	}
	return int64(len(r.Input))
}

// DecodeArgs unmarshals the request's Args into v (an argument struct).
// Unknown members are ignored.
func (r Request) DecodeArgs(v any) error {
	if len(r.Args) == 0 {
		return nil
	}
	return json.Unmarshal(r.Args, v)
}

// ErrInvalidRequest is wrapped by the errors for requests the caller built
// wrong (args that are not a JSON object, an empty op). Such an error is the
// caller's, not the testee's, so it is never a *Failure.
var ErrInvalidRequest = errors.New("invalid request")

// AppendRequest appends the request as one JSON line, ending with LF, to dst:
//
//	{"id":7,"op":"lace.record","args":{"mark":"none"},"input":"8J+Wpzo="}
//	{"id":7,"op":"lace.record","args":{"mark":"none"},"input_path":"/tmp/conform-input-1/x.lr"}
//
// Args are compacted so the line holds no LF; they must be a JSON object.
func AppendRequest(dst []byte, r Request) ([]byte, error) {
	dst, err := appendRequestHead(dst, r)
	if err != nil {
		return dst, err
	}
	if r.InputPath != "" {
		dst = append(dst, `,"input_path":`...)
		dst = appendString(dst, r.InputPath)
		return append(dst, "}\n"...), nil
	}
	dst = append(dst, `,"input":"`...)
	dst = base64.StdEncoding.AppendEncode(dst, r.Input)
	return append(dst, "\"}\n"...), nil
}

// compactArgs appends args, a JSON object, compacted; nil or blank args are {}.
func compactArgs(dst []byte, args json.RawMessage) ([]byte, error) {
	if len(bytes.TrimSpace(args)) == 0 {
		return append(dst, "{}"...), nil
	}
	if !isObject(args) {
		return dst, fmt.Errorf("%w: args %.40q are not a JSON object", ErrInvalidRequest, args)
	}
	buf := bytes.NewBuffer(dst)
	if err := json.Compact(buf, args); err != nil {
		return dst, fmt.Errorf("%w: args: %v", ErrInvalidRequest, err)
	}
	return buf.Bytes(), nil
}

// CheckArgs checks the arguments of a request as ParseRequest does: one
// JSON object, in which no object, at any depth, names a member twice (a
// repeated name is refused, as a repeated top-level member is, rather than
// decoded as its last value). ServeOneShot checks CONFORM_ARGS with it.
func CheckArgs(args []byte) error {
	if !utf8.Valid(args) || !validJSON(args, true) {
		return errors.New("not valid JSON in UTF-8")
	}
	if !isObject(args) {
		return errNotObject
	}
	if dup, ok := duplicateMember(args, 0); ok {
		return fmt.Errorf("member %.60q appears more than once", dup)
	}
	return nil
}

// ParseRequest parses one request line (without its LF), the testee's side
// of the protocol. It is strict: the line must be one JSON object, in UTF-8,
// with an integer "id", a non-empty string "op", an object "args" (no
// member name twice in any of its objects: CheckArgs) and
// either a string "input" in standard base64 with padding and zero pad bits
// or (CapabilityInputPath) a string "input_path" holding an absolute path
// (docs/PROTOCOL.md, "Persistent mode"); each at most once. Unknown members
// are ignored. The request does not alias line.
func ParseRequest(line []byte) (Request, error) { return parseRequest(line, false) }

// ParseRequestInPlace is ParseRequest decoding the input's base64 into
// line's own memory: line is overwritten, and the request's Input and Args
// alias it (valid as long as line is). It allocates nothing for the input,
// which is what a 44.7 MiB request line wants.
func ParseRequestInPlace(line []byte) (Request, error) { return parseRequest(line, true) }

// RequestError is the error of ParseRequest and ParseRequestInPlace: what
// is wrong with the line, and its id when that was read before the problem
// was found (so a server can answer with it even after ParseRequestInPlace
// has overwritten the line).
type RequestError struct {
	ID    int64
	HasID bool
	Err   error
}

func (e *RequestError) Error() string { return e.Err.Error() }
func (e *RequestError) Unwrap() error { return e.Err }

func parseRequest(line []byte, inPlace bool) (Request, error) {
	r, err := parseRequestLine(line, inPlace)
	if err != nil {
		return r, err
	}
	return r, nil
}

func parseRequestLine(line []byte, inPlace bool) (r Request, err error) {
	hasID := false
	defer func() {
		if err != nil {
			err = &RequestError{ID: r.ID, HasID: hasID, Err: err}
		}
	}()
	var ms members
	bulk, err := scanRequestLine(line, &ms)
	if err != nil {
		return r, err
	}
	if dup := ms.duplicate(); dup != "" {
		return r, fmt.Errorf("member %q appears more than once", dup)
	}
	v, ok := ms.get("id")
	if !ok {
		return r, errors.New(`missing "id"`)
	}
	if r.ID, err = parseInt(v); err != nil {
		return r, fmt.Errorf(`"id": %v`, err)
	}
	hasID = true
	if v, ok = ms.get("op"); !ok {
		return r, errors.New(`missing "op"`)
	}
	if r.Op, err = parseString(v); err != nil || r.Op == "" {
		return r, fmt.Errorf(`"op" is %.40s, not a non-empty string`, v)
	}
	if v, ok = ms.get("args"); !ok {
		return r, errors.New(`missing "args"`)
	}
	if !isObject(v) {
		return r, fmt.Errorf(`"args" is %.40s, not an object`, v)
	}
	if dup, ok := duplicateMember(v, 0); ok {
		return r, fmt.Errorf(`"args": member %.60q appears more than once`, dup)
	}
	r.Args = append(json.RawMessage(nil), v...)
	pathV, hasPath := ms.get("input_path")
	v, hasInput := ms.get("input")
	hasInput = hasInput || bulk != nil
	switch {
	case hasPath && hasInput:
		return r, errors.New(`both "input" and "input_path"`)
	case hasPath:
		if r.InputPath, err = parseString(pathV); err != nil {
			return r, fmt.Errorf(`"input_path": %v`, err)
		}
		if err := checkInputPath(r.InputPath); err != nil {
			return r, fmt.Errorf(`"input_path": %v`, err)
		}
		return r, nil
	case !hasInput:
		return r, errors.New(`missing "input"`)
	case bulk != nil:
		dst := bulk
		if !inPlace {
			dst = make([]byte, base64.StdEncoding.DecodedLen(len(bulk)))
		}
		if r.Input, err = decodeBase64(dst, bulk); err != nil {
			return r, fmt.Errorf(`"input": %v`, err)
		}
		return r, nil
	}
	s, err := parseString(v)
	if err != nil {
		return r, fmt.Errorf(`"input": %v`, err)
	}
	// base64.StdEncoding skips CR and LF; the protocol's base64 holds neither.
	if i := bytesIndexAnyCRLF(s); i >= 0 {
		return r, fmt.Errorf(`"input": line break at character %d`, i)
	}
	if r.Input, err = base64.StdEncoding.Strict().DecodeString(s); err != nil {
		return r, fmt.Errorf(`"input": %v`, err)
	}
	return r, nil
}

// checkInputPath checks the "input_path" of a request: an absolute path of
// the platform (/... on Unix; C:\... or \\server\share\... on Windows)
// without NUL bytes (docs/PROTOCOL.md, "Inputs by path").
func checkInputPath(p string) error {
	switch {
	case p == "":
		return errors.New("empty")
	case !filepath.IsAbs(p):
		return fmt.Errorf("%q is not an absolute path", p)
	case strings.IndexByte(p, 0) >= 0:
		return errors.New("holds a NUL byte")
	}
	return nil
}

func bytesIndexAnyCRLF(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] == '\r' || s[i] == '\n' {
			return i
		}
	}
	return -1
}

// Responses.

// Outcome is the shape of a response; the zero value is not valid.
type Outcome uint8

const (
	// Accepted is {"ok":true,"result":{...}}: the input was accepted (or the
	// encoding produced).
	Accepted Outcome = iota + 1
	// Rejected is {"ok":false,"code":..,"detail":..,"rule":..}: the input was rejected.
	Rejected
	// Unsupported is {"unsupported":true}: the testee does not implement the
	// operation or these arguments; the vector is not applicable.
	Unsupported
)

func (o Outcome) String() string {
	switch o {
	case Accepted:
		return "accepted"
	case Rejected:
		return "rejected"
	case Unsupported:
		return "unsupported"
	}
	return "Outcome(" + strconv.Itoa(int(o)) + ")"
}

// Response is a testee's well-formed answer to a request.
type Response struct {
	ID      int64
	Outcome Outcome
	Result  json.RawMessage // Accepted: the result object, as the testee wrote it
	Code    string          // Rejected: the code (never empty)
	Detail  string          // Rejected or Unsupported: free text for humans, "" when absent
	Rule    string          // Rejected: the rule ID the testee believes it enforced, "" when absent

	// checked is Result as this package read and checked it from a
	// response line; ResultChecked compares the two, so that a Result
	// replaced afterwards is not taken for checked.
	checked json.RawMessage
}

// ResultChecked reports whether r.Result is the result object this package
// read from a response line (ParseResponse, and the adapters' answers), and
// so is known to be exactly one JSON object in UTF-8: a reader of it need
// not check it again (vectorset.Judge does not). A Response built any other
// way, or whose Result was replaced since, reports false.
func (r Response) ResultChecked() bool {
	return len(r.Result) > 0 && len(r.Result) == len(r.checked) && &r.Result[0] == &r.checked[0]
}

// AppendResponse appends the response as one JSON line, ending with LF, to
// dst: the testee's side of the protocol. An Accepted response's Result must
// be a JSON object; a Rejected response's Code must not be empty.
func AppendResponse(dst []byte, r Response) ([]byte, error) {
	head, result, err := appendResponseHead(dst, r)
	if err != nil {
		return head, err
	}
	return append(append(head, result...), "}\n"...), nil
}

// WriteResponse writes the line AppendResponse makes to w, but a compact
// result straight from r.Result instead of through a copy (a 60 MB answer
// costs no second 60 MB); scratch is the buffer for the rest of the line,
// returned for reuse. A response AppendResponse refuses is an error
// (ErrMalformedResponse) before anything is written; any other error is
// w's.
func WriteResponse(w io.Writer, scratch []byte, r Response) ([]byte, error) {
	head, result, err := appendResponseHead(scratch[:0], r)
	if err != nil {
		return head, err
	}
	if result == nil {
		head = append(head, "}\n"...)
		_, err = w.Write(head)
		return head, err
	}
	if _, err = w.Write(head); err == nil {
		if _, err = w.Write(result); err == nil {
			_, err = io.WriteString(w, "}\n")
		}
	}
	return head, err
}

// ErrMalformedResponse is what errors.Is finds in the error of
// AppendResponse and WriteResponse for a response they refuse (a result
// that is not a JSON object, a rejection without a code, no outcome).
var ErrMalformedResponse = errors.New("malformed response")

type malformedResponse struct{ error }

func (malformedResponse) Is(target error) bool { return target == ErrMalformedResponse }

// appendResponseHead appends the response line to dst up to its closing
// "}\n", all but a compact result, which it returns to follow (nil when
// dst holds it all).
func appendResponseHead(dst []byte, r Response) (head, result []byte, err error) {
	dst = append(dst, `{"id":`...)
	dst = strconv.AppendInt(dst, r.ID, 10)
	switch r.Outcome {
	case Accepted:
		if !isObject(r.Result) {
			return dst, nil, malformedResponse{fmt.Errorf("response %d: result %.40q is not a JSON object", r.ID, r.Result)}
		}
		dst = append(dst, `,"ok":true,"result":`...)
		if !hasSpace(r.Result) && validJSON(r.Result, false) {
			// Compact already (json.Marshal's output is, when its strings
			// hold no white space): it follows as it is.
			return dst, r.Result, nil
		}
		buf := bytes.NewBuffer(dst)
		if err := json.Compact(buf, r.Result); err != nil {
			return dst, nil, malformedResponse{fmt.Errorf("response %d: result: %v", r.ID, err)}
		}
		dst = buf.Bytes()
	case Rejected:
		if r.Code == "" {
			return dst, nil, malformedResponse{fmt.Errorf("response %d: rejected without a code", r.ID)}
		}
		dst = append(dst, `,"ok":false,"code":`...)
		dst = appendString(dst, r.Code)
		dst = append(dst, `,"detail":`...)
		dst = appendString(dst, r.Detail)
		if r.Rule != "" {
			dst = append(dst, `,"rule":`...)
			dst = appendString(dst, r.Rule)
		}
	case Unsupported:
		dst = append(dst, `,"unsupported":true`...)
		if r.Detail != "" {
			dst = append(dst, `,"detail":`...)
			dst = appendString(dst, r.Detail)
		}
	default:
		return dst, nil, malformedResponse{fmt.Errorf("response %d: invalid outcome %v", r.ID, r.Outcome)}
	}
	return dst, nil, nil
}

// hasSpace reports whether b holds a JSON white space byte anywhere,
// inside strings too (bytes.IndexByte is fast on a long line).
func hasSpace(b []byte) bool {
	for _, c := range []byte{' ', '\t', '\n', '\r'} {
		if bytes.IndexByte(b, c) >= 0 {
			return true
		}
	}
	return false
}

// ParseResponse parses one response line (without its LF) to the request
// numbered id, strictly (docs/PROTOCOL.md, "Persistent mode"). Anything that
// is not one of the three response shapes is a *Failure:
//
//   - InvalidJSON: the line is not one JSON object in UTF-8 (an empty line,
//     trailing data after the object, invalid UTF-8, an array, ...);
//   - WrongID: "id" is missing, not an integer, or not id;
//   - BadShape: a member appears twice; "ok" is missing or not a bool;
//     "unsupported" is present but not a bool, or true beside "ok";
//     ok:true without a "result" object; ok:false without a non-empty string
//     "code"; "detail" or "rule" present but not a string.
//
// Unknown members are ignored, as are "result" beside ok:false and "code",
// "rule" beside ok:true. The returned Failure has Kind, ID and Detail set.
func ParseResponse(line []byte, id int64) (Response, error) {
	return parseResponse(line, id, true)
}

// parseResponse is ParseResponse; with needID false (one-shot mode) the "id"
// member may be omitted, and when present must be an integer of any value.
func parseResponse(line []byte, id int64, needID bool) (Response, error) {
	return parseResponseLine(line, id, needID, false)
}

// parseResponseLine is parseResponse; with owned, the caller hands line
// over and an accepted response's Result aliases it instead of a copy.
func parseResponseLine(line []byte, id int64, needID, owned bool) (Response, error) {
	resp := Response{ID: id}
	fail := func(k Kind, format string, args ...any) (Response, error) {
		return Response{}, &Failure{Kind: k, ID: id, Detail: fmt.Sprintf(format, args...)}
	}
	var ms members
	err := scanObject(line, &ms)
	if err != nil {
		return fail(InvalidJSON, "%v: %s", err, excerpt(line))
	}
	if dup := ms.duplicate(); dup != "" {
		return fail(BadShape, "member %q appears more than once", dup)
	}
	if v, ok := ms.get("id"); ok {
		got, err := parseInt(v)
		switch {
		case err != nil:
			return fail(WrongID, `"id" is %s: %v`, excerpt(v), err)
		case needID && got != id:
			if got < id {
				return fail(WrongID, "answer carries id %d, an earlier request's (a late or repeated answer)", got)
			}
			return fail(WrongID, "answer carries id %d (out of order)", got)
		}
	} else if needID {
		return fail(WrongID, `missing "id"`)
	}

	var detail string
	if v, ok := ms.get("detail"); ok {
		if detail, err = parseString(v); err != nil {
			return fail(BadShape, `"detail" is %s, not a string`, excerpt(v))
		}
	}
	okv, hasOK := ms.get("ok")
	if v, ok := ms.get("unsupported"); ok {
		switch string(v) {
		case "true":
			if hasOK {
				return fail(BadShape, `"unsupported":true beside "ok"`)
			}
			resp.Outcome, resp.Detail = Unsupported, detail
			return resp, nil
		case "false":
		default:
			return fail(BadShape, `"unsupported" is %s, not a bool`, excerpt(v))
		}
	}
	if !hasOK {
		return fail(BadShape, `missing "ok" (and not "unsupported":true)`)
	}
	switch string(okv) {
	case "true":
		res, ok := ms.get("result")
		if !ok {
			return fail(BadShape, `ok:true without "result"`)
		}
		if !isObject(res) {
			return fail(BadShape, `"result" is %s, not an object`, excerpt(res))
		}
		resp.Outcome = Accepted
		if owned {
			resp.Result = res
		} else {
			resp.Result = append(json.RawMessage(nil), res...)
		}
		resp.checked = resp.Result // scanObject checked the whole line
		return resp, nil
	case "false":
		v, ok := ms.get("code")
		if !ok {
			return fail(BadShape, `ok:false without "code"`)
		}
		if resp.Code, err = parseString(v); err != nil || resp.Code == "" {
			return fail(BadShape, `"code" is %s, not a non-empty string`, excerpt(v))
		}
		if v, ok := ms.get("rule"); ok {
			if resp.Rule, err = parseString(v); err != nil {
				return fail(BadShape, `"rule" is %s, not a string`, excerpt(v))
			}
		}
		resp.Outcome, resp.Detail = Rejected, detail
		return resp, nil
	}
	return fail(BadShape, `"ok" is %s, not a bool`, excerpt(okv))
}

// excerpt renders at most 120 bytes of b for a failure's detail.
func excerpt(b []byte) string {
	const max = 120
	if len(b) <= max {
		return strconv.Quote(string(b))
	}
	return strconv.Quote(string(b[:max])) + fmt.Sprintf("... (%d bytes)", len(b))
}
