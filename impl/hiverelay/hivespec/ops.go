package hivespec

import (
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/threespec/conformance/impl/hiverelay"
	"github.com/threespec/conformance/impl/manifest"
	"github.com/threespec/conformance/impl/spec"
	"github.com/threespec/conformance/internal/plainjson"
	"github.com/threespec/conformance/testee"
)

func decode(e spec.Env, req testee.Request) (any, error) {
	var a DecodeArgs
	if err := spec.DecodeArgs(req, &a); err != nil {
		return nil, err
	}
	known := false
	for _, s := range hiverelay.Schemas {
		known = known || s == a.Schema
	}
	if !known {
		return nil, spec.Unsupported("schema %q is not one of the six HiveRelay BCC v1 schemas", a.Schema)
	}
	// A class outside 0..255 cannot be a size class; it decodes as class 0,
	// which no blob has (HiveRelay BCC v1, section 3: the decoder is selected
	// by an already authenticated size class 1..5).
	class := uint8(0)
	if a.Class > 0 && a.Class <= 0xff {
		class = uint8(a.Class)
	}
	_, re, err := hiverelay.DecodeWith(e.Checks, a.Schema, class, req.Input)
	if err != nil {
		return nil, err
	}
	return map[string]any{"reencoded": spec.BytesMember(re)}, nil
}

// ManifestEntry is one row of the hiverelay.manifest result.
type ManifestEntry struct {
	Path    string `json:"path"`
	Length  uint64 `json:"length"`
	BLAKE2b string `json:"blake2b"`
}

func manifestOp(e spec.Env, req testee.Request) (any, error) {
	entries, err := manifest.ParseWith(e.Checks, req.Input)
	if err != nil {
		return nil, err
	}
	out := make([]ManifestEntry, len(entries))
	for i, row := range entries {
		out[i] = ManifestEntry{Path: row.Path, Length: row.Length, BLAKE2b: hex.EncodeToString(row.Hash[:])}
	}
	h := hiverelay.VectorSetHashWith(e.Checks, req.Input)
	return map[string]any{"entries": out, "vector_set_hash": hex.EncodeToString(h[:])}, nil
}

func format(e spec.Env, req testee.Request) (any, error) {
	if _, err := hiverelay.VerifyFormatArtifactWith(e.Checks, req.Input); err != nil {
		return nil, err
	}
	h := hiverelay.FormatHashWith(e.Checks, req.Input)
	return map[string]any{"format_hash": hex.EncodeToString(h[:])}, nil
}

// authority performs complete authority verification (HiveRelay BCC
// v1, section 5): the vector set against the format artifact and, when the
// input carries one, the metadata artifact against the computed identity. A
// request without a vector manifest has it framed from the files first
// (manifest.Build), so that a file set that cannot be framed is rejected.
func authority(e spec.Env, req testee.Request) (any, error) {
	in, err := decodeAuthorityInput(req.Input)
	if err != nil {
		return nil, err
	}
	m := in.VectorManifest
	if len(m) == 0 {
		var err error
		if m, err = manifest.BuildWith(e.Checks, in.Files); err != nil {
			return nil, err
		}
	}
	if in.Metadata != nil {
		err = hiverelay.VerifyAuthorityWith(e.Checks, in.Metadata, in.FormatArtifact, m, in.Files)
	} else {
		err = hiverelay.VerifyVectorSetWith(e.Checks, m, in.Files, in.FormatArtifact)
	}
	if err != nil {
		return nil, err
	}
	fh, vh := hiverelay.FormatHashWith(e.Checks, in.FormatArtifact), hiverelay.VectorSetHashWith(e.Checks, m)
	return map[string]any{
		"format_hash":     hex.EncodeToString(fh[:]),
		"vector_set_hash": hex.EncodeToString(vh[:]),
		"vector_manifest": spec.BytesMember(m),
	}, nil
}

// decodeAuthorityInput decodes the JSON input of hiverelay.authority
// (docs/PROTOCOL.md, "hiverelay.authority"): a plain input in place
// (plainAuthority), any other with encoding/json.
func decodeAuthorityInput(input []byte) (AuthorityInput, error) {
	if in, ok := plainAuthority(input); ok {
		return in, nil
	}
	var in AuthorityInput
	if err := json.Unmarshal(input, &in); err != nil {
		return in, fmt.Errorf("%w: hiverelay.authority input is not the JSON object of docs/PROTOCOL.md: %v", testee.ErrInvalidRequest, err)
	}
	return in, nil
}

// plainAuthority decodes a plain input of hiverelay.authority
// (internal/plainjson), as the vector generator writes it, to what
// encoding/json decodes it to; false for any other input.
func plainAuthority(input []byte) (AuthorityInput, bool) {
	var in AuthorityInput
	ok := plainjson.Object(input, func(p *plainjson.Reader, name string) {
		switch name {
		case "format_artifact":
			in.FormatArtifact = p.Base64()
		case "vector_manifest":
			in.VectorManifest = p.Base64()
		case "metadata":
			in.Metadata = p.Base64()
		case "files":
			in.Files = map[string][]byte{}
			p.Object(func(path string) { in.Files[path] = p.Base64() })
		default:
			p.Fail()
		}
	})
	return in, ok
}
