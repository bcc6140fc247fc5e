package hiverelay

import (
	"regexp"
	"strings"
	"testing"

	"github.com/threespec/conformance/impl/rules"
)

var idPattern = regexp.MustCompile(`^HR-[A-Z]+-[0-9]{2}$`)

func TestCatalogIsWellFormed(t *testing.T) {
	t.Parallel()
	seen := map[rules.ID]bool{}
	spec := string(Spec())
	for _, r := range Catalog() {
		if !idPattern.MatchString(string(r.ID)) {
			t.Errorf("%s: malformed ID", r.ID)
		}
		if seen[r.ID] {
			t.Errorf("%s: duplicate ID", r.ID)
		}
		seen[r.ID] = true
		if r.Spec != "hiverelay" || r.Level != rules.LevelMust || !strings.HasSuffix(r.Text, ".") && !strings.HasSuffix(r.Text, ".)") && !strings.HasSuffix(r.Text, ")") {
			t.Errorf("%s: spec %q level %s text %q", r.ID, r.Spec, r.Level, r.Text)
		}
		if r.Section != "Preamble" && !strings.Contains(spec, "\n## "+r.Section+"\n") {
			t.Errorf("%s: section %q is not a heading of the spec", r.ID, r.Section)
		}
		switch r.Check {
		case rules.Unclassified:
			t.Errorf("%s: no Check", r.ID)
		case rules.General:
			if len(RealizedBy(r.ID)) == 0 {
				t.Errorf("%s: general rule realized by nothing", r.ID)
			}
		case rules.Outside:
			if r.Untestable == "" {
				t.Errorf("%s: an outside rule must say why it is not byte-testable", r.ID)
			}
		}
		switch {
		case strings.Contains(r.Text, "Not byte-testable"):
			t.Errorf("%s: the reason belongs in Untestable, not in the text", r.ID)
		case r.Untestable != "" && r.Check != rules.Outside && !strings.HasPrefix(r.Untestable, "subsumed by"):
			t.Errorf("%s: untestable, but neither outside nor subsumed: %q", r.ID, r.Untestable)
		}
	}
	for id, specific := range realized {
		if CheckOf(id) != rules.General {
			t.Errorf("%s realizes rules but is not General", id)
		}
		for _, s := range specific {
			if CheckOf(s) != rules.Rejecting {
				t.Errorf("%s is realized by %s, which rejects nothing", id, s)
			}
		}
	}
}

// The statements the brief names are in the catalog: the MUST NOT decode,
// the two-hash binding, the hash formulas, the inventory.
func TestCatalogHasTheNamedStatements(t *testing.T) {
	t.Parallel()
	text := map[rules.ID]string{}
	for _, r := range Catalog() {
		text[r.ID] = r.Text
	}
	for id, words := range map[rules.ID]string{
		RuleRelayMustNotDecode: "MUST NOT decode",
		RuleBindTwoHashTuple:   "two-hash tuple",
		RuleFmtHash:            FormatHashDomain,
		RuleVecSetHash:         VectorSetHashDomain,
		RuleVecInventory:       "18 paths",
	} {
		if !strings.Contains(text[id], words) {
			t.Errorf("%s: %q does not say %q", id, text[id], words)
		}
	}
}

// Every rejecting rule of this package's catalog has a test case that
// expects it. The manifest framing rules (HR-MAN-*) are covered by
// impl/manifest's own tests.
func TestEveryRejectingRuleIsTested(t *testing.T) {
	t.Parallel()
	tested := map[rules.ID]bool{}
	var all []rejectCase
	all = append(all, codecRejectCases()...)
	all = append(all, catalogRejectCases()...)
	all = append(all, artifactRejectCases()...)
	all = append(all, metadataRejectCases()...)
	for _, c := range all {
		tested[c.rule] = true
	}
	for _, c := range vectorSetCases() {
		tested[c.rule] = true
	}
	for _, c := range authorityCases() {
		tested[c.rule] = true
	}
	for _, r := range Catalog() {
		if r.Check == rules.Rejecting && !strings.HasPrefix(string(r.ID), "HR-MAN-") && !tested[r.ID] {
			t.Errorf("%s (%s) has no rejection test", r.ID, r.Text)
		}
	}
}
