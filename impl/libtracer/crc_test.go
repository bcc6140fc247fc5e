package libtracer

import (
	"math/rand/v2"
	"testing"
)

func randBytes(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// The table-driven and hardware CRCs agree with the bit-by-bit references
// (LT-CRC-01..03, LT-CRC-05..07).
func TestCRCAgainstBitByBit(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 63, 64, 65, 255, 256, 1000, 4096, 65536 + 3} {
		p := randBytes(rng, n)
		if got, want := CRC32C(p), bitCRC32C(p); got != want {
			t.Errorf("CRC32C of %d bytes = %08x, bit-by-bit %08x", n, got, want)
		}
		if got, want := CRC16(p), bitCRC16(p); got != want {
			t.Errorf("CRC16 of %d bytes = %04x, bit-by-bit %04x", n, got, want)
		}
	}
	if CRC32C(nil) != 0 || CRC16(nil) != 0xFFFF {
		t.Errorf("CRCs of nothing: %08x %04x (init xor xorout: 0 and 0xFFFF)", CRC32C(nil), CRC16(nil))
	}
}

// Accumulating in chunks, payload then trailer_ts, gives the CRC of the
// whole (LT-CRC-13, LT-CRC-14); the field is little-endian.
func TestCRCAccumulator(t *testing.T) {
	t.Parallel()
	p := []byte("payload bytes, then the stamp")
	ts := u64le(T0)
	for _, o := range []Opt{OptCR, OptCR | OptCW} {
		a := NewCRCAccumulator(o)
		for i := 0; i < len(p); i += 4 {
			a.Write(p[i:min(i+4, len(p))])
		}
		a.Write(ts)
		whole := cat(p, ts)
		want := bitCRC32C(whole)
		field := []byte{byte(want), byte(want >> 8), byte(want >> 16), byte(want >> 24)}
		if o.Has(OptCW) {
			w := bitCRC16(whole)
			want, field = uint32(w), []byte{byte(w), byte(w >> 8)}
		}
		if a.Sum() != want || a.Size() != len(field) || string(a.AppendSum(nil)) != string(field) {
			t.Errorf("opt %02x: Sum %08x size %d field %x, want %08x %x", byte(o), a.Sum(), a.Size(), a.AppendSum(nil), want, field)
		}
	}
}

// Splitting a CRC: the CRC of B from those of A and AB, for both widths and
// lengths up to 2^17 (see crc.go).
func TestSplitCRC(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	for _, na := range []int{0, 1, 5, 100} {
		for _, nb := range []int{0, 1, 2, 3, 8, 31, 1000, 1 << 17} {
			a, b := randBytes(rng, na), randBytes(rng, nb)
			ab := cat(a, b)
			if got, want := splitCRC(false, bitCRC32C(ab), bitCRC32C(a), int64(nb)), bitCRC32C(b); got != want {
				t.Errorf("CRC-32C |A|=%d |B|=%d: split %08x, want %08x", na, nb, got, want)
			}
			if got, want := splitCRC(true, uint32(bitCRC16(ab)), uint32(bitCRC16(a)), int64(nb)), uint32(bitCRC16(b)); got != want {
				t.Errorf("CRC-16 |A|=%d |B|=%d: split %04x, want %04x", na, nb, got, want)
			}
		}
	}
}

// shift(v, n) is the register after n zero bytes from v: checked against
// feeding zeros to the bit-by-bit registers.
func TestShiftIsZeroBytes(t *testing.T) {
	t.Parallel()
	for _, n := range []int64{0, 1, 2, 7, 64, 1000} {
		v := uint32(0x89abcdef)
		r := v
		for range 8 * n { // reflected register, no init or xorout
			if r&1 == 1 {
				r = r>>1 ^ 0x82F63B78
			} else {
				r >>= 1
			}
		}
		if got := shiftCRC(false, v, n); got != r {
			t.Errorf("CRC-32C shift(%08x, %d) = %08x, want %08x", v, n, got, r)
		}
		r16 := uint16(0xbeef)
		for range 8 * n {
			if r16&0x8000 != 0 {
				r16 = r16<<1 ^ 0x1021
			} else {
				r16 <<= 1
			}
		}
		if got := shiftCRC(true, 0xbeef, n); got != uint32(r16) {
			t.Errorf("CRC-16 shift(beef, %d) = %04x, want %04x", n, got, r16)
		}
	}
}
