package cenc

import "github.com/threespec/conformance/impl/rules"

// Section is the heading of the spec section these primitives come from.
const Section = "2. Canonical primitives"

// Rules of section 2 of HiveRelay Blind Client Composition v1, the canonical
// primitives every codec of that spec is built from. IDs are stable.
const (
	RuleDeclarationOrder rules.ID = "HR-CENC-01" // fields in declaration order, no alignment, no implicit values
	RuleBigEndian        rules.ID = "HR-CENC-02" // u8/u16/u32/u64 fixed-width unsigned big-endian
	RuleFixedBytes       rules.ID = "HR-CENC-03" // fixed byte strings have no length prefix
	RuleBoundedBytes     rules.ID = "HR-CENC-04" // bounded byte string = shortest compact-uint length + bytes
	RuleArray            rules.ID = "HR-CENC-05" // array = shortest compact-uint count + elements
	RuleCompactForms     rules.ID = "HR-CENC-06" // the four compact-uint forms
	RuleCompactOverlong  rules.ID = "HR-CENC-07" // overlong compact uint fails
	RuleCompactSafe      rules.ID = "HR-CENC-08" // compact uint above 2^53-1 fails
	RuleOptionalTag      rules.ID = "HR-CENC-09" // optional tag is 0 or 1
	RuleUnknownVersion   rules.ID = "HR-CENC-10" // unknown versions fail
	RuleTruncated        rules.ID = "HR-CENC-11" // truncation fails
	RuleTrailing         rules.ID = "HR-CENC-12" // trailing bytes fail
	RuleOutOfRange       rules.ID = "HR-CENC-13" // out-of-range values fail (realized by each range rule)
	RuleNonCanonical     rules.ID = "HR-CENC-14" // non-canonical encodings fail (realized by the specific rules)
	RuleBadEncodingCode  rules.ID = "HR-CENC-15" // every decoding failure carries BAD_ENCODING
	RuleNonzero          rules.ID = "HR-CENC-16" // fields marked nonzero hold a nonzero byte
	RuleSortOrder        rules.ID = "HR-CENC-17" // sorting is strict lexicographic unsigned-byte order
	RuleSortDuplicate    rules.ID = "HR-CENC-18" // equal adjacent keys are duplicates and fail
)

// Rules returns the rules of section 2 in spec order, each with how it is
// checked. The HiveRelay catalog (package hiverelay), built from them once,
// places them between sections 1 and 3 and gives them their spec.
func Rules() []rules.Rule {
	return []rules.Rule{
		rules.Must(RuleDeclarationOrder, Section, "Fields are encoded in declaration order with no alignment or implicit values.").Checked(rules.Constructing),
		rules.Must(RuleBigEndian, Section, "u8, u32 and u64 (and the u16be of sections 4 and 5) are fixed-width unsigned big-endian integers.").Checked(rules.Constructing),
		rules.Must(RuleFixedBytes, Section, "Fixed byte strings are written as exactly their bytes, with no length prefix.").Checked(rules.Constructing),
		rules.Must(RuleBoundedBytes, Section, "A bounded byte string is the canonical shortest compact-uint length followed by exactly that many bytes.").Checked(rules.Constructing),
		rules.Must(RuleArray, Section, "An array is the canonical shortest compact-uint count followed by exactly that many elements.").Checked(rules.Constructing),
		rules.Must(RuleCompactForms, Section, "A compact uint is one byte for 0..252, 0xfd then a little-endian u16, 0xfe then a little-endian u32, or 0xff then a little-endian u64, always in the shortest form that holds the value.").Checked(rules.Constructing),
		rules.Must(RuleCompactOverlong, Section, "An overlong compact uint (0xfd form below 253, 0xfe form at most 0xffff, 0xff form at most 0xffffffff) fails closed with BAD_ENCODING.").Checked(rules.Rejecting),
		rules.Must(RuleCompactSafe, Section, "A value above JavaScript's exact safe integer range (2^53-1) fails closed with BAD_ENCODING: a compact uint always; a fixed u64 field only under reading HR-READ-12's alternative fixed-u64-within-safe-range.").Checked(rules.Rejecting),
		rules.Must(RuleOptionalTag, Section, "An optional is one byte 0 for absent or 1 followed by its value; every other tag fails closed with BAD_ENCODING.").Checked(rules.Rejecting),
		rules.Must(RuleUnknownVersion, Section, "An unknown version fails with BAD_ENCODING.").Checked(rules.Rejecting),
		rules.Must(RuleTruncated, Section, "Truncated input (a field, length, count or element that the remaining bytes cannot hold) fails with BAD_ENCODING.").Checked(rules.Rejecting).
			Precedence("a count or length that breaks its range rule is reported under that rule even when the input is also too short for it (see HR-CENC-13); both are BAD_ENCODING (formerly reading HR-READ-13)"),
		rules.Must(RuleTrailing, Section, "Bytes after a complete top-level record fail with BAD_ENCODING.").Checked(rules.Rejecting),
		rules.Must(RuleOutOfRange, Section, "Out-of-range values fail with BAD_ENCODING (realized by each range rule of section 3).").Checked(rules.General).
			Precedence("a count or length that is out of range and also larger than the remaining input is reported under its range rule, read from the prefix before anything is allocated, not under truncation (HR-CENC-11); both are BAD_ENCODING, so no verdict or code depends on the order (formerly reading HR-READ-13)"),
		rules.Must(RuleNonCanonical, Section, "Non-canonical encodings fail with BAD_ENCODING (realized by the overlong, optional-tag and sorting rules).").Checked(rules.General),
		rules.Must(RuleBadEncodingCode, Section, "Unknown versions, truncation, trailing bytes, out-of-range values and non-canonical encodings fail with the code BAD_ENCODING.").Checked(rules.General).
			Clarified("§2: \"Unknown versions, truncation, trailing bytes, out-of-range values, and non-canonical encodings fail with `BAD_ENCODING`.\" and §5: \"Every negative vector MUST fail canonical decoding with `BAD_ENCODING`\": the code binds the six codecs, the schema catalog (§4: it \"decodes canonically\") and the format artifact's header fields. Where the spec says only that an input \"fail[s] closed\" or \"fail[s] complete authority verification\" (the manifest's conditions of §5, the artifact's magic and spec-text conditions of §4, complete authority verification) it names no code: those vectors expect a rejection with any code; the reference answers BAD_ENCODING there too"),
		rules.Must(RuleNonzero, Section, "Every key, commitment, hash, slot, chain ID or frame hash that the codec marks nonzero contains at least one nonzero byte (realized by each nonzero rule of section 3).").Checked(rules.General),
		rules.Must(RuleSortOrder, Section, "Sorting is lexicographic unsigned-byte order; an element whose key sorts before its predecessor's fails closed (realized by each sorting rule of section 3).").Checked(rules.General),
		rules.Must(RuleSortDuplicate, Section, "Sorting is strict: equal adjacent keys are duplicates and fail closed (realized by each duplicate rule of section 3).").Checked(rules.General),
	}
}
