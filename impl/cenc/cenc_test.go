package cenc

import (
	"bytes"
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/internal/fault"
)

// std is the standard reference's Checks: every rule enforced, no mutant,
// the default readings.
var std rules.Checks

// faults returns the Checks that switch off rule id, or switch on mutant id.
func faults(id rules.ID) rules.Checks { return rules.Checks{Faults: fault.Of(string(id))} }

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// wantViolation checks that err is a BAD_ENCODING violation of rule id at
// offset off whose detail names field.
func wantViolation(t *testing.T, err error, id rules.ID, off int64, field string) {
	t.Helper()
	var v *rules.Violation
	if !errors.As(err, &v) {
		t.Fatalf("error = %v, want a *rules.Violation of %s", err, id)
	}
	if v.Rule != id || v.Code != Code || v.Offset != off {
		t.Fatalf("violation = %s %s at %d (%q), want %s %s at %d", v.Rule, v.Code, v.Offset, v.Detail, id, Code, off)
	}
	if !strings.HasPrefix(v.Detail, field+":") {
		t.Fatalf("detail %q does not name field %q", v.Detail, field)
	}
}

// Canonical compact uints at every boundary of section 2, written from the
// spec's description of the forms (not from the encoder).
var compactKnown = []struct {
	v   uint64
	hex string
}{
	{0, "00"},
	{1, "01"},
	{252, "fc"},
	{253, "fd fd00"},
	{254, "fd fe00"},
	{300, "fd 2c01"},
	{0xffff, "fd ffff"},
	{0x10000, "fe 00000100"},
	{0xffffffff, "fe ffffffff"},
	{0x100000000, "ff 0000000001000000"},
	{MaxSafeInteger, "ff ffffffffffff1f00"},
}

func TestCompactUintKnownAnswers(t *testing.T) {
	t.Parallel()
	for _, tc := range compactKnown {
		enc := unhex(t, tc.hex)
		if got := AppendCompactUint(nil, tc.v); !bytes.Equal(got, enc) {
			t.Errorf("AppendCompactUint(%d) = %x, want %x", tc.v, got, enc)
		}
		if n := CompactUintLen(tc.v); n != len(enc) {
			t.Errorf("CompactUintLen(%d) = %d, want %d", tc.v, n, len(enc))
		}
		d := NewDecoder(std, enc)
		v, err := d.CompactUint("n")
		if err != nil || v != tc.v || d.Remaining() != 0 {
			t.Errorf("CompactUint(%x) = %d, %v (remaining %d), want %d", enc, v, err, d.Remaining(), tc.v)
		}
	}
}

func TestCompactUintRejects(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		hex  string
		rule rules.ID
		off  int64
	}{
		// Each overlong form: the largest value of the shorter form, and zero.
		{"fd form of 252", "fd fc00", RuleCompactOverlong, 0},
		{"fd form of 0", "fd 0000", RuleCompactOverlong, 0},
		{"fe form of 0xffff", "fe ffff0000", RuleCompactOverlong, 0},
		{"fe form of 0", "fe 00000000", RuleCompactOverlong, 0},
		{"fe form of 252", "fe fc000000", RuleCompactOverlong, 0},
		{"ff form of 2^32-1", "ff ffffffff00000000", RuleCompactOverlong, 0},
		{"ff form of 0", "ff 0000000000000000", RuleCompactOverlong, 0},
		{"ff form of 253", "ff fd00000000000000", RuleCompactOverlong, 0},
		// Above JavaScript's exact safe integer range.
		{"2^53", "ff 0000000000002000", RuleCompactSafe, 0},
		{"2^64-1", "ff ffffffffffffffff", RuleCompactSafe, 0},
		// Truncation: after the marker, offset is where the missing bytes start.
		{"empty", "", RuleTruncated, 0},
		{"fd with one byte", "fd ff", RuleTruncated, 1},
		{"fe with three bytes", "fe 000001", RuleTruncated, 1},
		{"ff alone", "ff", RuleTruncated, 1},
		{"ff with seven bytes", "ff 00000000010000", RuleTruncated, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := NewDecoder(std, unhex(t, tc.hex))
			_, err := d.CompactUint("count")
			wantViolation(t, err, tc.rule, tc.off, "count")
		})
	}
}

