package rulesdoc

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/internal/allspecs"
	"github.com/threespec/conformance/internal/prove"
	"github.com/threespec/conformance/steps"
	"github.com/threespec/conformance/vectorset"
)

// TestCommittedListIsFresh fails when features/RULES.md differs from what
// the catalogs, features, indexes and proof give now.
func TestCommittedListIsFresh(t *testing.T) {
	root := filepath.Join("..", "..")
	in, err := Load(allspecs.Set(), root)
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

func TestCommittedReadingsAreFresh(t *testing.T) {
	root := filepath.Join("..", "..")
	in, err := Load(allspecs.Set(), root)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(root, ReadingsFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, RenderReadings(in)) {
		t.Fatalf("%s is stale: run %s", ReadingsFile, Command)
	}
	for _, r := range in.Readings {
		if !strings.Contains(string(got), "### "+string(r.ID)+"\n") {
			t.Errorf("%s does not list %s", ReadingsFile, r.ID)
		}
	}
}

func TestRender(t *testing.T) {
	in := Input{
		Specs: allspecs.Set(),
		Catalog: []rules.Rule{
			{ID: "LACE-X-01", Spec: "lace", Section: "S", Level: rules.LevelMust, Text: "one\n  two"},
			{ID: "LACE-X-02", Spec: "lace", Section: "S", Level: rules.LevelShould, Text: "three"},
			{ID: "LACE-X-03", Spec: "lace", Section: "S", Level: rules.LevelMust, Text: "four", ProjectDefined: "the bound\n is ours"},
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
		"| lace | 3 | 2 | 1 | 0 | 1 | 1 | 1 | 1 | 0 |",
		"#### LACE-X-03 (MUST, project-defined)\n\nfour\n\n- Project-defined, not the spec's words: the bound is ours\n- Rule: none\n",
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

// TestRecordedProofIsCurrent fails when manifest/proof.json no longer
// matches the catalogs, the vector sets and the features: vectors or
// features other than those it ran against (set hashes, features digest), a
// fault the proof has not injected, an ID it knows that no longer exists, a
// rule untestable in one and not the other, a catching vector or feature
// file that is gone, or a fault recorded as caught by nothing. Rerun the
// proof (docs/PROOF.md).
func TestRecordedProofIsCurrent(t *testing.T) {
	root := filepath.Join("..", "..")
	in, err := Load(allspecs.Set(), root)
	if err != nil {
		t.Fatal(err)
	}
	if in.Proof == nil {
		t.Fatalf("%s is missing: run go run ./cmd/conform prove -with-features always -write %s", ProofFile, ProofFile)
	}
	rerun := "rerun go run ./cmd/conform prove -with-features always -write " + ProofFile
	if in.Proof.Features != "always" {
		t.Errorf("%s was recorded with features %q; the rule list needs the full matrix: %s", ProofFile, in.Proof.Features, rerun)
	}
	for k, cur := range in.Inputs {
		switch rec, ok := in.Proof.Inputs[k]; {
		case !ok:
			t.Errorf("%s: the record does not say which %s it ran against: %s", ProofFile, k, rerun)
		case rec != cur:
			t.Errorf("%s: recorded against %s %s, which is now %s: %s", ProofFile, k, rec, cur, rerun)
		}
	}
	targets, untestable := prove.Targets(allspecs.Set())
	want := map[string]bool{}
	for _, tg := range targets {
		want[tg.ID] = true
		e, ok := in.Proof.Faults[tg.ID]
		switch {
		case !ok:
			t.Errorf("%s: not in %s: %s", tg.ID, ProofFile, rerun)
		case len(e.Vectors)+len(e.Scenarios) == 0:
			t.Errorf("%s: recorded as caught by nothing", tg.ID)
		}
	}
	for id := range in.Proof.Faults {
		if !want[id] {
			t.Errorf("%s: in %s but no longer a rule or mutant: %s", id, ProofFile, rerun)
		}
	}
	wantUntestable := map[string]bool{}
	for _, u := range untestable {
		wantUntestable[u.ID] = true
		if _, ok := in.Proof.Untestable[u.ID]; !ok {
			t.Errorf("%s: untestable in the catalog, not in %s: %s", u.ID, ProofFile, rerun)
		}
	}
	for id := range in.Proof.Untestable {
		if !wantUntestable[id] {
			t.Errorf("%s: untestable in %s, not in the catalog: %s", id, ProofFile, rerun)
		}
	}
	vectors := map[string]bool{}
	for _, ix := range in.Indexes {
		for _, v := range ix.Vectors {
			vectors[v.ID] = true
		}
	}
	for id, e := range in.Proof.Faults {
		for _, v := range e.Vectors {
			if !vectors[v] {
				t.Errorf("%s: caught by vector %s, which no index holds any more: %s", id, v, rerun)
			}
		}
		for _, s := range e.Scenarios {
			uri, _, ok := strings.Cut(s, ": ")
			if _, err := os.Stat(filepath.Join(root, uri)); !ok || err != nil {
				t.Errorf("%s: caught by scenario %q, whose feature file is gone: %s", id, s, rerun)
			}
		}
	}
}

// The list says what the proof ran against and marks what has changed.
func TestProofInputs(t *testing.T) {
	p := &prove.Record{Features: "always", Inputs: map[string]string{"lace": "aa", prove.FeaturesInput: "ff"}}
	got := proofInputs(p, map[string]string{"lace": "aa", prove.FeaturesInput: "fe"})
	for _, want := range []string{
		"run with features `always` against:",
		"- lace suite set hash `aa`\n",
		"- features feature files, SHA-256 `ff` (CHANGED since: the proof must be run again)\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("proofInputs lacks %q:\n%s", want, got)
		}
	}
	if strings.Count(got, "CHANGED") != 1 {
		t.Errorf("an unchanged input marked as changed:\n%s", got)
	}
}

// TestProjectDefinedRulesSaySo fails when a rule the catalogs mark
// project-defined (rules.Rule.ProjectDefined) has a Gherkin Rule whose
// title does not say so, so that nobody reading the features takes the
// project's rule for the spec's words.
func TestProjectDefinedRulesSaySo(t *testing.T) {
	in, err := Load(allspecs.Set(), filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range in.Catalog {
		if r.ProjectDefined == "" {
			continue
		}
		n++
		fr := in.Inventory.Rule(string(r.ID))
		if fr == nil {
			continue // TestEveryRuleHasAFeature's concern
		}
		ok := false
		for _, mark := range []string{"(project-defined", "(project decision)", "(project reading)", "(decision: docs/"} {
			ok = ok || strings.Contains(fr.Title, mark)
		}
		if !ok {
			t.Errorf("%s is project-defined but its Rule at %s:%d does not say so (add \"(project-defined)\" to the title)", r.ID, fr.URI, fr.Line)
		}
	}
	if n == 0 {
		t.Error("no rule is marked project-defined")
	}
}

// TestRuleTextsPrintedExactly: the committed features/RULES.md prints every
// rule's text under its heading byte for byte as the catalog states it
// (a text without line breaks; two spaces stay two spaces), and oneLine
// only joins lines.
func TestRuleTextsPrintedExactly(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", File))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, r := range allspecs.Set().Rules() {
		if strings.Contains(r.Text, "\n") {
			t.Errorf("%s: the catalog's text has a line break; RULES.md prints one line", r.ID)
			continue
		}
		head := fmt.Sprintf("\n#### %s (%s", r.ID, r.Level)
		i := strings.Index(doc, head)
		if i < 0 {
			t.Errorf("%s has no heading in %s", r.ID, File)
			continue
		}
		rest := doc[i+len(head):]
		_, body, _ := strings.Cut(rest, "\n\n")
		if text, _, _ := strings.Cut(body, "\n"); text != r.Text {
			t.Errorf("%s: %s prints %q, the catalog says %q", r.ID, File, text, r.Text)
		}
	}
	for in, want := range map[string]string{"a:  b": "a:  b", " a\n   b \n": "a b", "x\ty": "x\ty"} {
		if got := oneLine(in); got != want {
			t.Errorf("oneLine(%q) = %q, want %q", in, got, want)
		}
	}
}
