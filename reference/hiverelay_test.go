package reference

import (
	"encoding/json"
	"errors"
	"maps"
	"strings"
	"testing"

	"github.com/threespec/conformance/impl/hiverelay"
	"github.com/threespec/conformance/suites/hivesuite"
	"github.com/threespec/conformance/testee"
)

// The authority's identity, from docs/hiverelay.md ("The reference values",
// reproduced there by an independent program).
const (
	knownFormatHash    = "5c30092c817079e041a715ff6c6a03044c1f90adfb6b934d85975c69319a7165"
	knownVectorSetHash = "fd0639c088f1c420a7768940bd1e82b85e4831d2a0508a468e611be1ad9e54ca"
)

func authorityInput(t *testing.T, in hivesuite.AuthorityInput) []byte {
	t.Helper()
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestHiveRelayAuthority(t *testing.T) {
	files := hiverelay.VectorFiles()
	ref := hivesuite.AuthorityInput{
		FormatArtifact: hiverelay.ReferenceFormatArtifact(),
		VectorManifest: hiverelay.VectorManifest(),
		Files:          files,
		Metadata:       hiverelay.ReferenceMetadata().Encode(),
	}
	noManifest := ref
	noManifest.VectorManifest, noManifest.Metadata = nil, nil
	missing := ref
	missing.Files = maps.Clone(files)
	delete(missing.Files, "positive/read-cell-cap-v1.bin")
	badMetadata := ref
	badMetadata.Metadata = []byte(strings.Replace(string(ref.Metadata), `"vectorManifestEntries":18`, `"vectorManifestEntries":17`, 1))
	unframeable := noManifest
	unframeable.Files = maps.Clone(files)
	unframeable.Files[strings.Repeat("a", 0x10000)] = nil

	for _, tc := range []struct {
		name string
		in   hivesuite.AuthorityInput
		rule string // "" when accepted
	}{
		{"the reference authority", ref, ""},
		{"manifest framed from the files", noManifest, ""},
		{"a file missing", missing, "HR-VEC-02"},
		{"metadata publishing another row count", badMetadata, "HR-VEC-10"},
		{"a path too long to frame", unframeable, "HR-MAN-01"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := do(t, testee.OpHiveRelayAuthority, "{}", authorityInput(t, tc.in))
			if tc.rule != "" {
				if resp.Outcome != testee.Rejected || resp.Code != "BAD_ENCODING" || resp.Rule != tc.rule {
					t.Fatalf("%+v, want rejection by %s", resp, tc.rule)
				}
				return
			}
			var res struct {
				FormatHash     string `json:"format_hash"`
				VectorSetHash  string `json:"vector_set_hash"`
				VectorManifest []byte `json:"vector_manifest"`
			}
			if resp.Outcome != testee.Accepted || json.Unmarshal(resp.Result, &res) != nil ||
				res.FormatHash != knownFormatHash || res.VectorSetHash != knownVectorSetHash || len(res.VectorManifest) != 1506 {
				t.Fatalf("%+v", resp)
			}
		})
	}
}

func TestHiveRelayAuthorityInputIsJSON(t *testing.T) {
	_, err := New().Do(t.Context(), testee.Request{ID: 1, Op: testee.OpHiveRelayAuthority, Args: json.RawMessage("{}"), Input: []byte("not json")})
	if !errors.Is(err, testee.ErrInvalidRequest) {
		t.Fatalf("err = %v, want a request error", err)
	}
}
