// Package reference is the project's reference implementation behind the
// testee protocol (docs/PROTOCOL.md): an in-process testee.Implementation
// that answers every operation with the packages under impl/. The godog
// steps run against it by default, and `conform serve` speaks it over JSON
// Lines, so that the same checks run against the reference and against any
// external implementation.
package reference

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/testee"
)

// Name is the implementation name the reference gives in its hello result.
const Name = "threespec reference"

// handler answers one operation under env. It returns the result for
// accepted input, or an error: a *rules.Violation (or an error wrapping one)
// for rejected input, errUnsupported for arguments it does not implement,
// or testee.ErrInvalidRequest (wrapped) for a request built wrong.
type handler func(e env, req testee.Request) (any, error)

// env is what a handler answers under: the caps on the bounds a request may
// ask for (caps.go), checked before any work, and the rules.Checks every
// parse and construction it runs carries.
type env struct {
	caps   Caps
	checks rules.Checks
}

// errUnsupported marks a request whose arguments the reference does not
// implement (the mark mode 009, for example); it is answered with
// unsupported, never as a rejection.
var errUnsupported = errors.New("unsupported")

func unsupported(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errUnsupported, fmt.Sprintf(format, args...))
}

// handlers maps each operation to its handler; the per-specification tables
// live beside their handlers (lace.go, hiverelay.go, libtracer.go).
func handlers() map[string]handler {
	m := map[string]handler{}
	for _, t := range []map[string]handler{laceOps, hiveRelayOps, libtracerOps} {
		for op, h := range t {
			m[op] = h
		}
	}
	return m
}

// Reference is the in-process reference implementation. The zero value is
// not ready; use New. It is safe for concurrent use.
type Reference struct {
	ops map[string]handler
	// env is what every handler answers under: the caps, and the checks
	// every parse and construction carries (faults and readings; the zero
	// Checks is the standard reference).
	env env
	// Undeclared keeps the readings the reference takes out of its hello:
	// it then behaves as a testee that reads the spec otherwise without
	// saying so (for testing conform's readings report).
	Undeclared bool
}

var _ testee.Implementation = (*Reference)(nil)

// New returns the standard reference implementation with the default caps:
// it enforces every rule and takes every default reading (WithChecks makes
// one that does not).
func New() *Reference { return NewWithCaps(DefaultCaps()) }

// NewWithCaps returns the reference implementation with caps c on the
// bounds a request may ask for (hello advertises them).
func NewWithCaps(c Caps) *Reference { return &Reference{ops: handlers(), env: env{caps: c}} }

// WithChecks returns a copy of r whose every parse and construction carries
// c: rules switched off, mutants switched on, readings taken. Hello
// declares c's readings.
func (r *Reference) WithChecks(c rules.Checks) *Reference {
	cp := *r
	cp.env.checks = c
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

// Profiles lists the profiles the reference claims. It verifies Marks under
// the project's stand-in scheme, not under the real Lace 009.
func (r *Reference) Profiles() []string {
	return []string{testee.ProfileLaceMarkBIP340Standin}
}

// Hello is the reference's hello result. It declares the readings the
// reference has been switched into (WithChecks; `conform serve
// --reading`), and none when it takes every default.
func (r *Reference) Hello() map[string]any {
	h := map[string]any{
		"protocol":       testee.ProtocolVersion,
		"implementation": Name,
		"ops":            r.Ops(),
		"profiles":       r.Profiles(),
		"limits":         r.env.caps.limits(),
	}
	if m := r.env.checks.Readings.Map(); len(m) > 0 && !r.Undeclared {
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
		err = unsupported("operation %q is not implemented", req.Op)
	}
	switch {
	case err == nil:
		b, merr := marshalResult(result)
		if merr != nil {
			return resp, fmt.Errorf("reference: %s result: %w", req.Op, merr)
		}
		resp.Outcome, resp.Result = testee.Accepted, b
	case errors.Is(err, errUnsupported):
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

// decodeArgs decodes req's arguments into v, reporting a malformed object as
// a request built wrong.
func decodeArgs(req testee.Request, v any) error {
	if err := req.DecodeArgs(v); err != nil {
		return fmt.Errorf("%w: %s args: %v", testee.ErrInvalidRequest, req.Op, err)
	}
	return nil
}
