package vectorset

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/threespec/conformance/testee"
)

// answer is a testee's acceptance with result, as read from its line.
func answer(t testing.TB, result string) testee.Response {
	t.Helper()
	resp, err := testee.ParseResponse([]byte(`{"id":1,"ok":true,"result":`+result+`}`), 1)
	if err != nil {
		t.Fatalf("%.80s: %v", result, err)
	}
	return resp
}

// allocated returns the bytes f allocates (the heap's total, around it).
func allocated(f func()) uint64 {
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	f()
	runtime.ReadMemStats(&m1)
	return m1.TotalAlloc - m0.TotalAlloc
}

// Judging a wrong answer costs time and memory linear in its size, and a
// reason of at most MaxReason bytes, whatever the answer holds (issue 30,
// items 1, 2, 10 and 11, at small sizes: the figures of the issue are in
// its closing note). Each answer is judged at two sizes; the larger may
// allocate at most 8 bytes per answer byte more than the smaller, and
// either at most 8 per byte besides a fixed 1 MiB (before: a list of
// 10,000 {} allocated 42 MB, 1,400 bytes per answer byte, and a 100,000
// digit number 117 MB).
func TestJudgeBounded(t *testing.T) {
	frame := `{"depth":0,"offset":0,"type":2,"opt":0,"length":1,"payload":"61"}`
	digest := fmt.Sprintf(`{"$base64_blake2b":"%s","$base64_length":5000}`, Hash(make([]byte, 5000)))
	hexDigest := fmt.Sprintf(`{"$hex_blake2b":"%s","$hex_length":5000}`, Hash(make([]byte, 5000)))
	tests := []struct {
		name   string
		want   string
		got    func(n int) string
		pass   bool
		reason string
	}{
		{"a list of n {} for one frame", `{"frames":[` + frame + `]}`,
			func(n int) string { return `{"frames":[` + strings.Repeat(`{},`, n-1) + `{}]}` }, false, "expected a list of 1 value, got a list of"},
		{"the right frame, then n more", `{"frames":[` + frame + `]}`,
			func(n int) string { return `{"frames":[` + frame + strings.Repeat(`,[[1,2],{"a":"b"}]`, n/16) + `]}` }, false, "got a list of"},
		{"a string of n bytes, similar to the one expected", `{"reencoded":"AX/9D1v4ZKENuzEGattkDn7noJHwb/naJGhlXleD7gJkWCr2lAk8i5k65qekbBG7VFCF1MF9owMy8Bq8U904VH8AAAAAAAAAAwAAA"}`,
			func(n int) string { return `{"reencoded":"` + strings.Repeat("A", n) + `"}` }, false, "the strings differ from byte 1"},
		{"lines of a string, escaped", `{"reencoded":"AQIDBAUGBwgJ"}`,
			func(n int) string { return `{"reencoded":"AQIDBAUGBwgJ` + strings.Repeat(`x\n`, n) + `"}` }, false, "the strings differ from byte 12"},
		{"not base64 where a digest stands", `{"reencoded":` + digest + `}`,
			func(n int) string { return `{"reencoded":"` + strings.Repeat("A", n) + `!"}` }, false, "expected base64 of 5000 bytes"},
		{"a number of n digits for 11", `{"length":11}`,
			func(n int) string { return `{"length":1` + strings.Repeat("1", n) + `}` }, false, "got the number 1111"},
		{"11 in n digits of fraction", `{"length":11}`,
			func(n int) string { return `{"length":11.` + strings.Repeat("0", n) + `}` }, true, ""},
		{"11, an exponent of n digits", `{"length":11}`,
			func(n int) string { return `{"length":11e-` + strings.Repeat("0", n) + `0}` }, true, ""},
		{"a number of n digits in the fraction for 11", `{"length":11}`,
			func(n int) string { return `{"length":11.` + strings.Repeat("0", n) + `1}` }, false, "got the number 11.000"},
		{"lists nested 9,000 deep for a string", `{"form":"blob"}`,
			func(n int) string {
				return `{"form":` + strings.Repeat("[", 9000) + strings.Repeat("[1],", n/4) + "[1]" + strings.Repeat("]", 9000) + `}`
			}, false, "expected the string"},
		{"an object of n members for a number", `{"length":1}`,
			func(n int) string {
				var b strings.Builder
				for i := range n / 8 {
					fmt.Fprintf(&b, `"m%05d":1,`, i)
				}
				return `{"length":{` + b.String() + `"z":1}}`
			}, false, "got an object of"},
		{"a member repeated n times", `{"frames":[` + frame + `]}`,
			func(n int) string { return `{` + strings.Repeat(`"frames":[{},{},{}],`, n/20) + `"frames":[]}` }, false, "at .frames: expected a list of 1 value, got a list of 0 values"},
		{"n unknown members beside the expected", `{"form":"blob"}`,
			func(n int) string { return `{` + strings.Repeat(`"x":[1,2,3],`, n/12) + `"form":"blob"}` }, true, ""},
		{"the any-string matcher copied, in a list padded to n", `{"frames":[{"error":{"detail":{"$any_string":true}}}]}`,
			func(n int) string {
				return `{"frames":[{"error":{"detail":{"$any_string":true}}}` + strings.Repeat(`,{}`, n/3) + `]}`
			}, false, "where a string is expected"},
		{"a digest matcher copied from the index", `{"reencoded":` + digest + `}`,
			func(n int) string { return `{"reencoded":` + digest + `,"pad":"` + strings.Repeat("x", n) + `"}` }, false, "notAString"},
		{"a hex digest matcher copied from the index", `{"frames":[{"payload":` + hexDigest + `}]}`,
			func(n int) string {
				return `{"frames":[{"payload":` + hexDigest + `}],"pad":"` + strings.Repeat("x", n) + `"}`
			}, false, "notAString"},
	}
	for _, tt := range tests {
		v := &Vector{Expect: Accept, Result: json.RawMessage(tt.want)}
		var vd Verdict
		var sizes [2]int
		var allocs [2]uint64
		for k, n := range []int{40_000, 160_000} { // past the budget (judgeBytes)
			resp := answer(t, tt.got(n))
			sizes[k] = len(resp.Result)
			start := time.Now()
			allocs[k] = allocated(func() { vd = Judge(v, resp, false) })
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("%s, n=%d: judged in %v", tt.name, n, d)
			}
			if vd.Pass != tt.pass || !strings.Contains(vd.Reason, tt.reason) || len(vd.Reason) > MaxReason {
				t.Errorf("%s, n=%d: pass=%v, a reason of %d bytes:\n%.2000s\nwant pass=%v, a reason holding %q", tt.name, n, vd.Pass, len(vd.Reason), vd.Reason, tt.pass, tt.reason)
			}
			if limit := 8*uint64(sizes[k]) + 1<<20; allocs[k] > limit {
				t.Errorf("%s, n=%d: allocated %d bytes for an answer of %d (limit %d)", tt.name, n, allocs[k], sizes[k], limit)
			}
		}
		if growth := int64(allocs[1]) - int64(allocs[0]); growth > 8*int64(sizes[1]-sizes[0]) {
			t.Errorf("%s: allocated %d then %d bytes for answers of %d and %d: more than linear", tt.name, allocs[0], allocs[1], sizes[0], sizes[1])
		}
	}
}

