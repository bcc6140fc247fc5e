package hivevec

import (
	"github.com/threespec/conformance/impl/hiverelay"
	"github.com/threespec/conformance/impl/manifest"
	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/internal/vecgen"
	"github.com/threespec/conformance/vectorset"
)

// readingUses ties the HiveRelay vectors to the readings of
// hiverelay.Readings (docs/READINGS.md) and gives the branch vectors of the
// alternatives the reference can take.
func readingUses() []vecgen.ReadingUse {
	p := func(names ...string) []string { return vecgen.Prefixed("hiverelay/positive/", names) }
	n := func(names ...string) []string { return vecgen.Prefixed("hiverelay/negative/", names) }
	cat := func(kinds ...string) []string {
		var out []string
		for _, k := range kinds {
			out = append(out, "hiverelay/negative/format-catalog-entry-1-declaration-"+k)
		}
		return out
	}
	// The format positives whose artifact is not the authority's own.
	notExact := []string{"format-spec-single-lf", "format-spec-1048576-bytes", "format-catalog-declaration-65535-bytes",
		"format-catalog-entry-1-five-dependencies", "format-spec-feff-at-line-2"}
	return []vecgen.ReadingUse{
		{Reading: hiverelay.ReadSpecText, Vectors: p(notExact...),
			Branches: branchesOf(vecgen.Branch{Alternative: hiverelay.AltExactAuthorityBytes, Expect: vectorset.Reject, Rules: []string{"HR-FMT-17", "HR-FMT-15"}, Comment: "not this authority's exact spec file and catalog: format verification fails closed"}, notExact...)},
		{Reading: hiverelay.ReadCatalogLayout, Vectors: cat("65536-bytes", "cr", "del", "empty", "head-no-space", "head-paren", "invalid-utf8",
			"lf-after-closing-brace", "no-closing-brace", "nul", "other-schema", "tab")},
		{Reading: hiverelay.ReadZeroPreviousHash, Vectors: p("opaque-chain-frame-v1-successor-zero-previous-hash"),
			Branches: []vecgen.Branch{{Of: "hiverelay/positive/opaque-chain-frame-v1-successor-zero-previous-hash",
				Alternative: hiverelay.AltZeroPreviousHashRejected, Expect: vectorset.Reject, Code: Code, Rules: []string{"HR-CENC-16", "HR-FRAME-04"},
				Comment: "the zero previous frame hash is one of section 2's nonzero frame hashes: BAD_ENCODING"}}},
		{Reading: hiverelay.ReadCatalogDeps, Vectors: p("format-catalog-entry-1-five-dependencies"),
			Branches: branchesOf(vecgen.Branch{Alternative: hiverelay.AltDepsFromDeclaration, Expect: vectorset.Reject, Rules: []string{"HR-CAT-11", "HR-FMT-15"}, Comment: "the BlindCoreReadCapV1 declaration mentions no other schema, so its dependencies must be none: the catalog fails closed"},
				"format-catalog-entry-1-five-dependencies")},
		{Reading: hiverelay.ReadBOMAnywhere, Vectors: p("format-spec-feff-at-line-2"),
			Branches: branchesOf(vecgen.Branch{Alternative: hiverelay.AltFEFFAnywhere, Expect: vectorset.Reject, Rules: []string{"HR-FMT-11", "HR-FMT-15"}, Comment: "U+FEFF anywhere in the spec bytes fails closed"}, "format-spec-feff-at-line-2")},
		{Reading: hiverelay.ReadPathNFC, Vectors: p("manifest-path-not-nfc-angstrom-sign", "manifest-path-not-nfc-combining-accent", "manifest-nfc-non-ascii-path"),
			Branches: branchesOf(vecgen.Branch{Alternative: manifest.AltNFCRequired, Expect: vectorset.Reject, Rules: []string{"HR-MAN-08"}, Comment: "the path is not in NFC: it fails closed"},
				"manifest-path-not-nfc-angstrom-sign", "manifest-path-not-nfc-combining-accent")},
		{Reading: hiverelay.ReadPathEmpty, Vectors: n("manifest-path-empty", "manifest-path-empty-component", "manifest-path-trailing-slash"),
			Branches: branchesOf(vecgen.Branch{Alternative: manifest.AltEmptyAllowed, Expect: vectorset.Accept, Rules: []string{"HR-MAN-09", "HR-MAN-01"}, Want: []string{"entries", "vector_set_hash"}, Comment: "an empty path or component is bytes like any other: the manifest is accepted"},
				"manifest-path-empty", "manifest-path-empty-component", "manifest-path-trailing-slash")},
		{Reading: hiverelay.ReadPathControls, Vectors: p("manifest-path-control-1f", "manifest-path-control-del", "manifest-path-control-nul", "manifest-path-control-tab"),
			Branches: branchesOf(vecgen.Branch{Alternative: manifest.AltControlsRejected, Expect: vectorset.Reject, Rules: []string{"HR-MAN-10"}, Comment: "a control byte in a path is not canonical: it fails closed"},
				"manifest-path-control-1f", "manifest-path-control-del", "manifest-path-control-nul", "manifest-path-control-tab")},
		{Reading: hiverelay.ReadDotComponents, Vectors: p("manifest-dot-names-are-not-dot-components"),
			Branches: branchesOf(vecgen.Branch{Alternative: manifest.AltLeadingDot, Expect: vectorset.Reject, Rules: []string{"HR-MAN-05"}, Comment: "a component starting with a dot is a dot component: it fails closed"},
				"manifest-dot-names-are-not-dot-components")},
		{Reading: hiverelay.ReadMetadataFormat, Vectors: n("authority-metadata-other-format-hash", "authority-metadata-relay-wire-key", "authority-metadata-row-count-17", "authority-metadata-whitespace"),
			Branches: branchesOf(vecgen.Branch{Alternative: hiverelay.AltMetadataUnchecked, Expect: vectorset.Accept, Rules: []string{"HR-VEC-10"}, Want: []string{"format_hash", "vector_set_hash", "vector_manifest"},
				Comment: "the metadata holds both computed hashes, which is all this reading compares: accepted"},
				"authority-metadata-relay-wire-key", "authority-metadata-row-count-17", "authority-metadata-whitespace")},
		{Reading: hiverelay.ReadFixedU64Range, Vectors: p("opaque-chain-checkpoint-v1-frontier-sequences-near-max", "opaque-chain-frame-v1-successor-sequence-max", "blind-core-read-cap-v1-fork-and-length-18446744073709551615",
			"opaque-chain-checkpoint-v1-frontier-sequence-9007199254740992", "opaque-chain-checkpoint-v1-frontier-sequence-9007199254740993", "opaque-chain-checkpoint-v1-frontier-sequence-18446744073709551615",
			"opaque-chain-frame-v1-successor-sequence-9007199254740992", "opaque-chain-frame-v1-successor-sequence-9007199254740993",
			"blind-core-read-cap-v1-witnessed-fork-9007199254740992", "blind-core-read-cap-v1-witnessed-fork-9007199254740993", "blind-core-read-cap-v1-witnessed-fork-18446744073709551615",
			"blind-core-read-cap-v1-witnessed-length-9007199254740992", "blind-core-read-cap-v1-witnessed-length-9007199254740993", "blind-core-read-cap-v1-witnessed-length-18446744073709551615",
			"manifest-row-length-9007199254740992", "manifest-row-length-9007199254740993", "manifest-row-length-18446744073709551615"),
			Branches: []vecgen.Branch{
				{Of: "hiverelay/positive/opaque-chain-checkpoint-v1-frontier-sequences-near-max", Alternative: hiverelay.AltFixedU64SafeRange,
					Expect: vectorset.Reject, Code: Code, Rules: []string{"HR-CENC-08", "HR-CKPT-01"},
					Comment: "a frontier sequence above 2^53-1 is outside the safe range: BAD_ENCODING"},
				{Of: "hiverelay/positive/opaque-chain-frame-v1-successor-sequence-max", Alternative: hiverelay.AltFixedU64SafeRange,
					Expect: vectorset.Reject, Code: Code, Rules: []string{"HR-CENC-08", "HR-FRAME-01"},
					Comment: "the sequence 2^64-1 is outside the safe range: BAD_ENCODING"},
				{Of: "hiverelay/positive/blind-core-read-cap-v1-fork-and-length-18446744073709551615", Alternative: hiverelay.AltFixedU64SafeRange,
					Expect: vectorset.Reject, Code: Code, Rules: []string{"HR-CENC-08", "HR-BCORE-01"},
					Comment: "a witnessed fork of 2^64-1 is outside the safe range: BAD_ENCODING"},
			}},
		{Reading: hiverelay.ReadSignedHeadOpaque, Vectors: p("blind-core-read-cap-v1", "blind-core-read-cap-v1-fork-and-length-0", "blind-core-read-cap-v1-fork-and-length-18446744073709551615",
			"blind-core-read-cap-v1-head-1-bytes", "blind-core-read-cap-v1-head-252-bytes", "blind-core-read-cap-v1-head-253-bytes", "blind-core-read-cap-v1-head-4096-bytes")},
	}
}

// branchesOf gives the branch vector b (its alternative, expectation,
// rules, wanted result fields and comment) for each named default vector,
// which has the other outcome. A rejection's code is the one the spec
// names for its first rule ("" where it names none, HR-CENC-15).
func branchesOf(b vecgen.Branch, names ...string) []vecgen.Branch {
	pol := map[string]string{vectorset.Reject: "positive", vectorset.Accept: "negative"}[b.Expect]
	if b.Expect == vectorset.Reject {
		b.Code = hiverelay.SpecCode(rules.ID(b.Rules[0]))
	}
	out := make([]vecgen.Branch, len(names))
	for i, name := range names {
		out[i] = b
		out[i].Of = "hiverelay/" + pol + "/" + name
	}
	return out
}
