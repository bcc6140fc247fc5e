package hiverelay_test

import (
	"fmt"

	"github.com/threespec/conformance/impl/hiverelay"
)

// A rejection names the rule, the code, the byte offset and the field.
func ExampleDecode() {
	files := hiverelay.VectorFiles()
	_, _, err := hiverelay.Decode(hiverelay.SchemaReadCellCapV1, 0, files["negative/read-cell-cap-zero-relay-public-key.bin"])
	fmt.Println(err)
	_, _, err = hiverelay.Decode(hiverelay.SchemaCellBlobV1, 1, files["positive/cell-blob-v1-class-2.bin"])
	fmt.Println(err)
	_, re, err := hiverelay.Decode(hiverelay.SchemaWriteCellCapV1, 0, files["positive/write-cell-cap-v1.bin"])
	fmt.Println(len(re), err)
	// Output:
	// HR-RCAP-03 [BAD_ENCODING] at byte 1: relayPublicKey: all 32 bytes are zero; the field must be nonzero
	// HR-BLOB-05 [BAD_ENCODING] at byte 0: blob: 16384 bytes is the length of class 2, not class 1 (4096 bytes)
	// 199 <nil>
}

// The negative frame vector fails at the previous hash's optional tag.
func ExampleDecodeOpaqueChainFrameV1() {
	files := hiverelay.VectorFiles()
	_, err := hiverelay.DecodeOpaqueChainFrameV1(files["negative/opaque-chain-frame-sequence-one-without-predecessor.bin"])
	fmt.Println(err)
	// Output:
	// HR-FRAME-04 [BAD_ENCODING] at byte 41: previousFrameHash: absent at sequence 1; it must be present whenever sequence is nonzero
}

func ExampleVerifyFormatArtifact() {
	a := append([]byte(nil), hiverelay.ReferenceFormatArtifact()...)
	a[8016] = 1 // the first catalog entry's category
	_, err := hiverelay.VerifyFormatArtifact(a)
	fmt.Println(err)
	// Output:
	// HR-CAT-03 [BAD_ENCODING] at byte 8016: schemaCatalogBytes.entries[0].category: category 1 is not 3 (CLIENT_EXAMPLE)
}
