package hiverelay

import (
	"github.com/threespec/conformance/impl/cenc"
	"github.com/threespec/conformance/impl/manifest"
	"github.com/threespec/conformance/impl/rules"
)

// Reading IDs of HiveRelay Blind Client Composition v1 (docs/READINGS.md).
// IDs are stable: never reused or renumbered. HR-READ-05, 06, 13, 14, 15,
// 16 and 17 are retired (Retired): their IDs stay for the retired list.
const (
	ReadSpecText          = "HR-READ-01"
	ReadCatalogLayout     = "HR-READ-02"
	ReadZeroPreviousHash  = "HR-READ-03"
	ReadCatalogDeps       = "HR-READ-04"
	ReadZeroBlobBytes     = "HR-READ-05"
	ReadZeroSignature     = "HR-READ-06"
	ReadPathNFC           = manifest.ReadPathNFC
	ReadPathEmpty         = manifest.ReadPathEmpty
	ReadPathControls      = manifest.ReadPathControls
	ReadDotComponents     = manifest.ReadDotComponents
	ReadMetadataFormat    = "HR-READ-11"
	ReadFixedU64Range     = cenc.ReadFixedU64Range
	ReadRangeBeforeEnd    = "HR-READ-13"
	ReadMetadataExactSpec = "HR-READ-14"
	ReadEmptyPayload      = "HR-READ-15"
	ReadBlobWithoutClass  = "HR-READ-16"
	ReadCapSortKey        = "HR-READ-17"
	ReadSignedHeadOpaque  = "HR-READ-18"
	ReadBOMAnywhere       = "HR-READ-19"
)

// Alternatives the reference can be switched into (rules.Checks.Readings).
const (
	AltZeroPreviousHashRejected = "zero-previous-hash-rejected"
	AltFixedU64SafeRange        = cenc.AltFixedU64SafeRange
	AltExactAuthorityBytes      = "exact-authority-bytes"
	AltDepsFromDeclaration      = "derived-from-declaration"
	AltFEFFAnywhere             = "feff-anywhere"
	AltMetadataUnchecked        = "metadata-unchecked"
)

const sec2 = "2. Canonical primitives"

// previousHashBranch is the decoder's branch of reading HR-READ-03: by
// default a present previous frame hash of 32 zero bytes is accepted
// (section 3 does not mark it nonzero); under the alternative
// zero-previous-hash-rejected it is one of section 2's nonzero frame hashes
// (HR-CENC-16). The branch lives here, beside the catalog, so that the
// default's rule-usage checks see only the default's rejections.
func previousHashBranch(d *cenc.Decoder, at int, hash []byte) error {
	if !d.Checks().Takes(ReadZeroPreviousHash, AltZeroPreviousHashRejected) || !cenc.IsZero(hash) || !d.Rejects(cenc.RuleNonzero) {
		return nil
	}
	return d.Fail(cenc.RuleNonzero, at, "previousFrameHash", "all 32 bytes are zero; under reading %s %s the previous frame hash must be nonzero",
		ReadZeroPreviousHash, AltZeroPreviousHashRejected)
}

const quoteNonzero = "§2: All fields called keys, commitments, hashes, slots, chain IDs, or frame hashes that the executable codec marks nonzero MUST contain at least one nonzero byte."

