package vectorset

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/crypto/blake2b"

	"github.com/threespec/conformance/internal/jsonscan"
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
			vd.Reason = fmt.Sprintf("expected rejection by %s, got acceptance: %s", rulesText(v), clip(string(resp.Result[:min(len(resp.Result), 400)]), 300))
			return vd
		}
		if len(v.Rules) > 0 && resp.Rule != "" && resp.Rule != v.Rules[0] {
			vd.RuleMismatch = fmt.Sprintf("testee reported rule %s, vector tests %s", clip(resp.Rule, 100), v.Rules[0])
		}
		if v.Code != "" && resp.Code != v.Code && slices.Contains(v.AcceptableCodes, resp.Code) {
			vd.NotPreferred = fmt.Sprintf("acceptable, not preferred: code %q is a correct report of this input; the preferred code is %q", resp.Code, v.Code)
		} else if v.Code != "" && resp.Code != v.Code {
			vd.Reason = fmt.Sprintf("expected code %q, got %q (%s)", v.Code, clip(resp.Code, 100), clipLine(resp.Detail, 300))
			return vd
		}
		if checkRule && vd.NotPreferred != "" {
			vd.Reason = vd.NotPreferred
			return vd
		}
		if checkRule && len(v.Rules) > 0 && resp.Rule != v.Rules[0] {
			vd.Reason = fmt.Sprintf("expected rejection by rule %s, got rule %q (%s)", v.Rules[0], clip(resp.Rule, 100), clipLine(resp.Detail, 300))
			return vd
		}
	case Accept:
		if resp.Outcome != testee.Accepted {
			vd.Reason = fmt.Sprintf("expected acceptance, got rejection with code %q: %s", clip(resp.Code, 100), clipLine(resp.Detail, 300))
			return vd
		}
		if diff, summarised, err := judgeResult(v.Result, resp.Result, resp.ResultChecked()); err != nil {
			vd.Reason = clipReason(err.Error())
			return vd
		} else if summarised {
			vd.Reason = clipReason("result differs, " + diff)
			return vd
		} else if diff != "" {
			vd.Reason = clipReason("result differs (-expected +got):\n" + diff)
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

// clipLine is clip of s on one line: white space runs, line breaks
// among them, become one space (a testee's detail, in a reason).
func clipLine(s string, n int) string {
	return clip(strings.Join(strings.Fields(clipText(s, 4*n)), " "), n)
}

// clip returns at most n bytes of s (cut at a character boundary),
// followed by "..." when it was cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return clipText(s, n) + "..."
}

// ResultDiff compares the expected result fields with a testee's result
// object: every expected field must be present with an equal JSON value;
// fields the vector does not list are ignored, at every depth (members of
// nested objects too: a directory entry may carry more than path and
// target). Lists compare in order and by length. Numbers compare by their
// exact decimal value (1 and 1.0 are equal; 11.000…0001 is not 11;
// number.go). Matchers (DigestKey, HexDigestKey, AnyStringKey) may stand
// for a string at any depth of an expected field; nothing but a string
// matches one. The difference is go-cmp's, or a summary when it is large
// (bounded.go); its time and memory are linear in the two results' size.
func ResultDiff(expected, got json.RawMessage) (string, error) {
	return resultDiff(expected, got, false)
}

// resultDiff is ResultDiff; with checked, got is known to be exactly one
// JSON object (testee.Response.ResultChecked) and is not validated again:
// the testee package has checked every byte of the answer line, and a
// second pass (over a 44.7 MiB answer among others) cost the runner about
// 0.05 s of CPU over the committed set (issue 14).
func resultDiff(expected, got json.RawMessage, checked bool) (string, error) {
	d, _, err := judgeResult(expected, got, checked)
	return clipReason(d), err
}

// judgeResult is resultDiff, and says whether the difference is
// summarised: go-cmp's diff is given when the two trees are within the
// judging budget and the diff within MaxReason (less a header's room),
// else a summary of the sizes and the first difference (bounded.go). Its
// time and memory are linear in the two results' length: the testee's is
// read in place in the shape of the expected one (decodeGuided).
func judgeResult(expected, got json.RawMessage, checked bool) (diff string, summarised bool, err error) {
	if len(expected) == 0 {
		return "", false, nil
	}
	want, err := decodeResult(expected, false) // the vector's own: trusted, small
	if err != nil {
		return "", false, fmt.Errorf("the vector's expected result is not a JSON object: %v", err)
	}
	materialize(want)
	sub, d, err := decodeGuided(want, got, checked)
	if err != nil {
		return "", false, fmt.Errorf("the testee's result is not a JSON object: %v", clip(err.Error(), 300))
	}
	if equalTree(want, sub) {
		return "", false, nil // what cmp.Diff says of equal trees, without its cost
	}
	if !d.elided && sizeOf(want, sub).small() {
		if diff := diffText(want, materialize(sub)); len(diff) <= maxDiff {
			return diff, false, nil
		}
	}
	return summary(want, sub, len(got)), true, nil
}

// decodeGuided decodes the testee's result got in the shape of want: the
// members of the result object that want names, each in the shape of
// want's (decoder.guided, bounded.go). A result that is not one valid JSON
// object is read as encoding/json reads it (decodeNumbers): its error,
// or, for data after a first value, that value (null is an empty object).
func decodeGuided(want map[string]any, got []byte, checked bool) (map[string]any, *decoder, error) {
	i := jsonscan.SkipSpace(got, 0)
	if i == len(got) || got[i] != '{' || (!checked && !json.Valid(got)) {
		var first json.RawMessage
		dec := json.NewDecoder(bytes.NewReader(got))
		if err := dec.Decode(&first); err != nil {
			return nil, nil, err
		}
		if j := jsonscan.SkipSpace(first, 0); j == len(first) || first[j] != '{' {
			var m map[string]any // null: nil, no error; anything else: encoding/json's error
			if err := decodeNumbers(first, &m); err != nil {
				return nil, nil, err
			}
			return map[string]any{}, newDecoder(first), nil
		}
		got, i = first, jsonscan.SkipSpace(first, 0)
	}
	d := newDecoder(got)
	sub, _ := d.object(want, i)
	return sub, d, nil
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
