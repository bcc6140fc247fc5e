package testee

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func benchRequest() Request {
	return Request{ID: 123456, Op: "lace.record", Args: json.RawMessage(`{"mark":"none"}`), Input: bytes.Repeat([]byte{0xf0, 0x9f, 0x96, 0xa7}, 64)}
}

func BenchmarkAppendRequest(b *testing.B) {
	req := benchRequest()
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		buf, _ = AppendRequest(buf[:0], req)
	}
	b.SetBytes(int64(len(buf)))
}

func BenchmarkParseRequest(b *testing.B) {
	line, _ := AppendRequest(nil, benchRequest())
	line = line[:len(line)-1]
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseRequest(line); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseResponse(b *testing.B) {
	for _, bc := range []struct{ name, line string }{
		{"accepted", `{"id":7,"ok":true,"result":{"form":"plex","hash":"P.roNBxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxpqK.H3"}}`},
		{"rejected", `{"id":7,"ok":false,"code":"BAD_ENCODING","detail":"frontier entry 2: chain IDs not strictly sorted","rule":"HR-CKPT-03"}`},
		{"1MiB", `{"id":7,"ok":true,"result":{"reencoded":"` + strings.Repeat("QUJD", 1<<18) + `"}}`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			line := []byte(bc.line)
			b.SetBytes(int64(len(line)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ParseResponse(line, 7); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkLineReader(b *testing.B) {
	data := []byte(strings.Repeat(`{"id":7,"ok":true,"result":{"form":"plex","hash":"P.roNB...pqK.H3"}}`+"\n", 10000))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		lr := newLineReader(bytes.NewReader(data), DefaultMaxLine)
		for {
			if _, err := lr.readLine(); err != nil {
				break
			}
		}
	}
}

// BenchmarkValidJSON: the validation of an answer carrying a 4 MiB base64
// string, by validJSON (the string cut out) and by json.Valid.
func BenchmarkValidJSON(b *testing.B) {
	line := []byte(`{"id":7,"ok":true,"result":{"form":"blob","record":"` + strings.Repeat("QUJD", 1<<20) + `"}}`)
	for _, bc := range []struct {
		name  string
		valid func([]byte) bool
	}{{"cut", func(b []byte) bool { return validJSON(b, true) }}, {"json.Valid", json.Valid}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(line)))
			for b.Loop() {
				if !bc.valid(line) {
					b.Fatal("not valid")
				}
			}
		})
	}
}
