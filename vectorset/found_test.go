package vectorset

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestParseFoundEntry(t *testing.T) {
	const ok = `{"op":"x.y","args":{},"input":"AA==","expect":"accept","rules":["R-A-01"],"why":"w",
		"provenance":{"seed":1,"case":2,"generator":"g","testee":"t","finding":"f","shrunk_from":3}}`
	if e, err := ParseFoundEntry("a-b", []byte(ok)); err != nil || len(e.Input) != 1 || e.Provenance.Case != 2 {
		t.Fatalf("%+v, %v", e, err)
	}
	for _, tc := range []struct{ name, in, want string }{
		{"A_b", ok, "name"},
		{"a", strings.Replace(ok, `"op":"x.y"`, `"op":""`, 1), "no op"},
		{"a", strings.Replace(ok, `"accept"`, `"maybe"`, 1), "expect"},
		{"a", strings.Replace(ok, `["R-A-01"]`, `[]`, 1), "no rule"},
		{"a", strings.Replace(ok, `"testee":"t"`, `"testee":""`, 1), "provenance"},
		{"a", `{`, "unexpected end"},
	} {
		if _, err := ParseFoundEntry(tc.name, []byte(tc.in)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %.40q: %v, want an error about %q", tc.name, tc.in, err, tc.want)
		}
	}
}

// FuzzParseFoundEntry: any bytes are an entry or an error, never a panic;
// an entry it accepts is marshalled and read back the same.
func FuzzParseFoundEntry(f *testing.F) {
	f.Add([]byte(`{"op":"x.y","args":{},"input":"AA==","expect":"reject","code":"C","rules":["R-A-01"],"why":"w","provenance":{"generator":"g","testee":"t","finding":"f"}}`))
	f.Add([]byte(`{"op":1}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		e, err := ParseFoundEntry("a", b)
		if err != nil {
			return
		}
		out, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		e2, err := ParseFoundEntry("a", out)
		if err != nil || !reflect.DeepEqual(e.Rules, e2.Rules) || !bytes.Equal(e.Input, e2.Input) || e.Op != e2.Op {
			t.Fatalf("%q: read back %+v, %v", out, e2, err)
		}
	})
}
