package tracerfuzz

import (
	"fmt"
	"testing"

	"github.com/threespec/conformance/impl/libtracer"
	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/internal/fuzzgen"
)

// TestUnwritableRefused checks that the trees unwritable changes are ones
// the exact encoder refuses by the rule the change names (LT-OPT-04,
// LT-OPT-05), not by another rule that would hide it.
func TestUnwritableRefused(t *testing.T) {
	want := map[string]rules.ID{"children under PL=0": libtracer.RuleOptPL, "TS=1 without a stamp": libtracer.RuleOptTS}
	seen := map[string]int{}
	for seed := range uint64(300) {
		r := fuzzgen.New(seed, 2)
		frames := tree(r)
		if _, err := libtracer.EncodeExact(frames); err != nil {
			continue // refused before the change: not the change's rule
		}
		ops := unwritable(r, frames)
		if len(ops) == 0 {
			continue
		}
		seen[ops[0]]++
		_, err := libtracer.EncodeExact(frames)
		if got := rules.RuleOf(err); got != want[ops[0]] {
			t.Errorf("seed %d, %s: %v, want %s", seed, ops[0], err, want[ops[0]])
		}
	}
	for op := range want {
		if seen[op] == 0 {
			t.Errorf("%s never drawn in 300 trees", op)
		}
	}
}

// TestNestAtBudget checks that a nest as deep as its budget decodes and
// one level deeper fails with LT-NEST-03 (nesting_too_deep).
func TestNestAtBudget(t *testing.T) {
	n := 0
	for seed := range uint64(200) {
		r := fuzzgen.New(seed, 3)
		c := nestCase(r, map[string]any{"transport": "datagram"})
		var depth, budget int
		if _, err := fmt.Sscanf(c.Operators[0], "nest %d deep at budget %d", &depth, &budget); err != nil {
			t.Fatal(err)
		}
		v := libtracer.Decode(c.Input, libtracer.Limits{MaxOpenLevels: budget}).FirstError()
		switch {
		case depth <= budget && v != nil:
			t.Errorf("seed %d: %s: %v, want accepted", seed, c.Operators[0], v)
		case depth > budget:
			n++
			if v == nil || v.Rule != libtracer.RuleNestTooDeep {
				t.Errorf("seed %d: %s: %v, want %s", seed, c.Operators[0], v, libtracer.RuleNestTooDeep)
			}
		}
	}
	if n == 0 {
		t.Error("no nest deeper than its budget drawn")
	}
}
