package rulesdoc

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/internal/prove"
	"github.com/threespec/conformance/steps"
	"github.com/threespec/conformance/vectorset"
)

// TestCommittedListIsFresh fails when features/RULES.md differs from what
// the catalogs, features, indexes and proof give now.
func TestCommittedListIsFresh(t *testing.T) {
	root := filepath.Join("..", "..")
	in, err := Load(root)
	if err != nil {
		t.Fatal(err)
	}
	want := Render(in)
	got, err := os.ReadFile(filepath.Join(root, File))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is stale: run %s", File, Command)
	}
}

func TestRender(t *testing.T) {
	in := Input{
		Catalog: []rules.Rule{
			{ID: "LACE-X-01", Spec: "lace", Section: "S", Level: rules.Must, Text: "one\n  two"},
			{ID: "LACE-X-02", Spec: "lace", Section: "S", Level: rules.Should, Text: "three"},
		},
		Inventory: &steps.Inventory{Rules: []steps.FeatureRule{{ID: "LACE-X-01", URI: "features/lace/x.feature", Line: 3,
			Scenarios: []steps.FeatureScenario{{Name: "boundary", Examples: 2}}}}},
		Indexes: []*vectorset.Index{{Suite: "lace", Vectors: []vectorset.Vector{{ID: "lace/negative/v", Rules: []string{"LACE-X-01"}}}}},
		Proof: &prove.Record{Faults: map[string]prove.Entry{"LACE-X-01": {Vectors: []string{"lace/negative/v"}}, "LACE-X-02": {}},
			Untestable: map[string]string{}},
		Mutants: []rules.Mutant{{ID: "MUT-LACE-X", Spec: "lace", Text: "a mistake"}},
	}
	out := string(Render(in))
	for _, want := range []string{
		"| lace | 2 | 1 | 1 | 1 | 1 | 1 | 0 |",
		"#### LACE-X-01 (MUST)\n\none two\n",
		"- Rule: `features/lace/x.feature:3`\n  - scenario: boundary (2 examples)\n",
		"- Vectors (1): `lace/negative/v`\n",
		"- Fault caught by 1 vectors and 0 scenarios: `lace/negative/v`\n",
		"#### LACE-X-02 (SHOULD)\n\nthree\n\n- Rule: none\n- Vectors: none\n- Fault caught by: NOTHING (a gap)\n",
		"## Mutants\n",
		"#### MUT-LACE-X (lace)\n\na mistake\n\n- Fault: not in the recorded proof\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("rendered list lacks %q:\n%s", want, out)
		}
	}
}
