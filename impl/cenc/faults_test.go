package cenc

import (
	"bytes"
	"testing"

	"github.com/threespec/conformance/impl/rules"
)

// sample writes one field of each kind the layout rules govern.
func sample(e *Encoder) {
	e.U8(1)
	e.U16(0x0102)
	e.U32(0x01020304)
	e.U64(0x0102030405060708)
	e.Fixed([]byte{0xaa, 0xbb})
	e.BoundedBytes([]byte{0xcc})
	e.Count(2)
	e.Raw([]byte{0xdd, 0xee}) // the two elements the count announces
}

// readSample reads what sample writes and reports whether every value came
// back.
func readSample(c rules.Checks, b []byte) bool {
	d := NewDecoder(c, b)
	a, _ := d.U8("a")
	x, _ := d.U16("b")
	y, _ := d.U32("c")
	z, _ := d.U64("d")
	var f [2]byte
	err1 := d.Fixed("f", f[:])
	s, err2 := d.BoundedBytes("s", 0, 9, "TEST-RANGE")
	n, err3 := d.Count("n", 0, 9, 1, "TEST-RANGE")
	elems, err4 := d.Raw("elements", uint64(n))
	return err4 == nil && bytes.Equal(elems, []byte{0xdd, 0xee}) && a == 1 && x == 0x0102 && y == 0x01020304 && z == 0x0102030405060708 && f == [2]byte{0xaa, 0xbb} &&
		bytes.Equal(s, []byte{0xcc}) && n == 2 && err1 == nil && err2 == nil && err3 == nil && d.Remaining() == 0
}

// The canonical bytes of sample, from section 2: big-endian integers, no
// alignment, no prefix on fixed strings, compact lengths and counts.
var sampleCanonical = "01 0102 01020304 0102030405060708 aabb 01cc 02 ddee"

// Under each layout rule's fault the encoder and the decoder make the same
// mistake (what one writes the other reads back), and the bytes are not the
// canonical ones, which the faulty decoder misreads.
func TestLayoutFaults(t *testing.T) {
	t.Parallel()
	var e Encoder
	sample(&e)
	canonical := unhex(t, sampleCanonical)
	if !bytes.Equal(e.Bytes(), canonical) || !readSample(std, canonical) {
		t.Fatalf("canonical sample %x", e.Bytes())
	}
	for id, want := range map[rules.ID]string{
		RuleDeclarationOrder: "01 00 0102 01020304 0102030405060708 aabb 01cc 02 ddee", // u16 at 2, u32 at 4, u64 at 8
		RuleBigEndian:        "01 0201 04030201 0807060504030201 aabb 01cc 02 ddee",
		RuleFixedBytes:       "01 0102 01020304 0102030405060708 02aabb 01cc 02 ddee",
		RuleBoundedBytes:     "01 0102 01020304 0102030405060708 aabb 0001cc 02 ddee",
		RuleArray:            "01 0102 01020304 0102030405060708 aabb 01cc 00000002 ddee",
	} {
		c := faults(id)
		e := NewEncoder(c, 0)
		sample(&e)
		consistent, misread := readSample(c, e.Bytes()), readSample(c, canonical)
		if got := e.Bytes(); !bytes.Equal(got, unhex(t, want)) {
			t.Errorf("%s: wrote %x, want %s", id, got, want)
		}
		if !consistent || misread {
			t.Errorf("%s: reads back its own bytes %v, reads the canonical bytes %v", id, consistent, misread)
		}
	}
}

// A general rule switched off switches off the rules registered as
// realizing it; HR-CENC-15's fault changes the code instead. (Not parallel:
// it registers a relation in the package's table, which the other tests
// read.)
func TestGeneralRulesAndCodeFault(t *testing.T) {
	RegisterRealized("TEST-GENERAL", "TEST-SPECIFIC")
	defer delete(generals, "TEST-SPECIFIC")
	c := faults("TEST-GENERAL")
	d := NewDecoder(c, []byte{9})
	if d.Rejects("TEST-SPECIFIC") || Rejects(c, "TEST-SPECIFIC") || !d.Rejects("TEST-OTHER") || !Rejects(std, "TEST-SPECIFIC") {
		t.Fatalf("general switched off: specific %v %v, other %v, standard %v",
			d.Rejects("TEST-SPECIFIC"), Rejects(c, "TEST-SPECIFIC"), d.Rejects("TEST-OTHER"), Rejects(std, "TEST-SPECIFIC"))
	}
	if !d.Enforced("TEST-SPECIFIC") {
		t.Fatal("a layout choice (Enforced) is the rule's own, not its general rules'")
	}
	if err := d.Fail("TEST-SPECIFIC", 0, "x", "bad"); rules.RuleOf(err) != "TEST-SPECIFIC" {
		t.Fatalf("Fail is pure: %v", err)
	}
	codes := map[string]string{}
	for _, in := range []string{"", "02", "01 00"} {
		d := NewDecoder(faults(RuleBadEncodingCode), unhex(t, in))
		if err := d.Version("version", 1); err != nil {
			codes[in] = rules.CodeOf(err)
		} else {
			codes[in] = rules.CodeOf(d.End(RuleTrailing))
		}
	}
	if codes[""] != "TRUNCATED" || codes["02"] != "UNKNOWN_VERSION" || codes["01 00"] != "TRAILING_BYTES" {
		t.Fatalf("codes under the HR-CENC-15 fault: %v", codes)
	}
}

// Each named mutant of the primitives makes its mistake, and only under
// fault injection.
func TestMutants(t *testing.T) {
	t.Parallel()
	tests := []struct {
		mutant rules.ID
		run    func(c rules.Checks) bool // true: the mistaken answer
	}{
		{MutOverlongFDOnly, func(c rules.Checks) bool {
			d := NewDecoder(c, unhex(t, "fe ffff0000"))
			_, err := d.CompactUint("n")
			return err == nil
		}},
		{MutCompactFD252, func(c rules.Checks) bool {
			d := NewDecoder(c, unhex(t, "fd fc00"))
			v, err := d.CompactUint("n")
			return err == nil && v == 252
		}},
		{MutU64HalvesSwapped, func(c rules.Checks) bool {
			d := NewDecoder(c, unhex(t, "00000001 00000002"))
			v, _ := d.U64("n")
			return v == 0x0000000200000001
		}},
		{MutOptionalNonzero, func(c rules.Checks) bool {
			d := NewDecoder(c, []byte{2})
			ok, err := d.Optional("o")
			return ok && err == nil
		}},
		{MutSortNotStrict, func(c rules.Checks) bool {
			d := NewDecoder(c, nil)
			return d.Ascending([]byte{1}, []byte{1}, 0, "k", "O", "D") == nil
		}},
		{MutNonzeroFirstByte, func(c rules.Checks) bool {
			var k [2]byte
			d := NewDecoder(c, []byte{0, 1})
			return d.FixedNonzero("k", k[:], "NZ") != nil
		}},
		{MutTrailingZeros, func(c rules.Checks) bool { d := NewDecoder(c, []byte{0, 0}); return d.End(RuleTrailing) == nil }},
	}
	for _, tc := range tests {
		if tc.run(std) {
			t.Errorf("%s: mistaken without the mutant", tc.mutant)
		}
		if !tc.run(faults(tc.mutant)) {
			t.Errorf("%s: no mistake with the mutant switched on", tc.mutant)
		}
	}
	if len(tests) != len(Mutants()) {
		t.Errorf("%d mutants tested, %d declared", len(tests), len(Mutants()))
	}
}
