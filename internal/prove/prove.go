// Package prove shows that the conformance suite catches what it claims: for
// every rule (and every named mutant, a classic implementation mistake) it
// switches off that one rule's enforcement in the reference implementation
// (internal/fault) and runs the vector sets and the Gherkin features against
// it. A rule is caught when at least one vector or scenario fails; a rule
// that survives is a gap in the suite.
//
// Vectors are judged as conform judges an external testee: by outcome, code
// and result fields, never by the rule ID a testee reports, since testees
// need not report rules. For the same reason the features run with rule IDs
// unchecked.
package prove

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/cucumber/godog"

	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/impl/spec"
	"github.com/threespec/conformance/internal/fault"
	"github.com/threespec/conformance/internal/parallel"
	"github.com/threespec/conformance/internal/reading"
	"github.com/threespec/conformance/reference"
	"github.com/threespec/conformance/steps"
	"github.com/threespec/conformance/testee"
	"github.com/threespec/conformance/vectorset"
)

// Targets lists every fault the proof injects: each rule of the catalogs
// that is not marked Untestable, then each named mutant. The untestable
// rules are returned separately, for the report.
func Targets(specs *spec.Set) (targets, untestable []Target) {
	for _, r := range specs.Rules() {
		t := Target{ID: string(r.ID), Spec: r.Spec.String(), Text: r.Text}
		if r.Untestable != "" {
			t.Text = r.Untestable
			untestable = append(untestable, t)
			continue
		}
		targets = append(targets, t)
	}
	for _, m := range specs.Mutants() {
		targets = append(targets, Target{ID: string(m.ID), Spec: m.Spec.String(), Mutant: true, Text: m.Text})
	}
	return targets, untestable
}

// Target is one fault to inject: a rule ID or a mutant ID.
type Target struct {
	ID     string
	Spec   string
	Mutant bool
	Text   string // the rule's text or the mutant's description
}

// Outcome is what one injected fault did.
type Outcome struct {
	Target
	// Vectors and Scenarios are the vector IDs and scenario names that
	// failed with the fault injected.
	Vectors   []string
	Scenarios []string
	// FeaturesRun is false when the features were not run for this fault
	// (Options.Features is FeaturesWhenNeeded and a vector caught it).
	FeaturesRun bool
	// LargeSkipped counts the large vectors not run because a small one had
	// already caught the fault (Options.VerdictOnly): Vectors is then
	// incomplete, and the outcome cannot go into a proof record.
	LargeSkipped int
	Duration     time.Duration
}

// Caught reports whether anything failed.
func (o *Outcome) Caught() bool { return len(o.Vectors)+len(o.Scenarios) > 0 }

// FeaturesMode says when the features run.
type FeaturesMode int

const (
	// FeaturesNever runs only the vectors.
	FeaturesNever FeaturesMode = iota
	// FeaturesWhenNeeded runs the features only for faults no vector catches.
	FeaturesWhenNeeded
	// FeaturesAlways runs the features for every fault (the full matrix).
	FeaturesAlways
)

// Options configure a proof.
type Options struct {
	// Specs are the specs whose faults are injected into their reference,
	// and Steps their steps, which run the features.
	Specs        *spec.Set
	Steps        []steps.Wing
	VectorsDir   string   // the vectors directory ("vectors")
	FeaturePaths []string // the features ("features")
	Features     FeaturesMode
	// Progress, when set, receives one line per target.
	Progress io.Writer
	// AllowMissingSuites skips suites that have no index (for tests of the
	// prover itself); a real proof needs every suite.
	AllowMissingSuites bool
	// VerdictOnly runs a fault's large vectors (input over LargeInput bytes)
	// only when its small vectors catch nothing. Caught or not is then the
	// same as in a full run, but the list of catching vectors is incomplete.
	// The Lace suite's 32 MiB records are most of a full proof's time.
	VerdictOnly bool
}

// LargeInput is the input size above which a vector counts as large for
// Options.VerdictOnly.
const LargeInput = 1 << 20

// vector is a loaded vector with its input bytes.
type vector struct {
	suite string
	v     vectorset.Vector
	input []byte
	// taken are the non-default alternatives a branch vector encodes
	// (docs/READINGS.md): it runs against the reference switched into
	// them, the fault injected all the same, so that a rule only an
	// alternative rejects with is proved by its branch vectors. Nil for a
	// vector of the defaults.
	taken map[string]string
}

