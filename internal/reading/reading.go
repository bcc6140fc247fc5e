// Package reading holds reading sets: the alternatives a reference parse
// takes among the defensible readings of an open spec sentence (the
// readings catalogs, docs/READINGS.md). `conform serve --reading ID=ALT`
// and vecgen's check of the alternative branches make one; the zero Set
// takes every default.
//
// It is the readings' counterpart of internal/fault: a Set is a value a
// parse carries in its rules.Checks, never a process-wide switch.
package reading

import (
	"maps"
	"slices"
)

// IDs returns the reading IDs of m, sorted.
func IDs(m map[string]string) []string {
	return slices.Sorted(maps.Keys(m))
}