// The guided decoding passes over no byte of an answer twice, whatever
// its shape: a structure nested a thousand deep where a string is
// expected, holding a long tail, was measured at every level (the budget's
// thousand levels times the tail).
func TestJudgeScansOnce(t *testing.T) {
	tail := strings.Repeat(`[1,{"a":"b"}],`, 20_000) + "1"
	for _, c := range []struct{ name, want, got string }{
		{"lists 1,500 deep", `{"form":"blob"}`, `{"form":` + strings.Repeat("[", 1500) + tail + strings.Repeat("]", 1500) + `}`},
		{"objects 1,500 deep", `{"form":"blob"}`, `{"form":` + strings.Repeat(`{"x":`, 1500) + "[" + tail + "]" + strings.Repeat("}", 1500) + `}`},
		{"extra elements", `{"frames":[{}]}`, `{"frames":[{},` + tail + `]}`},
		{"unknown members", `{"form":"blob"}`, `{` + strings.Repeat(`"x":[`+tail+`],`, 3) + `"form":"blob"}`},
		{"where a matcher stands", `{"d":{"$any_string":true}}`, `{"d":` + strings.Repeat("[", 1500) + tail + strings.Repeat("]", 1500) + `}`},
	} {
		var want map[string]any
		if err := decodeNumbers([]byte(c.want), &want); err != nil {
			t.Fatal(err)
		}
		got := []byte(c.got)
		if !json.Valid(got) {
			t.Fatalf("%s: not JSON", c.name)
		}
		_, d, err := decodeGuided(want, got, true)
		if err != nil || d.scanned > len(got) {
			t.Errorf("%s: %d bytes passed over for an answer of %d (%v)", c.name, d.scanned, len(got), err)
		}
	}
}

