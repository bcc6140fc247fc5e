package hivevec

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	hr "github.com/threespec/conformance/impl/hiverelay"
	"github.com/threespec/conformance/impl/hiverelay/hivespec"
	"github.com/threespec/conformance/impl/manifest"
	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/vectorset"
)

// hiverelay.authority vectors (section 5, "complete authority
// verification"): the authority's files as one JSON object (docs/PROTOCOL.md),
// the published identity computed here from the formulas, and a negative for
// every way a vector set can fail verification (missing, extra, substituted,
// misclassified, a foreign registry, a metadata artifact that is not the
// identity, an artifact that is not this spec's).
//
// The inputs embed the 18 inventory files (1.4 MiB, five of them blobs), so
// they are recipes: JSON text as hex parts around file_base64 parts that
// name the committed files (docs/VECTORS.md), 2 MiB each when expanded.

var authorityOp = request{hivespec.OpAuthority, json.RawMessage("{}"), ".json"}

// authFile is one member of the input's "files": a suite-tree file, or bytes
// given inline (for files that are not committed vectors).
type authFile struct {
	tree string
	raw  []byte
}

// authInput is what an authority vector sends: the format artifact (a
// suite-tree file), the vector manifest (a suite-tree file, or "" to have
// the testee frame it from the files), the files by inventory path, and the
// metadata artifact (nil: none).
type authInput struct {
	artifact string
	manifest string
	files    map[string]authFile
	metadata []byte
}

// parts writes the input as recipe parts, members in a fixed order: JSON
// text as hex (adjacent text merged), committed files as file_base64.
func (in authInput) parts() []vectorset.Part {
	var parts []vectorset.Part
	var text strings.Builder
	flush := func() {
		if text.Len() > 0 {
			parts = append(parts, vectorset.Part{Hex: hex.EncodeToString([]byte(text.String()))})
			text.Reset()
		}
	}
	tree := func(p string) {
		flush()
		parts = append(parts, vectorset.Part{FileBase64: p})
	}
	text.WriteString(`{"format_artifact":"`)
	tree(in.artifact)
	text.WriteString(`","files":{`)
	paths := make([]string, 0, len(in.files))
	for p := range in.files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for i, p := range paths {
		if i > 0 {
			text.WriteByte(',')
		}
		name, _ := json.Marshal(p)
		text.Write(name)
		text.WriteString(`:"`)
		if f := in.files[p]; f.tree != "" {
			tree(f.tree)
		} else {
			text.WriteString(base64.StdEncoding.EncodeToString(f.raw))
		}
		text.WriteByte('"')
	}
	text.WriteByte('}')
	if in.manifest != "" {
		text.WriteString(`,"vector_manifest":"`)
		tree(in.manifest)
		text.WriteByte('"')
	}
	if in.metadata != nil {
		text.WriteString(`,"metadata":"` + base64.StdEncoding.EncodeToString(in.metadata) + `"`)
	}
	text.WriteByte('}')
	flush()
	return parts
}

// metadataFor writes the metadata artifact (docs/hiverelay.md, "The
// metadata artifact") of a format artifact and a vector manifest of n rows.
func metadataFor(artifact, m []byte, n int) []byte {
	vh := domainHash(vectorSetHashDomain, m)
	return fmt.Appendf(nil, `{"authority":"hiverelay-blind-client-composition-v1","clientCompositionFormatHash":"%s","clientCompositionVectorSetHash":"%x",`+
		`"formatArtifact":"hiverelay-blind-client-composition-format-v1.cenc","formatArtifactLength":%d,`+
		`"vectorManifest":"hiverelay-blind-client-composition-vector-manifest-v1.bin","vectorManifestEntries":%d,"vectorManifestLength":%d}`+"\n",
		formatHash(artifact), vh, len(artifact), n, len(m))
}

