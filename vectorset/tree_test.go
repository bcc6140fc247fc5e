package vectorset

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/crypto/blake2b"

	"github.com/threespec/conformance/testee"
)

// plainDiff is ResultDiff as it reads with encoding/json's tree of the
// testee's result (strings copied, cmp.Diff always): the oracle that
// ResultDiff's in-place decoding must agree with, difference text and all.
func plainDiff(expected, got []byte) (string, error) {
	var want, have map[string]any
	if err := decodeNumbers(expected, &want); err != nil {
		return "", err
	}
	if err := decodeNumbers(got, &have); err != nil {
		return "", err
	}
	sub := map[string]any{}
	for k, w := range want {
		if v, ok := have[k]; ok {
			sub[k] = matched(w, v)
		}
	}
	return cmp.Diff(want, sub, cmp.Comparer(numbersEqual)), nil
}

// matched returns the testee's value v reduced to the shape of the expected
// value w, as the judge's guided decoding does (the oracle it is held to):
// members of objects that w does not list are dropped, at every depth, and
// every part that a matcher of w stands for is replaced by what the
// matcher compares equal to (the digest form, or the matcher itself for a
// string), an object there by a notAString, so that cmp shows only real
// differences. Objects and lists are walked in step; lists keep their
// length, so a missing or extra element still shows.
func matched(w, v any) any {
	switch w := w.(type) {
	case map[string]any:
		k := kindOf(w)
		switch v.(type) {
		case string, longString:
			switch k {
			case base64Matcher:
				return digestOf(v)
			case hexMatcher:
				return hexDigestOf(v)
			case anyStringMatcher:
				return w
			}
		case map[string]any:
			if k != notMatcher {
				return notAString(v.(map[string]any))
			}
		}
		if k != notMatcher {
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

var (
	longB64   = base64.StdEncoding.EncodeToString([]byte(strings.Repeat("record bytes ", 8000))) // 138,668 characters
	longHex   = hex.EncodeToString([]byte(strings.Repeat("payload ", 6000)))                     // 96,000 characters
	longText  = strings.Repeat("x", longStringBytes)                                             // a literal of 64 KiB + 2
	treeSeeds = []string{
		`{}`, ` {"a" : [1, 2.5e3, -0, true, false, null, "s"] } `,
		`{"a":1,"a":{"b":2},"a":[3]}`, `{"a":{"x":1},"a":{"y":2}}`,
		`{"esc":"\u00e9\n\"\\\/\ud83d\ude00","lone":"\ud800","loneEnd":"x\udfff"}`,
		"{\"raw\":\"caf\xc3\xa9\",\"bad\":\"a\xffb\"}",
		`{"` + longText + `":"` + longText + `"}`,
		`{"record":"` + longB64 + `","hash":"B.x.H3"}`,
		`{"record":"` + strings.ReplaceAll(longB64, "/", `\/`) + `"}`,
		`{"record":"` + longB64[:1000] + `\n` + longB64[1000:] + `"}`,
		`{"record":"` + longB64 + `x"}`,
		`{"frames":[{"payload":"` + longHex + `"},{"payload":"` + strings.ToUpper(longHex) + `"},{"payload":"` + longHex + `0"},{"payload":"` + longHex[:9] + `z` + longHex[10:] + `"}]}`,
		`{"frames":[{"payload":"` + longHex + `\u0061"}]}`,
		`{"n":12345678901234567890123,"f":1E400,"e":-1.5e-7}`,
		`{"deep":[[[[[{"a":[{}]}]]]]]}`,
		`{"n":5,"a":[1,2,3,4,5,6,7],"deep":[[[[[{"a":[[]]}]]]]]}`,
		`{"n":null,"a":[null,null,null,null,null,null,null],"deep":[[[[[{"a":[[]]}]]]]]}`,
		`{"n":12345678901234567890123,"a":[1,2500,0,true,false,null,"s"],"f":{}}`,
		`{"n":12345678901234567890123,"a":[1,2500,0,"true",false,null,"s"],"f":{"x":1}}`,
		`[1]`, `null`, `"s"`, `{"a":1} {"b":2}`, `{"a":1}x`, `{`, ``, `{"a":}`,
	}
	wantSeeds = []string{
		`{"record":{"$base64_blake2b":"` + Hash([]byte(strings.Repeat("record bytes ", 8000))) + `","$base64_length":104000},"hash":"B.x.H3"}`,
		`{"frames":[{"payload":{"$hex_blake2b":"` + Hash([]byte(strings.Repeat("payload ", 6000))) + `","$hex_length":48000}},{"payload":{"$hex_blake2b":"00","$hex_length":1}},{"payload":{"$any_string":true}},{}]}`,
		`{"a":[1,2500,0,true,false,null,"s"],"esc":"é","raw":"café","` + longText + `":"y"}`,
		`{"deep":[[[[[{"a":[{}]}]]]]],"n":12345678901234567890123}`,
		`{"n":null,"a":[null,null,null,null,null,null,null],"deep":[[[[[{"a":[[]]}]]]]]}`,
		`{"n":1.2345678901234567890123e22,"a":[1,2500,0,"true",false,null,"s"],"f":{}}`,
	}
)

// decodeResult gives encoding/json's tree once its long strings are
// materialized, for any input (the error too).
func TestDecodeResultIsEncodingJSONs(t *testing.T) {
	for _, s := range treeSeeds {
		checkDecodeResult(t, []byte(s))
	}
}

// ResultDiff says what plainDiff says, for every expected result against
// every testee result.
func TestResultDiffInPlace(t *testing.T) {
	for _, w := range wantSeeds {
		for _, g := range treeSeeds {
			checkResultDiff(t, []byte(w), []byte(g))
		}
	}
}

// Long strings are judged where they stand: a matching digest, a failing
// one and a matcher of any string.
func TestResultDiffLongStrings(t *testing.T) {
	want := []byte(wantSeeds[0])
	for _, c := range []struct {
		got  string
		same bool
	}{
		{`{"record":"` + longB64 + `","hash":"B.x.H3"}`, true},
		{`{"record":"` + strings.ReplaceAll(longB64, "/", `\/`) + `","hash":"B.x.H3"}`, true},
		{`{"record":"` + longB64[:1000] + `\r\n` + longB64[1000:] + `","hash":"B.x.H3"}`, true}, // base64.StdEncoding skips line breaks
		{`{"record":"` + longB64[4:] + `","hash":"B.x.H3"}`, false},
		{`{"record":"` + longB64 + `","hash":"B.y.H3"}`, false},
	} {
		d, err := ResultDiff(want, []byte(c.got))
		if err != nil || (d == "") != c.same {
			t.Errorf("%.40s...: diff %.200q, %v; want equal=%v", c.got, d, err, c.same)
		}
	}
	// A long string of the testee's that is not UTF-8 equals the expected
	// one it decodes to (each invalid byte a U+FFFD, three bytes: longer
	// than the literal); found by FuzzResultDiff.
	for _, c := range []struct{ want, got string }{
		{`{"s":"` + longText + "\ufffd" + `"}`, `{"s":"` + longText + "\xff" + `"}`},
		{`{"s":"` + longText + "\xff" + `"}`, `{"s":"` + longText + "\xff" + `"}`},
	} {
		if d, err := ResultDiff([]byte(c.want), []byte(c.got)); err != nil || d != "" {
			t.Errorf("%.40q: diff %.300q, %v", c.got[len(c.got)-20:], d, err)
		}
	}
}

func checkDecodeResult(t *testing.T, b []byte) {
	t.Helper()
	var want map[string]any
	wantErr := decodeNumbers(b, &want)
	got, err := decodeResult(b, false)
	if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
		t.Fatalf("%.80q: error %v, encoding/json's %v", b, err, wantErr)
	}
	// As the result of an answer line the testee package has checked, it
	// is not validated again, and decodes to the same tree.
	line := append(append([]byte(`{"id":1,"ok":true,"result":`), b...), '}')
	if resp, perr := testee.ParseResponse(line, 1); perr == nil && resp.ResultChecked() {
		unchecked, uerr := decodeResult(resp.Result, false)
		checked, cerr := decodeResult(resp.Result, true)
		if uerr != nil || cerr != nil || !reflect.DeepEqual(materialize(checked), materialize(unchecked)) {
			t.Fatalf("%.80q: checked, tree\n%.300v (%v)\nunchecked\n%.300v (%v)", resp.Result, materialize(checked), cerr, materialize(unchecked), uerr)
		}
	}
	if m := materialize(got); !reflect.DeepEqual(m, any(want)) {
		t.Fatalf("%.80q: tree\n%.300v\nencoding/json's\n%.300v", b, m, want)
	}
	if err == nil && !equalTree(materialize(got), materialize(got)) {
		t.Fatalf("%.80q: equalTree finds the tree unequal to itself", b)
	}
}

func checkResultDiff(t *testing.T, want, got []byte) {
	t.Helper()
	d, summarised, err := judgeResult(want, got, false)
	pd, perr := plainDiff(want, got)
	if perr != nil {
		if err == nil {
			t.Fatalf("%.80q against %.80q: no error, encoding/json's %v", got, want, perr)
		}
		return
	}
	switch {
	case err != nil:
		t.Fatalf("%.80q against %.80q: %v", got, want, err)
	case len(d) > MaxReason:
		t.Fatalf("%.80q against %.80q: a difference of %d bytes, over MaxReason", got, want, len(d))
	case summarised && (d == "" || pd == ""):
		t.Fatalf("%.80q against %.80q: summarised\n%.600s\nbut go-cmp finds\n%.600s", got, want, d, pd)
	case !summarised && d != pd:
		t.Fatalf("%.80q against %.80q: diff\n%.600s (%v)\nwant\n%.600s", got, want, d, err, pd)
	}
}

// FuzzResultDiff: decodeResult is encoding/json's tree and ResultDiff is
// plainDiff, whatever the testee's result. Run it with -fuzzminimizetime
// 10x: its seeds hold strings of 64 KiB and more, long to minimize.
func FuzzResultDiff(f *testing.F) {
	for _, s := range treeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkDecodeResult(t, b)
		for _, w := range wantSeeds {
			checkResultDiff(t, []byte(w), b)
		}
		var v any
		if json.Unmarshal(b, &v) == nil {
			checkResultDiff(t, b, b)
		}
	})
}

