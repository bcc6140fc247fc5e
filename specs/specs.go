// Package specs holds the project's byte-identical copies of the three
// specifications it tests, embedded so that every test, generator and artifact
// reads the same bytes from the tree itself (specs/README.md says what each
// file is).
//
// The HiveRelay format artifact embeds HiveRelay's exact bytes
// (HiveRelay, section 4, HR-FMT-17); the other files are read by the tests
// that check the rule catalogs, the seed vectors and the declarations against
// the spec text.
package specs

import (
	_ "embed"
)

// File names of the specification copies in this directory.
const (
	LaceFile           = "lace-010-records.txt"
	HiveRelayFile      = "hiverelay-blind-client-composition-v1.spec.md"
	HiveRelayLossyFile = "hiverelay-blind-client-composition-v1.lossy.txt"
	LibtracerFile      = "libtracer-01-data-format.txt"
)

//go:embed lace-010-records.txt
var lace []byte

//go:embed hiverelay-blind-client-composition-v1.spec.md
var hiveRelay []byte

//go:embed hiverelay-blind-client-composition-v1.lossy.txt
var hiveRelayLossy []byte

//go:embed libtracer-01-data-format.txt
var libtracer []byte

// Lace returns the text of Lace-010 Records. The caller must not modify it.
func Lace() []byte { return lace }

// HiveRelay returns the exact bytes of HiveRelay Blind Client Composition v1
// that the format artifact embeds (7,985 bytes, SHA-256 c8b2941c…). The caller
// must not modify them.
func HiveRelay() []byte { return hiveRelay }

// HiveRelayLossy returns the lossy copy of a whole HiveRelay format artifact,
// whose readable tail holds the six schema declarations. The caller must not
// modify it.
func HiveRelayLossy() []byte { return hiveRelayLossy }

// Libtracer returns the text of the libtracer v1 wire data format. The caller
// must not modify it.
func Libtracer() []byte { return libtracer }

// File is one specification copy: its name in this directory, its bytes and
// the SHA-256 (hex) recorded for it when it was copied in.
type File struct {
	Name   string
	Bytes  []byte
	SHA256 string
}

// Files lists the four copies with their recorded SHA-256 digests, in name
// order.
func Files() []File {
	return []File{
		{HiveRelayLossyFile, hiveRelayLossy, "29f33414f1199792aab3b24aeba19d300ef5b8ad1d532031e6e06a716027552f"},
		{HiveRelayFile, hiveRelay, "c8b2941c96eaf3704ca1671973cf7436b832c659dac41f14811a0fc926af7c43"},
		{LaceFile, lace, "2d07864ed9b16a2286d6b515abf586920bb9f3b48bef815aa6210cd040035132"},
		{LibtracerFile, libtracer, "c127a8c937950bc99dcbfe869d4368261348d8d92ddc76a0baa503e79bfcc636"},
	}
}
