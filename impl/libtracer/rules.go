package libtracer

import "github.com/threespec/conformance/impl/rules"

// The libtracer rule catalog: every normative statement of
// specs/libtracer-01-data-format.txt ("Reference 01 — Data
// Format"), the binding decisions of docs/DECISIONS.md, and the project's
// decisions where the spec is silent (docs/libtracer.md), one atomic rule
// each. IDs are stable: never reuse or renumber one; retire it instead.
//
// Sections are the spec's headings. Rules whose Section starts with
// "Decision:" are the project's readings (docs/libtracer.md).

// Frame layout.
const (
	RuleFrameType         rules.ID = "LT-FRAME-01"
	RuleFrameOpt          rules.ID = "LT-FRAME-02"
	RuleFrameLen16        rules.ID = "LT-FRAME-03"
	RuleFrameLen32        rules.ID = "LT-FRAME-04"
	RuleFramePayload      rules.ID = "LT-FRAME-05"
	RuleFrameTSAbs        rules.ID = "LT-FRAME-06"
	RuleFrameTSRel        rules.ID = "LT-FRAME-07"
	RuleFrameCRC32        rules.ID = "LT-FRAME-08"
	RuleFrameCRC16        rules.ID = "LT-FRAME-09"
	RuleFrameSize         rules.ID = "LT-FRAME-10"
	RuleFrameLittleEndian rules.ID = "LT-FRAME-11"
	RuleFrameUnaligned    rules.ID = "LT-FRAME-12"
	RuleFrameMinimum      rules.ID = "LT-FRAME-13"
)

// Append-only-at-egress, strip-only-at-ingress.
const (
	RuleLifeAtRest    rules.ID = "LT-LIFE-01"
	RuleLifeInTransit rules.ID = "LT-LIFE-02"
	RuleLifeStrip     rules.ID = "LT-LIFE-03"
	RuleLifeForward   rules.ID = "LT-LIFE-04"
	RuleLifeRecord    rules.ID = "LT-LIFE-05"
	RuleLifeInvariant rules.ID = "LT-LIFE-06"
)

// Options bitfield.
const (
	RuleOptReserved7      rules.ID = "LT-OPT-01"
	RuleOptReserved0      rules.ID = "LT-OPT-02"
	RuleOptReservedFrozen rules.ID = "LT-OPT-03"
	RuleOptPL             rules.ID = "LT-OPT-04"
	RuleOptTS             rules.ID = "LT-OPT-05"
	RuleOptCR             rules.ID = "LT-OPT-06"
	RuleOptLL             rules.ID = "LT-OPT-07"
	RuleOptCW             rules.ID = "LT-OPT-08"
	RuleOptCWIgnored      rules.ID = "LT-OPT-09"
	RuleOptTF             rules.ID = "LT-OPT-10"
	RuleOptTFIgnored      rules.ID = "LT-OPT-11"
	RuleOptExtensions     rules.ID = "LT-OPT-12"
)

// Length encoding.
const (
	RuleLenMax16        rules.ID = "LT-LEN-01"
	RuleLenMax32        rules.ID = "LT-LEN-02"
	RuleLenAddressShift rules.ID = "LT-LEN-03"
)

// CRC.
const (
	RuleCRC32Poly         rules.ID = "LT-CRC-01"
	RuleCRC32Init         rules.ID = "LT-CRC-02"
	RuleCRC32XorOut       rules.ID = "LT-CRC-03"
	RuleCRC32Check        rules.ID = "LT-CRC-04"
	RuleCRC16Poly         rules.ID = "LT-CRC-05"
	RuleCRC16Init         rules.ID = "LT-CRC-06"
	RuleCRC16XorOut       rules.ID = "LT-CRC-07"
	RuleCRC16Check        rules.ID = "LT-CRC-08"
	RuleCRCVerify32       rules.ID = "LT-CRC-09"
	RuleCRCVerify16       rules.ID = "LT-CRC-10"
	RuleCRCCoverage       rules.ID = "LT-CRC-11"
	RuleCRCHeaderExcluded rules.ID = "LT-CRC-12"
	RuleCRCStreamSend     rules.ID = "LT-CRC-13"
	RuleCRCStreamReceive  rules.ID = "LT-CRC-14"
	RuleCRCCorruptTS      rules.ID = "LT-CRC-15"
)

// Timestamp form.
const (
	RuleTSAbs        rules.ID = "LT-TS-01"
	RuleTSRel        rules.ID = "LT-TS-02"
	RuleTSParent     rules.ID = "LT-TS-03"
	RuleTSNoAnchor   rules.ID = "LT-TS-04"
	RuleTSExampleADC rules.ID = "LT-TS-05"
	RuleTSWireTime   rules.ID = "LT-TS-06"
	RuleTSWrap       rules.ID = "LT-TS-07"
	RuleTSAbsAny     rules.ID = "LT-TS-08"
)

