// Package hivespec is the HiveRelay Blind Client Composition v1 wing's
// Spec (impl/spec): its rules, mutants and readings (impl/hiverelay,
// impl/cenc, impl/manifest), the verification of the authority its suite
// publishes (section 5), and the operations it defines in testee protocol
// v1 with the reference's handlers (docs/PROTOCOL.md, hiverelay.*) and
// their arguments.
package hivespec

import (
	"encoding/hex"
	"fmt"
	"path/filepath"

	"github.com/threespec/conformance/impl/hiverelay"
	"github.com/threespec/conformance/impl/manifest"
	"github.com/threespec/conformance/impl/spec"
	"github.com/threespec/conformance/vectorset"
)

// Spec is HiveRelay Blind Client Composition v1 as the core is handed it:
// beyond its set hash, its suite's published authority hashes are verified
// (docs/VECTORS.md, "HiveRelay authority").
var Spec = &spec.Spec{
	Name:     "hiverelay",
	Prefix:   "HR",
	Title:    "HiveRelay Blind Client Composition v1",
	TextFile: hiverelay.SpecFile,
	Doc:      "docs/hiverelay.md",
	Rules:    hiverelay.Catalog(),
	Mutants:  hiverelay.Mutants(),
	Readings: hiverelay.Readings(),
	Retired:  hiverelay.Retired(),
	Verify:   VerifyAuthority,
	Ops: []spec.Op{
		{Name: OpDecode, Handle: decode},
		{Name: OpManifest, Handle: manifestOp},
		{Name: OpFormat, Handle: format},
		{Name: OpAuthority, Handle: authority},
	},
}

// Operation names (docs/PROTOCOL.md, "Operations").
const (
	OpDecode   = "hiverelay.decode"
	OpManifest = "hiverelay.manifest"
	OpFormat   = "hiverelay.format"
	// OpAuthority is complete authority verification of a HiveRelay
	// vector set (section 5); its input is a JSON object (AuthorityInput).
	OpAuthority = "hiverelay.authority"
)

// maxAuthorityFile bounds each authority file read by VerifyAuthority (the
// committed ones are under 10 KiB).
const maxAuthorityFile = 16 << 20

// VerifyAuthority verifies the HiveRelay authority files of the manifest
// directory dir with hiverelay.VerifyAuthority (section 5): the metadata
// artifact, the format artifact, the 18-row vector manifest and the
// inventory files as the suite tree holds them. It returns the two
// published hashes with the lengths of the artifacts they cover.
func VerifyAuthority(dir string, tree map[string][]byte) (vectorset.Authority, error) {
	// Regular files only, no link followed, each at most maxAuthorityFile
	// bytes (vectorset.ReadRegular): what a manifest directory holds is
	// read as the suite tree is.
	read := func(name string) ([]byte, error) {
		return vectorset.ReadRegular(filepath.Join(dir, name), maxAuthorityFile)
	}
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
