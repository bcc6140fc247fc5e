package hivespec

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/threespec/conformance/impl/hiverelay"
	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/internal/fault"
	"github.com/threespec/conformance/reference"
	"github.com/threespec/conformance/reference/referencetest"
	"github.com/threespec/conformance/testee"
)

// The authority's identity, from docs/hiverelay.md ("The reference values",
// reproduced there by an independent program).
const (
	knownFormatHash    = "5c30092c817079e041a715ff6c6a03044c1f90adfb6b934d85975c69319a7165"
	knownVectorSetHash = "fd0639c088f1c420a7768940bd1e82b85e4831d2a0508a468e611be1ad9e54ca"
)

func authorityInput(t *testing.T, in AuthorityInput) []byte {
	t.Helper()
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestHiveRelayAuthority(t *testing.T) {
	files := hiverelay.VectorFiles()
	ref := AuthorityInput{
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
		in   AuthorityInput
		rule string // "" when accepted
	}{
		{"the reference authority", ref, ""},
		{"manifest framed from the files", noManifest, ""},
		{"a file missing", missing, "HR-VEC-02"},
		{"metadata publishing another row count", badMetadata, "HR-VEC-10"},
		{"a path too long to frame", unframeable, "HR-MAN-01"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := referencetest.Do(t, Spec, OpAuthority, "{}", authorityInput(t, tc.in))
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
	_, err := reference.For(Spec).Do(t.Context(), testee.Request{ID: 1, Op: OpAuthority, Args: json.RawMessage("{}"), Input: []byte("not json")})
	if !errors.Is(err, testee.ErrInvalidRequest) {
		t.Fatalf("err = %v, want a request error", err)
	}
}

// A reference made WithChecks carries its Checks into every HiveRelay
// operation: each fault below changes the answer of the reference that
// carries it, and only of that one (New reads no fault: none is set).
func TestHiveRelayWithChecks(t *testing.T) {
	t.Parallel()
	// A ReadCellCapV1 (HiveRelay BCC v1, section 3): version 1, a
	// relayPublicKey of 32 zero bytes, storageSlot and cellKey, sizeClass 2,
	// no expected hash.
	zeroRelay := slices.Concat([]byte{1}, make([]byte, 32), bytes.Repeat([]byte{0x22}, 64), []byte{2, 0})
	files := maps.Clone(hiverelay.VectorFiles())
	delete(files, "positive/read-cell-cap-v1.bin")
	missing := authorityInput(t, AuthorityInput{
		FormatArtifact: hiverelay.ReferenceFormatArtifact(), VectorManifest: hiverelay.VectorManifest(), Files: files,
		Metadata: hiverelay.ReferenceMetadata().Encode(),
	})
	for _, tc := range []struct {
		op, args string
		input    []byte
		fault    rules.ID
	}{
		{OpDecode, `{"schema":"ReadCellCapV1"}`, zeroRelay, hiverelay.RuleRCapRelayKey},
		{OpManifest, "{}", hiverelay.VectorManifest(), hiverelay.RuleVecSetHash},
		{OpFormat, "{}", hiverelay.ReferenceFormatArtifact(), hiverelay.RuleFmtHash},
		{OpAuthority, "{}", missing, hiverelay.RuleVecMissing},
	} {
		t.Run(tc.op, func(t *testing.T) {
			req := testee.Request{ID: 1, Op: tc.op, Args: json.RawMessage(tc.args), Input: tc.input}
			std, err1 := reference.For(Spec).Do(t.Context(), req)
			faulty, err2 := reference.For(Spec).WithChecks(rules.Checks{Faults: fault.Of(string(tc.fault))}).Do(t.Context(), req)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if std.Outcome == faulty.Outcome && string(std.Result) == string(faulty.Result) {
				t.Fatalf("%s switched off changes nothing: %+v", tc.fault, faulty)
			}
			if std.Outcome == testee.Rejected && std.Rule != string(tc.fault) {
				t.Fatalf("the standard reference rejects by %s, want %s", std.Rule, tc.fault)
			}
		})
	}
}
