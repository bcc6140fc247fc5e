package tracervec

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/threespec/conformance/impl/libtracer"
	"github.com/threespec/conformance/impl/libtracer/tracermodel"
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
	uses := []vecgen.ReadingUse{
		{Reading: libtracer.ReadEmptyInput, Vectors: append(n("empty-datagram"), p("stream-empty-clean-end")...),
			Branches: []vecgen.Branch{{Of: "libtracer/negative/empty-datagram", Alternative: libtracer.AltEmptyDatagramNoFrames,
				Expect: vectorset.Accept, Result: json.RawMessage(`{"frames":[]}`),
				Comment: "an empty datagram, like an empty stream, holds no frame"}}},
		{Reading: libtracer.ReadEmptyStructured, Vectors: p("empty-pl1-crc16", "empty-pl1-crc32c", "empty-pl1-nested", "empty-pl1-path-root", "empty-pl1-stamped"),
			Branches: []vecgen.Branch{{Of: "libtracer/positive/empty-pl1-path-root", Alternative: libtracer.AltEmptyStructuredInvalid,
				Expect: vectorset.Reject, Code: libtracer.CodeInvalid, Comment: "a PL=1 PATH with an empty payload has no child: INVALID"}}},
		{Reading: libtracer.ReadContinue, Vectors: append(p("report-continues-after-crc-fail", "report-continues-after-nested-reserved-bit", "report-continues-after-nesting-too-deep",
			"report-continues-after-path-invalid", "report-continues-after-unknown-outer", "report-stream-continues-after-unknown-05"),
			n("report-framing-error-still-rejects", "report-framing-error-still-rejects-stream")...),
			Branches: []vecgen.Branch{{Of: "libtracer/positive/report-continues-after-crc-fail", Alternative: libtracer.AltStopAtFirstError,
				Expect: vectorset.Reject, Code: libtracer.CodeCRCFail, Rules: []string{"LT-CRC-09", "LT-CTX-04"}, Comment: "the CRC failure of EX-05 ends the parse: crc_fail"}}},
		{Reading: libtracer.ReadEmptyLevel, Vectors: n("nest-empty-pl1-counts-as-a-level"),
			Branches: []vecgen.Branch{{Of: "libtracer/negative/nest-empty-pl1-counts-as-a-level", Alternative: libtracer.AltEmptyFree,
				Expect: vectorset.Accept, Want: []string{"frames"}, Comment: "the empty PATH at the sixth level needs no node: the nest is accepted"}}},
		{Reading: libtracer.ReadReturnPath, Select: outerUnknownReported,
			Branches: []vecgen.Branch{{Of: "libtracer/negative/unknown-outer-0e", Alternative: libtracer.AltSilentlySkipped,
				Expect: vectorset.Accept, Want: []string{"frames"}, Comment: "a decode request is no return path: the outer 0x0E is skipped over as opaque bytes"}}},
		{Reading: libtracer.ReadStampWrap, Vectors: p("ts-rel-wraps-above-2-64", "ts-rel-wraps-below-zero"),
			Branches: []vecgen.Branch{{Of: "libtracer/positive/ts-rel-wraps-above-2-64", Alternative: libtracer.AltSaturate,
				Expect: vectorset.Accept, Want: []string{"frames"}, Comment: "anchor 2^64-10 plus 20 ns is clamped to 2^64-1"}}},
		{Reading: libtracer.ReadDownReport, Select: namesRule("LT-TRUNC-02"),
			Branches: []vecgen.Branch{{Of: "libtracer/negative/max-tlv-16mib-header-only-stream", Alternative: libtracer.AltDownRecommended,
				Expect: vectorset.Reject, Code: libtracer.CodeTruncated, Rules: []string{"LT-TRUNC-02", "LT-TRUNC-03"},
				Comment: "the stream closes inside the frame, reported as for a datagram: tr::frame::truncated"}}},
		{Reading: libtracer.ReadDepthFloor, Vectors: append(p("nest-core-depth-5-budget-1-raised-to-5"), n("nest-core-depth-6-budget-1-raised-to-5")...),
			Branches: []vecgen.Branch{{Of: "libtracer/positive/nest-core-depth-5-budget-1-raised-to-5", Alternative: libtracer.AltBudgetAsConfigured,
				Expect: vectorset.Reject, Code: libtracer.CodeNestingTooDeep, Rules: []string{"LT-NEST-03", "LT-NEST-04"},
				Comment: "the requested budget of 1 is used as given: the second nested core frame opens a second level, nesting_too_deep"}}},
		{Reading: libtracer.ReadCRC16Variant, Select: carriesCRC16,
			Branches: []vecgen.Branch{{Of: "libtracer/positive/size02-crc16-only-overhead-6", Alternative: libtracer.AltReflected,
				Expect: vectorset.Reject, Code: libtracer.CodeCRCFail, Rules: []string{"LT-CRC-10", "LT-CRC-05"},
				Comment: "the reflected CRC-16 of ca fe is not the CRC-16/CCITT-FALSE the frame carries: crc_fail"}}},
		{Reading: libtracer.ReadStoredBits, Select: stripsATrailer,
			Branches: []vecgen.Branch{{Of: "libtracer/positive/strip-ex04-stored", Alternative: libtracer.AltHeaderKept,
				Expect: vectorset.Accept, Want: []string{"frames", "stored"}, Comment: "the stored header keeps TS and CR set: 01 30 04 00, then the payload"}}},
		{Reading: libtracer.ReadAssignedTypes, Select: carriesUnassignedCore,
			Branches: []vecgen.Branch{{Of: "libtracer/negative/unknown-outer-0e", Alternative: libtracer.AltWholeCoreRangeKnown,
				Expect: vectorset.Accept, Want: []string{"frames"}, Comment: "0x0E is a known core type: the outer VALUE-like TLV is accepted"}}},
		{Reading: libtracer.ReadStandaloneRel, Select: topLevelRelative,
			Branches: []vecgen.Branch{{Of: "libtracer/negative/ts-rel-no-anchor-depth-1", Alternative: libtracer.AltAcceptedAsShown,
				Expect: vectorset.Accept, Want: []string{"frames"}, Comment: "EX-03's 12 bytes alone are accepted as the example shows them"}}},
		{Reading: libtracer.ReadDatagramFrames, Select: severalInADatagram,
			Branches: []vecgen.Branch{{Of: "libtracer/positive/ex05-value-5-bytes-crc32c--append-status-ok", Alternative: libtracer.AltOnePerDatagram,
				Expect: vectorset.Reject, Code: libtracer.CodeInvalid, Rules: []string{"LT-CTX-04"}, Comment: "the datagram's one TLV is EX-05: the STATUS after it is INVALID"}}},
		{Reading: libtracer.ReadSmallestCRC, Select: encodesSmallestCRC,
			Branches: []vecgen.Branch{{Of: "libtracer/positive/encode-smallest-ex05-value-5-bytes-crc32c", Alternative: libtracer.AltCRC32CDefault,
				Expect: vectorset.Accept, Want: []string{"bytes"}, Comment: "CR=1 keeps CRC-32C, the DEFAULT: EX-05's own 13 bytes"}}},
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
	{"LT-READ-18", "libtracer/positive/nest-core-depth-5-budget-1-raised-to-5--f0-opt-bit1"},
	{"LT-READ-12", "libtracer/negative/nest-core-types-depth-6-budget-5"},
	{"LT-READ-08", "libtracer/positive/report-stream-continues-after-unknown-05--f0-opt-bit6"},
	{"LT-READ-08", "libtracer/positive/report-continues-after-path-invalid--f0-opt-bit6"},
	{"LT-READ-08", "libtracer/negative/report-stream-continues-after-unknown-05--f0-length-plus-1"},
	{"LT-READ-08", "libtracer/negative/report-stream-continues-after-unknown-05--cut-last-byte"},
	{"LT-READ-08", "libtracer/negative/report-continues-after-unknown-outer--f0-length-plus-1"},
	{"LT-READ-08", "libtracer/negative/report-continues-after-unknown-outer--cut-last-byte"},
	{"LT-READ-08", "libtracer/negative/report-continues-after-path-invalid--f0-length-plus-1"},
	{"LT-READ-08", "libtracer/negative/report-continues-after-path-invalid--cut-last-byte"},
	{"LT-READ-08", "libtracer/negative/report-continues-after-nesting-too-deep--f0-length-plus-1"},
	{"LT-READ-08", "libtracer/negative/report-continues-after-nesting-too-deep--cut-last-byte"},
	{"LT-READ-08", "libtracer/negative/report-continues-after-nested-reserved-bit--cut-last-byte"},
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
	crc16 := func(_, opt uint8) bool { return opt&(bitCR|bitCW) == bitCR|bitCW }
	if v.Op == tracerspec.OpEncode {
		out, digest, ok := encoded(v)
		return ok && (digest || anyWireFrame(out, crc16))
	}
	return v.Op == tracerspec.OpDecode && anyWireFrame(inputOf(v), crc16)
}

