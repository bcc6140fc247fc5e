// Package vectors holds the project's vector sets as files, and embeds
// them (FS) so that a Go implementer's test can run them in process
// (package conformtest) with nothing but `go get`: the suite indexes
// (<suite>.index.json) and the suite trees (positive/<suite>/,
// negative/<suite>/, registry/<suite>/), exactly as committed and as
// docs/VECTORS.md describes them. This file is not part of any suite tree:
// no manifest lists it, and no set hash covers it.
package vectors

import "embed"

// FS holds every file of the vector sets by its path below vectors/
// (lace.index.json, positive/lace/x.lr, registry/hiverelay/...).
//
//go:embed *.index.json positive negative registry
var FS embed.FS
