package cenc

import (
	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/internal/fault"
)

// generals maps a specific rule to the general rules it realizes (for
// example HR-RCAP-03 to HR-CENC-16, "nonzero fields"). Package hiverelay,
// which holds the complete relation (hiverelay.RealizedBy), fills it when it
// is initialized; it is only read afterwards.
var generals = map[rules.ID][]rules.ID{}

// RegisterRealized records that the specific rules realize general, so that
// switching off general by fault injection switches them off too: an
// implementation that ignores "fields marked nonzero are nonzero" ignores
// each field's nonzero check. Call it only from a package initializer.
func RegisterRealized(general rules.ID, specific ...rules.ID) {
	for _, s := range specific {
		generals[s] = append(generals[s], general)
	}
}

// Enforced reports whether rule id is enforced: it and every general rule
// it realizes (RegisterRealized). It is false only under fault injection.
func Enforced(id rules.ID) bool {
	if !rules.Enforced(id) {
		return false
	}
	for _, g := range generals[id] {
		if !rules.Enforced(g) {
			return false
		}
	}
	return true
}

// FailAs is rules.Fail for a rule that may realize general rules: it
// returns nil when id or one of its general rules is switched off.
func FailAs(id rules.ID, code string, offset int64, format string, args ...any) error {
	if !Enforced(id) {
		return nil
	}
	return rules.Fail(id, code, offset, format, args...)
}

// Named mutants of the primitives: classic implementation mistakes the
// reference can be switched into (internal/fault) to show that the vectors
// catch them. Each is a cold-path branch (once per field).
const (
	MutOverlongFDOnly   rules.ID = "MUT-HR-OVERLONG-FD-ONLY"
	MutCompactFD252     rules.ID = "MUT-HR-COMPACT-FD-FROM-252"
	MutU64HalvesSwapped rules.ID = "MUT-HR-U64-HALVES-SWAPPED"
	MutOptionalNonzero  rules.ID = "MUT-HR-OPTIONAL-ANY-NONZERO-PRESENT"
	MutSortNotStrict    rules.ID = "MUT-HR-SORT-NOT-STRICT"
	MutNonzeroFirstByte rules.ID = "MUT-HR-NONZERO-FIRST-BYTE-ONLY"
	MutTrailingZeros    rules.ID = "MUT-HR-TRAILING-ZEROS-IGNORED"
)

// HiveRelayMutant returns the named mutant id of the HiveRelay reference
// (packages cenc, manifest and hiverelay build their lists with it).
func HiveRelayMutant(id rules.ID, text string) rules.Mutant {
	return rules.Mutant{ID: id, Spec: "hiverelay", Text: text}
}

var mutant = HiveRelayMutant

// Mutants returns the named mutants of the primitives (section 2).
func Mutants() []rules.Mutant {
	return []rules.Mutant{
		mutant(MutOverlongFDOnly, "Overlong compact uints are refused only in the 0xfd form; an overlong 0xfe or 0xff form is accepted."),
		mutant(MutCompactFD252, "The 0xfd compact form is accepted from 252 instead of 253 (off by one at the one-byte bound)."),
		mutant(MutU64HalvesSwapped, "A u64 is read as two big-endian u32 halves in the wrong order (low word first), as a JavaScript reader without BigInt might."),
		mutant(MutOptionalNonzero, "An optional tag other than 0 counts as present, instead of failing closed unless it is 1."),
		mutant(MutSortNotStrict, "Sorted arrays are checked for order but not strictness: equal adjacent keys (duplicates) are accepted."),
		mutant(MutNonzeroFirstByte, "A nonzero field is checked by its first byte only, so a key whose first byte is zero is refused even when another byte is not."),
		mutant(MutTrailingZeros, "Trailing zero bytes after a complete record are ignored as padding instead of failing closed."),
	}
}

// Mutated reports whether the named mutant id is switched on
// (internal/fault; tests and `conform prove` only).
func Mutated(id rules.ID) bool { return fault.Off(string(id)) }

var mutated = Mutated
