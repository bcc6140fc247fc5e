package vecgen

import (
	"encoding/json"
	"testing"

	"github.com/threespec/conformance/vectorset"
)

func TestCheckFiring(t *testing.T) {
	t.Parallel()
	two := func(string, json.RawMessage, []byte, map[string]string) ([]string, error) {
		return []string{"A", "B"}, nil
	}
	one := func(string, json.RawMessage, []byte, map[string]string) ([]string, error) { return []string{"A"}, nil }
	neg := func(level, code string, acceptable []string, readings map[string]string) *Vector {
		v := &Vector{}
		v.ID, v.Expect, v.Code, v.Level, v.AcceptableCodes, v.Readings = "s/negative/x", vectorset.Reject, code, level, acceptable, readings
		return v
	}
	tests := []struct {
		name   string
		firing func(string, json.RawMessage, []byte, map[string]string) ([]string, error)
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

func TestWidened(t *testing.T) {
	rej := func(code string, acceptable ...string) *vectorset.Vector {
		return &vectorset.Vector{Op: "s.op", BLAKE2b: "h", Size: 1, Expect: vectorset.Reject, Code: code, AcceptableCodes: acceptable}
	}
	tests := []struct {
		name string
		o, n *vectorset.Vector
		want bool
	}{
		{"an acceptable code added", rej("A"), rej("A", "B"), true},
		{"the preferred code swapped with an acceptable one", rej("A", "B"), rej("B", "A"), true},
		{"a required code made any code", rej("A", "B"), rej(""), true},
		{"another code", rej("A"), rej("B"), false},
		{"an acceptable code dropped", rej("A", "B"), rej("A"), false},
		{"any code made one", rej(""), rej("A"), false},
		{"unchanged", rej("A"), rej("A"), false},
		{"other bytes", rej("A"), &vectorset.Vector{Op: "s.op", BLAKE2b: "g", Size: 1, Expect: vectorset.Reject, Code: "A", AcceptableCodes: []string{"B"}}, false},
	}
	for _, tt := range tests {
		if got := widened(tt.o, tt.n); got != tt.want {
			t.Errorf("%s: widened = %v, want %v", tt.name, got, tt.want)
		}
	}
}
