package vecgen

import (
	"testing"

	"github.com/threespec/conformance/vectorset"
)

func TestCheckFiring(t *testing.T) {
	t.Parallel()
	two := func(*Vector, []byte) ([]string, error) { return []string{"A", "B"}, nil }
	one := func(*Vector, []byte) ([]string, error) { return []string{"A"}, nil }
	neg := func(level, code string, acceptable []string, readings map[string]string) *Vector {
		v := &Vector{}
		v.ID, v.Expect, v.Code, v.Level, v.AcceptableCodes, v.Readings = "s/negative/x", vectorset.Reject, code, level, acceptable, readings
		return v
	}
	tests := []struct {
		name   string
		firing func(*Vector, []byte) ([]string, error)
		v      *Vector
		ok     bool
	}{
		{"one check fires", one, neg("MUST", "A", nil, nil), true},
		{"two fire, one expected at MUST", two, neg("MUST", "A", nil, nil), false},
		{"two fire, the other acceptable", two, neg("MUST", "A", []string{"B"}, nil), true},
		{"two fire, SHOULD", two, neg("SHOULD", "A", nil, nil), true},
		{"two fire, a reading orders them", two, neg("MUST", "A", nil, map[string]string{"X-READ-01": "a"}), true},
		{"code no check gives", one, neg("MUST", "C", nil, nil), false},
		{"acceptable code no check gives", one, neg("SHOULD", "A", []string{"C"}, nil), false},
		{"positive not held", two, &Vector{Vector: vectorset.Vector{Expect: vectorset.Accept, Level: "MUST"}}, true},
	}
	for _, tt := range tests {
		err := checkFiring(tt.firing, tt.v, nil)
		if (err == nil) != tt.ok {
			t.Errorf("%s: checkFiring = %v, want ok %v", tt.name, err, tt.ok)
		}
	}
}
