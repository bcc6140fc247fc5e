package libtracer

import (
	"bytes"
	"hash/crc32"
	"io"
	"testing"
)

// frame64K is a VALUE of 64 KiB payload (LL=1) with CRC-32C.
func frame64K() (frame, payload []byte) {
	payload = make([]byte, 64<<10)
	for i := range payload {
		payload[i] = byte(i * 7)
	}
	return mk(1, OptCR|OptLL, payload, nil), payload
}

// BenchmarkCRC64K compares checking a 64 KiB CRC-32C frame with the raw
// hash/crc32 Castagnoli checksum of its payload (docs/DECISIONS.md: at most 1.25x).
func BenchmarkCRC64K(b *testing.B) {
	frame, payload := frame64K()
	b.Run("frame", func(b *testing.B) {
		b.SetBytes(int64(len(payload)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Validate(frame, Limits{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("raw", func(b *testing.B) {
		tab := crc32.MakeTable(crc32.Castagnoli)
		b.SetBytes(int64(len(payload)))
		for b.Loop() {
			if crc32.Checksum(payload, tab) == 0 {
				b.Fatal("zero")
			}
		}
	})
}

// The contiguous path allocates nothing per frame (docs/DECISIONS.md).
func TestValidateAllocatesNothing(t *testing.T) {
	frame, _ := frame64K()
	inputs := [][]byte{frame}
	for _, ex := range allByteExamples(t) {
		inputs = append(inputs, hx(t, ex.wire))
	}
	inputs = append(inputs, chain(16), mk(0x80, OptPL|OptCR, rec(OptTS, u64le(T0), mk(1, OptTS|OptTF|OptCR|OptCW, pl42, i32le(3))), nil))
	for i, in := range inputs {
		Validate(in, Limits{}) // warm the pool
		if n := testing.AllocsPerRun(50, func() {
			if _, err := Validate(in, Limits{}); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("input %d: %v allocations per Validate", i, n)
		}
	}
}

// BenchmarkSmallFrames validates the worked examples back to back.
func BenchmarkSmallFrames(b *testing.B) {
	var in []byte
	for _, ex := range examples(b)[:6] {
		in = append(in, hx(b, ex.wire)...)
	}
	in = append(in[:len(in):len(in)], hx(b, "80 60 0c 00 01 22 04 00 2a 00 00 00 e8 03 00 00"+t0Hex)...)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Validate(in, Limits{}); err == nil {
			continue
		}
	}
}

// children10K is a PATH-like user record of 10,000 NAME children.
func children10K() []byte {
	var kids []byte
	for i := range 10000 {
		kids = append(kids, mk(2, 0, []byte{byte('a' + i%26), byte('a' + i/26%26)}, nil)...)
	}
	return mk(0x80, OptPL|OptLL|OptCR, kids, nil)
}

// BenchmarkNested10K parses one frame of 10,000 children.
func BenchmarkNested10K(b *testing.B) {
	in := children10K()
	b.Run("validate", func(b *testing.B) {
		b.SetBytes(int64(len(in)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Validate(in, Limits{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decode", func(b *testing.B) {
		b.SetBytes(int64(len(in)))
		b.ReportAllocs()
		for b.Loop() {
			if r := Decode(in, Limits{}); len(r.Frames[0].Children) != 10000 {
				b.Fatal(r.FirstError())
			}
		}
	})
	b.Run("rope", func(b *testing.B) {
		r := NewRope(viewsOf(in, []int{3, 1000, 50001, len(in) - 3}, false)...)
		b.SetBytes(int64(len(in)))
		b.ReportAllocs()
		for b.Loop() {
			DecodeRope(r, Limits{})
		}
	})
	b.Run("stream", func(b *testing.B) {
		b.SetBytes(int64(len(in)))
		b.ReportAllocs()
		for b.Loop() {
			d := NewStreamDecoder(bytes.NewReader(in), Limits{})
			if _, err := d.Next(); err != nil && err != io.EOF {
				b.Fatal(err)
			}
		}
	})
	b.Run("encode", func(b *testing.B) {
		fs := Decode(in, Limits{}).Frames
		b.SetBytes(int64(len(in)))
		b.ReportAllocs()
		for b.Loop() {
			EncodeExact(fs)
		}
	})
	b.Run("json", func(b *testing.B) {
		fs := Decode(in, Limits{}).Frames
		b.ReportAllocs()
		for b.Loop() {
			AppendJSON(nil, fs)
		}
	})
}
