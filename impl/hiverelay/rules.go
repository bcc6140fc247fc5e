package hiverelay

import (
	"slices"
	"strings"

	"github.com/threespec/conformance/impl/cenc"
	"github.com/threespec/conformance/impl/manifest"
	"github.com/threespec/conformance/impl/rules"
)

// Section headings of HiveRelay Blind Client Composition v1.
const (
	secPreamble  = "Preamble"
	secAuthority = "1. Closed authority and ownership boundary"
	secSchemas   = "3. Exact schema semantics"
	secFormat    = "4. Format artifact and hash"
	secVectors   = manifest.Section
)

// Rule IDs of HiveRelay Blind Client Composition v1 beyond the primitives
// (package cenc, HR-CENC-*) and the manifest framing (package manifest,
// HR-MAN-*). IDs are stable: never reused or renumbered.
const (
	// Preamble and section 1.
	RuleRelayMustNotDecode rules.ID = "HR-AUTH-01"
	RuleClosedNames        rules.ID = "HR-AUTH-02"
	RuleForeignCategories  rules.ID = "HR-AUTH-03"
	RuleBindTwoHashTuple   rules.ID = "HR-AUTH-04"

	// Schema catalog (sections 1 and 4; its byte layout is the project's,
	// docs/hiverelay.md).
	RuleCatalogLayout        rules.ID = "HR-CAT-01"
	RuleCatalogEntryCount    rules.ID = "HR-CAT-02"
	RuleCatalogCategory      rules.ID = "HR-CAT-03"
	RuleCatalogLocalID       rules.ID = "HR-CAT-04"
	RuleCatalogNames         rules.ID = "HR-CAT-05"
	RuleCatalogDeclLength    rules.ID = "HR-CAT-06"
	RuleCatalogDeclText      rules.ID = "HR-CAT-07"
	RuleCatalogDeclHead      rules.ID = "HR-CAT-08"
	RuleCatalogDepsOrder     rules.ID = "HR-CAT-09"
	RuleCatalogDepsDuplicate rules.ID = "HR-CAT-10"
	RuleCatalogDepsClosed    rules.ID = "HR-CAT-11"

	// ReadCellCapV1.
	RuleRCapLayout       rules.ID = "HR-RCAP-01"
	RuleRCapSizeClass    rules.ID = "HR-RCAP-02"
	RuleRCapRelayKey     rules.ID = "HR-RCAP-03"
	RuleRCapStorageSlot  rules.ID = "HR-RCAP-04"
	RuleRCapCellKey      rules.ID = "HR-RCAP-05"
	RuleRCapExpectedHash rules.ID = "HR-RCAP-06"

	// WriteCellCapV1.
	RuleWCapLayout    rules.ID = "HR-WCAP-01"
	RuleWCapCreateKey rules.ID = "HR-WCAP-02"
	RuleWCapRenewKey  rules.ID = "HR-WCAP-03"
	RuleWCapDropKey   rules.ID = "HR-WCAP-04"
	RuleWCapDistinct  rules.ID = "HR-WCAP-05"

	// CellBlobV1.
	RuleBlobClassSelect rules.ID = "HR-BLOB-01"
	RuleBlobLengths     rules.ID = "HR-BLOB-02"
	RuleBlobLayout      rules.ID = "HR-BLOB-03"
	RuleBlobNoClassByte rules.ID = "HR-BLOB-04"
	RuleBlobWrongClass  rules.ID = "HR-BLOB-05"
	RuleBlobShort       rules.ID = "HR-BLOB-06"
	RuleBlobLong        rules.ID = "HR-BLOB-07"
	RuleBlobAEADOutside rules.ID = "HR-BLOB-08"

	// OpaqueChainCheckpointV1.
	RuleCkptLayout        rules.ID = "HR-CKPT-01"
	RuleCkptFrontierCount rules.ID = "HR-CKPT-02"
	RuleCkptFrontierOrder rules.ID = "HR-CKPT-03"
	RuleCkptFrontierDup   rules.ID = "HR-CKPT-04"
	RuleCkptChainID       rules.ID = "HR-CKPT-05"
	RuleCkptFrameHash     rules.ID = "HR-CKPT-06"
	RuleCkptStateCommit   rules.ID = "HR-CKPT-07"
	RuleCkptPayloadHash   rules.ID = "HR-CKPT-08"
	RuleCkptCapsCount     rules.ID = "HR-CKPT-09"
	RuleCkptCapsOrder     rules.ID = "HR-CKPT-10"
	RuleCkptCapsDuplicate rules.ID = "HR-CKPT-11"
	RuleCkptCapsCanonical rules.ID = "HR-CKPT-12"

	// OpaqueChainFrameV1.
	RuleFrameLayout        rules.ID = "HR-FRAME-01"
	RuleFrameChainID       rules.ID = "HR-FRAME-02"
	RuleFrameGenesisNoPrev rules.ID = "HR-FRAME-03"
	RuleFrameSuccessorPrev rules.ID = "HR-FRAME-04"
	RuleFrameVerifyKey     rules.ID = "HR-FRAME-05"
	RuleFramePayloadCount  rules.ID = "HR-FRAME-06"
	RuleFramePayloadLength rules.ID = "HR-FRAME-07"
	RuleFrameCapsCount     rules.ID = "HR-FRAME-08"
	RuleFrameCapsOrder     rules.ID = "HR-FRAME-09"
	RuleFrameCapsDuplicate rules.ID = "HR-FRAME-10"
	RuleFrameNotEmpty      rules.ID = "HR-FRAME-11"
	RuleFrameHigherLevel   rules.ID = "HR-FRAME-12"
	RuleFrameCapsCanonical rules.ID = "HR-FRAME-13"
	RuleFrameCkptCanonical rules.ID = "HR-FRAME-14"

	// BlindCoreReadCapV1.
	RuleCoreLayout        rules.ID = "HR-BCORE-01"
	RuleCorePublicKey     rules.ID = "HR-BCORE-02"
	RuleCoreBlockKey      rules.ID = "HR-BCORE-03"
	RuleCoreHeadLength    rules.ID = "HR-BCORE-04"
	RuleCoreRelayNeverSee rules.ID = "HR-BCORE-05"

	// Format artifact and hash (section 4).
	RuleFmtLayout        rules.ID = "HR-FMT-01"
	RuleFmtMagic         rules.ID = "HR-FMT-02"
	RuleFmtAuthority     rules.ID = "HR-FMT-03"
	RuleFmtMajor         rules.ID = "HR-FMT-04"
	RuleFmtMinor         rules.ID = "HR-FMT-05"
	RuleFmtSpecEmpty     rules.ID = "HR-FMT-06"
	RuleFmtSpecMax       rules.ID = "HR-FMT-07"
	RuleFmtCatalogEmpty  rules.ID = "HR-FMT-08"
	RuleFmtCatalogMax    rules.ID = "HR-FMT-09"
	RuleFmtSpecCR        rules.ID = "HR-FMT-10"
	RuleFmtSpecBOM       rules.ID = "HR-FMT-11"
	RuleFmtSpecNUL       rules.ID = "HR-FMT-12"
	RuleFmtSpecUTF8      rules.ID = "HR-FMT-13"
	RuleFmtSpecFinalLF   rules.ID = "HR-FMT-14"
	RuleFmtCatalogDecode rules.ID = "HR-FMT-15"
	RuleFmtTrailing      rules.ID = "HR-FMT-16"
	RuleFmtSpecExact     rules.ID = "HR-FMT-17"
	RuleFmtHash          rules.ID = "HR-FMT-18"

	// Vector set (section 5).
	RuleVecInventory    rules.ID = "HR-VEC-01"
	RuleVecMissing      rules.ID = "HR-VEC-02"
	RuleVecExtra        rules.ID = "HR-VEC-03"
	RuleVecSubstituted  rules.ID = "HR-VEC-04"
	RuleVecPositive     rules.ID = "HR-VEC-05"
	RuleVecBlobClass    rules.ID = "HR-VEC-06"
	RuleVecNegative     rules.ID = "HR-VEC-07"
	RuleVecRegistry     rules.ID = "HR-VEC-08"
	RuleVecSetHash      rules.ID = "HR-VEC-09"
	RuleVecIdentity     rules.ID = "HR-VEC-10"
	RuleVecNotWireTuple rules.ID = "HR-VEC-11"
)

