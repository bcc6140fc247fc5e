package vectorset

import (
	"encoding/json"
	"reflect"
	"testing"
)

// An Authority's JSON is one object, each hash's member then its length's,
// and reads back to the same hashes; other shapes are refused.
func TestAuthorityJSON(t *testing.T) {
	a := Authority{
		{Name: "formatHash", Hex: "5c30", LengthName: "formatLength", Length: 9484},
		{Name: "setHash", Hex: "fd06", LengthName: "manifestLength", Length: 1506},
	}
	b, err := json.Marshal(struct {
		A Authority `json:"a,omitempty"`
		N Authority `json:"n,omitempty"`
	}{A: a})
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"a":{"formatHash":"5c30","formatLength":9484,"setHash":"fd06","manifestLength":1506}}`
	if string(b) != want {
		t.Errorf("got %s, want %s", b, want)
	}
	var back struct{ A Authority }
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back.A, a) {
		t.Errorf("read back %+v, %v", back.A, err)
	}
	for _, bad := range []string{
		`[]`,
		`{"len":1}`,
		`{"h":"00","len":1,"len2":2}`,
		`{"h":"00","len":-1}`,
		`{"h":true}`,
	} {
		var x Authority
		if err := json.Unmarshal([]byte(bad), &x); err == nil {
			t.Errorf("%s read as %+v", bad, x)
		}
	}
}
