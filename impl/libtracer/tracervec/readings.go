package tracervec

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/threespec/conformance/impl/libtracer"
	"github.com/threespec/conformance/impl/libtracer/tracerspec"
	"github.com/threespec/conformance/internal/vecgen"
	"github.com/threespec/conformance/vectorset"
)

// readingUses ties the libtracer vectors to the readings of
// libtracer.Readings (docs/READINGS.md): the default vectors, the codes
// that are each a correct report where a reading is one of error
// precedence, and the branch vectors the reference can take.
func readingUses() []vecgen.ReadingUse {
	p := func(names ...string) []string { return vecgen.Prefixed("libtracer/positive/", names) }
	n := func(names ...string) []string { return vecgen.Prefixed("libtracer/negative/", names) }
	var combos []string
	for _, kind := range []string{"path", "value"} {
		for _, c := range []string{"ll0-cw0-tf1-ts0-cr0", "ll0-cw0-tf1-ts0-cr1", "ll0-cw1-tf0-ts0-cr0", "ll0-cw1-tf0-ts1-cr0", "ll0-cw1-tf1-ts0-cr0",
			"ll0-cw1-tf1-ts0-cr1", "ll0-cw1-tf1-ts1-cr0", "ll1-cw0-tf1-ts0-cr0", "ll1-cw0-tf1-ts0-cr1", "ll1-cw1-tf0-ts0-cr0", "ll1-cw1-tf0-ts1-cr0",
			"ll1-cw1-tf1-ts0-cr0", "ll1-cw1-tf1-ts0-cr1", "ll1-cw1-tf1-ts1-cr0"} {
			combos = append(combos, "libtracer/positive/combo-"+kind+"-"+c)
		}
	}
	var unknownCRC []string
	acceptUnknown := map[string][]string{}
	for _, t := range []string{"05", "0e", "1f", "20", "7f"} {
		for _, w := range []string{"crc16", "crc32c"} {
			id := fmt.Sprintf("libtracer/negative/unknown-outer-%s-bad-%s", t, w)
			unknownCRC = append(unknownCRC, id)
			acceptUnknown[id] = []string{libtracer.CodeTypeMismatch}
		}
	}
	overrun := n("children-overrun-by-trailer", "children-overrun-parent", "children-underfill-1-byte-remainder",
		"children-underfill-2-byte-remainder", "children-underfill-3-byte-remainder", "children-underfill-deep")
	acceptOverrun := map[string][]string{"libtracer/negative/children-overrun-stream": {libtracer.CodeTransportDown}}
	for _, id := range overrun {
		acceptOverrun[id] = []string{libtracer.CodeTruncated}
	}
	uses := []vecgen.ReadingUse{
		{Reading: libtracer.ReadEmptyInput, Vectors: append(n("empty-datagram"), p("stream-empty-clean-end")...),
			Branches: []vecgen.Branch{{Of: "libtracer/negative/empty-datagram", Alternative: libtracer.AltEmptyDatagramNoFrames,
				Expect: vectorset.Accept, Result: json.RawMessage(`{"frames":[]}`),
				Comment: "an empty datagram, like an empty stream, holds no frame"}}},
		{Reading: libtracer.ReadEmptyStructured, Vectors: p("empty-pl1-crc16", "empty-pl1-crc32c", "empty-pl1-nested", "empty-pl1-path-root", "empty-pl1-stamped"),
			Branches: []vecgen.Branch{{Of: "libtracer/positive/empty-pl1-path-root", Alternative: libtracer.AltEmptyStructuredInvalid,
				Expect: vectorset.Reject, Code: libtracer.CodeInvalid, Comment: "a PL=1 PATH with an empty payload has no child: INVALID"}}},
		{Reading: libtracer.ReadChildrenFill, Vectors: append(overrun, n("children-overrun-stream")...), Acceptable: acceptOverrun},
		{Reading: libtracer.ReadCRCFirst, Vectors: n("crc-before-malformed-children"),
			Acceptable: map[string][]string{"libtracer/negative/crc-before-malformed-children": {libtracer.CodeInvalid}}},
		{Reading: libtracer.ReadOuterCRCFirst, Vectors: n("crc-outer-reported-before-inner")},
		{Reading: libtracer.ReadAnchorBeforeType, Vectors: n("ts-rel-no-anchor-unknown-outer"),
			Acceptable: map[string][]string{"libtracer/negative/ts-rel-no-anchor-unknown-outer": {libtracer.CodeTypeMismatch}}},
		{Reading: libtracer.ReadByteOrder, Vectors: n("first-error-in-byte-order-crc-before-truncation", "first-error-in-byte-order-crc-before-down-stream"),
			Acceptable: map[string][]string{
				"libtracer/negative/first-error-in-byte-order-crc-before-truncation":  {libtracer.CodeTruncated},
				"libtracer/negative/first-error-in-byte-order-crc-before-down-stream": {libtracer.CodeTransportDown},
			}},
		{Reading: libtracer.ReadContinue, Vectors: append(p("report-continues-after-crc-fail", "report-continues-after-nested-error", "report-continues-after-nesting-too-deep",
			"report-continues-after-path-invalid", "report-continues-after-unknown-outer", "report-stream-continues-after-unknown-05"),
			n("report-framing-error-still-rejects", "report-framing-error-still-rejects-stream")...),
			Branches: []vecgen.Branch{{Of: "libtracer/positive/report-continues-after-crc-fail", Alternative: libtracer.AltStopAtFirstError,
				Expect: vectorset.Reject, Code: libtracer.CodeCRCFail, Rules: []string{"LT-CRC-09", "LT-CTX-04"}, Comment: "the CRC failure of EX-05 ends the parse: crc_fail"}}},
		{Reading: libtracer.ReadIgnoredBits, Vectors: combos},
		{Reading: libtracer.ReadMaxTLVDefault, Vectors: n("max-tlv-default-16mib-exactly-header-only", "max-tlv-default-16mib-plus-1-header-only", "max-tlv-default-16mib-plus-1-header-only-stream")},
		{Reading: libtracer.ReadMaxBeforeTrunc, Vectors: n("max-tlv-default-16mib-plus-1-header-only", "max-tlv-default-16mib-plus-1-header-only-stream"),
			Acceptable: map[string][]string{
				"libtracer/negative/max-tlv-default-16mib-plus-1-header-only":        {libtracer.CodeTruncated},
				"libtracer/negative/max-tlv-default-16mib-plus-1-header-only-stream": {libtracer.CodeTransportDown},
			}},
		{Reading: libtracer.ReadEmptyLevel, Vectors: n("nest-empty-pl1-counts-as-a-level")},
		{Reading: libtracer.ReadUnknownCRC, Vectors: append(unknownCRC, p("report-unknown-outer-bad-crc-is-crc-fail")...), Acceptable: acceptUnknown},
		{Reading: libtracer.ReadReturnPath, Vectors: n("unknown-outer-05", "unknown-outer-0e", "unknown-outer-1f", "unknown-outer-20", "unknown-outer-7f")},
		{Reading: libtracer.ReadStampWrap, Vectors: p("ts-rel-wraps-above-2-64", "ts-rel-wraps-below-zero"),
			Branches: []vecgen.Branch{{Of: "libtracer/positive/ts-rel-wraps-above-2-64", Alternative: libtracer.AltSaturate,
				Expect: vectorset.Accept, Want: []string{"frames"}, Comment: "anchor 2^64-10 plus 20 ns is clamped to 2^64-1"}}},
		{Reading: libtracer.ReadUnknownNested, Vectors: p("unknown-nested-pl1-never-walked", "nest-unknown-pl1-not-counted", "unknown-nested-kept-opaque"),
			Branches: []vecgen.Branch{{Of: "libtracer/positive/unknown-nested-pl1-never-walked", Alternative: libtracer.AltWalkedWhenPL1,
				Expect: vectorset.Reject, Code: libtracer.CodeInvalid, Rules: []string{"LT-OPT-01", "LT-UNK-06"}, Comment: "the nested unknown PL=1 TLVs are walked, and their bytes are no TLVs: INVALID"}}},
		{Reading: libtracer.ReadDownReport, Select: namesRule("LT-TRUNC-02")},
		{Reading: libtracer.ReadDepthFloor, Vectors: append(p("nest-depth-5-budget-1-raised-to-5"), n("nest-depth-6-budget-1-raised-to-5")...),
			Branches: []vecgen.Branch{{Of: "libtracer/positive/nest-depth-5-budget-1-raised-to-5", Alternative: libtracer.AltBudgetAsConfigured,
				Expect: vectorset.Reject, Code: libtracer.CodeNestingTooDeep, Rules: []string{"LT-NEST-03", "LT-NEST-04"},
				Comment: "the requested budget of 1 is used as given: the second nested record opens a second level, nesting_too_deep"}}},
		{Reading: libtracer.ReadCRC16Variant, Select: carriesCRC16},
		{Reading: libtracer.ReadStoredBits, Select: stripsATrailer},
		{Reading: libtracer.ReadAssignedTypes, Select: carriesUnassignedCore},
	}
	// Vectors derived from those above (systematic mutations) whose
	// expectation a branch the reference can take changes as well; vecgen
	// finds them (every vector naming none of a branch's readings must pass
	// under it) and they are listed here.
	return vecgen.WithAffected(uses, affected)
}