// Type code registry.
const (
	RuleTypeZero      rules.ID = "LT-TYPE-01"
	RuleTypeCore      rules.ID = "LT-TYPE-02"
	RuleTypeFuture    rules.ID = "LT-TYPE-03"
	RuleTypeUser      rules.ID = "LT-TYPE-04"
	RuleType05Receive rules.ID = "LT-TYPE-05"
	RuleType05NoSend  rules.ID = "LT-TYPE-06"
	RuleTypeLayering  rules.ID = "LT-TYPE-07"
	RuleTypeNoVersion rules.ID = "LT-TYPE-08"
)

// Handling unknown type codes.
const (
	RuleUnkNoCrash      rules.ID = "LT-UNK-01"
	RuleUnkContinue     rules.ID = "LT-UNK-02"
	RuleUnkCRC          rules.ID = "LT-UNK-03"
	RuleUnkSkipByLength rules.ID = "LT-UNK-04"
	RuleUnkOuter        rules.ID = "LT-UNK-05"
	RuleUnkNested       rules.ID = "LT-UNK-06"
)

// Iterative parsing requirement.
const (
	RuleNestIterative     rules.ID = "LT-NEST-01"
	RuleNestBudget        rules.ID = "LT-NEST-02"
	RuleNestTooDeep       rules.ID = "LT-NEST-03"
	RuleNestProtocolDepth rules.ID = "LT-NEST-04"
	RuleNestExactFill     rules.ID = "LT-NEST-05"
	RuleNestEmpty         rules.ID = "LT-NEST-06"
)

// Two parser contexts.
const (
	RuleCtxWire       rules.ID = "LT-CTX-01"
	RuleCtxRope       rules.ID = "LT-CTX-02"
	RuleCtxAgree      rules.ID = "LT-CTX-03"
	RuleCtxBackToBack rules.ID = "LT-CTX-04"
)

// Truncation handling.
const (
	RuleTruncStreamWait    rules.ID = "LT-TRUNC-01"
	RuleTruncStreamDown    rules.ID = "LT-TRUNC-02"
	RuleTruncDatagram      rules.ID = "LT-TRUNC-03"
	RuleTruncNoOverrun     rules.ID = "LT-TRUNC-04"
	RuleTruncLengthFirst   rules.ID = "LT-TRUNC-05"
	RuleTruncMaxTLV        rules.ID = "LT-TRUNC-06"
	RuleTruncMaxDefault    rules.ID = "LT-TRUNC-07"
	RuleTruncEmptyDatagram rules.ID = "LT-TRUNC-08"
	RuleTruncEmptyStream   rules.ID = "LT-TRUNC-09"
)

// Worked frame examples.
const (
	RuleExStatusOK  rules.ID = "LT-EX-01"
	RuleExBool      rules.ID = "LT-EX-02"
	RuleExU32Rel    rules.ID = "LT-EX-03"
	RuleExU32AbsCRC rules.ID = "LT-EX-04"
	RuleExValueCRC  rules.ID = "LT-EX-05"
	RuleExPath      rules.ID = "LT-EX-06"
	RuleExLL1       rules.ID = "LT-EX-07"
)

// Frame size summary: one rule per row of the table.
const (
	RuleSizeMinimum    rules.ID = "LT-SIZE-01"
	RuleSizeCRC16      rules.ID = "LT-SIZE-02"
	RuleSizeCRC32      rules.ID = "LT-SIZE-03"
	RuleSizeRel        rules.ID = "LT-SIZE-04"
	RuleSizeRelCRC16   rules.ID = "LT-SIZE-05"
	RuleSizeRelCRC32   rules.ID = "LT-SIZE-06"
	RuleSizeAbs        rules.ID = "LT-SIZE-07"
	RuleSizeAbsCRC16   rules.ID = "LT-SIZE-08"
	RuleSizeAbsCRC32   rules.ID = "LT-SIZE-09"
	RuleSizeLL1AbsCRC2 rules.ID = "LT-SIZE-10"
)

// Interop: minimal vs feature-rich implementations.
const (
	RuleIopAcceptAll rules.ID = "LT-IOP-01"
	RuleIopSmallest  rules.ID = "LT-IOP-02"
)

// TextFile is the name of the libtracer v1 wire format's copy in specs/.
const TextFile = "libtracer-01-data-format.txt"

// spec is the specification of this package's catalogs.
const spec rules.SpecName = "libtracer"

