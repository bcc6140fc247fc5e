package tracervec

import (
	"fmt"
	"math"
	"strings"

	"github.com/threespec/conformance/vectorset"
)

// Where libtracer-01 leaves bytes open, the suite chooses what
// docs/libtracer.md chose ("Worked examples, byte for byte"): the uint32
// payload is 42, every absolute stamp is T0, every relative stamp of an
// example is +1000 ns inside a user record that carries T0 (a relative
// stamp needs a stamped ancestor, LT-TS-04), the 102400-byte payload has
// byte i = i mod 251, and the size-table rows are a VALUE "ca fe".

// t0 is 2026-05-03T00:00:00Z in ns since the Unix epoch, the date of the
// spec's draft.
const t0 uint64 = 1777766400000000000

var u32Payload = []byte{0x2a, 0x00, 0x00, 0x00}

// anchor is the user record (type 0x80, PL=1, TS=1 absolute T0) that
// carries the anchor of the examples' relative stamps.
func anchor(kids ...*node) *node { return rec(typeUser, bitPL|bitTS, kids...).abs(t0) }

// ll1Payload is the worked example's 102400 bytes.
func ll1Payload() []byte {
	p := make([]byte, 102400)
	for i := range p {
		p[i] = byte(i % 251)
	}
	return p
}

// example is one worked frame example of libtracer-01 §Worked frame
// examples (and the ADC record of §Timestamp form).
type example struct {
	name    string
	rule    string
	frame   func() *node
	comment string
}

var examples = []example{
	{"ex01-status-ok-minimum-frame", "LT-EX-01", func() *node { return leaf(typeStatus, 0, []byte{}) },
		"worked example: empty STATUS=OK, 09 00 00 00, the 4-byte minimum frame"},
	{"ex02-value-true-no-trailer", "LT-EX-02", func() *node { return leaf(typeValue, 0, []byte{0x01}) },
		"worked example: VALUE true without trailer, 01 00 01 00 01"},
	{"ex03-uint32-relative-ts", "LT-EX-03", func() *node {
		return anchor(leaf(typeValue, bitTS|bitTF, u32Payload).rel(1000))
	}, "worked example: VALUE uint32 01 22 04 00 with an i32 relative trailer_ts (+1000 ns, inside a user record stamped T0), 12 bytes"},
	{"ex04-uint32-absolute-ts-crc32c", "LT-EX-04", func() *node {
		return leaf(typeValue, bitTS|bitCR, u32Payload).abs(t0)
	}, "worked example: VALUE uint32 01 30 04 00 with absolute trailer_ts T0 and CRC-32C over payload and stamp, 20 bytes"},
	{"ex05-value-5-bytes-crc32c", "LT-EX-05", func() *node {
		return leaf(typeValue, bitCR, []byte{0xAA, 0xBB, 0xCC, 0xDD, 0xEE})
	}, "worked example: 5-byte VALUE AA..EE with CRC-32C, 13 bytes"},
	{"ex06-path-sensor-temp-crc32c", "LT-EX-06", pathSensorTemp,
		"worked example: PATH /sensor/temp, two NAME children, outer CRC-32C over the 18 child bytes, 26 bytes"},
	{"ex07-ll1-100kib-crc32c", "LT-EX-07", func() *node {
		return leaf(typeValue, bitCR|bitLL, ll1Payload())
	}, "worked example: VALUE with a 102400-byte payload (byte i = i mod 251), LL=1 length 00 90 01 00, CRC-32C, 102410 bytes"},
	{"ts05-adc-samples-relative-ts", "LT-TS-05", func() *node {
		return anchor(
			leaf(typeValue, bitTS|bitTF, []byte{0x64, 0, 0, 0}).rel(0),
			leaf(typeValue, bitTS|bitTF, []byte{0x65, 0, 0, 0}).rel(1),
			leaf(typeValue, bitTS|bitTF, []byte{0x66, 0, 0, 0}).rel(2))
	}, "ADC use case: user record stamped T0 with three 12-byte VALUE samples stamped +0, +1, +2 ns, resolving to T0, T0+1, T0+2"},
}

func pathSensorTemp() *node {
	return rec(typePath, bitPL|bitCR, leaf(typeName, 0, []byte("sensor")), leaf(typeName, 0, []byte("temp")))
}

