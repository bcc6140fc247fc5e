package tracervec

import (
	"bytes"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/threespec/conformance/vectorset"
)

// unhex reads hex with spaces; "T0" stands for the 8 bytes of t0
// (docs/libtracer.md writes the examples this way).
func unhex(t *testing.T, s string) []byte {
	t.Helper()
	s = strings.ReplaceAll(s, "T0", "00 00 a0 2d 1f e5 ab 18")
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatalf("bad hex %q: %v", s, err)
	}
	return b
}

// TestWorkedExampleBytes: every worked example as libtracer-01 prints it,
// with the open bytes filled and the CRCs docs/libtracer.md computed by a
// bit-by-bit CRC in Python, independently of this package.
func TestWorkedExampleBytes(t *testing.T) {
	want := map[string]string{
		"ex01-status-ok-minimum-frame":   "09 00 00 00",
		"ex02-value-true-no-trailer":     "01 00 01 00 01",
		"ex03-uint32-relative-ts":        "80 60 0c 00 01 22 04 00 2a 00 00 00 e8 03 00 00 T0",
		"ex04-uint32-absolute-ts-crc32c": "01 30 04 00 2a 00 00 00 T0 6a 09 50 4d",
		"ex05-value-5-bytes-crc32c":      "01 10 05 00 aa bb cc dd ee b6 c9 12 23",
		"ex06-path-sensor-temp-crc32c":   "06 50 12 00 02 00 06 00 73 65 6e 73 6f 72 02 00 04 00 74 65 6d 70 f3 70 ab 47",
		"ts05-adc-samples-relative-ts":   "80 60 24 00 01 22 04 00 64 00 00 00 00 00 00 00 01 22 04 00 65 00 00 00 01 00 00 00 01 22 04 00 66 00 00 00 02 00 00 00 T0",
	}
	for _, ex := range examples {
		b := wire(ex.frame())
		if ex.name == "ex07-ll1-100kib-crc32c" {
			if len(b) != 102410 || !bytes.Equal(b[:6], unhex(t, "01 18 00 90 01 00")) || !bytes.Equal(b[len(b)-4:], unhex(t, "17 da 57 79")) {
				t.Errorf("%s: %d bytes, head % x, tail % x", ex.name, len(b), b[:6], b[len(b)-4:])
			}
			continue
		}
		if w := unhex(t, want[ex.name]); !bytes.Equal(b, w) {
			t.Errorf("%s:\n got % x\nwant % x", ex.name, b, w)
		}
	}
}

// TestSmallestOfExamples: the smallest variants docs/libtracer.md gives.
func TestSmallestOfExamples(t *testing.T) {
	want := map[string]string{
		"ex04-uint32-absolute-ts-crc32c": "01 34 04 00 2a 00 00 00 T0 c8 e9",
		"ex05-value-5-bytes-crc32c":      "01 14 05 00 aa bb cc dd ee 05 be",
		"ex06-path-sensor-temp-crc32c":   "06 54 12 00 02 00 06 00 73 65 6e 73 6f 72 02 00 04 00 74 65 6d 70 fc dd",
	}
	for _, ex := range examples {
		f := ex.frame()
		got := wire(smallestOf([]*node{f})...)
		switch w, ok := want[ex.name]; {
		case ok:
			if !bytes.Equal(got, unhex(t, w)) {
				t.Errorf("%s smallest:\n got % x\nwant %s", ex.name, got, w)
			}
		case ex.name == "ex07-ll1-100kib-crc32c":
			if !bytes.Equal(got[:6], unhex(t, "01 1c 00 90 01 00")) || !bytes.Equal(got[len(got)-2:], unhex(t, "97 65")) {
				t.Errorf("%s smallest: head % x tail % x", ex.name, got[:6], got[len(got)-2:])
			}
		default: // already smallest
			if !bytes.Equal(got, wire(f)) {
				t.Errorf("%s is already smallest, got % x", ex.name, got)
			}
		}
	}
}

