package libtracer

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// corpus is every frame of the tests, with the limits it is decoded under:
// the worked examples, the size-table rows and every rejected input.
func corpus(t testing.TB) (ins [][]byte, lims []Limits) {
	for _, ex := range allByteExamples(t) {
		ins, lims = append(ins, hx(t, ex.wire)), append(lims, Limits{})
	}
	for _, c := range rejectCases(t) {
		ins, lims = append(ins, c.in), append(lims, c.lim)
	}
	return ins, lims
}

// allCompositionsUpTo is the largest input cut every possible way
// (2^(n-1) ropes).
const allCompositionsUpTo = 14

// cutSets returns the ways of cutting n bytes the agreement test tries,
// each a sorted list of cut offsets in (0, n): every composition for small
// n; for larger n a bounded deterministic sample: every single cut (every
// 97th beyond 4 KiB, plus the first and last 16), every pair of cuts up
// to 40 bytes, and 64 seeded random compositions.
func cutSets(n int) [][]int {
	var sets [][]int
	if n <= allCompositionsUpTo {
		for mask := 0; mask < 1<<max(n-1, 0); mask++ {
			var cuts []int
			for i := 1; i < n; i++ {
				if mask>>(i-1)&1 == 1 {
					cuts = append(cuts, i)
				}
			}
			sets = append(sets, cuts)
		}
		return sets
	}
	for i := 1; i < n; i++ {
		if n <= 4096 || i <= 16 || i >= n-16 || i%1021 == 0 {
			sets = append(sets, []int{i})
		}
	}
	if n <= 40 {
		for i := 1; i < n; i++ {
			for j := i + 1; j < n; j++ {
				sets = append(sets, []int{i, j})
			}
		}
	}
	rng := rand.New(rand.NewPCG(uint64(n), 0x11b7ace2))
	for range 64 {
		var cuts []int
		k := 1 + rng.IntN(min(n-1, 64))
		for range k {
			cuts = append(cuts, 1+rng.IntN(n-1))
		}
		slices.Sort(cuts)
		sets = append(sets, slices.Compact(cuts))
	}
	return sets
}

// viewsOf cuts b at the offsets given; with empties, an empty view goes
// before, between and after the pieces.
func viewsOf(b []byte, cuts []int, empties bool) [][]byte {
	var views [][]byte
	prev := 0
	for _, c := range append(cuts, len(b)) {
		if empties {
			views = append(views, b[prev:prev])
		}
		views = append(views, b[prev:c])
		prev = c
	}
	if empties {
		views = append(views, b[len(b):])
	}
	return views
}

// Both parser contexts agree on every input for every way of cutting it
// into views (LT-CTX-01..03).
func TestRopeAgreesWithBuffer(t *testing.T) {
	t.Parallel()
	ins, lims := corpus(t)
	ropes := 0
	for i, in := range ins {
		want := Decode(in, lims[i])
		for k, cuts := range cutSets(len(in)) {
			// Views are copies, so that no rope shares the buffer's memory.
			c := append([]byte{}, in...)
			got := DecodeRope(NewRope(viewsOf(c, cuts, k%7 == 0)...), lims[i])
			ropes++
			if !reflect.DeepEqual(got, want) {
				g, _ := got.MarshalJSON()
				w, _ := want.MarshalJSON()
				t.Fatalf("input %d (%x) cut at %v:\nrope   %s\nbuffer %s", i, in[:min(len(in), 64)], cuts, g, w)
			}
		}
	}
	t.Logf("%d inputs, %d ropes", len(ins), ropes)
}

func TestRopeBasics(t *testing.T) {
	t.Parallel()
	r := NewRope([]byte{1, 2}, nil, []byte{3}, []byte{}, []byte{4, 5, 6})
	if r.Len() != 6 || len(r.Views()) != 5 {
		t.Fatalf("Len %d, %d views", r.Len(), len(r.Views()))
	}
	p := make([]byte, 4)
	r.read(p, 1)
	if !slices.Equal(p, []byte{2, 3, 4, 5}) {
		t.Fatalf("read = %v", p)
	}
	if got := r.bytes(0, 6); !slices.Equal(got, []byte{1, 2, 3, 4, 5, 6}) {
		t.Fatalf("bytes = %v", got)
	}
	if got, want := r.crc(false, 0, 0, 6), bitCRC32C([]byte{1, 2, 3, 4, 5, 6}); got != want {
		t.Fatalf("crc = %08x, want %08x", got, want)
	}
	if NewRope().Len() != 0 {
		t.Fatal("empty rope")
	}
	wantViolation(t, DecodeRope(NewRope(), Limits{}).Err, RuleTruncEmptyDatagram, CodeTruncated, 0)
}
