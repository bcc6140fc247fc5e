package libtracer

import "github.com/threespec/conformance/impl/rules"

// Reading IDs of libtracer v1 (docs/READINGS.md). IDs are stable and never
// reused: LT-READ-03, 04, 05, 06, 07, 09, 10, 11, 13 and 16 are retired
// (RetiredReadings).
const (
	ReadEmptyInput      = "LT-READ-01"
	ReadEmptyStructured = "LT-READ-02"
	ReadContinue        = "LT-READ-08"
	ReadEmptyLevel      = "LT-READ-12"
	ReadReturnPath      = "LT-READ-14"
	ReadStampWrap       = "LT-READ-15"
	ReadDownReport      = "LT-READ-17"
	ReadDepthFloor      = "LT-READ-18"
	ReadCRC16Variant    = "LT-READ-19"
	ReadStoredBits      = "LT-READ-20"
	ReadAssignedTypes   = "LT-READ-21"
	ReadStandaloneRel   = "LT-READ-22"
	ReadDatagramFrames  = "LT-READ-23"
	ReadSmallestCRC     = "LT-READ-24"
)

// Alternatives the reference can be switched into (rules.Checks.Readings):
// every non-default alternative of every reading.
const (
	AltEmptyDatagramNoFrames  = "empty-datagram-no-frames"
	AltEmptyStructuredInvalid = "empty-structured-invalid"
	AltStopAtFirstError       = "stop-at-first-error"
	AltEmptyFree              = "empty-free"
	AltSilentlySkipped        = "silently-skipped"
	AltSaturate               = "saturate"
	AltDownRecommended        = "down-recommended"
	AltBudgetAsConfigured     = "budget-as-configured"
	AltReflected              = "reflected"
	AltHeaderKept             = "header-kept"
	AltWholeCoreRangeKnown    = "whole-core-range-known"
	AltAcceptedAsShown        = "accepted-as-shown"
	AltOnePerDatagram         = "one-per-datagram"
	AltCRC32CDefault          = "crc32c-default"
)

// readingDialect switches the flags of the dialect that are the other
// branches of the libtracer readings c takes: an empty PL=1 TLV
// INVALID (LT-READ-02), the first error ending the parse (LT-READ-08),
// wire-times clamped (LT-READ-15), a closed stream reported as truncated
// (LT-READ-17), the reflected CRC-16 (LT-READ-19), the stripped header
// kept (LT-READ-20), 0x0E..0x1F known (LT-READ-21). The same flags serve
// the fault proof, where they are what an implementation ignoring
// LT-NEST-06, LT-CTX-04, LT-TS-07, LT-TRUNC-02, LT-CRC-05, LT-LIFE-01 or
// LT-TYPE-03 does. The other alternatives are taken where the walker,
// the stream decoder and the encoder check (c.Takes).
func readingDialect(d *dialect, c rules.Checks) {
	d.emptyPL1Invalid = c.Takes(ReadEmptyStructured, AltEmptyStructuredInvalid)
	d.frameErrStops = c.Takes(ReadContinue, AltStopAtFirstError)
	d.tsSaturate = c.Takes(ReadStampWrap, AltSaturate)
	d.streamDownAsTrunc = c.Takes(ReadDownReport, AltDownRecommended)
	d.crc16.refl = c.Takes(ReadCRC16Variant, AltReflected)
	d.stripKeepsBits = c.Takes(ReadStoredBits, AltHeaderKept)
	d.core1F = c.Takes(ReadAssignedTypes, AltWholeCoreRangeKnown)
}

