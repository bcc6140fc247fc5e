package hiverelay

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/threespec/conformance/impl/cenc"
	"github.com/threespec/conformance/impl/manifest"
	"github.com/threespec/conformance/impl/rules"
)

// File names of the vector manifest and the metadata artifact (the spec
// names neither; docs/hiverelay.md).
const (
	VectorManifestFile = "hiverelay-blind-client-composition-vector-manifest-v1.bin"
	MetadataFile       = "hiverelay-blind-client-composition-metadata-v1.json"
	AuthorityName      = "hiverelay-blind-client-composition-v1"
)

var vectorManifest = cached(func() ([]byte, error) { return manifest.Build(VectorFiles()) })

// VectorManifest returns the strict manifest of the 18 vectors. The caller
// must not modify it.
func VectorManifest() []byte {
	b, err := vectorManifest()
	if err != nil {
		panic("hiverelay: the vector set does not form a valid manifest: " + err.Error())
	}
	return b
}

// AuthorityFiles returns the published files of the authority besides the
// vectors, by file name: the format artifact, the schema catalog, the vector
// manifest and the metadata artifact (fresh copies).
func AuthorityFiles() map[string][]byte {
	return map[string][]byte{
		FormatArtifactFile: bytes.Clone(ReferenceFormatArtifact()),
		SchemaCatalogFile:  bytes.Clone(SchemaCatalog()),
		VectorManifestFile: bytes.Clone(VectorManifest()),
		MetadataFile:       ReferenceMetadata().Encode(),
	}
}

// VerifyVectorSet performs complete authority verification of a vector set
// (section 5): the manifest parses strictly; its paths are exactly the closed
// inventory (HR-VEC-02/03); files (path -> bytes) match the manifest rows
// (HR-VEC-02/03/04); every positive decodes with its named codec and
// re-encodes byte-for-byte (HR-VEC-05), the blob vectors only with their
// stated class (HR-VEC-06); every negative fails with BAD_ENCODING and the
// rule its path names (HR-VEC-07); and the registry vector equals the catalog
// embedded in formatArtifact, which must itself verify (HR-VEC-08). It
// returns the first failure, in that order, or nil.
func VerifyVectorSet(manifestBytes []byte, files map[string][]byte, formatArtifact []byte) error {
	_, err := verifyVectorSet(manifestBytes, files, formatArtifact)
	return err
}

// verifyVectorSet is VerifyVectorSet; it also returns the verified format
// artifact's content.
func verifyVectorSet(manifestBytes []byte, files map[string][]byte, formatArtifact []byte) (FormatArtifact, error) {
	entries, err := manifest.Parse(manifestBytes)
	if err != nil {
		return FormatArtifact{}, err
	}
	fa, err := VerifyFormatArtifact(formatArtifact)
	if err != nil {
		return fa, err
	}
	inInventory := make(map[string]bool, len(inventory))
	for _, v := range inventory {
		inInventory[v.Path] = true
	}
	inManifest := make(map[string]bool, len(entries))
	for i, e := range entries {
		inManifest[e.Path] = true
		if !inInventory[e.Path] {
			if err := cenc.FailAs(RuleVecExtra, cenc.Code, manifest.RowOffset(entries, i), "manifest row %q is outside the closed inventory of %d paths", e.Path, len(inventory)); err != nil {
				return fa, err
			}
		}
	}
	for _, v := range inventory {
		if !inManifest[v.Path] {
			if err := cenc.FailAs(RuleVecMissing, cenc.Code, -1, "inventory path %q has no manifest row", v.Path); err != nil {
				return fa, err
			}
		}
	}
	for _, m := range manifest.Diff(entries, files) {
		var err error
		switch m.Kind {
		case manifest.Missing:
			err = cenc.FailAs(RuleVecMissing, cenc.Code, manifest.RowOffset(entries, m.Row), "manifest row %q has no vector file", m.Path)
		case manifest.Extra:
			err = cenc.FailAs(RuleVecExtra, cenc.Code, -1, "vector file %q has no manifest row", m.Path)
		case manifest.Substituted:
			err = rules.Fail(RuleVecSubstituted, cenc.Code, manifest.RowOffset(entries, m.Row), "vector %q differs from its manifest row (length or BLAKE2b-256)", m.Path)
		}
		if err != nil {
			return fa, err
		}
	}
	for _, v := range inventory {
		b, ok := files[v.Path]
		if !ok {
			continue // reported above, or tolerated under fault injection
		}
		if err := classify(&v.Vector, b, fa.SchemaCatalog); err != nil {
			return fa, err
		}
	}
	return fa, nil
}

