package libtracer

import (
	"bytes"
	"io"
	"testing"

	"github.com/threespec/conformance/internal/fault"
)

// With the rule of each rejected input switched off, every parser carries
// on without panicking or reading out of bounds, and no longer reports that
// rule: the suite can tell an implementation that skips it.
func TestFaultsCarryOn(t *testing.T) {
	for _, c := range rejectCases(t) {
		t.Run(c.name, func(t *testing.T) {
			restore := fault.Set(string(c.rule))
			defer restore()
			if v := Decode(c.in, c.lim).FirstError(); v != nil && v.Rule == c.rule {
				t.Fatalf("%s switched off, still reported: %v", c.rule, v)
			}
			Validate(c.in, c.lim)
			for _, cuts := range cutSets(len(c.in))[:min(len(cutSets(len(c.in))), 50)] {
				DecodeRope(NewRope(viewsOf(c.in, cuts, true)...), c.lim)
			}
			d := NewStreamDecoder(bytes.NewReader(c.in), c.lim)
			for range 100 {
				if _, err := d.Next(); err == io.EOF || (err != nil && asViolation(err) == nil) {
					break
				}
			}
		})
	}
}

// Construction rules give other bytes when switched off.
func TestConstructionFaults(t *testing.T) {
	tree := []Frame{{Type: 1, Opt: OptCR, Payload: spb}}
	good, _ := Encode(tree)
	restore := fault.Set(string(RuleIopSmallest))
	bad, err := Encode(tree)
	restore()
	if err != nil || bytes.Equal(good, bad) {
		t.Fatalf("LT-IOP-02 off: %x, %v", bad, err)
	}
	wire := hx(t, "01 10 05 00 aa bb cc dd ee b6 c9 12 23")
	good, _ = Strip(wire, Limits{})
	restore = fault.Set(string(RuleLifeAtRest))
	bad, err = Strip(wire, Limits{})
	restore()
	if err != nil || bytes.Equal(good, bad) {
		t.Fatalf("LT-LIFE-01 off: %x, %v", bad, err)
	}
}
