package hiverelay

import (
	"bytes"
	"testing"
)

// Seeds: the small accepted and rejected inputs of the table tests and the
// vectors of the closed inventory.
func seeds(f *testing.F, schema string) {
	for _, c := range acceptCases() {
		if c.schema == schema && len(c.in) < 8192 {
			f.Add(c.in)
		}
	}
	for _, c := range codecRejectCases() {
		if c.schema == schema && len(c.in) < 8192 {
			f.Add(c.in)
		}
	}
	for _, v := range Vectors() {
		if v.Schema == schema && len(v.Bytes) < 8192 {
			f.Add(v.Bytes)
		}
	}
}

// fuzzSchema: no panic, and every accepted input re-encodes to itself.
func fuzzSchema(f *testing.F, schema string) {
	seeds(f, schema)
	f.Fuzz(func(t *testing.T, in []byte) {
		v, re, err := Decode(schema, 0, in)
		if err != nil {
			if v != nil || re != nil {
				t.Fatal("a rejected input gave a value")
			}
			return
		}
		if !bytes.Equal(re, in) {
			t.Fatalf("accepted %x, re-encoded %x", in, re)
		}
	})
}

func FuzzReadCellCapV1(f *testing.F)           { fuzzSchema(f, SchemaReadCellCapV1) }
func FuzzWriteCellCapV1(f *testing.F)          { fuzzSchema(f, SchemaWriteCellCapV1) }
func FuzzOpaqueChainCheckpointV1(f *testing.F) { fuzzSchema(f, SchemaOpaqueChainCheckpointV1) }
func FuzzOpaqueChainFrameV1(f *testing.F)      { fuzzSchema(f, SchemaOpaqueChainFrameV1) }
func FuzzBlindCoreReadCapV1(f *testing.F)      { fuzzSchema(f, SchemaBlindCoreReadCapV1) }

// FuzzCellBlobV1 fuzzes a blob's head bytes, the class it is decoded with
// and its length relative to that class's length (padding with 0x5e), so
// that every run exercises the length logic without 4 KiB mutations.
func FuzzCellBlobV1(f *testing.F) {
	f.Add(blobB(13), uint8(1), int32(0))
	f.Add(blobB(13), uint8(1), int32(-1))
	f.Add(blobB(13), uint8(2), int32(1))
	f.Add([]byte{0, 1, 2}, uint8(5), int32(0))
	f.Add(blobB(13), uint8(0), int32(20))
	f.Add(blobB(13), uint8(1), int32(16384-4096))
	f.Fuzz(func(t *testing.T, head []byte, class uint8, delta int32) {
		n := ClassLength(class) + int(delta)
		if n < 0 || n > 2*ClassLength(NumClasses) {
			return
		}
		in := make([]byte, n)
		copy(in[copy(in, head):], bytes.Repeat([]byte{0x5e}, n))
		_, re, err := Decode(SchemaCellBlobV1, class, in)
		if err != nil {
			return
		}
		if len(in) != ClassLength(class) || in[0] != 1 {
			t.Fatalf("accepted %d bytes (version %d) as class %d", len(in), in[0], class)
		}
		if !bytes.Equal(re, in) {
			t.Fatalf("accepted %d bytes as class %d, re-encoding differs", len(in), class)
		}
	})
}

// fuzzRoundTrip adds the seeds (and the inputs of cases) smaller than max,
// then checks: no panic, and every input that decode accepts re-encodes to
// exactly itself.
func fuzzRoundTrip[T any](f *testing.F, max int, seeds [][]byte, cases []rejectCase, decode func([]byte) (T, error), encode func(T) ([]byte, error)) {
	for _, c := range cases {
		seeds = append(seeds, c.in)
	}
	for _, s := range seeds {
		if len(s) < max {
			f.Add(s)
		}
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		v, err := decode(in)
		if err != nil {
			return
		}
		out, err := encode(v)
		if err != nil || !bytes.Equal(out, in) {
			t.Fatalf("accepted %q does not re-encode to itself: %v", in, err)
		}
	})
}

func FuzzDecodeSchemaCatalog(f *testing.F) {
	fuzzRoundTrip(f, 8192, [][]byte{SchemaCatalog()}, catalogRejectCases(), DecodeSchemaCatalog, EncodeSchemaCatalog)
}

func FuzzVerifyFormatArtifact(f *testing.F) {
	fuzzRoundTrip(f, 16384, [][]byte{ReferenceFormatArtifact()}, artifactRejectCases(), VerifyFormatArtifact,
		func(fa FormatArtifact) ([]byte, error) { return BuildFormatArtifact(fa.Spec, fa.SchemaCatalog) })
}

func FuzzParseMetadata(f *testing.F) {
	fuzzRoundTrip(f, 8192, [][]byte{ReferenceMetadata().Encode()}, metadataRejectCases(), ParseMetadata,
		func(m Metadata) ([]byte, error) { return m.Encode(), nil })
}

// FuzzFormatArtifactFields fuzzes the header fields, the spec text, the
// declared lengths and trailing bytes around the reference catalog, so that
// runs are cheap; FuzzVerifyFormatArtifact mutates whole artifacts.
func FuzzFormatArtifactFields(f *testing.F) {
	f.Add([]byte("spec\n"), uint16(1), uint16(1), uint16(0), int8(0), int8(0), []byte(nil))
	f.Add([]byte("a\r\n"), uint16(1), uint16(1), uint16(0), int8(0), int8(0), []byte(nil))
	f.Add([]byte("\ufeffx\n"), uint16(1), uint16(1), uint16(0), int8(0), int8(-1), []byte{0})
	f.Add([]byte("x\n\n"), uint16(2), uint16(1), uint16(1), int8(1), int8(0), []byte(nil))
	f.Fuzz(func(t *testing.T, spec []byte, av, major, minor uint16, specDelta, catDelta int8, trailing []byte) {
		c := SchemaCatalog()
		in := art(FormatMagic, av, major, minor, uint64(len(spec)+int(specDelta)), uint64(len(c)+int(catDelta)), spec, c, trailing)
		fa, err := VerifyFormatArtifact(in)
		if err != nil {
			return
		}
		if av != 1 || major != 1 || minor != 0 || specDelta != 0 || catDelta != 0 || len(trailing) != 0 {
			t.Fatalf("accepted header %d.%d.%d, deltas %d %d, %d trailing bytes", av, major, minor, specDelta, catDelta, len(trailing))
		}
		if out, err := BuildFormatArtifact(fa.Spec, fa.SchemaCatalog); err != nil || !bytes.Equal(out, in) {
			t.Fatalf("accepted artifact does not rebuild to itself: %v", err)
		}
	})
}