func (g *gen) authority() error {
	const (
		rcPos    = "positive/read-cell-cap-v1.bin"
		rcNeg    = "negative/read-cell-cap-zero-relay-public-key.bin"
		wcPos    = "positive/write-cell-cap-v1.bin"
		blob     = "positive/cell-blob-v1-class-%d.bin"
		artFile  = "positive/" + formatArtifactName + ".cenc"
		manFile  = "positive/" + authorityManifestName + ".bin"
		otherArt = "positive/format-spec-single-lf.cenc"
	)
	rows := authorityRows()
	m := manifestOf(rows)
	if !bytes.Equal(m, g.files[manFile]) {
		return fmt.Errorf("the authority manifest vector %s is not the manifest of the inventory", manFile)
	}
	// The reference set: every inventory path holds its committed file.
	ref := func() map[string]authFile {
		f := map[string]authFile{}
		for _, r := range rows {
			if _, ok := g.files[r.path]; !ok {
				panic("hivevec: inventory file " + r.path + " is not in the suite tree")
			}
			f[r.path] = authFile{tree: r.path}
		}
		return f
	}
	with := func(edit func(f map[string]authFile)) map[string]authFile {
		f := ref()
		edit(f)
		return f
	}
	md := metadataFor(g.files[artFile], m, len(rows))
	result := map[string]any{
		"format_hash":     formatHash(g.files[artFile]),
		"vector_set_hash": hex.EncodeToString(func() []byte { h := domainHash(vectorSetHashDomain, m); return h[:] }()),
		"vector_manifest": vectorset.BytesMatcher(m),
	}
	apos := func(name string, in authInput, rs []rules.ID, comment string) {
		if !g.add("positive", name, authorityOp, g.recipe(in.parts()...), result, meta{rules: rs, tags: []string{tagKnown}, comment: comment}) {
			panic("hivevec: positive " + name + " duplicates another vector")
		}
	}
	aneg := func(name string, in authInput, rule rules.ID, comment string) {
		g.reject(name, authorityOp, g.recipe(in.parts()...), rule, nil, comment)
	}

	apos("authority-v1", authInput{artifact: artFile, manifest: manFile, files: ref(), metadata: md},
		ids(hr.RuleVecInventory, hr.RuleVecIdentity, hr.RuleFmtSpecExact, manifest.RuleVectorHash, hr.RuleVecPositive, hr.RuleVecNegative, hr.RuleVecRegistry, hr.RuleVecBlobClass),
		"the published authority: format artifact, vector manifest, the 18 inventory files and the metadata artifact; the identity is the published pair")
	apos("authority-v1-manifest-framed", authInput{artifact: artFile, files: ref()},
		ids(manifest.RuleFraming, manifest.RuleVectorHash, hr.RuleVecSetHash, hr.RuleVecInventory),
		"the 18 inventory files without their manifest: the testee frames it (unkeyed BLAKE2b-256 of each file) and gets the authority manifest and the published vector set hash")

	framed := func(name string, rule rules.ID, comment string, edit func(f map[string]authFile)) {
		aneg("authority-"+name, authInput{artifact: artFile, files: with(edit)}, rule, comment+" (manifest framed from the files)")
	}
	listed := func(name string, rule rules.ID, comment string, edit func(f map[string]authFile)) {
		aneg("authority-"+name, authInput{artifact: artFile, manifest: manFile, files: with(edit)}, rule, comment+" (with the authority manifest)")
	}
	holds := func(p, other string) func(f map[string]authFile) {
		return func(f map[string]authFile) { f[p] = authFile{tree: other} }
	}
	framed("missing-blind-core-read-cap", hr.RuleVecMissing, "the inventory without positive/blind-core-read-cap-v1.bin",
		func(f map[string]authFile) { delete(f, "positive/blind-core-read-cap-v1.bin") })
	framed("missing-registry", hr.RuleVecMissing, "the inventory without its registry vector",
		func(f map[string]authFile) { delete(f, catalogFile) })
	listed("manifest-row-without-file", hr.RuleVecMissing, "positive/write-cell-cap-v1.bin, which the manifest names, left out",
		func(f map[string]authFile) { delete(f, wcPos) })
	framed("extra-file", hr.RuleVecExtra, "a 19th file positive/extra.bin holding one zero byte",
		func(f map[string]authFile) { f["positive/extra.bin"] = authFile{raw: []byte{0}} })
	framed("relay-wire-registry", hr.RuleVecExtra, "a relay WIRE byte catalog, registry/relay-wire-schema-catalog-v1.cenc, beside the inventory",
		func(f map[string]authFile) {
			f["registry/relay-wire-schema-catalog-v1.cenc"] = authFile{tree: catalogFile}
		})
	listed("file-without-row", hr.RuleVecExtra, "a file positive/unlisted.bin that the manifest does not name",
		func(f map[string]authFile) { f["positive/unlisted.bin"] = authFile{raw: []byte{1}} })
	listed("substituted-negative", hr.RuleVecSubstituted, rcNeg+" holding the positive ReadCellCapV1 (same length, other BLAKE2b-256)", holds(rcNeg, rcPos))
	listed("substituted-valid-positive", hr.RuleVecSubstituted, rcPos+" holding another valid ReadCellCapV1 (positive/read-cell-cap-v1-size-class-3.bin): it decodes and re-encodes, but is not the vector its row describes",
		holds(rcPos, "positive/read-cell-cap-v1-size-class-3.bin"))
	zeroRelay := posReadCap()
	zeroRelay.relay, zeroRelay.class = [32]byte{}, 3
	listed("substituted-valid-negative", hr.RuleVecSubstituted, rcNeg+" holding another ReadCellCapV1 with a zero relay key (size class 3): it fails for its condition, but is not the vector its row describes",
		func(f map[string]authFile) { f[rcNeg] = authFile{raw: record(zeroRelay.write)} })
	listed("substituted-registry", hr.RuleVecSubstituted, "the registry vector holding the catalog and one more byte",
		func(f map[string]authFile) {
			f[catalogFile] = authFile{raw: append(bytes.Clone(g.files[catalogFile]), 0)}
		})
	framed("positive-holds-negative", hr.RuleVecPositive, rcPos+" holding the bytes of "+rcNeg, holds(rcPos, rcNeg))
	framed("positive-holds-other-codec", hr.RuleVecPositive, wcPos+" holding the positive ReadCellCapV1", holds(wcPos, rcPos))
	framed("blob-class-4-as-class-5", hr.RuleVecBlobClass, "the class-4 blob stored as positive/cell-blob-v1-class-5.bin",
		holds(fmt.Sprintf(blob, 5), fmt.Sprintf(blob, 4)))
	framed("blobs-1-and-2-swapped", hr.RuleVecBlobClass, "the class-1 and class-2 blob vectors swapped", func(f map[string]authFile) {
		f[fmt.Sprintf(blob, 1)], f[fmt.Sprintf(blob, 2)] = f[fmt.Sprintf(blob, 2)], f[fmt.Sprintf(blob, 1)]
	})
	framed("negative-decodes", hr.RuleVecNegative, rcNeg+" holding the positive ReadCellCapV1, which decodes", holds(rcNeg, rcPos))
	zeroSlot := posReadCap()
	zeroSlot.slot = [32]byte{}
	framed("negative-other-condition", hr.RuleVecNegative, rcNeg+" holding the positive ReadCellCapV1 with a zero storage slot: it fails, but not for the zero relay key its path names",
		func(f map[string]authFile) { f[rcNeg] = authFile{raw: record(zeroSlot.write)} })
	framed("registry-differs", hr.RuleVecRegistry, "the registry vector holding the catalog and one more byte, which is not the catalog the format artifact embeds",
		func(f map[string]authFile) {
			f[catalogFile] = authFile{raw: append(bytes.Clone(g.files[catalogFile]), 0)}
		})

	// The metadata artifact.
	for _, c := range []struct{ name, old, new string }{
		{"row-count-17", `"vectorManifestEntries":18`, `"vectorManifestEntries":17`},
		{"other-format-hash", `"clientCompositionFormatHash":"5c30`, `"clientCompositionFormatHash":"5c31`},
		{"whitespace", `,"formatArtifact"`, `, "formatArtifact"`},
		{"relay-wire-key", `{"authority"`, `{"relayWireTuple":"00","authority"`},
	} {
		if !bytes.Contains(md, []byte(c.old)) {
			return fmt.Errorf("metadata %s has no %s", md, c.old)
		}
		aneg("authority-metadata-"+c.name, authInput{artifact: artFile, manifest: manFile, files: ref(), metadata: bytes.Replace(md, []byte(c.old), []byte(c.new), 1)},
			hr.RuleVecIdentity, "the published authority with "+c.old+" replaced by "+c.new+" in its metadata artifact")
	}
	aneg("authority-metadata-other-spec", authInput{artifact: otherArt, manifest: manFile, files: ref(), metadata: metadataFor(g.files[otherArt], m, len(rows))},
		hr.RuleFmtSpecExact, "the 18 inventory files against an artifact whose spec text is one LF, with metadata computed for that artifact: the set verifies, but the metadata names this authority, whose artifact embeds this exact spec")
	return nil
}