// RetiredReadings are the reading IDs that left the catalog (issue 26):
// the spec's words decide the question (the rule carries a clarified
// note), or no verdict depends on it (a precedence note: every vector
// accepts each code a spec-following check order gives first, computed
// by the generator, docs/VECTORS.md "Check order").
func RetiredReadings() []rules.RetiredReading {
	const order = "no verdict depends on it: the spec orders none of these checks, and every vector whose input fails both accepts either code (acceptable_codes, computed by the generator's check-order model, docs/VECTORS.md \"Check order\"); which one the reference reports first is a precedence note on "
	return []rules.RetiredReading{
		{ID: "LT-READ-03", Why: "no verdict depends on it: the spec names no code for a child that does not fit its parent's payload, and every such vector accepts INVALID and the transport's truncation code alike (acceptable_codes); the reference's INVALID is a precedence note on LT-NEST-05"},
		{ID: "LT-READ-04", Why: order + "LT-CRC-09 (a structured frame's CRC before its malformed children)"},
		{ID: "LT-READ-05", Why: "it moved only the reported frame: both nested CRC failures are tr::frame::crc_fail, and no vector compares a rejection's offset; that the outer frame is reported is a precedence note on LT-CRC-09"},
		{ID: "LT-READ-06", Why: order + "LT-TS-04 (an unanchored stamp before an unknown outer type)"},
		{ID: "LT-READ-07", Why: order + "LT-CTX-04 (the first error in byte order before a later framing error)"},
		{ID: "LT-READ-09", Why: "the spec decides: \"Every conforming receiver MUST accept all combinations of LL, CW, TF.\" (§Interop), and only bits 7 and 0 are reserved; LT-OPT-09 and LT-OPT-11 state it as the spec's, with a clarified note"},
		{ID: "LT-READ-10", Why: "the spec decides: \"length > MAX_TLV_BYTES (implementation-defined, recommended 16 MiB)\": a MiB is 2^20 bytes and only a length above the limit is rejected; another limit is the implementation's choice that the SHOULD of LT-TRUNC-07 already leaves (clarified note on LT-TRUNC-07)"},
		{ID: "LT-READ-11", Why: order + "LT-TRUNC-06 (a length above MAX_TLV_BYTES before the missing payload)"},
		{ID: "LT-READ-13", Why: order + "LT-UNK-03 (an unknown outer TLV's CRC before its type)"},
		{ID: "LT-READ-16", Why: "the spec decides: \"If nested inside a structured TLV (parent has opt.PL=1): treat as opaque bytes and continue.\" (§Handling unknown type codes): a nested unknown TLV is never walked, whatever its own PL; LT-UNK-06 carries a clarified note, and walking it is no alternative a testee may declare"},
	}
}

