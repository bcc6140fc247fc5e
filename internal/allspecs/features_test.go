package allspecs

import (
	"context"
	"flag"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/cucumber/godog"
	"github.com/cucumber/godog/colors"

	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/internal/reading"
	"github.com/threespec/conformance/reference"
	"github.com/threespec/conformance/steps"
)

// godog's options, settable as flags after -args:
//
//	go test ./steps -args -godog.tags=@lace -godog.format=junit:out.xml
//
// or through the environment: GODOG_TAGS, GODOG_FORMAT (for example
// "pretty", "progress", "junit:report.xml", "cucumber:report.json", several
// separated by commas).
var opts = godog.Options{Output: colors.Colored(os.Stdout)}

func init() {
	godog.BindFlags("godog.", flag.CommandLine, &opts)
	// BindFlags sets the format to its default, "pretty"; left empty,
	// TestFeatures takes GODOG_FORMAT, else "progress".
	opts.Format = ""
}

// featuresDir is the features directory, relative to this package.
const featuresDir = "../../features"

// TestFeatures runs every feature against the reference implementation, and
// then checks traceability: rules, scenarios, catalog and reported rule IDs.
func TestFeatures(t *testing.T) {
	flag.Parse()
	o := opts
	if v := os.Getenv("GODOG_TAGS"); v != "" && o.Tags == "" {
		o.Tags = v
	}
	if v := os.Getenv("GODOG_FORMAT"); v != "" && o.Format == "" {
		o.Format = v
	}
	if o.Format == "" {
		o.Format = "progress"
	}
	o.Paths = []string{featuresDir}
	o.TestingT = t

	impl := reference.New(Set())
	rep, err := steps.Run(context.Background(), steps.Config{Impl: impl, Wings: Steps(), StrictRules: true, Options: o})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status != 0 {
		t.Fatalf("godog run failed with status %d", rep.Status)
	}
	if o.Tags != "" {
		t.Logf("tags %q select a subset of the features: traceability not checked", o.Tags)
		return
	}
	inv, err := steps.LoadInventory(Set(), []string{featuresDir})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range Steps() {
		names = append(names, s.Name())
	}
	if !slices.Equal(names, Set().Names()) {
		t.Errorf("Steps() are the steps of %q; the catalog's specs are %q", names, Set().Names())
	}
	for _, spec := range Set().Names() {
		if !specHasFeatures(spec) {
			t.Errorf("features/%s/ is missing: every rule of %s needs a Gherkin rule", spec, spec)
		}
	}
	checkTraceability(t, inv, rep)
	alts := runAlternatives(t, o)
	checkRejectionsCovered(t, rep, alts...)
}

// runAlternatives runs the scenarios of every non-default alternative the
// features tag (@reading:ID=ALT) against the reference switched into that
// alternative, which the default run skips: each must pass, and the rules
// they expect count as covered (a rule only an alternative rejects with
// has its negative scenarios there).
func runAlternatives(t *testing.T, o godog.Options) []*steps.Report {
	t.Helper()
	alts := featureAlternatives(t)
	var reps []*steps.Report
	for _, k := range slices.Sorted(maps.Keys(alts)) {
		id, alt, _ := strings.Cut(k, "=")
		impl := reference.New(Set()).WithChecks(rules.Checks{Readings: reading.Of(map[string]string{id: alt})})
		ao := o
		ao.Tags = "@reading:" + k
		rep, err := steps.Run(context.Background(), steps.Config{Impl: impl, Wings: Steps(), StrictRules: true, Options: ao})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Status != 0 {
			t.Errorf("the scenarios tagged @reading:%s fail against the reference taking that alternative (status %d)", k, rep.Status)
		}
		reps = append(reps, rep)
	}
	return reps
}

