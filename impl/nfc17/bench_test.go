package nfc17_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/threespec/conformance/impl/nfc17"
)

// Field lines are at most 128 bytes (Lace-010); these are the shapes the
// record parser checks: ASCII, and text with two-, three- and four-byte
// characters.
var benchLines = map[string][]byte{
	"ascii128": []byte("Name: " + strings.Repeat("a", 122)),
	"mixed128": []byte("Name: " + strings.Repeat("é€🖧a", 12) + strings.Repeat("b", 2)),
}

func BenchmarkCheckUTF8(b *testing.B) {
	for name, line := range benchLines {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(line)))
			b.ReportAllocs()
			for b.Loop() {
				if nfc17.CheckUTF8(line) != nil {
					b.Fatal("invalid")
				}
			}
		})
	}
}

// BenchmarkUTF8Valid is the standard library's check on the same lines, for
// the ratio.
func BenchmarkUTF8Valid(b *testing.B) {
	for name, line := range benchLines {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(line)))
			for b.Loop() {
				if !utf8.Valid(line) {
					b.Fatal("invalid")
				}
			}
		})
	}
}

func BenchmarkIsNFC(b *testing.B) {
	for name, line := range benchLines {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(line)))
			b.ReportAllocs()
			for b.Loop() {
				if !nfc17.IsNFC(line) {
					b.Fatal("not NFC")
				}
			}
		})
	}
}