// encoded is the output an accepted libtracer.encode vector expects;
// digest when it is given by its digest only (too large to list).
func encoded(v *vecgen.Vector) (out []byte, digest, ok bool) {
	if v.Op != tracerspec.OpEncode || v.Expect != vectorset.Accept {
		return nil, false, false
	}
	var res struct {
		Bytes json.RawMessage `json:"bytes"`
	}
	var b64 string
	if json.Unmarshal(v.Result, &res) != nil {
		return nil, false, false
	}
	if json.Unmarshal(res.Bytes, &b64) != nil {
		return nil, true, true
	}
	b, err := base64.StdEncoding.DecodeString(b64)
	return b, false, err == nil
}

// anyWireFrame reports whether a frame of in, at any depth a receiver
// walks (PL=1 and a type it knows, LT-READ-21's alternative included),
// has type and opt for which p holds; it reads as far as the bytes frame,
// whatever else fails.
func anyWireFrame(in []byte, p func(typ, opt uint8) bool) bool {
	for off := 0; off < len(in); {
		_, size, complete := tracermodel.Header(in[off:], ^uint64(0))
		if !complete || size > uint64(len(in)-off) {
			return false
		}
		typ, opt := in[off], in[off+1]
		if p(typ, opt) {
			return true
		}
		if opt&bitPL != 0 && (known(typ) || typ >= 0x0E && typ <= 0x1F) {
			h := hdrSize(opt)
			l := int(size) - h - tsSize(opt) - crcSize(opt)
			if anyWireFrame(in[off+h:off+h+l], p) {
				return true
			}
		}
		off += int(size)
	}
	return false
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
	return v.Op == tracerspec.OpDecode && anyWireFrame(inputOf(v), func(typ, _ uint8) bool { return typ >= 0x0E && typ <= 0x1F })
}