// catalogLayout says what is project-defined in the rules of the schema
// catalog's byte layout: the spec names the catalog file but not its
// encoding ("the stable master schema meta-grammar" is not given).
const catalogLayout = "the spec names the catalog file but not its encoding (the stable master schema meta-grammar is not given): the layout, and so this rule, is the project's (docs/hiverelay.md, The schema catalog)"

// Catalog returns every normative statement of HiveRelay Blind Client
// Composition v1 as an atomic rule, in spec order: the preamble and section 1,
// the primitives of section 2 (cenc.Rules), the six codecs of section 3, the
// catalog and format artifact of sections 1 and 4, the manifest framing
// (manifest.Rules) and the vector set of section 5. Statements that are not
// byte-testable say why in their Untestable field: those that bind others
// (their Check is rules.Outside) and those subsumed by other rules.
func Catalog() []rules.Rule { return ruleCatalog.Rules() }

// ruleCatalog is the rule catalog of HiveRelay Blind Client Composition v1
// (see Catalog). Every rule says how it is checked (rules.Check).
var ruleCatalog = rules.NewCatalog("hiverelay", slices.Concat(
	[]rules.Rule{
		rules.Untestable(rules.Must(RuleRelayMustNotDecode, secPreamble, "A relay stores or transports the opaque bytes containing these six records and MUST NOT decode them.").Checked(rules.Outside),
			"it binds relays, not codecs: a relay answers no conformance request, and nothing a codec accepts or rejects shows whether a relay decoded what it carried"),
		rules.Must(RuleClosedNames, secAuthority, "The authority owns exactly the schema names BlindCoreReadCapV1, CellBlobV1, OpaqueChainCheckpointV1, OpaqueChainFrameV1, ReadCellCapV1 and WriteCellCapV1, in raw-ASCII order (realized by HR-CAT-02, HR-CAT-05 and the closed inventory HR-VEC-01).").Checked(rules.General),
		rules.Must(RuleForeignCategories, secAuthority, "No schema, name, declaration, fixture or byte catalog of category 1 (relay WIRE), product evidence, category 4 (relay persistence) or category 5 (private IPC) appears in the catalog or the vector set (realized by HR-CAT-03, HR-CAT-05, HR-CAT-11 and HR-VEC-03).").Checked(rules.General),
		rules.Untestable(rules.Must(RuleBindTwoHashTuple, secAuthority, "An application profile importing this authority MUST bind the complete two-hash tuple (clientCompositionFormatHash, clientCompositionVectorSetHash) rather than copy a declaration or rely on a JavaScript object shape.").Checked(rules.Outside),
			"it binds the application profiles that import the authority (what they pin), not an implementation of its codecs: no input bytes show it; the tuple itself is checked by HR-FMT-18, HR-VEC-09 and HR-VEC-10"),
	},
	primitives(),
	[]rules.Rule{
		rules.Must(RuleRCapLayout, secSchemas, "ReadCellCapV1 is version u8 = 1, relayPublicKey[32], storageSlot[32], cellKey[32], sizeClass u8 and an optional expectedCellBlobHash[32], in that order.").Checked(rules.Constructing),
		rules.Must(RuleRCapSizeClass, secSchemas, "A ReadCellCapV1 sizeClass outside 1..5 fails with BAD_ENCODING.").Checked(rules.Rejecting),
		rules.Must(RuleRCapRelayKey, secSchemas, "A ReadCellCapV1 relayPublicKey of 32 zero bytes fails with BAD_ENCODING.").Checked(rules.Rejecting),
		rules.Must(RuleRCapStorageSlot, secSchemas, "A ReadCellCapV1 storageSlot of 32 zero bytes fails with BAD_ENCODING.").Checked(rules.Rejecting),
		rules.Must(RuleRCapCellKey, secSchemas, "A ReadCellCapV1 cellKey of 32 zero bytes fails with BAD_ENCODING.").Checked(rules.Rejecting),
		rules.Must(RuleRCapExpectedHash, secSchemas, "A present ReadCellCapV1 expectedCellBlobHash of 32 zero bytes fails with BAD_ENCODING.").Checked(rules.Rejecting),

		rules.Must(RuleWCapLayout, secSchemas, "WriteCellCapV1 is one canonical ReadCellCapV1, allocationEpoch u32, then createPrivateKey[32], renewPrivateKey[32] and dropPrivateKey[32]; the embedded read capability obeys every ReadCellCapV1 rule.").Checked(rules.Constructing),
		rules.Must(RuleWCapCreateKey, secSchemas, "A WriteCellCapV1 createPrivateKey of 32 zero bytes fails with BAD_ENCODING.").Checked(rules.Rejecting),
		rules.Must(RuleWCapRenewKey, secSchemas, "A WriteCellCapV1 renewPrivateKey of 32 zero bytes fails with BAD_ENCODING.").Checked(rules.Rejecting),
		rules.Must(RuleWCapDropKey, secSchemas, "A WriteCellCapV1 dropPrivateKey of 32 zero bytes fails with BAD_ENCODING.").Checked(rules.Rejecting),
		rules.Must(RuleWCapDistinct, secSchemas, "The three WriteCellCapV1 private keys are pairwise distinct; two equal keys fail with BAD_ENCODING.").Checked(rules.Rejecting),

		rules.Must(RuleBlobClassSelect, secSchemas, "A CellBlobV1 decoder MUST be selected by an already authenticated size class 1..5; decoding without such a class fails.").Checked(rules.Rejecting).
			Clarified("§3: \"A decoder MUST be selected by an already authenticated size class.\" No class is serialized in the blob (\"No class discriminator is serialized in the blob\"), and a class read off the blob's own length is not an already authenticated one: a CellBlobV1 decoded with no class fails, whatever its length (formerly reading HR-READ-16)"),
		rules.Must(RuleBlobLengths, secSchemas, "CellBlobV1 total lengths are exactly 4096 (class 1), 16384 (class 2), 65536 (class 3), 262144 (class 4) and 1048576 (class 5) bytes (realized by HR-BLOB-05/06/07).").Checked(rules.General),
		rules.Must(RuleBlobLayout, secSchemas, "CellBlobV1 is formatVersion u8 = 1, a 12-byte nonce and exactly classLength - 13 sealed bytes.").Checked(rules.Constructing),
		rules.Must(RuleBlobNoClassByte, secSchemas, "No class discriminator is serialized in a CellBlobV1.").Checked(rules.Constructing),
		rules.Must(RuleBlobWrongClass, secSchemas, "Decoding a CellBlobV1 with the wrong class (its length is another class's length) fails closed with BAD_ENCODING.").Checked(rules.Rejecting),
		rules.Must(RuleBlobShort, secSchemas, "A CellBlobV1 shorter than its class length fails closed with BAD_ENCODING.").Checked(rules.Rejecting),
		rules.Must(RuleBlobLong, secSchemas, "A CellBlobV1 longer than its class length fails closed with BAD_ENCODING.").Checked(rules.Rejecting),
		rules.Must(RuleBlobAEADOutside, secSchemas, "Nonce uniqueness and AEAD verification are the responsibility of the composing encryption profile; the codec fixes only the envelope bytes and accepts any nonce and sealed bytes, an all-zero nonce included.").Checked(rules.Permitting).
			Clarified("§3: \"Cryptographic nonce uniqueness and AEAD verification are the responsibility of the composing encryption profile; this binary codec only fixes the envelope bytes.\" No CellBlobV1 field is marked nonzero, and a nonce is none of section 2's keys, commitments, hashes, slots, chain IDs or frame hashes: a zero nonce and zero sealed bytes decode (formerly reading HR-READ-05)"),

		rules.Must(RuleCkptLayout, secSchemas, "OpaqueChainCheckpointV1 is version u8 = 1, a 1..1024 array of frontier entries (chainId[32], sequence u64, frameHash[32]), opaqueStateCommitment[32], snapshotPayloadHash[32] and a 1..16 array of ReadCellCapV1, in that order.").Checked(rules.Constructing),
		rules.Must(RuleCkptCapsCanonical, secSchemas, "Each snapshot capability of an OpaqueChainCheckpointV1 is itself a canonical ReadCellCapV1 (\"a 1..16 array of ReadCellCapV1\"): it obeys every ReadCellCapV1 rule (version 1, HR-RCAP-02..06), and a snapshot capability that breaks one fails the checkpoint with BAD_ENCODING under that rule.").Checked(rules.Nesting),
		rules.Must(RuleCkptFrontierCount, secSchemas, "An OpaqueChainCheckpointV1 with 0 or more than 1024 frontier entries fails with BAD_ENCODING.").Checked(rules.Rejecting),
		rules.Must(RuleCkptFrontierOrder, secSchemas, "OpaqueChainCheckpointV1 frontier entries are sorted by chain ID; an entry whose chain ID sorts before its predecessor's fails with BAD_ENCODING.").Checked(rules.Rejecting),
		rules.Must(RuleCkptFrontierDup, secSchemas, "Two OpaqueChainCheckpointV1 frontier entries with equal chain IDs are duplicates and fail with BAD_ENCODING.").Checked(rules.Rejecting),
		rules.Must(RuleCkptChainID, secSchemas, "An OpaqueChainCheckpointV1 frontier chain ID of 32 zero bytes fails with BAD_ENCODING.").Checked(rules.Rejecting),
		rules.Must(RuleCkptFrameHash, secSchemas, "An OpaqueChainCheckpointV1 frontier frame hash of 32 zero bytes fails with BAD_ENCODING.").Checked(rules.Rejecting),
		rules.Must(RuleCkptStateCommit, secSchemas, "An OpaqueChainCheckpointV1 opaqueStateCommitment of 32 zero bytes fails with BAD_ENCODING.").Checked(rules.Rejecting),
		rules.Must(RuleCkptPayloadHash, secSchemas, "An OpaqueChainCheckpointV1 snapshotPayloadHash of 32 zero bytes fails with BAD_ENCODING.").Checked(rules.Rejecting),
		rules.Must(RuleCkptCapsCount, secSchemas, "An OpaqueChainCheckpointV1 with 0 or more than 16 snapshot read capabilities fails with BAD_ENCODING.").Checked(rules.Rejecting),
		rules.Must(RuleCkptCapsOrder, secSchemas, "OpaqueChainCheckpointV1 snapshot read capabilities are sorted by (relayPublicKey, storageSlot); one that sorts before its predecessor fails with BAD_ENCODING.").Checked(rules.Rejecting),
		rules.Must(RuleCkptCapsDuplicate, secSchemas, "Two OpaqueChainCheckpointV1 snapshot read capabilities with equal (relayPublicKey, storageSlot) are duplicates and fail with BAD_ENCODING.").Checked(rules.Rejecting).
			Clarified("§3: \"Snapshot capabilities are strictly sorted by `(relayPublicKey, storageSlot)`\"; §2: \"equal adjacent keys are duplicates and fail closed\". The key is the pair: two capabilities with one pair are duplicates whatever their cell keys, classes or expected hashes (formerly reading HR-READ-17)"),

		rules.Must(RuleFrameLayout, secSchemas, "OpaqueChainFrameV1 is version u8 = 1, chainId[32], sequence u64, optional previousFrameHash[32], transportVerifyKey[32], a 0..256 array of bounded opaque payloads, a 0..16 array of ReadCellCapV1, an optional OpaqueChainCheckpointV1 and transportSignature[64], in that order.").Checked(rules.Constructing),
		rules.Must(RuleFrameCapsCanonical, secSchemas, "Each nextReadCellCaps entry of an OpaqueChainFrameV1 is itself a canonical ReadCellCapV1 (\"0..16 ReadCellCapV1 values\"): it obeys every ReadCellCapV1 rule (version 1, HR-RCAP-02..06), and an entry that breaks one fails the frame with BAD_ENCODING under that rule.").Checked(rules.Nesting),
		rules.Must(RuleFrameCkptCanonical, secSchemas, "A present checkpoint of an OpaqueChainFrameV1 is itself a canonical OpaqueChainCheckpointV1 (\"optional OpaqueChainCheckpointV1\"): it obeys every checkpoint rule (HR-CKPT-02..12) and every ReadCellCapV1 rule of its snapshot capabilities, and a checkpoint that breaks one fails the frame with BAD_ENCODING under that rule.").Checked(rules.Nesting),
		rules.Must(RuleFrameChainID, secSchemas, "An OpaqueChainFrameV1 chainId of 32 zero bytes fails with BAD_ENCODING.").Checked(rules.Rejecting),
		rules.Must(RuleFrameGenesisNoPrev, secSchemas, "An OpaqueChainFrameV1 at sequence 0 with a previous frame hash present fails with BAD_ENCODING.").Checked(rules.Rejecting),
		rules.Must(RuleFrameSuccessorPrev, secSchemas, "An OpaqueChainFrameV1 at a nonzero sequence without a previous frame hash fails with BAD_ENCODING.").Checked(rules.Rejecting),
		rules.Must(RuleFrameVerifyKey, secSchemas, "An OpaqueChainFrameV1 transportVerifyKey of 32 zero bytes fails with BAD_ENCODING.").Checked(rules.Rejecting),
		rules.Must(RuleFramePayloadCount, secSchemas, "An OpaqueChainFrameV1 with more than 256 opaque payloads fails with BAD_ENCODING.").Checked(rules.Rejecting),
		rules.Must(RuleFramePayloadLength, secSchemas, "An OpaqueChainFrameV1 opaque payload longer than 262144 bytes fails with BAD_ENCODING.").Checked(rules.Rejecting),
		rules.Must(RuleFrameCapsCount, secSchemas, "An OpaqueChainFrameV1 with more than 16 next read capabilities fails with BAD_ENCODING.").Checked(rules.Rejecting),
		rules.Must(RuleFrameCapsOrder, secSchemas, "OpaqueChainFrameV1 next read capabilities are sorted by (relayPublicKey, storageSlot); one that sorts before its predecessor fails with BAD_ENCODING.").Checked(rules.Rejecting),
		rules.Must(RuleFrameCapsDuplicate, secSchemas, "Two OpaqueChainFrameV1 next read capabilities with equal (relayPublicKey, storageSlot) are duplicates and fail with BAD_ENCODING.").Checked(rules.Rejecting).
			Clarified("§3: \"Next capabilities are strictly sorted by `(relayPublicKey, storageSlot)`\"; §2: \"equal adjacent keys are duplicates and fail closed\". The key is the pair: two capabilities with one pair are duplicates whatever their other fields (formerly reading HR-READ-17)"),
		rules.Must(RuleFrameNotEmpty, secSchemas, "An OpaqueChainFrameV1 with no payload and no checkpoint fails with BAD_ENCODING.").Checked(rules.Rejecting).
			Clarified("§3: \"`0..256` opaque payloads each `0..262144` bytes\" and \"At least one payload or a checkpoint is required.\" A payload of 0 bytes is one of the payloads: a frame with one empty payload and no checkpoint decodes (formerly reading HR-READ-15)"),
		rules.Must(RuleFrameHigherLevel, secSchemas, "Transport signature verification, sequence increment across two frames and complete chain continuity are higher-level composition checks, not codec checks: the codec accepts a frame whatever the bytes of its 64-byte transport signature.").Checked(rules.Permitting).
			Clarified("§3: \"Signature verification, sequence increment across two frames, and complete chain continuity are higher-level composition checks; this codec fixes the signed record bytes and its local invariants.\" A signature of 64 zero bytes, which no scheme verifies, decodes (formerly reading HR-READ-06). Whether a present previous frame hash of 32 zero bytes decodes is reading HR-READ-03, not this rule"),

		rules.Must(RuleCoreLayout, secSchemas, "BlindCoreReadCapV1 is version u8 = 1, corePublicKey[32], blockEncryptionKey[32], witnessedFork u64, witnessedLength u64 and a bounded witnessedSignedHead, in that order.").Checked(rules.Constructing),
		rules.Must(RuleCorePublicKey, secSchemas, "A BlindCoreReadCapV1 corePublicKey of 32 zero bytes fails with BAD_ENCODING.").Checked(rules.Rejecting),
		rules.Must(RuleCoreBlockKey, secSchemas, "A BlindCoreReadCapV1 blockEncryptionKey of 32 zero bytes fails with BAD_ENCODING.").Checked(rules.Rejecting),
		rules.Must(RuleCoreHeadLength, secSchemas, "A BlindCoreReadCapV1 witnessedSignedHead of 0 or more than 4096 bytes fails with BAD_ENCODING.").Checked(rules.Rejecting),
		rules.Untestable(rules.Must(RuleCoreRelayNeverSee, secSchemas, "The relay never receives the block-encryption key or a complete BlindCoreReadCapV1.").Checked(rules.Outside),
			"it binds relays and the clients that send to them (who is given what), not the codec, which decodes whatever bytes it is given"),

		rules.Must(RuleCatalogLayout, secAuthority, "The schema catalog hiverelay-blind-client-composition-schema-catalog-v1.cenc is a compact-uint entry count, then per entry category u8, local id u8, name, declaration and a compact-uint count of dependency names, each string a bounded byte string (project-defined layout, docs/hiverelay.md).").Checked(rules.Constructing).Defined(catalogLayout),
		rules.Must(RuleCatalogEntryCount, secFormat, "A schema catalog whose entry count is not exactly 6 fails with BAD_ENCODING.").Checked(rules.Rejecting),
		rules.Must(RuleCatalogCategory, secAuthority, "A schema catalog entry whose category is not 3 (CLIENT_EXAMPLE) fails with BAD_ENCODING.").Checked(rules.Rejecting),
		rules.Must(RuleCatalogLocalID, secAuthority, "Schema catalog entries carry local IDs 1 through 6 respectively; any other local ID fails with BAD_ENCODING.").Checked(rules.Rejecting),
		rules.Must(RuleCatalogNames, secAuthority, "Schema catalog entry i carries the i-th of the six names in raw-ASCII order; any other name fails with BAD_ENCODING.").Checked(rules.Rejecting),
		rules.Must(RuleCatalogDeclLength, secAuthority, "A schema catalog declaration of 0 or more than 65535 bytes fails with BAD_ENCODING (project-defined bound).").Checked(rules.Rejecting).Defined("the bound of 65535 bytes is the project's: the spec gives no declaration length (docs/hiverelay.md, The schema catalog)"),
		rules.Must(RuleCatalogDeclText, secAuthority, "A schema catalog declaration that is not strict UTF-8, or holds a control character other than LF, fails with BAD_ENCODING (project-defined).").Checked(rules.Rejecting).Defined("the spec gives no declaration text rules; strict UTF-8 without controls but LF is the project's (docs/hiverelay.md, The schema catalog)"),
		rules.Must(RuleCatalogDeclHead, secAuthority, "A schema catalog declaration that does not begin with its entry's name followed by \" {\" and LF, and end with LF and \"}\", fails with BAD_ENCODING (project-defined).").Checked(rules.Rejecting).Defined("the spec does not give the declarations' form (the meta-grammar is not given); the head and tail are the project's (docs/hiverelay.md, The schema catalog)"),
		rules.Must(RuleCatalogDepsOrder, secAuthority, "Schema catalog dependency names are sorted in raw-ASCII order; one that sorts before its predecessor fails with BAD_ENCODING.").Checked(rules.Rejecting).Defined(catalogLayout),
		rules.Must(RuleCatalogDepsDuplicate, secAuthority, "Two equal schema catalog dependency names of one entry are duplicates and fail with BAD_ENCODING.").Checked(rules.Rejecting).Defined(catalogLayout),
		rules.Must(RuleCatalogDepsClosed, secAuthority, "A schema catalog dependency that is not one of the six names of this authority, names its own entry, or makes the list longer than the five other names fails with BAD_ENCODING; under reading HR-READ-04's alternative derived-from-declaration, so does a dependency list other than the names the declaration mentions.").Checked(rules.Rejecting).Defined("the spec keeps categories 1, 4 and 5 out of the catalog (section 1); that a dependency names one of the five other entries, and at most five, is the project's catalog layout (docs/hiverelay.md, The schema catalog)"),

		rules.Must(RuleFmtLayout, secFormat, "The format artifact is ASCII \"HRBCCF01\", authorityVersion u16be = 1, formatMajor u16be = 1, formatMinor u16be = 0, specLength u64be, schemaCatalogLength u64be, the spec bytes and the schema catalog bytes.").Checked(rules.Constructing),
		rules.Must(RuleFmtMagic, secFormat, "A format artifact that does not begin with ASCII \"HRBCCF01\" fails closed.").Checked(rules.Rejecting),
		rules.Must(RuleFmtAuthority, secFormat, "A format artifact whose authorityVersion is not 1 fails with BAD_ENCODING.").Checked(rules.Rejecting),
		rules.Must(RuleFmtMajor, secFormat, "A format artifact whose formatMajor is not 1 fails with BAD_ENCODING.").Checked(rules.Rejecting),
		rules.Must(RuleFmtMinor, secFormat, "A format artifact whose formatMinor is not 0 fails with BAD_ENCODING.").Checked(rules.Rejecting),
		rules.Untestable(rules.Must(RuleFmtSpecEmpty, secFormat, "A format artifact whose specLength is zero fails with BAD_ENCODING.").Checked(rules.Rejecting),
			"subsumed by HR-FMT-14: empty spec bytes have no final LF, so an artifact whose specLength is zero is refused by the exactly-one-final-LF rule even without this check (TestEmptySectionsSubsumed)"),
		rules.Must(RuleFmtSpecMax, secFormat, "A format artifact whose specLength exceeds 1 MiB (1048576) fails with BAD_ENCODING.").Checked(rules.Rejecting),
		rules.Untestable(rules.Must(RuleFmtCatalogEmpty, secFormat, "A format artifact whose schemaCatalogLength is zero fails with BAD_ENCODING.").Checked(rules.Rejecting),
			"subsumed by HR-CENC-11: an empty catalog cannot hold its entry count, so an artifact whose schemaCatalogLength is zero is refused as truncated even without this check (TestEmptySectionsSubsumed)"),
		rules.Untestable(rules.Must(RuleFmtCatalogMax, secFormat, "A format artifact whose schemaCatalogLength exceeds 1 MiB (1048576) fails with BAD_ENCODING.").Checked(rules.Rejecting),
			"subsumed by the catalog rules: a valid catalog holds the six names of section 1, declarations of at most 65535 bytes (HR-CAT-06) and at most five dependencies each (HR-CAT-11), 393859 bytes at most, so catalog bytes longer than 1 MiB are refused as trailing bytes (HR-CENC-12), or as truncated (HR-CENC-11) when the input is shorter, even without this check (TestLargeCatalogSubsumed)"),
		rules.Must(RuleFmtSpecCR, secFormat, "Spec bytes use LF only; a CR byte fails closed.").Checked(rules.Rejecting),
		rules.Must(RuleFmtSpecBOM, secFormat, "Spec bytes hold no byte order mark: spec bytes that start with U+FEFF (EF BB BF) fail closed (reading HR-READ-19; under its alternative feff-anywhere, U+FEFF anywhere in them fails).").Checked(rules.Rejecting),
		rules.Must(RuleFmtSpecNUL, secFormat, "Spec bytes hold no NUL byte; one fails closed.").Checked(rules.Rejecting),
		rules.Must(RuleFmtSpecUTF8, secFormat, "Spec bytes are strict UTF-8; anything else fails closed.").Checked(rules.Rejecting),
		rules.Must(RuleFmtSpecFinalLF, secFormat, "Spec bytes end with exactly one final LF; no final LF, or more than one, fails closed.").Checked(rules.Rejecting),
		rules.Must(RuleFmtCatalogDecode, secFormat, "The embedded catalog decodes canonically to exactly the six names and local IDs of section 1 (realized by HR-CAT-02..11 and the primitives).").Checked(rules.General),
		rules.Must(RuleFmtTrailing, secFormat, "Bytes after the schema catalog of a format artifact fail closed with BAD_ENCODING.").Checked(rules.Rejecting),
		rules.Must(RuleFmtSpecExact, secFormat, "The spec bytes of the authority's format artifact are exactly the bytes of this specification file (7985 bytes, SHA-256 c8b2941c96eaf370...) and its catalog the authority's six-entry catalog: complete authority verification against a metadata artifact, which names this authority, fails for any other spec bytes; under reading HR-READ-01's alternative exact-authority-bytes, format verification itself fails for any other spec bytes or catalog.").Checked(rules.Rejecting).
			Clarified("§4: \"specBytes[specLength] // this exact UTF-8 file\": a metadata artifact names this authority, whose format artifact embeds this exact file, so verification against it fails for any other spec text whatever its hash (formerly reading HR-READ-14)"),
		rules.Must(RuleFmtHash, secFormat, "clientCompositionFormatHash = BLAKE2b-256(ASCII(\"hiverelay.blind.client-composition-format-hash.v1\") || U64BE(len(completeFormatArtifact)) || completeFormatArtifact).").Checked(rules.Constructing),
	},
	manifest.Rules(),
	[]rules.Rule{
		rules.Must(RuleVecInventory, secVectors, "The vector set is exactly the 18 paths of the closed path inventory (realized by HR-VEC-02 and HR-VEC-03).").Checked(rules.General),
		rules.Must(RuleVecMissing, secVectors, "A vector set missing an inventory path, or a vector its manifest names, fails complete authority verification.").Checked(rules.Rejecting),
		rules.Must(RuleVecExtra, secVectors, "A vector set with a path outside the inventory, or a file its manifest does not name, fails complete authority verification.").Checked(rules.Rejecting),
		rules.Must(RuleVecSubstituted, secVectors, "A vector whose bytes differ from its manifest row (length or BLAKE2b-256) is substituted and fails complete authority verification.").Checked(rules.Rejecting),
		rules.Must(RuleVecPositive, secVectors, "Every positive vector MUST decode with its named codec and re-encode byte-for-byte; one that does not is misclassified and fails complete authority verification.").Checked(rules.Rejecting),
		rules.Must(RuleVecBlobClass, secVectors, "The five blob vectors MUST decode only with their stated contextual class; one that decodes with another class is misclassified and fails complete authority verification.").Checked(rules.Rejecting),
		rules.Must(RuleVecNegative, secVectors, "Every negative vector MUST fail canonical decoding with BAD_ENCODING for the condition named by its path; one that decodes, or fails for another rule, is misclassified and fails complete authority verification.").Checked(rules.Rejecting),
		rules.Must(RuleVecRegistry, secVectors, "The registry vector MUST equal the catalog embedded in the format artifact; any other bytes fail complete authority verification.").Checked(rules.Rejecting),
		rules.Must(RuleVecSetHash, secVectors, "clientCompositionVectorSetHash = BLAKE2b-256(ASCII(\"hiverelay.blind.client-composition-vector-set-hash.v1\") || U64BE(len(completeVectorManifest)) || completeVectorManifest).").Checked(rules.Constructing),
		rules.Must(RuleVecIdentity, secVectors, "The final identity of this authority is the pair (clientCompositionFormatHash, clientCompositionVectorSetHash), published in the generated metadata artifact (project-defined format, docs/hiverelay.md).").Checked(rules.Rejecting).Defined("the spec names the pair and a generated metadata artifact but not its format; the JSON metadata artifact and its checks are the project's (docs/hiverelay.md, The metadata artifact)"),
		rules.Untestable(rules.Must(RuleVecNotWireTuple, secVectors, "Neither clientCompositionFormatHash nor clientCompositionVectorSetHash is a relay WIRE tuple component.").Checked(rules.Outside),
			"it binds relays (what their WIRE tuple is made of), which no conformance request reaches; the identity pair a testee computes and publishes is checked by HR-FMT-18, HR-VEC-09 and HR-VEC-10"),
	},
)...)

