package vectorset

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/google/go-cmp/cmp"

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
		if v.Code != "" && resp.Code != v.Code {
			vd.Reason = fmt.Sprintf("expected code %q, got %q (%s)", v.Code, resp.Code, clip(resp.Detail, 300))
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
		if diff, err := ResultDiff(v.Result, resp.Result); err != nil {
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
// (1 and 1.0 are equal; integers of any size compare exactly).
func ResultDiff(expected, got json.RawMessage) (string, error) {
	if len(expected) == 0 {
		return "", nil
	}
	var want map[string]any
	if err := decodeNumbers(expected, &want); err != nil {
		return "", fmt.Errorf("the vector's expected result is not a JSON object: %v", err)
	}
	var have map[string]any
	if err := decodeNumbers(got, &have); err != nil {
		return "", fmt.Errorf("the testee's result is not a JSON object: %v", err)
	}
	return cmp.Diff(want, project(want, have), cmp.Comparer(numbersEqual)), nil
}

// project reduces got to the shape of want: members of objects that want
// does not list are dropped, at every depth, and a value want gives by its
// digest (DigestKey) is turned into its digest form. Lists keep their length,
// so a missing or extra element still shows.
func project(want, got any) any {
	switch w := want.(type) {
	case map[string]any:
		if w[DigestKey] != nil {
			return digestOf(got)
		}
		g, ok := got.(map[string]any)
		if !ok {
			return got
		}
		out := make(map[string]any, len(w))
		for k, wv := range w {
			if gv, ok := g[k]; ok {
				out[k] = project(wv, gv)
			}
		}
		return out
	case []any:
		g, ok := got.([]any)
		if !ok {
			return got
		}
		out := make([]any, len(g))
		for i, gv := range g {
			out[i] = gv
			if i < len(w) {
				out[i] = project(w[i], gv)
			}
		}
		return out
	}
	return got
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

// digestOf turns a testee's base64 string into the digest form, or leaves it
// as it is (so that the difference shows) when it is not base64.
func digestOf(v any) any {
	s, ok := v.(string)
	if !ok {
		return v
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return v
	}
	return map[string]any{DigestKey: Hash(b), DigestLengthKey: json.Number(strconv.Itoa(len(b)))}
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