func TestFixedWidthBigEndian(t *testing.T) {
	t.Parallel()
	in := unhex(t, "7f 0102 01020304 0102030405060708")
	d := NewDecoder(std, in)
	a, _ := d.U8("a")
	b, _ := d.U16("b")
	c, _ := d.U32("c")
	e, err := d.U64("e")
	if err != nil || a != 0x7f || b != 0x0102 || c != 0x01020304 || e != 0x0102030405060708 {
		t.Fatalf("got %x %x %x %x %v", a, b, c, e, err)
	}
	if err := d.End(RuleTrailing); err != nil {
		t.Fatal(err)
	}
	var enc Encoder
	enc.U8(0x7f)
	enc.U16(0x0102)
	enc.U32(0x01020304)
	enc.U64(0x0102030405060708)
	if !bytes.Equal(enc.Bytes(), in) {
		t.Fatalf("encoder wrote %x, want %x", enc.Bytes(), in)
	}
	for _, n := range []int{0, 1, 2, 3, 4, 7} {
		d := NewDecoder(std, in[:n])
		var err error
		switch {
		case n < 1:
			_, err = d.U8("a")
		case n < 3:
			d.U8("a")
			_, err = d.U16("b")
		case n < 7:
			d.U8("a")
			d.U16("b")
			_, err = d.U32("c")
		default:
			d.U8("a")
			d.U16("b")
			d.U32("c")
			_, err = d.U64("e")
		}
		if RuleOf := rules.RuleOf(err); RuleOf != RuleTruncated {
			t.Errorf("%d bytes: %v, want truncation", n, err)
		}
	}
}

func TestBoundedBytes(t *testing.T) {
	t.Parallel()
	const rangeRule rules.ID = "TEST-RANGE"
	tests := []struct {
		name     string
		hex      string
		min, max uint64
		want     string // hex of the bytes, when accepted
		rule     rules.ID
		off      int64
	}{
		{"empty string", "00", 0, 4, "", "", 0},
		{"three bytes", "03 aabbcc", 0, 4, "aabbcc", "", 0},
		{"at max", "04 aabbccdd", 1, 4, "aabbccdd", "", 0},
		{"above max", "05 aabbccddee", 1, 4, "", rangeRule, 0},
		{"below min", "00", 1, 4, "", rangeRule, 0},
		{"length beyond input", "04 aabbcc", 0, 4, "", RuleTruncated, 1},
		{"huge length, tiny input", "ff ffffffffffff1f00 aa", 0, MaxSafeInteger, "", RuleTruncated, 9},
		{"overlong length", "fd 0300 aabbcc", 0, 4, "", RuleCompactOverlong, 0},
		{"253 bytes need the fd form", "fd fd00" + strings.Repeat("ab", 253), 0, 1000, strings.Repeat("ab", 253), "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := NewDecoder(std, unhex(t, tc.hex))
			got, err := d.BoundedBytes("payload", tc.min, tc.max, rangeRule)
			if tc.rule != "" {
				wantViolation(t, err, tc.rule, tc.off, "payload")
				return
			}
			if err != nil || hex.EncodeToString(got) != tc.want || d.Remaining() != 0 {
				t.Fatalf("got %x, %v", got, err)
			}
			var e Encoder
			e.BoundedBytes(got)
			if !bytes.Equal(e.Bytes(), unhex(t, tc.hex)) {
				t.Fatalf("re-encoded %x", e.Bytes())
			}
		})
	}
}

