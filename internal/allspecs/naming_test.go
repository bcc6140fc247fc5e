package allspecs

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/threespec/conformance/internal/floors"
)

// namers returns the patterns that name one of the specs in a string
// literal (its name as a word, an operation <name>.<op>, an ID with its
// prefix) and in an identifier (its name as a camel-case word).
func namers() (literal, ident *regexp.Regexp) {
	var names, prefixes []string
	for _, s := range Set().Specs() {
		names = append(names, regexp.QuoteMeta(string(s.Name)))
		prefixes = append(prefixes, regexp.QuoteMeta(s.Prefix))
	}
	literal = regexp.MustCompile(`(^|[^a-z0-9])(` + strings.Join(names, "|") + `)($|[^a-z0-9])|(^|[^A-Z])(MUT-)?(` + strings.Join(prefixes, "|") + `)-[A-Z0-9]`)
	ident = regexp.MustCompile(`^(?i:` + strings.Join(names, "|") + `)$`)
	return literal, ident
}

// words splits a Go identifier into its camel-case words.
func words(id string) []string {
	var out []string
	start := 0
	for i, r := range id {
		if i > 0 && unicode.IsUpper(r) && !unicode.IsUpper(rune(id[i-1])) || r == '_' {
			out = append(out, strings.Trim(id[start:i], "_"))
			start = i
		}
	}
	return append(out, strings.Trim(id[start:], "_"))
}

// namesSpec reports whether a run of the identifier's camel-case words
// spells a spec's name (HiveRelay, laceOps; not replace).
func namesSpec(ident *regexp.Regexp, id string) bool {
	ws := words(id)
	for i := range ws {
		for j := i + 1; j <= len(ws); j++ {
			if ident.MatchString(strings.Join(ws[i:j], "")) {
				return true
			}
		}
	}
	return false
}

// exempt are the places outside the wings and the commands that may name a
// spec, each with the reason.
var exempt = map[string]string{
	// The vector-set format's recipe language has one part named for
	// libtracer; it is published (docs/VECTORS.md) and in every
	// committed libtracer recipe, so renaming it would change the set.
	"vectorset/vectorset.go": "the recipe part libtracer_nest",
}

// TestOnlyWingsNameSpecs: outside the wings (internal/floors.Wing and the
// primitives the core borrows from one, floors.Borrowed), the commands and
// this helper, no non-test Go file names a spec: no import
// of a wing's package (the floors test checks the closure), no string
// literal with a spec's name, operation or rule ID, no identifier that is
// a spec's name as a word.
func TestOnlyWingsNameSpecs(t *testing.T) {
	literal, ident := namers()
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	checked := 0
	err := floors.WalkGoFiles(root, func(pkg, p string) error {
		if floors.Wing(pkg) || floors.IsBorrowed(pkg) || floors.AtTop(pkg) {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return err
		}
		checked++
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit:
				if n.Kind != token.STRING {
					return true
				}
				s, err := strconv.Unquote(n.Value)
				if err == nil && literal.MatchString(s) && exempt[rel] == "" {
					t.Errorf("%s: the literal %s names a spec", fset.Position(n.Pos()), n.Value)
				}
				return false
			case *ast.ImportSpec:
				return false // the floors test judges imports
			case *ast.Ident:
				if namesSpec(ident, n.Name) && exempt[rel] == "" {
					t.Errorf("%s: the identifier %s names a spec", fset.Position(n.Pos()), n.Name)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 40 {
		t.Fatalf("checked only %d files: is the walk rooted at the module?", checked)
	}
}

// The patterns catch what they are for, and not words that merely hold a
// spec's name.
func TestNamers(t *testing.T) {
	literal, ident := namers()
	for s, want := range map[string]bool{
		"lace.record": true, "hiverelay": true, "LACE-FIELD-03": true, "x HR-READ-03=a": true, "MUT-LT-CRC-OVER-HEADER": true,
		"libtracer_nest": true, "replace": false, "placeholder": false, "HRX-01": false, "SALT-01": false, "ALT-": false,
	} {
		if literal.MatchString(s) != want {
			t.Errorf("literal %q: matched %v, want %v", s, !want, want)
		}
	}
	for id, want := range map[string]bool{"laceOps": true, "OpLibtracerDecode": true, "HiveRelay": true, "hiveRelayDecode": true, "hive": false, "replace": false, "Placeholder": false} {
		if got := namesSpec(ident, id); got != want {
			t.Errorf("identifier %s: matched %v, want %v", id, got, want)
		}
	}
}