// exampleRules are the layout rules each worked example shows besides its
// own.
func exampleRules(f *node) []string {
	var r []string
	add := func(id string) {
		for _, x := range r {
			if x == id {
				return
			}
		}
		r = append(r, id)
	}
	var visit func(n *node)
	visit = func(n *node) {
		if n.opt&bitLL != 0 {
			add("LT-FRAME-04")
		} else {
			add("LT-FRAME-03")
		}
		if n.opt&bitPL != 0 {
			add("LT-OPT-04")
		}
		switch tsSize(n.opt) {
		case 8:
			add("LT-FRAME-06")
		case 4:
			add("LT-FRAME-07")
			add("LT-TS-02")
		}
		switch crcSize(n.opt) {
		case 4:
			add("LT-FRAME-08")
			add("LT-CRC-11")
		case 2:
			add("LT-FRAME-09")
			add("LT-CRC-11")
		}
		for _, k := range n.kids {
			visit(k)
		}
	}
	add("LT-FRAME-01")
	add("LT-FRAME-02")
	visit(f)
	add("LT-FRAME-05")
	add("LT-FRAME-10")
	if len(f.write(nil)) == 4 {
		add("LT-FRAME-13")
	}
	return r
}

func workedExamples(s *set) {
	for _, ex := range examples {
		f := ex.frame()
		b := wire(f)
		r := append([]string{ex.rule}, exampleRules(f)...)
		s.accept(ex.name, input{b: b, commit: true}, dgram, flatten(f), meta{rules: r, tags: tags("known-answer"), comment: ex.comment})
		sr := []string{ex.rule, "LT-TRUNC-01"}
		if f.opt&bitCR != 0 {
			sr = append(sr, "LT-CRC-14")
		}
		s.accept(ex.name+"-stream", in(b), stream, flatten(f), meta{rules: sr, tags: tags("known-answer"),
			comment: "on a stream transport: " + ex.comment})
	}
}

// sizeRow is one row of libtracer-01 §Frame size summary.
type sizeRow struct {
	name, rule string
	opt        uint8
	h, ts, crc int // the table's H, T_ts, T_crc
	total      int // the table's total overhead
}

var sizeRows = []sizeRow{
	{"size01-minimum-overhead-4", "LT-SIZE-01", 0x00, 4, 0, 0, 4},
	{"size02-crc16-only-overhead-6", "LT-SIZE-02", bitCR | bitCW, 4, 0, 2, 6},
	{"size03-crc32-only-overhead-8", "LT-SIZE-03", bitCR, 4, 0, 4, 8},
	{"size04-ts-rel-only-overhead-8", "LT-SIZE-04", bitTS | bitTF, 4, 4, 0, 8},
	{"size05-ts-rel-crc16-overhead-10", "LT-SIZE-05", bitTS | bitTF | bitCR | bitCW, 4, 4, 2, 10},
	{"size06-ts-rel-crc32-overhead-12", "LT-SIZE-06", bitTS | bitTF | bitCR, 4, 4, 4, 12},
	{"size07-ts-abs-only-overhead-12", "LT-SIZE-07", bitTS, 4, 8, 0, 12},
	{"size08-ts-abs-crc16-overhead-14", "LT-SIZE-08", bitTS | bitCR | bitCW, 4, 8, 2, 14},
	{"size09-ts-abs-crc32-overhead-16", "LT-SIZE-09", bitTS | bitCR, 4, 8, 4, 16},
	{"size10-ll1-ts-abs-crc32-overhead-18", "LT-SIZE-10", bitLL | bitTS | bitCR, 6, 8, 4, 18},
}

// sizeFrame is the row's VALUE "ca fe", and the frames written: the
// relative rows inside the anchoring record.
func (r sizeRow) frame() (value, top *node) {
	value = leaf(typeValue, r.opt, []byte{0xca, 0xfe})
	switch {
	case r.opt&bitTS != 0 && r.opt&bitTF != 0:
		value.rel(1000)
		return value, anchor(value)
	case r.opt&bitTS != 0:
		value.abs(t0)
	}
	return value, value
}

func sizeTable(s *set) {
	for _, r := range sizeRows {
		_, top := r.frame()
		s.accept(r.name, in(wire(top)), dgram, flatten(top), meta{
			rules:   append([]string{r.rule, "LT-LIFE-02"}, exampleRules(top)...),
			tags:    tags("known-answer"),
			comment: fmt.Sprintf("frame-size row: VALUE ca fe with opt 0x%02x, H=%d T_ts=%d T_crc=%d, %d bytes of overhead", r.opt, r.h, r.ts, r.crc, r.total),
		})
	}
}

// comboName spells the five variant bits.
func comboName(opt uint8) string {
	bit := func(b uint8) int {
		if opt&b != 0 {
			return 1
		}
		return 0
	}
	return fmt.Sprintf("ll%d-cw%d-tf%d-ts%d-cr%d", bit(bitLL), bit(bitCW), bit(bitTF), bit(bitTS), bit(bitCR))
}

// comboOpts lists the 32 combinations of LL, CW, TF, TS, CR.
func comboOpts() []uint8 {
	var out []uint8
	for i := 0; i < 32; i++ {
		var o uint8
		for j, b := range []uint8{bitLL, bitCW, bitTF, bitTS, bitCR} {
			if i&(1<<j) != 0 {
				o |= b
			}
		}
		out = append(out, o)
	}
	return out
}