// Not parallel: testing.AllocsPerRun counts the allocations of the whole
// process.
func TestCountFailsBeforeAllocation(t *testing.T) {
	const rangeRule rules.ID = "TEST-RANGE"
	// A count of 2^53-1 over 9 remaining bytes must fail without allocating.
	in := unhex(t, "ff ffffffffffff1f00 000000000000000000")
	allocs := testing.AllocsPerRun(100, func() {
		d := NewDecoder(std, in)
		if _, err := d.Count("items", 0, MaxSafeInteger, 1, rangeRule); rules.RuleOf(err) != RuleTruncated {
			t.Fatalf("Count = %v", err)
		}
	})
	// The violation itself allocates (detail, path); nothing proportional to the count.
	if allocs > 10 {
		t.Fatalf("Count allocated %v times", allocs)
	}
	d := NewDecoder(std, unhex(t, "03 aabbcc"))
	if n, err := d.Count("items", 0, 16, 1, rangeRule); n != 3 || err != nil {
		t.Fatalf("Count = %d, %v", n, err)
	}
	d = NewDecoder(std, unhex(t, "03 aabbcc"))
	if _, err := d.Count("items", 0, 16, 2, rangeRule); rules.RuleOf(err) != RuleTruncated {
		t.Fatalf("3 elements of at least 2 bytes in 3 bytes: %v", err)
	}
	d = NewDecoder(std, unhex(t, "11"+strings.Repeat("00", 17)))
	_, err := d.Count("items", 1, 16, 1, rangeRule)
	wantViolation(t, err, rangeRule, 0, "items")
	d = NewDecoder(std, unhex(t, "00"))
	_, err = d.Count("items", 1, 16, 1, rangeRule)
	wantViolation(t, err, rangeRule, 0, "items")
}

func TestOptionalVersionEnd(t *testing.T) {
	t.Parallel()
	for tag := 0; tag < 256; tag++ {
		d := NewDecoder(std, []byte{byte(tag)})
		present, err := d.Optional("expected")
		switch tag {
		case 0, 1:
			if err != nil || present != (tag == 1) {
				t.Errorf("tag %d: %v %v", tag, present, err)
			}
		default:
			wantViolation(t, err, RuleOptionalTag, 0, "expected")
		}
	}
	d := NewDecoder(std, []byte{1})
	if err := d.Version("version", 1); err != nil {
		t.Fatal(err)
	}
	for _, v := range []byte{0, 2, 0xff} {
		d := NewDecoder(std, []byte{v})
		wantViolation(t, d.Version("version", 1), RuleUnknownVersion, 0, "version")
	}
	d = NewDecoder(std, []byte{1, 2, 3})
	d.U8("a")
	wantViolation(t, d.End(RuleTrailing), RuleTrailing, 1, "end")
}

func TestAscendingAndNonzero(t *testing.T) {
	t.Parallel()
	const order, dup rules.ID = "TEST-ORDER", "TEST-DUP"
	d := NewDecoder(std, nil)
	if err := d.Ascending([]byte{1, 2}, []byte{1, 3}, 5, "k", order, dup); err != nil {
		t.Fatal(err)
	}
	// Unsigned-byte order: 0x80 sorts after 0x7f.
	if err := d.Ascending([]byte{0x7f}, []byte{0x80}, 5, "k", order, dup); err != nil {
		t.Fatal(err)
	}
	wantViolation(t, d.Ascending([]byte{0x80}, []byte{0x7f}, 5, "k", order, dup), order, 5, "k")
	wantViolation(t, d.Ascending([]byte{1, 2}, []byte{1, 2}, 7, "k", order, dup), dup, 7, "k")

	in := append(make([]byte, 31), 1)
	var key [32]byte
	d = NewDecoder(std, in)
	if err := d.FixedNonzero("key", key[:], "TEST-NZ"); err != nil || key[31] != 1 {
		t.Fatal(err)
	}
	d = NewDecoder(std, make([]byte, 40))
	d.U8("a")
	wantViolation(t, d.FixedNonzero("key", key[:], "TEST-NZ"), "TEST-NZ", 1, "key")
}