// TestSizeTable: every row of §Frame size summary, with the frames of
// docs/libtracer.md.
func TestSizeTable(t *testing.T) {
	want := []string{
		"01 00 02 00 ca fe",
		"01 14 02 00 ca fe 41 ea",
		"01 10 02 00 ca fe 2b 68 f2 10",
		"01 22 02 00 ca fe e8 03 00 00",
		"01 36 02 00 ca fe e8 03 00 00 a5 9e",
		"01 32 02 00 ca fe e8 03 00 00 a2 08 9c 54",
		"01 20 02 00 ca fe T0",
		"01 34 02 00 ca fe T0 1b 9a",
		"01 30 02 00 ca fe T0 aa 55 2e aa",
		"01 38 02 00 00 00 ca fe T0 aa 55 2e aa",
	}
	for i, r := range sizeRows {
		v, _ := r.frame()
		b := v.write(nil)
		if !bytes.Equal(b, unhex(t, want[i])) {
			t.Errorf("%s: got % x, want %s", r.name, b, want[i])
		}
		if hdrSize(r.opt) != r.h || tsSize(r.opt) != r.ts || crcSize(r.opt) != r.crc || r.h+r.ts+r.crc != r.total || len(b)-2 != r.total {
			t.Errorf("%s: H=%d T_ts=%d T_crc=%d, %d bytes of overhead; the table says %d %d %d %d", r.name, hdrSize(r.opt), tsSize(r.opt), crcSize(r.opt), len(b)-2, r.h, r.ts, r.crc, r.total)
		}
	}
}

// TestDeepNestIsTheRecipe: the nest the generator builds is the bytes of
// the libtracer_nest recipe part (docs/VECTORS.md), built either way.
func TestDeepNestIsTheRecipe(t *testing.T) {
	leafB := wire(statusOK())
	for _, depth := range []int{0, 1, 7, 300} {
		r := nestRecipe(depth, leafB)
		got, err := r.Expand(nil)
		if err != nil || !bytes.Equal(got, wire(nest(depth, statusOK()))) || !bytes.Equal(got, deepNest(depth, leafB)) {
			t.Errorf("depth %d: the recipe, the tree and deepNest disagree (%v)", depth, err)
		}
	}
}

func TestCompressRoundTrip(t *testing.T) {
	p := ll1Payload()
	cases := map[string][]byte{
		"empty":            {},
		"short":            []byte("abc"),
		"pattern":          p,
		"pattern cut":      p[:1000],
		"pattern changed":  xorAt(p, 5000, 1),
		"hex text":         []byte(hex.EncodeToString(p[:20000])),
		"no period at all": bytes.Repeat([]byte("xyz"), 10),
	}
	for name, b := range cases {
		r := compress(b)
		got, err := r.Expand(nil)
		if err != nil || !bytes.Equal(got, b) {
			t.Errorf("%s: compress does not round-trip (%v)", name, err)
		}
		if name == "pattern" && len(r.Parts) > 3 {
			t.Errorf("the 102400-byte pattern takes %d parts, want at most 3", len(r.Parts))
		}
	}
}

// TestExpectedMatchersStandForValues: an expected frame list with digests
// and free text matches the literal list of the same frames.
func TestExpectedMatchersStandForValues(t *testing.T) {
	f := examples[6].frame() // 102400 bytes: the payload goes by digest
	list := flatten(f)
	list = append(list, flat{offset: 9, typ: 0x0e, err: &violation{rule: "LT-UNK-05", code: codeMismatch, offset: 9}})
	want := mustJSON(t, map[string]any{"frames": jsonFrames(list, true)})
	literal := jsonFrames(list, false)
	literal[1].(map[string]any)["error"] = map[string]any{"rule": "LT-UNK-05", "code": codeMismatch, "offset": 9, "detail": "whatever"}
	got := mustJSON(t, map[string]any{"frames": literal})
	if d, err := vectorset.ResultDiff(want, got); err != nil || d != "" {
		t.Fatalf("diff %s %v", d, err)
	}
	literal[1].(map[string]any)["error"].(map[string]any)["offset"] = 10
	if d, _ := vectorset.ResultDiff(want, mustJSON(t, map[string]any{"frames": literal})); d == "" {
		t.Fatal("a different error offset must show")
	}
}
