// Package reading switches the reference implementations between the
// defensible readings of an open spec sentence (the readings catalogs,
// docs/READINGS.md). With nothing set, every reading is the project's
// default; `conform serve --reading ID=ALT` and vecgen's check of the
// alternative branches set one.
//
// It is the readings' counterpart of internal/fault: a process-wide switch
// the reference consults where a reading changes what it answers.
package reading

import (
	"maps"
	"slices"
	"sync/atomic"
)

var active atomic.Pointer[map[string]string]

// Taken returns the alternative the reference takes for reading id (such as
// "HR-READ-03"), or "" when it takes the default.
func Taken(id string) string {
	m := active.Load()
	if m == nil {
		return ""
	}
	return (*m)[id]
}

// Is reports whether the reference takes alternative alt of reading id.
func Is(id, alt string) bool { return alt != "" && Taken(id) == alt }

// SetGlobal makes the reference take the given alternatives (reading ID to
// alternative name; replacing any earlier set) and returns a function that
// restores the previous set. SetGlobal(nil) returns every reading to its default.
func SetGlobal(m map[string]string) (restore func()) {
	var next *map[string]string
	if len(m) > 0 {
		c := make(map[string]string, len(m))
		for k, v := range m {
			c[k] = v
		}
		next = &c
	}
	prev := active.Swap(next)
	return func() { active.Store(prev) }
}

// Active returns the alternatives set, as reading ID to alternative; nil
// when every reading is the default.
func Active() map[string]string {
	m := active.Load()
	if m == nil {
		return nil
	}
	c := make(map[string]string, len(*m))
	for k, v := range *m {
		c[k] = v
	}
	return c
}

// IDs returns the reading IDs of m, sorted.
func IDs(m map[string]string) []string {
	return slices.Sorted(maps.Keys(m))
}
