package hivespec

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/threespec/conformance/impl/hiverelay"
	"github.com/threespec/conformance/reference/referencetest"
	"github.com/threespec/conformance/testee"
)

func TestHiveRelayAuthorityKnownAnswers(t *testing.T) {
	// Every positive vector of the closed inventory decodes and re-encodes to
	// itself (HiveRelay BCC v1, section 5); every negative is BAD_ENCODING.
	for _, v := range hiverelay.Vectors() {
		if v.Kind == hiverelay.Registry {
			continue
		}
		args, _ := json.Marshal(DecodeArgs{Schema: v.Schema, Class: int(v.Class)})
		resp := referencetest.Do(t, Spec, OpDecode, string(args), v.Bytes)
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
	resp := referencetest.Do(t, Spec, OpFormat, "{}", art)
	h := hiverelay.FormatHash(art)
	if resp.Outcome != testee.Accepted || !strings.Contains(string(resp.Result), hex.EncodeToString(h[:])) {
		t.Errorf("format artifact: %+v", resp)
	}
	if resp := referencetest.Do(t, Spec, OpFormat, "{}", art[:len(art)-1]); resp.Outcome != testee.Rejected || resp.Code != "BAD_ENCODING" {
		t.Errorf("truncated artifact: %+v", resp)
	}
	if resp := referencetest.Do(t, Spec, OpManifest, "{}", hiverelay.VectorManifest()); resp.Outcome != testee.Accepted || !strings.Contains(string(resp.Result), `"path":"registry/client-composition-schema-catalog-v1.cenc"`) {
		t.Errorf("manifest: %+v", resp)
	}
}

// decodeAuthorityInput, which decodes a plain input in place, gives what
// encoding/json gives (and fails where it fails), on inputs as
// json.Marshal writes them, which plainAuthority must take, and on
// inputs it must leave to encoding/json.
func TestDecodeAuthorityInputIsJSON(t *testing.T) {
	marshal := func(in AuthorityInput) string {
		b, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	plain := []string{
		marshal(AuthorityInput{FormatArtifact: []byte{}, Files: map[string][]byte{}}),
		marshal(AuthorityInput{
			FormatArtifact: []byte("HRBCCF01\x00\x01"), VectorManifest: []byte{0xff, 0xfe},
			Files:    map[string][]byte{"positive/a.bin": {1, 2, 3}, "negative/é ✓.bin": {}, "x": bytes.Repeat([]byte{7}, 1<<16)},
			Metadata: []byte("{}"),
		}),
		`{"files":{"a":"QQ=="}}` + "\n",
		`{}`,
	}
	others := []string{
		marshal(AuthorityInput{}), // nulls
		marshal(AuthorityInput{Files: map[string][]byte{"<a>&b": {1}}}), // escaped by json.Marshal
		`{"files":{"a":"QQ==","a":"Qg=="}}`,
		`{"files":{"a":"QQ=="},"files":{"b":"Qg=="}}`,
		`{"files":{"a":"QQ=="},"FILES":{"b":"Qg=="}}`,
		`{"Format_Artifact":"QQ=="}`,
		`{"format_artifact":"QQ==","format_artifact":"Qg=="}`,
		`{"format_artifact":null}`,
		`{"files":null}`,
		`{"files":{"a":null}}`,
		`{"files":[]}`,
		`{"format_artifact":[65,66]}`,
		`{"format_artifact":"QQ"}`,
		`{"format_artifact":"QR=="}`,
		`{"format_artifact":"Q` + "\n" + `Q=="}`,
		`{"format_artifact":"Q` + "\r" + `Q=="}`,
		`{"format_artifact":"Q\nQ=="}`,
		`{"format_artifact":"\u0051Q=="}`,
		`{"files":{"a\u0062":"QQ=="}}`,
		`{"files":{"a` + "\t" + `b":"QQ=="}}`,
		`{"files":{"a` + "\xff" + `":"QQ=="}}`,
		`{"unknown":1}`,
		`{ "files":{}}`,
		`{"files" :{}}`,
		`{"files":{} }`,
		` {"files":{}}`,
		`{"files":{}} x`,
		`{"files":{}}}`,
		`{"files":{}`,
		`{"files":{"a":"QQ=="`,
		`{"files":{"a":"QQ==}}`,
		`{,}`,
		`[]`,
		``,
	}
	check := func(in string) {
		got, gotErr := decodeAuthorityInput([]byte(in))
		var want AuthorityInput
		wantErr := json.Unmarshal([]byte(in), &want)
		if (gotErr != nil) != (wantErr != nil) || gotErr == nil && !reflect.DeepEqual(got, want) {
			t.Errorf("%.80q: decodeAuthorityInput = %+v, %v\njson.Unmarshal = %+v, %v", in, got, gotErr, want, wantErr)
		}
	}
	for _, in := range plain {
		if _, ok := plainAuthority([]byte(in)); !ok {
			t.Errorf("plainAuthority(%.80q) declined", in)
		}
		check(in)
	}
	for _, in := range others {
		check(in)
	}
}
