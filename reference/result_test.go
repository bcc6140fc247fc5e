package reference

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/threespec/conformance/impl/lace"
	"github.com/threespec/conformance/suites/hivesuite"
	"github.com/threespec/conformance/testee"
)

// marshalResult writes json.Marshal's bytes for every kind of value a
// handler's result holds: strings that need escaping (for JSON, for HTML,
// invalid UTF-8) and strings that do not, bytes (nil, empty, every length
// modulo 3, large), nested maps, key order, and values it leaves to
// json.Marshal.
func TestMarshalResultIsJSONMarshal(t *testing.T) {
	large := bytes.Repeat([]byte{0xfb, 0xff, 0x00, 'A'}, 1<<18)
	cases := map[string]any{
		"nil":               nil,
		"nil map":           map[string]any(nil),
		"empty map":         map[string]any{},
		"plain string":      map[string]any{"hash": "B.AbC-_09.H3", "form": "seal"},
		"quote, backslash":  map[string]any{"d": `a"b\c`},
		"html":              map[string]any{"d": "<a href='x'>&amp;</a>"},
		"control":           map[string]any{"d": "tab\tnl\ncr\rnul\x00del\x7f"},
		"non-ASCII":         map[string]any{"d": "café ✓ \u2028\u2029"},
		"invalid UTF-8":     map[string]any{"d": "a\xffb\xc3"},
		"escaped keys":      map[string]any{"<k>": 1, "k\"": 2, "é": 3, "": 4},
		"key order":         map[string]any{"b": 1, "a": 2, "B": 3, "aa": 4, "a\x00": 5, "~": 6},
		"nil bytes":         map[string]any{"record": []byte(nil)},
		"empty bytes":       map[string]any{"record": []byte{}},
		"bytes of each len": map[string]any{"1": []byte{0xff}, "2": []byte{0xff, 0xfe}, "3": []byte{0xff, 0xfe, 0xfd}, "4": []byte{0, 1, 2, 3}},
		"large bytes":       map[string]any{"record": large, "hash": "h", "form": "blob"},
		"bytesMember":       map[string]any{"a": bytesMember(nil), "b": bytesMember([]byte("xyz"))},
		"nested":            map[string]any{"limits": map[string]any{"lace.max_depth": 64, "z": map[string]any{"<": []byte{1}}}},
		"other values":      map[string]any{"n": 3, "f": 1.5, "t": true, "null": nil, "list": []string{"b", "<a>"}, "entries": []ManifestEntry{{Path: "p&q", Length: 2, BLAKE2b: "00"}}},
		"struct result":     LaceRecordResult{Hash: "h<", Form: "plex"},
		"top-level string":  "<not a result>",
		"top-level bytes":   []byte("xyz"),
	}
	for name, v := range cases {
		t.Run(name, func(t *testing.T) {
			want, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			got, err := marshalResult(v)
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("marshalResult = %.200s, %v\njson.Marshal = %.200s", got, err, want)
			}
		})
	}
}

// A value json.Marshal cannot encode is an error for marshalResult too.
func TestMarshalResultFailsAsJSONMarshal(t *testing.T) {
	for _, v := range []any{map[string]any{"f": func() {}}, map[string]any{"a": map[string]any{"c": make(chan int)}}} {
		if _, err := json.Marshal(v); err == nil {
			t.Fatalf("json.Marshal(%T) succeeded", v)
		}
		if _, err := marshalResult(v); err == nil {
			t.Errorf("marshalResult(%v) succeeded", v)
		}
	}
}

