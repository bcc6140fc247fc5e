package vectorset

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/crypto/blake2b"

	"github.com/threespec/conformance/testee"
)

// Verdict is the judgement of one testee response against a vector.
type Verdict struct {
	Pass bool
	// Reason says why a vector failed: what was expected and what came back,
	// with a field-by-field difference for results. Empty when it passed.
	Reason string
	// RuleMismatch is set when the testee reported a rule other than the
	// vector's first rule (informational unless rules are checked).
	RuleMismatch string
	// NotPreferred is set when a rejection passed with one of the vector's
	// acceptable codes rather than its preferred code.
	NotPreferred string
}

// Judge compares a testee's response with what the vector expects
// (docs/PROTOCOL.md, "What conform compares"): the outcome; for a rejection
// the code where the vector names one; for an acceptance every result field
// the vector lists, compared as JSON values. With checkRule set, a rejection
// must also name the vector's first rule. An Unsupported response is not
// judged here: callers report it as not applicable.
func Judge(v *Vector, resp testee.Response, checkRule bool) Verdict {
	var vd Verdict
	switch v.Expect {
	case Reject:
		if resp.Outcome != testee.Rejected {
			vd.Reason = fmt.Sprintf("expected rejection by %s, got acceptance: %s", rulesText(v), clip(string(resp.Result), 300))
			return vd
		}
		if len(v.Rules) > 0 && resp.Rule != "" && resp.Rule != v.Rules[0] {
			vd.RuleMismatch = fmt.Sprintf("testee reported rule %s, vector tests %s", resp.Rule, v.Rules[0])
		}
		if v.Code != "" && resp.Code != v.Code && slices.Contains(v.AcceptableCodes, resp.Code) {
			vd.NotPreferred = fmt.Sprintf("acceptable, not preferred: code %q is a correct report of this input; the preferred code is %q", resp.Code, v.Code)
		} else if v.Code != "" && resp.Code != v.Code {
			vd.Reason = fmt.Sprintf("expected code %q, got %q (%s)", v.Code, resp.Code, clip(resp.Detail, 300))
			return vd
		}
		if checkRule && vd.NotPreferred != "" {
			vd.Reason = vd.NotPreferred
			return vd
		}
		if checkRule && len(v.Rules) > 0 && resp.Rule != v.Rules[0] {
			vd.Reason = fmt.Sprintf("expected rejection by rule %s, got rule %q (%s)", v.Rules[0], resp.Rule, clip(resp.Detail, 300))
			return vd
		}
	case Accept:
		if resp.Outcome != testee.Accepted {
			vd.Reason = fmt.Sprintf("expected acceptance, got rejection with code %q: %s", resp.Code, clip(resp.Detail, 300))
			return vd
		}
		if diff, err := resultDiff(v.Result, resp.Result, resp.ResultChecked()); err != nil {
			vd.Reason = err.Error()
			return vd
		} else if diff != "" {
			vd.Reason = "result differs (-expected +got):\n" + diff
			return vd
		}
	default:
		vd.Reason = fmt.Sprintf("vector expects %q", v.Expect)
		return vd
	}
	vd.Pass = true
	return vd
}