func TestPathNamesNestedFields(t *testing.T) {
	t.Parallel()
	d := NewDecoder(std, []byte{9})
	d.Enter("checkpoint", -1)
	d.Enter("snapshotReadCaps", 1)
	err := d.Version("version", 1)
	wantViolation(t, err, RuleUnknownVersion, 0, "checkpoint.snapshotReadCaps[1].version")
	d.Leave()
	d.Leave()
	if got := d.Path("x"); got != "x" {
		t.Fatalf("Path after Leave = %q", got)
	}
	for i := 0; i < maxScope+2; i++ {
		d.Enter("s", i)
	}
	if got := d.Path("x"); !strings.Contains(got, "…") || !strings.HasSuffix(got, "x") {
		t.Fatalf("deep path = %q", got)
	}
}

func TestSetTruncationRule(t *testing.T) {
	t.Parallel()
	d := NewDecoder(std, []byte{1})
	d.SetTruncationRule("TEST-TRUNC")
	_, err := d.U32("count")
	wantViolation(t, err, "TEST-TRUNC", 0, "count")
}

// With a rule switched off by fault injection, a Decoder carries on without
// panicking and without reading out of bounds.
func TestFaultCarriesOn(t *testing.T) {
	t.Parallel()
	c := rules.Checks{Faults: fault.Of(string(RuleTruncated), string(RuleCompactOverlong), string(RuleCompactSafe), string(RuleOptionalTag))}
	d := NewDecoder(c, unhex(t, "fd 0100 05 aa"))
	if v, err := d.CompactUint("n"); err != nil || v != 1 {
		t.Fatalf("overlong tolerated: %d %v", v, err)
	}
	if ok, err := d.Optional("o"); err != nil || !ok {
		t.Fatalf("tag 5 tolerated as present: %v %v", ok, err)
	}
	var key [32]byte
	key[0] = 0xee
	if err := d.Fixed("key", key[:]); err != nil || key[0] != 0xaa || !IsZero(key[1:]) {
		t.Fatalf("truncated fixed tolerated: %x %v", key, err)
	}
	if !d.Exhausted() {
		t.Fatal("decoder must be exhausted after a tolerated truncation")
	}
	if v, err := d.U64("x"); err != nil || v != 0 {
		t.Fatalf("read past end: %d %v", v, err)
	}
	d = NewDecoder(c, unhex(t, "ff ffffffffffffffff 01"))
	n, err := d.Count("items", 0, ^uint64(0), 1, "TEST-RANGE")
	if err != nil || n != 1 {
		t.Fatalf("huge count tolerated: %d %v (must be clamped to the bytes present)", n, err)
	}
	d = NewDecoder(c, unhex(t, "ff ffffffffffffffff 01"))
	b, err := d.BoundedBytes("s", 0, ^uint64(0), "TEST-RANGE")
	if err != nil || len(b) != 1 {
		t.Fatalf("huge length tolerated: %x %v", b, err)
	}
}

// Choosing the form is a construction rule: under its fault the encoder
// writes the (overlong) 0xff form, which the decoder then refuses.
func TestCompactFormsFault(t *testing.T) {
	t.Parallel()
	e := NewEncoder(faults(RuleCompactForms), 9)
	e.CompactUint(5)
	got := e.Bytes()
	if !bytes.Equal(got, unhex(t, "ff 0500000000000000")) {
		t.Fatalf("under fault: %x", got)
	}
	if std := AppendCompactUint(nil, 5); !bytes.Equal(std, []byte{5}) {
		t.Fatalf("AppendCompactUint is the standard form whatever the faults: %x", std)
	}
	d := NewDecoder(std, got)
	_, err := d.CompactUint("n")
	wantViolation(t, err, RuleCompactOverlong, 0, "n")
}