// Readings returns the readings catalog of HiveRelay BCC v1: every place the
// project chose between defensible readings of the spec.
func Readings() []rules.Reading {
	r, alt := rules.ReadingMaker("hiverelay"), rules.Alt
	return []rules.Reading{
		r(ReadSpecText, secFormat, []rules.ID{RuleFmtSpecExact, RuleFmtCatalogDecode},
			[]string{"§4: `hiverelay-blind-client-composition-format-v1.cenc` is exactly: ... specBytes[specLength] // this exact UTF-8 file; schemaCatalogBytes[schemaCatalogLength] // exact six-entry category-3 catalog",
				"§4: Both lengths are nonzero and at most 1 MiB. `specBytes` use LF only, no BOM or NUL, strict UTF-8, and exactly one final LF. The catalog decodes canonically to exactly the six names and local IDs in section 1. Trailing bytes fail closed.",
				"§1: It MUST bind the complete two-hash tuple below rather than copying a declaration or relying on a JavaScript object shape."},
			"Does format verification accept any artifact that meets section 4's checks (each with its own format hash), or only this authority's exact spec file and catalog?",
			"any-conforming-artifact",
			"the comments \"this exact UTF-8 file\" and \"exact six-entry category-3 catalog\" say what the authority's own artifact holds, and which artifact is the authority's is what its format hash decides (§1: profiles bind the two-hash tuple); the checks section 4 then lists (lengths, LF only, no BOM or NUL, strict UTF-8, one final LF, the six names, no trailing bytes) are what a verifier makes, and they would say nothing if only one byte string passed. So format verification checks those rules and gives the hash, and the exact file is required where the authority is named (HR-FMT-17, with metadata). The stricter reading, where the verifier itself requires the exact bytes, is the alternative, and the reference implements it",
			alt("any-conforming-artifact", "any spec text and catalog meeting section 4's rules is accepted, each with its own format hash"),
			alt(AltExactAuthorityBytes, "only this authority's exact spec file and catalog are accepted; every other artifact fails closed (HR-FMT-17), after section 4's other checks")),
		r(ReadCatalogLayout, secAuthority, []rules.ID{RuleCatalogLayout, RuleCatalogDeclLength, RuleCatalogDeclText, RuleCatalogDeclHead},
			[]string{"§1: The exact canonical declarations and composition dependencies are the six entries in `hiverelay-blind-client-composition-schema-catalog-v1.cenc`, generated with the stable master schema meta-grammar."},
			"What bytes is the schema catalog, and what makes a declaration valid, when the master schema meta-grammar is not given?",
			"project-catalog-layout",
			"the meta-grammar is not part of the spec and the lossy copy cannot restore it; the project defines the layout with section 2's primitives and bounds the declaration text (docs/hiverelay.md, \"The schema catalog\"). No branch vector: the alternative's bytes are whatever an unpublished grammar generates, which neither the reference nor a vector can write down",
			alt("project-catalog-layout", "the catalog is docs/hiverelay.md's layout: declarations below 64 KiB, LF-only printable UTF-8, headed by the entry's name and \" {\""),
			alt("master-meta-grammar", "the catalog is whatever the (unpublished) master meta-grammar generates; the project's declaration checks do not apply")),
		r(ReadZeroPreviousHash, secSchemas, []rules.ID{RuleFrameSuccessorPrev, cenc.RuleNonzero},
			[]string{quoteNonzero,
				"§3: `OpaqueChainFrameV1` is version 1; nonzero chain ID; sequence `u64`; optional previous frame hash; nonzero 32-byte transport verification key; ..."},
			"Is a present previous frame hash of 32 zero bytes valid: is it one of the \"frame hashes\" section 2 requires nonzero, though section 3 does not mark it nonzero?",
			"zero-previous-hash-accepted",
			"section 2 binds only the fields \"that the executable codec marks nonzero\", and section 3, which lists every nonzero field of the frame, leaves the previous hash out",
			alt("zero-previous-hash-accepted", "a present previousFrameHash of 32 zero bytes is accepted"),
			alt(AltZeroPreviousHashRejected, "a present previousFrameHash of 32 zero bytes fails with BAD_ENCODING, as a frame hash section 2 requires nonzero")),
		r(ReadCatalogDeps, secAuthority, []rules.ID{RuleCatalogDepsClosed},
			[]string{"§1: The exact canonical declarations and composition dependencies are the six entries in `hiverelay-blind-client-composition-schema-catalog-v1.cenc`, generated with the stable master schema meta-grammar."},
			"Must an entry's composition dependencies be exactly the names its declaration mentions, or only closed (among the six) and strictly sorted?",
			"closed-and-sorted",
			"the spec gives the dependencies as the catalog's own entries, not as a function of the declaration text, whose grammar (the master meta-grammar) is not given; what the spec's words and primitives state is that they are schema names of this authority (§1 keeps other categories out) in strict order. The authority's own dependencies are pinned by its format hash, and under HR-READ-01's alternative by its exact bytes",
			alt("closed-and-sorted", "dependencies are any strictly sorted subset of the five other names"),
			alt(AltDepsFromDeclaration, "dependencies must equal the other names the declaration mentions as whole words")),
		r(ReadPathNFC, secVectors, []rules.ID{manifest.RuleNFC},
			[]string{"§5: ... rows of path length `u16be`, canonical relative path bytes, ...",
				"§5: Duplicate, absolute, dot-component, backslash, non-canonical UTF-8, unsorted, truncated, or trailing-byte manifests fail closed."},
			"Are \"canonical relative path bytes\" NFC, or is any strict UTF-8 canonical?",
			"strict-utf8-only",
			"section 5 lists the conditions that fail a manifest, and among them the only one about a path's characters is \"non-canonical UTF-8\": canonical UTF-8 is strict UTF-8, the one encoding of each code point; Unicode normalization is not named, and asking for NFC asks beyond the words. A strict-UTF-8 path not in NFC is accepted",
			alt("strict-utf8-only", "any strict UTF-8 path is canonical; normalization is not checked"),
			alt(manifest.AltNFCRequired, "a path not in NFC (Unicode 17.0.0) fails closed: strict UTF-8 leaves two byte sequences for many names, and only a normalization form makes one of them canonical")),
		r(ReadPathEmpty, secVectors, []rules.ID{manifest.RuleEmptySegment},
			[]string{"§5: ... canonical relative path bytes ..."},
			"Is the empty path, or a path with an empty component (a//b, a/), a canonical relative path?",
			"empty-components-rejected",
			"the empty path names no file, so it is no relative path at all; and a//b or a/ is not the canonical form of a relative path: path canonicalization collapses empty components just as it removes the dot components section 5 names",
			alt("empty-components-rejected", "the empty path and empty components fail closed"),
			alt(manifest.AltEmptyAllowed, "only section 5's listed conditions fail; empty components are bytes like any other")),
		r(ReadPathControls, secVectors, []rules.ID{manifest.RuleControl},
			[]string{"§5: ... canonical relative path bytes ...",
				"§5: Duplicate, absolute, dot-component, backslash, non-canonical UTF-8, unsorted, truncated, or trailing-byte manifests fail closed."},
			"Are C0 control bytes and DEL allowed in a canonical relative path?",
			"controls-allowed",
			"section 5 lists the conditions that fail a manifest, and control characters are not among them; path canonicalization does not remove them, and U+0000..U+001F and U+007F are canonical (strict) UTF-8. Refusing them asks beyond the words",
			alt("controls-allowed", "control bytes are path bytes like any other"),
			alt(manifest.AltControlsRejected, "a path with a byte U+0000..U+001F or DEL fails closed: no file system convention the spec could mean has control bytes in a canonical name")),
		r(ReadDotComponents, secVectors, []rules.ID{manifest.RuleDotSegment},
			[]string{"§5: Duplicate, absolute, dot-component, backslash, ... manifests fail closed."},
			"Is a \"dot-component\" only a whole . or .. component, or any component starting with a dot?",
			"whole-dot-components",
			"the dot components of path resolution are exactly . and ..; .hidden and a..b name files",
			alt("whole-dot-components", "only the components . and .. fail"),
			alt(manifest.AltLeadingDot, "every component starting with . fails")),
		r(ReadMetadataFormat, secVectors, []rules.ID{RuleVecIdentity},
			[]string{"§5: The final identity of this authority is the pair `(clientCompositionFormatHash, clientCompositionVectorSetHash)` published in the generated metadata artifact."},
			"What is the metadata artifact's format, and is it checked?",
			"project-metadata-json",
			"the spec names the artifact but not its bytes; the project defines one canonical JSON form and checks it exactly (docs/hiverelay.md)",
			alt("project-metadata-json", "the metadata is the project's canonical JSON and any other bytes fail"),
			alt(AltMetadataUnchecked, "the metadata's format is not fixed; only the two hashes are compared: the metadata must hold each computed hash as 64 lower-case hex digits")),
		r(ReadFixedU64Range, sec2, []rules.ID{cenc.RuleBigEndian, cenc.RuleCompactSafe},
			[]string{"§2: `u8`, `u32`, and `u64` are fixed-width unsigned big-endian integers.",
				"§2: ... an overlong form and a value above JavaScript's exact safe integer range fail closed."},
			"Does the safe-integer bound bind fixed u64 fields (sequences, witnessed fork and length), or only compact uints?",
			"compact-uints-only",
			"the sentence stands in the compact-uint description; a fixed u64 is fixed-width and needs no bound to be canonical",
			alt("compact-uints-only", "fixed u64 fields take every value up to 2^64-1"),
			alt(AltFixedU64SafeRange, "a fixed u64 field above 2^53-1 fails with BAD_ENCODING")),
		r(ReadSignedHeadOpaque, secSchemas, []rules.ID{RuleCoreHeadLength, RuleCoreLayout},
			[]string{"§3: `BlindCoreReadCapV1` is version 1; nonzero 32-byte core public key; nonzero 32-byte block-encryption key; witnessed fork and length as `u64`; and a `1..4096` byte witnessed signed head.",
				"§1, the schema catalog's BlindCoreReadCapV1 declaration (as the lossy copy gives it): witnessedSignedHead:bounded canonical Hypercore proof, maximum 4096 bytes"},
			"Is the witnessed signed head, which the catalog declaration calls a \"bounded canonical Hypercore proof\", checked as a Hypercore proof, or only for its length 1..4096?",
			"length-only",
			"section 3 states the head's bounds and nothing of its structure, and the Hypercore proof encoding is not part of the spec (nor its catalog, whose grammar is not given); as with the frame's signature, verifying what the head proves is a higher-level composition check, and the codec fixes bytes. No branch vector: the alternative needs the canonical Hypercore proof encoding, which neither the spec nor its catalog gives, so no vector can say which heads it refuses",
			alt("length-only", "any 1..4096 bytes are a valid head; no proof structure is parsed"),
			alt("hypercore-proof-checked", "a head that does not parse as a canonical Hypercore proof fails with BAD_ENCODING")),
		r(ReadBOMAnywhere, secFormat, []rules.ID{RuleFmtSpecBOM},
			[]string{"§4: `specBytes` use LF only, no BOM or NUL, strict UTF-8, and exactly one final LF."},
			"Is \"no BOM\" a rule against a byte order mark, U+FEFF at the start of the text, or against U+FEFF anywhere in it?",
			"leading-bom-only",
			"a byte order mark is U+FEFF at the start of a text (Unicode, section 23.8: elsewhere U+FEFF is ZERO WIDTH NO-BREAK SPACE, not a BOM), and strict UTF-8 allows the character; refusing it anywhere asks beyond the words",
			alt("leading-bom-only", "spec bytes starting with EF BB BF fail closed; U+FEFF later in the text is a character like any other"),
			alt(AltFEFFAnywhere, "spec bytes holding U+FEFF anywhere fail closed")),
	}
}

