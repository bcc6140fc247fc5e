package tracervec

import (
	"fmt"
	"slices"
	"sort"
)

// negative is one row of a table of libtracer.decode negatives: the
// vector's name, its bytes, the decode arguments, the rules (the first
// rejects it, the model checks), its tags and its comment. Adding a vector
// to a family is adding a row to its table.
type negative struct {
	name    string
	b       []byte
	a       decodeArgs
	rules   []string
	tags    []string
	comment string
}

// negatives: a vector for every rule libtracer.decode rejects with, each
// rejected by that rule alone (the others hold), on both sides of every
// bound where the bound is the receiver's. The families are the tables
// below, added in name order; then the deep nests and the CRC failures of
// the known answers.
func negatives(s *set) {
	list := slices.Concat(reservedBits(), typeZero(), truncationLimits(), crcMismatches(), unanchoredStamps(),
		childrenFill(), unknownOuter(), workBudget(), firstError())
	sort.SliceStable(list, func(i, j int) bool { return list[i].name < list[j].name })
	for _, n := range list {
		s.reject(n.name, in(n.b), n.a, meta{rules: n.rules, tags: n.tags, comment: n.comment})
	}
	deepNests(s)
	knownAnswerCRCFails(s)
}

// reservedBits: reserved bits 7 and 0 under every type class, and where a
// header is cut, nested or follows a good frame (§Options bitfield,
// LT-OPT-01, LT-OPT-02).
func reservedBits() []negative {
	var list []negative
	for _, c := range []struct {
		name string
		t    uint8
	}{{"core-01", 0x01}, {"reserved-05", 0x05}, {"unknown-0e", 0x0E}, {"unknown-7f", 0x7F}, {"user-80", 0x80}} {
		list = append(list,
			negative{"reserved-bit7-type-" + c.name, []byte{c.t, 0x80, 0x01, 0x00, 0x00}, dgram, rulesOf("LT-OPT-01"), nil,
				fmt.Sprintf("type 0x%02x with opt 0x80: reserved bit 7 set, INVALID whatever the type class", c.t)},
			negative{"reserved-bit0-type-" + c.name, []byte{c.t, 0x01, 0x01, 0x00, 0x00}, dgram, rulesOf("LT-OPT-02"), nil,
				fmt.Sprintf("type 0x%02x with opt 0x01: reserved bit 0 set, INVALID whatever the type class", c.t)})
	}
	ex1 := wire(statusOK())
	return append(list, []negative{
		{"reserved-bit7-with-every-other-bit", []byte{0x01, 0xFE, 0x00, 0x00}, dgram, rulesOf("LT-OPT-01"), nil, "opt 0xfe: every bit but bit 0, bit 7 rejects"},
		{"reserved-bit0-with-every-other-bit", []byte{0x01, 0x7F, 0x00, 0x00, 0x00, 0x00}, dgram, rulesOf("LT-OPT-02"), nil, "opt 0x7f: every bit but bit 7, bit 0 rejects"},
		{"reserved-bits-both-bit7-first", []byte{0x01, 0x81, 0x00, 0x00}, dgram, rulesOf("LT-OPT-01", "LT-OPT-02"), nil, "opt 0x81: both reserved bits, bit 7 is reported first"},
		{"reserved-bit7-header-cut-after-opt", []byte{0x01, 0x80}, dgram, rulesOf("LT-OPT-01"), nil, "01 80 alone: a header is checked as far as its bytes go, INVALID before truncated"},
		{"reserved-bit7-header-cut-after-opt-stream", []byte{0x01, 0x80}, stream, rulesOf("LT-OPT-01"), nil, "01 80 then the stream closes: the header is checked as its bytes arrive, INVALID before transport::down"},
		{"reserved-bit7-nested-child", wire(rec(typePath, bitPL, leaf(typeName, bitR7, []byte("x")))), dgram, rulesOf("LT-OPT-01"), nil, "a NAME child with bit 7 set inside a PATH"},
		{"reserved-bit0-nested-grandchild", wire(rec(typeUser, bitPL, rec(typePath, bitPL, leaf(typeName, bitR0, []byte("x"))))), dgram, rulesOf("LT-OPT-02"), nil, "a NAME grandchild with bit 0 set, two levels down"},
		{"reserved-bit7-after-a-good-frame", cat(ex1, []byte{0x01, 0x80, 0x00, 0x00}), dgram, rulesOf("LT-OPT-01"), nil, "STATUS, then a VALUE with bit 7 set"},
	}...)
}

