package libtracer

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/threespec/conformance/impl/rules"
)

// Seeds: every frame of the tests.
func addSeeds(f *testing.F, withCuts bool) {
	ins, _ := corpus(f)
	for _, in := range ins {
		if len(in) > 4096 {
			continue
		}
		if withCuts {
			f.Add(in, []byte{1, 3, 2})
		} else {
			f.Add(in)
		}
	}
}

// fuzzLimits keeps fuzzing fast and reaches the limits: a small budget
// and MAX_TLV_BYTES.
var fuzzLimits = Limits{MaxTLVBytes: 1 << 16, MaxOpenLevels: 8}

// FuzzDecode: the contiguous parser never panics or hangs; Validate agrees
// with it; and the exact encoding of an accepted parse is the input.
func FuzzDecode(f *testing.F) {
	addSeeds(f, false)
	f.Fuzz(func(t *testing.T, in []byte) {
		r := Decode(in, fuzzLimits)
		n, err := Validate(in, fuzzLimits)
		if first := r.FirstError(); !reflect.DeepEqual(asViolation(err), first) || n != len(r.Frames) {
			t.Fatalf("Validate = %d, %v; Decode %d frames, %v", n, err, len(r.Frames), first)
		}
		if r.FirstError() != nil {
			return
		}
		out, err := EncodeExact(r.Frames)
		if has05(r.Frames) {
			// Receivers accept a nested 0x05 as opaque bytes (LT-UNK-06);
			// no sender emits one (LT-TYPE-06). Forwarding copies it.
			if rules.RuleOf(err) != RuleType05NoSend {
				t.Fatalf("EncodeExact of a tree with 0x05: %v", err)
			}
			return
		}
		if err != nil || !bytes.Equal(out, in) {
			t.Fatalf("EncodeExact(Decode(%x)) = %x, %v", in, out, err)
		}
		// The smallest encoding decodes to the same resolved times and
		// payloads.
		small, err := Encode(r.Frames)
		if err != nil {
			t.Fatalf("Encode: %v", err)
		}
		if r2 := Decode(small, Limits{MaxOpenLevels: fuzzLimits.MaxOpenLevels}); r2.FirstError() != nil || len(r2.Frames) != len(r.Frames) {
			t.Fatalf("Decode(Encode(%x)) = %v", in, r2.FirstError())
		}
	})
}

// FuzzRope: the rope walk, cut where the second input says, agrees with
// the contiguous parser.
func FuzzRope(f *testing.F) {
	addSeeds(f, true)
	f.Fuzz(func(t *testing.T, in, cutBytes []byte) {
		var cuts []int
		at := 0
		for _, c := range cutBytes {
			at += int(c)
			if at > len(in) {
				break
			}
			cuts = append(cuts, at) // repeated offsets make empty views
		}
		want := Decode(in, fuzzLimits)
		got := DecodeRope(NewRope(viewsOf(in, cuts, len(cutBytes)%2 == 1)...), fuzzLimits)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%x cut at %v: rope %+v, buffer %+v", in, cuts, got, want)
		}
	})
}

// FuzzStream: the stream decoder, fed in chunks the second input sizes,
// agrees with the datagram parser (truncation read as transport::down).
func FuzzStream(f *testing.F) {
	addSeeds(f, true)
	f.Fuzz(func(t *testing.T, in, sizes []byte) {
		var sz []int
		for _, s := range sizes {
			sz = append(sz, 1+int(s))
		}
		if len(sz) == 0 {
			sz = []int{len(in) + 1}
		}
		wantFrames, wantErr := streamOf(Decode(in, fuzzLimits))
		got, err := readAll(NewStreamDecoder(&chunkReader{b: in, sizes: sz}, fuzzLimits))
		if !reflect.DeepEqual(normalize(got), normalize(wantFrames)) || !sameVerdict(asViolation(err), wantErr) {
			t.Fatalf("%x: stream %+v, %v; datagram %+v, %v", in, got, err, wantFrames, wantErr)
		}
	})
}

// sameVerdict compares rule, code and offset.
func sameVerdict(a, b *rules.Violation) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Rule == b.Rule && a.Code == b.Code && a.Offset == b.Offset
}

// has05 reports whether a frame of type 0x05 is in the trees.
func has05(fs []Frame) bool {
	found := false
	visitTree(fs, func(f *Frame, _ int) error {
		found = found || f.Type == 0x05
		return nil
	}, func(*Frame) error { return nil })
	return found
}