// checkTraceability fails when a rule has no executed scenario, two rules
// share an ID, a scenario stands outside any rule, a rule title has no ID, a
// feature rule is not in the catalog (or, for a spec that has features, a
// catalog rule has no feature rule), or a negative scenario's expected rule
// is not the one the reference reported.
func checkTraceability(t *testing.T, inv *steps.Inventory, rep *steps.Report) {
	t.Helper()
	for _, s := range inv.Outside {
		t.Errorf("scenario outside any Rule: %s", s)
	}
	for _, m := range inv.Malformed {
		t.Errorf("Rule title does not start with a rule ID: %s", m)
	}
	seen := map[string]string{}
	for _, r := range inv.Rules {
		where := r.URI + ":" + itoa(r.Line)
		if prev, dup := seen[r.ID]; dup {
			t.Errorf("rule %s defined twice: %s and %s", r.ID, prev, where)
		}
		seen[r.ID] = where
		if len(r.Scenarios) == 0 {
			t.Errorf("rule %s (%s) has no scenario", r.ID, where)
		}
	}

	// Executed scenarios, per rule.
	ran := map[string]int{}
	for i := range rep.Scenarios {
		s := &rep.Scenarios[i]
		r := inv.RuleOf(s)
		if r == nil {
			t.Errorf("executed scenario %q (%s) maps to no rule", s.Name, s.URI)
			continue
		}
		if s.Err == nil && !s.Skipped {
			ran[r.ID]++
		}
		for k, want := range s.Expected {
			if got := s.Reported[k]; got != want {
				t.Errorf("scenario %q of rule %s expected rule %s, the reference reported %q", s.Name, r.ID, want, got)
			}
		}
	}
	for _, r := range inv.Rules {
		if ran[r.ID] == 0 {
			t.Errorf("rule %s (%s:%d) has no executed, passing scenario against the reference", r.ID, r.URI, r.Line)
		}
	}

	// Features against the catalog.
	cat := map[string]string{}
	for _, r := range Set().Rules() {
		cat[string(r.ID)] = r.Spec.String()
	}
	for _, r := range inv.Rules {
		if _, ok := cat[r.ID]; !ok {
			t.Errorf("feature rule %s (%s:%d) is not in the reference catalog", r.ID, r.URI, r.Line)
		}
	}
	var missing []string
	for id, spec := range cat {
		if specHasFeatures(spec) && inv.Rule(id) == nil {
			missing = append(missing, id)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("%d catalog rules have no feature rule: %s", len(missing), strings.Join(missing, " "))
	}
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			break
		}
	}
	return string(b[i:])
}

// checkRejectionsCovered fails when the reference rejects with a rule that no
// executed negative scenario expects.
func checkRejectionsCovered(t *testing.T, rep *steps.Report, alts ...*steps.Report) {
	t.Helper()
	expected := map[string]bool{}
	for _, r := range append([]*steps.Report{rep}, alts...) {
		for _, s := range r.Scenarios {
			if s.Err == nil && !s.Skipped {
				for _, id := range s.Expected {
					expected[id] = true
				}
			}
		}
	}
	usage := ruleUsage(t, "../../impl")
	var missing []string
	for id, files := range usage {
		spec := strings.ToLower(strings.SplitN(id, "-", 2)[0])
		if !specHasFeatures(specName(spec)) {
			continue
		}
		if _, ok := unreachableRejections[id]; !expected[id] && !ok {
			missing = append(missing, id+" ("+strings.Join(uniq(files), ", ")+")")
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("%d rules the reference rejects with have no passing negative scenario (\"it is rejected by rule ...\"): %s", len(missing), strings.Join(missing, "; "))
	}
	for id, why := range unreachableRejections {
		if why == "" {
			t.Errorf("unreachableRejections gives no reason for %s", id)
		}
		if _, ok := usage[id]; !ok {
			t.Errorf("unreachableRejections names %s, which the reference does not reject with", id)
		}
		if expected[id] {
			t.Errorf("unreachableRejections names %s, yet a passing negative scenario expects it: remove the entry", id)
		}
	}
}

// unreachableRejections are the specs' Unreachable rules (steps.Wing): the
// rules the reference's code can report but no input can make it report.
var unreachableRejections = func() map[string]string {
	m := map[string]string{}
	for _, spec := range Steps() {
		maps.Copy(m, spec.Unreachable)
	}
	return m
}()

func specName(prefix string) string {
	switch prefix {
	case "hr":
		return "hiverelay"
	case "lt":
		return "libtracer"
	}
	return prefix
}

// specHasFeatures reports whether features/<spec>/ exists. Every spec of
// the catalog must have one (TestFeatures fails otherwise), so the checks
// that consult it apply to all three specs.
func specHasFeatures(spec string) bool {
	fi, err := os.Stat(filepath.Join(featuresDir, spec))
	return err == nil && fi.IsDir()
}

func uniq(s []string) []string {
	sort.Strings(s)
	out := s[:0]
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}