// classify checks that vector bytes b behave as the inventory says.
func classify(v *Vector, b []byte, catalog []byte) error {
	switch v.Kind {
	case Registry:
		if !bytes.Equal(b, catalog) {
			return rules.Fail(RuleVecRegistry, cenc.Code, -1, "%s: the registry vector differs from the catalog embedded in the format artifact", v.Path)
		}
	case Positive:
		_, re, err := Decode(v.Schema, v.Class, b)
		if err != nil {
			if c := otherBlobClass(v, b); c != 0 {
				// Section 5, HR-VEC-06: a blob vector decodes only with its stated class.
				return rules.Fail(RuleVecBlobClass, cenc.Code, -1, "%s: stated class %d, but it decodes as class %d: %v", v.Path, v.Class, c, err)
			}
			return rules.Fail(RuleVecPositive, cenc.Code, -1, "%s: does not decode as %s%s: %v", v.Path, v.Schema, classNote(v.Class), err)
		}
		if !bytes.Equal(re, b) {
			return rules.Fail(RuleVecPositive, cenc.Code, -1, "%s: %s re-encodes to other bytes", v.Path, v.Schema)
		}
		if c := otherBlobClass(v, b); c != 0 {
			// Section 5, HR-VEC-06: a blob vector decodes only with its stated class.
			if err := rules.Fail(RuleVecBlobClass, cenc.Code, -1, "%s: stated class %d, but it also decodes as class %d", v.Path, v.Class, c); err != nil {
				return err
			}
		}
	case Negative:
		_, _, err := Decode(v.Schema, v.Class, b)
		switch {
		case err == nil:
			return rules.Fail(RuleVecNegative, cenc.Code, -1, "%s: decodes as %s%s, but must fail with %s", v.Path, v.Schema, classNote(v.Class), v.Rule)
		case rules.CodeOf(err) != cenc.Code || rules.RuleOf(err) != v.Rule:
			return rules.Fail(RuleVecNegative, cenc.Code, -1, "%s: fails with %q, but must fail with %s [%s] for the condition its path names", v.Path, err, v.Rule, cenc.Code)
		}
	}
	return nil
}

// otherBlobClass returns the class other than v's stated one with which the
// blob vector b decodes, or 0 (also for a vector that is not a blob).
func otherBlobClass(v *Vector, b []byte) uint8 {
	if v.Schema != SchemaCellBlobV1 {
		return 0
	}
	for c := uint8(1); c <= NumClasses; c++ {
		if _, err := DecodeCellBlobV1(b, c); c != v.Class && err == nil {
			return c
		}
	}
	return 0
}

func classNote(class uint8) string {
	if class == 0 {
		return ""
	}
	return " of class " + strconv.Itoa(int(class))
}

// Metadata is the generated metadata artifact that publishes the authority's
// identity, the pair (clientCompositionFormatHash,
// clientCompositionVectorSetHash), with the lengths of the bytes they cover
// (section 5, HR-VEC-10). Its file format is the project's: one line of
// canonical JSON (RFC 8785 shape: keys sorted, no whitespace) and a final
// LF, e.g.
//
//	{"authority":"hiverelay-blind-client-composition-v1","clientCompositionFormatHash":"<64 hex>",
//	 "clientCompositionVectorSetHash":"<64 hex>","formatArtifact":"hiverelay-blind-client-composition-format-v1.cenc",
//	 "formatArtifactLength":N,"vectorManifest":"hiverelay-blind-client-composition-vector-manifest-v1.bin",
//	 "vectorManifestEntries":18,"vectorManifestLength":M}
//
// (shown wrapped; the file is one line).
type Metadata struct {
	FormatHash            [32]byte
	FormatArtifactLength  uint64
	VectorSetHash         [32]byte
	VectorManifestLength  uint64
	VectorManifestEntries uint64
}

// MetadataFor computes the metadata of a format artifact and a vector manifest.
func MetadataFor(formatArtifact, vectorManifest []byte) (Metadata, error) {
	entries, err := manifest.Parse(vectorManifest)
	if err != nil {
		return Metadata{}, err
	}
	return Metadata{
		FormatHash:            FormatHash(formatArtifact),
		FormatArtifactLength:  uint64(len(formatArtifact)),
		VectorSetHash:         VectorSetHash(vectorManifest),
		VectorManifestLength:  uint64(len(vectorManifest)),
		VectorManifestEntries: uint64(len(entries)),
	}, nil
}