// primitives are the rules of section 2 (cenc.Rules), HR-CENC-08 marked
// as subsumed by the range rules of section 3.
func primitives() []rules.Rule {
	rs := cenc.Rules()
	for i := range rs {
		if rs[i].ID == cenc.RuleCompactSafe {
			rs[i] = rules.Untestable(rs[i], "subsumed by the range rules (HR-CENC-13): every compact uint of this authority is an array count or a byte-string length whose range maximum is below 2^53 (HR-CKPT-02/09, HR-FRAME-06/07/08, HR-BCORE-04, HR-CAT-02/05/06/11) and is checked before anything else, so a value above 2^53-1 is refused by that range rule even without this check (TestSafeIntegerBoundSubsumed, at 2^53 and 2^64-1 in every compact uint of the six records and the catalog)")
		}
	}
	return rs
}

// realized lists, for each General rule, the specific rules whose
// rejections carry it.
var realized = map[rules.ID][]rules.ID{
	RuleClosedNames:       {RuleCatalogEntryCount, RuleCatalogNames, RuleVecMissing, RuleVecExtra},
	RuleForeignCategories: {RuleCatalogCategory, RuleCatalogNames, RuleCatalogDepsClosed, RuleVecExtra},
	cenc.RuleOutOfRange: {RuleRCapSizeClass, RuleCkptFrontierCount, RuleCkptCapsCount, RuleFramePayloadCount,
		RuleFramePayloadLength, RuleFrameCapsCount, RuleCoreHeadLength, cenc.RuleCompactSafe},
	cenc.RuleNonCanonical: {cenc.RuleCompactOverlong, cenc.RuleOptionalTag, RuleCkptFrontierOrder, RuleCkptCapsOrder,
		RuleFrameCapsOrder, RuleFrameGenesisNoPrev, RuleFrameSuccessorPrev},
	cenc.RuleBadEncodingCode: {cenc.RuleTruncated, cenc.RuleTrailing, cenc.RuleUnknownVersion},
	cenc.RuleNonzero: {RuleRCapRelayKey, RuleRCapStorageSlot, RuleRCapCellKey, RuleRCapExpectedHash,
		RuleWCapCreateKey, RuleWCapRenewKey, RuleWCapDropKey, RuleCkptChainID, RuleCkptFrameHash,
		RuleCkptStateCommit, RuleCkptPayloadHash, RuleFrameChainID, RuleFrameVerifyKey,
		RuleCorePublicKey, RuleCoreBlockKey},
	cenc.RuleSortOrder:     {RuleCkptFrontierOrder, RuleCkptCapsOrder, RuleFrameCapsOrder, RuleCatalogDepsOrder, manifest.RuleUnsorted},
	cenc.RuleSortDuplicate: {RuleCkptFrontierDup, RuleCkptCapsDuplicate, RuleFrameCapsDuplicate, RuleCatalogDepsDuplicate, manifest.RuleDuplicate},
	RuleBlobLengths:        {RuleBlobWrongClass, RuleBlobShort, RuleBlobLong},
	RuleFmtCatalogDecode: {RuleCatalogEntryCount, RuleCatalogCategory, RuleCatalogLocalID, RuleCatalogNames,
		RuleCatalogDeclLength, RuleCatalogDeclText, RuleCatalogDeclHead, RuleCatalogDepsOrder,
		RuleCatalogDepsDuplicate, RuleCatalogDepsClosed},
	RuleVecInventory: {RuleVecMissing, RuleVecExtra},
}

