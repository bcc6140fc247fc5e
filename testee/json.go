package testee

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/threespec/conformance/internal/jsonscan"
)

// The envelope scanner. A protocol line is validated once (UTF-8, then
// encoding/json's validator) and then walked at the top level only: member
// values are kept as raw slices of the line, and only the members the
// protocol names are looked at. Nothing is allocated for a line whose
// members need no unescaping.

// memberNames are the top-level members of requests and responses.
var memberNames = [...]string{"id", "op", "args", "input", "ok", "result", "code", "detail", "rule", "unsupported", "input_path"}

// members holds the raw values of the known members of one JSON object.
type members struct {
	val [len(memberNames)][]byte // nil when absent
	dup string                   // the first known member that appeared twice
}

func (m *members) get(name string) ([]byte, bool) {
	for i, n := range memberNames {
		if n == name {
			return m.val[i], m.val[i] != nil
		}
	}
	return nil, false
}

func (m *members) duplicate() string { return m.dup }

var errNotObject = errors.New("not a JSON object")

// scanObject checks that line is exactly one JSON object in UTF-8 (JSON
// whitespace around it allowed) and collects its known members into m.
func scanObject(line []byte, m *members) error {
	if !utf8.Valid(line) {
		return fmt.Errorf("not UTF-8 at byte %d", invalidUTF8At(line))
	}
	if !validJSON(line, true) {
		if len(bytes.TrimSpace(line)) == 0 {
			return errors.New("empty line, not a JSON object")
		}
		return errors.New("not valid JSON")
	}
	i := jsonscan.SkipSpace(line, 0)
	if line[i] != '{' {
		return errNotObject
	}
	i = jsonscan.SkipSpace(line, i+1)
	if line[i] == '}' {
		return nil
	}
	for {
		// line is valid JSON: a member is "key" ws : ws value ws (, or }).
		kEnd := skipString(line, i)
		key := line[i+1 : kEnd-1]
		i = jsonscan.SkipSpace(line, kEnd)
		i = jsonscan.SkipSpace(line, i+1) // past ':'
		vEnd := skipValue(line, i)
		m.set(key, line[i:vEnd])
		i = jsonscan.SkipSpace(line, vEnd)
		if line[i] == '}' {
			return nil
		}
		i = jsonscan.SkipSpace(line, i+1) // past ','
	}
}

func (m *members) set(rawKey, val []byte) {
	if bytes.IndexByte(rawKey, '\\') >= 0 {
		var key string
		if err := json.Unmarshal(append(append([]byte{'"'}, rawKey...), '"'), &key); err != nil {
			return
		}
		rawKey = []byte(key)
	}
	for i, n := range memberNames {
		if string(rawKey) == n {
			if m.val[i] != nil && m.dup == "" {
				m.dup = n
			}
			m.val[i] = val
			return
		}
	}
}

// skipString returns the index just past the string literal starting at
// b[i] == '"', or len(b) when it does not end.
func skipString(b []byte, i int) int {
	if q := jsonscan.StringClose(b, i); q >= 0 {
		return q + 1
	}
	return len(b)
}

// cutStringBytes is the content length from which validJSON cuts a string
// out before validating.
const cutStringBytes = 64 << 10

// validJSON reports json.Valid(b); isUTF8 says that b is known to be
// valid UTF-8. A long string literal whose content needs no checking
// beyond having no backslash, no control byte and valid UTF-8 (a base64
// record: 44.7 MiB in a 32 MiB construction's answer) is cut out first, as
// an empty string, and the rest validated: over such a string json.Valid
// runs at about 1.7 GB/s, this at about 3.7 (BenchmarkValidJSON).
func validJSON(b []byte, isUTF8 bool) bool {
	if len(b) < cutStringBytes {
		return json.Valid(b)
	}
	return validJSONCut(b, cutStringBytes, isUTF8)
}

// validJSONCut is validJSON cutting strings of min content bytes or more.
//
// It equals json.Valid for any bytes. Walking from the start, each quote
// not inside a string (by the rule of jsonscan.StringClose) starts one: outside
// strings a quote can be nothing else, so up to the first error of the
// text this is the tokenizer's own view. A cut string's content holds
// nothing the validator could object to, and an empty string stands where
// it stood, so no error is removed (none can lie inside it) and none is
// made: the text with the cuts is valid exactly when the text is.
func validJSONCut(b []byte, min int, isUTF8 bool) bool {
	var env []byte // b with the cut contents left out, once one is cut
	last := 0      // b[last:] is not yet in env
	for i := 0; ; {
		q := bytes.IndexByte(b[i:], '"')
		if q < 0 {
			break
		}
		open := i + q
		end := jsonscan.StringClose(b, open)
		if end < 0 {
			break // the validator rejects it, with the cuts as without
		}
		if c := b[open+1 : end]; len(c) >= min && plainString(c) && (isUTF8 || utf8.Valid(c)) {
			env = append(env, b[last:open+1]...)
			last = end
		}
		i = end + 1
	}
	if env == nil {
		return json.Valid(b)
	}
	return json.Valid(append(env, b[last:]...))
}

