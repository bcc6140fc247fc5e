package steps

import (
	"context"
	"fmt"
	"io"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/cucumber/godog"

	"github.com/threespec/conformance/impl/lace/lacespec"
	"github.com/threespec/conformance/testee"
)

// rejecter answers hello with unsupported (claiming every operation) and
// rejects every other request, naming rule.
type rejecter struct{ rule string }

func (r rejecter) Do(_ context.Context, req testee.Request) (testee.Response, error) {
	if req.Op == testee.OpHello {
		return testee.Response{ID: req.ID, Outcome: testee.Unsupported}, nil
	}
	return testee.Response{ID: req.ID, Outcome: testee.Rejected, Code: "X", Rule: r.rule}, nil
}

func (rejecter) Close() error { return nil }

const fakeFeature = `Feature: fake
  Scenario: a rejection
    Given the fake input
    When it is asked
    Then it is rejected by rule LACE-FIELD-03
`

// fakeSpec registers the two steps of fakeFeature that are not common.
var fakeSpec = Wing{Spec: lacespec.Spec, Register: func(sc *godog.ScenarioContext, w *World) {
	sc.Given(`^the fake input$`, func() error { return nil })
	sc.When(`^it is asked$`, func() error { return w.Call(lacespec.OpRecord, nil, []byte("x")) })
}}

// Run registers the common steps and those of every Spec it is given, and
// reports the rule each "rejected by rule" step expected beside the one the
// implementation reported; StrictRules makes a different rule fail.
func TestRunRegistersSpecs(t *testing.T) {
	tests := []struct {
		name     string
		specs    []Wing
		reported string
		strict   bool
		status   int
		record   bool // the scenario's expected and reported rules are recorded
	}{
		{"the spec's steps, the rule reported", []Wing{fakeSpec}, "LACE-FIELD-03", true, 0, true},
		{"another rule, strict", []Wing{fakeSpec}, "LACE-FIELD-04", true, 1, true},
		{"another rule, not strict", []Wing{fakeSpec}, "LACE-FIELD-04", false, 0, true},
		{"no spec: undefined steps", nil, "LACE-FIELD-03", true, 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := Run(context.Background(), Config{
				Impl: rejecter{tt.reported}, Wings: tt.specs, StrictRules: tt.strict,
				Options: godog.Options{FS: fstest.MapFS{"f/fake.feature": {Data: []byte(fakeFeature)}}, Paths: []string{"f"}, Output: io.Discard},
			})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Status != tt.status {
				t.Errorf("status %d, want %d", rep.Status, tt.status)
			}
			if len(rep.Scenarios) != 1 {
				t.Fatalf("%d scenarios reported, want 1", len(rep.Scenarios))
			}
			s := rep.Scenarios[0]
			if got := slices.Equal(s.Expected, []string{"LACE-FIELD-03"}) && slices.Equal(s.Reported, []string{tt.reported}); got != tt.record {
				t.Errorf("expected %q, reported %q; recorded: %v, want %v", s.Expected, s.Reported, got, tt.record)
			}
		})
	}
}

// A registration table's rows answer steps of their own keyword only (an
// And takes the keyword before it), with the expression's groups as
// arguments.
func TestRegisterKeywords(t *testing.T) {
	tests := []struct {
		name, steps string
		status      int
	}{
		{"each row its keyword", "Given a 1\n    When b\n    Then c\n    And c", 0},
		{"a When row answers no Given", "Given b", 1},
		{"a Then row answers no When", "Given a 1\n    When c", 1},
		{"a Given row answers no Then", "Then a 1", 1},
		{"the group reaches the handler", "Given a 2", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := Wing{Spec: lacespec.Spec, Register: func(sc *godog.ScenarioContext, w *World) {
				Register(sc, []Def{
					Given(`^a (\d+)$`, func(n int) error {
						if n != 1 {
							return fmt.Errorf("a %d", n)
						}
						return nil
					}),
					When(`^b$`, func() error { return nil }),
				}, []Def{Then(`^c$`, func() error { return nil })})
			}}
			feature := "Feature: table\n  Scenario: s\n    " + tt.steps + "\n"
			rep, err := Run(context.Background(), Config{Impl: rejecter{}, Wings: []Wing{spec},
				Options: godog.Options{FS: fstest.MapFS{"f/t.feature": {Data: []byte(feature)}}, Paths: []string{"f"}, Output: io.Discard}})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Status != tt.status {
				t.Errorf("status %d, want %d", rep.Status, tt.status)
			}
		})
	}
}