// typeZero: type 0x00, the reserved sentinel (§Type code registry,
// LT-TYPE-01).
func typeZero() []negative {
	ex1 := wire(statusOK())
	return []negative{
		{"type-00-empty-frame", []byte{0x00, 0x00, 0x00, 0x00}, dgram, rulesOf("LT-TYPE-01"), nil, "type 0x00, the reserved sentinel: a zeroed buffer"},
		{"type-00-alone", []byte{0x00}, dgram, rulesOf("LT-TYPE-01"), nil, "the single byte 00: INVALID as soon as the type byte is read, not truncated"},
		{"type-00-alone-stream", []byte{0x00}, stream, rulesOf("LT-TYPE-01"), nil, "the single byte 00 on a stream: INVALID, not transport::down"},
		{"type-00-before-reserved-bit", []byte{0x00, 0x81, 0x00, 0x00}, dgram, rulesOf("LT-TYPE-01", "LT-OPT-01"), nil, "type 0x00 and opt 0x81: the type byte is checked first"},
		{"type-00-nested", wire(rec(typePath, bitPL, leaf(typeName, 0, []byte("a")), leaf(0x00, 0, nil))), dgram, rulesOf("LT-TYPE-01"), nil, "a PATH whose second child has type 0x00"},
		{"type-00-zero-padding-after-frame", cat(ex1, []byte{0, 0, 0, 0}), dgram, rulesOf("LT-TYPE-01"), nil, "STATUS followed by four zero bytes of padding"},
	}
}

