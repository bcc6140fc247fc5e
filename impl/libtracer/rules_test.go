package libtracer

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/threespec/conformance/impl/rules"
)

// The catalog is complete and well formed: every Rule* constant of
// rules.go is listed exactly once, every ID has the LT-<AREA>-NN form, and
// every rule the code cites in a rules.Fail is in the catalog.
func TestCatalog(t *testing.T) {
	t.Parallel()
	idForm := regexp.MustCompile(`^LT-[A-Z]+-\d\d$`)
	seen := map[rules.ID]bool{}
	for _, r := range Catalog() {
		if !idForm.MatchString(string(r.ID)) || r.Spec != "libtracer" || r.Section == "" || r.Text == "" {
			t.Errorf("malformed rule %+v", r)
		}
		if seen[r.ID] {
			t.Errorf("%s listed twice", r.ID)
		}
		seen[r.ID] = true
	}
	consts := ruleConstants(t)
	for name, id := range consts {
		if !seen[id] {
			t.Errorf("%s (%s) is not in the catalog", name, id)
		}
	}
	if len(consts) != len(seen) {
		t.Errorf("%d constants, %d catalog rules", len(consts), len(seen))
	}
	// Every rules.Fail(RuleX, ...) in the package cites a catalog rule.
	files, _ := filepath.Glob("*.go")
	failCall := regexp.MustCompile(`rules\.Fail\((Rule\w+)`)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range failCall.FindAllStringSubmatch(string(src), -1) {
			if _, ok := consts[m[1]]; !ok {
				t.Errorf("%s: rules.Fail cites %s, not a rule constant", f, m[1])
			}
		}
	}
}

// ruleConstants reads the Rule* constants of rules.go.
func ruleConstants(t *testing.T) map[string]rules.ID {
	fs := token.NewFileSet()
	f, err := parser.ParseFile(fs, "rules.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]rules.ID{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			v := s.(*ast.ValueSpec)
			for i, n := range v.Names {
				if strings.HasPrefix(n.Name, "Rule") {
					lit := v.Values[i].(*ast.BasicLit)
					out[n.Name] = rules.ID(strings.Trim(lit.Value, `"`))
				}
			}
		}
	}
	return out
}

// Every worked example and every row of the size table has its rule.
func TestByteExactRulesHaveExamples(t *testing.T) {
	t.Parallel()
	have := map[rules.ID]bool{}
	for _, ex := range allByteExamples(t) {
		have[ex.rule] = true
	}
	for _, r := range Catalog() {
		if (strings.HasPrefix(string(r.ID), "LT-EX-") || strings.HasPrefix(string(r.ID), "LT-SIZE-") || r.ID == RuleTSExampleADC) && !have[r.ID] {
			t.Errorf("%s has no byte-exact example", r.ID)
		}
	}
}

// docs/libtracer.md carries the catalog: every rule's ID and text.
func TestDocsListEveryRule(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../../docs/libtracer.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range Catalog() {
		row := "| " + string(r.ID) + " | " + r.Level.String() + " | " + r.Section + " | " + strings.ReplaceAll(r.Text, "|", `\|`) + " |"
		if !strings.Contains(string(doc), row) {
			t.Errorf("docs/libtracer.md lacks the row of %s:\n%s", r.ID, row)
		}
	}
}
