package manifest

import (
	"bytes"
	"testing"
)

// FuzzParse: no panic, and every accepted manifest re-encodes to its bytes.
func FuzzParse(f *testing.F) {
	f.Add(rawManifest(0))
	f.Add(rawManifest(1, row("a")))
	f.Add(rawManifest(2, row("a/b"), row("a/c")))
	f.Add(rawManifest(2, row("b"), row("a")))
	f.Add(rawManifest(1, row("e\u0301")))
	f.Fuzz(func(t *testing.T, in []byte) {
		entries, err := Parse(in)
		if err != nil {
			return
		}
		out, err := Encode(entries)
		if err != nil {
			t.Fatalf("accepted manifest does not re-encode: %v", err)
		}
		if !bytes.Equal(out, in) {
			t.Fatalf("accepted %x, re-encoded %x", in, out)
		}
		for _, e := range entries {
			if err := CheckPath(e.Path); err != nil {
				t.Fatalf("accepted path %q: %v", e.Path, err)
			}
		}
	})
}

func BenchmarkParse1000Rows(b *testing.B) {
	files := make(map[string][]byte, 1000)
	for i := 0; i < 1000; i++ {
		files["positive/suite/vector-"+string(rune('a'+i%26))+"-"+string(rune('a'+i/26%26))+"-"+string(rune('a'+i/676))+".bin"] = []byte{byte(i)}
	}
	m, err := Build(files)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(m)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(m); err != nil {
			b.Fatal(err)
		}
	}
}
