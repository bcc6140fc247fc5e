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

func FuzzCellBlobV1(f *testing.F) {
	f.Add(blobB(4096), uint8(1))
	f.Add(blobB(4095), uint8(1))
	f.Add(blobB(4096), uint8(2))
	f.Add(blobB(20), uint8(0))
	f.Fuzz(func(t *testing.T, in []byte, class uint8) {
		_, re, err := Decode(SchemaCellBlobV1, class, in)
		if err == nil && !bytes.Equal(re, in) {
			t.Fatalf("accepted %d bytes as class %d, re-encoding differs", len(in), class)
		}
		if err == nil && len(in) != ClassLength(class) {
			t.Fatalf("accepted %d bytes as class %d", len(in), class)
		}
	})
}

func FuzzDecodeSchemaCatalog(f *testing.F) {
	f.Add(SchemaCatalog())
	for _, c := range catalogRejectCases() {
		if len(c.in) < 8192 {
			f.Add(c.in)
		}
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		entries, err := DecodeSchemaCatalog(in)
		if err != nil {
			return
		}
		out, err := EncodeSchemaCatalog(entries)
		if err != nil || !bytes.Equal(out, in) {
			t.Fatalf("accepted catalog does not re-encode to itself: %v", err)
		}
	})
}

func FuzzVerifyFormatArtifact(f *testing.F) {
	f.Add(ReferenceFormatArtifact())
	for _, c := range artifactRejectCases() {
		if len(c.in) < 16384 {
			f.Add(c.in)
		}
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		fa, err := VerifyFormatArtifact(in)
		if err != nil {
			return
		}
		out, err := BuildFormatArtifact(fa.Spec, fa.SchemaCatalog)
		if err != nil || !bytes.Equal(out, in) {
			t.Fatalf("accepted artifact does not rebuild to itself: %v", err)
		}
	})
}

func FuzzParseMetadata(f *testing.F) {
	f.Add(ReferenceMetadata().Encode())
	for _, c := range metadataRejectCases() {
		f.Add(c.in)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		m, err := ParseMetadata(in)
		if err == nil && !bytes.Equal(m.Encode(), in) {
			t.Fatalf("accepted metadata %q re-encodes as %q", in, m.Encode())
		}
	})
}