// Section headings of the spec, as Rule.Section gives them.
const (
	secLayout    = "Frame layout"
	secLife      = "Append-only-at-egress, strip-only-at-ingress"
	secOpt       = "Options bitfield"
	secLen       = "Length encoding"
	secCRC32     = "CRC / CRC-32C"
	secCRC16     = "CRC / CRC-16-CCITT"
	secCRC       = "CRC"
	secCoverage  = "CRC / Coverage"
	secTS        = "Timestamp form"
	secType      = "Type code registry"
	secVersion   = "Versioning and compatibility"
	secLayering  = "Type byte layering"
	secAppTime   = "Application-domain timestamps are NOT the wire-trailer TS"
	secUnknown   = "Handling unknown type codes"
	secNest      = "Iterative parsing requirement"
	secCtx       = "Two parser contexts"
	secTrunc     = "Truncation handling"
	secExamples  = "Worked frame examples"
	secSize      = "Frame size summary"
	secInterop   = "Interop: minimal vs feature-rich implementations"
	secDecision  = "Decision: docs/libtracer.md"
	secDesignDoc = "docs/DECISIONS.md / libtracer"
)

// lifecycle is what is project-defined in the trailer lifecycle rules the
// spec describes without a keyword.
const lifecycle = "the spec describes this transition without a keyword; the project holds the strip, forward and record operations of the testee protocol to it (docs/libtracer.md)"

// silent is what is project-defined in a rule of secDecision: all of it.
const silent = "the spec is silent here: the rule is the project's decision (docs/libtracer.md, Decisions where the spec is silent)"

// Catalog lists every libtracer rule in spec order.
func Catalog() []rules.Rule { return catalog.Rules() }