// truncationLimits: MAX_TLV_BYTES on both sides of the bound, and the
// empty datagram (§Truncation handling, LT-TRUNC-06, LT-TRUNC-08).
func truncationLimits() []negative {
	mib16 := int64(16 << 20)
	return []negative{
		{"max-tlv-length-17-over-16", wire(leaf(typeValue, 0, make16(17))), dgram.maxOf(16), rulesOf("LT-TRUNC-06"), tags("boundary"), "max_tlv_bytes 16: a complete VALUE of 17 payload bytes is INVALID"},
		{"max-tlv-ll1-length-17-over-16", wire(leaf(typeValue, bitLL|bitCR, make16(17))), dgram.maxOf(16), rulesOf("LT-TRUNC-06"), tags("boundary"), "max_tlv_bytes 16: a complete LL=1 VALUE of 17 payload bytes with CRC is INVALID"},
		{"max-tlv-length-17-over-16-stream", wire(leaf(typeValue, 0, make16(17))), stream.maxOf(16), rulesOf("LT-TRUNC-06"), tags("boundary"), "max_tlv_bytes 16 on a stream: INVALID from the header"},
		{"max-tlv-nested-child-declares-over-limit", []byte{0x06, 0x40, 0x04, 0x00, 0x01, 0x00, 0x11, 0x00}, dgram.maxOf(16), rulesOf("LT-TRUNC-06"), tags("boundary"),
			"max_tlv_bytes 16: a PATH of 4 payload bytes whose child header declares 17: INVALID from the child's length, checked at every level before its extent"},
		{"max-tlv-over-limit-before-truncation", []byte{0x01, 0x00, 0x11, 0x00}, dgram.maxOf(16), rulesOf("LT-TRUNC-06"), tags("boundary"), "max_tlv_bytes 16: a header declaring 17 bytes with none present is INVALID, not truncated"},
		{"max-tlv-default-16mib-plus-1-header-only", []byte{0x01, 0x08, 0x01, 0x00, 0x00, 0x01}, dgram, rulesOf("LT-TRUNC-06", "LT-TRUNC-07"), tags("boundary"),
			"LL=1 header declaring 16777217 bytes, nothing after it, at the recommended default MAX_TLV_BYTES of 16 MiB: over it, INVALID before any payload is read; tr::frame::truncated for a receiver that checks the extent first, or whose default limit is larger (LT-TRUNC-07 is a SHOULD)"},
		{"max-tlv-default-16mib-plus-1-header-only-stream", []byte{0x01, 0x08, 0x01, 0x00, 0x00, 0x01}, stream, rulesOf("LT-TRUNC-06", "LT-TRUNC-07"), tags("boundary"),
			"the same header on a stream at the recommended default MAX_TLV_BYTES: INVALID at once; transport::down when the stream closes for a receiver that awaits the payload, or whose default limit is larger (LT-TRUNC-07 is a SHOULD)"},
		{"max-tlv-16mib-plus-1-header-only", []byte{0x01, 0x08, 0x01, 0x00, 0x00, 0x01}, dgram.maxOf(mib16), rulesOf("LT-TRUNC-06"), tags("boundary"),
			"max_tlv_bytes 16777216: an LL=1 header declaring 16777217 bytes, nothing after it, is INVALID before any payload is read"},
		{"max-tlv-16mib-plus-1-header-only-stream", []byte{0x01, 0x08, 0x01, 0x00, 0x00, 0x01}, stream.maxOf(mib16), rulesOf("LT-TRUNC-06"), tags("boundary"),
			"max_tlv_bytes 16777216 on a stream: INVALID at once, the payload is never awaited"},
		{"max-tlv-u32-max-header-only", []byte{0x01, 0x08, 0xff, 0xff, 0xff, 0xff}, dgram.maxOf(mib16), rulesOf("LT-TRUNC-06"), tags("boundary"),
			"max_tlv_bytes 16777216: an LL=1 header declaring 4294967295 bytes is INVALID, nothing allocated"},
		{"max-tlv-16mib-header-only-truncated", []byte{0x01, 0x08, 0x00, 0x00, 0x00, 0x01}, dgram.maxOf(mib16), rulesOf("LT-TRUNC-03"), tags("boundary"),
			"max_tlv_bytes 16777216: an LL=1 header declaring exactly 16777216 bytes, nothing after it, is within the limit, so truncated"},
		{"max-tlv-16mib-header-only-stream", []byte{0x01, 0x08, 0x00, 0x00, 0x00, 0x01}, stream.maxOf(mib16), rulesOf("LT-TRUNC-02"), tags("boundary"),
			"the same header on a stream that closes: transport::down"},
		{"empty-datagram", []byte{}, dgram, rulesOf("LT-TRUNC-08"), tags("decision"), "an empty datagram carries no frame: truncated"},
	}
}

// crcMismatches: wrong CRCs in nested, outer-and-inner and unknown frames
// (§CRC, LT-CRC-09, LT-CRC-10, LT-UNK-03).
func crcMismatches() []negative {
	return []negative{
		{"crc16-nested-child-mismatch", wire(rec(typePath, bitPL, &node{typ: typeName, opt: bitCR | bitCW, payload: []byte("x"), crcXor: 0x0100})), dgram, rulesOf("LT-CRC-10"), nil,
			"an unchecked PATH whose NAME child carries a wrong CRC-16"},
		{"crc32c-nested-child-mismatch", wire(anchor(&node{typ: typeValue, opt: bitCR | bitTS | bitTF, payload: []byte{1}, ts: 5, crcXor: 1})), dgram, rulesOf("LT-CRC-09", "LT-CRC-15"), nil,
			"a VALUE with a relative stamp and a wrong CRC-32C inside the anchoring record"},
		{"crc-outer-reported-before-inner", wire(&node{typ: typePath, opt: bitPL | bitCR, crcXor: 1, kids: []*node{{typ: typeName, opt: bitCR | bitCW, payload: []byte("x"), crcXor: 1}}}), dgram, rulesOf("LT-CRC-09"), nil,
			"outer CRC-32C and inner CRC-16 both wrong: crc_fail, whichever frame is reported"},
		{"crc-before-malformed-children", wire(&node{typ: typePath, opt: bitPL | bitCR, crcXor: 1, kids: []*node{leaf(typeName, bitR7, []byte("x"))}}), dgram, rulesOf("LT-CRC-09"), nil,
			"a PATH with a wrong CRC-32C around a child with bit 7 set: crc_fail, or the child's INVALID for a receiver that walks the children before the CRC"},
		{"crc-unknown-nested-mismatch", wire(rec(typeUser, bitPL, &node{typ: 0x0E, opt: bitCR, payload: []byte{1}, crcXor: 1})), dgram, rulesOf("LT-CRC-09", "LT-UNK-03"), nil,
			"a nested 0x0E, kept opaque, whose CRC-32C is wrong: its CRC is still validated"},
		{"crc-reserved-05-nested-mismatch-crc16", wire(rec(typeUser, bitPL, &node{typ: 0x05, opt: bitCR | bitCW, payload: []byte{1}, crcXor: 1})), dgram, rulesOf("LT-CRC-10", "LT-UNK-03", "LT-TYPE-05"), nil,
			"a nested 0x05 whose CRC-16 is wrong"},
		{"crc-stream-nested-mismatch", wire(rec(typePath, bitPL, &node{typ: typeName, opt: bitCR | bitCW, payload: []byte("x"), crcXor: 0x0100})), stream, rulesOf("LT-CRC-10"), nil,
			"on a stream: an unchecked PATH whose NAME child carries a wrong CRC-16"},
	}
}

