package cenc

import (
	"bytes"
	"testing"
)

// FuzzCompactUint: no panic, and every accepted compact uint re-encodes to
// exactly the bytes it was read from (so no overlong form is accepted).
func FuzzCompactUint(f *testing.F) {
	for _, tc := range compactKnown {
		f.Add(AppendCompactUint(nil, tc.v))
	}
	f.Add([]byte{0xfd, 0xfc, 0x00})
	f.Add([]byte{0xff, 0, 0, 0, 0, 0, 0, 0x20, 0})
	f.Fuzz(func(t *testing.T, in []byte) {
		d := NewDecoder(std, in)
		v, err := d.CompactUint("n")
		if err != nil {
			return
		}
		if v > MaxSafeInteger {
			t.Fatalf("accepted %d above 2^53-1", v)
		}
		if got := AppendCompactUint(nil, v); !bytes.Equal(got, in[:d.Offset()]) {
			t.Fatalf("accepted %x as %d, canonical form is %x", in[:d.Offset()], v, got)
		}
	})
}

// FuzzBoundedBytes: no panic; accepted strings re-encode to the bytes read.
func FuzzBoundedBytes(f *testing.F) {
	f.Add([]byte{3, 1, 2, 3})
	f.Add([]byte{0xfd, 0xfd, 0x00})
	f.Fuzz(func(t *testing.T, in []byte) {
		d := NewDecoder(std, in)
		b, err := d.BoundedBytes("s", 0, MaxSafeInteger, "TEST-RANGE")
		if err != nil {
			return
		}
		var e Encoder
		e.BoundedBytes(b)
		if !bytes.Equal(e.Bytes(), in[:d.Offset()]) {
			t.Fatalf("accepted %x, re-encoded %x", in[:d.Offset()], e.Bytes())
		}
	})
}
