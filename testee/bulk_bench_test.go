package testee

import (
	"bytes"
	"encoding/json"
	jsonv2 "encoding/json/v2"
	"testing"
)

// BenchmarkParseRequestBulk reads a request line carrying a 32 MiB input
// (44.7 MiB of base64), as conform serve does for the largest Lace vector:
// this package's reader (the envelope validated without the input string,
// the base64 decoded directly, in place or into a new buffer) against the
// standard library's encoding/json and encoding/json/v2 decoding the same
// members into a struct ([]byte decodes base64). What the choice in
// bulk.go rests on.
func BenchmarkParseRequestBulk(b *testing.B) {
	input := bytes.Repeat([]byte("X: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n\xf0\x9f\x96\xa7"), (32<<20)/69)
	line, err := AppendRequest(nil, Request{ID: 7, Op: "lace.record", Args: json.RawMessage(`{"mark":"none"}`), Input: input})
	if err != nil {
		b.Fatal(err)
	}
	line = line[:len(line)-1]
	type wire struct {
		ID    int64           `json:"id"`
		Op    string          `json:"op"`
		Args  json.RawMessage `json:"args"`
		Input []byte          `json:"input"`
	}
	check := func(b *testing.B, got []byte) {
		if !bytes.Equal(got, input) {
			b.Fatal("wrong input")
		}
	}
	work := make([]byte, len(line))
	b.Run("in-place", func(b *testing.B) {
		b.SetBytes(int64(len(line)))
		for b.Loop() {
			copy(work, line) // what a server reads into its line buffer anyway
			r, err := ParseRequestInPlace(work)
			if err != nil {
				b.Fatal(err)
			}
			check(b, r.Input)
		}
	})
	b.Run("copy", func(b *testing.B) {
		b.SetBytes(int64(len(line)))
		for b.Loop() {
			r, err := ParseRequest(line)
			if err != nil {
				b.Fatal(err)
			}
			check(b, r.Input)
		}
	})
	for _, std := range []struct {
		name      string
		unmarshal func([]byte, any) error
	}{
		{"encoding-json", json.Unmarshal},
		{"encoding-json-v2", func(in []byte, out any) error { return jsonv2.Unmarshal(in, out) }},
	} {
		b.Run(std.name, func(b *testing.B) {
			b.SetBytes(int64(len(line)))
			for b.Loop() {
				var w wire
				if err := std.unmarshal(line, &w); err != nil {
					b.Fatal(err)
				}
				check(b, w.Input)
			}
		})
	}
}