func rulesText(v *Vector) string {
	if len(v.Rules) == 0 {
		return "its rule"
	}
	return strings.Join(v.Rules, ", ")
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// ResultDiff compares the expected result fields with a testee's result
// object: every expected field must be present with an equal JSON value;
// fields the vector does not list are ignored, at every depth (members of
// nested objects too: a directory entry may carry more than path and
// target). Lists compare in order and by length. Numbers compare by value
// (1 and 1.0 are equal; integers of any size compare exactly). Matchers
// (DigestKey, HexDigestKey, AnyStringKey) may stand for a value at any
// depth of an expected field.
func ResultDiff(expected, got json.RawMessage) (string, error) {
	return resultDiff(expected, got, false)
}

// resultDiff is ResultDiff; with checked, got is known to be exactly one
// JSON object (testee.Response.ResultChecked) and is not validated again:
// the testee package has checked every byte of the answer line, and a
// second pass (over a 44.7 MiB answer among others) cost the runner about
// 0.05 s of CPU over the committed set (issue 14).
func resultDiff(expected, got json.RawMessage, checked bool) (string, error) {
	if len(expected) == 0 {
		return "", nil
	}
	want, err := decodeResult(expected, false) // encoding/json's tree, once materialized
	if err != nil {
		return "", fmt.Errorf("the vector's expected result is not a JSON object: %v", err)
	}
	materialize(want)
	have, err := decodeResult(got, checked)
	if err != nil {
		return "", fmt.Errorf("the testee's result is not a JSON object: %v", err)
	}
	sub := make(map[string]any, len(want))
	for k, w := range want {
		v, ok := have[k]
		if !ok {
			continue
		}
		sub[k] = materialize(matched(w, v))
	}
	if equalTree(want, sub) {
		return "", nil // what cmp.Diff says of equal trees, without its cost
	}
	return cmp.Diff(want, sub, cmp.Comparer(numbersEqual)), nil
}

// DigestKey marks an expected result value that stands for a large base64
// byte string by its digest (docs/VECTORS.md, "Index"):
//
//	{"$base64_blake2b": "<hex BLAKE2b-256 of the decoded bytes>", "$base64_length": N}
//
// The testee's field must be a standard-base64 string whose decoded bytes
// have that length and digest.
const DigestKey = "$base64_blake2b"

// DigestLengthKey is the decoded length beside DigestKey.
const DigestLengthKey = "$base64_length"

// BytesMatcher returns the expected-result value standing for b: b in
// standard base64 when it is short, its digest form when it is longer than
// 3 KiB (so that an index stays small).
func BytesMatcher(b []byte) any {
	if len(b) <= 3<<10 {
		return base64.StdEncoding.EncodeToString(b)
	}
	return map[string]any{DigestKey: Hash(b), DigestLengthKey: len(b)}
}

// AnswerSize guesses the length in bytes of an answer that passes the
// vector: its expected result's own, and for each value it stands for by a
// digest matcher, that value's encoded length (base64 or hex) instead of
// the matcher's; 0 for a vector expecting no result. A reader of the answer
// may reserve that much at once.
func (v *Vector) AnswerSize() int64 {
	if len(v.Result) == 0 {
		return 0
	}
	n := int64(len(v.Result)) + 64 // the envelope: id, ok, result
	if !bytes.Contains(v.Result, []byte(DigestLengthKey)) && !bytes.Contains(v.Result, []byte(HexLengthKey)) {
		return n
	}
	var want any
	if decodeNumbers(v.Result, &want) != nil {
		return n
	}
	var walk func(any)
	walk = func(w any) {
		switch w := w.(type) {
		case map[string]any:
			if l, ok := w[DigestLengthKey].(json.Number); ok && w[DigestKey] != nil {
				k, _ := l.Int64()
				n += (max(k, 0) + 2) / 3 * 4
				return
			}
			if l, ok := w[HexLengthKey].(json.Number); ok && w[HexDigestKey] != nil {
				k, _ := l.Int64()
				n += 2 * max(k, 0)
				return
			}
			for _, x := range w {
				walk(x)
			}
		case []any:
			for _, x := range w {
				walk(x)
			}
		}
	}
	walk(want)
	return n
}

// HexDigestKey marks an expected result value that stands for a long
// lower-case hex string (a libtracer payload in a frame list) by the digest
// of the bytes it spells, as DigestKey does for base64:
//
//	{"$hex_blake2b": "<hex BLAKE2b-256 of the decoded bytes>", "$hex_length": N}
const HexDigestKey = "$hex_blake2b"

// HexLengthKey is the decoded length beside HexDigestKey.
const HexLengthKey = "$hex_length"

// AnyStringKey marks an expected value that any JSON string matches:
// free text a testee words as it likes, such as the detail of an error
// listed inside a result ({"$any_string": true}).
const AnyStringKey = "$any_string"

// AnyString returns the expected-result value that any string matches.
func AnyString() any { return map[string]any{AnyStringKey: true} }

// HexMatcher returns the expected-result value standing for b as lower-case
// hex: the hex itself when it is short, its digest form when b is longer
// than 3 KiB.
func HexMatcher(b []byte) any {
	if len(b) <= 3<<10 {
		return hex.EncodeToString(b)
	}
	return map[string]any{HexDigestKey: Hash(b), HexLengthKey: len(b)}
}

// matched returns the testee's value v reduced to the shape of the expected
// value w: members of objects that w does not list are dropped, at every
// depth, and every part that a matcher of w stands for is replaced by what
// the matcher compares equal to (the digest form, or the matcher itself for
// a string), so that cmp shows only real differences. Objects and lists are
// walked in step; lists keep their length, so a missing or extra element
// still shows.
func matched(w, v any) any {
	switch w := w.(type) {
	case map[string]any:
		switch {
		case w[DigestKey] != nil:
			return digestOf(v)
		case w[HexDigestKey] != nil:
			return hexDigestOf(v)
		case w[AnyStringKey] != nil:
			switch v.(type) {
			case string, longString:
				return w
			}
			return v
		}
		m, ok := v.(map[string]any)
		if !ok {
			return v
		}
		out := make(map[string]any, len(w))
		for k, wk := range w {
			if x, ok := m[k]; ok {
				out[k] = matched(wk, x)
			}
		}
		return out
	case []any:
		l, ok := v.([]any)
		if !ok {
			return v
		}
		out := make([]any, len(l))
		for i, x := range l {
			if i < len(w) {
				x = matched(w[i], x)
			}
			out[i] = x
		}
		return out
	}
	return v
}

// hexDigestOf turns a testee's lower-case hex string into the digest form,
// or leaves it as it is (so that the difference shows).
func hexDigestOf(v any) any {
	if l, ok := v.(longString); ok {
		if c, ok := l.content(); ok {
			return hexDigestOfBytes(v, c)
		}
		v = l.String()
	}
	s, ok := v.(string)
	if !ok || s != strings.ToLower(s) {
		return v
	}
	b, err := hex.DecodeString(s)
	if err != nil {
		return v
	}
	return map[string]any{HexDigestKey: Hash(b), HexLengthKey: json.Number(strconv.Itoa(len(b)))}
}

// hexDigestOfBytes is hexDigestOf of a long string's bytes c, decoded a
// piece at a time; v is returned as it is when c is not lower-case hex.
func hexDigestOfBytes(v any, c []byte) any {
	if len(c)%2 != 0 {
		return v
	}
	for _, ch := range c {
		if ch >= utf8.RuneSelf || 'A' <= ch && ch <= 'Z' {
			return v // not lower-case, or not hex: as strings.ToLower or hex.DecodeString finds
		}
	}
	n := len(c) / 2
	h, _ := blake2b.New256(nil)
	buf := make([]byte, 32<<10)
	for len(c) > 0 {
		k := min(len(c), 2*len(buf))
		m, err := hex.Decode(buf, c[:k])
		if err != nil {
			return v
		}
		h.Write(buf[:m])
		c = c[k:]
	}
	return map[string]any{HexDigestKey: hex.EncodeToString(h.Sum(nil)), HexLengthKey: json.Number(strconv.Itoa(n))}
}

// digestOf turns a testee's base64 string into the digest form, or leaves it
// as it is (so that the difference shows) when it is not base64.
func digestOf(v any) any {
	var r io.Reader
	switch s := v.(type) {
	case string:
		r = strings.NewReader(s)
	case longString:
		c, ok := s.content()
		if !ok {
			return digestOf(s.String())
		}
		// In place: a 44.7 MiB record's base64 costs no copy. (A JSON
		// string without escapes holds no CR or LF.)
		h, _ := blake2b.New256(nil)
		n, err := decodeLikeStream(h, c)
		if err != nil {
			return v
		}
		return digestForm(h, n)
	default:
		return v
	}
	h, _ := blake2b.New256(nil)
	n, err := io.Copy(h, base64.NewDecoder(base64.StdEncoding, r))
	if err != nil {
		return v
	}
	return digestForm(h, n)
}

func digestForm(h hash.Hash, n int64) map[string]any {
	return map[string]any{DigestKey: hex.EncodeToString(h.Sum(nil)), DigestLengthKey: json.Number(strconv.FormatInt(n, 10))}
}

// streamPiece is how much of its input base64.NewDecoder takes at a time
// (its buffer) when read through io.Copy's buffer.
const streamPiece = 1024

// decodeLikeStream writes to w the base64 (standard, with padding) of c,
// which holds no CR or LF, as io.Copy(w, base64.NewDecoder(
// base64.StdEncoding, bytes.NewReader(c))) does, the same bytes and the
// same errors (a piece of 1024 characters at a time is decoded, so padding
// may end each one), without the stream's copies and line-break filter; it
// returns how many bytes it wrote. TestDecodeLikeStream and
// FuzzDecodeLikeStream hold it to the stream decoder.
func decodeLikeStream(w io.Writer, c []byte) (int64, error) {
	var buf [streamPiece / 4 * 3]byte
	var n int64
	for len(c) > 0 {
		k := min(len(c), streamPiece)
		q := k / 4 * 4
		m, err := base64.StdEncoding.Decode(buf[:], c[:q])
		w.Write(buf[:m])
		n += int64(m)
		switch {
		case err != nil:
			return n, err
		case q < k:
			return n, io.ErrUnexpectedEOF // the stream's last quantum is short
		}
		c = c[k:]
	}
	return n, nil
}

func decodeNumbers(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	return dec.Decode(v)
}

func numbersEqual(a, b json.Number) bool {
	if a == b {
		return true
	}
	x, ok1 := new(big.Float).SetPrec(256).SetString(string(a))
	y, ok2 := new(big.Float).SetPrec(256).SetString(string(b))
	return ok1 && ok2 && x.Cmp(y) == 0
}