// Prover runs faults against the reference.
type Prover struct {
	opt     Options
	ref     *reference.Reference
	hello   *testee.Hello
	vectors []vector

	altsOnce sync.Once
	alts     []string // featureAlternatives
	altsErr  error
}

// New loads every suite's vectors (expanding recipes once) and checks the
// baseline: with no fault injected, every applicable vector passes and every
// scenario passes. A proof over a failing baseline would prove nothing.
func New(ctx context.Context, opt Options) (*Prover, error) {
	p := &Prover{opt: opt, ref: reference.New(opt.Specs)}
	h, err := testee.Handshake(ctx, p.ref)
	if err != nil {
		return nil, err
	}
	p.hello = h
	for _, suite := range opt.Specs.Names() {
		ix, err := vectorset.Load(opt.VectorsDir, suite)
		if errors.Is(err, fs.ErrNotExist) && opt.AllowMissingSuites {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("prove: %w", err)
		}
		defaults := opt.Specs.ReadingDefaults()
		for _, v := range ix.Vectors {
			if !h.Applies(v.Op, v.Profiles) {
				continue
			}
			in, err := v.Input(opt.VectorsDir, suite)
			if err != nil {
				return nil, fmt.Errorf("prove: %w", err)
			}
			// A branch vector runs against the reference taking its
			// alternatives (runVectors).
			var taken map[string]string
			for id, alt := range v.Readings {
				if alt != defaults[id] {
					if taken == nil {
						taken = map[string]string{}
					}
					taken[id] = alt
				}
			}
			p.vectors = append(p.vectors, vector{suite: suite, v: v, input: in, taken: taken})
		}
	}
	if failed := p.runVectors(ctx, rules.Checks{}, "", anySize); len(failed) > 0 {
		return nil, fmt.Errorf("prove: baseline: %d vectors fail against the reference with no fault injected (first: %s)", len(failed), failed[0])
	}
	if opt.Features != FeaturesNever {
		failed, err := p.runFeatures(ctx, rules.Checks{}, "")
		if err != nil {
			return nil, err
		}
		if len(failed) > 0 {
			return nil, fmt.Errorf("prove: baseline: %d scenarios fail against the reference with no fault injected (first: %s)", len(failed), failed[0])
		}
	}
	return p, nil
}

// Vectors is the number of applicable vectors a fault is run against.
func (p *Prover) Vectors() int { return len(p.vectors) }

// Run injects each target's fault and reports what caught it, in the
// order of targets. A fault is a value only its own faulty reference
// carries, so the targets run side by side, one per core (each one's
// vectors on every core as well); the progress lines come as they finish.
func (p *Prover) Run(ctx context.Context, targets []Target) ([]Outcome, error) {
	out := make([]Outcome, len(targets))
	errs := make([]error, len(targets))
	var mu sync.Mutex
	done := 0
	parallel.Each(len(targets), func(i int) {
		if errs[i] = ctx.Err(); errs[i] != nil {
			return
		}
		out[i], errs[i] = p.run(ctx, targets[i])
		if p.opt.Progress != nil && errs[i] == nil {
			mu.Lock()
			done++
			o := &out[i]
			verdict := "caught"
			if !o.Caught() {
				verdict = "SURVIVED"
			}
			fmt.Fprintf(p.opt.Progress, "prove: %d/%d %s %s (%d vectors, %d scenarios, %s)\n", done, len(targets), o.Target.ID, verdict, len(o.Vectors), len(o.Scenarios), o.Duration.Round(time.Millisecond))
			mu.Unlock()
		}
	})
	for i, err := range errs {
		if err != nil {
			return out[:i], err
		}
	}
	return out, nil
}

// run injects one target's fault: the reference it runs carries the fault
// into every parse, and nothing else in the process sees it.
func (p *Prover) run(ctx context.Context, t Target) (Outcome, error) {
	start := time.Now()
	o := Outcome{Target: t}
	c := rules.Checks{Faults: fault.Of(t.ID)}
	if p.opt.VerdictOnly {
		o.Vectors = p.runVectors(ctx, c, t.Spec, small)
		if len(o.Vectors) == 0 {
			o.Vectors = p.runVectors(ctx, c, t.Spec, large)
		} else {
			o.LargeSkipped = p.count(t.Spec, large)
		}
	} else {
		o.Vectors = p.runVectors(ctx, c, t.Spec, anySize)
	}
	if p.opt.Features == FeaturesAlways || (p.opt.Features == FeaturesWhenNeeded && len(o.Vectors) == 0) {
		var err error
		o.Scenarios, err = p.runFeatures(ctx, c, t.Spec)
		o.FeaturesRun = true
		if err != nil {
			return o, err
		}
	}
	o.Duration = time.Since(start)
	return o, nil
}

