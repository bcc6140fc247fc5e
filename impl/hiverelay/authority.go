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

var generatedManifest = cached(func(c rules.Checks) ([]byte, error) { return manifest.BuildWith(c, vectorFiles(c)) })

// VectorManifest returns the strict manifest of the 18 vectors. The caller
// must not modify it.
func VectorManifest() []byte { return referenceManifest(rules.Checks{}) }

// referenceManifest is VectorManifest generated under c.
func referenceManifest(c rules.Checks) []byte {
	b, err := generatedManifest(c)
	if err != nil {
		panic("hiverelay: the vector set does not form a valid manifest: " + err.Error())
	}
	return b
}

// AuthorityFiles returns the published files of the authority besides the
// vectors, by file name: the format artifact, the schema catalog, the vector
// manifest and the metadata artifact (fresh copies).
func AuthorityFiles() map[string][]byte { return authorityFiles(rules.Checks{}) }

// authorityFiles is AuthorityFiles generated under c.
func authorityFiles(c rules.Checks) map[string][]byte {
	return map[string][]byte{
		FormatArtifactFile: bytes.Clone(referenceFormatArtifact(c)),
		SchemaCatalogFile:  bytes.Clone(schemaCatalog(c)),
		VectorManifestFile: bytes.Clone(referenceManifest(c)),
		MetadataFile:       referenceMetadata(c).Encode(),
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
//
// It enforces every rule and takes every default reading; VerifyVectorSetWith
// carries a rules.Checks.
func VerifyVectorSet(manifestBytes []byte, files map[string][]byte, formatArtifact []byte) error {
	return VerifyVectorSetWith(rules.Checks{}, manifestBytes, files, formatArtifact)
}

// VerifyVectorSetWith is VerifyVectorSet under c.
func VerifyVectorSetWith(c rules.Checks, manifestBytes []byte, files map[string][]byte, formatArtifact []byte) error {
	_, err := verifyVectorSet(c, manifestBytes, files, formatArtifact)
	return err
}

// verifyVectorSet is VerifyVectorSetWith; it also returns the verified
// format artifact's content.
func verifyVectorSet(c rules.Checks, manifestBytes []byte, files map[string][]byte, formatArtifact []byte) (FormatArtifact, error) {
	entries, err := manifest.ParseWith(c, manifestBytes)
	if err != nil {
		return FormatArtifact{}, err
	}
	fa, err := VerifyFormatArtifactWith(c, formatArtifact)
	if err != nil {
		return fa, err
	}
	inInventory := make(map[string]bool, len(inventory))
	for _, v := range inventory {
		inInventory[v.Path] = true
	}
	// Section 5, HR-VEC-02/03: the manifest's paths are the closed
	// inventory, and the files match its rows. Both rules realize general
	// rules (cenc.Rejects).
	inManifest := make(map[string]bool, len(entries))
	for i, e := range entries {
		inManifest[e.Path] = true
		if !inInventory[e.Path] && cenc.Rejects(c, RuleVecExtra) {
			return fa, rules.Fail(RuleVecExtra, cenc.Code, manifest.RowOffset(entries, i), "manifest row %q is outside the closed inventory of %d paths", e.Path, len(inventory))
		}
	}
	for _, v := range inventory {
		if !inManifest[v.Path] && cenc.Rejects(c, RuleVecMissing) {
			return fa, rules.Fail(RuleVecMissing, cenc.Code, -1, "inventory path %q has no manifest row", v.Path)
		}
	}
	for _, m := range manifest.DiffWith(c, entries, files) {
		switch {
		case m.Kind == manifest.Missing && cenc.Rejects(c, RuleVecMissing):
			return fa, rules.Fail(RuleVecMissing, cenc.Code, manifest.RowOffset(entries, m.Row), "manifest row %q has no vector file", m.Path)
		case m.Kind == manifest.Extra && cenc.Rejects(c, RuleVecExtra):
			return fa, rules.Fail(RuleVecExtra, cenc.Code, -1, "vector file %q has no manifest row", m.Path)
		case m.Kind == manifest.Substituted && cenc.Rejects(c, RuleVecSubstituted):
			// Section 5, HR-VEC-04.
			return fa, rules.Fail(RuleVecSubstituted, cenc.Code, manifest.RowOffset(entries, m.Row), "vector %q differs from its manifest row (length or BLAKE2b-256)", m.Path)
		}
	}
	for _, v := range inventory {
		b, ok := files[v.Path]
		if !ok {
			continue // reported above, or tolerated under fault injection
		}
		if rule, detail := misbehaviour(c, &v.Vector, b, fa.SchemaCatalog); rule != "" && cenc.Rejects(c, rule) {
			return fa, rules.Fail(rule, cenc.Code, -1, "%s: %s", v.Path, detail)
		}
	}
	return fa, nil
}

// misbehaviour returns the first way in which vector bytes b do not behave
// as the inventory says v does, as the rule it breaks and a detail, or ""
// (section 5, HR-VEC-05..08).
func misbehaviour(c rules.Checks, v *Vector, b []byte, catalog []byte) (rules.ID, string) {
	switch v.Kind {
	case Registry:
		if !bytes.Equal(b, catalog) {
			return RuleVecRegistry, "the registry vector differs from the catalog embedded in the format artifact"
		}
	case Positive:
		_, re, err := DecodeWith(c, v.Schema, v.Class, b)
		if err != nil {
			if cl := otherBlobClass(c, v, b); cl != 0 {
				// Section 5, HR-VEC-06: a blob vector decodes only with its stated class.
				return RuleVecBlobClass, fmt.Sprintf("stated class %d, but it decodes as class %d: %v", v.Class, cl, err)
			}
			return RuleVecPositive, fmt.Sprintf("does not decode as %s%s: %v", v.Schema, classNote(v.Class), err)
		}
		if !bytes.Equal(re, b) {
			return RuleVecPositive, fmt.Sprintf("%s re-encodes to other bytes", v.Schema)
		}
		if cl := otherBlobClass(c, v, b); cl != 0 {
			// Section 5, HR-VEC-06: a blob vector decodes only with its stated class.
			return RuleVecBlobClass, fmt.Sprintf("stated class %d, but it also decodes as class %d", v.Class, cl)
		}
	case Negative:
		_, _, err := DecodeWith(c, v.Schema, v.Class, b)
		switch {
		case err == nil:
			return RuleVecNegative, fmt.Sprintf("decodes as %s%s, but must fail with %s", v.Schema, classNote(v.Class), v.Rule)
		case rules.CodeOf(err) != cenc.Code || rules.RuleOf(err) != v.Rule:
			return RuleVecNegative, fmt.Sprintf("fails with %q, but must fail with %s [%s] for the condition its path names", err, v.Rule, cenc.Code)
		}
	}
	return "", ""
}

// otherBlobClass returns the class other than v's stated one with which the
// blob vector b decodes under c, or 0 (also for a vector that is not a blob).
func otherBlobClass(c rules.Checks, v *Vector, b []byte) uint8 {
	if v.Schema != SchemaCellBlobV1 {
		return 0
	}
	for cl := uint8(1); cl <= NumClasses; cl++ {
		if _, err := decodeAll(c, b, blobDecoder(cl)); cl != v.Class && err == nil {
			return cl
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
	return metadataFor(rules.Checks{}, formatArtifact, vectorManifest)
}

func metadataFor(c rules.Checks, formatArtifact, vectorManifest []byte) (Metadata, error) {
	entries, err := manifest.ParseWith(c, vectorManifest)
	if err != nil {
		return Metadata{}, err
	}
	return Metadata{
		FormatHash:            FormatHashWith(c, formatArtifact),
		FormatArtifactLength:  uint64(len(formatArtifact)),
		VectorSetHash:         VectorSetHashWith(c, vectorManifest),
		VectorManifestLength:  uint64(len(vectorManifest)),
		VectorManifestEntries: uint64(len(entries)),
	}, nil
}

// ReferenceMetadata returns the metadata of the reference format artifact and
// vector manifest.
func ReferenceMetadata() Metadata { return referenceMetadata(rules.Checks{}) }

// referenceMetadata is ReferenceMetadata generated under c.
func referenceMetadata(c rules.Checks) Metadata {
	m, err := metadataFor(c, referenceFormatArtifact(c), referenceManifest(c))
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
func ParseMetadata(b []byte) (Metadata, error) { return parseMetadata(rules.Checks{}, b) }

// parseMetadata is ParseMetadata under c. Under the fault of HR-VEC-10 a
// metadata artifact that is not canonical parses as the zero Metadata.
func parseMetadata(c rules.Checks, b []byte) (Metadata, error) {
	m, off, problem := readMetadata(b)
	if problem == "" {
		return m, nil
	}
	if !c.Enforced(RuleVecIdentity) {
		return Metadata{}, nil
	}
	return Metadata{}, rules.Fail(RuleVecIdentity, cenc.Code, off, "metadata: %s", problem)
}

// readMetadata reads a metadata artifact and says what is wrong with it:
// the byte offset of the problem (-1 when not tied to a byte) and the
// problem, or "" when b is exactly the bytes Encode writes for m.
func readMetadata(b []byte) (m Metadata, off int64, problem string) {
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
		return m, dec.InputOffset(), fmt.Sprintf("not the metadata object: %v", err)
	}
	fh, err1 := hex.DecodeString(j.FormatHash)
	vh, err2 := hex.DecodeString(j.VectorSetHash)
	if err1 != nil || err2 != nil || len(fh) != 32 || len(vh) != 32 {
		return m, -1, "the two hashes must be 64 lowercase hex digits each"
	}
	copy(m.FormatHash[:], fh)
	copy(m.VectorSetHash[:], vh)
	m.FormatArtifactLength, m.VectorManifestLength, m.VectorManifestEntries = j.FormatArtifactLength, j.VectorManifestLength, j.VectorManifestEntries
	if want := m.Encode(); !bytes.Equal(b, want) {
		i := 0
		for i < len(b) && i < len(want) && b[i] == want[i] {
			i++
		}
		return m, int64(i), fmt.Sprintf("not the canonical form (authority %q, file names, key order, lowercase hex, no whitespace, one final LF)", j.Authority)
	}
	return m, 0, ""
}

// VerifyAuthority verifies a complete published authority: the metadata
// artifact parses strictly, the format artifact verifies, the vector set
// verifies against it, the artifact is this authority's (its spec bytes are
// exactly this specification file, HR-FMT-17: the metadata names this
// authority), and the published hashes, lengths and row count are the
// computed ones.
//
// It enforces every rule and takes every default reading; VerifyAuthorityWith
// carries a rules.Checks.
func VerifyAuthority(metadata, formatArtifact, vectorManifest []byte, files map[string][]byte) error {
	return VerifyAuthorityWith(rules.Checks{}, metadata, formatArtifact, vectorManifest, files)
}

// VerifyAuthorityWith is VerifyAuthority under c.
func VerifyAuthorityWith(c rules.Checks, metadata, formatArtifact, vectorManifest []byte, files map[string][]byte) error {
	// Reading HR-READ-11: under metadata-unchecked the metadata's format is
	// not fixed, and only the two hashes it publishes are compared (below).
	unchecked := c.Takes(ReadMetadataFormat, AltMetadataUnchecked)
	var m Metadata
	var err error
	if !unchecked {
		if m, err = parseMetadata(c, metadata); err != nil {
			return err
		}
	}
	fa, err := verifyVectorSet(c, vectorManifest, files, formatArtifact)
	if err != nil {
		return err
	}
	if spec := Spec(); !bytes.Equal(fa.Spec, spec) && c.Enforced(RuleFmtSpecExact) {
		// Section 4, HR-FMT-17: the authority's artifact embeds this exact file.
		i := firstDifference(fa.Spec, spec)
		return rules.Fail(RuleFmtSpecExact, cenc.Code, int64(formatHeader+i), "specBytes: %d bytes that are not the %d bytes of %s (first difference at byte %d of the spec); the metadata names this authority", len(fa.Spec), len(spec), SpecFile, i)
	}
	got, err := metadataFor(c, formatArtifact, vectorManifest)
	if err != nil {
		return err
	}
	if unchecked {
		return publishesHashes(c, metadata, got)
	}
	if got != m && c.Enforced(RuleVecIdentity) {
		// Section 5, HR-VEC-10: the published identity is the computed one.
		return rules.Fail(RuleVecIdentity, cenc.Code, -1, "metadata publishes %s, but the artifact and manifest give %s", bytes.TrimSpace(m.Encode()), bytes.TrimSpace(got.Encode()))
	}
	return nil
}

// publishesHashes is HR-VEC-10 under reading HR-READ-11's alternative
// metadata-unchecked: the metadata, whatever its format, must hold the
// computed clientCompositionFormatHash and clientCompositionVectorSetHash,
// each as 64 lower-case hex digits.
func publishesHashes(c rules.Checks, metadata []byte, got Metadata) error {
	for _, h := range []struct {
		name string
		sum  [32]byte
	}{{"clientCompositionFormatHash", got.FormatHash}, {"clientCompositionVectorSetHash", got.VectorSetHash}} {
		if !bytes.Contains(metadata, []byte(hex.EncodeToString(h.sum[:]))) && c.Enforced(RuleVecIdentity) {
			return rules.Fail(RuleVecIdentity, cenc.Code, -1, "metadata does not publish the computed %s %x (reading %s %s)", h.name, h.sum, ReadMetadataFormat, AltMetadataUnchecked)
		}
	}
	return nil
}
