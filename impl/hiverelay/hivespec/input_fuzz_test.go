package hivespec

import (
	"encoding/json"
	"reflect"
	"testing"
)

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
		var want AuthorityInput
		wantErr := json.Unmarshal(in, &want)
		if (gotErr != nil) != (wantErr != nil) || gotErr == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: decodeAuthorityInput = %+v, %v; json.Unmarshal = %+v, %v", in, got, gotErr, want, wantErr)
		}
	})
}
