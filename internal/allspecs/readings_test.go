package allspecs

import (
	"context"
	"strings"
	"testing"

	"github.com/cucumber/godog"

	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/internal/reading"
	"github.com/threespec/conformance/reference"
	"github.com/threespec/conformance/steps"
)

// featureAlternatives returns steps.FeatureAlternatives of the features;
// a @reading tag that names no reading or alternative of the catalog
// fails the test.
func featureAlternatives(t *testing.T) map[string][]string {
	t.Helper()
	alts, err := steps.FeatureAlternatives(Set(), []string{featuresDir})
	if err != nil {
		t.Fatal(err)
	}
	return alts
}

// TestReadingScenarios: every @reading tag of the features names a reading
// of the catalog and one of its alternatives; for every non-default
// alternative a scenario shows, the feature files holding it pass against
// the reference switched into that branch and declaring it in hello, with
// the alternative's scenarios run and the default's set aside.
func TestReadingScenarios(t *testing.T) {
	alts := featureAlternatives(t)
	if len(alts) == 0 {
		t.Fatal("no scenario shows a non-default alternative")
	}
	for k, paths := range alts {
		t.Run(k, func(t *testing.T) {
			id, alt, _ := strings.Cut(k, "=")
			ref := reference.New(Set()).WithChecks(rules.Checks{Readings: reading.Of(map[string]string{id: alt})})
			rep, err := steps.Run(context.Background(), steps.Config{Impl: ref, Wings: Steps(), StrictRules: false,
				Options: godog.Options{Paths: paths, Format: "progress", TestingT: t}})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Status != 0 {
				t.Fatalf("godog status %d under %s", rep.Status, k)
			}
			var ran, setAside int
			for _, s := range rep.Scenarios {
				switch {
				case strings.Contains(s.Name, alt) && !s.Skipped && s.Err == nil:
					ran++
				case s.Skipped:
					setAside++
				}
			}
			if ran == 0 || setAside == 0 {
				t.Errorf("under %s: %d scenarios of the branch ran, %d set aside", k, ran, setAside)
			}
		})
	}
}
