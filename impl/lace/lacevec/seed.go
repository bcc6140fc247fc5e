package lacevec

import (
	"github.com/threespec/conformance/impl/lace"
	"github.com/threespec/conformance/impl/lace/lacespec"
)

// Lace-010, "A canonical vector covers all three record forms": the three
// records, byte for byte as the specification prints them (five data bytes
// hello, no LF after the final o), and the hash texts it prints. The test
// TestSeedMatchesSpec compares them with specs/lace-010-records.txt.
const (
	seedBlobHash = "B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3"
	seedPlexHash = "P.roNBC0l3CG4ezmPY5F3H_pLBDBecaAYZRbOJ1aT7pqK.H3"
	seedSealHash = "S.ZGEVHbEEKmCMF2aSbmbQ4~trwxANOQFmraeGg_JAp9C.H3"
	seedBy       = "V.8qgOfsaEJkK1tzX51sTT9NKdM8J2SrzQq6k8cRPzvP0.H3"
	seedMark     = "t9QAUgyE1c391D6RsPH_gok2OXEPTRfcp4HOa_Wcyx8143adV34c1ReKeGmWXXn6ictYPxDz5ULgqz0RK4sbPl"

	// kaMark is the canonical 009 known-answer Mark quoted in "Boundary and
	// rejection examples": right form and key, made over a different digest.
	kaMark = "gZnQE_RNHTpWu8N~RYMGMTjGo~CTh6qutD7ZfmssgOGH8E_wSP3cEf_Q6QGOGpC2Pkl_~4lVP9NtD5gsNxrxhG"

	seedBlobText = "🖧: " + seedBlobHash + "\nData-Length: 5\n\nhello"
	seedPlexText = "🖧: " + seedPlexHash + "\nApp: chat\nApp: archive\nGroup: room7\nName: note\nTAI: tomorrow\n" + seedBlobText
	seedSealText = "🖧: " + seedSealHash + "\nBy: " + seedBy + "\nMark: " + seedMark + "\n" + seedPlexText
)

// seedFields are the canonical Plex's field lines; the two App occurrences
// keep caller order (chat, then archive).
var seedFields = []string{"App: chat", "App: archive", "Group: room7", "Name: note", "TAI: tomorrow"}

var hello = []byte("hello")

// The canonical records as the generator's models. TestSeedMatchesSpec
// checks that they lay out to exactly the printed bytes, so that their
// hashes, computed here, are the printed ones.
func seedBlob() record { return blobR(hello) }
func seedPlex() record { return plexR(hello, seedFields...) }
func seedSeal() record {
	return sealR([]string{"By: " + seedBy, "Mark: " + seedMark}, seedPlex())
}

// seedVectors are the canonical vector's known answers: each record, with
// the hash text the specification prints.
func seedVectors(g *gen) {
	ka := tags("known-answer")
	g.add(vec{name: "seed-blob", op: lacespec.OpRecord, in: []byte(seedBlobText), ok: true,
		result: map[string]any{"form": "blob", "hash": seedBlobHash}, rules: ids(lace.RuleVecBlob, lace.RuleGlyphDigestBytes, lace.RuleBlobExactData),
		tags: ka, comment: "the canonical Blob of Lace-010 (data hello, no final LF) with its printed hash", rec: recPtr(seedBlob())})
	g.add(vec{name: "seed-plex", op: lacespec.OpRecord, in: []byte(seedPlexText), ok: true,
		result: map[string]any{"form": "plex", "hash": seedPlexHash},
		rules:  ids(lace.RuleVecPlex, lace.RuleVecAppOrder, lace.RulePlexStructure, lace.RulePlexValuesUnsorted, lace.RuleGlyphEmbedded),
		tags:   ka, comment: "the canonical Plex of Lace-010, App: chat before App: archive, with its printed hash", rec: recPtr(seedPlex())})
	g.add(vec{name: "seed-seal-mark-not-verified", op: lacespec.OpRecord, in: []byte(seedSealText), ok: true,
		result: map[string]any{"form": "seal", "hash": seedSealHash},
		rules:  ids(lace.RuleVecSeal, lace.RuleSealStructure, lace.RuleSealByText, lace.RuleSealMarkText, lace.RuleNestSeal),
		tags:   ka, comment: "the canonical Seal under mark none: structure, outer and embedded hashes and canonical By/Mark text checked; its 009 Mark is not verified", rec: recPtr(seedSeal())})
	g.add(vec{name: "seed-seal-mark-009", op: lacespec.OpRecord, mark: mark009, in: []byte(seedSealText), ok: true,
		result: map[string]any{"form": "seal", "hash": seedSealHash},
		rules:  ids(lace.RuleVecSealMark, lace.RuleVecSeal, lace.RuleSealVerify, lace.RuleSealSubject),
		tags:   ka, comment: "the canonical Seal verified under the real 009: its Mark by the secret of 32 0x07 bytes over the embedded Plex digest"})
}

func recPtr(r record) *record { return &r }
