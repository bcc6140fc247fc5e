package manifest

import (
	"github.com/threespec/conformance/impl/cenc"
	"github.com/threespec/conformance/impl/rules"
)

// Section is the heading of the spec section the manifest framing comes from.
const Section = "5. Vector manifest and semantic commitments"

// Rules of the strict vector-manifest framing (HiveRelay Blind Client
// Composition v1, section 5). Rules 08, 09 and 10 state readings of
// "canonical relative path bytes" (HR-READ-07, 08, 09; docs/READINGS.md).
// IDs are stable.
const (
	RuleFraming      rules.ID = "HR-MAN-01" // u32be count, sorted rows of u16be path length, path, u64be length, BLAKE2b-256
	RuleUnsorted     rules.ID = "HR-MAN-02" // rows sorted by raw UTF-8 path bytes
	RuleDuplicate    rules.ID = "HR-MAN-03" // duplicate paths fail
	RuleAbsolute     rules.ID = "HR-MAN-04" // absolute paths fail
	RuleDotSegment   rules.ID = "HR-MAN-05" // "." and ".." components fail
	RuleBackslash    rules.ID = "HR-MAN-06" // backslashes fail
	RuleUTF8         rules.ID = "HR-MAN-07" // non-canonical (invalid) UTF-8 fails
	RuleNFC          rules.ID = "HR-MAN-08" // paths are NFC (project reading of canonical)
	RuleEmptySegment rules.ID = "HR-MAN-09" // empty path or empty component fails (project reading)
	RuleControl      rules.ID = "HR-MAN-10" // C0 controls and DEL fail (project reading)
	RuleTruncated    rules.ID = "HR-MAN-11" // truncated manifests fail
	RuleTrailing     rules.ID = "HR-MAN-12" // trailing bytes fail
	RuleVectorHash   rules.ID = "HR-MAN-13" // each row holds the length and BLAKE2b-256 of the complete vector bytes
)

// Readings of "canonical relative path bytes" (docs/READINGS.md) and the
// alternatives the checks take (rules.Checks.Takes); the catalog entries
// are impl/hiverelay.Readings.
const (
	ReadPathNFC         = "HR-READ-07"
	AltNFCRequired      = "nfc-required"
	ReadPathEmpty       = "HR-READ-08"
	AltEmptyAllowed     = "empty-components-allowed"
	ReadPathControls    = "HR-READ-09"
	AltControlsRejected = "controls-rejected"
	ReadDotComponents   = "HR-READ-10"
	AltLeadingDot       = "leading-dot-components"
)

// Rules returns the manifest framing rules in spec order, each with how it
// is checked. The HiveRelay catalog (package hiverelay), built from them
// once, gives them their spec.
func Rules() []rules.Rule {
	return []rules.Rule{
		rules.Must(RuleFraming, Section, "A vector manifest is a u32be entry count followed by that many rows of path length u16be, canonical relative path bytes, vector length u64be and the 32-byte BLAKE2b-256 of the complete vector bytes.").Checked(rules.Constructing),
		rules.Must(RuleUnsorted, Section, "Manifest rows are sorted by raw UTF-8 path bytes; a row whose path sorts before its predecessor's fails closed.").Checked(rules.Rejecting),
		rules.Must(RuleDuplicate, Section, "A manifest with two rows of the same path fails closed.").Checked(rules.Rejecting),
		rules.Must(RuleAbsolute, Section, "A manifest path that is absolute (starts with '/') fails closed.").Checked(rules.Rejecting),
		rules.Must(RuleDotSegment, Section, "A manifest path with a dot component ('.' or '..') fails closed.").Checked(rules.Rejecting),
		rules.Must(RuleBackslash, Section, "A manifest path containing a backslash fails closed.").Checked(rules.Rejecting),
		rules.Must(RuleUTF8, Section, "A manifest path that is not strict UTF-8 (overlong forms, surrogates, values above U+10FFFF, stray or missing continuation bytes) fails closed.").Checked(rules.Rejecting),
		rules.Must(RuleNFC, Section, "Under reading HR-READ-07's alternative nfc-required, a manifest path that is not in Unicode Normalization Form C (Unicode 17.0.0) is non-canonical and fails closed; by default (strict-utf8-only) any strict UTF-8 path is canonical.").Checked(rules.Rejecting),
		rules.Must(RuleEmptySegment, Section, "An empty manifest path, or one with an empty component (leading, doubled or trailing '/'), is not a canonical relative path and fails closed (reading HR-READ-08, default empty-components-rejected).").Checked(rules.Rejecting),
		rules.Must(RuleControl, Section, "Under reading HR-READ-09's alternative controls-rejected, a manifest path containing a C0 control character (U+0000..U+001F) or DEL (U+007F) is not a canonical relative path and fails closed; by default (controls-allowed) control bytes are path bytes like any other.").Checked(rules.Rejecting),
		rules.Must(RuleTruncated, Section, "A truncated manifest (a count, row or path the remaining bytes cannot hold) fails closed.").Checked(rules.Rejecting),
		rules.Must(RuleTrailing, Section, "Bytes after the last manifest row fail closed.").Checked(rules.Rejecting),
		rules.Must(RuleVectorHash, Section, "Each manifest row holds the exact length and the BLAKE2b-256 (unkeyed, 32-byte digest) of the complete bytes of the vector at its path.").Checked(rules.Constructing),
	}
}

// MutDotPrefix is the named mutant of the framing (internal/fault): every
// path component that starts with "." is refused as a dot component.
const MutDotPrefix rules.ID = "MUT-HR-MANIFEST-DOT-PREFIX-REJECTED"

// Mutants returns the named mutants of the manifest framing.
func Mutants() []rules.Mutant {
	return []rules.Mutant{cenc.HiveRelayMutant(MutDotPrefix,
		"A manifest path component that merely starts with a dot (.hidden, ...) is refused as a dot component, instead of only . and .. themselves.")}
}
