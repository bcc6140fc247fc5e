package vectorset

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"

	"github.com/threespec/conformance/testee"
)

func TestJudge(t *testing.T) {
	acc := &Vector{ID: "lace/positive/a", Expect: Accept, Rules: []string{"LACE-VEC-01"},
		Result: json.RawMessage(`{"form":"blob","hash":"B.x.H3","length":18446744073709551615}`)}
	dir := &Vector{ID: "lace/positive/d", Expect: Accept, Rules: []string{"LACE-DIR-20"},
		Result: json.RawMessage(`{"entries":[{"path":"a","target":"B.x.H3"},{"path":"b","target":"P.y.H3"}]}`)}
	rej := &Vector{ID: "hiverelay/negative/b", Expect: Reject, Code: "BAD_ENCODING", Rules: []string{"HR-CENC-02"}}
	ok := func(result string) testee.Response {
		return testee.Response{Outcome: testee.Accepted, Result: json.RawMessage(result)}
	}
	no := func(code, rule string) testee.Response {
		return testee.Response{Outcome: testee.Rejected, Code: code, Rule: rule, Detail: "d"}
	}
	tests := []struct {
		name      string
		v         *Vector
		resp      testee.Response
		checkRule bool
		pass      bool
		reason    string
	}{
		{"equal result, extra fields ignored", acc, ok(`{"hash":"B.x.H3","form":"blob","length":18446744073709551615,"extra":[1]}`), false, true, ""},
		{"number spelled differently", acc, ok(`{"hash":"B.x.H3","form":"blob","length":1.8446744073709551615e19}`), false, true, ""},
		{"large integer off by one", acc, ok(`{"hash":"B.x.H3","form":"blob","length":18446744073709551614}`), false, false, "result differs"},
		{"field missing", acc, ok(`{"form":"blob","length":18446744073709551615}`), false, false, "result differs"},
		{"wrong value", acc, ok(`{"form":"plex","hash":"B.x.H3","length":18446744073709551615}`), false, false, "plex"},
		{"accepted vector rejected", acc, no("X", ""), false, false, "expected acceptance"},
		{"rejected as expected", rej, no("BAD_ENCODING", "HR-CENC-02"), true, true, ""},
		{"rejected, wrong code", rej, no("OTHER", "HR-CENC-02"), false, false, "expected code"},
		{"rejected, other rule, rules not checked", rej, no("BAD_ENCODING", "HR-CENC-09"), false, true, ""},
		{"rejected, other rule, rules checked", rej, no("BAD_ENCODING", "HR-CENC-09"), true, false, "expected rejection by rule HR-CENC-02"},
		{"rejected vector accepted", rej, ok(`{}`), false, false, "expected rejection"},
		{"result not an object", acc, ok(`[1]`), false, false, "not a JSON object"},
		{"nested extra members ignored", dir, ok(`{"entries":[{"path":"a","target":"B.x.H3","kind":"file"},{"path":"b","target":"P.y.H3","kind":"dir"}]}`), false, true, ""},
		{"nested member differs", dir, ok(`{"entries":[{"path":"a","target":"B.x.H3"},{"path":"b","target":"P.z.H3"}]}`), false, false, "P.z.H3"},
		{"nested member missing", dir, ok(`{"entries":[{"path":"a"},{"path":"b","target":"P.y.H3"}]}`), false, false, "result differs"},
		{"extra list element", dir, ok(`{"entries":[{"path":"a","target":"B.x.H3"},{"path":"b","target":"P.y.H3"},{"path":"c","target":"B.x.H3"}]}`), false, false, "c"},
		{"list element not an object", dir, ok(`{"entries":["a",{"path":"b","target":"P.y.H3"}]}`), false, false, "result differs"},
	}
	for _, tt := range tests {
		vd := Judge(tt.v, tt.resp, tt.checkRule)
		if vd.Pass != tt.pass || !strings.Contains(vd.Reason, tt.reason) {
			t.Errorf("%s: Judge = %+v, want pass=%v reason containing %q", tt.name, vd, tt.pass, tt.reason)
		}
		if tt.resp.Outcome != testee.Accepted {
			continue
		}
		// The same answer as read from a response line: its result is
		// checked already, and the verdict is the same.
		line := `{"id":1,"ok":true,"result":` + string(tt.resp.Result) + `}`
		read, err := testee.ParseResponse([]byte(line), 1)
		if err != nil {
			if tt.pass {
				t.Errorf("%s: %v", tt.name, err)
			}
			continue
		}
		if !read.ResultChecked() {
			t.Errorf("%s: a parsed result is not reported checked", tt.name)
		}
		if got := Judge(tt.v, read, tt.checkRule); got != vd {
			t.Errorf("%s: Judge of the parsed answer = %+v, of the built one %+v", tt.name, got, vd)
		}
	}
	// A result replaced after it was read is not taken for checked: it is
	// validated again, and found not to be JSON (taken for checked, the
	// first would be read past its end, the second would pass).
	read, err := testee.ParseResponse([]byte(`{"id":1,"ok":true,"result":{}}`), 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{`{"form":`, `{"form":"blob","hash":"B.x.H3","length":18446744073709551615,}`} {
		read.Result = json.RawMessage(bad)
		if vd := Judge(acc, read, false); vd.Pass || !strings.Contains(vd.Reason, "not a JSON object") {
			t.Errorf("replaced result %q: Judge = %+v, want it found not to be a JSON object", bad, vd)
		}
	}
	if vd := Judge(rej, no("BAD_ENCODING", "HR-CENC-09"), false); vd.RuleMismatch == "" {
		t.Error("a different reported rule must be noted")
	}
}

func TestResultDigestMatcher(t *testing.T) {
	big := make([]byte, 5000)
	for i := range big {
		big[i] = byte(i)
	}
	m, ok := BytesMatcher(big).(map[string]any)
	if !ok {
		t.Fatal("5000 bytes must be matched by digest")
	}
	want, _ := json.Marshal(map[string]any{"reencoded": m})
	got, _ := json.Marshal(map[string]any{"reencoded": base64.StdEncoding.EncodeToString(big)})
	if d, err := ResultDiff(want, got); err != nil || d != "" {
		t.Fatalf("equal bytes: diff %q, err %v", d, err)
	}
	big[7]++
	other, _ := json.Marshal(map[string]any{"reencoded": base64.StdEncoding.EncodeToString(big)})
	if d, _ := ResultDiff(want, other); d == "" {
		t.Fatal("one changed byte must show")
	}
	if d, _ := ResultDiff(want, []byte(`{"reencoded":"not base64!"}`)); d == "" {
		t.Fatal("a non-base64 value must show")
	}
	if s, ok := BytesMatcher([]byte("hi")).(string); !ok || s != "aGk=" {
		t.Fatalf("short bytes are literal base64, got %v", BytesMatcher([]byte("hi")))
	}
}

func TestResultNestedMatchers(t *testing.T) {
	big := make([]byte, 4000)
	for i := range big {
		big[i] = byte(i * 7)
	}
	want, _ := json.Marshal(map[string]any{"frames": []any{
		map[string]any{"depth": 0, "payload": HexMatcher(big)},
		map[string]any{"depth": 0, "error": map[string]any{"code": "X", "detail": AnyString()}},
	}})
	frames := func(payload string, detail any) []byte {
		b, _ := json.Marshal(map[string]any{"frames": []any{
			map[string]any{"depth": 0, "payload": payload},
			map[string]any{"depth": 0, "error": map[string]any{"code": "X", "detail": detail}},
		}})
		return b
	}
	good := hex.EncodeToString(big)
	other := append([]byte(nil), big...)
	other[99]++
	tests := []struct {
		name string
		got  []byte
		same bool
	}{
		{"equal bytes, any detail", frames(good, "whatever the testee says"), true},
		{"one payload byte differs", frames(hex.EncodeToString(other), "d"), false},
		{"upper-case hex", frames(strings.ToUpper(good), "d"), false},
		{"payload not hex", frames("zz", "d"), false},
		{"detail not a string", frames(good, 7), false},
		{"detail missing", []byte(`{"frames":[{"depth":0,"payload":"` + good + `"},{"depth":0,"error":{"code":"X"}}]}`), false},
		{"extra key inside a frame is ignored", []byte(`{"frames":[{"depth":0,"payload":"` + good + `","x":1},{"depth":0,"error":{"code":"X","detail":""}}]}`), true},
		{"one frame too many", []byte(`{"frames":[{"depth":0,"payload":"` + good + `"},{"depth":0,"error":{"code":"X","detail":""}},{}]}`), false},
	}
	for _, tt := range tests {
		d, err := ResultDiff(want, tt.got)
		if err != nil || (d == "") != tt.same {
			t.Errorf("%s: diff %q, err %v; want equal=%v", tt.name, d, err, tt.same)
		}
	}
	if s, ok := HexMatcher([]byte{0xab, 0x01}).(string); !ok || s != "ab01" {
		t.Fatalf("short bytes are literal hex, got %v", HexMatcher([]byte{0xab, 0x01}))
	}
}

// AnswerSize is the expected result's length, with each digest matcher
// counted as the encoded value it stands for.
func TestAnswerSize(t *testing.T) {
	big := make([]byte, 100_000)
	b64, _ := json.Marshal(map[string]any{"hash": "B.x.H3", "record": base64.StdEncoding.EncodeToString(big)})
	hx, _ := json.Marshal(map[string]any{"frames": []any{map[string]any{"payload": hex.EncodeToString(big)}, map[string]any{"payload": hex.EncodeToString(big[:5000])}}})
	matchers := func(v any) json.RawMessage { b, _ := json.Marshal(v); return b }
	for _, c := range []struct {
		name     string
		v        Vector
		min, max int64
	}{
		{"no result", Vector{Expect: Reject}, 0, 0},
		{"small result", Vector{Result: json.RawMessage(`{"form":"blob"}`)}, 15, 15 + 64},
		{"base64 by digest", Vector{Result: matchers(map[string]any{"hash": "B.x.H3", "record": BytesMatcher(big)})}, int64(len(b64)), int64(len(b64)) + 200},
		{"hex by digest, in a list", Vector{Result: matchers(map[string]any{"frames": []any{map[string]any{"payload": HexMatcher(big)}, map[string]any{"payload": HexMatcher(big[:5000])}}})}, int64(len(hx)), int64(len(hx)) + 400},
	} {
		if n := c.v.AnswerSize(); n < c.min || n > c.max {
			t.Errorf("%s: %d, want %d to %d", c.name, n, c.min, c.max)
		}
	}
}

// BenchmarkResultDiffCommitted judges every accepting vector of the
// committed set with its own expected result as the answer: the cost of
// decoding both sides, small results mostly. Results holding a matcher
// are left out: a matcher is not an answer that passes (issue 30, item
// 10), and the bytes it stands for are not in the index.
func BenchmarkResultDiffCommitted(b *testing.B) {
	var results []json.RawMessage
	for _, s := range committedSuites(b) {
		ix, err := Load("../vectors", s)
		if err != nil {
			b.Fatal(err)
		}
		for _, v := range ix.Vectors {
			if len(v.Result) > 0 && !bytes.Contains(v.Result, []byte(`"$`)) {
				results = append(results, v.Result)
			}
		}
	}
	for b.Loop() {
		for _, r := range results {
			if d, err := ResultDiff(r, r); err != nil || d != "" {
				b.Fatalf("%s: %q, %v", r, d, err)
			}
		}
	}
}