func comboRules(opt uint8) []string {
	r := []string{"LT-IOP-01"}
	if opt&bitLL != 0 {
		r = append(r, "LT-OPT-07", "LT-FRAME-04")
	}
	if opt&bitCR != 0 {
		r = append(r, "LT-OPT-06", "LT-OPT-08")
	} else if opt&bitCW != 0 {
		r = append(r, "LT-OPT-09")
	}
	if opt&bitTS != 0 {
		r = append(r, "LT-OPT-05", "LT-OPT-10")
	} else if opt&bitTF != 0 {
		r = append(r, "LT-OPT-11")
	}
	return append(r, "LT-FRAME-12")
}

// comboTags: none. A CW bit without CR, or a TF bit without TS, was a
// decision (the retired LT-READ-09); the spec decides it (LT-OPT-09,
// LT-OPT-11: "MUST accept all combinations of LL, CW, TF").
func comboTags(uint8) []string { return nil }

// optionCombos: every combination of LL, CW, TF, TS and CR for a VALUE and
// for a structured PATH (LT-IOP-01: receivers accept every variant).
// A relative stamp needs an anchor, so TS=1 TF=1 frames sit inside the
// anchoring record; a stamped PATH also gets a child stamped +7 ns relative
// to it.
func optionCombos(s *set) {
	for _, o := range comboOpts() {
		v := leaf(typeValue, o, []byte{0xc0, 0xff, 0xee})
		top := stamped(v, t0+1)
		s.accept("combo-value-"+comboName(o), in(wire(top)), dgram, flatten(top), meta{
			rules: comboRules(o), tags: comboTags(o),
			comment: fmt.Sprintf("VALUE c0 ff ee with opt 0x%02x (%s)%s", o, comboName(o), anchorNote(top != v)),
		})

		kids := []*node{leaf(typeName, 0, []byte("a")), leaf(typeName, 0, []byte("bc"))}
		if o&bitTS != 0 {
			kids = append(kids, leaf(typeValue, bitTS|bitTF, []byte{0x07}).rel(7))
		}
		p := rec(typePath, bitPL|o, kids...)
		top = stamped(p, t0+2)
		s.accept("combo-path-"+comboName(o), in(wire(top)), dgram, flatten(top), meta{
			rules: comboRules(o), tags: comboTags(o),
			comment: fmt.Sprintf("structured PATH with opt 0x%02x (PL + %s) around NAME a, NAME bc%s%s", bitPL|o, comboName(o),
				map[bool]string{true: " and a VALUE stamped +7 ns relative to it", false: ""}[o&bitTS != 0], anchorNote(top != p)),
		})
	}
	// Variants mixed freely per TLV inside one frame (LT-IOP-01).
	mixed := anchor(
		leaf(typeValue, bitLL|bitCR|bitCW, []byte{1}),
		leaf(typeValue, bitTS|bitCR, []byte{2}).abs(t0+5),
		leaf(typeValue, bitTS|bitTF|bitCR|bitCW, []byte{3}).rel(-5),
		rec(typeUser, bitPL|bitLL|bitTS|bitTF|bitCR, leaf(typeValue, bitTS|bitTF, []byte{4}).rel(1)).rel(100),
		leaf(typeName, bitLL, []byte("x")),
	)
	s.accept("mixed-variants-in-one-frame", in(wire(mixed)), dgram, flatten(mixed), meta{
		rules: rulesOf("LT-IOP-01", "LT-FRAME-12"), comment: "one stamped user record whose children each use other LL, CW, TF variants, mixed freely",
	})
	// Fields at odd offsets (LT-FRAME-12).
	odd := []*node{leaf(typeValue, 0, []byte{1}), leaf(typeValue, bitLL|bitTS|bitCR, []byte{2, 3, 4}).abs(t0 + 3), leaf(typeValue, bitCR|bitCW, []byte{5})}
	s.accept("unaligned-fields-at-odd-offsets", in(wire(odd...)), dgram, flatten(odd...), meta{
		rules: rulesOf("LT-FRAME-12", "LT-FRAME-11"), comment: "length, trailer_ts and trailer_crc at odd offsets: frames of 5, 25 and 7 bytes back to back",
	})
	// The CRCs' check values (docs/DECISIONS.md) as trailers: a VALUE whose payload
	// is "123456789" carries 0xE3069283 (CRC-32C) or 0x29B1 (CRC-16-CCITT).
	check32 := leaf(typeValue, bitCR, []byte("123456789"))
	s.accept("crc32c-check-value-123456789", in(wire(check32)), dgram, flatten(check32), meta{
		rules: rulesOf("LT-CRC-04", "LT-CRC-01", "LT-CRC-02", "LT-CRC-03", "LT-FRAME-08", "LT-FRAME-11"), tags: tags("known-answer"),
		comment: "VALUE \"123456789\" with CRC-32C: the trailer is the check value 0xE3069283, little-endian 83 92 06 e3",
	})
	check16 := leaf(typeValue, bitCR|bitCW, []byte("123456789"))
	s.accept("crc16-check-value-123456789", in(wire(check16)), dgram, flatten(check16), meta{
		rules: rulesOf("LT-CRC-08", "LT-CRC-05", "LT-CRC-06", "LT-CRC-07", "LT-FRAME-09", "LT-FRAME-11"), tags: tags("known-answer"),
		comment: "VALUE \"123456789\" with CRC-16-CCITT: the trailer is the check value 0x29B1, little-endian b1 29",
	})
	// The header is not covered by the CRC (LT-CRC-12): EX-05's payload and
	// CRC under another type and length width.
	ex5 := []*node{leaf(0x03, bitCR, []byte{0xAA, 0xBB, 0xCC, 0xDD, 0xEE}), leaf(typeValue, bitCR|bitLL, []byte{0xAA, 0xBB, 0xCC, 0xDD, 0xEE})}
	s.accept("crc-header-not-covered", in(wire(ex5...)), dgram, flatten(ex5...), meta{
		rules: rulesOf("LT-CRC-12", "LT-CRC-11"), comment: "EX-05's payload and CRC-32C b6 c9 12 23 under type 0x03 and under LL=1: the header is not covered",
	})
}

