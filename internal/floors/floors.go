// Package floors holds the project's package floors (docs/ARCHITECTURE.md):
// which floor every package of the module stands on, which packages are
// spec-neutral, and the check that no import breaks either. Its test runs
// the check over the tree, so an import that reaches up a floor, or spec
// knowledge that creeps into a spec-neutral package, fails `go test ./...`.
package floors

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
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

// Floors lists the floors from the bottom up. A pattern is a package
// path, a path ending in "/..." (the packages below it), or a path.Match
// pattern ("impl/*/*spec": a wing's spec, whatever the wing).
var Floors = []Floor{
	{Name: "scan", SameFloor: false,
		Packages: []string{"internal/jsonscan"},
		What:     "the byte-level JSON scanning steps that the testee protocol and judging share"},
	{Name: "base", SameFloor: false,
		Packages: []string{"internal/fault", "internal/reading", "internal/parallel", "internal/treecheck", "internal/floors", "internal/plainjson", "internal/fuzzgen", "specs", "features", "found", "testee", "impl/b64a", "impl/nfc17", "vectors", "manifest"},
		What:     "spec-free building blocks: the fault and reading sets, the testee protocol, the embedded specs, vector sets and manifests, plain JSON, fuzz generation's primitives, B64A and NFC"},
	{Name: "rules", SameFloor: false,
		Packages: []string{"impl/rules", "vectorset"},
		What:     "the vocabulary every spec shares: rules, violations, Checks, catalogs; the vector-set format, set hashes and judging"},
	{Name: "spec", SameFloor: false,
		Packages: []string{"impl/spec"},
		What:     "the value that carries one spec to the core (impl/spec.Spec) and the joined set of them"},
	{Name: "impl", SameFloor: true,
		Packages: []string{"impl/...", "impl/*/*spec"},
		What:     "the wings' reference implementations (one package per spec primitive) and each wing's Spec"},
	{Name: "reference/steps", SameFloor: true,
		Packages: []string{"reference", "reference/referencetest", "steps", "steps/..."},
		What:     "the in-process reference testee (the dispatch over the specs it is handed) and the godog steps (the shared world, one package per wing)"},
	{Name: "generators/prove", SameFloor: true,
		Packages: []string{"internal/vecgen", "impl/*/*vec", "internal/prove"},
		What:     "the generator engine, each wing's generator, and the fault proof"},
	{Name: "harness", SameFloor: true,
		Packages: []string{"harness", "harness/..."},
		What:     "the conformance runner: loading and verifying suites, driving a testee, judging, reports, serving"},
	{Name: "cmd", SameFloor: true,
		Packages: []string{"cmd/...", "internal/featurescmd", "internal/rulesdoc", "internal/allspecs", "conformtest"},
		What:     "the commands (thin mains, each with its list of the specs), the command bodies they call, the one test helper that lists the wings, and conformtest, conform run inside an implementer's go test"},
}

// SpecNeutral are the core packages: they know no specification, and are
// handed the specs (impl/spec.Spec) by the commands. Neither they nor
// anything they link, directly or through another package, is a wing's
// package, so that a new spec is added by a new wing and a line in each
// command, never by editing them.
var SpecNeutral = []string{
	"internal/jsonscan", "internal/fault", "internal/reading", "internal/parallel", "internal/plainjson", "testee",
	"impl/rules", "vectorset", "impl/spec", "reference", "reference/referencetest", "steps",
	"internal/vecgen", "internal/prove", "harness", "harness/...", "internal/featurescmd", "internal/rulesdoc",
}

// Shared are the spec-free building blocks any wing may use (B64A, NFC
// under Unicode 17, the embedded texts and features, the tree checks). A neutral
// package may link them.
var Shared = []string{"impl/b64a", "impl/nfc17", "internal/fuzzgen", "specs", "found", "features", "internal/floors", "internal/treecheck", "vectors", "manifest"}