// BenchmarkResultDiffLarge judges the answer of a 32 MiB construction
// (lace/positive/construct-data-32mib): a 44.7 MiB base64 record matched
// by its digest. The in-place decoding digests it where it stands; the
// plain decoding (encoding/json's tree) copies it into a string first.
func BenchmarkResultDiffLarge(b *testing.B) {
	record := []byte(strings.Repeat("a", 32<<20))
	want, _ := json.Marshal(map[string]any{"hash": "B.x.H3", "record": BytesMatcher(record)})
	got, _ := json.Marshal(map[string]any{"hash": "B.x.H3", "record": base64.StdEncoding.EncodeToString(record)})
	for _, c := range []struct {
		name string
		diff func(want, got []byte) (string, error)
	}{{"in-place", func(w, g []byte) (string, error) { return ResultDiff(w, g) }}, {"plain", plainDiff}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(got)))
			b.ReportAllocs()
			for b.Loop() {
				if d, err := c.diff(want, got); d != "" || err != nil {
					b.Fatal(d, err)
				}
			}
		})
	}
}

// streamDigest is what decodeLikeStream must agree with.
func streamDigest(c []byte) (string, int64, error) {
	h, _ := blake2b.New256(nil)
	n, err := io.Copy(h, base64.NewDecoder(base64.StdEncoding, bytes.NewReader(c)))
	return hex.EncodeToString(h.Sum(nil)), n, err
}