// Under fault injection, switching off a general rule switches off the
// specific rules that realize it (cenc.Rejects), as an implementation that
// ignores "fields marked nonzero are nonzero" ignores every nonzero check.
// HR-CENC-15 is the exception: its fault is the wrong code (cenc), not an
// accepted input.
func init() {
	for general, specific := range realized {
		if general != cenc.RuleBadEncodingCode {
			cenc.RegisterRealized(general, specific...)
		}
	}
}

// nestings lists, for each Nesting rule, where its nested values lie: the
// schema and the field-path prefix of the values it governs (paths as the
// decoder's scopes name them, e.g. "checkpoint.snapshotReadCaps[1].cellKey").
var nestings = []struct {
	rule           rules.ID
	schema, prefix string
}{
	{RuleCkptCapsCanonical, SchemaOpaqueChainCheckpointV1, "snapshotReadCaps["},
	{RuleCkptCapsCanonical, SchemaOpaqueChainFrameV1, "checkpoint.snapshotReadCaps["},
	{RuleFrameCapsCanonical, SchemaOpaqueChainFrameV1, "nextReadCellCaps["},
	{RuleFrameCkptCanonical, SchemaOpaqueChainFrameV1, "checkpoint."},
}

// NestingRules returns the Nesting rules that a rejection by rule of the
// field at path of a schema record also tests: those whose nested value
// holds the field, when rule is one of that value's own record checks
// (RecordCheck). A codec that reads the nested value by its layout alone
// accepts such an input.
func NestingRules(schema, path string, rule rules.ID) []rules.ID {
	if !RecordCheck(rule) {
		return nil
	}
	var out []rules.ID
	for _, n := range nestings {
		if n.schema == schema && strings.HasPrefix(path, n.prefix) {
			out = append(out, n.rule)
		}
	}
	return out
}