// stamped gives n the stamp its opt asks for and returns the frame to
// write: n with the absolute stamp t, or, for a relative stamp (-250 ns),
// the anchoring record around n.
func stamped(n *node, t uint64) *node {
	switch {
	case n.opt&bitTS != 0 && n.opt&bitTF != 0:
		return anchor(n.rel(-250))
	case n.opt&bitTS != 0:
		n.abs(t)
	}
	return n
}

func anchorNote(wrapped bool) string {
	if wrapped {
		return ", inside the anchoring record stamped T0"
	}
	return ""
}

// timestamps: relative stamps resolved against the nearest stamped
// ancestor at several levels, wrap-around, the i32 range (LT-TS-01..03).
func timestamps(s *set) {
	v := func(p byte) *node { return leaf(typeValue, bitTS|bitTF, []byte{p}) }
	cases := []struct {
		name    string
		frames  []*node
		rules   []string
		comment string
	}{
		{"ts-rel-skips-unstamped-parent", []*node{anchor(rec(typePath, bitPL, v(1).rel(5)))}, rulesOf("LT-TS-03"),
			"VALUE +5 ns inside an unstamped PATH inside a record stamped T0 resolves to T0+5: the next outermost stamped ancestor"},
		{"ts-rel-parent-anchors-children", []*node{anchor(rec(typeUser, bitPL|bitTS|bitTF, rec(typeUser, bitPL, v(1).rel(-3))).rel(1000))}, rulesOf("LT-TS-03", "LT-TS-02"),
			"a relative parent (+1000) anchors its grandchild (-3) through an unstamped record: T0+997"},
		{"ts-rel-chain-four-levels", []*node{anchor(rec(typeUser, bitPL|bitTS|bitTF, rec(typeUser, bitPL|bitTS|bitTF, rec(typeUser, bitPL|bitTS|bitTF, v(1).rel(1)).rel(1)).rel(1)).rel(1))},
			rulesOf("LT-TS-03", "LT-TS-02"), "four nested relative stamps of +1 ns resolve to T0+1, T0+2, T0+3, T0+4"},
		{"ts-abs-nested-anchors-children", []*node{anchor(rec(typeUser, bitPL|bitTS, v(1).rel(1)).abs(5_000_000_000))}, rulesOf("LT-TS-03", "LT-TS-01"),
			"an absolute stamp nested in a stamped record anchors its own children: 5000000001, not T0+1"},
		{"ts-rel-wraps-above-2-64", []*node{rec(typeUser, bitPL|bitTS, v(1).rel(20)).abs(math.MaxUint64 - 9)}, rulesOf("LT-TS-07", "LT-TS-01", "LT-TS-02"),
			"anchor 2^64-10 plus 20 ns resolves to 10: wire-times are modulo 2^64, never clamped (a project decision, LT-TS-07: the spec says only: wraparound in 2554, acceptable)"},
		{"ts-rel-wraps-below-zero", []*node{rec(typeUser, bitPL|bitTS, v(1).rel(-10)).abs(5)}, rulesOf("LT-TS-07", "LT-TS-01", "LT-TS-02"),
			"anchor 5 minus 10 ns resolves to 2^64-5: wire-times are modulo 2^64, never clamped (a project decision, LT-TS-07: the spec says only: wraparound in 2554, acceptable)"},
		{"ts-rel-i32-extremes", []*node{anchor(v(1).rel(math.MaxInt32), v(2).rel(math.MinInt32))}, rulesOf("LT-TS-02"),
			"relative stamps 2147483647 and -2147483648 ns, the ends of the i32 range"},
		{"ts-abs-zero-and-max", []*node{leaf(typeValue, bitTS, []byte{1}).abs(0), leaf(typeValue, bitTS, []byte{2}).abs(math.MaxUint64)}, rulesOf("LT-TS-01", "LT-TS-08"),
			"absolute stamps 0 and 2^64-1, the ends of the u64 range"},
		{"ts-abs-around-2-63", []*node{leaf(typeValue, bitTS, []byte{1}).abs(math.MaxInt64), leaf(typeValue, bitTS|bitCR, []byte{2}).abs(1 << 63), leaf(typeValue, bitTS|bitCR|bitCW, []byte{3}).abs(1<<63 + 1)}, rulesOf("LT-TS-08"),
			"absolute stamps 2^63-1, 2^63 (under CRC-32C) and 2^63+1 (under CRC-16): no value is constrained, a signed int64 reading is wrong"},
		// The u64 boundaries where a JSON number (an IEEE double) stops
		// being exact: 2^53-1, 2^53, 2^53+1, and 2^64-1 beside them
		// (issue 26, item 7): every field carries its exact value.
		{"ts-abs-around-2-53", []*node{leaf(typeValue, bitTS, []byte{1}).abs(1<<53 - 1), leaf(typeValue, bitTS|bitCR, []byte{2}).abs(1 << 53),
			leaf(typeValue, bitTS|bitCR|bitCW, []byte{3}).abs(1<<53 + 1), leaf(typeValue, bitTS|bitLL, []byte{4}).abs(math.MaxUint64)}, rulesOf("LT-TS-08", "LT-FRAME-06"),
			"absolute stamps 2^53-1, 2^53 (under CRC-32C), 2^53+1 (under CRC-16) and 2^64-1 (LL=1): each is reported exactly, which a reader taking the u64 through a double does not"},
		{"ts-rel-resolves-across-2-53", []*node{rec(typeUser, bitPL|bitTS, v(1).rel(-1), v(2).rel(0), v(3).rel(1), v(4).rel(2)).abs(1<<53 - 1)}, rulesOf("LT-TS-02", "LT-TS-03"),
			"anchor 2^53-1 with children -1, +0, +1 and +2 ns resolve to 2^53-2, 2^53-1, 2^53 and 2^53+1, exactly"},
		{"ts-rel-sibling-anchors-nothing-parent-does", []*node{anchor(leaf(typeValue, bitTS, []byte{1}).abs(7), v(2).rel(1))}, rulesOf("LT-TS-03"),
			"a stamped sibling is no anchor: the second VALUE resolves against the parent, T0+1"},
	}
	for _, c := range cases {
		var tg []string
		if c.rules[0] == "LT-TS-07" { // the project's reading of the wraparound note
			tg = tags("decision")
		}
		s.accept(c.name, in(wire(c.frames...)), dgram, flatten(c.frames...), meta{rules: c.rules, tags: tg, comment: c.comment})
	}
}

