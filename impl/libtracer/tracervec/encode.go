package tracervec

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/threespec/conformance/impl/libtracer/tracerspec"
	"github.com/threespec/conformance/vectorset"
)

// libtracer.encode vectors: the input is the flat frame list (as
// libtracer.decode returns it), the result the bytes. Mode "exact" writes
// every option bit as given; mode "smallest" picks the smallest variants
// (LT-IOP-02, a SHOULD: those vectors name only that rule, so the engine
// gives them the SHOULD level).

type encodeArgs struct {
	Mode string `json:"mode"`
}

var (
	exact    = encodeArgs{Mode: tracerspec.ModeExact}
	smallest = encodeArgs{Mode: tracerspec.ModeSmallest}
)

// encodeInput is the JSON input of libtracer.encode for a frame list.
func encodeInput(list []flat) []byte {
	b, err := json.Marshal(jsonFrames(list, false))
	if err != nil {
		panic(err) // maps of numbers and strings always marshal
	}
	return b
}

// encodeAccept adds an encode vector whose expected bytes the generator
// wrote.
func (s *set) encodeAccept(name string, list []flat, a encodeArgs, want []byte, m meta) {
	s.add(name, ".json", tracerspec.OpEncode, a, in(encodeInput(list)), vectorset.Accept, "", map[string]any{"bytes": vectorset.BytesMatcher(want)}, m)
}

// encodeReject adds an encode vector the encoder refuses. The spec names
// no code for a sender's refusal: any code will do (PROTOCOL.md).
func (s *set) encodeReject(name string, list []flat, a encodeArgs, m meta) {
	m.comment += ": refused, " + m.rules[0]
	s.add(name, ".json", tracerspec.OpEncode, a, in(encodeInput(list)), vectorset.Reject, "", nil, m)
}

// smallestOf rewrites frames in the smallest variants a sender should
// choose (§Interop, LT-IOP-02): LL=0 unless the payload exceeds 65535
// bytes; CW=1 when CR=1; TF=1 when a stamped ancestor exists and the wanted
// wire-time minus the nearest one's fits an i32, else TF=0; CW and TF
// cleared when CR and TS are. The wire-times stay what they were.
func smallestOf(frames []*node) []*node {
	out := make([]*node, len(frames))
	for i, f := range frames {
		out[i] = f.smallest(0, false)
	}
	return out
}

func (n *node) smallest(anchor uint64, hasAnchor bool) *node {
	c := &node{typ: n.typ, payload: n.payload}
	o := n.opt & (bitPL | bitTS | bitCR)
	if o&bitCR != 0 {
		o |= bitCW
	}
	if o&bitTS != 0 {
		want := n.ts
		if n.opt&bitTF != 0 {
			want = anchor + uint64(int64(int32(uint32(n.ts))))
		}
		if d := int64(want - anchor); hasAnchor && d >= math.MinInt32 && d <= math.MaxInt32 {
			o |= bitTF
			c.ts = uint64(uint32(int32(d)))
		} else {
			c.ts = want
		}
		anchor, hasAnchor = want, true
	}
	if n.kids != nil {
		c.kids = []*node{}
		for _, k := range n.kids {
			c.kids = append(c.kids, k.smallest(anchor, hasAnchor))
		}
	}
	if len(c.contentBytes()) > 0xFFFF {
		o |= bitLL
	}
	c.opt = o
	return c
}

