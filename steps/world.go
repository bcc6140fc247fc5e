// Package steps holds the godog step definitions of the Gherkin rules in
// features/. Steps build inputs and ask a testee.Implementation (the
// in-process reference, or any external program over the testee protocol);
// they never call the reference packages' parsers or constructors directly,
// so the same features check any implementation.
//
// Every spec has its own step file (lace.go, hiverelay.go, libtracer.go)
// that registers its steps with register, keeping its per-scenario state in
// its own value; world.go holds the steps every spec shares ("it is
// accepted", "it is rejected by rule ...").
package steps

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/cucumber/godog"

	"github.com/threespec/conformance/testee"
)

// registrars are the per-spec step registrations, added by each spec's step
// file in its init function.
var registrars []func(sc *godog.ScenarioContext, w *World)

func register(f func(sc *godog.ScenarioContext, w *World)) { registrars = append(registrars, f) }

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

// RuleIDPattern is the shape of every rule ID (docs/CONVENTIONS.md).
var RuleIDPattern = regexp.MustCompile(`^(LACE|HR|LT)-[A-Z0-9]+-[0-9]{2}$`)

// call sends one request to the implementation under test and keeps the
// response for the Then steps. A scenario whose operation the testee does
// not claim is skipped (not applicable), never failed.
func (w *World) call(op string, args any, input []byte) error {
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

// describe renders the last exchange for a failure message.
func (w *World) describe() string {
	if !w.sent {
		return "no request was sent (the scenario has no When step before this Then)"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s%s on %d input bytes -> ", w.req.Op, argsText(w.req.Args), len(w.req.Input))
	switch w.resp.Outcome {
	case testee.Accepted:
		fmt.Fprintf(&b, "accepted: %s", truncate(string(w.resp.Result), 400))
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

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// result decodes the accepted result into v.
func (w *World) result(v any) error {
	if err := w.accepted(); err != nil {
		return err
	}
	if err := json.Unmarshal(w.resp.Result, v); err != nil {
		return fmt.Errorf("result does not have the expected shape: %v (%s)", err, w.describe())
	}
	return nil
}

func (w *World) accepted() error {
	if !w.sent || w.resp.Outcome != testee.Accepted {
		return fmt.Errorf("expected acceptance, got %s", w.describe())
	}
	return nil
}

func (w *World) rejected() error {
	if !w.sent || w.resp.Outcome != testee.Rejected {
		return fmt.Errorf("expected rejection, got %s", w.describe())
	}
	return nil
}

// rejectedByRule checks a rejection and, where the run checks rule IDs (the
// reference does; external testees need not report rules), that the testee
// names the expected rule. Every expected rule is recorded for the
// traceability test.
func (w *World) rejectedByRule(id string) error {
	if !RuleIDPattern.MatchString(id) {
		return fmt.Errorf("%q is not a rule ID", id)
	}
	if err := w.rejected(); err != nil {
		return err
	}
	w.run.record(w.scenario, id, w.resp.Rule)
	if w.run.strictRules && w.resp.Rule != id {
		return fmt.Errorf("expected rejection by rule %s, got %s", id, w.describe())
	}
	return nil
}

func (w *World) rejectedWithCode(code string) error {
	if err := w.rejected(); err != nil {
		return err
	}
	if w.resp.Code != code {
		return fmt.Errorf("expected code %q, got %s", code, w.describe())
	}
	return nil
}

// registerCommon registers the steps every spec shares.
func registerCommon(sc *godog.ScenarioContext, w *World) {
	sc.Then(`^it is accepted$`, w.accepted)
	sc.Then(`^it is rejected$`, w.rejected)
	sc.Then(`^it is rejected by rule ([A-Z0-9-]+)$`, w.rejectedByRule)
	sc.Then(`^it is rejected with code "([^"]+)"$`, w.rejectedWithCode)
	sc.Then(`^it is rejected by rule ([A-Z0-9-]+) with code "([^"]+)"$`, func(id, code string) error {
		if err := w.rejectedByRule(id); err != nil {
			return err
		}
		return w.rejectedWithCode(code)
	})
}