// unknownTypes: unassigned codes nested under PL=1 are opaque bytes
// (LT-UNK-06), checked for CRC and stamp like any frame, and their
// siblings are parsed.
func unknownTypes(s *set) {
	garbage := []byte{0x01, 0x80, 0x00, 0x00, 0xff} // a child header with bit 7, if it were walked
	cases := []struct {
		name    string
		frames  []*node
		rules   []string
		comment string
	}{
		{"unknown-nested-kept-opaque", []*node{rec(typeUser, bitPL, leaf(typeValue, 0, []byte{1}), leaf(0x05, 0, []byte{5, 5}), leaf(0x0E, 0, []byte{0x0e}), leaf(0x7F, 0, []byte{}), leaf(typeValue, 0, []byte{2}))},
			rulesOf("LT-UNK-06", "LT-TYPE-05", "LT-TYPE-03", "LT-UNK-02", "LT-UNK-04"),
			"user record holding VALUE, 0x05, 0x0E, 0x7F, VALUE: the unknown ones are opaque payloads, the siblings parsed"},
		{"unknown-nested-pl1-never-walked", []*node{rec(typeUser, bitPL, leaf(0x0E, bitPL, garbage), leaf(0x05, bitPL, garbage), leaf(0x7F, bitPL|bitLL, []byte{0x00}), leaf(typeValue, 0, []byte{3}))},
			rulesOf("LT-UNK-06", "LT-TYPE-05", "LT-UNK-01"),
			"nested 0x0E, 0x05 and 0x7F with PL=1 around bytes that are no valid TLVs: opaque, never walked; the VALUE after them is parsed"},
		{"unknown-nested-crc-and-ts-checked", []*node{anchor(leaf(0x7F, bitCR, []byte{0x7f, 0x7f}), leaf(0x20, bitTS|bitTF|bitCR|bitCW, []byte{0x20}).rel(9), leaf(0x05, bitLL|bitTS|bitCR, []byte{}).abs(3), leaf(typeValue, 0, []byte{4}))},
			rulesOf("LT-UNK-03", "LT-UNK-04", "LT-TYPE-07"),
			"nested 0x7F with CRC-32C, 0x20 with a relative stamp and CRC-16, 0x05 with LL=1, absolute stamp and CRC-32C: skipped by length and trailer"},
		{"type-boundaries-walked-or-opaque", []*node{rec(typeUser, bitPL,
			rec(0x04, bitPL, leaf(typeName, 0, []byte("4"))), rec(0x05, bitPL, leaf(typeName, 0, []byte("5"))), rec(0x06, bitPL),
			rec(0x0D, bitPL, leaf(typeName, 0, []byte("d"))), rec(0x0E, bitPL, leaf(typeName, 0, []byte("e"))),
			rec(0x1F, bitPL, leaf(typeName, 0, []byte("1f"))), rec(0x20, bitPL, leaf(typeName, 0, []byte("20"))),
			rec(0x7F, bitPL, leaf(typeName, 0, []byte("7f"))), rec(0x80, bitPL, leaf(typeName, 0, []byte("80"))), rec(0xFF, bitPL, leaf(typeName, 0, []byte("ff"))))},
			rulesOf("LT-TYPE-02", "LT-TYPE-03", "LT-TYPE-04", "LT-TYPE-05", "LT-UNK-06"),
			"PL=1 children of types 0x04 0x05 0x06 0x0D 0x0E 0x1F 0x20 0x7F 0x80 0xFF: core and user ones walked, 0x05 and 0x0E..0x7F opaque"},
		{"core-types-walked-nested", []*node{coreRecords()}, rulesOf("LT-TYPE-02"),
			"a user record holding a PL=1 frame of every assigned core type 0x01..0x0D except 0x05, each walked into its NAME"},
		{"core-and-user-types-top-level", topLevelTypes(), rulesOf("LT-TYPE-02", "LT-TYPE-04", "LT-OPT-12"),
			"top-level frames of types 0x01..0x0D except 0x05, 0x80 and 0xFF back to back: all known, none type_mismatch"},
		{"user-type-top-level-walked", []*node{rec(0xFF, bitPL, leaf(typeValue, 0, []byte{1}), rec(0xC0, bitPL, leaf(typeName, 0, []byte("u"))))}, rulesOf("LT-TYPE-04"),
			"user types 0xFF and 0xC0 with PL=1 are walked like core types"},
	}
	for _, c := range cases {
		s.accept(c.name, in(wire(c.frames...)), dgram, flatten(c.frames...), meta{rules: c.rules, comment: c.comment})
	}
}