// affected lists, by reading, the mutations of its vectors that its
// branches change.
var affected = [][2]string{
	{"LT-READ-16", "libtracer/positive/unknown-nested-pl1-never-walked--f0-opt-bit2"},
	{"LT-READ-16", "libtracer/positive/type-boundaries-walked-or-opaque--f0-opt-bit2"},
	{"LT-READ-16", "libtracer/positive/type-boundaries-walked-or-opaque"},
	{"LT-READ-08", "libtracer/positive/report-unknown-outer-bad-crc-is-crc-fail--f0-opt-bit1"},
	{"LT-READ-08", "libtracer/positive/report-unknown-outer-bad-crc-is-crc-fail"},
	{"LT-READ-08", "libtracer/positive/report-stream-continues-after-unknown-05--f0-opt-bit6"},
	{"LT-READ-08", "libtracer/positive/report-continues-after-path-invalid--f0-opt-bit6"},
	{"LT-READ-08", "libtracer/positive/report-continues-after-nested-error--f0-opt-bit1"},
	{"LT-READ-08", "libtracer/positive/report-continues-after-crc-fail--f0-opt-bit6"},
	{"LT-READ-08", "libtracer/negative/report-unknown-outer-bad-crc-is-crc-fail--f0-length-plus-1"},
	{"LT-READ-08", "libtracer/negative/report-unknown-outer-bad-crc-is-crc-fail--cut-last-byte"},
	{"LT-READ-08", "libtracer/negative/report-stream-continues-after-unknown-05--f0-length-plus-1"},
	{"LT-READ-08", "libtracer/negative/report-stream-continues-after-unknown-05--cut-last-byte"},
	{"LT-READ-08", "libtracer/negative/report-continues-after-unknown-outer--f0-length-plus-1"},
	{"LT-READ-08", "libtracer/negative/report-continues-after-unknown-outer--cut-last-byte"},
	{"LT-READ-08", "libtracer/negative/report-continues-after-path-invalid--f0-length-plus-1"},
	{"LT-READ-08", "libtracer/negative/report-continues-after-path-invalid--cut-last-byte"},
	{"LT-READ-08", "libtracer/negative/report-continues-after-nesting-too-deep--f0-length-plus-1"},
	{"LT-READ-08", "libtracer/negative/report-continues-after-nesting-too-deep--cut-last-byte"},
	{"LT-READ-08", "libtracer/negative/report-continues-after-nested-error--cut-last-byte"},
	{"LT-READ-08", "libtracer/negative/report-continues-after-crc-fail--f0-length-plus-1"},
	{"LT-READ-08", "libtracer/negative/report-continues-after-crc-fail--cut-last-byte"},
	{"LT-READ-02", "libtracer/positive/worked-examples-back-to-back--f0-opt-bit6"},
	{"LT-READ-02", "libtracer/positive/type-boundaries-walked-or-opaque--f0-opt-bit2"},
	{"LT-READ-02", "libtracer/positive/type-boundaries-walked-or-opaque"},
	{"LT-READ-02", "libtracer/positive/strip-examples-back-to-back--f0-opt-bit6"},
	{"LT-READ-02", "libtracer/positive/ex01-status-ok-minimum-frame-stream--f0-opt-bit6"},
	{"LT-READ-02", "libtracer/positive/ex01-status-ok-minimum-frame--f0-opt-bit6"},
	{"LT-READ-02", "libtracer/positive/empty-pl1-stamped--f0-opt-bit2"},
	{"LT-READ-02", "libtracer/positive/empty-pl1-crc16--f0-opt-bit1"},
	{"LT-READ-02", "libtracer/negative/nest-empty-pl1-counts-as-a-level"},
	{"LT-READ-02", "libtracer/negative/nest-core-types-depth-6-budget-5"},
	{"LT-READ-02", "libtracer/negative/empty-pl1-crc32c--f0-opt-bit2"},
	{"LT-READ-02", "libtracer/negative/empty-pl1-crc32c--f0-crc-byte"},
	{"LT-READ-02", "libtracer/negative/empty-pl1-crc16--f0-crc-byte"},
}

