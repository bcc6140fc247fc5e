package libtracer

import "github.com/threespec/conformance/impl/rules"

// Reading IDs of libtracer v1 (docs/READINGS.md). IDs are stable.
const (
	ReadEmptyInput       = "LT-READ-01"
	ReadEmptyStructured  = "LT-READ-02"
	ReadChildrenFill     = "LT-READ-03"
	ReadCRCFirst         = "LT-READ-04"
	ReadOuterCRCFirst    = "LT-READ-05"
	ReadAnchorBeforeType = "LT-READ-06"
	ReadByteOrder        = "LT-READ-07"
	ReadContinue         = "LT-READ-08"
	ReadIgnoredBits      = "LT-READ-09"
	ReadMaxTLVDefault    = "LT-READ-10"
	ReadMaxBeforeTrunc   = "LT-READ-11"
	ReadEmptyLevel       = "LT-READ-12"
	ReadUnknownCRC       = "LT-READ-13"
	ReadReturnPath       = "LT-READ-14"
	ReadStampWrap        = "LT-READ-15"
	ReadUnknownNested    = "LT-READ-16"
	ReadDownReport       = "LT-READ-17"
	ReadDepthFloor       = "LT-READ-18"
	ReadCRC16Variant     = "LT-READ-19"
	ReadStoredBits       = "LT-READ-20"
	ReadAssignedTypes    = "LT-READ-21"
)

// Alternatives the reference can be switched into (rules.Checks.Readings).
const (
	AltEmptyDatagramNoFrames  = "empty-datagram-no-frames"
	AltEmptyStructuredInvalid = "empty-structured-invalid"
	AltStopAtFirstError       = "stop-at-first-error"
	AltSaturate               = "saturate"
	AltWalkedWhenPL1          = "walked-when-pl1"
	AltBudgetAsConfigured     = "budget-as-configured"
)