// unanchoredStamps: a relative stamp without an anchor (§Timestamp form,
// LT-TS-04).
func unanchoredStamps() []negative {
	rv := func() *node { return leaf(typeValue, bitTS|bitTF, u32Payload).rel(1000) }
	return []negative{
		{"ts-rel-no-anchor-depth-1", wire(rv()), dgram, rulesOf("LT-TS-04"), nil, "EX-03's VALUE at the top level: a relative stamp with no ancestor"},
		{"ts-rel-no-anchor-depth-2", wire(rec(typePath, bitPL, rv())), dgram, rulesOf("LT-TS-04"), nil, "a relative VALUE inside an unstamped PATH"},
		{"ts-rel-no-anchor-depth-3", wire(rec(typeUser, bitPL, rec(typeUser, bitPL, rv()))), dgram, rulesOf("LT-TS-04"), nil, "a relative VALUE two unstamped records down"},
		{"ts-rel-no-anchor-structured-top", wire(rec(typeUser, bitPL|bitTS|bitTF, leaf(typeValue, 0, []byte{1})).rel(5)), dgram, rulesOf("LT-TS-04"), nil, "a top-level structured frame with a relative stamp"},
		{"ts-rel-sibling-stamp-is-no-anchor", wire(rec(typePath, bitPL, leaf(typeValue, bitTS, []byte{1}).abs(t0), rv())), dgram, rulesOf("LT-TS-04", "LT-TS-03"), nil,
			"a relative VALUE after an absolutely stamped sibling: only ancestors anchor"},
		{"ts-rel-parent-tf-without-ts-is-no-anchor", wire(rec(typePath, bitPL|bitTF, rv())), dgram, rulesOf("LT-TS-04", "LT-OPT-11"), nil,
			"a relative VALUE inside a PATH with TF=1 but TS=0: the parent has no trailer_ts"},
		{"ts-rel-no-anchor-unknown-nested", wire(rec(typePath, bitPL, leaf(0x0E, bitTS|bitTF, []byte{1}).rel(1))), dgram, rulesOf("LT-TS-04", "LT-TYPE-07"), nil,
			"a nested unknown 0x0E with a relative stamp and no anchor: framing is type-blind"},
		{"ts-rel-no-anchor-unknown-outer", wire(leaf(0x0E, bitTS|bitTF, []byte{1}).rel(1)), dgram, rulesOf("LT-TS-04"), nil,
			"an outer 0x0E with a relative stamp: path::invalid, or type_mismatch in another check order"},
		{"ts-rel-no-anchor-stream", wire(rv()), stream, rulesOf("LT-TS-04"), nil, "on a stream: a top-level relative stamp"},
	}
}

