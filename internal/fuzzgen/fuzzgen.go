// Package fuzzgen is what `conform fuzz` (issue 27) and the wings' fuzz
// generators share: the deterministic source of one generated case
// (Rand), numbers drawn with the boundaries weighted, text drawn from every
// Unicode plane and category, the byte-level mutation operators, and the
// Case and Generator types a wing declares its generation with
// (impl/<spec>/<spec>fuzz). It knows no spec: each wing's generator holds
// what it knows of its format, and the harness (harness.Fuzz) asks the
// reference and the testee about what they generate.
package fuzzgen

import (
	"encoding/binary"
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"unicode/utf8"
)

// Case is one generated request: the operation, its arguments and its
// input, with its provenance (which generator made it, the mutation
// operators applied to it, the valid structure it was mutated from).
type Case struct {
	Op    string
	Args  json.RawMessage // nil: {}
	Input []byte
	// Generator names the wing's generator that built the input
	// ("hivefuzz/manifest").
	Generator string
	// Operators are the mutation operators applied, in order, each with
	// where it was applied ("flip-bit@17", "set rows[1].length=2^53+1").
	Operators []string
	// Parent describes the structure the operators were applied to.
	Parent string
	// Smaller, when set, returns structurally smaller variants of the case
	// (a row, a field or a frame left out), for shrinking: each keeps the
	// case's structure valid where the case's was, so that a shrink over
	// bytes alone (which breaks framing) is not the only way down.
	Smaller func() []Case
}

// Generator is one wing's fuzz generation of its suite.
type Generator struct {
	// Suite is the suite (the spec's name) the generated cases are of.
	Suite string
	// Ops are the operations it generates for.
	Ops []string
	// Generate returns a case of op drawn from r.
	Generate func(r *Rand, op string) Case
	// AcceptRule names, by operation, the rule a candidate vector of an
	// input the reference accepts tests (an index entry names at least
	// one rule): the rule its acceptance shows, used where the testee's
	// answer names no rule of the catalog.
	AcceptRule map[string]string
}

// Rand is the source of one case: a PCG seeded with the run's seed and
// the case's number, so that case n of a seed is the same whatever ran
// before it and on whichever worker.
type Rand struct{ *rand.Rand }

// New returns the source of case n of seed.
func New(seed, n uint64) *Rand {
	return &Rand{rand.New(rand.NewPCG(seed, n^0x9e3779b97f4a7c15))}
}

// N returns a number in [0, n); 0 when n <= 0.
func (r *Rand) N(n int) int {
	if n <= 0 {
		return 0
	}
	return r.IntN(n)
}

// Chance reports true with probability num/den.
func (r *Rand) Chance(num, den int) bool { return r.IntN(den) < num }

// Pick returns one of the strings.
func (r *Rand) Pick(s ...string) string { return s[r.IntN(len(s))] }

// Boundaries are the values every spec's numbers are weighted towards
// (issue 27): 0, 1, the compact-encoding bounds 252/253, 2^8, 2^16, 2^32,
// 2^53 (the largest integer an IEEE double holds exactly) and 2^63, each
// with its neighbours, and 2^64-1.
var Boundaries = []uint64{
	0, 1, 2, 127, 128, 252, 253, 254, 255, 256,
	1<<16 - 1, 1 << 16, 1<<16 + 1,
	1<<31 - 1, 1 << 31, 1<<32 - 1, 1 << 32, 1<<32 + 1,
	1<<53 - 1, 1 << 53, 1<<53 + 1,
	1<<63 - 1, 1 << 63, 1<<64 - 1,
}

// BoundaryName writes v as the boundary it is near ("2^53+1"), or in
// decimal, for provenance.
func BoundaryName(v uint64) string {
	for _, e := range []uint{8, 16, 31, 32, 53, 63, 64} {
		p := uint64(1) << (e % 64)
		if e == 64 {
			if v == 1<<64-1 {
				return "2^64-1"
			}
			continue
		}
		switch v {
		case p - 1:
			return "2^" + strconv.Itoa(int(e)) + "-1"
		case p:
			return "2^" + strconv.Itoa(int(e))
		case p + 1:
			return "2^" + strconv.Itoa(int(e)) + "+1"
		}
	}
	return strconv.FormatUint(v, 10)
}