// topLevel lists the top-level headers of a decode vector's input, as far
// as they frame: each frame's type, opt and offset.
func topLevel(v *vecgen.Vector) (heads [][2]uint8) {
	data := inputOf(v)
	if v.Op != tracerspec.OpDecode {
		return nil
	}
	for off := 0; off < len(data); {
		bad, size, complete := tracermodel.Header(data[off:], ^uint64(0))
		if bad != "" || !complete || size > uint64(len(data)-off) {
			return heads
		}
		heads = append(heads, [2]uint8{data[off], data[off+1]})
		off += int(size)
	}
	return heads
}

// inputOf is a vector's input: its file's bytes, or its recipe's when the
// recipe names no file (the generator's compressed large inputs).
func inputOf(v *vecgen.Vector) []byte {
	if v.Data != nil || v.Recipe == nil {
		return v.Data
	}
	b, err := v.Recipe.Expand(func(p string) ([]byte, error) { return nil, fmt.Errorf("file part %s", p) })
	if err != nil {
		return nil
	}
	return b
}

// outerUnknownReported selects the decode vectors with a top-level TLV
// of a type a v1 receiver does not know that are rejected with
// type_mismatch or list it (report "frames"): their expectation turns on
// whether a decode request is a return path (LT-READ-14).
func outerUnknownReported(v *vecgen.Vector) bool {
	if v.Expect == vectorset.Reject && v.Code != libtracer.CodeTypeMismatch && !slices.Contains(v.AcceptableCodes, libtracer.CodeTypeMismatch) {
		return false
	}
	for _, h := range topLevel(v) {
		if !known(h[0]) {
			return v.Expect == vectorset.Reject || strings.Contains(string(v.Result), libtracer.CodeTypeMismatch)
		}
	}
	return false
}

// topLevelRelative selects the decode vectors with a top-level TLV whose
// stamp is relative (TS=1, TF=1) that are rejected with path::invalid or
// list it: their expectation turns on whether the worked example's frame
// stands alone (LT-READ-22).
func topLevelRelative(v *vecgen.Vector) bool {
	if v.Expect == vectorset.Reject && v.Code != libtracer.CodePathInvalid && !slices.Contains(v.AcceptableCodes, libtracer.CodePathInvalid) {
		return false
	}
	for _, h := range topLevel(v) {
		if h[1]&(bitTS|bitTF) == bitTS|bitTF {
			return v.Expect == vectorset.Reject || strings.Contains(string(v.Result), libtracer.CodePathInvalid)
		}
	}
	return false
}

// severalInADatagram selects the datagram decode vectors whose input
// holds more than one top-level TLV, or a TLV and bytes after it: their
// expectation turns on whether a datagram carries one TLV (LT-READ-23).
func severalInADatagram(v *vecgen.Vector) bool {
	var a decodeArgs
	if v.Op != tracerspec.OpDecode || json.Unmarshal(v.Args, &a) != nil || a.Transport != transportDgram {
		return false
	}
	data := inputOf(v)
	heads := topLevel(v)
	if len(heads) == 0 {
		return false
	}
	size := 0
	for off, n := 0, 0; n < len(heads); n++ {
		_, sz, _ := tracermodel.Header(data[off:], ^uint64(0))
		off += int(sz)
		size = off
	}
	return len(heads) > 1 || size < len(data)
}

// encodesSmallestCRC selects the libtracer.encode vectors in mode
// "smallest" whose output holds a frame with a CRC: the width chosen
// turns on LT-READ-24.
func encodesSmallestCRC(v *vecgen.Vector) bool {
	var a struct {
		Mode string `json:"mode"`
	}
	if v.Op != tracerspec.OpEncode || v.Expect != vectorset.Accept || json.Unmarshal(v.Args, &a) != nil || a.Mode != "smallest" {
		return false
	}
	out, digest, ok := encoded(v)
	return ok && (digest || anyWireFrame(out, func(_, opt uint8) bool { return opt&bitCR != 0 }))
}
