package vectorset

import (
	"encoding/json"
	"fmt"
	"regexp"
)

// FoundEntry is one case of a found corpus (found/<suite>/<name>.json, as
// Go keeps testdata/fuzz): an input `conform fuzz` found a testee to
// disagree on with the reference, kept so that vecgen makes it a vector
// of the suite's found family from then on. `conform fuzz --out DIR`
// writes one beside each candidate vector (DIR/found/<suite>/); keeping
// it is copying it into found/<suite>/ and regenerating.
type FoundEntry struct {
	Op    string          `json:"op"`
	Args  json.RawMessage `json:"args"`
	Input []byte          `json:"input"` // standard base64 in JSON
	// Expect, Code, AcceptableCodes and Rules are the candidate's: what
	// the reference answered (vecgen checks them against it again), the
	// codes other check orders the spec allows give first, and the rules
	// the vector tests.
	Expect          string   `json:"expect"`
	Code            string   `json:"code,omitempty"`
	AcceptableCodes []string `json:"acceptable_codes,omitempty"`
	Rules           []string `json:"rules"`
	// Readings are those the expectation depends on, at the alternative
	// it encodes.
	Readings map[string]string `json:"readings,omitempty"`
	// Why says what disagreed; Provenance where it came from.
	Why        string          `json:"why"`
	Provenance FoundProvenance `json:"provenance"`
}

// FoundProvenance is where a found case came from: the run (seed, case
// number), the generator and the mutation operators that made the input,
// the structure it was made from, the testee that disagreed and how, and
// the input's size before shrinking.
type FoundProvenance struct {
	Seed       uint64   `json:"seed"`
	Case       int64    `json:"case"`
	Generator  string   `json:"generator"`
	Operators  []string `json:"operators,omitempty"`
	Parent     string   `json:"parent,omitempty"`
	Testee     string   `json:"testee"`
	Finding    string   `json:"finding"`
	ShrunkFrom int      `json:"shrunk_from"`
}

var foundName = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// ParseFoundEntry reads and checks one corpus entry named name (its file
// name without .json).
func ParseFoundEntry(name string, b []byte) (*FoundEntry, error) {
	var e FoundEntry
	if err := json.Unmarshal(b, &e); err != nil {
		return nil, fmt.Errorf("found entry %s: %v", name, err)
	}
	bad := func(what string) (*FoundEntry, error) { return nil, fmt.Errorf("found entry %s: %s", name, what) }
	switch {
	case !foundName.MatchString(name):
		return bad("the name is not lower-case words joined by '-'")
	case e.Op == "":
		return bad("names no op")
	case e.Expect != Accept && e.Expect != Reject:
		return bad(fmt.Sprintf("expect is %q", e.Expect))
	case len(e.Rules) == 0:
		return bad("names no rule")
	case e.Why == "" || e.Provenance.Generator == "" || e.Provenance.Testee == "" || e.Provenance.Finding == "":
		return bad("needs why, and a provenance naming the generator, the testee and the finding")
	}
	return &e, nil
}
