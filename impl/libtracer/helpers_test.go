package libtracer

import (
	"encoding/hex"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/threespec/conformance/impl/rules"
)

// Independent references: bit-by-bit CRCs written from the parameter sets
// of the spec and docs/DECISIONS.md, sharing no code with crc.go.

// bitCRC32C is CRC-32C one bit at a time: reflected polynomial 0x82F63B78,
// init 0xFFFFFFFF, xorout 0xFFFFFFFF.
func bitCRC32C(p []byte) uint32 {
	c := uint32(0xFFFFFFFF)
	for _, b := range p {
		c ^= uint32(b)
		for range 8 {
			if c&1 == 1 {
				c = c>>1 ^ 0x82F63B78
			} else {
				c >>= 1
			}
		}
	}
	return c ^ 0xFFFFFFFF
}

// bitCRC16 is CRC-16-CCITT one bit at a time: polynomial 0x1021, init
// 0xFFFF, not reflected, xorout 0.
func bitCRC16(p []byte) uint16 {
	c := uint16(0xFFFF)
	for _, b := range p {
		c ^= uint16(b) << 8
		for range 8 {
			if c&0x8000 != 0 {
				c = c<<1 ^ 0x1021
			} else {
				c <<= 1
			}
		}
	}
	return c
}

// hx decodes hex written with any spacing.
func hx(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	if err != nil {
		t.Fatalf("bad hex %q: %v", s, err)
	}
	return b
}

// T0 is 2026-05-03T00:00:00Z (the spec's date) in ns since the Unix epoch;
// its u64 little-endian bytes are 00 00 a0 2d 1f e5 ab 18.
const T0 uint64 = 1777766400_000000000

const t0Hex = "00 00 a0 2d 1f e5 ab 18"

func abs(t uint64) *Timestamp { return &Timestamp{Abs: t, Resolved: t} }

func rel(anchor uint64, r int32) *Timestamp {
	return &Timestamp{Relative: true, Rel: r, Resolved: anchor + uint64(int64(r))}
}

func c32(v uint32) *Checksum { return &Checksum{Width: 32, Value: v} }
func c16(v uint32) *Checksum { return &Checksum{Width: 16, Value: v} }

// wantViolation fails unless err is a *rules.Violation of the rule and
// code given, at the offset given (-2 for any).
func wantViolation(t testing.TB, err error, id rules.ID, code string, off int64) {
	t.Helper()
	v := asViolation(err)
	if v == nil {
		t.Fatalf("error = %v, want %s [%s]", err, id, code)
	}
	if v.Rule != id || v.Code != code || (off != -2 && v.Offset != off) {
		t.Fatalf("error = %v, want %s [%s] at byte %d", v, id, code, off)
	}
}

// sameFrames fails unless got and want are equal, showing both as JSON.
func sameFrames(t testing.TB, what string, got, want []Frame) {
	t.Helper()
	if !reflect.DeepEqual(normalize(got), normalize(want)) {
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		t.Fatalf("%s:\n got %s\nwant %s", what, g, w)
	}
}

// normalize makes empty opaque payloads compare equal whether nil or not
// (Decode returns empty subslices, a hand-written tree often nil).
func normalize(fs []Frame) []Frame {
	out := make([]Frame, len(fs))
	for i, f := range fs {
		if f.Children == nil && f.Payload == nil && f.Err == nil {
			f.Payload = []byte{}
		}
		if f.Children != nil {
			f.Children = normalize(f.Children)
		}
		out[i] = f
	}
	return out
}

// mk builds a frame by hand, independently of the encoders: header (LL as
// opt says), payload, trailer_ts bytes as given, and the CRC of payload and
// trailer_ts by the bit-by-bit references when CR=1.
func mk(typ uint8, o Opt, payload, ts []byte) []byte {
	b := []byte{typ, byte(o)}
	if o&OptLL != 0 {
		b = append(b, byte(len(payload)), byte(len(payload)>>8), byte(len(payload)>>16), byte(len(payload)>>24))
	} else {
		b = append(b, byte(len(payload)), byte(len(payload)>>8))
	}
	b = append(b, payload...)
	b = append(b, ts...)
	if o&OptCR != 0 {
		cov := append(append([]byte{}, payload...), ts...)
		if o&OptCW != 0 {
			c := bitCRC16(cov)
			b = append(b, byte(c), byte(c>>8))
		} else {
			c := bitCRC32C(cov)
			b = append(b, byte(c), byte(c>>8), byte(c>>16), byte(c>>24))
		}
	}
	return b
}

// u64le and i32le are trailer_ts fields.
func u64le(v uint64) []byte {
	return []byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24), byte(v >> 32), byte(v >> 40), byte(v >> 48), byte(v >> 56)}
}

func i32le(v int32) []byte {
	u := uint32(v)
	return []byte{byte(u), byte(u >> 8), byte(u >> 16), byte(u >> 24)}
}

// flip returns a copy of b with byte i XORed with x.
func flip(b []byte, i int, x byte) []byte {
	c := append([]byte{}, b...)
	c[i] ^= x
	return c
}