// catalog is the rule catalog of libtracer v1, in spec order.
var catalog = rules.NewCatalog(spec,
	// Frame layout.
	rules.Must(RuleFrameType, secLayout, "Offset 0 of every TLV is the type code, one byte (u8)."),
	rules.Must(RuleFrameOpt, secLayout, "Offset 1 of every TLV is opt, the bit-packed options byte (u8)."),
	rules.Must(RuleFrameLen16, secLayout, "With opt.LL=0 the length is a u16 little-endian at offset 2 and the header is H=4 bytes."),
	rules.Must(RuleFrameLen32, secLayout, "With opt.LL=1 the length is a u32 little-endian at offset 2 and the header is H=6 bytes."),
	rules.Must(RuleFramePayload, secLayout, "The payload is exactly length bytes at offset H: one contiguous, untouched user region with no metadata interleaved."),
	rules.Must(RuleFrameTSAbs, secLayout, "trailer_ts at offset H+L is a u64 little-endian (absolute ns since the Unix epoch), present iff opt.TS=1 and opt.TF=0."),
	rules.Must(RuleFrameTSRel, secLayout, "trailer_ts at offset H+L is an i32 little-endian (relative ns from the parent TS), present iff opt.TS=1 and opt.TF=1."),
	rules.Must(RuleFrameCRC32, secLayout, "trailer_crc at offset H+L+T is a u32 little-endian CRC-32C, present iff opt.CR=1 and opt.CW=0."),
	rules.Must(RuleFrameCRC16, secLayout, "trailer_crc at offset H+L+T is a u16 little-endian CRC-16-CCITT, present iff opt.CR=1 and opt.CW=1."),
	rules.Must(RuleFrameSize, secLayout, "The total frame size is H + L + T + (4 if CR=1 and CW=0) + (2 if CR=1 and CW=1), where T is 8 if TS=1 and TF=0, 4 if TS=1 and TF=1, else 0."),
	rules.Must(RuleFrameLittleEndian, secLayout, "Every multi-byte field (length, trailer_ts, trailer_crc) is little-endian."),
	rules.Must(RuleFrameUnaligned, secLayout, "Implementations MUST tolerate unaligned reads of length, trailer_ts and trailer_crc."),
	rules.Must(RuleFrameMinimum, secLayout, "The minimum frame is 4 bytes: empty payload, no trailer, LL=0."),

	// Trailer lifecycle.
	rules.Must(RuleLifeAtRest, secLife, "At rest a TLV is header + payload (H + L bytes) with no trailer; the TS and CR bits are cleared with the trailer, so the stored bytes are themselves a frame (docs/DECISIONS.md).").Defined("that the TS and CR bits are cleared with the trailer, so that stored bytes are themselves a frame, is the project's binding design decision (docs/DECISIONS.md); the spec shows only the H + L bytes"),
	rules.Must(RuleLifeInTransit, secLife, "In transit the optional trailer follows the payload: trailer_ts, then trailer_crc, 0 to 12 bytes in all."),
	rules.Must(RuleLifeStrip, secLife, "At ingress a receiver validates the frame and strips the trailer; the payload bytes stay identical.").Defined(lifecycle),
	rules.Must(RuleLifeForward, secLife, "A forwarder re-emitting a TLV on another transport strips the incoming trailer and attaches an outgoing one with a fresh wire-time and a fresh CRC; only an unknown-type TLV may instead be passed through unmodified (§Handling unknown type codes: \"Forwarders MAY pass-through unmodified\"), which no forward request of the testee protocol asks.").Defined(lifecycle),
	rules.Must(RuleLifeRecord, secLife, "A recorder strips the trailer and stores header + payload; on replay it re-attaches a fresh trailer.").Defined(lifecycle),
	rules.Must(RuleLifeInvariant, secLife, "Payload bytes are invariant under every transition (strip, attach, forward, record, replay)."),

	// Options bitfield.
	rules.Must(RuleOptReserved7, secOpt, "Bit 7 of opt is reserved and MUST be zero; a receiver MUST reject a TLV with it set as INVALID."),
	rules.Must(RuleOptReserved0, secOpt, "Bit 0 of opt is reserved and MUST be zero; a receiver MUST reject a TLV with it set as INVALID."),
	rules.Must(RuleOptReservedFrozen, secOpt, "The reserved bits are frozen for the lifetime of v1: the spec MUST NOT allocate them within v1, so no sender sets them.").Defined("the spec's MUST NOT binds the spec itself (it will not allocate the bits); that a v1 sender never sets them, and an encoder refuses to, is the project's consequence of it"),
	rules.Must(RuleOptPL, secOpt, "Bit 6 (PL): 0 means the payload is opaque bytes, 1 means it is concatenated child TLVs."),
	rules.Must(RuleOptTS, secOpt, "Bit 5 (TS): 1 means the trailer has a timestamp, in the form TF selects."),
	rules.Must(RuleOptCR, secOpt, "Bit 4 (CR): 1 means the trailer has a CRC, of the width CW selects."),
	rules.Must(RuleOptLL, secOpt, "Bit 3 (LL): 0 means a u16 length (the default), 1 a u32 length."),
	rules.Must(RuleOptCW, secOpt, "Bit 2 (CW): 0 means CRC-32C, 4 bytes (the default); 1 means CRC-16-CCITT, 2 bytes."),
	rules.Must(RuleOptCWIgnored, secOpt, "CW is meaningful only when CR=1: with CR=0 either value is accepted and ignored.").Clarified("§Options bitfield: \"Meaningful only when CR = 1.\" and §Interop: \"Every conforming receiver MUST accept all combinations of LL, CW, TF.\": CW=1 with CR=0 is one of those combinations, and only bits 7 and 0 are reserved, so it is accepted and no trailer field is read for it (the retired LT-READ-09)"),
	rules.Must(RuleOptTF, secOpt, "Bit 1 (TF): 0 means an absolute u64 ns since the Unix epoch, 8 bytes (the default); 1 a signed i32 ns offset from the parent TS, 4 bytes."),
	rules.Must(RuleOptTFIgnored, secOpt, "TF is meaningful only when TS=1: with TS=0 either value is accepted and ignored.").Clarified("§Options bitfield: \"Meaningful only when TS = 1.\" and §Interop: \"Every conforming receiver MUST accept all combinations of LL, CW, TF.\": TF=1 with TS=0 is one of those combinations, and only bits 7 and 0 are reserved, so it is accepted and no trailer field is read for it (the retired LT-READ-09)"),
	rules.Must(RuleOptExtensions, secOpt, "Forward-compatible extensions live exclusively in the type-code registry, in 0x0E..0x7F (incompatible changes at the discovery layer): only an unassigned code there, or the reserved 0x05, is an unknown type to skip or answer with tr::schema::type_mismatch; a user-defined type (0x80..0xFF) is no extension and is accepted, and a set reserved bit is no extension either (INVALID, LT-OPT-01/02)."),

	// Length encoding.
	rules.Must(RuleLenMax16, secLen, "With LL=0 the payload is at most 65535 bytes."),
	rules.Must(RuleLenMax32, secLen, "With LL=1 the payload is at most 4 GiB - 1 (4294967295) bytes; there is no u64 length."),
	rules.Untestable(rules.Must(RuleLenAddressShift, secLen, "A host that ships more than 4 GiB - 1 bytes MUST slice them by address shift; no single TLV carries them, so an encoder refuses a longer payload."),
		"only a payload of 4 GiB or more shows it: a u32 length cannot declare one, so no decode input carries one, and a libtracer.encode input holding one would be over 8 GiB of hex; TestEncodeRefusesOverU32 checks the refusal in impl/libtracer"),

	// CRC.
	rules.Must(RuleCRC32Poly, secCRC32, "CRC-32C uses the Castagnoli polynomial 0x1EDC6F41, reflected 0x82F63B78 (refin = refout = true)."),
	rules.Must(RuleCRC32Init, secCRC32, "CRC-32C starts from 0xFFFFFFFF."),
	rules.Must(RuleCRC32XorOut, secCRC32, "CRC-32C ends with a final XOR of 0xFFFFFFFF."),
	rules.Must(RuleCRC32Check, secDesignDoc, "CRC-32C of the ASCII bytes \"123456789\" is 0xE3069283.").Defined("a derived known answer: the catalogue check value of the parameters the spec gives, stated by docs/DECISIONS.md, not by the spec"),
	rules.Must(RuleCRC16Poly, secCRC16, "CRC-16-CCITT uses the polynomial 0x1021, not reflected (refin = refout = false).").Defined("the spec says \"polynomial 0x1021, common variant\"; that the variant is not reflected (CRC-16/CCITT-FALSE, with the spec's init and final XOR) is the project's reading (docs/DECISIONS.md)"),
	rules.Must(RuleCRC16Init, secCRC16, "CRC-16-CCITT starts from 0xFFFF."),
	rules.Must(RuleCRC16XorOut, secCRC16, "CRC-16-CCITT ends with a final XOR of 0x0000."),
	rules.Must(RuleCRC16Check, secDesignDoc, "CRC-16-CCITT of the ASCII bytes \"123456789\" is 0x29B1.").Defined("a derived known answer: the check value of CRC-16/CCITT-FALSE, the project's reading of \"common variant\" (docs/DECISIONS.md), not stated by the spec"),
	rules.Must(RuleCRCVerify32, secCRC, "A receiver that sees CR=1 and CW=0 MUST verify the CRC-32C; a mismatch returns ERROR{tr::frame::crc_fail}.").Precedence("a frame's CRC is checked before anything inside it: a structured frame whose CRC fails is crc_fail whatever its children, and when nested CRCs fail the outermost is reported; a streaming receiver that walks the children first reports their error, and every vector accepts both (the retired LT-READ-04 and LT-READ-05)"),
	rules.Must(RuleCRCVerify16, secCRC, "A receiver that sees CR=1 and CW=1 MUST verify the CRC-16-CCITT; a mismatch returns ERROR{tr::frame::crc_fail}."),
	rules.Must(RuleCRCCoverage, secCoverage, "The CRC is computed over the payload bytes, then the trailer_ts bytes if present, in that order."),
	rules.Must(RuleCRCHeaderExcluded, secCoverage, "The header (type, opt, length) is not covered by the CRC."),
	rules.Must(RuleCRCStreamSend, secCoverage, "Described without a keyword: a streaming sender accumulates the CRC while it sends the payload, then generates trailer_ts, folds it into the accumulator and appends it, then appends the final CRC; what binds is the result, the trailer of the coverage rule LT-CRC-11, which a sender streaming its payload gives.").Defined("the spec describes the streaming procedure and states no obligation; the project holds a streaming sender to the bytes the coverage rule LT-CRC-11 defines (its fault: a sender that leaves trailer_ts out of the streamed CRC)"),
	rules.Must(RuleCRCStreamReceive, secCoverage, "Described without a keyword: a streaming receiver accumulates the CRC over the payload bytes as they arrive, folds in trailer_ts, then compares the received CRC with the accumulator; what binds is the verdict of the coverage rule LT-CRC-11, which a receiver reading a stream in pieces gives.").Defined("the spec describes the streaming procedure and states no obligation; the project holds a streaming receiver to the verdict the coverage rule LT-CRC-11 defines, whatever pieces the stream arrives in"),
	rules.Must(RuleCRCCorruptTS, secCoverage, "Under CR=1 a corrupted trailer_ts shows up as tr::frame::crc_fail, not as a silently bogus time."),

	// Timestamp form.
	rules.Must(RuleTSAbs, secTS, "An absolute stamp (TF=0) is the u64 count of ns since the Unix epoch, self-contained: it needs no context, and wraps in 2554."),
	rules.Must(RuleTSRel, secTS, "A relative stamp (TF=1) is a signed i32 ns offset (range -2147483648..2147483647 ns); the TLV's wire-time is the parent's wire-time plus the offset."),
	rules.Must(RuleTSParent, secTS, "The parent of a relative stamp is the wrapping structured TLV's trailer_ts if present, else that of the next outermost ancestor that has one."),
	rules.Must(RuleTSNoAnchor, secTS, "A TLV with TS=1 and TF=1 whose ancestor chain has no trailer_ts MUST be rejected with ERROR{tr::path::invalid}.").Precedence("the reference checks a frame's CRC, then its stamp's anchor, then (top level) its type: an unanchored stamp on an unknown outer TLV is path::invalid, not type_mismatch, and a bad CRC comes before both; the spec orders none of them, and every vector accepts each (the retired LT-READ-06)"),
	rules.Must(RuleTSExampleADC, secTS, "Worked example (1 GS/s ADC): a PL=1 user record with an absolute trailer_ts and VALUE children of a 4-byte sample plus an i32 relative trailer_ts, 12 bytes each, resolving to the window start +0 ns, +1 ns, ..."),
	rules.Must(RuleTSAbsAny, secTS, "The spec states no constraint on the value of an absolute trailer_ts (u64 ns since the Unix epoch, wrapping in 2554): every value, 0, 2^63 and 2^64-1 included, is a wire-time a receiver accepts and reports as sent; a stamp in the past or the far future is no error.").Defined("the spec states no constraint on absolute stamp values; that none may be imposed (every u64 accepted) is the project's reading of that silence (docs/libtracer.md, Decisions where the spec is silent)"),

	rules.Must(RuleTSWrap, secDecision, "Resolved wire-times are computed modulo 2^64, as the wraparound note implies: a relative stamp past the largest u64, or before the epoch, wraps around.").Defined(silent),

	rules.Must(RuleTSWireTime, secAppTime, "The trailer_ts is transport time, when the sender put the TLV on the wire; it is never an application-domain time, which belongs inside the payload (e.g. a TIME TLV)."),

	// Type code registry.
	rules.Must(RuleTypeZero, secType, "Type code 0x00 is the reserved sentinel, never assigned; receivers MUST treat type=0x00 as INVALID.").Precedence("a header is judged as far as its bytes go, in byte order: 00 alone is INVALID, and so is 01 80 alone (reserved bit 7); a receiver that reads the whole header before judging it reports the bytes' end first (tr::frame::truncated, tr::transport::down on a stream), and every vector accepts both"),
	rules.Must(RuleTypeCore, secType, "Type codes 0x01..0x1F are core protocol types; 0x01..0x0D are assigned (docs/DECISIONS.md) and a PL=1 TLV of an assigned type is walked.").Defined("the spec defers the assignments to 05-protocol-tlvs.md, which it does not include; that 0x01..0x0D are assigned is the project's binding design decision (docs/DECISIONS.md)"),
	rules.Must(RuleTypeFuture, secType, "Type codes 0x0E..0x7F are not assigned in v1 (0x20..0x7F reserved for future core extensions): a v1 receiver handles them as unknown type codes."),
	rules.Must(RuleTypeUser, secType, "Type codes 0x80..0xFF are user-defined application types with no protocol opinion; a PL=1 user TLV is walked."),
	rules.Must(RuleType05Receive, secType, "Receivers MUST treat type=0x05 as reserved-but-unassigned and apply the rules for unknown type codes."),
	rules.Must(RuleType05NoSend, secType, "Senders MUST NOT emit type 0x05."),
	rules.Must(RuleTypeLayering, secLayering, "Framing does not depend on the type code: length, trailer and CRC are read the same for every type (a pure-framing parser routes by length and CRC alone); only a TLV-aware receiver uses type and PL to decide whether to walk into children."),
	rules.Must(RuleTypeNoVersion, secVersion, "The wire format does not version: there is no version bit in the header, so no header field changes meaning per frame."),
	rules.Must(RuleUnkNoCrash, secUnknown, "A receiver encountering an unknown type code (0x0E..0x7F or 0x05) MUST NOT crash."),
	rules.Must(RuleUnkContinue, secUnknown, "A receiver MUST continue parsing the surrounding stream past an unknown TLV."),
	rules.Must(RuleUnkCRC, secUnknown, "A receiver MUST validate the CRC of an unknown TLV, if present.").Precedence("an outer unknown TLV whose CRC fails is reported crc_fail before type_mismatch; the spec orders the two sentences' checks in no way, and every vector accepts both (the retired LT-READ-13)"),
	rules.Must(RuleUnkSkipByLength, secUnknown, "A receiver MUST respect the length (and trailer) when skipping over an unknown TLV."),
	rules.Must(RuleUnkOuter, secUnknown, "An unknown TLV that is the outer addressed TLV is answered with ERROR{tr::schema::type_mismatch} if a return path exists; the reply to a decode request of the testee protocol is one.").Defined("the spec's list item says respond ... if a return path exists, without a keyword; the project holds it as MUST and takes the reply to a decode request for the return path (docs/libtracer.md)"),
	rules.Must(RuleUnkNested, secUnknown, "An unknown TLV nested inside a structured TLV (parent PL=1) is treated as opaque bytes (never walked, even if its PL=1) and parsing continues.").Defined("the spec's list item carries no keyword; the project holds it as MUST, like the MUST items of the same list").Clarified("\"If nested inside a structured TLV (parent has opt.PL=1): treat as opaque bytes and continue.\": opaque bytes are not parsed, so the TLV's own PL=1 does not make it walked (the retired LT-READ-16)"),

	// Iterative parsing requirement.
	rules.Must(RuleNestIterative, secNest, "Nested TLVs (PL=1) MUST be parsed iteratively with an explicit work stack; recursive parsing is forbidden."),
	rules.Must(RuleNestBudget, secNest, "Nesting depth is unbounded by the wire format; the work-stack budget (one node per open level) is a receiver option, never a protocol constant."),
	rules.Must(RuleNestTooDeep, secNest, "A frame exceeding the receiver's work-stack budget MUST be rejected with ERROR{tr::tlv::nesting_too_deep}."),
	rules.Must(RuleNestProtocolDepth, secNest, "Protocol-defined TLV shapes (core types) nest at most 5 deep, so every receiver parses them at any budget: for protocol frames the effective budget is never below 5 open levels (the default of LT-READ-18). User-data depth is a per-receiver capability: a user-type nest is parsed or rejected as the receiver's budget allows.").Defined("the spec says every conforming receiver parses every protocol frame at any budget; reading it as a floor of 5 open levels under any configured budget is the project's (docs/libtracer.md, LT-READ-18)"),
	rules.Must(RuleNestExactFill, secDecision, "The children of a PL=1 payload are complete TLVs that fill it exactly: a child that overruns the payload, or a remainder too short for a header, is rejected (INVALID, or the transport's truncation code).").Defined(silent).Precedence("the spec names no code for a payload whose children do not fit it: the reference reports INVALID (the parent's bytes are all there); a receiver reporting tr::frame::truncated (tr::transport::down on a stream), as for a frame the wire cut, is accepted as well (the retired LT-READ-03)"),
	rules.Must(RuleNestEmpty, secDecision, "A PL=1 TLV with an empty payload is valid and has zero children (e.g. the PATH of the root).").Defined(silent),

	// Two parser contexts.
	rules.Must(RuleCtxWire, secCtx, "The wire-receive context parses one contiguous transport buffer, advancing offset += child_size."),
	rules.Must(RuleCtxRope, secCtx, "The in-memory walk parses a rope of views in which the bytes of one TLV, its payload included, may lie in several adjacent views."),
	rules.Must(RuleCtxAgree, secDesignDoc, "Both contexts give the same result for every input and every way of cutting it into views.").Defined("the spec describes the two contexts; that they agree on every input and every cut is the project's binding design decision (docs/DECISIONS.md)"),
	rules.Must(RuleCtxBackToBack, secDecision, "A stream, and a datagram (the default of LT-READ-23), holds back-to-back top-level TLVs, each an outer addressed TLV: an error inside one whose extent is known is reported for it and parsing continues (the default of LT-READ-08); an error that breaks framing stops the parse.").Defined(silent).Precedence("the verdict of an input is its first error in byte order: a TLV's error before a framing error that follows it; a receiver that frames the input first reports the framing error, and every vector accepts both (the retired LT-READ-07)"),

	// Truncation handling.
	rules.Should(RuleTruncStreamWait, secTrunc, "A stream transport SHOULD wait for more bytes when a frame is incomplete."),
	rules.Must(RuleTruncStreamDown, secTrunc, "A stream that closes inside a frame reports ERROR{tr::transport::down}.").Defined("the spec's sentence is \"SHOULD wait for more bytes; report ERROR{tr::transport::down} if the stream is closed\": whether its SHOULD governs the report too is open; the project holds the report as MUST (docs/libtracer.md)"),
	rules.Must(RuleTruncDatagram, secTrunc, "On a datagram transport, bytes that end before the frame does are ERROR{tr::frame::truncated}."),
	rules.Must(RuleTruncNoOverrun, secTrunc, "Truncation MUST NOT cause a buffer overrun."),
	rules.Must(RuleTruncLengthFirst, secTrunc, "Implementations MUST validate the length against the available buffer before reading any payload byte."),
	rules.Must(RuleTruncMaxTLV, secTrunc, "A header whose length exceeds MAX_TLV_BYTES MUST be rejected with ERROR=INVALID without allocating the segment.").Precedence("the limit is judged from the header alone, before the payload is awaited: a header over the limit with its payload missing is INVALID in the reference; a receiver that checks the extent first reports truncation, and every vector accepts both (the retired LT-READ-11)"),
	rules.Should(RuleTruncMaxDefault, secTrunc, "MAX_TLV_BYTES is implementation-defined and SHOULD be 16 MiB (16777216), a receiver option.").Clarified("\"length > MAX_TLV_BYTES (implementation-defined, recommended 16 MiB)\": a MiB is 2^20 bytes, so the recommended limit is 16,777,216, and only a length above it is rejected: 16,777,216 itself is accepted (the retired LT-READ-10)"),
	rules.Must(RuleTruncEmptyDatagram, secDecision, "An empty datagram carries no frame and is ERROR{tr::frame::truncated} (the default of LT-READ-01; a receiver may declare that an empty datagram holds no frame and is accepted).").Defined(silent),
	rules.Must(RuleTruncEmptyStream, secDecision, "A stream that closes before its first byte, or between two frames, ends cleanly: no frame and no error.").Defined(silent),

	// Worked frame examples.
	rules.Must(RuleExStatusOK, secExamples, "Empty STATUS=OK is the 4 bytes 09 00 00 00."),
	rules.Must(RuleExBool, secExamples, "A VALUE true without trailer is the 5 bytes 01 00 01 00 01."),
	rules.Must(RuleExU32Rel, secExamples, "A VALUE uint32 with a relative TS is 12 bytes: 01 22 04 00, the 4 payload bytes, the i32 trailer_ts."),
	rules.Must(RuleExU32AbsCRC, secExamples, "A VALUE uint32 with an absolute TS and CRC-32C is 20 bytes: 01 30 04 00, 4 payload bytes, the u64 trailer_ts, the u32 CRC over payload and trailer_ts."),
	rules.Must(RuleExValueCRC, secExamples, "A 5-byte VALUE with CRC-32C is 13 bytes: 01 10 05 00 AA BB CC DD EE and the CRC-32C of the payload."),
	rules.Must(RuleExPath, secExamples, "PATH /sensor/temp with outer CRC-32C is 26 bytes: 06 50 12 00, NAME 02 00 06 00 \"sensor\", NAME 02 00 04 00 \"temp\", the CRC-32C of the 18 child bytes."),
	rules.Must(RuleExLL1, secExamples, "A VALUE with a 102400-byte payload and CRC-32C uses LL=1: 01 18 00 90 01 00, the payload, the CRC; 102410 bytes in all."),

	// Frame size summary.
	rules.Must(RuleSizeMinimum, secSize, "Minimum (LL=0, no trailer): H=4, T_ts=0, T_crc=0, overhead 4 bytes."),
	rules.Must(RuleSizeCRC16, secSize, "LL=0, CRC-16 only: H=4, T_ts=0, T_crc=2, overhead 6 bytes."),
	rules.Must(RuleSizeCRC32, secSize, "LL=0, CRC-32 only: H=4, T_ts=0, T_crc=4, overhead 8 bytes."),
	rules.Must(RuleSizeRel, secSize, "LL=0, TS rel only: H=4, T_ts=4, T_crc=0, overhead 8 bytes."),
	rules.Must(RuleSizeRelCRC16, secSize, "LL=0, TS rel + CRC-16: H=4, T_ts=4, T_crc=2, overhead 10 bytes."),
	rules.Must(RuleSizeRelCRC32, secSize, "LL=0, TS rel + CRC-32: H=4, T_ts=4, T_crc=4, overhead 12 bytes."),
	rules.Must(RuleSizeAbs, secSize, "LL=0, TS abs only: H=4, T_ts=8, T_crc=0, overhead 12 bytes."),
	rules.Must(RuleSizeAbsCRC16, secSize, "LL=0, TS abs + CRC-16: H=4, T_ts=8, T_crc=2, overhead 14 bytes."),
	rules.Must(RuleSizeAbsCRC32, secSize, "LL=0, TS abs + CRC-32 (typical wire frame): H=4, T_ts=8, T_crc=4, overhead 16 bytes."),
	rules.Must(RuleSizeLL1AbsCRC2, secSize, "LL=1, TS abs + CRC-32: H=6, T_ts=8, T_crc=4, overhead 18 bytes."),

	// Interop.
	rules.Must(RuleIopAcceptAll, secInterop, "Every conforming receiver MUST accept all combinations of LL, CW and TF, per TLV, mixed freely."),
	rules.Should(RuleIopSmallest, secInterop, "A sender SHOULD default to the smaller variants (LL=0, CW=1, TF=1 where applicable) and use a larger one only when the smaller would not fit."),
)
