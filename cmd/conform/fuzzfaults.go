package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/threespec/conformance/harness"
	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/internal/fault"
	"github.com/threespec/conformance/internal/reading"
	"github.com/threespec/conformance/reference"
)

// FaultFuzz is one fault of the proof fuzzed alone (conform fuzz --faults):
// whether fuzzing its spec's operations against the reference carrying it
// found a disagreement within the budget, and after how long.
type FaultFuzz struct {
	ID      string  `json:"id"`
	Spec    string  `json:"spec"`
	Mutant  bool    `json:"mutant"`
	Found   bool    `json:"found"`
	After   float64 `json:"after_seconds,omitempty"`
	Finding string  `json:"finding,omitempty"`
	// Reading, when set, is the alternative ("ID=ALT") the fault was found
	// under: a rule only an alternative rejects with is fuzzed under it,
	// as the proof runs branch vectors; After is then the time in that
	// attempt, and Execs counts every attempt.
	Reading string `json:"reading,omitempty"`
	Execs   int64  `json:"execs"`
}

// FaultFuzzReport is the summary of conform fuzz --faults.
type FaultFuzzReport struct {
	Seed   uint64      `json:"seed"`
	Budget float64     `json:"budget_seconds"`
	Jobs   int         `json:"jobs"`
	Faults []FaultFuzz `json:"faults"`
	Found  int         `json:"found"`
}

// faultsCmd is conform fuzz --faults: the proof's second column. Every
// rule fault (untestable rules aside, as in conform prove) and every named
// mutant is switched on in turn in the in-process reference, which is then
// fuzzed as a testee (its spec's operations only, no vector consulted)
// for at most the budget, stopping at the first disagreement.
func faultsCmd(cfg harness.FuzzConfig, glob string, jsonW io.Writer, stdout, stderr io.Writer) int {
	type job struct {
		id, spec string
		mutant   bool
	}
	var jobs []job
	for _, r := range specs.Rules() {
		if r.Untestable == "" {
			jobs = append(jobs, job{string(r.ID), string(r.Spec), false})
		}
	}
	for _, m := range specs.Mutants() {
		jobs = append(jobs, job{string(m.ID), string(m.Spec), true})
	}
	ctx, stop := harness.OnInterrupt(context.Background(), stderr, func() {})
	defer stop()
	rep := FaultFuzzReport{Seed: cfg.Seed, Budget: cfg.Time.Seconds(), Jobs: cfg.Jobs}
	start := time.Now()
	for _, j := range jobs {
		if ok, _ := path.Match(glob, j.id); glob != "" && !ok {
			continue
		}
		if len(cfg.Suites) > 0 && !contains(cfg.Suites, j.spec) {
			continue
		}
		if ctx.Err() != nil {
			break
		}
		f := FaultFuzz{ID: j.id, Spec: j.spec, Mutant: j.mutant}
		// The default readings first, then each other alternative of a
		// reading that decides the rule.
		for _, alt := range append([]string{""}, alternativesOf(j.id)...) {
			c := cfg
			c.Suites = []string{j.spec}
			checks := rules.Checks{Faults: fault.Of(j.id)}
			command := []string{"reference", "--fault", j.id}
			if alt != "" {
				id, name, _ := strings.Cut(alt, "=")
				checks.Readings = reading.Of(map[string]string{id: name})
				command = append(command, "--reading", alt)
			}
			c.Impl = reference.New(specs).WithChecks(checks)
			c.Testee = harness.TesteeInfo{Command: command, Mode: "in-process", Jobs: cfg.Jobs}
			c.StopAfter, c.ShrinkBudget = 1, 1
			r := harness.Fuzz(ctx, c)
			f.Execs += r.Execs
			if len(r.Findings) > 0 {
				f.Found, f.After, f.Finding, f.Reading = true, r.Findings[0].After, r.Findings[0].Key.String(), alt
				rep.Found++
				break
			}
			if ctx.Err() != nil {
				break
			}
		}
		rep.Faults = append(rep.Faults, f)
		verdict := "MISSED"
		if f.Found {
			verdict = fmt.Sprintf("found after %.2fs: %s", f.After, f.Finding)
			if f.Reading != "" {
				verdict += " (under " + f.Reading + ")"
			}
		}
		fmt.Fprintf(stdout, "%-44s %s\n", j.id, verdict)
	}
	fmt.Fprintf(stdout, "fuzz alone found %d of %d faults, each within %v (seed %d, -j %d, %.0fs)\n",
		rep.Found, len(rep.Faults), cfg.Time, cfg.Seed, cfg.Jobs, time.Since(start).Seconds())
	for _, sp := range specs.Names() {
		var n, found, mn, mfound int
		for _, f := range rep.Faults {
			if f.Spec != sp {
				continue
			}
			if f.Mutant {
				mn++
				if f.Found {
					mfound++
				}
			} else {
				n++
				if f.Found {
					found++
				}
			}
		}
		fmt.Fprintf(stdout, "  %-10s rule faults %d / %d, mutants %d / %d\n", sp, found, n, mfound, mn)
	}
	var missed []string
	for _, f := range rep.Faults {
		if !f.Found {
			missed = append(missed, f.ID)
		}
	}
	if len(missed) > 0 {
		fmt.Fprintf(stdout, "missed: %s\n", strings.Join(missed, " "))
	}
	fmt.Fprintf(stdout, "seed %d\n", cfg.Seed)
	if jsonW != nil {
		b, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			fmt.Fprintln(stderr, "conform fuzz:", err)
			return harness.ExitSetup
		}
		jsonW.Write(append(b, '\n'))
	}
	if ctx.Err() != nil {
		return harness.ExitInterrupted
	}
	if len(missed) > 0 {
		return 1
	}
	return 0
}

// alternativesOf lists the non-default alternatives ("ID=ALT") of the
// readings that decide rule id, in catalog order.
func alternativesOf(id string) []string {
	var out []string
	for _, rd := range specs.Readings() {
		if !slices.Contains(rd.Rules, rules.ID(id)) {
			continue
		}
		for _, a := range rd.Alternatives {
			if a.Name != rd.Default {
				out = append(out, string(rd.ID)+"="+a.Name)
			}
		}
	}
	return out
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}
