package prove

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"time"
)

// Entry is what the recorded proof says of one fault: the vectors and
// scenarios that catch it (internal/rulesdoc lists them in features/RULES.md).
type Entry struct {
	Vectors   []string `json:"vectors"`
	Scenarios []string `json:"scenarios"`
}

// Record is the proof file (manifest/proof.json): by rule or mutant ID.
// Untestable rules are listed with the reason instead.
type Record struct {
	Format    string `json:"format"`
	Generated string `json:"generated_by"`
	Features  string `json:"features"` // "always", "when-needed" or "never"
	// Inputs identifies the vectors and features the proof ran against
	// (Inputs): each suite's set hash and the features' digest.
	Inputs     map[string]string `json:"inputs"`
	Faults     map[string]Entry  `json:"faults"`
	Untestable map[string]string `json:"untestable"`
}

// RecordFormat is the value of Record.Format.
const RecordFormat = "threespec-fault-proof/1"

// NewRecord builds the proof file from a run's outcomes. It refuses
// outcomes whose vector lists are incomplete (Options.VerdictOnly): the
// record says which vectors catch each fault, so it must list them all.
func NewRecord(out []Outcome, untestable []Target, features FeaturesMode, inputs map[string]string) (*Record, error) {
	for _, o := range out {
		if o.LargeSkipped > 0 {
			return nil, fmt.Errorf("prove: %s: %d large vectors were not run (verdict-only proof); a proof record needs every vector", o.ID, o.LargeSkipped)
		}
	}
	r := &Record{Format: RecordFormat, Generated: "go run ./cmd/conform prove -write", Inputs: inputs, Faults: map[string]Entry{}, Untestable: map[string]string{}}
	r.Features = map[FeaturesMode]string{FeaturesNever: "never", FeaturesWhenNeeded: "when-needed", FeaturesAlways: "always"}[features]
	for _, o := range out {
		e := Entry{Vectors: o.Vectors, Scenarios: o.Scenarios}
		if e.Vectors == nil {
			e.Vectors = []string{}
		}
		if e.Scenarios == nil {
			e.Scenarios = []string{}
		}
		r.Faults[o.ID] = e
	}
	for _, t := range untestable {
		r.Untestable[t.ID] = t.Text
	}
	return r, nil
}

// Marshal writes the record deterministically (sorted keys, indented, final LF).
func (r *Record) Marshal() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Summary prints the counts of a proof: caught and survived rules and
// mutants per spec, the untestable rules, the survivors by name, and the
// time it took.
func Summary(w io.Writer, out []Outcome, untestable []Target, d time.Duration) (survived int) {
	type counts struct{ rules, rulesCaught, mutants, mutantsCaught, untestable int }
	per := map[string]*counts{}
	get := func(s string) *counts {
		if per[s] == nil {
			per[s] = &counts{}
		}
		return per[s]
	}
	var survivors []string
	byVectors, byScenariosOnly := 0, 0
	for _, o := range out {
		c := get(o.Spec)
		if o.Mutant {
			c.mutants++
		} else {
			c.rules++
		}
		switch {
		case !o.Caught():
			survivors = append(survivors, fmt.Sprintf("  %s: %s", o.ID, o.Text))
		case o.Mutant:
			c.mutantsCaught++
		default:
			c.rulesCaught++
		}
		if len(o.Vectors) > 0 {
			byVectors++
		} else if len(o.Scenarios) > 0 {
			byScenariosOnly++
		}
	}
	for _, t := range untestable {
		if c := per[t.Spec]; c != nil { // only the specs this run proved
			c.untestable++
		}
	}
	specs := make([]string, 0, len(per))
	for s := range per {
		specs = append(specs, s)
	}
	sort.Strings(specs)
	fmt.Fprintf(w, "%-10s %16s %16s %11s\n", "spec", "rule faults", "mutants", "untestable")
	for _, s := range specs {
		c := per[s]
		fmt.Fprintf(w, "%-10s %7d/%-8d %7d/%-8d %11d\n", s, c.rulesCaught, c.rules, c.mutantsCaught, c.mutants, c.untestable)
	}
	fmt.Fprintf(w, "caught by vectors: %d; by scenarios only: %d; survived: %d; in %s\n", byVectors, byScenariosOnly, len(survivors), d.Round(time.Millisecond))
	if len(survivors) > 0 {
		fmt.Fprintf(w, "SURVIVED (gaps in the suite):\n")
		for _, s := range survivors {
			fmt.Fprintln(w, s)
		}
	}
	return len(survivors)
}