// childrenFill: children fill the payload exactly, neither overrunning it
// nor leaving a remainder (decision, LT-NEST-05).
func childrenFill() []negative {
	list := []negative{
		{"children-overrun-parent", wire(rec(typePath, bitPL, &node{typ: typeName, payload: []byte("sensor"), lenAdj: 1})), dgram, rulesOf("LT-NEST-05"), nil,
			"a NAME child declaring 7 bytes where 6 remain in the PATH: the child overruns its parent"},
		{"children-overrun-by-trailer", wire(rec(typePath, bitPL, leaf(typeName, 0, []byte("temp")), &node{typ: typeName, opt: bitCR, payload: []byte("xy"), lenAdj: 1})), dgram, rulesOf("LT-NEST-05"), nil,
			"the last child's CRC trailer reaches past the parent's payload"},
		{"children-underfill-deep", wire(rec(typeUser, bitPL, rec(typeUser, bitPL, rec(typePath, bitPL, leaf(typeName, 0, []byte("z"))).withTail(2)))), dgram, rulesOf("LT-NEST-05"), nil,
			"three levels down, a PATH with a 2-byte remainder after its child"},
		{"children-overrun-stream", wire(rec(typePath, bitPL, &node{typ: typeName, payload: []byte("sensor"), lenAdj: 1})), stream, rulesOf("LT-NEST-05"), nil,
			"on a stream: a NAME child overrunning its PATH: INVALID, or transport::down for a receiver that reads the child as a frame the stream cut"},
	}
	for _, n := range []int{1, 2, 3} {
		list = append(list, negative{fmt.Sprintf("children-underfill-%d-byte-remainder", n), wire(rec(typePath, bitPL, leaf(typeName, 0, []byte("a"))).withTail(n)), dgram, rulesOf("LT-NEST-05"), nil,
			fmt.Sprintf("a PATH whose payload ends with %d byte(s) after its last child: too few for a header", n)})
	}
	return list
}

// unknownOuter: the outer addressed TLV of an unassigned type, bare and
// with a good or a wrong CRC of each width, for every type of the
// extension range 0x0E..0x7F and 0x05 (LT-OPT-12) (§Handling unknown type
// codes, LT-UNK-05).
func unknownOuter() []negative {
	forms := []struct {
		suffix  string
		node    func(t uint8) *node
		rules   []string
		decided bool
		comment string
	}{
		{"", func(t uint8) *node { return leaf(t, 0, []byte{t}) }, rulesOf("LT-UNK-05", "LT-OPT-12"), false, "an outer TLV of unassigned type 0x%02x: type_mismatch"},
		{"-crc32c", func(t uint8) *node { return leaf(t, bitCR, []byte{t}) }, rulesOf("LT-UNK-05", "LT-UNK-03"), false, "an outer 0x%02x with a good CRC-32C: type_mismatch"},
		{"-crc16", func(t uint8) *node { return leaf(t, bitCR|bitCW, []byte{t}) }, rulesOf("LT-UNK-05", "LT-UNK-03"), false, "an outer 0x%02x with a good CRC-16: type_mismatch"},
		{"-bad-crc32c", func(t uint8) *node { return &node{typ: t, opt: bitCR, payload: []byte{t}, crcXor: 0x80000000} }, rulesOf("LT-CRC-09", "LT-UNK-03"), true,
			"an outer 0x%02x with a wrong CRC-32C: crc_fail, or type_mismatch in another check order"},
		{"-bad-crc16", func(t uint8) *node { return &node{typ: t, opt: bitCR | bitCW, payload: []byte{t}, crcXor: 0x8000} }, rulesOf("LT-CRC-10", "LT-UNK-03"), true,
			"an outer 0x%02x with a wrong CRC-16: crc_fail, or type_mismatch in another check order"},
	}
	var list []negative
	for _, t := range []uint8{0x05, 0x0E, 0x1F, 0x20, 0x7F} {
		for _, f := range forms {
			list = append(list, negative{fmt.Sprintf("unknown-outer-%02x", t) + f.suffix, wire(f.node(t)), dgram, f.rules, nil, fmt.Sprintf(f.comment, t)})
		}
	}
	return append(list, []negative{
		{"unknown-outer-0e-pl1-not-walked", wire(leaf(0x0E, bitPL, []byte{0x00, 0x80})), dgram, rulesOf("LT-UNK-05", "LT-UNK-06"), nil, "an outer 0x0E with PL=1 around bytes that are no TLVs: type_mismatch, never walked"},
		{"unknown-outer-05-stamped-stream", wire(leaf(0x05, bitTS, []byte{5}).abs(t0)), stream, rulesOf("LT-UNK-05", "LT-TYPE-05"), nil, "on a stream: an outer 0x05 with an absolute stamp"},
	}...)
}