// sizes selects vectors by input size (Options.VerdictOnly).
type sizes int

const (
	anySize sizes = iota
	small
	large
)

// selectVectors returns the vectors of one suite ("" for all) of the given sizes.
func (p *Prover) selectVectors(suite string, sz sizes) []*vector {
	var vecs []*vector
	for i := range p.vectors {
		v := &p.vectors[i]
		if suite != "" && v.suite != suite {
			continue
		}
		if isLarge := len(v.input) > LargeInput; (sz == small && isLarge) || (sz == large && !isLarge) {
			continue
		}
		vecs = append(vecs, v)
	}
	return vecs
}

// count is the number of vectors selectVectors would return.
func (p *Prover) count(suite string, sz sizes) int { return len(p.selectVectors(suite, sz)) }

// runVectors runs the vectors of one suite ("" for all) of the given sizes
// against the reference under c (a branch vector with its alternatives
// taken as well) on every core and returns the IDs of those that fail,
// sorted. A fault in one spec's reference cannot change another
// suite's answers, so a proof runs only its own suite.
func (p *Prover) runVectors(ctx context.Context, c rules.Checks, suite string, sz sizes) []string {
	var mu sync.Mutex
	var failed []string
	vecs := p.selectVectors(suite, sz)
	ref := p.ref.WithChecks(c)
	parallel.Each(len(vecs), func(i int) {
		vec := vecs[i]
		r := ref
		if vec.taken != nil {
			bc := c
			bc.Readings = reading.Of(vec.taken)
			r = p.ref.WithChecks(bc)
		}
		resp, err := r.Do(ctx, testee.Request{Op: vec.v.Op, Args: vec.v.Args, Input: vec.input})
		pass := err == nil
		if pass && resp.Outcome != testee.Unsupported {
			pass = vectorset.Judge(&vec.v, resp, false).Pass
		}
		if !pass {
			mu.Lock()
			failed = append(failed, vec.v.ID)
			mu.Unlock()
		}
	})
	sort.Strings(failed)
	return failed
}

// runFeatures runs the features of one spec ("" for all) against the
// reference under c (rule IDs unchecked), then the scenarios of each
// non-default alternative the features tag (@reading:ID=ALT) against the
// reference under c taking that alternative, as branch vectors run (a
// rule only an alternative rejects with has its scenarios there), and
// returns the names of the failing scenarios, "uri: name", sorted.
func (p *Prover) runFeatures(ctx context.Context, c rules.Checks, spec string) ([]string, error) {
	o := godog.Options{Paths: p.opt.FeaturePaths, Output: io.Discard, Format: "progress"}
	if spec != "" {
		o.Tags = "@" + spec
	}
	alts, err := p.featureAlternatives()
	if err != nil {
		return nil, err
	}
	var failed []string
	for _, alt := range append([]string{""}, alts...) {
		ao, ac := o, c
		if alt != "" {
			id, name, _ := strings.Cut(alt, "=")
			if s, ok := p.opt.Specs.ByPrefix(id); !ok || (spec != "" && string(s.Name) != spec) {
				continue
			}
			ao.Tags = "@reading:" + alt
			if spec != "" {
				ao.Tags = "@" + spec + " && " + ao.Tags
			}
			ac.Readings = reading.Of(map[string]string{id: name})
		}
		rep, err := steps.Run(ctx, steps.Config{Impl: p.ref.WithChecks(ac), Wings: p.opt.Steps, Options: ao})
		if err != nil {
			return nil, err
		}
		for _, s := range rep.Scenarios {
			if s.Err != nil {
				failed = append(failed, s.URI+": "+s.Name)
			}
		}
	}
	sort.Strings(failed)
	return slices.Compact(failed), nil
}

// featureAlternatives lists, once per prover, the non-default
// alternatives ("ID=ALT") the features' @reading tags name, sorted.
func (p *Prover) featureAlternatives() ([]string, error) {
	p.altsOnce.Do(func() {
		var m map[string][]string
		m, p.altsErr = steps.FeatureAlternatives(p.opt.Specs, p.opt.FeaturePaths)
		p.alts = slices.Sorted(maps.Keys(m))
	})
	return p.alts, p.altsErr
}