// readingDialect switches the flags of the dialect that are the other
// branches of the libtracer readings c takes: an empty PL=1 TLV
// INVALID (LT-READ-02), the first error ending the parse (LT-READ-08),
// wire-times clamped (LT-READ-15), nested unknown PL=1 TLVs walked
// (LT-READ-16). The same flags serve the fault proof, where they are what
// an implementation ignoring LT-NEST-06, LT-CTX-04, LT-TS-07 or LT-UNK-06
// does.
func readingDialect(d *dialect, c rules.Checks) {
	d.emptyPL1Invalid = c.Takes(ReadEmptyStructured, AltEmptyStructuredInvalid)
	d.frameErrStops = c.Takes(ReadContinue, AltStopAtFirstError)
	d.tsSaturate = c.Takes(ReadStampWrap, AltSaturate)
	d.unknownWalked = c.Takes(ReadUnknownNested, AltWalkedWhenPL1)
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
		r(ReadChildrenFill, secNest, []rules.ID{RuleNestExactFill},
			[]string{quoteTrunc, "§Truncation handling: Datagram transports (UDP, single CAN frame): truncation is ERROR{tr::frame::truncated}."},
			"A child that overruns its parent's payload, or a remainder too short for a header: INVALID, or truncation?",
			"invalid",
			"the parent's bytes are all there; its content is malformed, and truncation is what the wire does, not what a payload holds",
			alt("invalid", "INVALID"),
			alt("truncated", "tr::frame::truncated (on a stream too: the child's frame ends early)")),
		r(ReadCRCFirst, secCRC, []rules.ID{RuleCRCVerify32, RuleCRCVerify16, RuleNestExactFill},
			[]string{"§CRC: A receiver that sees CR=1 MUST verify whichever variant CW selects; mismatches return ERROR{tr::frame::crc_fail}."},
			"A structured frame whose CRC fails and whose children are malformed: crc_fail, or the children's error?",
			"crc-before-children",
			"the CRC covers the payload, so a failing CRC means the children cannot be trusted as parsed; both codes report the input correctly",
			alt("crc-before-children", "tr::frame::crc_fail"),
			alt("children-before-crc", "the first child's error (INVALID)")),
		r(ReadOuterCRCFirst, secCRC, []rules.ID{RuleCRCVerify32, RuleCRCVerify16},
			[]string{"§CRC: mismatches return ERROR{tr::frame::crc_fail}."},
			"When nested CRCs both fail, which frame is reported?",
			"outermost",
			"the outer CRC is checked before its payload is walked; the code is crc_fail either way, only the offset differs",
			alt("outermost", "the outer frame's crc_fail"),
			alt("innermost", "the inner frame's crc_fail")),
		r(ReadAnchorBeforeType, secTS, []rules.ID{RuleTSNoAnchor, RuleUnkOuter},
			[]string{"§Timestamp form: A TLV with TF=1 whose ancestor chain has no trailer_ts MUST be rejected with ERROR{tr::path::invalid}",
				"§Handling unknown type codes: If the unknown TLV is the outer addressed TLV: respond with ERROR{tr::schema::type_mismatch} if a return path exists."},
			"An outer TLV of an unknown type with an unanchored relative stamp: path::invalid or type_mismatch?",
			"path-invalid-first",
			"framing (stamps included) is type-blind and checked before the type is looked at; both codes are correct reports",
			alt("path-invalid-first", "tr::path::invalid"),
			alt("type-mismatch-first", "tr::schema::type_mismatch")),
		r(ReadByteOrder, secTrunc, []rules.ID{RuleCtxBackToBack, RuleCRCVerify32},
			[]string{quoteTrunc, "§CRC: mismatches return ERROR{tr::frame::crc_fail}."},
			"With a CRC failure in one frame and a truncation after it, which is the input's error?",
			"first-in-byte-order",
			"frames are parsed in order and the first failure is met first",
			alt("first-in-byte-order", "the first error in byte order (crc_fail)"),
			alt("framing-error-first", "the error that breaks framing (truncated, or transport::down on a stream)")),
		r(ReadContinue, secUnknown, []rules.ID{RuleCtxBackToBack, RuleUnkContinue},
			[]string{"§Handling unknown type codes: MUST NOT crash; MUST continue parsing the surrounding stream."},
			"After an error inside a top-level TLV whose extent is known, does parsing go on with the next TLV, and does an error that breaks framing still reject?",
			"continue-within-framing",
			"\"continue parsing the surrounding stream\" is possible exactly while the frame's extent is known; when framing breaks nothing after it can be found",
			alt("continue-within-framing", "errors inside known extents are listed and parsing continues; framing errors reject"),
			alt(AltStopAtFirstError, "the first error ends the parse")),
		r(ReadIgnoredBits, secOpt, []rules.ID{RuleOptCWIgnored, RuleOptTFIgnored, RuleIopAcceptAll},
			[]string{"§Frame layout: trailer_crc u32 LE Optional, present iff opt.CR = 1, opt.CW = 0",
				"§Interop: Every conforming receiver MUST accept all combinations of LL, CW, TF."},
			"Is CW=1 with CR=0 (or TF=1 with TS=0) accepted, or a meaningless bit to reject?",
			"accepted-and-ignored",
			"every combination of LL, CW and TF must be accepted, and only bit 7 and bit 0 are reserved",
			alt("accepted-and-ignored", "the bit is accepted, no trailer field is read, and it is kept in opt"),
			alt("rejected-as-invalid", "the bit without its trailer is INVALID")),
		r(ReadMaxTLVDefault, secTrunc, []rules.ID{RuleTruncMaxDefault, RuleTruncMaxTLV},
			[]string{"§Truncation handling: A header read that succeeds but encounters length > MAX_TLV_BYTES (implementation-defined, recommended 16 MiB) MUST be rejected with ERROR=INVALID without allocating the segment."},
			"Is a length equal to 16 MiB within the recommended default, and is 16 MiB 16,777,216 bytes?",
			"mebibytes-inclusive",
			"MiB is 2^20 bytes, and the sentence rejects only length > MAX_TLV_BYTES",
			alt("mebibytes-inclusive", "16777216 is within the limit; 16777217 is INVALID"),
			alt("other-default", "another implementation-defined MAX_TLV_BYTES (it is only recommended)")),
		r(ReadMaxBeforeTrunc, secTrunc, []rules.ID{RuleTruncMaxTLV, RuleTruncDatagram},
			[]string{"§Truncation handling: ... MUST be rejected with ERROR=INVALID without allocating the segment.",
				"§Truncation handling: Implementations MUST validate length against available buffer before reading any payload byte."},
			"A header over MAX_TLV_BYTES with no payload after it: INVALID, or truncated (or transport::down)?",
			"limit-first",
			"the limit is judged from the header alone, before any payload is awaited",
			alt("limit-first", "INVALID"),
			alt("truncation-first", "the truncation code of the transport")),
		r(ReadEmptyLevel, secNest, []rules.ID{RuleNestTooDeep, RuleNestEmpty},
			[]string{"§Iterative parsing requirement: one explicit work-stack/arena node per open level"},
			"Does an empty structured TLV count as an open level of the work stack?",
			"empty-counts",
			"it is a structured TLV being walked, so it takes a node like any other",
			alt("empty-counts", "an empty PL=1 TLV is one open level"),
			alt("empty-free", "an empty PL=1 TLV needs no node")),
		r(ReadUnknownCRC, secUnknown, []rules.ID{RuleUnkCRC, RuleUnkOuter, RuleCRCVerify32, RuleCRCVerify16},
			[]string{"§Handling unknown type codes: MUST validate CRC (if present) and respect length when skipping over the unknown TLV.",
				"§Handling unknown type codes: If the unknown TLV is the outer addressed TLV: respond with ERROR{tr::schema::type_mismatch} if a return path exists."},
			"An outer unknown TLV whose CRC fails: crc_fail or type_mismatch?",
			"crc-first",
			"the CRC is validated for every type before the type is judged; both are correct reports of the input",
			alt("crc-first", "tr::frame::crc_fail"),
			alt("type-mismatch-first", "tr::schema::type_mismatch")),
		r(ReadReturnPath, secUnknown, []rules.ID{RuleUnkOuter},
			[]string{"§Handling unknown type codes: If the unknown TLV is the outer addressed TLV: respond with ERROR{tr::schema::type_mismatch} if a return path exists."},
			"Does a decoder report type_mismatch for an outer unknown TLV when it has no return path (a decode request)?",
			"always-reported",
			"a decoder answering the harness is its return path; the error is what a return path would carry",
			alt("always-reported", "the outer unknown TLV is listed with type_mismatch"),
			alt("silently-skipped", "with no return path the TLV is skipped without an error")),
		r(ReadStampWrap, secTS, []rules.ID{RuleTSWrap},
			[]string{"§Timestamp form: Wraparound: year 2554 (584 years from 1970). Acceptable.",
				"§Timestamp form: The TLV’s wire-time is the parent’s wire-time + offset."},
			"A relative stamp that takes the resolved wire-time below 0 or above 2^64-1: wrap, clamp or reject?",
			"wrap-modulo-2-64",
			"the wraparound note treats the u64 as wrapping; nothing makes such a frame invalid",
			alt("wrap-modulo-2-64", "the resolved time is computed modulo 2^64"),
			alt(AltSaturate, "the resolved time is clamped to 0 or 2^64-1")),
		r(ReadUnknownNested, secUnknown, []rules.ID{RuleUnkNested},
			[]string{"§Handling unknown type codes: If nested inside a structured TLV (parent has opt.PL=1): treat as opaque bytes and continue."},
			"Is a nested unknown TLV with PL=1 walked into?",
			"opaque-never-walked",
			"\"treat as opaque bytes\": its payload is not parsed as children",
			alt("opaque-never-walked", "its payload is kept as bytes, never walked"),
			alt(AltWalkedWhenPL1, "its children are walked as for a known type")),
		r(ReadDownReport, secTrunc, []rules.ID{RuleTruncStreamDown, RuleTruncStreamWait},
			[]string{"§Truncation handling: Stream transports (TCP, UART, I²C): SHOULD wait for more bytes; report ERROR{tr::transport::down} if the stream is closed."},
			"Does the SHOULD of \"SHOULD wait for more bytes; report ERROR{tr::transport::down} if the stream is closed\" govern the report too, so that a stream receiver may report a closed stream's unfinished frame otherwise (as tr::frame::truncated)?",
			"down-required",
			"the SHOULD is the waiting's: a receiver that does not wait has nothing to report until the stream is closed, and then the sentence names the one code; the datagram line beside it gives truncated to datagrams only",
			alt("down-required", "a stream closed inside a frame is tr::transport::down"),
			alt("down-recommended", "a stream receiver may report a closed stream's unfinished frame with another code, tr::frame::truncated as for a datagram")),
		r(ReadDepthFloor, secNest, []rules.ID{RuleNestProtocolDepth, RuleNestBudget, RuleNestTooDeep},
			[]string{"§Iterative parsing requirement: Protocol-defined TLV shapes nest ≤ 5 by construction, so every conforming receiver parses every protocol frame at any budget;"},
			"Is \"every conforming receiver parses every protocol frame at any budget\" a floor on the work-stack budget (never below 5 open levels), or a remark that holds of the budgets receivers use?",
			"floor-of-5",
			"the sentence is a guarantee about every conforming receiver at any budget, which only a floor makes true: a receiver configured with fewer than 5 levels still parses a frame 5 deep, and a budget below that is raised",
			alt("floor-of-5", "a requested budget below 5 is raised to 5: a frame 5 deep parses, one 6 deep is nesting_too_deep"),
			alt(AltBudgetAsConfigured, "the budget is used as given: at a budget of 1 a frame 2 deep is nesting_too_deep")),
		r(ReadCRC16Variant, secCRC16, []rules.ID{RuleCRC16Poly, RuleCRC16Check, RuleCRCVerify16},
			[]string{"§CRC-16-CCITT: Polynomial 0x1021, common variant.", "§CRC-16-CCITT: Initial value: 0xFFFF.", "§CRC-16-CCITT: Final XOR: 0x0000."},
			"Which CRC-16 with polynomial 0x1021, init 0xFFFF and final XOR 0 is the \"common variant\": the non-reflected one (CRC-16/CCITT-FALSE), or a reflected one (refin = refout = true)?",
			"ccitt-false",
			"with init 0xFFFF and no final XOR the non-reflected form is the one commonly called CRC-16-CCITT; the CRC-32C section names its reflected representation explicitly and this section names none",
			alt("ccitt-false", "not reflected: CRC-16-CCITT(\"123456789\") = 0x29B1"),
			alt("reflected", "reflected input and output (CRC-16/MCRF4XX): CRC-16(\"123456789\") = 0x6F91")),
		r(ReadStoredBits, secLife, []rules.ID{RuleLifeAtRest, RuleLifeStrip, RuleLifeRecord},
			[]string{"§Append-only-at-egress, strip-only-at-ingress: At rest again (after received, validated, stripped): [ header ] [ payload ] ← H + L bytes (same payload bytes)",
				"§Append-only-at-egress, strip-only-at-ingress: A recorder writing to disk: strip the trailer, store header+payload."},
			"When the trailer is stripped, are the header's TS and CR bits cleared with it, or is the header kept byte for byte?",
			"bits-cleared",
			"the stored H + L bytes must themselves be a TLV a receiver can read back; a header still announcing a trailer would make the stored bytes a truncated frame, and only the payload is said to stay identical",
			alt("bits-cleared", "the stripped header has TS = CR = 0; its other bits (TF and CW included) are kept"),
			alt("header-kept", "the stripped header is the received one, TS and CR still set")),
		r(ReadAssignedTypes, secType, []rules.ID{RuleTypeCore, RuleTypeFuture, RuleOptExtensions},
			[]string{"§Type code registry: `0x01` – `0x1F`	Core protocol types (05-protocol-tlvs.md)	Stable; the wire format does not version.",
				"§Type code registry: Type code 0x05 is reserved with no assigned meaning (see §rejected designs)."},
			"Which core type codes 0x01..0x1F does a v1 receiver know, when the chapter assigning them (05-protocol-tlvs.md) is not given: every code of the range but 0x05, or only those assigned?",
			"0x01-0x0d-assigned",
			"the range is the core types' room, not their list, and only 0x05 is singled out as unassigned; the project's design decisions (docs/DECISIONS.md) give 0x01..0x0D as assigned, so 0x0E..0x1F are unassigned core codes a v1 receiver handles as unknown",
			alt("0x01-0x0d-assigned", "0x01..0x0D (but 0x05) are known and walked when PL=1; 0x0E..0x1F are unknown types"),
			alt("whole-core-range-known", "every code of 0x01..0x1F but 0x05 is a known core type: a top-level 0x0E..0x1F TLV is accepted, and walked when PL=1")),
	}
}