func encodeVectors(s *set) {
	for _, ex := range examples {
		f := ex.frame()
		s.encodeAccept("encode-exact-"+ex.name, flatten(f), exact, wire(f), meta{rules: rulesOf(ex.rule, "LT-FRAME-10", "LT-CRC-11"), tags: tags("known-answer"),
			comment: "exact encoding of the frame list of " + ex.name + " gives its bytes back"})
		s.encodeAccept("encode-smallest-"+ex.name, flatten(f), smallest, wire(smallestOf([]*node{f})...), meta{rules: rulesOf("LT-IOP-02"),
			comment: "smallest-variant encoding of " + ex.name + ": LL=0 where it fits, CW=1, TF=1 under a stamped ancestor"})
	}
	for _, r := range sizeRows {
		_, top := r.frame()
		s.encodeAccept("encode-exact-"+r.name, flatten(top), exact, wire(top), meta{rules: rulesOf(r.rule, "LT-FRAME-10"), tags: tags("known-answer"),
			comment: fmt.Sprintf("exact encoding of the frame-size row with opt 0x%02x", r.opt)})
	}

	v := func(opt uint8) *node { return leaf(typeValue, opt, []byte{0xca, 0xfe}) }
	cases := []struct {
		name    string
		frames  []*node
		a       encodeArgs
		rules   []string
		comment string
	}{
		{"encode-exact-abs-around-2-53", []*node{v(bitTS).abs(1<<53 - 1), v(bitTS | bitCR).abs(1 << 53), v(bitTS | bitCR | bitCW).abs(1<<53 + 1), v(bitTS).abs(math.MaxUint64)}, exact, rulesOf("LT-FRAME-06", "LT-TS-08"),
			"exact: absolute stamps 2^53-1, 2^53, 2^53+1 and 2^64-1 given as decimal strings are written exactly, little-endian"},
		{"encode-smallest-abs-around-2-53", []*node{v(bitTS).abs(1 << 53), rec(typeUser, bitPL|bitTS, v(bitTS).abs(1<<53+1)).abs(1<<53 - 1)}, smallest, rulesOf("LT-IOP-02", "LT-FRAME-06"),
			"smallest: a top-level stamp of 2^53 stays absolute; a child wanting 2^53+1 under a parent at 2^53-1 becomes a relative +2"},
		{"encode-exact-keeps-ignored-cw-tf", []*node{v(bitCW | bitTF)}, exact, rulesOf("LT-OPT-09", "LT-OPT-11"), "exact: CW and TF without CR and TS are kept in opt, with no trailer"},
		{"encode-exact-mixed-variants", []*node{anchor(v(bitLL|bitCR|bitCW), v(bitTS|bitCR).abs(t0+9), v(bitTS|bitTF|bitCR|bitCW).rel(-9))}, exact, rulesOf("LT-IOP-01", "LT-FRAME-10"),
			"exact: a stamped record holding children in mixed LL, CW, TF variants"},
		{"encode-exact-unknown-nested-pl1-opaque", []*node{rec(typeUser, bitPL, leaf(0x0E, bitPL, []byte{0xff, 0xff}), v(0))}, exact, rulesOf("LT-UNK-06", "LT-FRAME-10"),
			"exact: a nested 0x0E with PL=1 given as an opaque payload is written as it is"},
		{"encode-smallest-ll1-narrows", []*node{v(bitLL)}, smallest, rulesOf("LT-IOP-02"), "smallest: a 2-byte payload given with LL=1 is written with LL=0"},
		{"encode-smallest-ll1-kept-over-65535", []*node{leaf(typeValue, bitLL, ll1Payload()[:65536])}, smallest, rulesOf("LT-IOP-02"),
			"smallest: a 65536-byte payload keeps LL=1, the smaller width would not fit"},
		{"encode-smallest-ll0-at-65535", []*node{leaf(typeValue, bitLL, ll1Payload()[:65535])}, smallest, rulesOf("LT-IOP-02"),
			"smallest: a 65535-byte payload given with LL=1 fits LL=0"},
		{"encode-smallest-crc32-to-crc16", []*node{v(bitCR)}, smallest, rulesOf("LT-IOP-02"), "smallest: CR=1 with CW=0 is written with CRC-16 (CW=1)"},
		{"encode-smallest-clears-ignored-cw-tf", []*node{v(bitCW | bitTF)}, smallest, rulesOf("LT-IOP-02"), "smallest: CW and TF without CR and TS are cleared"},
		{"encode-smallest-top-level-ts-stays-absolute", []*node{v(bitTS).abs(t0)}, smallest, rulesOf("LT-IOP-02"), "smallest: a top-level stamp has no anchor and stays absolute"},
		{"encode-smallest-abs-under-anchor-to-rel", []*node{anchor(v(bitTS).abs(t0 + 500))}, smallest, rulesOf("LT-IOP-02"),
			"smallest: an absolute stamp T0+500 under a record stamped T0 becomes relative +500"},
		{"encode-smallest-rel-at-i32-max", []*node{anchor(v(bitTS).abs(t0 + math.MaxInt32))}, smallest, rulesOf("LT-IOP-02"),
			"smallest: T0+2147483647 under T0 fits an i32: relative"},
		{"encode-smallest-abs-beyond-i32-max", []*node{anchor(v(bitTS).abs(t0 + math.MaxInt32 + 1))}, smallest, rulesOf("LT-IOP-02"),
			"smallest: T0+2147483648 under T0 does not fit an i32: absolute"},
		{"encode-smallest-rel-at-i32-min", []*node{anchor(v(bitTS).abs(t0 - 1<<31))}, smallest, rulesOf("LT-IOP-02"),
			"smallest: T0-2147483648 under T0 fits an i32: relative"},
		{"encode-smallest-abs-beyond-i32-min", []*node{anchor(v(bitTS).abs(t0 - 1<<31 - 1))}, smallest, rulesOf("LT-IOP-02"),
			"smallest: T0-2147483649 under T0 does not fit an i32: absolute"},
		{"encode-smallest-rel-through-unstamped-parent", []*node{anchor(rec(typePath, bitPL, v(bitTS|bitTF).rel(-7)))}, smallest, rulesOf("LT-IOP-02"),
			"smallest: a relative stamp two levels under the anchor stays relative to it"},
		{"encode-smallest-relative-parent-anchors", []*node{anchor(rec(typeUser, bitPL|bitTS, v(bitTS).abs(t0+1001)).abs(t0 + 1000))}, smallest, rulesOf("LT-IOP-02"),
			"smallest: a nested absolute record becomes relative (+1000) and anchors its child (+1)"},
	}
	for _, c := range cases {
		want := wire(c.frames...)
		if c.a == smallest {
			want = wire(smallestOf(c.frames)...)
		}
		s.encodeAccept(c.name, flatten(c.frames...), c.a, want, meta{rules: c.rules, comment: c.comment})
	}

	// Refusals: what no sender emits.
	value := func(t, opt uint8) flat {
		return flat{typ: t, opt: opt, length: 1, payload: []byte{0x01}, hasPayload: true}
	}
	nested05 := flatten(rec(typeUser, bitPL, rec(typePath, bitPL, leaf(typeName, 0, []byte("a")), leaf(0x05, 0, []byte{5}))))
	big := value(typeValue, 0)
	big.payload, big.length = ll1Payload()[:65536], 65536
	structured := flat{typ: typeUser, opt: 0, children: 1}
	child := value(typeValue, 0)
	child.depth, child.offset = 1, 4
	noStamp := value(typeValue, bitTS)
	relTop := value(typeValue, bitTS|bitTF)
	relTop.ts = &flatTS{rel: true, raw: 5, resolved: 5}
	refusals := []struct {
		name    string
		list    []flat
		a       encodeArgs
		rules   []string
		comment string
	}{
		{"encode-rejects-type-05", []flat{value(0x05, 0)}, exact, rulesOf("LT-TYPE-06"), "a top-level frame of type 0x05: senders MUST NOT emit it"},
		{"encode-rejects-type-05-nested", nested05, exact, rulesOf("LT-TYPE-06"), "a 0x05 frame two levels down in the tree: refused anywhere"},
		{"encode-smallest-rejects-type-05-nested", nested05, smallest, rulesOf("LT-TYPE-06"), "smallest mode: a 0x05 frame two levels down is refused too"},
		{"encode-rejects-type-00", []flat{value(0x00, 0)}, exact, rulesOf("LT-TYPE-01"), "a frame of type 0x00, the reserved sentinel"},
		{"encode-rejects-reserved-bit7", []flat{value(typeValue, bitR7)}, exact, rulesOf("LT-OPT-03"), "a frame with opt bit 7 set: v1 never allocates the reserved bits"},
		{"encode-rejects-reserved-bit0", []flat{value(typeValue, bitR0)}, exact, rulesOf("LT-OPT-03"), "a frame with opt bit 0 set"},
		{"encode-smallest-rejects-reserved-bit0", []flat{value(typeValue, bitR0)}, smallest, rulesOf("LT-OPT-03"), "smallest mode: a frame with opt bit 0 set"},
		{"encode-exact-rejects-ll0-65536", []flat{big}, exact, rulesOf("LT-LEN-01"), "exact: a 65536-byte payload with LL=0 does not fit the u16 length"},
		{"encode-exact-rejects-children-under-pl0", []flat{structured, child}, exact, rulesOf("LT-OPT-04"), "exact: a frame with children but PL=0"},
		{"encode-rejects-ts-without-stamp", []flat{noStamp}, exact, rulesOf("LT-OPT-05"), "a frame with TS=1 and no ts given"},
		{"encode-exact-rejects-rel-without-anchor", []flat{relTop}, exact, rulesOf("LT-TS-04"), "exact: a top-level relative stamp has no ancestor to be relative to"},
	}
	for _, r := range refusals {
		s.encodeReject(r.name, r.list, r.a, meta{rules: r.rules, comment: r.comment})
	}
}