// Borrowed are a wing's primitives that the core links: HiveRelay's
// vector-manifest framing (section 5) over its compact encoding (section
// 2) is the framing of every suite's suite-manifest.bin, which the harness
// reads and checks. They name their spec (they are its code) but no
// neutral package names it through them: they are handed no spec and
// hand none on.
var Borrowed = []string{"impl/manifest", "impl/cenc"}

// Top are the packages above every wing that may link them all: the
// commands and the one test helper.
var Top = []string{"cmd/...", "internal/allspecs", "conformtest"}

// AtTop reports whether pkg is one of Top.
func AtTop(pkg string) bool { return matchAny(Top, pkg) }

// Wing reports whether pkg belongs to a wing and may not be linked by the
// core: any module package that is not core (SpecNeutral), shared
// (Shared), borrowed (Borrowed) or at the top (Top).
func Wing(pkg string) bool {
	return !matchAny(SpecNeutral, pkg) && !matchAny(Shared, pkg) && !matchAny(Borrowed, pkg) && !matchAny(Top, pkg)
}

// IsBorrowed reports whether pkg is one of Borrowed.
func IsBorrowed(pkg string) bool { return matchAny(Borrowed, pkg) }

func match(pattern, pkg string) bool {
	if p, ok := strings.CutSuffix(pattern, "/..."); ok {
		return strings.HasPrefix(pkg, p+"/")
	}
	if strings.Contains(pattern, "*") {
		ok, _ := path.Match(pattern, pkg)
		return ok
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
			if p == pkg || strings.Contains(p, "*") && match(p, pkg) {
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
// wing's package in the dependency closure of a spec-neutral one (what
// `go list -deps` lists of the module), named with the chain that links
// it. It returns nil when the graph keeps every floor.
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
		}
		if matchAny(SpecNeutral, p) {
			if chain := wingChain(imports, p); chain != nil {
				bad = append(bad, fmt.Sprintf("%s is spec-neutral but links %s, a wing's package (%s)", p, chain[len(chain)-1], strings.Join(chain, " -> ")))
			}
		}
	}
	return bad
}

// wingChain returns the shortest import chain from p to a wing's package
// in p's dependency closure, nil when the closure holds none.
func wingChain(imports map[string][]string, p string) []string {
	from := map[string]string{p: ""}
	queue := []string{p}
	for len(queue) > 0 {
		q := queue[0]
		queue = queue[1:]
		deps := slices.Clone(imports[q])
		sort.Strings(deps)
		for _, d := range deps {
			if _, seen := from[d]; seen {
				continue
			}
			from[d] = q
			if Wing(d) {
				chain := []string{d}
				for c := q; c != ""; c = from[c] {
					chain = append([]string{c}, chain...)
				}
				return chain
			}
			queue = append(queue, d)
		}
	}
	return nil
}

// WalkGoFiles calls fn for every non-test Go file below the module root
// (every build tag), with its package's path relative to Module and the
// file's path; it skips hidden folders, testdata and the examples tree,
// which holds no package of the module (the vectors tree holds one,
// package vectors, beside the vector files).
func WalkGoFiles(root string, fn func(pkg, file string) error) error {
	return walkGoFiles(root, false, fn)
}

// WalkAllGoFiles is WalkGoFiles with the test files too.
func WalkAllGoFiles(root string, fn func(pkg, file string) error) error {
	return walkGoFiles(root, true, fn)
}

func walkGoFiles(root string, tests bool, fn func(pkg, file string) error) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); p != root && (strings.HasPrefix(n, ".") || n == "testdata" || n == "examples") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || !tests && strings.HasSuffix(p, "_test.go") {
			return nil
		}
		dir, err := filepath.Rel(root, filepath.Dir(p))
		if err != nil {
			return err
		}
		return fn(filepath.ToSlash(dir), p)
	})
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

// ModuleRoot returns the nearest directory at or above dir whose go.mod
// declares Module, and false when there is none (dir is outside a
// checkout of the module).
func ModuleRoot(dir string) (string, bool) {
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && modulePath(b) == Module {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// modulePath is the path a go.mod's module directive declares.
func modulePath(gomod []byte) string {
	for _, line := range strings.Split(string(gomod), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}
