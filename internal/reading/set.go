package reading

import (
	"maps"
)

// Set is the alternatives a parse takes, by reading ID ("HR-READ-03" to
// "zero-previous-hash-rejected"). The zero Set takes every reading's
// default. A Set is immutable once made, so one value can be shared by
// parses running in parallel.
type Set struct{ m map[string]string }

// Of returns the Set that takes the given alternatives (reading ID to
// alternative name). The map is copied.
func Of(m map[string]string) Set {
	if len(m) == 0 {
		return Set{}
	}
	return Set{maps.Clone(m)}
}

// Taken returns the alternative s takes for reading id, or "" for the
// default.
func (s Set) Taken(id string) string { return s.m[id] }

// Is reports whether s takes alternative alt of reading id.
func (s Set) Is(id, alt string) bool { return s.m != nil && alt != "" && s.m[id] == alt }

// Empty reports whether s takes every default.
func (s Set) Empty() bool { return len(s.m) == 0 }

// Map returns a copy of the alternatives s takes; nil when it takes every
// default.
func (s Set) Map() map[string]string {
	if len(s.m) == 0 {
		return nil
	}
	return maps.Clone(s.m)
}

// IDs returns the reading IDs s takes an alternative of, sorted.
func (s Set) IDs() []string {
	if len(s.m) == 0 {
		return nil
	}
	return IDs(s.m)
}
