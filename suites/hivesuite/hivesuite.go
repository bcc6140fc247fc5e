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
