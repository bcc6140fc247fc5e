package fuzzgen

import (
	"bytes"
	"slices"
	"testing"
	"unicode/utf8"
)

// TestCaseIsSeedAndNumber: case n of a seed is the same draw whatever ran
// before it; another n or seed is another draw.
func TestCaseIsSeedAndNumber(t *testing.T) {
	draw := func(seed, n uint64) []byte {
		r := New(seed, n)
		b, _ := r.MutateN(r.Bytes(64), 3, nil)
		return append(b, r.Text(20)...)
	}
	a := draw(7, 3)
	draw(7, 2)
	if !bytes.Equal(a, draw(7, 3)) {
		t.Fatal("case 3 of seed 7 differs between two draws")
	}
	if bytes.Equal(a, draw(7, 4)) || bytes.Equal(a, draw(8, 3)) {
		t.Fatal("another case or seed gives the same draw")
	}
}

// TestUintWeightsBoundaries: Uint stays within max and draws every
// boundary at most max, the limits' neighbours too, often.
func TestUintWeightsBoundaries(t *testing.T) {
	for _, tc := range []struct {
		max    uint64
		limits []uint64
		want   []uint64
	}{
		{1<<64 - 1, nil, []uint64{0, 1, 252, 253, 1<<16 - 1, 1<<32 + 1, 1<<53 - 1, 1<<53 + 1, 1<<64 - 1}},
		{300, []uint64{5}, []uint64{0, 4, 5, 6, 252, 253, 256}},
		{0xffff, nil, []uint64{1<<16 - 1}},
	} {
		seen := map[uint64]bool{}
		r := New(1, 1)
		for range 20000 {
			v := r.Uint(tc.max, tc.limits...)
			if v > tc.max {
				t.Fatalf("Uint(%d) = %d", tc.max, v)
			}
			seen[v] = true
		}
		for _, w := range tc.want {
			if !seen[w] {
				t.Errorf("Uint(%d, %v) never drew %d (%s) in 20000 draws", tc.max, tc.limits, w, BoundaryName(w))
			}
		}
	}
}

func TestBoundaryName(t *testing.T) {
	for v, want := range map[uint64]string{1<<53 + 1: "2^53+1", 1<<53 - 1: "2^53-1", 1 << 32: "2^32", 1<<64 - 1: "2^64-1", 12: "12", 255: "2^8-1"} {
		if got := BoundaryName(v); got != want {
			t.Errorf("BoundaryName(%d) = %q, want %q", v, got, want)
		}
	}
}

// TestTextReachesEveryPlane: Text is valid UTF-8 and draws from planes 0,
// 1, 2, 3, 14, 15 and 16, controls and noncharacters included.
func TestTextReachesEveryPlane(t *testing.T) {
	r := New(2, 2)
	planes := map[rune]bool{}
	var control, nonchar bool
	for range 5000 {
		s := r.Text(8)
		if !utf8.ValidString(s) {
			t.Fatalf("Text gave invalid UTF-8 %q", s)
		}
		for _, c := range s {
			planes[c>>16] = true
			control = control || c < 0x20
			nonchar = nonchar || c == 0xfffe || c == 0xffff || c == 0x10ffff
		}
	}
	for _, p := range []rune{0, 1, 2, 3, 14, 15, 16} {
		if !planes[p] {
			t.Errorf("no code point of plane %d", p)
		}
	}
	if !control || !nonchar {
		t.Errorf("controls %v, noncharacters %v", control, nonchar)
	}
}

// TestMutateNamesEveryOperator: every operator is drawn, each result is a
// copy, and its name says where it was applied.
func TestMutateNamesEveryOperator(t *testing.T) {
	in := []byte("0123456789abcdef")
	r := New(3, 3)
	ops := map[string]bool{}
	for range 5000 {
		out, name := r.Mutate(in)
		op, at, ok := cutLast(name, '@')
		if !ok || at == "" {
			t.Fatalf("operator name %q has no place", name)
		}
		if i := bytes.IndexByte([]byte(op), '-'); i > 0 && (op[:i] == "delete" || op[:i] == "duplicate" || op[:i] == "append") {
			op = op[:i]
		} else if i := bytes.IndexByte([]byte(op), '='); i > 0 {
			op = op[:i]
		}
		ops[op] = true
		_ = out
	}
	if string(in) != "0123456789abcdef" {
		t.Fatal("Mutate changed its input")
	}
	want := []string{"flip-bit", "set-byte", "insert-byte", "delete", "duplicate", "truncate", "append", "swap", "set-u16", "set-u32", "set-u64", "insert-bad-utf8", "insert-rune"}
	for _, w := range want {
		if !ops[w] {
			t.Errorf("operator %s never drawn (drawn: %v)", w, slices.Sorted(func(yield func(string) bool) {
				for k := range ops {
					if !yield(k) {
						return
					}
				}
			}))
		}
	}
}

func cutLast(s string, c byte) (string, string, bool) {
	i := bytes.LastIndexByte([]byte(s), c)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+1:], true
}