// namesRule selects the vectors reported under one of the given rules.
func namesRule(ids ...string) func(v *vecgen.Vector) bool {
	return func(v *vecgen.Vector) bool {
		for _, id := range ids {
			if slices.Contains(v.Rules, id) {
				return true
			}
		}
		return false
	}
}

// carriesCRC16 selects the vectors whose expectation turns on the CRC-16
// variant (LT-READ-19): those reported under a CRC-16 rule, and the
// decode vectors holding a frame, at any depth the reference walks, with a
// CRC-16 trailer (CR=1, CW=1).
func carriesCRC16(v *vecgen.Vector) bool {
	if namesRule("LT-CRC-05", "LT-CRC-06", "LT-CRC-07", "LT-CRC-08", "LT-CRC-10")(v) {
		return true
	}
	return anyFrame(v, func(f libtracer.Frame) bool { return f.Opt.Has(libtracer.OptCR | libtracer.OptCW) })
}

// anyFrame reports whether v is a decode vector one of whose frames, at
// any depth the reference lists, has property p.
func anyFrame(v *vecgen.Vector, p func(libtracer.Frame) bool) bool {
	if v.Op != tracerspec.OpDecode || v.Data == nil {
		return false
	}
	var has func(fs []libtracer.Frame) bool
	has = func(fs []libtracer.Frame) bool {
		for _, f := range fs {
			if p(f) || has(f.Children) {
				return true
			}
		}
		return false
	}
	return has(libtracer.Decode(v.Data, libtracer.Limits{}).Frames)
}

