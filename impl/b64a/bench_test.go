package b64a_test

import (
	"bytes"
	"strconv"
	"testing"

	"github.com/threespec/conformance/impl/b64a"
)

// The hot sizes: 32 bytes (hashes, By keys) and 64 bytes (Marks).
var benchSizes = []int{32, 64}

func BenchmarkEncode(b *testing.B) {
	for _, n := range benchSizes {
		src := bytes.Repeat([]byte{0x5a}, n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(n))
			b.ReportAllocs()
			for b.Loop() {
				_ = b64a.Encode(src)
			}
		})
	}
}

func BenchmarkAppendEncode(b *testing.B) {
	for _, n := range benchSizes {
		src := bytes.Repeat([]byte{0x5a}, n)
		dst := make([]byte, 0, b64a.EncodedLen(n))
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(n))
			b.ReportAllocs()
			for b.Loop() {
				dst = b64a.AppendEncode(dst[:0], src)
			}
		})
	}
}

func BenchmarkDecode(b *testing.B) {
	for _, n := range benchSizes {
		text := b64a.Encode(bytes.Repeat([]byte{0x5a}, n))
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(n))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := b64a.Decode(text); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkDecodeInto(b *testing.B) {
	for _, n := range benchSizes {
		text := b64a.Encode(bytes.Repeat([]byte{0x5a}, n))
		dst := make([]byte, n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(n))
			b.ReportAllocs()
			for b.Loop() {
				if err := b64a.DecodeInto(dst, text); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
