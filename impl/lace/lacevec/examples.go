package lacevec

import (
	"strconv"
	"strings"

	"github.com/threespec/conformance/impl/lace"
)

// Lace-010, "Boundary and rejection examples": every worked example, on both
// sides of its bound, and every item of the closing list of rejections.
// Items the record rules of other sections already state are generated
// there (fieldVectors, blobVectors, sealVectors, ...); this file has the
// worked examples (LACE-EX-01..10).

// The standard signers: the canonical vector's secret (32 0x07 bytes) and
// another one.
var (
	signer7 = newSigner(7)
	signer9 = newSigner(9)
)

func exampleVectors(g *gen) {
	b := tags("boundary")

	// 128 bytes is valid, 129 invalid; ASCII and é (LACE-EX-01, -02).
	line128 := "X: " + strings.Repeat("a", 125)
	g.accept("plex-field-line-128-bytes-ascii", plexR(hello, line128), ids(lace.RuleExLineASCII, lace.RuleFieldLineLength), b,
		"X: plus 125 ASCII a is a 128-byte field line, the most allowed")
	g.reject("plex-field-line-129-bytes-ascii", plexR(hello, line128+"a").bytes(), ids(lace.RuleFieldLineLength, lace.RuleExLineASCII), b,
		"X: plus 126 ASCII a is 129 bytes, one over the 128-byte field-line limit")
	lineE := "X: " + strings.Repeat("é", 62) + "a"
	g.accept("plex-field-line-128-bytes-e-acute", plexR(hello, lineE), ids(lace.RuleExLineUTF8, lace.RuleFieldLineLength), b,
		"X: plus 62 NFC é (two bytes each) and one a is 128 UTF-8 bytes: accepted")
	g.reject("plex-field-line-129-bytes-e-acute", plexR(hello, lineE+"a").bytes(), ids(lace.RuleFieldLineLength, lace.RuleExLineUTF8), b,
		"X: plus 62 é and two a is 129 UTF-8 bytes (67 characters): the limit counts bytes")

	// One field is valid, zero invalid; 512 valid, 513 invalid (LACE-EX-03, -04).
	g.accept("plex-one-field", plexR(hello, "App: chat"), ids(lace.RuleExOneField, lace.RulePlexMinFields), b,
		"a Plex with one application field is valid")
	g.reject("plex-zero-fields", rawRecord('P', seedBlob().bytes()), ids(lace.RulePlexMinFields, lace.RuleExOneField), b,
		"a Plex whose glyph line is followed immediately by its embedded Blob has zero fields")
	many := make([]string, 513)
	for i := range many {
		many[i] = "F: " + strconv.Itoa(i)
	}
	g.accept("plex-512-fields", plexR(nil, many[:512]...), ids(lace.RuleExMaxFields, lace.RulePlexMaxFields, lace.RuleExRepeatedNames), b,
		"a Plex with 512 field occurrences (one repeated name) is valid")
	g.reject("plex-513-fields", plexR(nil, many...).bytes(), ids(lace.RulePlexMaxFields, lace.RuleExMaxFields), b,
		"a Plex with 513 field occurrences is invalid")

	// Label/Mode (LACE-EX-05, -06, -07; the constructor side is in constructVectors).
	g.accept("plex-label-second-first-mode-public", plexR(hello, "Label: second", "Label: first", "Mode: public"),
		ids(lace.RuleExRepeatedNames, lace.RulePlexSameName, lace.RulePlexValuesUnsorted), nil,
		"Label: second, Label: first, Mode: public is valid in this order: same names keep their order, values do not sort")
	g.accept("plex-label-first-second-mode-public", plexR(hello, "Label: first", "Label: second", "Mode: public"),
		ids(lace.RuleExRepeatedNames, lace.RulePlexSameName), nil,
		"the two Label values in the other order are a valid Plex too, with another hash: same-name order is significant")
	g.reject("plex-mode-before-label", plexR(hello, "Mode: public", "Label: second", "Label: first").bytes(),
		ids(lace.RulePlexOrder, lace.RuleExReversed), nil, "Mode before Label decreases the field-name bytes")

	// Group before App in the canonical vector, every hash recomputed (LACE-EX-08).
	moved := plexR(hello, "Group: room7", "App: chat", "App: archive", "Name: note", "TAI: tomorrow")
	g.reject("plex-group-before-app", moved.bytes(), ids(lace.RulePlexOrder, lace.RuleExGroupFirst), nil,
		"the canonical Plex with Group: room7 moved before the App lines, hash recomputed: Group to App decreases")
	g.reject("seal-group-before-app", sealR([]string{"By: " + seedBy, "Mark: " + seedMark}, moved).bytes(),
		ids(lace.RulePlexOrder, lace.RuleExGroupFirst), nil,
		"the canonical Seal with Group: room7 moved before the App lines, Plex and Seal hashes recomputed")

	// The known-answer Mark over a different digest (LACE-EX-09).
	ka := sealR([]string{"By: " + seedBy, "Mark: " + kaMark}, seedPlex())
	g.rejectMark("seal-known-answer-mark-other-digest", mark009, ka.bytes(), ids(lace.RuleSealVerify, lace.RuleExForeignMark), tags("known-answer"),
		"the canonical Seal with the 009 known-answer Mark, Seal hash recomputed: right form and key, made over a different digest")
	other := plexR(hello, "App: archive")
	standinKA := sealR([]string{"By: " + signer7.by, "Mark: " + signer7.markOver(digestOf(other.plexPayload()...))}, plexR(hello, "App: chat"))
	g.rejectMark("seal-standin-mark-other-digest", markStandin, standinKA.bytes(), ids(lace.RuleSealVerify, lace.RuleExForeignMark), nil,
		"the stand-in's form of the known-answer example: a Mark by the right key over another Plex's digest")

	// A Seal cannot wrap the displayed Blob (LACE-EX-10).
	g.reject("seal-wrapping-blob", rawRecord('S', lines([]string{"By: " + seedBy, "Mark: " + seedMark}), seedBlob().bytes()),
		ids(lace.RuleSealNoBlob, lace.RuleExSealOverBlob), nil,
		"the canonical Seal's envelope over the canonical Blob instead of the Plex, Seal hash recomputed")
}
