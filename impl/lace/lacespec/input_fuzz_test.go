package lacespec

import (
	"fmt"
	"reflect"
	"testing"
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
