package spec

import (
	"bytes"
	"encoding/json"
	"testing"
)

// MarshalResult writes json.Marshal's bytes for every kind of value a
// handler's result holds: strings that need escaping (for JSON, for HTML,
// invalid UTF-8) and strings that do not, bytes (nil, empty, every length
// modulo 3, large), nested maps, key order, and values it leaves to
// json.Marshal.
func TestMarshalResultIsJSONMarshal(t *testing.T) {
	type entry struct {
		Path   string `json:"path"`
		Length uint64 `json:"length,omitempty"`
	}
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
		"BytesMember":       map[string]any{"a": BytesMember(nil), "b": BytesMember([]byte("xyz"))},
		"nested":            map[string]any{"limits": map[string]any{"lace.max_depth": 64, "z": map[string]any{"<": []byte{1}}}},
		"other values":      map[string]any{"n": 3, "f": 1.5, "t": true, "null": nil, "list": []string{"b", "<a>"}, "entries": []entry{{Path: "p&q", Length: 2}}},
		"struct result":     entry{Path: "h<", Length: 3},
		"top-level string":  "<not a result>",
		"top-level bytes":   []byte("xyz"),
	}
	for name, v := range cases {
		t.Run(name, func(t *testing.T) {
			want, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			got, err := MarshalResult(v)
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("MarshalResult = %.200s, %v\njson.Marshal = %.200s", got, err, want)
			}
		})
	}
}

// A value json.Marshal cannot encode is an error for MarshalResult too.
func TestMarshalResultFailsAsJSONMarshal(t *testing.T) {
	for _, v := range []any{map[string]any{"f": func() {}}, map[string]any{"a": map[string]any{"c": make(chan int)}}} {
		if _, err := json.Marshal(v); err == nil {
			t.Fatalf("json.Marshal(%T) succeeded", v)
		}
		if _, err := MarshalResult(v); err == nil {
			t.Errorf("MarshalResult(%v) succeeded", v)
		}
	}
}
