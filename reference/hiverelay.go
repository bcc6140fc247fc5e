package reference

import (
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/threespec/conformance/impl/hiverelay"
	"github.com/threespec/conformance/impl/manifest"
	"github.com/threespec/conformance/suites/hivesuite"
	"github.com/threespec/conformance/testee"
)

var hiveRelayOps = map[string]handler{
	testee.OpHiveRelayDecode:    hiveRelayDecode,
	testee.OpHiveRelayManifest:  hiveRelayManifest,
	testee.OpHiveRelayFormat:    hiveRelayFormat,
	testee.OpHiveRelayAuthority: hiveRelayAuthority,
}

func hiveRelayDecode(e env, req testee.Request) (any, error) {
	var a hivesuite.DecodeArgs
	if err := decodeArgs(req, &a); err != nil {
		return nil, err
	}
	known := false
	for _, s := range hiverelay.Schemas {
		known = known || s == a.Schema
	}
	if !known {
		return nil, unsupported("schema %q is not one of the six HiveRelay BCC v1 schemas", a.Schema)
	}
	// A class outside 0..255 cannot be a size class; it decodes as class 0,
	// which no blob has (HiveRelay BCC v1, section 3: the decoder is selected
	// by an already authenticated size class 1..5).
	class := uint8(0)
	if a.Class > 0 && a.Class <= 0xff {
		class = uint8(a.Class)
	}
	_, re, err := hiverelay.DecodeWith(e.checks, a.Schema, class, req.Input)
	if err != nil {
		return nil, err
	}
	return map[string]any{"reencoded": bytesMember(re)}, nil
}

// ManifestEntry is one row of the hiverelay.manifest result.
type ManifestEntry struct {
	Path    string `json:"path"`
	Length  uint64 `json:"length"`
	BLAKE2b string `json:"blake2b"`
}

func hiveRelayManifest(e env, req testee.Request) (any, error) {
	entries, err := manifest.ParseWith(e.checks, req.Input)
	if err != nil {
		return nil, err
	}
	out := make([]ManifestEntry, len(entries))
	for i, row := range entries {
		out[i] = ManifestEntry{Path: row.Path, Length: row.Length, BLAKE2b: hex.EncodeToString(row.Hash[:])}
	}
	h := hiverelay.VectorSetHashWith(e.checks, req.Input)
	return map[string]any{"entries": out, "vector_set_hash": hex.EncodeToString(h[:])}, nil
}

func hiveRelayFormat(e env, req testee.Request) (any, error) {
	if _, err := hiverelay.VerifyFormatArtifactWith(e.checks, req.Input); err != nil {
		return nil, err
	}
	h := hiverelay.FormatHashWith(e.checks, req.Input)
	return map[string]any{"format_hash": hex.EncodeToString(h[:])}, nil
}

// hiveRelayAuthority performs complete authority verification (HiveRelay BCC
// v1, section 5): the vector set against the format artifact and, when the
// input carries one, the metadata artifact against the computed identity. A
// request without a vector manifest has it framed from the files first
// (manifest.Build), so that a file set that cannot be framed is rejected.
func hiveRelayAuthority(e env, req testee.Request) (any, error) {
	in, err := decodeAuthorityInput(req.Input)
	if err != nil {
		return nil, err
	}
	m := in.VectorManifest
	if len(m) == 0 {
		var err error
		if m, err = manifest.BuildWith(e.checks, in.Files); err != nil {
			return nil, err
		}
	}
	if in.Metadata != nil {
		err = hiverelay.VerifyAuthorityWith(e.checks, in.Metadata, in.FormatArtifact, m, in.Files)
	} else {
		err = hiverelay.VerifyVectorSetWith(e.checks, m, in.Files, in.FormatArtifact)
	}
	if err != nil {
		return nil, err
	}
	fh, vh := hiverelay.FormatHashWith(e.checks, in.FormatArtifact), hiverelay.VectorSetHashWith(e.checks, m)
	return map[string]any{
		"format_hash":     hex.EncodeToString(fh[:]),
		"vector_set_hash": hex.EncodeToString(vh[:]),
		"vector_manifest": bytesMember(m),
	}, nil
}

// decodeAuthorityInput decodes the JSON input of hiverelay.authority
// (docs/PROTOCOL.md, "hiverelay.authority"): a plain input in place
// (plainAuthority), any other with encoding/json.
func decodeAuthorityInput(input []byte) (hivesuite.AuthorityInput, error) {
	if in, ok := plainAuthority(input); ok {
		return in, nil
	}
	var in hivesuite.AuthorityInput
	if err := json.Unmarshal(input, &in); err != nil {
		return in, fmt.Errorf("%w: hiverelay.authority input is not the JSON object of docs/PROTOCOL.md: %v", testee.ErrInvalidRequest, err)
	}
	return in, nil
}

// plainAuthority decodes a plain input of hiverelay.authority
// (plainjson.go), as the vector generator writes it, to what
// encoding/json decodes it to; false for any other input.
func plainAuthority(input []byte) (hivesuite.AuthorityInput, bool) {
	var in hivesuite.AuthorityInput
	ok := plainObject(input, func(p *plainReader, name string) {
		switch name {
		case "format_artifact":
			in.FormatArtifact = p.base64()
		case "vector_manifest":
			in.VectorManifest = p.base64()
		case "metadata":
			in.Metadata = p.base64()
		case "files":
			in.Files = map[string][]byte{}
			p.object(func(path string) { in.Files[path] = p.base64() })
		default:
			p.ok = false
		}
	})
	return in, ok
}
