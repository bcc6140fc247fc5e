package plainjson

import (
	"encoding/json"
	"reflect"
	"testing"
)

// decodeFiles reads b as a plain object of base64 members.
func decodeFiles(b []byte) (map[string][]byte, bool) {
	m := map[string][]byte{}
	ok := Object(b, func(p *Reader, name string) { m[name] = p.Base64() })
	return m, ok
}

// What Object takes for plain, encoding/json decodes to the same values;
// what is not plain (escapes, white space inside, duplicate names, base64
// with CR or LF or not canonical) Object refuses.
func TestObject(t *testing.T) {
	for _, c := range []struct {
		in    string
		plain bool
	}{
		{`{}`, true},
		{`{"a":"QUFB"}`, true},
		{`{"a":"QUFB","b":""} ` + "\n", true},
		{`{"a":"QQ=="}`, true},
		{`{"a":"QQ="}`, false}, // not base64
		{`{"a":"QU\nFB"}`, false},
		{`{"a":"QUFB","a":"QkJC"}`, false},
		{`{"a\u0062":"QQ=="}`, false},
		{`{ "a":"QQ=="}`, false},
		{`{"a":null}`, false},
		{`{"a":"QQ=="`, false},
		{``, false},
	} {
		got, ok := decodeFiles([]byte(c.in))
		if ok != c.plain {
			t.Errorf("%q: plain %v, want %v", c.in, ok, c.plain)
			continue
		}
		if !ok {
			continue
		}
		var want map[string][]byte
		if err := json.Unmarshal([]byte(c.in), &want); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%q: Object = %v; json.Unmarshal = %v, %v", c.in, got, want, err)
		}
	}
}

// FuzzObject: for any bytes that Object takes for a plain object of base64
// members, encoding/json accepts them and decodes the same values.
func FuzzObject(f *testing.F) {
	for _, s := range []string{`{"a":"QQ=="}`, `{"format_artifact":"QQ==","files":"Qg=="}`, `{"a":"QQ==","a":"Qg=="}`, `{"a\u0062":"QQ=="}`, `{}`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		got, ok := decodeFiles(in)
		if !ok {
			return
		}
		var want map[string][]byte
		if err := json.Unmarshal(in, &want); err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: Object = %v; json.Unmarshal = %v, %v", in, got, want, err)
		}
	})
}
