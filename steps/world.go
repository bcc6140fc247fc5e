// Package steps is the shared world of the Gherkin rules in features/: the
// runner (Run, Config, Report), the World every scenario's steps share, the
// steps every spec shares ("it is accepted", "it is rejected by rule ..."),
// and the hook a spec registers its own steps with (Spec). Steps build
// inputs and ask a testee.Implementation (the in-process reference, or any
// external program over the testee protocol); they never call the reference
// packages' parsers or constructors directly, so the same features check any
// implementation.
//
// Every spec has its own package (steps/<spec>) declaring its Spec, which
// holds the spec's impl/spec.Spec and keeps its per-scenario state in its
// own value; the commands (and the test helper internal/allspecs) list
// them for Run.
package steps

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/cucumber/godog"

	"github.com/threespec/conformance/impl/spec"
	"github.com/threespec/conformance/testee"
)

// Wing is one spec's steps, as its package declares them: the name of its
// features directory and the function that registers its steps for one
// scenario. Config.Specs passes them to Run.
type Wing struct {
	// Spec is the spec the steps are of: its features are
	// features/<Name>/, its rules, readings and prefix its own.
	Spec *spec.Spec
	// Register registers the spec's steps on sc for the scenario whose
	// shared state is w; it keeps the spec's own state in its own value.
	Register func(sc *godog.ScenarioContext, w *World)
	// Unreachable names the rules the reference's code can reject with but
	// that no input can make it report, each with the reason (a check that
	// runs only under fault injection, one another rule makes redundant, a
	// state no content-addressed input reaches). The features test asks
	// no negative scenario for them; each still needs a passing scenario.
	Unreachable map[string]string
}

// World is the state of one scenario: the request it sent last and what came
// back, plus per-spec input state kept by the spec step files.
type World struct {
	run *runState
	ctx context.Context

	scenario *godog.Scenario

	// The last request and its outcome.
	req     testee.Request
	sent    bool
	resp    testee.Response
	failure error // a testee failure (timeout, crash, invalid response)
}

// Name is the name of the steps' spec (lace, hiverelay, libtracer).
func (s Wing) Name() string { return string(s.Spec.Name) }

// RuleID reports whether id has the shape of a rule ID of the run's specs
// (docs/CONVENTIONS.md).
func (w *World) RuleID(id string) bool { return w.run.specs.RuleIDPattern().MatchString(id) }

// Call sends one request to the implementation under test and keeps the
// response for the Then steps. A scenario whose operation the testee does
// not claim is skipped (not applicable), never failed.
func (w *World) Call(op string, args any, input []byte) error {
	if !w.run.hello.Claims(op) {
		return fmt.Errorf("%w: the implementation does not claim %s", godog.ErrSkip, op)
	}
	raw := json.RawMessage("{}")
	if args != nil {
		b, err := json.Marshal(args)
		if err != nil {
			return err
		}
		raw = b
	}
	w.req = testee.Request{ID: w.run.nextID(), Op: op, Args: raw, Input: input}
	w.sent = true
	w.resp, w.failure = w.run.impl.Do(w.ctx, w.req)
	if w.failure != nil {
		var f *testee.Failure
		if errors.As(w.failure, &f) {
			return fmt.Errorf("testee failure on %s: %v", op, f)
		}
		return w.failure
	}
	if w.resp.Outcome == testee.Unsupported {
		return fmt.Errorf("%w: the implementation answers %s%s as unsupported", godog.ErrSkip, op, argsText(raw))
	}
	return nil
}

func argsText(raw json.RawMessage) string {
	if s := string(raw); s != "{}" {
		return " " + s
	}
	return ""
}

// Describe renders the last exchange for a failure message.
func (w *World) Describe() string {
	if !w.sent {
		return "no request was sent (the scenario has no When step before this Then)"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s%s on %d input bytes -> ", w.req.Op, argsText(w.req.Args), len(w.req.Input))
	switch w.resp.Outcome {
	case testee.Accepted:
		fmt.Fprintf(&b, "accepted: %s", Truncate(string(w.resp.Result), 400))
	case testee.Rejected:
		fmt.Fprintf(&b, "rejected: code %q", w.resp.Code)
		if w.resp.Rule != "" {
			fmt.Fprintf(&b, ", rule %s", w.resp.Rule)
		}
		if w.resp.Detail != "" {
			fmt.Fprintf(&b, ": %s", w.resp.Detail)
		}
	default:
		b.WriteString("unsupported")
	}
	return b.String()
}

// Truncate shortens s to n bytes for a failure message, marking the cut.
func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// Result decodes the accepted result into v.
func (w *World) Result(v any) error {
	if err := w.Accepted(); err != nil {
		return err
	}
	if err := json.Unmarshal(w.resp.Result, v); err != nil {
		return fmt.Errorf("result does not have the expected shape: %v (%s)", err, w.Describe())
	}
	return nil
}

// Accepted fails unless the last request was accepted.
func (w *World) Accepted() error {
	if !w.sent || w.resp.Outcome != testee.Accepted {
		return fmt.Errorf("expected acceptance, got %s", w.Describe())
	}
	return nil
}

// Rejected fails unless the last request was rejected.
func (w *World) Rejected() error {
	if !w.sent || w.resp.Outcome != testee.Rejected {
		return fmt.Errorf("expected rejection, got %s", w.Describe())
	}
	return nil
}

// rejectedByRule checks a rejection and, where the run checks rule IDs (the
// reference does; external testees need not report rules), that the testee
// names the expected rule. Every expected rule is recorded for the
// traceability test.
func (w *World) rejectedByRule(id string) error {
	if !w.RuleID(id) {
		return fmt.Errorf("%q is not a rule ID", id)
	}
	if err := w.Rejected(); err != nil {
		return err
	}
	if !w.RuleReported(id, w.resp.Rule) {
		return fmt.Errorf("expected rejection by rule %s, got %s", id, w.Describe())
	}
	return nil
}

// RuleReported records, for the traceability test, that the scenario
// expected rule expected where the implementation reported reported, and
// says whether that passes: where the run checks rule IDs (Config.StrictRules)
// the two must be equal.
func (w *World) RuleReported(expected, reported string) bool {
	w.run.record(w.scenario, expected, reported)
	return !w.run.strictRules || reported == expected
}

// Response is the answer to the last request (the zero Response before
// the first, or after a testee failure).
func (w *World) Response() testee.Response { return w.resp }

// Sent reports whether the scenario has sent a request.
func (w *World) Sent() bool { return w.sent }

func (w *World) rejectedWithCode(code string) error {
	if err := w.Rejected(); err != nil {
		return err
	}
	if w.resp.Code != code {
		return fmt.Errorf("expected code %q, got %s", code, w.Describe())
	}
	return nil
}

// registerCommon registers the steps every spec shares.
func registerCommon(sc *godog.ScenarioContext, w *World) {
	Register(sc, []Def{
		Then(`^it is accepted$`, w.Accepted),
		Then(`^it is rejected$`, w.Rejected),
		Then(`^it is rejected by rule ([A-Z0-9-]+)$`, w.rejectedByRule),
		Then(`^it is rejected with code "([^"]+)"$`, w.rejectedWithCode),
		Then(`^it is rejected by rule ([A-Z0-9-]+) with code "([^"]+)"$`, func(id, code string) error {
			if err := w.rejectedByRule(id); err != nil {
				return err
			}
			return w.rejectedWithCode(code)
		}),
	})
}
