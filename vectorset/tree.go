package vectorset

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	"github.com/threespec/conformance/internal/jsonscan"
)

// The testee's result, decoded for judging. decodeResult gives the tree
// that encoding/json (with UseNumber) gives, objects as map[string]any,
// lists as []any, numbers as json.Number, except that a string literal
// longer than longStringBytes stays where it is in the result, as a
// longString: a 44.7 MiB base64 record is digested in place (digestOf), not
// copied into a string first; materialize turns what is left of them into
// strings, so that a difference reads as before.

// longStringBytes is the length of a string literal (quotes included) from
// which decodeResult keeps it as a longString.
const longStringBytes = 64 << 10

// longString is a JSON string literal of the testee's result, quotes
// included, as it stands in the result's bytes.
type longString []byte

// content returns the string's bytes when the literal holds them as they
// are (no escape, valid UTF-8: what encoding/json would decode it to), and
// false when it must be unquoted first.
func (l longString) content() ([]byte, bool) {
	c := l[1 : len(l)-1]
	return c, bytes.IndexByte(c, '\\') < 0 && utf8.Valid(c)
}

// String is the string encoding/json decodes the literal to.
func (l longString) String() string { return unquote(l) }

// decodeResult decodes a testee's result object as decodeNumbers does into
// a map[string]any, with long strings kept as longString. A result that is
// not one valid JSON object is left to decodeNumbers, for its error (or, for
// data after the object, its tree of the first value). With checked, b is
// known to be one valid JSON object and is not validated again.
func decodeResult(b []byte, checked bool) (map[string]any, error) {
	i := jsonscan.SkipSpace(b, 0)
	if i == len(b) || b[i] != '{' || (!checked && !json.Valid(b)) {
		var have map[string]any
		err := decodeNumbers(b, &have)
		return have, err
	}
	v, _ := treeValue(b, i)
	return v.(map[string]any), nil
}

// treeValue decodes the value starting at b[i] of valid JSON b and returns
// it with the index just past it. The last of repeated names wins, as in
// encoding/json.
func treeValue(b []byte, i int) (any, int) {
	switch b[i] {
	case '{':
		m := map[string]any{}
		i = jsonscan.SkipSpace(b, i+1)
		if b[i] == '}' {
			return m, i + 1
		}
		for {
			end := jsonscan.StringClose(b, i) + 1
			name := unquote(b[i:end])
			i = jsonscan.SkipSpace(b, jsonscan.SkipSpace(b, end)+1) // past ':'
			var v any
			v, i = treeValue(b, i)
			m[name] = v
			i = jsonscan.SkipSpace(b, i)
			if b[i] == '}' {
				return m, i + 1
			}
			i = jsonscan.SkipSpace(b, i+1) // past ','
		}
	case '[':
		l := []any{}
		i = jsonscan.SkipSpace(b, i+1)
		if b[i] == ']' {
			return l, i + 1
		}
		for {
			var v any
			v, i = treeValue(b, i)
			l = append(l, v)
			i = jsonscan.SkipSpace(b, i)
			if b[i] == ']' {
				return l, i + 1
			}
			i = jsonscan.SkipSpace(b, i+1)
		}
	}
	return scalar(b, i)
}

// unquote decodes a JSON string literal as encoding/json does.
func unquote(lit []byte) string {
	c := lit[1 : len(lit)-1]
	if bytes.IndexByte(c, '\\') < 0 && utf8.Valid(c) {
		return string(c)
	}
	var s string
	json.Unmarshal(lit, &s) // valid JSON: escapes decoded, invalid UTF-8 replaced
	return s
}

func isDelim(c byte) bool {
	return c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r'
}

// materialize replaces every longString left in v (in place, in the maps
// and lists of the tree) by its string.
func materialize(v any) any {
	switch v := v.(type) {
	case longString:
		return v.String()
	case map[string]any:
		for k, x := range v {
			v[k] = materialize(x)
		}
	case []any:
		for i, x := range v {
			v[i] = materialize(x)
		}
	}
	return v
}

// equalTree reports whether two decoded trees are equal as cmp.Equal with
// numbersEqual finds them, for the types decodeResult gives, a longString
// on b's side equal to the string it holds; false for anything else (a
// value passed over, an object where a matcher stands), which is never
// equal.
func equalTree(a, b any) bool {
	switch a := a.(type) {
	case nil:
		return b == nil
	case bool:
		y, ok := b.(bool)
		return ok && a == y
	case string:
		switch y := b.(type) {
		case string:
			return a == y
		case longString:
			return a == y.text() // (no test by length: an invalid byte decodes to three)
		}
		return false
	case json.Number:
		y, ok := b.(json.Number)
		return ok && numbersEqual(a, y)
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || (a == nil) != (y == nil) || len(a) != len(y) {
			return false
		}
		for k, x := range a {
			if yk, ok := y[k]; !ok || !equalTree(x, yk) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || (a == nil) != (y == nil) || len(a) != len(y) {
			return false
		}
		for i := range a {
			if !equalTree(a[i], y[i]) {
				return false
			}
		}
		return true
	}
	return false
}
