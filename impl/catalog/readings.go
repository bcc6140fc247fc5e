package catalog

import (
	"slices"

	"github.com/threespec/conformance/impl/hiverelay"
	"github.com/threespec/conformance/impl/lace"
	"github.com/threespec/conformance/impl/libtracer"
	"github.com/threespec/conformance/impl/rules"
)

// The readings catalogs of the three specifications, joined once, spec by
// spec in spec order, and indexed by ID.
var (
	readings     = slices.Concat(lace.Readings(), hiverelay.Readings(), libtracer.Readings())
	readingIndex = func() map[string]int {
		m := make(map[string]int, len(readings))
		for i, r := range readings {
			m[string(r.ID)] = i
		}
		return m
	}()
)

// Readings returns every reading of the three specifications
// (docs/READINGS.md): the places where a spec sentence admits more than one
// careful reading, each with its alternatives and the project's default;
// spec by spec in spec order.
func Readings() []rules.Reading { return slices.Clone(readings) }

// LookupReading returns the reading with the given ID.
func LookupReading(id string) (rules.Reading, bool) {
	i, ok := readingIndex[id]
	if !ok {
		return rules.Reading{}, false
	}
	return readings[i], true
}

// ReadingDefaults maps every reading ID to its default alternative.
func ReadingDefaults() map[string]string {
	m := make(map[string]string, len(readings))
	for _, r := range readings {
		m[string(r.ID)] = r.Default
	}
	return m
}

// CheckTaken checks a set of declared alternatives (reading ID to
// alternative name) against the catalog: every ID a reading, every name
// one of its alternatives.
func CheckTaken(taken map[string]string) error {
	for id, alt := range taken {
		r, ok := LookupReading(id)
		if !ok {
			return &UnknownReadingError{ID: id, Alternative: alt}
		}
		if !r.Has(alt) {
			return &UnknownReadingError{ID: id, Alternative: alt, Known: r.Alternatives}
		}
	}
	return nil
}

// UnknownReadingError is a declared reading the catalog does not know, or an
// alternative the reading does not have.
type UnknownReadingError struct {
	ID, Alternative string
	Known           []rules.Alternative // the reading's alternatives, when the ID is known
}

func (e *UnknownReadingError) Error() string {
	if e.Known == nil {
		return "reading " + e.ID + " is not in the readings catalog (docs/READINGS.md)"
	}
	s := "reading " + e.ID + " has no alternative " + e.Alternative + "; its alternatives are"
	for i, a := range e.Known {
		if i > 0 {
			s += ","
		}
		s += " " + a.Name
	}
	return s
}
