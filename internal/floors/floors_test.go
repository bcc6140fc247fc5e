package floors

import (
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// moduleImports parses the import clauses of every non-test Go file of the
// module (all build tags) and returns package to module packages imported.
func moduleImports(t *testing.T, root string) map[string][]string {
	t.Helper()
	imports := map[string][]string{}
	fset := token.NewFileSet()
	err := WalkGoFiles(root, func(pkg, p string) error {
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		if _, ok := imports[pkg]; !ok {
			imports[pkg] = nil
		}
		for _, s := range f.Imports {
			ip, _ := strconv.Unquote(s.Path.Value)
			if rel, ok := Rel(ip); ok && !slices.Contains(imports[pkg], rel) {
				imports[pkg] = append(imports[pkg], rel)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return imports
}

func TestTreeKeepsTheFloors(t *testing.T) {
	imports := moduleImports(t, "../..")
	if len(imports) < 30 {
		t.Fatalf("found only %d packages: is the walk rooted at the module?", len(imports))
	}
	for _, line := range Check(imports) {
		t.Error(line)
	}
}

// TestCheckCatches shows the check failing on the breaks it exists for.
func TestCheckCatches(t *testing.T) {
	cases := []struct {
		name    string
		imports map[string][]string
		want    string
	}{
		{"up a floor", map[string][]string{"impl/lace": {"harness"}, "harness": nil}, "above it"},
		{"within a closed floor", map[string][]string{"testee": {"specs"}, "specs": nil}, "permits no import"},
		{"spec in a neutral package", map[string][]string{"harness": {"impl/hiverelay"}, "impl/hiverelay": nil}, "spec-neutral"},
		{"steps world reaching a wing's spec", map[string][]string{"steps": {"impl/hiverelay/hivespec"}, "impl/hiverelay/hivespec": nil}, "spec-neutral"},
		{"a wing linked through another package", map[string][]string{"harness": {"impl/manifest"}, "impl/manifest": {"impl/hiverelay"}, "impl/hiverelay": nil}, "harness -> impl/manifest -> impl/hiverelay"},
		{"a generator under the engine", map[string][]string{"internal/vecgen": {"impl/lace/lacevec"}, "impl/lace/lacevec": nil}, "spec-neutral"},
		{"generator under the harness", map[string][]string{"internal/vecgen": {"harness"}, "harness": nil}, "above it"},
		{"unplaced package", map[string][]string{"newthing": nil}, "stands on no floor"},
	}
	for _, c := range cases {
		got := strings.Join(Check(c.imports), "\n")
		if !strings.Contains(got, c.want) {
			t.Errorf("%s: Check = %q, want a line containing %q", c.name, got, c.want)
		}
	}
	if bad := Check(map[string][]string{"harness": {"impl/rules", "internal/vecgen", "testee"}, "cmd/conform": {"harness", "impl/lace/lacespec"}, "impl/lace/lacespec": {"impl/spec"}, "impl/lace/lacevec": {"internal/vecgen", "impl/lace/lacespec"}}); len(bad) != 0 {
		t.Errorf("a graph that keeps the floors: Check = %q", bad)
	}
}

// TestArchitectureDocNamesEveryFloor keeps docs/ARCHITECTURE.md and the
// table together: the doc names every floor and every package pattern.
func TestArchitectureDocNamesEveryFloor(t *testing.T) {
	b, err := os.ReadFile("../../docs/ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, f := range Floors {
		if !regexp.MustCompile("(?m)^#+ .*" + regexp.QuoteMeta(f.Name)).MatchString(doc) {
			t.Errorf("docs/ARCHITECTURE.md has no heading for floor %q", f.Name)
		}
		for _, p := range f.Packages {
			if !strings.Contains(doc, "`"+p+"`") {
				t.Errorf("docs/ARCHITECTURE.md does not name `%s` (floor %s)", p, f.Name)
			}
		}
	}
}

// Wing tells the wings' packages from the core, the shared blocks and the
// top by the tables alone: no spec is named.
func TestWing(t *testing.T) {
	for pkg, want := range map[string]bool{
		"impl/lace": true, "impl/lace/convention": true, "impl/mark": true, "impl/hiverelay/hivespec": true,
		"impl/libtracer/tracervec": true, "steps/lace": true, "impl/newformat": true,
		"impl/spec": false, "impl/rules": false, "impl/manifest": false, "steps": false, "harness/harnesstest": false,
		"cmd/conform": false, "internal/allspecs": false, "reference": false,
	} {
		if Wing(pkg) != want {
			t.Errorf("Wing(%s) = %v, want %v", pkg, !want, want)
		}
	}
}
