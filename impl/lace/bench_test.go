package lace

import (
	"testing"
	"time"

	"github.com/zeebo/blake3"
)

func maxBlob(b *testing.B) []byte {
	data := make([]byte, MaxData)
	for i := range data {
		data[i] = byte(i * 7)
	}
	out, _, err := Construct(Spec{Data: data})
	if err != nil {
		b.Fatal(err)
	}
	return out
}

// BenchmarkValidateBlob32MiB validates a Blob record with 32 MiB of data.
func BenchmarkValidateBlob32MiB(b *testing.B) {
	rec := maxBlob(b)
	b.SetBytes(int64(len(rec)))
	for b.Loop() {
		if _, err := Parse(rec, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBlake3Raw32MiB is raw BLAKE3-256 of the same record bytes, the
// yardstick of the 1.1x goal (docs/DECISIONS.md, "Quality bars").
func BenchmarkBlake3Raw32MiB(b *testing.B) {
	rec := maxBlob(b)
	b.SetBytes(int64(len(rec)))
	for b.Loop() {
		blake3.Sum256(rec)
	}
}

// BenchmarkValidateBlobRatio measures validation and raw BLAKE3 in one run,
// interleaved, and reports validation time over hashing time as "x-blake3".
func BenchmarkValidateBlobRatio(b *testing.B) {
	rec := maxBlob(b)
	var parse, raw time.Duration
	for b.Loop() {
		t0 := time.Now()
		if _, err := Parse(rec, Options{}); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		blake3.Sum256(rec)
		raw += time.Since(t1)
		parse += t1.Sub(t0)
	}
	b.ReportMetric(float64(parse)/float64(raw), "x-blake3")
}

// BenchmarkParsePlex5 parses the canonical five-field Plex.
func BenchmarkParsePlex5(b *testing.B) {
	rec := vector(b, "plex")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(rec, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkConstructPlex5 constructs the canonical five-field Plex.
func BenchmarkConstructPlex5(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Construct(Spec{Data: hello, Fields: vectorFields}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseSeal verifies the bip340-standin Mark of a small Seal.
func BenchmarkParseSeal(b *testing.B) {
	rec := mk(sealOver(b, mk(plexT("hello", "App: x"))))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(rec, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