// Retired returns the readings that left the catalog (issue 26): the spec's
// own words decide their question, and the rule that carries it has a
// clarified note, or they changed only which rule a rejection is reported
// under, and the rule has a precedence note. Their IDs are never reused.
func Retired() []rules.RetiredReading {
	return []rules.RetiredReading{
		{ID: ReadZeroBlobBytes, Why: "the spec decides: section 3 marks no CellBlobV1 field nonzero and says \"this binary codec only fixes the envelope bytes\"; a zero nonce and zero sealed bytes decode (HR-BLOB-08, clarified)"},
		{ID: ReadZeroSignature, Why: "the spec decides: \"Signature verification ... [is a] higher-level composition check[]; this codec fixes the signed record bytes\"; a 64-byte zero signature decodes (HR-FRAME-12, clarified)"},
		{ID: ReadRangeBeforeEnd, Why: "it changed only which rule a rejection is reported under (range or truncation), both BAD_ENCODING: no verdict or code depends on it (HR-CENC-13, precedence)"},
		{ID: ReadEmptyPayload, Why: "the spec decides: payloads are \"each 0..262144 bytes\", so a 0-byte payload is a payload and satisfies \"At least one payload or a checkpoint is required\" (HR-FRAME-11, clarified)"},
		{ID: ReadBlobWithoutClass, Why: "the spec decides: \"A decoder MUST be selected by an already authenticated size class\"; a class taken from the blob's own length is not authenticated, so a blob decoded with no class fails (HR-BLOB-01, clarified); the alternative class-from-length declared a way past that MUST"},
		{ID: ReadMetadataExactSpec, Why: "the spec decides: §4 says the authority's artifact embeds \"this exact UTF-8 file\", and a metadata artifact names this authority, so complete authority verification against it fails for any other spec bytes (HR-FMT-17, clarified); whether format verification alone requires the exact bytes is HR-READ-01"},
		{ID: ReadCapSortKey, Why: "the spec decides: capabilities are \"strictly sorted by (relayPublicKey, storageSlot)\" and \"equal adjacent keys are duplicates and fail closed\": the key is the pair, whatever the other fields (HR-CKPT-11, HR-FRAME-10, clarified)"},
	}
}