// Uint returns a number in [0, max], weighted: half the time one of the
// Boundaries or limits at most max (limits are the spec's own: a count's
// bound, a size class), with its neighbours; else uniform on a random bit
// width, so that small values are as likely as large ones.
func (r *Rand) Uint(max uint64, limits ...uint64) uint64 {
	if r.Chance(1, 2) {
		var cands []uint64
		for _, b := range Boundaries {
			if b <= max {
				cands = append(cands, b)
			}
		}
		for _, l := range limits {
			for _, d := range []uint64{l - 1, l, l + 1} {
				if d <= max && (d != l-1 || l > 0) {
					cands = append(cands, d)
				}
			}
		}
		if len(cands) > 0 {
			return cands[r.IntN(len(cands))]
		}
	}
	bits := uint(r.IntN(65))
	v := r.Uint64()
	if bits < 64 {
		v &= 1<<bits - 1
	}
	if max == 1<<64-1 {
		return v
	}
	return v % (max + 1)
}

// Length returns a small length in [0, max], weighted to 0, 1 and max.
func (r *Rand) Length(max int) int {
	switch r.IntN(8) {
	case 0:
		return 0
	case 1:
		return min(1, max)
	case 2:
		return max
	}
	return r.N(max + 1)
}

// Bytes returns n random bytes.
func (r *Rand) Bytes(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// runeRanges are the code points text is drawn from: every plane that has
// assignments (0, 1, 2, 3, 14, 15, 16) and the categories that trip
// implementations: ASCII and its controls, C1 controls, Latin-1, combining
// marks, right-to-left scripts, Hangul and CJK, the zero-width and line
// separators, the byte order mark, the noncharacters, private use,
// astral emoji and tags, and the last code point.
var runeRanges = [][2]rune{
	{0x20, 0x7e},               // printable ASCII
	{0x00, 0x1f}, {0x7f, 0x7f}, // C0 controls, DEL
	{0x80, 0x9f},                       // C1 controls
	{0xa0, 0xff},                       // Latin-1 (NBSP, soft hyphen)
	{0x300, 0x36f},                     // combining diacritics
	{0x590, 0x6ff},                     // Hebrew, Arabic
	{0x1100, 0x11ff}, {0xac00, 0xd7a3}, // Hangul jamo and syllables
	{0x200b, 0x200f}, {0x2028, 0x202e}, // zero-width, separators, bidi controls
	{0x4e00, 0x9fff},                   // CJK
	{0xd7ff, 0xd7ff}, {0xe000, 0xf8ff}, // around the surrogates, private use
	{0xfdd0, 0xfdef}, {0xfeff, 0xfeff}, {0xfffd, 0xffff}, // noncharacters, BOM, replacement
	{0x10000, 0x1007f}, {0x1f600, 0x1f64f}, // plane 1: Linear B, emoji
	{0x20000, 0x2a6df}, {0x30000, 0x3134a}, // planes 2 and 3: CJK extensions
	{0xe0000, 0xe007f}, {0xf0000, 0xf00ff}, // plane 14 tags, plane 15 private use
	{0x10fffe, 0x10ffff}, // plane 16's last, noncharacters
}

// Rune returns a code point drawn from every plane and category.
func (r *Rand) Rune() rune {
	g := runeRanges[r.IntN(len(runeRanges))]
	return g[0] + rune(r.IntN(int(g[1]-g[0])+1))
}

// Text returns n code points, as UTF-8: half of them printable ASCII,
// the rest from Rune.
func (r *Rand) Text(n int) string {
	b := make([]byte, 0, n)
	for range n {
		if r.Chance(1, 2) {
			b = append(b, byte(0x20+r.IntN(0x5f)))
			continue
		}
		b = utf8.AppendRune(b, r.Rune())
	}
	return string(b)
}

// Interesting bytes: the structural bytes of the three formats' texts and
// the ends of the byte range.
var interesting = []byte{0x00, 0x01, 0x7f, 0x80, 0xff, 0xfe, 0xfc, 0xfd, '\n', '\r', '\t', ' ', ':', '=', '+', '-', '/', '.', '0', '9', 'A', 'z'}

// badUTF8 are byte sequences no UTF-8 text holds: a lone continuation,
// an overlong NUL, a surrogate, a code point above U+10FFFF, a truncated
// sequence.
var badUTF8 = [][]byte{{0x80}, {0xc0, 0x80}, {0xed, 0xa0, 0x80}, {0xf4, 0x90, 0x80, 0x80}, {0xe2, 0x82}, {0xff}}

// Mutate applies one byte-level mutation operator to a copy of b at a
// random place and returns it with the operator's name and place.
func (r *Rand) Mutate(b []byte) ([]byte, string) {
	out := append([]byte(nil), b...)
	at := func() int { return r.N(len(out)) }
	name := func(op string, i int) string { return op + "@" + strconv.Itoa(i) }
	switch r.IntN(11) {
	case 0:
		if len(out) == 0 {
			break
		}
		i := at()
		out[i] ^= 1 << r.IntN(8)
		return out, name("flip-bit", i)
	case 1:
		if len(out) == 0 {
			break
		}
		i := at()
		out[i] = interesting[r.IntN(len(interesting))]
		return out, name("set-byte", i)
	case 2:
		i := r.N(len(out) + 1)
		c := interesting[r.IntN(len(interesting))]
		return append(out[:i:i], append([]byte{c}, out[i:]...)...), name("insert-byte", i)
	case 3:
		if len(out) == 0 {
			break
		}
		i := at()
		n := 1 + r.N(min(len(out)-i, 16))
		return append(out[:i:i], out[i+n:]...), name("delete-"+strconv.Itoa(n), i)
	case 4:
		if len(out) == 0 {
			break
		}
		i := at()
		n := 1 + r.N(min(len(out)-i, 32))
		return append(out[:i+n:i+n], append(append([]byte(nil), out[i:i+n]...), out[i+n:]...)...), name("duplicate-"+strconv.Itoa(n), i)
	case 5:
		i := r.N(len(out) + 1)
		return out[:i], name("truncate", i)
	case 6:
		n := 1 + r.IntN(8)
		return append(out, r.Bytes(n)...), name("append-"+strconv.Itoa(n), len(out))
	case 7:
		if len(out) < 2 {
			break
		}
		i := r.N(len(out) - 1)
		out[i], out[i+1] = out[i+1], out[i]
		return out, name("swap", i)
	case 8:
		// A boundary number over the bytes at a place, in each width and
		// byte order the formats use.
		v := Boundaries[r.IntN(len(Boundaries))]
		w := []int{2, 4, 8}[r.IntN(3)]
		if len(out) < w {
			break
		}
		i := r.N(len(out) - w + 1)
		var tmp [8]byte
		if r.Chance(1, 2) {
			binary.BigEndian.PutUint64(tmp[:], v)
			copy(out[i:], tmp[8-w:])
		} else {
			binary.LittleEndian.PutUint64(tmp[:], v)
			copy(out[i:], tmp[:w])
		}
		if w < 8 {
			v &= 1<<(8*uint(w)) - 1
		}
		return out, name("set-u"+strconv.Itoa(8*w)+"="+BoundaryName(v), i)
	case 9:
		i := r.N(len(out) + 1)
		s := badUTF8[r.IntN(len(badUTF8))]
		return append(out[:i:i], append(append([]byte(nil), s...), out[i:]...)...), name("insert-bad-utf8", i)
	case 10:
		i := r.N(len(out) + 1)
		s := utf8.AppendRune(nil, r.Rune())
		return append(out[:i:i], append(s, out[i:]...)...), name("insert-rune", i)
	}
	return append(out, 0), name("append-1", len(b))
}

// MutateN applies 1 to n mutation operators (weighted to one), appending
// their names to ops.
func (r *Rand) MutateN(b []byte, n int, ops []string) ([]byte, []string) {
	k := 1
	for k < n && r.Chance(1, 3) {
		k++
	}
	for range k {
		var op string
		b, op = r.Mutate(b)
		ops = append(ops, op)
	}
	return b, ops
}

// Args marshals v as a request's arguments (nil for an empty object).
func Args(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic("fuzzgen: arguments: " + err.Error())
	}
	return b
}
