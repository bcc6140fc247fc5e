package lacevec

import (
	"bytes"
	"encoding/hex"
	"strings"

	"github.com/threespec/conformance/impl/lace"
	"github.com/threespec/conformance/impl/lace/lacespec"
	"github.com/threespec/conformance/vectorset"
)

// Blob data limit and record-size maxima (Lace-010, "Blob records carry
// opaque bytes" and "Maximum H3 record size is bounded"). Inputs of 32 MiB
// are recipes (docs/VECTORS.md, "Recipes"): their text as hex parts, the
// repeated data and field lines as repeat parts.

func hexPart(b []byte) vectorset.Part { return vectorset.Part{Hex: hex.EncodeToString(b)} }

func repeatPart(b []byte, n int64) vectorset.Part {
	return vectorset.Part{Repeat: &vectorset.Repeat{Hex: hex.EncodeToString(b), Count: n}}
}

// bigRecipe is the recipe of r, whose data is bytes 'a' and whose fields
// (if any) are all the same line: hex parts for the glyph, envelope and
// structural lines, repeat parts for the field lines and the data. It also
// returns r's lace.record result (each 32 MiB digest is computed once).
func bigRecipe(r record) (*vectorset.Recipe, map[string]any) {
	l := r.levels(r.form)
	var head []byte
	var parts []vectorset.Part
	if r.form == 'S' {
		head = append(glyphText(l.sealHash), lines(r.env)...)
	}
	if r.form != 'B' {
		head = append(head, glyphText(l.plexHash)...)
		parts = append(parts, hexPart(head))
		if len(r.fields) > 0 {
			parts = append(parts, repeatPart([]byte(r.fields[0]+"\n"), int64(len(r.fields))))
		}
		head = nil
	}
	head = append(head, glyphText(l.blobHash)...)
	head = append(head, l.blobPayload[0]...)
	hash := map[byte]string{'B': l.blobHash, 'P': l.plexHash, 'S': l.sealHash}[r.form]
	return &vectorset.Recipe{Parts: append(parts, hexPart(head), repeatPart([]byte("a"), int64(len(r.data))))},
		map[string]any{"form": formName(r.form), "hash": hash}
}

func sizeVectors(g *gen) {
	data := bytes.Repeat([]byte("a"), maxData+1)
	atLimit := data[:maxData]
	tg := tags("boundary")

	recipe, result := bigRecipe(blobR(atLimit))
	g.add(vec{name: "blob-32mib", op: lacespec.OpRecord, recipe: recipe, ok: true, result: result,
		rules: ids(lace.RuleBlobMaxData, lace.RuleSizeBlob), tags: tg,
		comment: "a Blob of exactly 32 MiB (33,554,432 data bytes a): 33,554,510 bytes, the largest Blob"})
	recipe, _ = bigRecipe(blobR(data))
	g.add(vec{name: "blob-32mib-plus-1", op: lacespec.OpRecord, recipe: recipe,
		rules: ids(lace.RuleBlobMaxData, lace.RuleSizeBlob), tags: tg,
		comment: "a Blob of 32 MiB + 1 data bytes, digest correct: over the Blob data limit"})
	// A prefix suffices: the limit is judged from Data-Length, before any data is read.
	g.reject("blob-data-length-33554433-short", blobDL([]byte("abc"), "Data-Length: 33554433").bytes(), ids(lace.RuleBlobMaxData), tg,
		"Data-Length: 33554433 with three data bytes: rejected for the 32 MiB limit before the data is read")

	line := "X: " + strings.Repeat("a", 125)
	fields := make([]string, maxFields)
	for i := range fields {
		fields[i] = line
	}
	plex := plexR(atLimit, fields...)
	recipe, result = bigRecipe(plex)
	g.add(vec{name: "plex-max-size", op: lacespec.OpRecord, recipe: recipe, ok: true, result: result,
		rules: ids(lace.RuleSizePlex, lace.RulePlexMaxFields, lace.RuleFieldLineLength, lace.RuleBlobMaxData), tags: tg,
		comment: "the largest Plex: 512 field lines of 129 bytes over a 32 MiB Blob, 33,620,613 bytes"})
	recipe, result = bigRecipe(signer7.seal(plex))
	g.add(vec{name: "seal-max-size", op: lacespec.OpRecord, recipe: recipe, ok: true, result: result,
		rules: ids(lace.RuleSizeSeal, lace.RulePlexMaxFields, lace.RuleBlobMaxData), tags: tg,
		comment: "the largest Seal: 53-byte By and 93-byte Mark lines over the largest Plex, 33,620,814 bytes (Mark not verified)"})
	// The same structure cut before its data fits the maximum yet is invalid.
	g.reject("plex-max-size-without-data", concat(plex.plexRecord()[:4]...), ids(lace.RuleBlobExactData, lace.RuleSizeNotProof), tg,
		"the largest Plex up to its blank line, no data: fitting the maximum proves nothing, structure is validated")
}
