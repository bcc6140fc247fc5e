package cenc

import (
	"github.com/threespec/conformance/impl/rules"
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

// Rejects reports whether c rejects input by rule id: c enforces id and
// every general rule id realizes (RegisterRealized). It is false only under
// fault injection. Guard every failure of a rule that may realize general
// rules with it:
//
//	if bad && cenc.Rejects(c, RuleVecExtra) {
//		return rules.Fail(RuleVecExtra, cenc.Code, off, "...")
//	}
func Rejects(c rules.Checks, id rules.ID) bool {
	if !c.Enforced(id) {
		return false
	}
	for _, g := range generals[id] {
		if !c.Enforced(g) {
			return false
		}
	}
	return true
}

// Named mutants of the primitives: classic implementation mistakes the
// reference can be switched into (rules.Checks.Faults) to show that the
// vectors catch them. Each is a cold-path branch (once per field).
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