// RecordCheck reports whether rule is a record's own check (version,
// nonzero fields, ranges, sorting: every section 3 rule and HR-CENC-10), as
// opposed to a primitive's reading (truncation, optional tags, compact
// forms), which a layout-only reader of nested values still performs.
func RecordCheck(rule rules.ID) bool {
	id := string(rule)
	return rule == cenc.RuleUnknownVersion || strings.HasPrefix(id, "HR-RCAP-") ||
		strings.HasPrefix(id, "HR-CKPT-") || strings.HasPrefix(id, "HR-FRAME-")
}

// CheckOf reports how rule id is checked (its catalog entry's Check);
// rules.Unclassified for an ID not in the catalog.
func CheckOf(id rules.ID) rules.Check {
	r, _ := ruleCatalog.Lookup(id)
	return r.Check
}

// RealizedBy returns the specific rules whose rejections carry the General
// rule id, or nil.
func RealizedBy(id rules.ID) []rules.ID { return realized[id] }

// unnamedCode are the rules whose failures the spec says only "fail
// closed" or "fail complete authority verification": it names no code for
// them (HR-CENC-15's clarified note). The reference answers BAD_ENCODING
// for them too, the one code a testee needs; a vector accepts any code.
var unnamedCode = map[rules.ID]bool{
	RuleFmtMagic: true, RuleFmtSpecCR: true, RuleFmtSpecBOM: true, RuleFmtSpecNUL: true,
	RuleFmtSpecUTF8: true, RuleFmtSpecFinalLF: true, RuleFmtSpecExact: true,
}

// SpecCode returns the code the spec names for a failure reported under
// rule id: BAD_ENCODING for §2's classes ("Unknown versions, truncation,
// trailing bytes, out-of-range values, and non-canonical encodings fail
// with `BAD_ENCODING`") in every layout built of §2's primitives (the six
// codecs, whose negative vectors §5 says "fail canonical decoding with
// `BAD_ENCODING`", the catalog, which "decodes canonically", and the
// artifact's header fields), and "" where the spec names none: the
// manifest's conditions (§5: "... manifests fail closed"), the artifact's
// magic and spec-text conditions, and complete authority verification.
func SpecCode(id rules.ID) string {
	s := string(id)
	if unnamedCode[id] || strings.HasPrefix(s, "HR-MAN-") || strings.HasPrefix(s, "HR-VEC-") || strings.HasPrefix(s, "HR-AUTH-") {
		return ""
	}
	return cenc.Code
}