// workBudget: the work-stack budget, one level over (§Iterative parsing
// requirement, LT-NEST-03).
func workBudget() []negative {
	return []negative{
		{"nest-depth-6-budget-5", wire(nest(6, statusOK())), dgram.budgetOf(5), rulesOf("LT-NEST-03"), tags("boundary"), "6 nested user records at a budget of 5 open levels: one over"},
		{"nest-core-depth-6-budget-1-raised-to-5", wire(coreNest(6)), dgram.budgetOf(1), rulesOf("LT-NEST-03", "LT-NEST-04"), tags("boundary"), "6 nested core-type structured frames (protocol shapes nest at most 5) at a requested budget of 1, raised to 5: one over"},
		{"nest-depth-9-budget-8", wire(nest(9, statusOK())), dgram.budgetOf(8), rulesOf("LT-NEST-03"), tags("boundary"), "9 nested user records at a budget of 8 open levels: one over"},
		{"nest-empty-pl1-counts-as-a-level", wire(nest(5, rec(typePath, bitPL))), dgram.budgetOf(5), rulesOf("LT-NEST-03", "LT-NEST-06"), tags("boundary", "decision"),
			"5 nested user records around an empty PATH at a budget of 5: the empty structured frame is a sixth open level"},
		{"nest-core-types-depth-6-budget-5", wire(rec(typePath, bitPL, rec(0x03, bitPL, rec(0x04, bitPL, rec(0x07, bitPL, rec(0x08, bitPL, rec(0x0D, bitPL))))))), dgram.budgetOf(5), rulesOf("LT-NEST-03"), tags("boundary"),
			"six nested core-type structured frames at a budget of 5"},
		{"nest-depth-6-budget-5-stream", wire(nest(6, statusOK())), stream.budgetOf(5), rulesOf("LT-NEST-03"), tags("boundary"), "on a stream: 6 nested user records at a budget of 5"},
	}
}

// firstError: the verdict is the first error in byte order; report
// "frames" still rejects an error that breaks framing (decision,
// LT-CTX-04).
func firstError() []negative {
	ex1 := wire(statusOK())
	badCRC := xorAt(wire(examples[4].frame()), 12, 0x01)
	return []negative{
		{"first-error-in-byte-order-crc-before-truncation", cat(badCRC, []byte{0x01}), dgram, rulesOf("LT-CRC-09", "LT-CTX-04"), nil,
			"EX-05 with a wrong CRC, then a header cut after its type byte: the first error in byte order is crc_fail; a receiver that frames first reports the truncation"},
		{"first-error-in-byte-order-crc-before-down-stream", cat(badCRC, []byte{0x01}), stream, rulesOf("LT-CRC-09", "LT-CTX-04"), nil,
			"on a stream: EX-05 with a wrong CRC, then a stream closing inside a header: crc_fail in byte order, transport::down for a receiver that frames first"},
		{"report-framing-error-still-rejects", cat(badCRC, []byte{0x01}), dgram.frames(), rulesOf("LT-TRUNC-03", "LT-CTX-04"), tags("decision"),
			"report frames: a truncated frame after a CRC failure breaks framing and rejects the datagram"},
		{"report-framing-error-still-rejects-stream", cat(ex1, []byte{0x01, 0x80, 0x00, 0x00}), stream.frames(), rulesOf("LT-OPT-01", "LT-CTX-04"), tags("decision"),
			"report frames on a stream: an INVALID top-level header after STATUS breaks framing and rejects"},
	}
}

