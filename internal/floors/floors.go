// Package floors holds the project's package floors (docs/ARCHITECTURE.md):
// which floor every package of the module stands on, which packages are
// spec-neutral, and the check that no import breaks either. Its test runs
// the check over the tree, so an import that reaches up a floor, or spec
// knowledge that creeps into a spec-neutral package, fails `go test ./...`.
package floors

import (
	"fmt"
	"path"
	"sort"
	"strings"
)

// Module is the module path every package path below is relative to.
const Module = "github.com/threespec/conformance"

// Floor is a level of the package graph. A package may import packages of
// a lower floor, and packages of its own floor only where that floor says
// so (SameFloor); never a package of a higher floor.
type Floor struct {
	Name string
	// Packages are the floor's packages, relative to Module; a trailing
	// "/..." takes in every package below the path as well.
	Packages []string
	// SameFloor permits imports between the floor's own packages (the Go
	// compiler keeps them acyclic).
	SameFloor bool
	// What says what stands on the floor, for docs/ARCHITECTURE.md.
	What string
}

// Floors lists the floors from the bottom up.
var Floors = []Floor{
	{Name: "scan", SameFloor: false,
		Packages: []string{"internal/jsonscan"},
		What:     "the byte-level JSON scanning steps that the testee protocol and judging share"},
	{Name: "base", SameFloor: false,
		Packages: []string{"internal/fault", "internal/reading", "internal/parallel", "internal/treecheck", "internal/floors", "internal/plainjson", "specs", "testee", "impl/b64a", "impl/nfc17"},
		What:     "spec-free building blocks: the fault and reading sets, the testee protocol, the embedded specs, B64A and NFC"},
	{Name: "rules", SameFloor: false,
		Packages: []string{"impl/rules", "vectorset"},
		What:     "the vocabulary every spec shares: rules, violations, Checks, catalogs; the vector-set format and judging"},
	{Name: "impl", SameFloor: true,
		Packages: []string{"impl/..."},
		What:     "the reference implementations, one package per spec primitive, and impl/catalog joining their catalogs"},
	{Name: "suites", SameFloor: true,
		Packages: []string{"suites", "suites/..."},
		What:     "each suite's argument vocabulary and verification hook, and the list of suites"},
	{Name: "reference/steps", SameFloor: true,
		Packages: []string{"reference", "reference/referencetest", "steps", "steps/..."},
		What:     "the in-process reference testee and the godog steps (shared world, one package per spec, steps/all)"},
	{Name: "generators/prove", SameFloor: true,
		Packages: []string{"internal/vecgen", "internal/vecgen/...", "internal/prove"},
		What:     "the vector generators (one package per spec around internal/vecgen) and the fault proof"},
	{Name: "harness", SameFloor: true,
		Packages: []string{"harness", "harness/..."},
		What:     "the conformance runner: loading and verifying suites, driving a testee, judging, reports, serving"},
	{Name: "cmd", SameFloor: true,
		Packages: []string{"cmd/...", "internal/featurescmd", "internal/rulesdoc", "internal/allspecs"},
		What:     "the commands (thin mains) and the command bodies they call; nothing imports them"},
}

// SpecNeutral are the packages that know no specification: they may import
// no spec's package (SpecPackages), only the shared vocabulary, so that a
// new suite is added by registering it, never by editing them.
var SpecNeutral = []string{"testee", "vectorset", "impl/rules", "harness", "harness/...", "steps", "internal/vecgen", "internal/prove", "internal/fault", "internal/reading"}

// SpecPackages are the packages that hold one spec's knowledge. impl/catalog
// (the joined catalogs) and impl/manifest (the vector-manifest framing every
// suite uses, HiveRelay section 5) are shared vocabulary, not listed here.
var SpecPackages = []string{"impl/lace", "impl/lace/...", "impl/mark", "impl/cenc", "impl/hiverelay", "impl/libtracer", "suites/...", "steps/lace", "steps/hiverelay", "steps/libtracer", "internal/vecgen/lacevec", "internal/vecgen/hivevec", "internal/vecgen/tracervec"}

func match(pattern, pkg string) bool {
	if p, ok := strings.CutSuffix(pattern, "/..."); ok {
		return strings.HasPrefix(pkg, p+"/")
	}
	return pkg == pattern
}

func matchAny(patterns []string, pkg string) bool {
	for _, p := range patterns {
		if match(p, pkg) {
			return true
		}
	}
	return false
}

// FloorOf returns the index in Floors of pkg's floor (pkg relative to
// Module), or -1 when no floor names it. An exact name wins over a "/..."
// pattern of a lower floor (impl/... and internal/vecgen/... are both
// matched so).
func FloorOf(pkg string) int {
	for i, f := range Floors {
		for _, p := range f.Packages {
			if p == pkg {
				return i
			}
		}
	}
	for i, f := range Floors {
		for _, p := range f.Packages {
			if match(p, pkg) {
				return i
			}
		}
	}
	return -1
}

// Check returns one line per broken floor in imports (package to the
// module packages it imports, both relative to Module): a package no floor
// names, an import up a floor or across one that does not permit it, and a
// spec package imported by a spec-neutral one. It returns nil when the
// graph keeps every floor.
func Check(imports map[string][]string) []string {
	var bad []string
	pkgs := make([]string, 0, len(imports))
	for p := range imports {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, p := range pkgs {
		fp := FloorOf(p)
		if fp < 0 {
			bad = append(bad, fmt.Sprintf("%s stands on no floor: add it to internal/floors and docs/ARCHITECTURE.md", p))
			continue
		}
		for _, q := range imports[p] {
			fq := FloorOf(q)
			switch {
			case fq < 0:
				// reported as its own package
			case fq > fp:
				bad = append(bad, fmt.Sprintf("%s (floor %s) imports %s (floor %s, above it)", p, Floors[fp].Name, q, Floors[fq].Name))
			case fq == fp && !Floors[fp].SameFloor:
				bad = append(bad, fmt.Sprintf("%s imports %s: floor %s permits no import between its own packages", p, q, Floors[fp].Name))
			}
			if matchAny(SpecNeutral, p) && matchAny(SpecPackages, q) {
				bad = append(bad, fmt.Sprintf("%s is spec-neutral but imports %s, a spec's package", p, q))
			}
		}
	}
	return bad
}

// Rel returns an import path relative to Module, and false for a path
// outside the module.
func Rel(importPath string) (string, bool) {
	if importPath == Module {
		return ".", true
	}
	rel, ok := strings.CutPrefix(importPath, Module+"/")
	return path.Clean(rel), ok
}
