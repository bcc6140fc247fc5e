// Package reference is the project's reference implementation behind the
// testee protocol (docs/PROTOCOL.md): an in-process testee.Implementation
// that answers every operation of the specs it is handed with their
// wings' handlers (spec.Op). The godog steps run against it by default,
// and `conform serve` speaks it over JSON Lines, so that the same checks
// run against the reference and against any external implementation.
package reference

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/threespec/conformance/impl/nfc17"
	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/impl/spec"
	"github.com/threespec/conformance/testee"
)

// Name is the implementation name the reference gives in its hello result.
const Name = "threespec reference"

// Reference is the in-process reference implementation. The zero value is
// not ready; use New. It is safe for concurrent use.
type Reference struct {
	specs *spec.Set
	ops   map[string]spec.Handler
	// env is what every handler answers under: the caps, and the checks
	// every parse and construction carries (faults and readings; the zero
	// Checks is the standard reference).
	env spec.Env
	// Undeclared keeps the readings the reference takes out of its hello:
	// it then behaves as a testee that reads the spec otherwise without
	// saying so (for testing conform's readings report).
	Undeclared bool
}

var _ testee.Implementation = (*Reference)(nil)

// New returns the standard reference implementation of the specs with
// their default caps: it enforces every rule and takes every default
// reading (WithChecks makes one that does not).
func New(specs *spec.Set) *Reference { return NewWithCaps(specs, DefaultCaps(specs)) }

// NewWithCaps returns the reference implementation of the specs with caps
// c on the bounds a request may ask for (hello advertises them).
func NewWithCaps(specs *spec.Set, c spec.Caps) *Reference {
	ops := map[string]spec.Handler{}
	for _, s := range specs.Specs() {
		for _, op := range s.Ops {
			ops[op.Name] = op.Handle
		}
	}
	return &Reference{specs: specs, ops: ops, env: spec.Env{Caps: c}}
}

// WithChecks returns a copy of r whose every parse and construction carries
// c: rules switched off, mutants switched on, readings taken. Hello
// declares c's readings.
func (r *Reference) WithChecks(c rules.Checks) *Reference {
	cp := *r
	cp.env.Checks = c
	return &cp
}

// Ops lists the operations the reference implements, sorted.
func (r *Reference) Ops() []string {
	ops := make([]string, 0, len(r.ops))
	for op := range r.ops {
		ops = append(ops, op)
	}
	sort.Strings(ops)
	return ops
}

// Profiles lists the profiles the reference claims (spec.Profile.Reference):
// the Lace Marks it verifies under the project's stand-in scheme, not
// under the real Lace 009.
func (r *Reference) Profiles() []string {
	var ps []string
	for _, p := range r.specs.Profiles() {
		if p.Reference {
			ps = append(ps, p.Name)
		}
	}
	return ps
}

// Implementation is the reference's implementation block (docs/PROTOCOL.md,
// "The implementation block"): its name (with the faults it was switched
// into, `conform serve --fault`, so that each faulty reference is an
// implementation of its own), the module's version and VCS revision from
// the build information, Go's version, and the Unicode version of the NFC
// tables compiled in (impl/nfc17).
func (r *Reference) Implementation() *testee.ImplementationInfo {
	b := testee.ReadBuild()
	info := &testee.ImplementationInfo{
		Name: Name, Version: b.Version, Language: "Go " + strings.TrimPrefix(b.Go, "go"),
		Source: "https://" + b.Module + " (reference/, conform serve)",
		Data:   map[string]string{"unicode": nfc17.TablesVersion},
	}
	if b.Module == "" || b.Module == "unknown" {
		info.Source = "conform serve"
	}
	if short := b.Revision[:min(len(b.Revision), 12)]; short != "" && !strings.Contains(info.Version, short) {
		info.Version += "+" + short // a (devel) build: the revision says which
		if b.Modified {
			info.Version += "+dirty"
		}
	}
	if ids := r.env.Checks.Faults.IDs(); len(ids) > 0 {
		info.Name += " with fault " + strings.Join(ids, ",")
	}
	return info
}

// Hello is the reference's hello result. It declares the readings the
// reference has been switched into (WithChecks; `conform serve
// --reading`), and none when it takes every default.
func (r *Reference) Hello() map[string]any {
	h := map[string]any{
		"protocol":       testee.ProtocolVersion,
		"implementation": r.Implementation(),
		"ops":            r.Ops(),
		"profiles":       r.Profiles(),
		"limits":         r.limits(),
	}
	if m := r.env.Checks.Readings.Map(); len(m) > 0 && !r.Undeclared {
		h["readings"] = m
	}
	return h
}

// Do answers one request. Rejections are Responses; the error is non-nil only
// for a request built wrong (wrapping testee.ErrInvalidRequest).
func (r *Reference) Do(ctx context.Context, req testee.Request) (testee.Response, error) {
	resp := testee.Response{ID: req.ID}
	if err := ctx.Err(); err != nil {
		return resp, err
	}
	var result any
	var err error
	if req.Op == testee.OpHello {
		result = r.Hello()
	} else if h, ok := r.ops[req.Op]; ok {
		result, err = h(r.env, req)
	} else {
		err = spec.Unsupported("operation %q is not implemented", req.Op)
	}
	switch {
	case err == nil:
		b, merr := spec.MarshalResult(result)
		if merr != nil {
			return resp, fmt.Errorf("reference: %s result: %w", req.Op, merr)
		}
		resp.Outcome, resp.Result = testee.Accepted, b
	case errors.Is(err, spec.ErrUnsupported):
		resp.Outcome, resp.Detail = testee.Unsupported, err.Error()
	case errors.Is(err, testee.ErrInvalidRequest):
		return resp, err
	default:
		resp.Outcome, resp.Detail = testee.Rejected, err.Error()
		resp.Rule = string(rules.RuleOf(err))
		resp.Code = rules.CodeOf(err)
		if resp.Code == "" {
			// Lace names no codes; the rule ID serves (PROTOCOL.md: any non-empty code).
			resp.Code = resp.Rule
		}
		if resp.Code == "" {
			resp.Code = "REJECTED"
		}
	}
	return resp, nil
}

// Close does nothing: the reference holds no resources.
func (r *Reference) Close() error { return nil }

// For returns the standard reference of one spec alone (for the tests of
// its wing).
func For(s *spec.Spec) *Reference { return New(spec.MustSet(s)) }

// Ask sends one request (id 1) and returns the response, checking that it
// echoes the id.
func (r *Reference) Ask(op, args string, input []byte) (testee.Response, error) {
	resp, err := r.Do(context.Background(), testee.Request{ID: 1, Op: op, Args: json.RawMessage(args), Input: input})
	if err == nil && resp.ID != 1 {
		err = fmt.Errorf("reference: %s answered id %d to id 1", op, resp.ID)
	}
	return resp, err
}
