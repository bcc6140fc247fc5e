package libtracer

import "github.com/threespec/conformance/impl/rules"

// Named mutants: classic mistakes of libtracer implementations that the
// reference can be switched into (rules.Checks.Faults, under the mutant's ID),
// so that the fault proof shows the vectors catch each (issue #8, part 3).
// Each is a dialect flag (dialect.go) or, for the encoder, a branch of
// encode.go; none is a rule switch.
const (
	MutCRCWithoutTS            rules.ID = "MUT-LT-CRC-WITHOUT-TS"
	MutCRCOverHeader           rules.ID = "MUT-LT-CRC-OVER-HEADER"
	MutLengthBigEndian         rules.ID = "MUT-LT-LENGTH-BIG-ENDIAN"
	MutReservedTopOnly         rules.ID = "MUT-LT-RESERVED-CHECK-TOP-ONLY"
	MutRelTSDirectParent       rules.ID = "MUT-LT-REL-TS-DIRECT-PARENT"
	MutCRC16XModem             rules.ID = "MUT-LT-CRC16-XMODEM"
	MutTruncDatagramAsDown     rules.ID = "MUT-LT-TRUNC-DATAGRAM-AS-DOWN"
	MutMaxTLVOffByOne          rules.ID = "MUT-LT-MAX-TLV-OFF-BY-ONE"
	MutTFIgnored               rules.ID = "MUT-LT-TF-IGNORED"
	MutBudgetOffByOne          rules.ID = "MUT-LT-BUDGET-OFF-BY-ONE"
	MutCRCStructuredSkipped    rules.ID = "MUT-LT-CRC-STRUCTURED-SKIPPED"
	MutStreamDownAsTruncated   rules.ID = "MUT-LT-STREAM-DOWN-AS-TRUNCATED"
	MutCRC32ByteSwapped        rules.ID = "MUT-LT-CRC32-BYTE-SWAPPED"
	MutSmallestRangeOffByOne   rules.ID = "MUT-LT-SMALLEST-TF-RANGE-OFF-BY-ONE"
	MutEncodeLengthWithTrailer rules.ID = "MUT-LT-ENCODE-LENGTH-INCLUDES-TRAILER"
)

// Mutants lists the libtracer mutants.
func Mutants() []rules.Mutant {
	m := func(id rules.ID, text string) rules.Mutant { return rules.Mutant{ID: id, Spec: spec, Text: text} }
	return []rules.Mutant{
		m(MutCRCWithoutTS, "The receiver's CRC covers the payload only, without the trailer_ts."),
		m(MutCRCOverHeader, "The receiver's CRC covers the header (type, opt, length) as well as payload and trailer_ts."),
		m(MutLengthBigEndian, "The length field is read big-endian."),
		m(MutReservedTopOnly, "The reserved bits are checked in top-level headers only, not in nested children."),
		m(MutRelTSDirectParent, "A relative stamp is resolved against its direct parent only: an unstamped parent leaves it without an anchor."),
		m(MutCRC16XModem, "CRC-16 starts from 0x0000 (CRC-16/XMODEM) instead of 0xFFFF."),
		m(MutTruncDatagramAsDown, "Datagram truncation is reported as tr::transport::down."),
		m(MutMaxTLVOffByOne, "MAX_TLV_BYTES off by one: a length equal to the limit is rejected."),
		m(MutTFIgnored, "TF is ignored: every trailer_ts is read as an 8-byte absolute stamp."),
		m(MutBudgetOffByOne, "The work-stack budget off by one: one open level more than the budget is accepted."),
		m(MutCRCStructuredSkipped, "The CRC of a structured (PL=1) frame is not checked, only that of opaque frames."),
		m(MutStreamDownAsTruncated, "A stream that closes inside a frame is reported as tr::frame::truncated."),
		m(MutCRC32ByteSwapped, "The CRC-32C trailer is read big-endian."),
		m(MutSmallestRangeOffByOne, "The smallest-variant encoder takes +2^31 ns for an i32 offset (off by one at the top of the range)."),
		m(MutEncodeLengthWithTrailer, "The encoder writes a length that counts the trailer as well as the payload."),
	}
}