// constructInput, which decodes an input that is only a payload in place,
// gives the lace.Spec and the error constructInputJSON gives, on the
// inputs it decodes itself and on those it leaves to encoding/json.
func TestConstructInputIsConstructInputJSON(t *testing.T) {
	payload := base64.StdEncoding.EncodeToString([]byte("payload bytes \x00\xff"))
	secret := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{7}, 32))
	inputs := []string{
		`{"data":"` + payload + `"}`,
		`{"data":"` + payload + `"}` + " \t\r\n",
		`{"data":""}`,
		`{"data":"QQ=="}`,
		`{"data":"QR=="}`, // non-zero padding bits, which StdEncoding accepts
		`{"data":"QQ"}`,   // missing padding
		`{"data":"Q"}`,    // truncated
		`{"data":"QQ==QQ=="}`,
		`{"data":"QU` + "\n" + `FB"}`, // a raw LF, which base64 would skip: not JSON
		`{"data":"QU` + "\r" + `FB"}`,
		`{"data":"QUFB` + "\r\n" + `"}`,
		`{"data":"QU\nFB"}`,  // an escaped LF, which base64 would skip too
		`{"data":"QU\\nFB"}`, // an escaped backslash
		`{"data":"QU\/FB"}`,
		`{"data":"QUFB\u0041"}`,
		`{"data":"QUFB\\u0041"}`,
		`{"data":"QUFB` + "\xff" + `"}`,
		`{"data":"QUFB"`,
		`{"data":"QUFB"}}`,
		`{"data":"QUFB"} x`,
		`{"data":"QUFB"},`,
		`{"data":"QUFB" }`,
		`{"data":"QUFB","data":"QkJC"}`,
		`{"data":"QUFB","DATA":null}`,
		`{"data":"QUFB","fields":[["Kind","note"]]}`,
		`{"data":"QUFB","secret":"` + secret + `"}`,
		`{"data":"QUFB","secret":"QQ=="}`,
		`{"data":"QUFB","aux":"QQ=="}`,
		` {"data":"QUFB"}`,
		`{ "data":"QUFB"}`,
		`{"Data":"QUFB"}`,
		`{"data":null}`,
		`{"data":1}`,
		`{"fields":[["A","b"]]}`,
		`{}`,
		`[]`,
		``,
	}
	for _, in := range inputs {
		t.Run(in, func(t *testing.T) {
			got, gotErr := constructInput([]byte(in))
			want, wantErr := constructInputJSON([]byte(in))
			if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
				t.Errorf("constructInput = %+v, %v\nconstructInputJSON = %+v, %v", got, gotErr, want, wantErr)
			}
		})
	}
	// The fast path is taken where it should be (else the cases above
	// compare encoding/json with itself).
	for _, in := range inputs[:4] {
		if _, ok := soleData([]byte(in)); !ok {
			t.Errorf("soleData(%q) declined", in)
		}
	}
}

// The whole lace.construct answer for a 32 MiB payload, as conform serve
// gets it from Do, is what json.Marshal made of the result before
// (a base64 string, escaped by encoding/json).
func TestLaceConstructLargeAnswer(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789abcdef"), 2<<20)
	in := `{"data":"` + base64.StdEncoding.EncodeToString(data) + `"}` + "\n"
	resp := do(t, testee.OpLaceConstruct, "{}", []byte(in))
	if resp.Outcome != testee.Accepted {
		t.Fatalf("%+v", resp)
	}
	out, rec, err := lace.Construct(lace.Spec{Data: data})
	if err != nil {
		t.Fatal(err)
	}
	want, err := json.Marshal(map[string]any{"record": base64.StdEncoding.EncodeToString(out), "hash": rec.Hash.String(), "form": rec.Form.String()})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(resp.Result, want) {
		t.Errorf("result %.100s... (%d bytes), want %.100s... (%d bytes)", resp.Result, len(resp.Result), want, len(want))
	}
}

// decodeAuthorityInput, which decodes a plain input in place, gives what
// encoding/json gives (and fails where it fails), on inputs as
// json.Marshal writes them, which plainAuthority must take, and on
// inputs it must leave to encoding/json.
func TestDecodeAuthorityInputIsJSON(t *testing.T) {
	marshal := func(in hivesuite.AuthorityInput) string {
		b, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	plain := []string{
		marshal(hivesuite.AuthorityInput{FormatArtifact: []byte{}, Files: map[string][]byte{}}),
		marshal(hivesuite.AuthorityInput{
			FormatArtifact: []byte("HRBCCF01\x00\x01"), VectorManifest: []byte{0xff, 0xfe},
			Files:    map[string][]byte{"positive/a.bin": {1, 2, 3}, "negative/é ✓.bin": {}, "x": bytes.Repeat([]byte{7}, 1<<16)},
			Metadata: []byte("{}"),
		}),
		`{"files":{"a":"QQ=="}}` + "\n",
		`{}`,
	}
	others := []string{
		marshal(hivesuite.AuthorityInput{}),                                       // nulls
		marshal(hivesuite.AuthorityInput{Files: map[string][]byte{"<a>&b": {1}}}), // escaped by json.Marshal
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
		var want hivesuite.AuthorityInput
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
