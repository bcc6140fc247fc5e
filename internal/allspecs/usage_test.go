package allspecs

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/threespec/conformance/internal/floors"
)

// ruleUsage scans the reference implementation's non-test sources under dir
// and returns the rule IDs it rejects with: every rule constant (a constant
// whose value is a rule ID) used anywhere except as an argument of a call to
// Enforced, which consults a construction rule instead of reporting one, and
// except as the Rule field of a Vector literal, which names the rule a vector
// tests (data; the rejection it describes happens where a decoder fails).
// Constants are told apart by package (cenc.RuleTruncated is not
// manifest.RuleTruncated).
func ruleUsage(t *testing.T, dir string) (rejects map[string][]string) {
	t.Helper()
	fset := token.NewFileSet()
	var files, catalogFiles []*ast.File
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		// Only the implementations: not a wing's Spec (its handlers map
		// protocol requests to them), its generator (internal/floors) or
		// its fuzz generation (impl/*/*fuzz: it names the rule a candidate
		// vector of an accepted input tests, and rejects nothing).
		if rel, _ := filepath.Rel(filepath.Join(dir, ".."), p); d.IsDir() && p != dir {
			pkg := filepath.ToSlash(rel)
			if i := floors.FloorOf(pkg); i < 0 || floors.Floors[i].Name != "impl" || matched(pkg, "impl/*/*spec") || matched(pkg, "impl/*/*fuzz") {
				return filepath.SkipDir
			}
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return err
		}
		if d.Name() == "rules.go" || d.Name() == "readings.go" {
			// The catalog files (rules and readings) declare the constants
			// and list them; those are not uses.
			catalogFiles = append(catalogFiles, f)
			return nil
		}
		files = append(files, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Rule constants: "package.Name" -> ID.
	consts := map[string]string{}
	for _, f := range append(files, catalogFiles...) {
		for _, decl := range f.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, name := range vs.Names {
					if i >= len(vs.Values) {
						continue
					}
					lit, ok := vs.Values[i].(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						continue
					}
					if v, err := strconv.Unquote(lit.Value); err == nil && Set().RuleIDPattern().MatchString(v) && !strings.Contains(v, "-READ-") {
						// Reading IDs (docs/READINGS.md) name no rule.
						consts[f.Name.Name+"."+name.Name] = v
					}
				}
			}
		}
	}
	rejects = map[string][]string{}
	for _, f := range files {
		where := fset.Position(f.Package).Filename
		enforcedArgs := map[ast.Node]bool{}
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && calleeName(call) == "Enforced" {
				for _, a := range call.Args {
					enforcedArgs[a] = true
				}
			}
			if lit, ok := n.(*ast.CompositeLit); ok && typeName(lit.Type) == "Vector" {
				for _, e := range lit.Elts {
					if kv, ok := e.(*ast.KeyValueExpr); ok {
						if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Rule" {
							enforcedArgs[kv.Value] = true
						}
					}
				}
			}
			return true
		})
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.GenDecl:
				return x.Tok != token.CONST // the declarations themselves are not uses
			case *ast.Ident:
				if id, ok := consts[f.Name.Name+"."+x.Name]; ok && !enforcedArgs[x] {
					rejects[id] = append(rejects[id], filepath.Base(where))
				}
			case *ast.SelectorExpr:
				pkg, ok := x.X.(*ast.Ident)
				if !ok {
					return true // a field or method of a value, not a package's constant
				}
				if id, ok := consts[pkg.Name+"."+x.Sel.Name]; ok && !enforcedArgs[x] {
					rejects[id] = append(rejects[id], filepath.Base(where))
				}
				return false
			}
			return true
		})
	}
	return rejects
}

// typeName returns the name of a composite literal's type: "Vector" for
// Vector{...} and pkg.Vector{...}; "" for others.
func typeName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.Ident:
		return t.Name
	case *ast.SelectorExpr:
		return t.Sel.Name
	}
	return ""
}

func calleeName(call *ast.CallExpr) string {
	switch f := call.Fun.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		return f.Sel.Name
	}
	return ""
}

func matched(pkg, pattern string) bool {
	ok, _ := path.Match(pattern, pkg)
	return ok
}
