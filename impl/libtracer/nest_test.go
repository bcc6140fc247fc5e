package libtracer

import (
	"bytes"
	"testing"
)

// deepNest returns n user records (0x80, PL=1) nested in one another
// around a STATUS, built in O(n) without the encoders, and the offset of
// each record's header. Records longer than 65535 bytes use LL=1.
func deepNest(n int) (b []byte, offs []int) {
	lens := make([]int, n+1) // lens[i]: size of the frame at depth i
	lens[n] = 4
	for i := n - 1; i >= 0; i-- {
		h := 4
		if lens[i+1] > MaxLen16 {
			h = 6
		}
		lens[i] = h + lens[i+1]
	}
	b = make([]byte, 0, lens[0])
	offs = make([]int, n)
	for i := range n {
		offs[i] = len(b)
		l := lens[i+1]
		if l > MaxLen16 {
			b = append(b, 0x80, byte(OptPL|OptLL), byte(l), byte(l>>8), byte(l>>16), byte(l>>24))
		} else {
			b = append(b, 0x80, byte(OptPL), byte(l), byte(l>>8))
		}
	}
	return append(b, status...), offs
}

// A 10^6-deep nest is rejected under a small budget and parsed under a big
// one, without recursion (LT-NEST-01..03).
func TestMillionDeep(t *testing.T) {
	t.Parallel()
	const n = 1_000_000
	in, offs := deepNest(n)
	for _, budget := range []int{0, 5, 1000} {
		eff := budget
		if budget == 0 {
			eff = DefaultMaxOpenLevels
		}
		_, err := Validate(in, Limits{MaxOpenLevels: budget})
		wantViolation(t, err, RuleNestTooDeep, CodeNestingTooDeep, int64(offs[eff]))
		wantViolation(t, Decode(in, Limits{MaxOpenLevels: budget}).FirstError(), RuleNestTooDeep, CodeNestingTooDeep, int64(offs[eff]))
	}
	big := Limits{MaxOpenLevels: n}
	if k, err := Validate(in, big); err != nil || k != 1 {
		t.Fatalf("Validate = %d, %v", k, err)
	}
	_, err := Validate(in, Limits{MaxOpenLevels: n - 1})
	wantViolation(t, err, RuleNestTooDeep, CodeNestingTooDeep, int64(offs[n-1]))
	if testing.Short() {
		return
	}
	r := Decode(in, big)
	if v := r.FirstError(); v != nil {
		t.Fatal(v)
	}
	depth := 0
	for f := &r.Frames[0]; f.Walked(); f = &f.Children[0] {
		if len(f.Children) != 1 || f.Offset != int64(offs[depth]) {
			t.Fatalf("depth %d: %d children at %d", depth, len(f.Children), f.Offset)
		}
		depth++
	}
	if depth != n {
		t.Fatalf("depth %d", depth)
	}
	// The encoder and the JSON writer are iterative too.
	out, err := EncodeExact(r.Frames)
	if err != nil || !bytes.Equal(out, in) {
		t.Fatalf("EncodeExact: %v, equal %v", err, bytes.Equal(out, in))
	}
	js := AppendJSON(nil, r.Frames)
	if bytes.Count(js, []byte(`"children":[`)) != n {
		t.Fatal("JSON of the deep tree is incomplete")
	}
}

// Every frame nesting at most 5 deep parses at any budget (LT-NEST-04).
func TestProtocolDepthAtAnyBudget(t *testing.T) {
	t.Parallel()
	for budget := -3; budget <= 6; budget++ {
		for depth := 0; depth <= 5; depth++ {
			if v := Decode(chain(depth), Limits{MaxOpenLevels: budget}).FirstError(); v != nil {
				t.Fatalf("budget %d depth %d: %v", budget, depth, v)
			}
		}
	}
	if v := Decode(chain(7), Limits{MaxOpenLevels: 7}).FirstError(); v != nil {
		t.Fatalf("budget 7 depth 7: %v", v)
	}
}

// A CRC on every level of a deep nest is checked in time linear in the
// bytes (each byte folded once per width, see "Splitting a CRC"): 50,000
// levels of alternating CRC-32C and CRC-16 would fold about 10^10 bytes
// level by level.
func TestDeepNestOfCRCs(t *testing.T) {
	t.Parallel()
	const n = 50_000
	leaf := Frame{Type: 1, Opt: OptCR, Payload: []byte("x")}
	nest := []Frame{leaf}
	for i := range n {
		o := OptPL | OptCR
		if i%2 == 1 {
			o |= OptCW
		}
		if i%3 == 0 || i >= 5000 { // LL=1 where the payload exceeds 65535
			o |= OptLL
		}
		nest = []Frame{{Type: 0x80, Opt: o, Children: nest}}
	}
	in, err := EncodeExact(nest)
	if err != nil {
		t.Fatal(err)
	}
	lim := Limits{MaxOpenLevels: n}
	if _, err := Validate(in, lim); err != nil {
		t.Fatal(err)
	}
	// The innermost CRC-32C, computed by the bit-by-bit reference.
	leafAt := bytes.Index(in, []byte{0x01, 0x10, 0x01, 0x00, 'x'})
	if got := readCRC(in[leafAt+5:], false); leafAt < 0 || got != bitCRC32C([]byte("x")) {
		t.Fatalf("innermost CRC %08x", got)
	}
	// Corrupt the middle byte: the outermost CRC (level n-1, odd: CRC-16)
	// fails first.
	_, err = Validate(flip(in, len(in)/2-3, 0x40), lim)
	wantViolation(t, err, RuleCRCVerify16, CodeCRCFail, int64(len(in)-2))
}

// CRCs at several levels, of both widths, built by the bit-by-bit
// references: each is checked over its own payload and stamp.
func TestNestedCRCsBitByBit(t *testing.T) {
	t.Parallel()
	inner := mk(1, OptCR|OptTS|OptTF, []byte("v"), i32le(-1))
	mid := mk(0x06, OptPL|OptCR|OptCW|OptTS, cat(inner, mk(2, OptCR|OptCW, []byte("n"), nil)), u64le(T0))
	outer := mk(0x80, OptPL|OptCR|OptLL, cat(vTrue, mid, status), nil)
	for _, in := range [][]byte{outer, mk(0x81, OptPL|OptCR|OptCW, outer, nil), cat(outer, outer)} {
		if v := Decode(in, Limits{}).FirstError(); v != nil {
			t.Fatalf("%x: %v", in, v)
		}
	}
}