func coreRecords() *node {
	var kids []*node
	for t := uint8(0x01); t <= 0x0D; t++ {
		if t != 0x05 {
			kids = append(kids, rec(t, bitPL, leaf(typeName, 0, []byte{'a' + t})))
		}
	}
	return rec(typeUser, bitPL, kids...)
}

func topLevelTypes() []*node {
	var out []*node
	for t := uint8(0x01); t <= 0x0D; t++ {
		if t != 0x05 {
			out = append(out, leaf(t, 0, []byte{t}))
		}
	}
	return append(out, leaf(0x80, 0, []byte{0x80}), leaf(0xFF, 0, []byte{0xFF}))
}

// nest is depth nested user records (PL=1, LL=1, the recipe part's opt
// 0x48) around inner: docs/VECTORS.md "libtracer_nest".
func nest(depth int, inner *node) *node {
	n := inner
	for i := 0; i < depth; i++ {
		n = rec(typeUser, bitPL|bitLL, n)
	}
	return n
}

// coreNest is depth nested structured frames of core types (PATH, then
// 0x03, 0x04, 0x07, 0x08, 0x0D, ... in turn) around STATUS: protocol-type
// nesting, which LT-NEST-04 guarantees up to 5 deep at any budget.
func coreNest(depth int) *node {
	types := []uint8{typePath, 0x03, 0x04, 0x07, 0x08, 0x0D}
	n := statusOK()
	for i := depth - 1; i >= 0; i-- {
		n = rec(types[i%len(types)], bitPL, n)
	}
	return n
}

// nestRecipe is the same nest as a recipe around the leaf's bytes.
func nestRecipe(depth int, leafBytes []byte) *vectorset.Recipe {
	return &vectorset.Recipe{Parts: []vectorset.Part{{LibtracerNest: &vectorset.TracerNest{Depth: int64(depth), Type: typeUser, LeafHex: fmt.Sprintf("%x", leafBytes)}}}}
}

var statusOK = func() *node { return leaf(typeStatus, 0, []byte{}) }