// Numbers compare by their exact value (issue 30, items 2 and 11).
func TestNumbersEqual(t *testing.T) {
	long := strings.Repeat("9", 30)
	tests := []struct {
		a, b string
		eq   bool
	}{
		{"11", "11", true},
		{"11", "11.0", true},
		{"11", "1.1e1", true},
		{"11", "110E-1", true},
		{"11", "0.11e+2", true},
		{"11", "11.000000000000000000000000000000000000000000000000000000000000000000000000000001", false},
		{"11", "11.5", false},
		{"11", "10.999999999999999999999999999999999999999999999999999999999999999999999999999999", false},
		{"18446744073709551615", "1.8446744073709551615e19", true},
		{"18446744073709551615", "18446744073709551614", false},
		{"0", "-0", true},
		{"0", "0.000e7", true},
		{"-0.0", "0e-5", true},
		{"1", "-1", false},
		{"-1.5", "-15e-1", true},
		{"0.001", "1e-3", true},
		{"0.001", "0.01e-1", true},
		{"0.001", "0.0010", true},
		{"100", "1e2", true},
		{"100", "1e3", false},
		{"1E400", "10e399", true},
		{"1e" + long, "10e" + long[:29] + "8", true},
		{"1e" + long, "1e" + long[:29] + "8", false},
		{"1e-" + long, "0.1e-" + long[:29] + "8", true},
		{"1e1000000000000000000", "0.1e1000000000000000001", true}, // the carry into the exponent's head
		{"1e-1000000000000000000", "10e-1000000000000000001", true},
		{"1e999999999999999999", "0.01e1000000000000000001", true},
		{"1e-999999999999999999", "100e-1000000000000000001", true},
		{"1e01", "10", true}, // an exponent may have leading zeros
		{"01", "1", false},   // not JSON: only the same spelling is equal
		{"1.", "1", false},
		{".5", "0.5", false},
		{"1e", "1", false},
	}
	for _, tt := range tests {
		if got := numbersEqual(json.Number(tt.a), json.Number(tt.b)); got != tt.eq {
			t.Errorf("numbersEqual(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.eq)
		}
		if got := numbersEqual(json.Number(tt.b), json.Number(tt.a)); got != tt.eq {
			t.Errorf("numbersEqual(%s, %s) = %v, want %v", tt.b, tt.a, got, tt.eq)
		}
	}
}

// numberKey agrees with big.Rat, which is exact, on literals whose
// exponent it can take.
func FuzzNumbersEqual(f *testing.F) {
	for _, s := range [][2]string{{"11", "11.0"}, {"0.001", "1e-3"}, {"-0", "0"}, {"1.1e1", "11.000000001"}, {"123456789012345678901234567890", "1.23456789012345678901234567890e29"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		ka, oka := numberKey(a)
		kb, okb := numberKey(b)
		ra, rb := ratOf(a), ratOf(b)
		if oka != (ra != nil) || okb != (rb != nil) {
			if len(a) < 40 && len(b) < 40 && !strings.ContainsAny(a+b, "eE") {
				t.Fatalf("%q %v, %q %v: big.Rat %v, %v", a, oka, b, okb, ra, rb)
			}
			return
		}
		if ra != nil && rb != nil && (ka == kb) != (ra.Cmp(rb) == 0) {
			t.Fatalf("%q (%s) and %q (%s): keys equal %v, big.Rat equal %v", a, ka, b, kb, ka == kb, ra.Cmp(rb) == 0)
		}
	})
}

// ratOf is the exact value of the JSON number literal s, nil when s is
// not one or its exponent is too large for big.Rat to take in a moment.
func ratOf(s string) *big.Rat {
	var v any
	if json.Unmarshal([]byte(s), &v) != nil {
		return nil
	}
	if _, ok := v.(float64); !ok {
		return nil
	}
	if i := strings.IndexAny(s, "eE"); i >= 0 && len(strings.TrimLeft(s[i+1:], "+-0")) > 4 {
		return nil
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return nil
	}
	return r
}

// FuzzJudge judges any answer against any expected result: the verdict is
// go-cmp's over encoding/json's trees (plainDiff), the reason at most
// MaxReason bytes, and the work bounded: at most 2 s and 64 bytes
// allocated per byte of the two results besides a fixed 4 MiB. Run it by
// hand for long (go test -run '^$' -fuzz FuzzJudge -fuzztime 10m
// -fuzzminimizetime 10x ./vectorset: some seeds are long to minimize); CI
// runs its seeds.
func FuzzJudge(f *testing.F) {
	frame := `{"depth":0,"offset":0,"type":2,"opt":0,"length":1,"payload":"61"}`
	seeds := [][2]string{
		{`{"frames":[` + frame + `]}`, `{"frames":[{},{},{},{}]}`},
		{`{"frames":[` + frame + `]}`, `{"frames":[` + frame + `]}`},
		{`{"length":11}`, `{"length":11.00000000000000000000000000000000000000000000000000000000000000000000000000001}`},
		{`{"length":11}`, `{"length":1.1e1}`},
		{`{"d":{"$any_string":true}}`, `{"d":{"$any_string":true}}`},
		{`{"d":{"$any_string":true}}`, `{"d":"text"}`},
		{`{"r":{"$base64_blake2b":"` + Hash([]byte("hi")) + `","$base64_length":2}}`, `{"r":"aGk="}`},
		{`{"r":{"$hex_blake2b":"` + Hash([]byte("hi")) + `","$hex_length":2}}`, `{"r":"6869"}`},
		{`{"r":{"$hex_blake2b":"` + Hash([]byte("hi")) + `","$hex_length":2}}`, `{"r":{"$hex_blake2b":"` + Hash([]byte("hi")) + `","$hex_length":2}}`},
		{`{"a":[1,[2,[3]]],"b":{"c":"d"}}`, `{"a":[1,[2,[4]],5],"b":{"c":"e","x":1},"b":{"c":"d"}}`},
		{`{"s":"abc"}`, `{"s":"ab\u0063"}`},
		{`{"s":"abc"}`, `{"s":[[[[[[[[[[]]]]]]]]]]}`},
	}
	for _, w := range wantSeeds {
		seeds = append(seeds, [2]string{w, `{"record":"` + longB64[:4000] + `"}`})
	}
	for _, s := range seeds {
		f.Add([]byte(s[0]), []byte(s[1]))
	}
	f.Fuzz(func(t *testing.T, expected, result []byte) {
		judgeBoundedAgainstCmp(t, expected, result)
		if json.Valid(expected) && json.Valid(result) {
			// Amplified: the result 200 times over in a list where the
			// vector expects it once, under a member of the expected.
			wrapped := []byte(`{"w":[` + string(expected) + `]}`)
			many := []byte(`{"w":[` + strings.Repeat(string(result)+",", 199) + string(result) + `]}`)
			judgeBoundedAgainstCmp(t, wrapped, many)
		}
	})
}

// judgeBoundedAgainstCmp judges result against expected: bounded in time,
// memory and reason, and of go-cmp's verdict where encoding/json reads
// both.
func judgeBoundedAgainstCmp(t *testing.T, expected, result []byte) {
	t.Helper()
	v := &Vector{Expect: Accept, Result: expected}
	resp, err := testee.ParseResponse(append(append([]byte(`{"id":1,"ok":true,"result":`), result...), '}'), 1)
	if err != nil {
		resp = testee.Response{Outcome: testee.Accepted, Result: result} // judged unchecked
	}
	var vd Verdict
	start := time.Now()
	n := allocated(func() { vd = Judge(v, resp, false) })
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("judged in %v", d)
	}
	if limit := 64*uint64(len(expected)+len(result)) + 4<<20; n > limit {
		t.Fatalf("allocated %d bytes for results of %d and %d bytes", n, len(expected), len(result))
	}
	if len(vd.Reason) > MaxReason {
		t.Fatalf("a reason of %d bytes", len(vd.Reason))
	}
	pd, err := plainDiff(expected, resp.Result)
	if err != nil || !json.Valid(expected) {
		return // the verdict is an error's; checkResultDiff holds it to encoding/json's
	}
	if vd.Pass != (pd == "") {
		t.Fatalf("pass=%v, but go-cmp's diff is\n%.1000s\nreason:\n%s", vd.Pass, pd, vd.Reason)
	}
}

// The hex and base64 forms a matcher stands for still pass when they are
// the testee's strings, wherever they are.
func TestMatchersStillMatchStrings(t *testing.T) {
	b := []byte("some bytes for a digest")
	want, _ := json.Marshal(map[string]any{"r": map[string]any{DigestKey: Hash(b), DigestLengthKey: len(b)}, "h": []any{map[string]any{HexDigestKey: Hash(b), HexLengthKey: len(b)}}, "d": AnyString()})
	got, _ := json.Marshal(map[string]any{"r": base64.StdEncoding.EncodeToString(b), "h": []any{hex.EncodeToString(b)}, "d": "any text"})
	if vd := Judge(&Vector{Expect: Accept, Result: want}, answer(t, string(got)), false); !vd.Pass {
		t.Fatalf("the matched strings fail: %s", vd.Reason)
	}
}
