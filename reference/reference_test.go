package reference

import (
	"bytes"
	"encoding/hex"
	"strings"

	"context"
	"encoding/json"
	"github.com/threespec/conformance/impl/hiverelay"
	"testing"

	"github.com/threespec/conformance/suites/hivesuite"
	"github.com/threespec/conformance/testee"
)

// The canonical Blob of Lace-010, "A canonical vector covers all three record forms".
const seedBlob = "🖧: B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3\nData-Length: 5\n\nhello"

func do(t *testing.T, op string, args string, input []byte) testee.Response {
	t.Helper()
	resp, err := New().Do(context.Background(), testee.Request{ID: 3, Op: op, Args: json.RawMessage(args), Input: input})
	if err != nil {
		t.Fatalf("%s: %v", op, err)
	}
	if resp.ID != 3 {
		t.Fatalf("%s: response id %d, want 3", op, resp.ID)
	}
	return resp
}

func TestHelloListsEveryImplementedOp(t *testing.T) {
	resp := do(t, testee.OpHello, "{}", nil)
	h, err := testee.ParseHello(resp.Result)
	if err != nil {
		t.Fatal(err)
	}
	if h.Protocol != testee.ProtocolVersion || !h.ClaimsProfile(testee.ProfileLaceMarkBIP340Standin) || h.ClaimsProfile(testee.ProfileLace009) {
		t.Fatalf("hello = %+v", h)
	}
	known := map[string]bool{}
	for _, op := range testee.Ops() {
		known[op] = true
	}
	for _, op := range h.Ops {
		if !known[op] {
			t.Errorf("hello claims %q, which the protocol does not define", op)
		}
	}
	if !h.Claims(testee.OpLaceRecord) || !h.Claims(testee.OpLaceDirectory) {
		t.Errorf("hello does not claim the lace operations: %v", h.Ops)
	}
}

func TestLaceRecordKnownAnswer(t *testing.T) {
	resp := do(t, testee.OpLaceRecord, "{}", []byte(seedBlob))
	if resp.Outcome != testee.Accepted {
		t.Fatalf("seed Blob: %+v", resp)
	}
	var res LaceRecordResult
	if err := json.Unmarshal(resp.Result, &res); err != nil {
		t.Fatal(err)
	}
	if res.Form != "blob" || res.Hash != "B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3" || res.Data != 5 {
		t.Fatalf("seed Blob result %+v", res)
	}
}

func TestLaceRejectionCarriesRule(t *testing.T) {
	// Data-Length: 01 is a rejection example of Lace-010's last section.
	bad := []byte("🖧: B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3\nData-Length: 05\n\nhello")
	resp := do(t, testee.OpLaceRecord, "{}", bad)
	if resp.Outcome != testee.Rejected || resp.Rule == "" || resp.Code != resp.Rule {
		t.Fatalf("Data-Length: 05 gave %+v", resp)
	}
}

func TestUnsupported(t *testing.T) {
	if r := do(t, "lace.nonsense", "{}", nil); r.Outcome != testee.Unsupported {
		t.Fatalf("unknown op: %+v", r)
	}
	if r := do(t, testee.OpLaceRecord, `{"mark":"009"}`, []byte(seedBlob)); r.Outcome != testee.Unsupported {
		t.Fatalf("mark 009: %+v", r)
	}
	// lace.construct's mark names the scheme a Mark is made under: the
	// stand-in (default) only.
	plex := []byte(`{"data":"aGVsbG8=","fields":[["App","chat"]]}`)
	for args, want := range map[string]testee.Outcome{
		`{}`: testee.Accepted, `{"mark":"bip340-standin"}`: testee.Accepted,
		`{"mark":"009"}`: testee.Unsupported, `{"mark":"none"}`: testee.Unsupported, `{"mark":"ed25519"}`: testee.Unsupported,
	} {
		if r := do(t, testee.OpLaceConstruct, args, plex); r.Outcome != want {
			t.Errorf("lace.construct %s: %+v, want %s", args, r, want)
		}
	}
	if _, err := New().Do(context.Background(), testee.Request{Op: testee.OpLaceRecord, Args: json.RawMessage(`[1]`)}); err == nil {
		t.Fatal("args that are not an object must be a request error")
	}
}

func TestHiveRelayAuthorityKnownAnswers(t *testing.T) {
	// Every positive vector of the closed inventory decodes and re-encodes to
	// itself (HiveRelay BCC v1, section 5); every negative is BAD_ENCODING.
	for _, v := range hiverelay.Vectors() {
		if v.Kind == hiverelay.Registry {
			continue
		}
		args, _ := json.Marshal(hivesuite.DecodeArgs{Schema: v.Schema, Class: int(v.Class)})
		resp := do(t, testee.OpHiveRelayDecode, string(args), v.Bytes)
		switch v.Kind {
		case hiverelay.Positive:
			var res struct{ Reencoded []byte }
			if resp.Outcome != testee.Accepted || json.Unmarshal(resp.Result, &res) != nil || !bytes.Equal(res.Reencoded, v.Bytes) {
				t.Errorf("%s: %+v", v.Path, resp)
			}
		case hiverelay.Negative:
			if resp.Outcome != testee.Rejected || resp.Code != "BAD_ENCODING" || resp.Rule == "" {
				t.Errorf("%s: %+v", v.Path, resp)
			}
		}
	}
	art := hiverelay.ReferenceFormatArtifact()
	resp := do(t, testee.OpHiveRelayFormat, "{}", art)
	h := hiverelay.FormatHash(art)
	if resp.Outcome != testee.Accepted || !strings.Contains(string(resp.Result), hex.EncodeToString(h[:])) {
		t.Errorf("format artifact: %+v", resp)
	}
	if resp := do(t, testee.OpHiveRelayFormat, "{}", art[:len(art)-1]); resp.Outcome != testee.Rejected || resp.Code != "BAD_ENCODING" {
		t.Errorf("truncated artifact: %+v", resp)
	}
	if resp := do(t, testee.OpHiveRelayManifest, "{}", hiverelay.VectorManifest()); resp.Outcome != testee.Accepted || !strings.Contains(string(resp.Result), `"path":"registry/client-composition-schema-catalog-v1.cenc"`) {
		t.Errorf("manifest: %+v", resp)
	}
}
