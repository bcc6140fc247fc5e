package hiverelay

import "testing"

// A frame with the maximum 256 payloads of 1 KiB each, 16 next
// capabilities and a checkpoint.
func benchFrame() []byte {
	payloads := make([][]byte, MaxPayloads)
	for i := range payloads {
		payloads[i] = fillN(byte(i), 1024)
	}
	return stdFrame().with(func(f *frameParts) {
		f.seq, f.prev, f.payloads, f.caps, f.ckpt = 7, fill(0x34), payloads, capsN(MaxNextCaps), stdCkpt
	})
}

// A checkpoint with the maximum 1024 frontier entries and 16 snapshot caps.
func benchCheckpoint() []byte { return ckptB(frontierN(MaxFrontierEntries), capsN(MaxSnapshotCaps)) }

func BenchmarkDecodeFrame256Payloads(b *testing.B) {
	in := benchFrame()
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeOpaqueChainFrameV1(in); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeCheckpoint1024Entries(b *testing.B) {
	in := benchCheckpoint()
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeOpaqueChainCheckpointV1(in); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodeFrame256Payloads(b *testing.B) {
	v, err := DecodeOpaqueChainFrameV1(benchFrame())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := v.Encode(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeCellBlobClass5(b *testing.B) {
	in := blobB(ClassLength(5))
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeCellBlobV1(in, 5); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkVerifyFormatArtifact(b *testing.B) {
	in := ReferenceFormatArtifact()
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := VerifyFormatArtifact(in); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkVerifyVectorSet(b *testing.B) {
	m, files, a := VectorManifest(), VectorFiles(), ReferenceFormatArtifact()
	b.ReportAllocs()
	for b.Loop() {
		if err := VerifyVectorSet(m, files, a); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGenerateVectorSet(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		for _, v := range inventory {
			v.gen(std)
		}
	}
}