func checkDecodeLikeStream(t *testing.T, c []byte) {
	t.Helper()
	if bytes.ContainsAny(c, "\r\n") {
		return // not decodeLikeStream's input
	}
	wantSum, wantN, wantErr := streamDigest(c)
	h, _ := blake2b.New256(nil)
	n, err := decodeLikeStream(h, c)
	if (err == nil) != (wantErr == nil) || err == nil && (n != wantN || hex.EncodeToString(h.Sum(nil)) != wantSum) {
		t.Fatalf("%d characters %.40q...: %d bytes, %v; the stream decoder %d bytes, %v", len(c), c, n, err, wantN, wantErr)
	}
}

// decodeLikeStream decodes as the stream decoder does: padding at the end
// of one of its 1024-character pieces passes, elsewhere it does not; a
// short or invalid last quantum fails.
func TestDecodeLikeStream(t *testing.T) {
	b64 := []byte(base64.StdEncoding.EncodeToString(bytes.Repeat([]byte("0123456789"), 500))) // 6,668 characters
	padAt := func(i int) []byte {                                                             // "QQ==" in place of the quantum at i
		c := bytes.Clone(b64)
		copy(c[i:], "QQ==")
		return c
	}
	inputs := [][]byte{nil, []byte("QQ=="), []byte("QUJD"), []byte("QUJ"), []byte("Q==="), []byte("QQ=a"), b64, b64[:1024], b64[:1025], b64[:1028], b64[:2047], b64[:2048],
		padAt(1020), padAt(1016), padAt(2044), padAt(1024), padAt(4), append(bytes.Clone(b64[:2048]), "!!!!"...), append([]byte("A"), b64...)}
	for _, c := range inputs {
		checkDecodeLikeStream(t, c)
	}
	if _, _, err := streamDigest(padAt(1020)); err != nil {
		t.Error("the stream decoder no longer takes pieces of 1024 characters: padding ending one is refused")
	}
}

func FuzzDecodeLikeStream(f *testing.F) {
	f.Add([]byte("QUJDRA=="), 3)
	f.Add(bytes.Repeat([]byte("QUJD"), 600), 1020)
	f.Fuzz(func(t *testing.T, c []byte, pad int) {
		if len(c) > 0 && pad >= 0 {
			c = bytes.Clone(c)
			copy(c[pad%len(c):], "==")
		}
		checkDecodeLikeStream(t, c)
	})
}