// ReferenceMetadata returns the metadata of the reference format artifact and
// vector manifest.
func ReferenceMetadata() Metadata {
	m, err := MetadataFor(ReferenceFormatArtifact(), VectorManifest())
	if err != nil {
		panic("hiverelay: " + err.Error())
	}
	return m
}

// Encode returns the metadata artifact's bytes.
func (m Metadata) Encode() []byte {
	return fmt.Appendf(nil, `{"authority":"%s","clientCompositionFormatHash":"%x","clientCompositionVectorSetHash":"%x",`+
		`"formatArtifact":"%s","formatArtifactLength":%d,"vectorManifest":"%s","vectorManifestEntries":%d,"vectorManifestLength":%d}`+"\n",
		AuthorityName, m.FormatHash, m.VectorSetHash, FormatArtifactFile, m.FormatArtifactLength,
		VectorManifestFile, m.VectorManifestEntries, m.VectorManifestLength)
}

// ParseMetadata parses a metadata artifact strictly: it must be exactly the
// bytes Encode writes for the values it holds (HR-VEC-10).
func ParseMetadata(b []byte) (Metadata, error) {
	var j struct {
		Authority             string `json:"authority"`
		FormatHash            string `json:"clientCompositionFormatHash"`
		VectorSetHash         string `json:"clientCompositionVectorSetHash"`
		FormatArtifact        string `json:"formatArtifact"`
		FormatArtifactLength  uint64 `json:"formatArtifactLength"`
		VectorManifest        string `json:"vectorManifest"`
		VectorManifestEntries uint64 `json:"vectorManifestEntries"`
		VectorManifestLength  uint64 `json:"vectorManifestLength"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return Metadata{}, rules.Fail(RuleVecIdentity, cenc.Code, dec.InputOffset(), "metadata: not the metadata object: %v", err)
	}
	var m Metadata
	fh, err1 := hex.DecodeString(j.FormatHash)
	vh, err2 := hex.DecodeString(j.VectorSetHash)
	if err1 != nil || err2 != nil || len(fh) != 32 || len(vh) != 32 {
		return Metadata{}, rules.Fail(RuleVecIdentity, cenc.Code, -1, "metadata: the two hashes must be 64 lowercase hex digits each")
	}
	copy(m.FormatHash[:], fh)
	copy(m.VectorSetHash[:], vh)
	m.FormatArtifactLength, m.VectorManifestLength, m.VectorManifestEntries = j.FormatArtifactLength, j.VectorManifestLength, j.VectorManifestEntries
	if want := m.Encode(); !bytes.Equal(b, want) {
		i := 0
		for i < len(b) && i < len(want) && b[i] == want[i] {
			i++
		}
		return Metadata{}, rules.Fail(RuleVecIdentity, cenc.Code, int64(i), "metadata: not the canonical form (authority %q, file names, key order, lowercase hex, no whitespace, one final LF)", j.Authority)
	}
	return m, nil
}

// VerifyAuthority verifies a complete published authority: the metadata
// artifact parses strictly, the format artifact verifies, the vector set
// verifies against it, the artifact is this authority's (its spec bytes are
// exactly this specification file, HR-FMT-17: the metadata names this
// authority), and the published hashes, lengths and row count are the
// computed ones.
func VerifyAuthority(metadata, formatArtifact, vectorManifest []byte, files map[string][]byte) error {
	m, err := ParseMetadata(metadata)
	if err != nil {
		return err
	}
	fa, err := verifyVectorSet(vectorManifest, files, formatArtifact)
	if err != nil {
		return err
	}
	if spec := Spec(); !bytes.Equal(fa.Spec, spec) {
		// Section 4, HR-FMT-17: the authority's artifact embeds this exact file.
		i := 0
		for i < len(fa.Spec) && i < len(spec) && fa.Spec[i] == spec[i] {
			i++
		}
		if err := rules.Fail(RuleFmtSpecExact, cenc.Code, int64(formatHeader+i), "specBytes: %d bytes that are not the %d bytes of %s (first difference at byte %d of the spec); the metadata names this authority", len(fa.Spec), len(spec), SpecFile, i); err != nil {
			return err
		}
	}
	got, err := MetadataFor(formatArtifact, vectorManifest)
	if err != nil {
		return err
	}
	if got != m {
		return rules.Fail(RuleVecIdentity, cenc.Code, -1, "metadata publishes %s, but the artifact and manifest give %s", bytes.TrimSpace(m.Encode()), bytes.TrimSpace(got.Encode()))
	}
	return nil
}