// plainString reports whether c, a string literal's content with no
// unescaped quote, is valid as it stands (but for UTF-8, checked apart):
// no backslash, no control byte (below 0x20).
func plainString(c []byte) bool {
	if bytes.IndexByte(c, '\\') >= 0 {
		return false
	}
	// Eight bytes at a time: some byte of x is below 0x20 exactly when
	// (x - 0x2020...) & ^x & 0x8080... is not zero.
	const highs, lim = 0x8080808080808080, 0x2020202020202020
	i := 0
	for ; i+8 <= len(c); i += 8 {
		x := binary.LittleEndian.Uint64(c[i:])
		if (x-lim)&^x&highs != 0 {
			return false
		}
	}
	for ; i < len(c); i++ {
		if c[i] < 0x20 {
			return false
		}
	}
	return true
}

// skipValue returns the index just past the JSON value starting at b[i].
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return len(b)
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				j = skipString(b, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return len(b)
	}
	j := i
	for ; j < len(b); j++ {
		switch b[j] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return j
		}
	}
	return j
}

func invalidUTF8At(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(b)
}

// isObject reports whether b, a JSON value, is an object.
func isObject(b []byte) bool {
	i := jsonscan.SkipSpace(b, 0)
	return i < len(b) && b[i] == '{'
}

// parseInt parses a JSON number that must be an integer literal (no
// fraction, no exponent) fitting an int64.
func parseInt(v []byte) (int64, error) {
	if len(v) == 0 || (v[0] != '-' && (v[0] < '0' || v[0] > '9')) {
		return 0, errors.New("not a number")
	}
	if bytes.ContainsAny(v, ".eE") {
		return 0, errors.New("not an integer literal")
	}
	n, err := strconv.ParseInt(string(v), 10, 64)
	if err != nil {
		return 0, errors.New("out of range")
	}
	return n, nil
}

// parseString decodes a JSON string literal.
func parseString(v []byte) (string, error) {
	if len(v) < 2 || v[0] != '"' {
		return "", errors.New("not a string")
	}
	inner := v[1 : len(v)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		return string(inner), nil
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return "", err
	}
	return s, nil
}

// appendString appends s as a JSON string literal.
func appendString(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			b, _ := json.Marshal(s) // a string always marshals
			return append(dst, b...)
		}
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}

// duplicateMember returns the first member name that appears twice in one
// object anywhere in the valid JSON value starting at b[i] (names compared
// as decoded: "a" and "\u0061" are one name), and whether there is one.
func duplicateMember(b []byte, i int) (string, bool) {
	_, dup, found := scanDuplicates(b, jsonscan.SkipSpace(b, i))
	return dup, found
}

// scanDuplicates walks the value at b[i] of valid JSON b and returns the
// index just past it, or the first repeated member name of an object in it.
func scanDuplicates(b []byte, i int) (end int, dup string, found bool) {
	switch b[i] {
	case '{':
		var names map[string]struct{}
		i = jsonscan.SkipSpace(b, i+1)
		if b[i] == '}' {
			return i + 1, "", false
		}
		for {
			kEnd := skipString(b, i)
			name, err := parseString(b[i:kEnd])
			if err != nil {
				name = string(b[i:kEnd])
			}
			if names == nil {
				names = map[string]struct{}{}
			}
			if _, ok := names[name]; ok {
				return kEnd, name, true
			}
			names[name] = struct{}{}
			i = jsonscan.SkipSpace(b, jsonscan.SkipSpace(b, kEnd)+1) // past ':'
			if i, dup, found = scanDuplicates(b, i); found {
				return i, dup, true
			}
			i = jsonscan.SkipSpace(b, i)
			if b[i] == '}' {
				return i + 1, "", false
			}
			i = jsonscan.SkipSpace(b, i+1) // past ','
		}
	case '[':
		i = jsonscan.SkipSpace(b, i+1)
		if b[i] == ']' {
			return i + 1, "", false
		}
		for {
			if i, dup, found = scanDuplicates(b, i); found {
				return i, dup, true
			}
			i = jsonscan.SkipSpace(b, i)
			if b[i] == ']' {
				return i + 1, "", false
			}
			i = jsonscan.SkipSpace(b, i+1) // past ','
		}
	}
	return skipValue(b, i), "", false
}
