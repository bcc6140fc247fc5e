package reference

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/threespec/conformance/suites/hivesuite"
)

// FuzzConstructInput: for any bytes, the in-place decoder of lace.construct's
// input (soleData, taken when the input is plain) gives what
// constructInputJSON, through encoding/json, gives: the same values and
// the same error.
func FuzzConstructInput(f *testing.F) {
	for _, s := range []string{`{"data":"QUFB"}`, `{"data":""}`, `{"data":"QR=="}`, `{"data":"QU\nFB"}`,
		`{"data":"QUFB","fields":[["Kind","note"]]}`, `{"data":"QUFB","data":"QkJC"}`, `{"data":null}`, `{}`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		got, gotErr := constructInput(in)
		want, wantErr := constructInputJSON(in)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: constructInput = %+v, %v; constructInputJSON = %+v, %v", in, got, gotErr, want, wantErr)
		}
	})
}

// FuzzAuthorityInput: for any bytes, decodeAuthorityInput (in place when
// the input is plain) accepts exactly what json.Unmarshal accepts, with the
// same value.
func FuzzAuthorityInput(f *testing.F) {
	for _, s := range []string{`{"files":{"a":"QQ=="}}`, `{"format_artifact":"QQ==","vector_manifest":"Qg==","metadata":"e30=","files":{}}`,
		`{"files":{"a":"QQ==","a":"Qg=="}}`, `{"files":{"a\u0062":"QQ=="}}`, `{"format_artifact":"Q\nQ=="}`, `{"files":null}`, `{}`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		got, gotErr := decodeAuthorityInput(in)
		var want hivesuite.AuthorityInput
		wantErr := json.Unmarshal(in, &want)
		if (gotErr != nil) != (wantErr != nil) || gotErr == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: decodeAuthorityInput = %+v, %v; json.Unmarshal = %+v, %v", in, got, gotErr, want, wantErr)
		}
	})
}