// nesting: empty structured frames (decision LT-NEST-06) and work-stack
// budgets (LT-NEST-02..04).
func nesting(s *set) {
	empty := []struct {
		name    string
		frames  []*node
		comment string
	}{
		{"empty-pl1-path-root", []*node{rec(typePath, bitPL)}, "PATH 06 40 00 00 with an empty payload: zero children, the path of the root"},
		{"empty-pl1-nested", []*node{rec(typeUser, bitPL, rec(typePath, bitPL), leaf(typeName, 0, []byte("x")), rec(typeUser, bitPL|bitLL))}, "empty PL=1 frames nested beside a NAME, one with LL=1"},
		{"empty-pl1-crc32c", []*node{rec(typePath, bitPL|bitCR)}, "empty PATH with CRC-32C of no bytes, 00 00 00 00"},
		{"empty-pl1-crc16", []*node{rec(typePath, bitPL|bitCR|bitCW)}, "empty PATH with CRC-16-CCITT of no bytes, ff ff"},
		{"empty-pl1-stamped", []*node{rec(typePath, bitPL|bitTS).abs(t0)}, "empty PATH with an absolute stamp: a structured frame with no children still carries a trailer"},
	}
	for _, c := range empty {
		s.accept(c.name, in(wire(c.frames...)), dgram, flatten(c.frames...), meta{rules: rulesOf("LT-NEST-06"), tags: tags("decision"), comment: c.comment})
	}
	for _, c := range []struct {
		depth, budget int64
		rule, name    string
		comment       string
	}{
		{5, 5, "LT-NEST-02", "nest-depth-5-budget-5", "5 nested user records around STATUS at a budget of 5 open levels: exactly at the budget"},
		{5, 1, "LT-NEST-04", "nest-core-depth-5-budget-1-raised-to-5", "5 nested core-type structured frames (a protocol shape) around STATUS at a requested budget of 1: for protocol frames the budget is never below 5"},
		{8, 8, "LT-NEST-02", "nest-depth-8-budget-8", "8 nested user records at a budget of 8 open levels: exactly at the budget"},
	} {
		f := nest(int(c.depth), statusOK())
		if c.rule == "LT-NEST-04" {
			f = coreNest(int(c.depth))
		}
		s.accept(c.name, in(wire(f)), dgram.budgetOf(c.budget), flatten(f), meta{rules: rulesOf(c.rule, "LT-NEST-01"), tags: tags("boundary"), comment: c.comment})
	}
	f := nest(5, leaf(0x0E, bitPL, []byte{0x0e, 0x40, 0x00, 0x00}))
	s.accept("nest-unknown-pl1-not-counted", in(wire(f)), dgram.budgetOf(5), flatten(f), meta{rules: rulesOf("LT-UNK-06", "LT-NEST-02"), tags: tags("boundary"),
		comment: "5 nested user records around a PL=1 0x0E at a budget of 5: the unknown frame is opaque and opens no level"})
	f = nest(2000, statusOK())
	s.accept("nest-depth-2000-budget-2000", input{b: wire(f), recipe: nestRecipe(2000, wire(statusOK()))}, dgram.budgetOf(2000), flatten(f), meta{
		rules: rulesOf("LT-NEST-02", "LT-NEST-01"), tags: tags("boundary"),
		comment: "2000 nested user records (opt 0x48) around STATUS at a budget of 2000: 2001 frames, deeper than JSON readers nest, listed flat"})
}