// Readings returns the readings catalog of libtracer v1: every place the
// project chose between defensible readings of the spec.
func Readings() []rules.Reading {
	r, alt := rules.ReadingMaker("libtracer"), rules.Alt
	const quoteTrunc = "§Truncation handling: If wire bytes end before the parser has consumed the full frame, it is a stream-level error:"
	return []rules.Reading{
		r(ReadEmptyInput, secTrunc, []rules.ID{RuleTruncEmptyDatagram, RuleTruncEmptyStream},
			[]string{quoteTrunc,
				"§Truncation handling: Datagram transports (UDP, single CAN frame): truncation is ERROR{tr::frame::truncated}.",
				"§Frame layout: Minimum frame: 4 bytes (empty payload, no trailer, default LL=0) — the empty STATUS=OK signal."},
			"Is an empty datagram a truncated frame, and an empty stream a clean end, or are both simply no frames?",
			"empty-datagram-truncated",
			"a datagram carries a frame and the minimum frame is 4 bytes, so zero bytes end before one is consumed; a stream may close between frames, and before the first is such a place",
			alt("empty-datagram-truncated", "an empty datagram is tr::frame::truncated; an empty stream ends cleanly with no frame"),
			alt(AltEmptyDatagramNoFrames, "an empty datagram, like an empty stream, holds no frame and is accepted")),
		r(ReadEmptyStructured, secNest, []rules.ID{RuleNestEmpty},
			[]string{"§Iterative parsing requirement: Conforming implementations MUST parse nested TLVs (structured TLVs with opt.PL=1) iteratively"},
			"Is a PL=1 TLV with an empty payload valid?",
			"empty-structured-valid",
			"an empty payload is a payload of zero children; the PATH of the root is naturally such a frame",
			alt("empty-structured-valid", "a PL=1 TLV with an empty payload is valid with zero children"),
			alt(AltEmptyStructuredInvalid, "a structured TLV needs at least one child; an empty one is INVALID")),
		r(ReadContinue, secUnknown, []rules.ID{RuleCtxBackToBack, RuleUnkContinue},
			[]string{"§Handling unknown type codes: MUST NOT crash; MUST continue parsing the surrounding stream."},
			"After an error inside a top-level TLV whose extent is known, does parsing go on with the next TLV, and does an error that breaks framing still reject?",
			"continue-within-framing",
			"\"continue parsing the surrounding stream\" is possible exactly while the frame's extent is known; when framing breaks nothing after it can be found",
			alt("continue-within-framing", "errors inside known extents are listed and parsing continues; framing errors reject"),
			alt(AltStopAtFirstError, "the first error ends the parse")),
		r(ReadEmptyLevel, secNest, []rules.ID{RuleNestTooDeep, RuleNestEmpty},
			[]string{"§Iterative parsing requirement: one explicit work-stack/arena node per open level"},
			"Does an empty structured TLV count as an open level of the work stack?",
			"empty-counts",
			"it is a structured TLV being walked, so it takes a node like any other",
			alt("empty-counts", "an empty PL=1 TLV is one open level"),
			alt(AltEmptyFree, "an empty PL=1 TLV needs no node: at the budget's last level an empty structured TLV is still accepted")),
		r(ReadReturnPath, secUnknown, []rules.ID{RuleUnkOuter},
			[]string{"§Handling unknown type codes: If the unknown TLV is the outer addressed TLV: respond with ERROR{tr::schema::type_mismatch} if a return path exists."},
			"Does a decoder report type_mismatch for an outer unknown TLV when it has no return path (a decode request)?",
			"always-reported",
			"a decoder answering the harness is its return path; the error is what a return path would carry",
			alt("always-reported", "the outer unknown TLV is listed with type_mismatch"),
			alt(AltSilentlySkipped, "with no return path no error is reported: the outer unknown TLV is skipped over as opaque bytes (listed, never walked) and the input accepted")),
		r(ReadStampWrap, secTS, []rules.ID{RuleTSWrap},
			[]string{"§Timestamp form: Wraparound: year 2554 (584 years from 1970). Acceptable.",
				"§Timestamp form: The TLV’s wire-time is the parent’s wire-time + offset."},
			"A relative stamp that takes the resolved wire-time below 0 or above 2^64-1: wrap, clamp or reject?",
			"wrap-modulo-2-64",
			"the wraparound note treats the u64 as wrapping; nothing makes such a frame invalid",
			alt("wrap-modulo-2-64", "the resolved time is computed modulo 2^64"),
			alt(AltSaturate, "the resolved time is clamped to 0 or 2^64-1")),
		r(ReadDownReport, secTrunc, []rules.ID{RuleTruncStreamDown, RuleTruncStreamWait},
			[]string{"§Truncation handling: Stream transports (TCP, UART, I²C): SHOULD wait for more bytes; report ERROR{tr::transport::down} if the stream is closed."},
			"Does the SHOULD of \"SHOULD wait for more bytes; report ERROR{tr::transport::down} if the stream is closed\" govern the report too, so that a stream receiver may report a closed stream's unfinished frame otherwise (as tr::frame::truncated)?",
			"down-required",
			"the SHOULD is the waiting's: a receiver that does not wait has nothing to report until the stream is closed, and then the sentence names the one code; the datagram line beside it gives truncated to datagrams only",
			alt("down-required", "a stream closed inside a frame is tr::transport::down"),
			alt(AltDownRecommended, "a stream receiver reports a closed stream's unfinished frame with another code: tr::frame::truncated, as for a datagram")),
		r(ReadDepthFloor, secNest, []rules.ID{RuleNestProtocolDepth, RuleNestBudget, RuleNestTooDeep},
			[]string{"§Iterative parsing requirement: Protocol-defined TLV shapes nest ≤ 5 by construction, so every conforming receiver parses every protocol frame at any budget;"},
			"Is \"every conforming receiver parses every protocol frame at any budget\" a floor on the work-stack budget for protocol frames (never below 5 open levels), or a remark that holds of the budgets receivers use? (User-data depth is \"a per-receiver capability\" either way: a user-type nest 2..5 deep at a budget below 5 is no question of this reading, and no vector asks it.)",
			"floor-of-5",
			"the sentence is a guarantee about every conforming receiver at any budget, which only a floor makes true: a receiver configured with fewer than 5 levels still parses a protocol frame 5 deep, and a budget below that is raised",
			alt("floor-of-5", "a requested budget below 5 is raised to 5: a protocol frame (core types) 5 deep parses, one 6 deep is nesting_too_deep"),
			alt(AltBudgetAsConfigured, "the budget is used as given: at a budget of 1 a protocol frame 2 deep is nesting_too_deep")),
		r(ReadCRC16Variant, secCRC16, []rules.ID{RuleCRC16Poly, RuleCRC16Check, RuleCRCVerify16},
			[]string{"§CRC-16-CCITT: Polynomial 0x1021, common variant.", "§CRC-16-CCITT: Initial value: 0xFFFF.", "§CRC-16-CCITT: Final XOR: 0x0000."},
			"Which CRC-16 with polynomial 0x1021, init 0xFFFF and final XOR 0 is the \"common variant\": the non-reflected one (CRC-16/CCITT-FALSE), or a reflected one (refin = refout = true)?",
			"ccitt-false",
			"with init 0xFFFF and no final XOR the non-reflected form is the one commonly called CRC-16-CCITT; the CRC-32C section names its reflected representation explicitly and this section names none",
			alt("ccitt-false", "not reflected: CRC-16-CCITT(\"123456789\") = 0x29B1"),
			alt(AltReflected, "reflected input and output (CRC-16/MCRF4XX): CRC-16(\"123456789\") = 0x6F91")),
		r(ReadStoredBits, secLife, []rules.ID{RuleLifeAtRest, RuleLifeStrip, RuleLifeRecord},
			[]string{"§Append-only-at-egress, strip-only-at-ingress: At rest again (after received, validated, stripped): [ header ] [ payload ] ← H + L bytes (same payload bytes)",
				"§Append-only-at-egress, strip-only-at-ingress: A recorder writing to disk: strip the trailer, store header+payload."},
			"When the trailer is stripped, are the header's TS and CR bits cleared with it, or is the header kept byte for byte?",
			"bits-cleared",
			"the stored H + L bytes must themselves be a TLV a receiver can read back; a header still announcing a trailer would make the stored bytes a truncated frame, and only the payload is said to stay identical",
			alt("bits-cleared", "the stripped header has TS = CR = 0; its other bits (TF and CW included) are kept"),
			alt(AltHeaderKept, "the stripped header is the received one, TS and CR still set")),
		r(ReadAssignedTypes, secType, []rules.ID{RuleTypeCore, RuleTypeFuture, RuleOptExtensions},
			[]string{"§Type code registry: `0x01` – `0x1F`	Core protocol types (05-protocol-tlvs.md)	Stable; the wire format does not version.",
				"§Type code registry: Type code 0x05 is reserved with no assigned meaning (see §rejected designs)."},
			"Which core type codes 0x01..0x1F does a v1 receiver know, when the chapter assigning them (05-protocol-tlvs.md) is not given: every code of the range but 0x05, or only those assigned?",
			"0x01-0x0d-assigned",
			"the range is the core types' room, not their list, and only 0x05 is singled out as unassigned; the project's design decisions (docs/DECISIONS.md) give 0x01..0x0D as assigned, so 0x0E..0x1F are unassigned core codes a v1 receiver handles as unknown",
			alt("0x01-0x0d-assigned", "0x01..0x0D (but 0x05) are known and walked when PL=1; 0x0E..0x1F are unknown types"),
			alt(AltWholeCoreRangeKnown, "every code of 0x01..0x1F but 0x05 is a known core type: a top-level 0x0E..0x1F TLV is accepted, and walked when PL=1")),
		r(ReadStandaloneRel, secExamples, []rules.ID{RuleTSNoAnchor, RuleExU32Rel},
			[]string{"§Worked frame examples: A 4-byte payload with 4-byte relative wire-time, no CRC:",
				"§Worked frame examples: 12 bytes total = three 32-bit aligned chunks at offsets 0, 4, 8.",
				"§Timestamp form: A TLV with TF=1 whose ancestor chain has no trailer_ts MUST be rejected with ERROR{tr::path::invalid} (the relative timestamp is meaningless without an anchor)."},
			"Is the 12-byte frame of the relative-stamp worked example, shown standalone, a frame a receiver accepts on its own at the top level, or a child whose standalone form is rejected?",
			"rejected-unanchored",
			"the MUST sentence names the case exactly: a top-level TLV has no ancestor, so its ancestor chain has no trailer_ts; the example shows the frame's bytes, and its section says relative stamps are \"for children inside a timed structured TLV\", where the suite shows it (inside a stamped user record)",
			alt("rejected-unanchored", "the frame alone at the top level is tr::path::invalid; inside a stamped record it is accepted"),
			alt(AltAcceptedAsShown, "a top-level TLV with a relative stamp is accepted as the example shows it, its stamp left relative to nothing; nested unanchored stamps are still tr::path::invalid")),
		r(ReadDatagramFrames, secTrunc, []rules.ID{RuleCtxBackToBack},
			[]string{"§Truncation handling: Datagram transports (UDP, single CAN frame): truncation is ERROR{tr::frame::truncated}.",
				"§Two parser contexts: Wire-receive	Single contiguous transport buffer	`offset += child_size` within one buffer"},
			"Does a datagram carry one TLV, or any number back to back, as a stream does?",
			"several-back-to-back",
			"no sentence limits a datagram to one TLV; the wire-receive context advances offset += child_size within one buffer, and a receiver that reads a second TLV after the first asks nothing the words do not; rejecting the bytes after the first TLV would add a condition the spec does not state",
			alt("several-back-to-back", "a datagram holds any number of top-level TLVs back to back, each read in turn"),
			alt(AltOnePerDatagram, "a datagram carries exactly one TLV: bytes after it are INVALID")),
		r(ReadSmallestCRC, secInterop, []rules.ID{RuleIopSmallest},
			[]string{"§Interop: A minimal-feature implementation MAY emit only the smaller variants (LL=0, CW=1, TF=1 where applicable) for its outgoing TLVs.",
				"§Interop: a sender simply SHOULD default to the smaller variants and use a larger one only when the smaller would not fit.",
				"§Options bitfield: CW  CRC width.             0 = CRC-32C (4 bytes). DEFAULT."},
			"Which CRC width does a sender choosing the smaller variants give a frame with CR=1: CRC-16 (CW=1, the smaller variant the interop section names), or CRC-32C, the width the options table marks DEFAULT?",
			"crc16-smaller",
			"the interop sentence names CW=1 among the smaller variants a sender SHOULD default to; the table's DEFAULT is the value of a cleared bit, not a sender's recommendation",
			alt("crc16-smaller", "CR=1 frames are encoded with CRC-16-CCITT (CW=1)"),
			alt(AltCRC32CDefault, "CR=1 frames are encoded with CRC-32C (CW=0), the table's DEFAULT; LL and TF still take the smaller variant")),
	}
}