// deepNests: the 10^6-deep nest (recipe), rejected at an explicit budget:
// the budget is the receiver's, with no default the format fixes (a
// receiver with a budget of 10^6 levels accepts it); the accepted deep case
// is nest-depth-2000.
func deepNests(s *set) {
	leafB := wire(statusOK())
	for _, c := range []struct {
		name    string
		depth   int
		a       decodeArgs
		rules   []string
		comment string
	}{
		{"nest-1000000-deep-budget-1024", 1_000_000, dgram.budgetOf(1024), rulesOf("LT-NEST-03", "LT-NEST-01"),
			"10^6 nested user records around STATUS at a budget of 1024 open levels: nesting_too_deep, no crash"},
		{"nest-1000000-deep-budget-1024-stream", 1_000_000, stream.budgetOf(1024), rulesOf("LT-NEST-03", "LT-NEST-01"),
			"on a stream: 10^6 nested user records at a budget of 1024 open levels"},
		{"nest-depth-2001-budget-2000", 2001, dgram.budgetOf(2000), rulesOf("LT-NEST-03"), "2001 nested user records at a budget of 2000: one over"},
	} {
		nested := input{b: deepNest(c.depth, leafB), recipe: nestRecipe(c.depth, leafB)}
		s.reject(c.name, nested, c.a, meta{rules: c.rules, tags: tags("boundary"), comment: c.comment})
	}
}

// knownAnswerCRCFails: CRC mismatches in each known answer with a CRC: a
// payload byte, a trailer_ts byte (LT-CRC-15), a CRC byte.
func knownAnswerCRCFails(s *set) {
	for _, p := range append([]positive(nil), s.positives...) {
		if !p.core || p.args.Transport != transportDgram {
			continue
		}
		var f flat
		for _, e := range p.frames {
			if e.crc != nil {
				f = e
				break
			}
		}
		if f.crc == nil {
			continue
		}
		start := int(f.offset) + hdrSize(f.opt)
		end := start + int(f.length)
		rule := "LT-CRC-09"
		if f.crc.width == 16 {
			rule = "LT-CRC-10"
		}
		if f.length > 0 {
			s.reject(p.name+"--crc-fail-payload-byte", in(xorAt(p.in, start, 0x01)), dgram, meta{rules: rulesOf(rule, "LT-CRC-11"), derived: p.name,
				comment: fmt.Sprintf("%s with its first payload byte changed: crc_fail", p.name)})
		}
		if f.ts != nil {
			s.reject(p.name+"--crc-fail-ts-byte", in(xorAt(p.in, end, 0x01)), dgram, meta{rules: rulesOf(rule, "LT-CRC-15"), derived: p.name,
				comment: fmt.Sprintf("%s with its first trailer_ts byte changed: crc_fail, not a silently bogus time", p.name)})
		}
		s.reject(p.name+"--crc-fail-crc-byte", in(xorAt(p.in, end+tsSize(f.opt), 0x80)), dgram, meta{rules: rulesOf(rule), derived: p.name,
			comment: fmt.Sprintf("%s with its first CRC byte changed: crc_fail", p.name)})
	}
}

// withTail appends the first k (1..3) bytes of an empty STATUS header,
// 09 00 00, to a structured frame's payload after its children: a
// remainder too short for a header whose bytes are otherwise valid.
func (n *node) withTail(k int) *node {
	n.kids = append(n.kids, &node{raw: []byte{typeStatus, 0x00, 0x00}[:k]})
	return n
}

// deepNest writes depth nested user records (opt 0x48) around leafB
// without recursion: the bytes of the libtracer_nest recipe part.
func deepNest(depth int, leafB []byte) []byte {
	total := depth*6 + len(leafB)
	out := make([]byte, total)
	copy(out[depth*6:], leafB)
	for k := 0; k < depth; k++ {
		l := uint32(total - (k+1)*6)
		copy(out[k*6:], []byte{typeUser, bitPL | bitLL, byte(l), byte(l >> 8), byte(l >> 16), byte(l >> 24)})
	}
	return out
}
