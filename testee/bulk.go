package testee

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/threespec/conformance/internal/jsonscan"
)

// The bulk path: a request's "input" is by far its largest member (a 32 MiB
// Lace record is 44.7 MiB of base64), and validating it as JSON costs more
// than decoding it. A string of base64 alphabet characters only is valid
// JSON text needing no unescaping, so the line is validated with the input
// string cut out (the "envelope"), and the base64 is decoded directly,
// without copying it into a Go string first. Measured against
// encoding/json (v1 and v2) in BenchmarkParseRequestBulk.

// b64Alphabet marks the bytes of the standard base64 alphabet and '='.
var b64Alphabet = func() (t [256]bool) {
	for _, c := range "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=" {
		t[c] = true
	}
	return t
}()

// findBulkInput returns the span line[s:e] of the value of the top-level
// member "input" when that value is a string literal of base64 alphabet
// characters only (quotes included in the span), walking the object without
// trusting it to be valid JSON; ok is false when no such span is found
// (then the ordinary path decides). The span is only a candidate: the
// caller validates the rest of the line.
func findBulkInput(line []byte) (s, e int, ok bool) {
	i := jsonscan.SkipSpace(line, 0)
	if i >= len(line) || line[i] != '{' {
		return 0, 0, false
	}
	i = jsonscan.SkipSpace(line, i+1)
	for i < len(line) && line[i] == '"' {
		kEnd := skipString(line, i)
		key := line[i+1 : max(kEnd-1, i+1)]
		i = jsonscan.SkipSpace(line, kEnd)
		if i >= len(line) || line[i] != ':' {
			return 0, 0, false
		}
		i = jsonscan.SkipSpace(line, i+1)
		if i < len(line) && line[i] == '"' && string(key) == "input" {
			j := i + 1
			for j < len(line) && b64Alphabet[line[j]] {
				j++
			}
			if j < len(line) && line[j] == '"' {
				return i, j + 1, true
			}
			return 0, 0, false
		}
		i = jsonscan.SkipSpace(line, skipValue(line, i))
		if i >= len(line) || line[i] != ',' {
			return 0, 0, false
		}
		i = jsonscan.SkipSpace(line, i+1)
	}
	return 0, 0, false
}

// scanRequestLine is scanObject for a request line, taking the bulk path
// when the line's "input" is a plain base64 string. It returns the members
// and, on the bulk path, the raw base64 text of "input" (a slice of line;
// m's "input" value is then nil and must not be used).
func scanRequestLine(line []byte, m *members) (bulk []byte, err error) {
	s, e, ok := findBulkInput(line)
	if !ok {
		return nil, scanObject(line, m)
	}
	env := make([]byte, 0, len(line)-(e-s)+2)
	env = append(env, line[:s]...)
	env = append(env, `""`...)
	env = append(env, line[e:]...)
	if err := scanObject(env, m); err != nil {
		return nil, err
	}
	// The envelope is valid JSON; the line differs from it only in the
	// text of the string literal at s, so it is valid JSON too, provided
	// that literal is the "input" member the scanner found.
	v, _ := m.get("input")
	if len(v) != 2 || &v[0] != &env[s] {
		// The walk was misled (it does not trust the line): decide the
		// ordinary way.
		*m = members{}
		return nil, scanObject(line, m)
	}
	return line[s+1 : e-1], nil
}

// decodeBase64 decodes strict standard base64 (padding required, zero pad
// bits, no line breaks) into dst, which may be src itself (decoding in
// place: the decoded bytes never overtake the text still to be read). It
// returns the decoded bytes.
func decodeBase64(dst, src []byte) ([]byte, error) {
	enc := base64.StdEncoding.Strict()
	const chunk = 64 << 10 // base64 characters per step, a multiple of 4
	var tmp [chunk / 4 * 3]byte
	n := 0
	for i := 0; i < len(src); i += chunk {
		part := src[i:min(i+chunk, len(src))]
		if i+chunk < len(src) && part[len(part)-1] == '=' {
			return nil, base64.CorruptInputError(i + len(part) - 1)
		}
		k, err := enc.Decode(tmp[:], part)
		if err != nil {
			var ce base64.CorruptInputError
			if errors.As(err, &ce) {
				return nil, base64.CorruptInputError(i + int(ce))
			}
			return nil, err
		}
		// n + k <= (i + len(part)) * 3/4 <= i + len(part): only text
		// already read is overwritten.
		n += copy(dst[n:n+k], tmp[:k])
	}
	return dst[:n], nil
}

// bulkRequestThreshold is the input size from which WriteRequest streams
// the base64 text in pieces instead of building the whole line.
const bulkRequestThreshold = 1 << 20

// WriteRequest writes the request as one JSON line, ending with LF, to w,
// as AppendRequest would build it; buf is scratch space, returned for
// reuse. An input of at least 1 MiB is base64-encoded piece by piece as it
// is written, so the line never exists whole in memory: writing a 32 MiB
// input costs 64 KiB, not its 44.7 MiB of base64. A write error (a write
// deadline) ends it part-way.
func WriteRequest(w io.Writer, buf []byte, r Request) ([]byte, error) {
	if len(r.Input) < bulkRequestThreshold || r.InputPath != "" {
		var err error
		if buf, err = AppendRequest(buf[:0], r); err != nil {
			return buf, err
		}
		_, err = w.Write(buf)
		return buf, err
	}
	const piece = 48 << 10 // input bytes per write: 64 KiB of base64
	buf, err := appendRequestHead(buf[:0], r)
	if err != nil {
		return buf, err
	}
	buf = append(buf, `,"input":"`...)
	in := r.Input
	for len(in) > 0 {
		k := min(piece, len(in))
		buf = base64.StdEncoding.AppendEncode(buf, in[:k])
		in = in[k:]
		if len(in) == 0 {
			buf = append(buf, "\"}\n"...)
		}
		if _, err := w.Write(buf); err != nil {
			return buf, err
		}
		buf = buf[:0]
	}
	return buf, nil
}

// appendRequestHead appends {"id":..,"op":..,"args":{..} (no input member).
func appendRequestHead(dst []byte, r Request) ([]byte, error) {
	if r.Op == "" {
		return dst, fmt.Errorf("%w: empty op", ErrInvalidRequest)
	}
	if r.InputPath != "" && len(r.Input) > 0 {
		return dst, fmt.Errorf("%w: both an input and an input path", ErrInvalidRequest)
	}
	dst = append(dst, `{"id":`...)
	dst = strconv.AppendInt(dst, r.ID, 10)
	dst = append(dst, `,"op":`...)
	dst = appendString(dst, r.Op)
	dst = append(dst, `,"args":`...)
	return compactArgs(dst, r.Args)
}