// stripsATrailer selects the accepted decode vectors that strip (args
// "strip") a top-level frame that has a trailer: the stored bytes they
// expect have the TS and CR bits cleared (LT-READ-20).
func stripsATrailer(v *vecgen.Vector) bool {
	if v.Op != tracerspec.OpDecode || v.Expect != vectorset.Accept || v.Data == nil {
		return false
	}
	var args struct {
		Strip bool `json:"strip"`
	}
	if json.Unmarshal(v.Args, &args) != nil || !args.Strip {
		return false
	}
	for _, f := range libtracer.Decode(v.Data, libtracer.Limits{}).Frames {
		if f.Opt&(libtracer.OptTS|libtracer.OptCR) != 0 {
			return true
		}
	}
	return false
}

// carriesUnassignedCore selects the decode vectors holding a frame, at
// any depth the reference lists, of an unassigned core type 0x0E..0x1F,
// that are accepted or rejected with type_mismatch: their expectation
// turns on which core types are assigned (LT-READ-21). A rejection for
// another reason (a CRC, a truncation) is the same under either reading.
func carriesUnassignedCore(v *vecgen.Vector) bool {
	if v.Expect != vectorset.Accept && v.Code != libtracer.CodeTypeMismatch && !slices.Contains(v.AcceptableCodes, libtracer.CodeTypeMismatch) {
		return false
	}
	return anyFrame(v, func(f libtracer.Frame) bool { return f.Type >= 0x0E && f.Type <= 0x1F })
}