// streamsAndReports: back-to-back frames on both transports (LT-CTX-04),
// and report "frames", where a receiver lists a rejected top-level frame
// and goes on (LT-UNK-02).
func streamsAndReports(s *set) {
	var all []*node
	for _, ex := range examples {
		if !strings.HasPrefix(ex.name, "ex07") {
			all = append(all, ex.frame())
		}
	}
	s.accept("worked-examples-back-to-back", in(wire(all...)), dgram, flatten(all...), meta{rules: rulesOf("LT-CTX-04", "LT-CTX-01"),
		comment: "the worked examples but the 100 KiB one, back to back in one datagram"})
	s.accept("worked-examples-back-to-back-stream", in(wire(all...)), stream, flatten(all...), meta{rules: rulesOf("LT-CTX-04", "LT-TRUNC-01"),
		comment: "the worked examples but the 100 KiB one, back to back on a stream"})
	s.accept("stream-empty-clean-end", in([]byte{}), stream, []flat{}, meta{rules: rulesOf("LT-TRUNC-09"), tags: tags("decision"),
		comment: "a stream that closes before any byte ends cleanly with no frame (a project decision, LT-TRUNC-09; an empty datagram is truncated, LT-TRUNC-08, a stream is not)"})

	ex1, ex2 := wire(statusOK()), wire(leaf(typeValue, 0, []byte{0x01}))
	badCRC := xorAt(wire(examples[4].frame()), 12, 0x01) // EX-05, last CRC byte
	// A child with reserved bit 7 set: INVALID in every check order (a child
	// that overruns its parent could be reported as truncated as well).
	bad := wire(rec(typePath, bitPL, leaf(typeName, bitR7, []byte("sensor"))))
	tooDeep := wire(nest(6, statusOK()))
	reports := []struct {
		name    string
		b       []byte
		a       decodeArgs
		rules   []string
		comment string
	}{
		{"report-continues-after-unknown-outer", cat([]byte{0x0e, 0x00, 0x01, 0x00, 0xaa}, ex2), dgram.frames(), rulesOf("LT-UNK-02", "LT-UNK-05", "LT-CTX-04"),
			"report frames: an outer 0x0E is listed with type_mismatch, then the VALUE after it is parsed"},
		{"report-continues-after-crc-fail", cat(badCRC, ex1), dgram.frames(), rulesOf("LT-CTX-04", "LT-CRC-09"),
			"report frames: EX-05 with a bad CRC is listed with crc_fail, then STATUS is parsed"},
		{"report-continues-after-nested-reserved-bit", cat(bad, ex2), dgram.frames(), rulesOf("LT-CTX-04", "LT-OPT-01"),
			"report frames: a PATH whose child sets reserved bit 7 is listed with INVALID, then the VALUE after it is parsed"},
		{"report-continues-after-path-invalid", cat(wire(leaf(typeValue, bitTS|bitTF, u32Payload).rel(1000)), ex1), dgram.frames(), rulesOf("LT-CTX-04", "LT-TS-04"),
			"report frames: a top-level relative stamp is listed with path::invalid, then STATUS is parsed"},
		{"report-continues-after-nesting-too-deep", cat(tooDeep, ex1), dgram.budgetOf(5).frames(), rulesOf("LT-CTX-04", "LT-NEST-03"),
			"report frames at budget 5: a 6-deep nest is listed with nesting_too_deep, then STATUS is parsed"},
		{"report-stream-continues-after-unknown-05", cat(wire(leaf(0x05, bitCR, []byte{5})), wire(pathSensorTemp())), stream.frames(), rulesOf("LT-UNK-02", "LT-TYPE-05", "LT-UNK-03"),
			"report frames on a stream: an outer 0x05 with a good CRC-32C is listed with type_mismatch, then EX-06 is parsed"},
	}
	for _, r := range reports {
		s.acceptModel(r.name, in(r.b), r.a, meta{rules: r.rules, tags: tags("decision"), comment: r.comment})
	}
}

// limits: MAX_TLV_BYTES (LT-TRUNC-06, a receiver option) and the length
// widths (LT-LEN-01, LT-LEN-02), accepted sides.
func limits(s *set) {
	v16 := leaf(typeValue, 0, make16(16))
	s.accept("max-tlv-length-equal-16", in(wire(v16)), dgram.maxOf(16), flatten(v16), meta{rules: rulesOf("LT-TRUNC-06"), tags: tags("boundary"),
		comment: "max_tlv_bytes 16: a 16-byte payload is at the limit and accepted"})
	v16l := leaf(typeValue, bitLL|bitCR, make16(16))
	s.accept("max-tlv-ll1-length-equal-16", in(wire(v16l)), dgram.maxOf(16), flatten(v16l), meta{rules: rulesOf("LT-TRUNC-06"), tags: tags("boundary"),
		comment: "max_tlv_bytes 16: an LL=1 frame of 16 payload bytes and a CRC is at the limit (trailers do not count)"})
	// The recommended default MAX_TLV_BYTES (LT-TRUNC-07, a SHOULD): 16 MiB
	// is 2^24 bytes, and a length equal to it is within the limit.
	mib := leaf(typeValue, bitLL, make([]byte, 16<<20))
	s.accept(unmutatedDefaultLimit, in(wire(mib)), dgram, flatten(mib), meta{rules: rulesOf("LT-TRUNC-07"), tags: tags("boundary"), unmutated: true,
		comment: "no max_tlv_bytes given: a complete LL=1 VALUE of exactly 16777216 zero bytes is within the recommended default of 16 MiB (2^24 bytes, not 16,000,000; only a length above it is rejected)"})
	big := leaf(typeValue, 0, ll1Payload()[:65535])
	s.accept("ll0-length-65535", in(wire(big)), dgram, flatten(big), meta{rules: rulesOf("LT-LEN-01", "LT-FRAME-03"), tags: tags("boundary"),
		comment: "LL=0 with the largest u16 length, 65535 payload bytes"})
	big1 := leaf(typeValue, bitLL, ll1Payload()[:65536])
	s.accept("ll1-length-65536", in(wire(big1)), dgram, flatten(big1), meta{rules: rulesOf("LT-LEN-02", "LT-FRAME-04"), tags: tags("boundary"),
		comment: "LL=1 with a 65536-byte payload, one more than a u16 length holds"})
}

// unmutatedDefaultLimit is the one positive without a mutation family: its
// verdict rests on the receiver's default MAX_TLV_BYTES, a SHOULD
// (LT-TRUNC-07), so a mutation's code would rest on it too, at MUST.
const unmutatedDefaultLimit = "max-tlv-default-16mib-exactly-accepted"

func make16(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(0x10 + i)
	}
	return b
}
