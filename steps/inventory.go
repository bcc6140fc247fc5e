package steps

import (
	"fmt"
	"sort"
	"strings"

	"github.com/cucumber/godog"
	messages "github.com/cucumber/messages/go/v34"
	"github.com/threespec/conformance/impl/spec"
)

// Inventory is the rule structure of the feature files: every Gherkin Rule
// with its ID, spec, level and scenarios, and anything that breaks the
// conventions (a scenario outside any rule, a rule without an ID).
type Inventory struct {
	Rules []FeatureRule
	// Outside lists scenarios that stand outside any Rule, as "uri:line name".
	Outside []string
	// Malformed lists rules whose title does not start with a rule ID.
	Malformed []string
	// byScenario maps "uri\x00scenario AST ID" to the index of its rule.
	byScenario map[string]int
}

// FeatureRule is one Gherkin Rule.
type FeatureRule struct {
	ID        string // the rule ID its title starts with
	Spec      string // the spec whose prefix the ID carries
	Title     string // the rest of the title
	URI       string // the feature file
	Line      int
	Feature   string   // the feature's name (the spec section it covers)
	Tags      []string // the rule's own tags and its feature's, sorted
	Scenarios []FeatureScenario
}

// Level returns "SHOULD" for rules tagged @should, else "MUST".
func (r *FeatureRule) Level() string {
	for _, t := range r.Tags {
		if t == "@should" {
			return "SHOULD"
		}
	}
	return "MUST"
}

// FeatureScenario is one Scenario or Scenario Outline of a rule.
type FeatureScenario struct {
	Name     string
	Line     int
	astID    string
	Examples int // rows of all its Examples tables; 0 for a plain Scenario
}

// LoadInventory parses the feature files at paths (directories are walked)
// exactly as godog does, so that scenario IDs match those of a run.
func LoadInventory(specs *spec.Set, paths []string) (*Inventory, error) {
	suite := godog.TestSuite{Options: &godog.Options{Paths: paths}}
	feats, err := suite.RetrieveFeatures()
	if err != nil {
		return nil, err
	}
	inv := &Inventory{byScenario: map[string]int{}}
	for _, f := range feats {
		doc := f.GherkinDocument
		if doc == nil || doc.Feature == nil {
			continue
		}
		ftags := tagNames(doc.Feature.Tags)
		for _, c := range doc.Feature.Children {
			if c.Scenario != nil {
				inv.Outside = append(inv.Outside, fmt.Sprintf("%s:%d %s", doc.Uri, c.Scenario.Location.Line, c.Scenario.Name))
			}
			if c.Rule == nil {
				continue
			}
			id, title, _ := strings.Cut(strings.TrimSpace(c.Rule.Name), " ")
			s, ok := specs.ByPrefix(id)
			if !ok || !specs.RuleIDPattern().MatchString(id) {
				inv.Malformed = append(inv.Malformed, fmt.Sprintf("%s:%d %q", doc.Uri, c.Rule.Location.Line, c.Rule.Name))
				continue
			}
			tags := append(tagNames(c.Rule.Tags), ftags...)
			sort.Strings(tags)
			r := FeatureRule{ID: id, Spec: string(s.Name), Title: strings.TrimSpace(title), URI: doc.Uri, Line: int(c.Rule.Location.Line), Feature: doc.Feature.Name, Tags: tags}
			for _, rc := range c.Rule.Children {
				if rc.Scenario == nil {
					continue
				}
				s := FeatureScenario{Name: rc.Scenario.Name, Line: int(rc.Scenario.Location.Line), astID: rc.Scenario.Id}
				for _, ex := range rc.Scenario.Examples {
					s.Examples += len(ex.TableBody)
				}
				inv.byScenario[doc.Uri+"\x00"+s.astID] = len(inv.Rules)
				r.Scenarios = append(r.Scenarios, s)
			}
			inv.Rules = append(inv.Rules, r)
		}
	}
	return inv, nil
}

func tagNames(tags []*messages.Tag) []string {
	out := make([]string, 0, len(tags))
	for _, t := range tags {
		out = append(out, t.Name)
	}
	return out
}

// RuleOf returns the rule an executed scenario belongs to, or nil.
func (inv *Inventory) RuleOf(s *ScenarioRun) *FeatureRule {
	if len(s.AstNodeIDs) == 0 {
		return nil
	}
	if i, ok := inv.byScenario[s.URI+"\x00"+s.AstNodeIDs[0]]; ok {
		return &inv.Rules[i]
	}
	return nil
}

// Rule returns the rule with the given ID, or nil.
func (inv *Inventory) Rule(id string) *FeatureRule {
	for i := range inv.Rules {
		if inv.Rules[i].ID == id {
			return &inv.Rules[i]
		}
	}
	return nil
}
