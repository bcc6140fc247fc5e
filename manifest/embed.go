// Package manifest holds the manifests that identify the project's vector
// sets, and embeds them (FS) beside the vectors (package vectors) so that
// an in-process run (package conformtest) verifies the embedded sets as
// `conform run` verifies a checkout: <suite>/suite-manifest.bin,
// <suite>/suite-set-hash.txt and HiveRelay's authority files
// (docs/VECTORS.md, "Manifests and set hashes"). The fault proof's record
// (proof.json) is not embedded. This file is no manifest's row.
package manifest

import "embed"

// FS holds every file of manifest/<suite>/ by its path below manifest/.
//
//go:embed */*
var FS embed.FS
