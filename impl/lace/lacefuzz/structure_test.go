package lacefuzz

import (
	"testing"

	"github.com/threespec/conformance/impl/lace/lacespec"
	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/impl/spec"
	"github.com/threespec/conformance/internal/fault"
	"github.com/threespec/conformance/internal/fuzzgen"
	"github.com/threespec/conformance/testee"
)

// handle runs c through the reference's handler of op under the checks
// with every fault in off switched off.
func handle(t *testing.T, op string, c fuzzgen.Case, off ...string) (any, error) {
	t.Helper()
	caps := spec.Caps{}
	for _, cp := range lacespec.Spec.Caps {
		caps[cp.Name] = cp.Default
	}
	env := spec.Env{Caps: caps, Checks: rules.Checks{Faults: fault.Of(off...)}}
	for _, o := range lacespec.Spec.Ops {
		if o.Name == op {
			return o.Handle(env, testee.Request{Op: op, Args: c.Args, Input: c.Input})
		}
	}
	t.Fatalf("no operation %s", op)
	return nil, nil
}

// answer is handle's rejection rule ("" accepted) and error.
func answer(t *testing.T, op string, c fuzzgen.Case, off ...string) (rules.ID, error) {
	t.Helper()
	_, err := handle(t, op, c, off...)
	return rules.RuleOf(err), err
}

// TestStructDefects checks each structure defect over many drawn models:
// the clean reference rejects it by the rule it is about (its first
// fault), and the reference with any one of its faults switched on
// accepts it, so that fuzz alone finds each fault (issue 27).
func TestStructDefects(t *testing.T) {
	const draws = 60
	for i, d := range structDefects {
		t.Run(d.name, func(t *testing.T) {
			for n := range uint64(draws) {
				r := fuzzgen.New(27, n*64+uint64(i))
				c := structCaseOf(r, model(r), i)
				if c.Operators[0] != d.name {
					t.Fatalf("operators %v, want %s", c.Operators, d.name)
				}
				reachesItsRule(t, lacespec.OpRecord, n, c, d.faults)
			}
		})
	}
}

// TestTreeDefects checks the chunk and directory defects added for
// issue 27 the same way.
func TestTreeDefects(t *testing.T) {
	cases := []struct {
		op, defect string
		faults     []string
		gen        func(*fuzzgen.Rand, string) fuzzgen.Case
	}{
		{lacespec.OpChunks, "kid-sealed-node", []string{"LACE-CHUNK-07"}, chunksOf},
		{lacespec.OpChunks, "overflow-wraps", []string{"LACE-CHUNK-14"}, chunksOf},
		{lacespec.OpDirectory, "names-not-values", []string{"LACE-DIR-16", "LACE-DIR-18"}, directoryOf},
	}
	for _, tc := range cases {
		t.Run(tc.defect, func(t *testing.T) {
			for n := range uint64(40) {
				c := tc.gen(fuzzgen.New(27, n), tc.defect)
				reachesItsRule(t, tc.op, n, c, tc.faults)
			}
		})
	}
}

// reachesItsRule holds draw n, case c of op, to its defect: the clean
// reference rejects it by faults[0], and with any one of faults switched
// off accepts it.
func reachesItsRule(t *testing.T, op string, n uint64, c fuzzgen.Case, faults []string) {
	t.Helper()
	rule, err := answer(t, op, c)
	if string(rule) != faults[0] {
		t.Fatalf("draw %d (%s): clean reference: %v, want rule %s\n%q", n, c.Parent, err, faults[0], c.Input)
	}
	for _, f := range faults {
		if _, err := answer(t, op, c, f); err != nil {
			t.Fatalf("draw %d (%s): with %s switched off: %v, want accepted\n%q", n, c.Parent, f, err, c.Input)
		}
	}
}

// TestReglyph checks that reglyph makes every digest of a record whose
// payload was changed match again, and leaves the inner ones alone when
// asked to.
func TestReglyph(t *testing.T) {
	for n := range uint64(30) {
		r := fuzzgen.New(1, n)
		m := model(r)
		m.defect, m.fields = "", nil
		b := m.bytes()
		at := glyphLines(b)
		if want := int(m.form); len(at) != want {
			t.Fatalf("%s: %d glyph lines, want %d", m, len(at), want)
		}
		if got := reglyph(b, len(at)); string(got) != string(b) {
			t.Fatalf("%s: reglyph changed a valid record:\n%q\n%q", m, b, got)
		}
	}
}

// TestPageOfPages checks the page-of-pages variant: a valid directory the
// clean reference accepts, whose answer differs with LACE-DIR-26 switched
// off (the further page not followed).
func TestPageOfPages(t *testing.T) {
	for n := range uint64(40) {
		c := directoryOf(fuzzgen.New(27, n), "page-of-pages")
		if _, err := answer(t, lacespec.OpDirectory, c); err != nil {
			t.Fatalf("draw %d (%s): clean reference: %v, want accepted\n%q", n, c.Parent, err, c.Input)
		}
		clean, _ := result(t, lacespec.OpDirectory, c)
		faulty, err := result(t, lacespec.OpDirectory, c, "LACE-DIR-26")
		if err == nil && faulty == clean {
			t.Fatalf("draw %d (%s): same answer with LACE-DIR-26 switched off: %s", n, c.Parent, clean)
		}
	}
}

// result is the reference's encoded result of c under off.
func result(t *testing.T, op string, c fuzzgen.Case, off ...string) (string, error) {
	t.Helper()
	v, err := handle(t, op, c, off...)
	if err != nil {
		return "", err
	}
	b, err := spec.MarshalResult(v)
	return string(b), err
}
