// Package features embeds the Gherkin features (one folder per spec,
// features/<spec>/*.feature), so that `conform features` runs them from
// wherever it is installed; inside a clone it reads features/ itself.
package features

import "embed"

// FS holds every feature file, by its path below features/
// ("lace/records.feature").
//
//go:embed */*.feature
var FS embed.FS
