// Package hivesuite is what the spec-neutral packages are told of the
// HiveRelay Blind Client Composition v1 suite: its definition for the
// harness (Def, whose hook verifies the authority of section 5) and the
// argument vocabulary of its operations in testee protocol v1
// (docs/PROTOCOL.md, hiverelay.*).
package hivesuite

import (
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"

	"github.com/threespec/conformance/impl/hiverelay"
	"github.com/threespec/conformance/impl/manifest"
	"github.com/threespec/conformance/vectorset"
)

// Def is the hiverelay suite as conform loads it: beyond its set hash, the
// published authority hashes are verified (docs/VECTORS.md, "HiveRelay
// authority").
var Def = vectorset.SuiteDef{Name: "hiverelay", Verify: VerifyAuthority}

// VerifyAuthority verifies the HiveRelay authority files of the manifest
// directory dir with hiverelay.VerifyAuthority (section 5): the metadata
// artifact, the format artifact, the 18-row vector manifest and the
// inventory files as the suite tree holds them. It returns the two
// published hashes with the lengths of the artifacts they cover.
func VerifyAuthority(dir string, tree map[string][]byte) (vectorset.Authority, error) {
	read := func(name string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, name)) }
	meta, err := read(hiverelay.MetadataFile)
	if err != nil {
		return nil, err
	}
	format, err := read(hiverelay.FormatArtifactFile)
	if err != nil {
		return nil, err
	}
	vm, err := read(hiverelay.VectorManifestFile)
	if err != nil {
		return nil, err
	}
	entries, err := manifest.Parse(vm)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", hiverelay.VectorManifestFile, err)
	}
	files := make(map[string][]byte, len(entries))
	for _, e := range entries {
		if b, ok := tree[e.Path]; ok {
			files[e.Path] = b
		}
	}
	if err := hiverelay.VerifyAuthority(meta, format, vm, files); err != nil {
		return nil, err
	}
	m, err := hiverelay.ParseMetadata(meta)
	if err != nil {
		return nil, err
	}
	// The member names of the metadata artifact (section 5).
	return vectorset.Authority{
		{Name: "clientCompositionFormatHash", Hex: hex.EncodeToString(m.FormatHash[:]), LengthName: "formatArtifactLength", Length: m.FormatArtifactLength},
		{Name: "clientCompositionVectorSetHash", Hex: hex.EncodeToString(m.VectorSetHash[:]), LengthName: "vectorManifestLength", Length: m.VectorManifestLength},
	}, nil
}

// DecodeArgs are the arguments of hiverelay.decode (docs/PROTOCOL.md).
type DecodeArgs struct {
	Schema string `json:"schema"`          // one of the six schema names, hiverelay.Schemas (section 1)
	Class  int    `json:"class,omitempty"` // 1..5, for CellBlobV1 only
}

// AuthorityInput is the input of hiverelay.authority, sent as JSON (byte
// fields as standard base64): the format artifact, the vector manifest
// (absent or empty: the testee frames it from Files first, and a file set
// that cannot be framed is rejected), the vector files by inventory path
// ("positive/read-cell-cap-v1.bin", ...), and optionally the metadata
// artifact, which is then checked against the computed identity.
type AuthorityInput struct {
	FormatArtifact []byte            `json:"format_artifact"`
	VectorManifest []byte            `json:"vector_manifest,omitempty"`
	Files          map[string][]byte `json:"files"`
	Metadata       []byte            `json:"metadata,omitempty"`
}
