package harness

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/impl/spec"
	"github.com/threespec/conformance/internal/fuzzgen"
	"github.com/threespec/conformance/internal/reading"
	"github.com/threespec/conformance/reference"
	"github.com/threespec/conformance/testee"
	"github.com/threespec/conformance/vectorset"
)

// FuzzReportFormat is the value of a fuzz JSON report's "format" member.
const FuzzReportFormat = "threespec-conform-fuzz/1"

// FuzzConfig configures a differential fuzz run (conform fuzz, issue 27):
// cases the wings' generators draw, sent to the testee through the same
// adapters as a run and judged against the in-process reference, taken
// under the readings the testee declares, by the vectors' judge.
type FuzzConfig struct {
	// Specs are the specs the generators are of; the reference is made of
	// them.
	Specs *spec.Set
	// Gens are the wings' generators.
	Gens []fuzzgen.Generator
	// Suites and Ops narrow what is generated (empty: every operation the
	// testee claims).
	Suites, Ops []string
	// Impl is the testee (an external adapter wrapped with Timeouts, or an
	// in-process implementation); Testee describes it for the report.
	Impl   testee.Implementation
	Testee TesteeInfo
	// Stats, Stderr and Endings are the adapter's, as in Config.
	Stats   func() testee.Stats
	Stderr  func() []byte
	Endings func() []testee.Ending
	// Jobs is how many cases are in flight at once (at least 1).
	Jobs int
	// Seed is the run's seed: case n is drawn from (Seed, n) alone.
	Seed uint64
	// Count bounds the cases (0: no bound); Time the run's duration (0: no
	// bound). With neither, the run goes on until ctx is done.
	Count int64
	Time  time.Duration
	// Replay, when set, runs case *Replay of Seed alone and keeps both
	// answers in the report (conform fuzz --replay SEED:N).
	Replay *int64
	// StopAfter, when above 0, ends the run once that many distinct
	// findings are in (conform fuzz --stop-after).
	StopAfter int
	// ShrinkBudget bounds the requests one finding's shrinking may make
	// (0: 2000).
	ShrinkBudget int
	// MaxStartFailures as in Config.
	MaxStartFailures int
	// Progress, when set, is called about four times a second (never
	// concurrently).
	Progress func(FuzzProgress)
}

// FuzzProgress is the state of a fuzz run.
type FuzzProgress struct {
	Execs      int64
	Elapsed    time.Duration
	Findings   int
	RulesCited int
}

// FuzzReport is the result of a fuzz run.
type FuzzReport struct {
	Format  string     `json:"format"`
	Seed    uint64     `json:"seed"`
	Started time.Time  `json:"started"`
	Seconds float64    `json:"seconds"`
	Testee  TesteeInfo `json:"testee"`
	// Ops are the operations fuzzed: those the generators know, the testee
	// claims and the selection keeps.
	Ops []string `json:"ops"`
	// Readings are those the testee declared; the reference took them.
	Readings map[string]string `json:"readings,omitempty"`
	// Execs counts the cases answered by the testee (shrinking's requests
	// are ShrinkExecs); ExecsPerSecond is Execs over the fuzzing time.
	Execs          int64   `json:"execs"`
	ShrinkExecs    int64   `json:"shrink_execs"`
	ExecsPerSecond float64 `json:"execs_per_second"`
	// Skipped counts cases the reference could not be asked about (a
	// request it finds built wrong, an operation or argument it does not
	// support); Unsupported those the testee answered unsupported.
	Skipped     int64 `json:"skipped"`
	Unsupported int64 `json:"unsupported"`
	// OtherOrder counts the cases the testee rejected with another code
	// than the reference's that the spec allows (spec.Spec.CheckOrder):
	// one that a check order the spec leaves free reports first, or any
	// code where such a check has no code the spec names. They are
	// agreements, as a vector lists such codes in acceptable_codes.
	OtherOrder int64 `json:"other_check_order"`
	// RulesCited are the distinct rules the reference rejected by.
	RulesCited []string `json:"rules_cited"`
	// Findings are the distinct disagreements, in the order found.
	Findings []*FuzzFinding `json:"findings"`
	// Replayed is the one case of a --replay run.
	Replayed *FuzzReplay `json:"replayed,omitempty"`

	Interrupted  bool   `json:"interrupted,omitempty"`
	Aborted      string `json:"aborted,omitempty"`
	ConformError string `json:"conform_error,omitempty"`
	ExitCode     int    `json:"exit_code"`
}

// Kinds of finding.
const (
	FindingDisagreement = "disagreement"       // the testee's answer is not the reference's
	FindingReading      = "undeclared-reading" // it is the answer of another alternative of a reading
	FindingFailure      = "testee-failure"     // a hang, crash, flood or invalid answer
)

// Directions of a disagreement.
const (
	DirAccepts = "testee-accepts" // the reference rejects, the testee accepts
	DirRejects = "testee-rejects" // the reference accepts, the testee rejects
	DirCode    = "code"           // both reject, with other codes
	DirResult  = "result"         // both accept, a result member differs
)

// FuzzKey is what findings are deduplicated by (issue 27): the operation,
// the rule (the reference's; where it accepts, the testee's code; for a
// reading, the reading), the direction and the result member or code.
type FuzzKey struct {
	Op        string `json:"op"`
	Rule      string `json:"rule"`
	Direction string `json:"direction"`
	Member    string `json:"member,omitempty"`
}

func (k FuzzKey) String() string {
	s := k.Op + " " + k.Direction
	if k.Rule != "" {
		s += " " + k.Rule
	}
	if k.Member != "" {
		s += " (" + k.Member + ")"
	}
	return s
}

// FuzzFinding is one distinct disagreement, with the first case that
// showed it, shrunk.
type FuzzFinding struct {
	Key  FuzzKey `json:"key"`
	Kind string  `json:"kind"`
	// Readings are the readings involved: those whose rules include the
	// rule cited, at the alternative the reference took (declared or
	// default); for an undeclared reading, the alternative the testee's
	// answer is.
	Readings map[string]string `json:"readings,omitempty"`
	// Count is how many cases disagreed this way.
	Count int64 `json:"count"`
	// Case is the number of the first case (replay it with --replay
	// SEED:CASE), and its provenance.
	Case      int64    `json:"case"`
	Generator string   `json:"generator"`
	Operators []string `json:"operators,omitempty"`
	Parent    string   `json:"parent,omitempty"`
	// After is when it was found, in seconds from the start of fuzzing.
	After float64 `json:"after_seconds"`
	// Size is the first case's input size, ShrunkSize the shrunk input's.
	Size       int `json:"size"`
	ShrunkSize int `json:"shrunk_size"`
	// Expected and Got are the reference's and the testee's answers to the
	// shrunk case; Reason the judge's words.
	Expected string `json:"expected"`
	Got      string `json:"got"`
	Reason   string `json:"reason"`
	// Vector is the candidate vector's ID when --out wrote it.
	Vector string `json:"vector,omitempty"`

	// What the candidate vector is made of.
	op    string
	args  json.RawMessage
	input []byte
	ref   testee.Response
}

// FuzzReplay is the one case of a --replay run, both answers in full.
type FuzzReplay struct {
	Case      int64           `json:"case"`
	Op        string          `json:"op"`
	Args      json.RawMessage `json:"args"`
	Input     []byte          `json:"input"`
	Generator string          `json:"generator"`
	Operators []string        `json:"operators,omitempty"`
	Parent    string          `json:"parent,omitempty"`
	Expected  string          `json:"expected"`
	Got       string          `json:"got"`
	Agrees    bool            `json:"agrees"`
	Reason    string          `json:"reason,omitempty"`
}

// fuzzer is one fuzz run's state.
type fuzzer struct {
	cfg      FuzzConfig
	ctx      context.Context
	abort    context.CancelFunc
	base     *reference.Reference // every default
	ref      *reference.Reference // under the testee's declared readings
	declared map[string]string
	gens     map[string]*fuzzgen.Generator // by op
	ops      []string
	id       atomic.Int64
	next     atomic.Int64
	execs    atomic.Int64
	shrinks  atomic.Int64
	skipped  atomic.Int64
	unsup    atomic.Int64
	other    atomic.Int64 // OtherOrder
	stopped  atomic.Bool  // StopAfter findings are in
	t0       time.Time    // fuzzing's start

	mu         sync.Mutex
	findings   map[FuzzKey]*FuzzFinding
	order      []*FuzzFinding
	cited      map[string]bool
	startFails int
	aborted    string
	conformErr string
}

// Fuzz handshakes with the testee and fuzzes every operation the
// generators know and it claims, until Count cases, Time or ctx; it never
// returns without a report.
func Fuzz(ctx context.Context, cfg FuzzConfig) *FuzzReport {
	start := time.Now()
	rep := &FuzzReport{Format: FuzzReportFormat, Seed: cfg.Seed, Started: start.UTC(), Testee: cfg.Testee}
	f := &fuzzer{cfg: cfg, findings: map[FuzzKey]*FuzzFinding{}, cited: map[string]bool{}, gens: map[string]*fuzzgen.Generator{}}
	defer func() {
		rep.Testee.ended(cfg.Impl, cfg.Endings, cfg.Stats, cfg.Stderr)
		rep.Seconds = time.Since(start).Seconds()
		rep.ExitCode = rep.exitCode()
	}()

	hello, err := testee.Handshake(ctx, cfg.Impl)
	if err != nil {
		rep.Interrupted, rep.ConformError, rep.Aborted = helloFailed(ctx, err)
		return rep
	}
	boundHello(&rep.Testee, hello)
	if err := cfg.Specs.CheckTaken(hello.Readings); err != nil {
		rep.Aborted = "hello declares a reading conform does not know: " + bound(err.Error(), maxFailure)
		return rep
	}
	f.declared = hello.Readings
	rep.Readings = hello.Readings
	f.base = reference.New(cfg.Specs)
	f.ref = f.base.WithChecks(rules.Checks{Readings: reading.Of(hello.Readings)})
	for i := range cfg.Gens {
		g := &cfg.Gens[i]
		if len(cfg.Suites) > 0 && !slices.Contains(cfg.Suites, g.Suite) {
			continue
		}
		for _, op := range g.Ops {
			if (len(cfg.Ops) > 0 && !slices.Contains(cfg.Ops, op)) || !hello.Claims(op) {
				continue
			}
			f.gens[op] = g
			f.ops = append(f.ops, op)
		}
	}
	sort.Strings(f.ops)
	rep.Ops = f.ops
	if len(f.ops) == 0 {
		rep.ConformError = "nothing to fuzz: the testee claims none of the operations selected (" + strings.Join(cfg.Ops, ", ") + ")"
		return rep
	}
	f.ctx, f.abort = context.WithCancel(ctx)
	defer f.abort()
	if cfg.Time > 0 {
		var cancel context.CancelFunc
		f.ctx, cancel = context.WithTimeout(f.ctx, cfg.Time)
		defer cancel()
	}

	t0 := time.Now()
	f.t0 = t0
	if cfg.Replay != nil {
		rep.Replayed = f.replay(*cfg.Replay)
	} else {
		f.loop()
	}
	fuzzTime := time.Since(t0)

	rep.Execs, rep.ShrinkExecs = f.execs.Load(), f.shrinks.Load()
	if s := fuzzTime.Seconds(); s > 0 {
		rep.ExecsPerSecond = float64(rep.Execs) / s
	}
	rep.Skipped, rep.Unsupported, rep.OtherOrder = f.skipped.Load(), f.unsup.Load(), f.other.Load()
	f.mu.Lock()
	rep.Findings = f.order
	rep.RulesCited = slices.Sorted(maps.Keys(f.cited))
	rep.Aborted, rep.ConformError = f.aborted, f.conformErr
	f.mu.Unlock()
	if rep.Aborted == "" && rep.ConformError == "" && ctx.Err() != nil {
		rep.Interrupted = true
	}
	return rep
}

func (r *FuzzReport) exitCode() int {
	switch {
	case r.ConformError != "":
		return ExitSetup
	case r.Interrupted:
		return 130
	case r.Aborted != "":
		return ExitTestee
	case len(r.Findings) > 0, r.Replayed != nil && !r.Replayed.Agrees:
		return 1
	}
	return 0
}

// loop runs the cases on Jobs workers.
func (f *fuzzer) loop() {
	var wg sync.WaitGroup
	done := make(chan struct{})
	if f.cfg.Progress != nil {
		go func() {
			tick := time.NewTicker(250 * time.Millisecond)
			defer tick.Stop()
			start := time.Now()
			for {
				select {
				case <-done:
					return
				case <-tick.C:
					f.mu.Lock()
					p := FuzzProgress{Execs: f.execs.Load(), Elapsed: time.Since(start), Findings: len(f.order), RulesCited: len(f.cited)}
					f.cfg.Progress(p)
					f.mu.Unlock()
				}
			}
		}()
	}
	for range max(f.cfg.Jobs, 1) {
		wg.Go(func() {
			for f.ctx.Err() == nil && !f.stopped.Load() {
				n := f.next.Add(1) - 1
				if f.cfg.Count > 0 && n >= f.cfg.Count {
					return
				}
				f.one(n)
			}
		})
	}
	wg.Wait()
	close(done)
}

// generate draws case n.
func (f *fuzzer) generate(n int64) fuzzgen.Case {
	op := f.ops[n%int64(len(f.ops))]
	c := f.gens[op].Generate(fuzzgen.New(f.cfg.Seed, uint64(n)), op)
	c.Op = op
	if len(c.Args) == 0 {
		c.Args = json.RawMessage("{}")
	}
	return c
}

// outcome is one case asked of both.
type outcome struct {
	ref  testee.Response
	resp testee.Response
	key  FuzzKey
	kind string // "" when they agree
	vd   vectorset.Verdict
	rds  map[string]string
}

// ask asks the reference and the testee about c and judges the testee's
// answer; ok is false when the case could not be judged (the reference
// cannot answer it, the testee answered unsupported, or the run stops).
func (f *fuzzer) ask(c fuzzgen.Case, exec *atomic.Int64) (o outcome, ok bool) {
	req := testee.Request{Op: c.Op, Args: c.Args, Input: c.Input}
	ref, err := f.ref.Do(f.ctx, req)
	if err != nil || ref.Outcome == testee.Unsupported {
		f.skipped.Add(1)
		return o, false
	}
	o.ref = ref
	req.ID = f.id.Add(1)
	resp, err := f.cfg.Impl.Do(f.ctx, req)
	if err != nil {
		if !f.failure(err) {
			return o, false
		}
		exec.Add(1)
		var fl *testee.Failure
		errors.As(err, &fl)
		o.kind = FindingFailure
		o.key = FuzzKey{Op: c.Op, Rule: "", Direction: FindingFailure, Member: fl.Kind.String()}
		o.resp = testee.Response{Detail: bound(fl.Detail, maxFailure)}
		o.vd.Reason = "testee failure (" + fl.Kind.String() + "): " + bound(fl.Detail, maxFailure)
		return o, true
	}
	exec.Add(1)
	f.mu.Lock()
	f.startFails = 0
	f.mu.Unlock()
	if resp.Outcome == testee.Unsupported {
		f.unsup.Add(1)
		return o, false
	}
	o.resp = resp
	var other bool
	o.vd, other = f.judge(c, ref, resp, f.declared)
	if other {
		f.other.Add(1)
	}
	if o.vd.Pass {
		return o, true
	}
	f.classify(c, &o)
	return o, true
}

// judge judges resp, the testee's answer to c, by the vectors' judge
// against ref, the reference's answer under readings, as a vector of c
// would expect it: strictly first, and only when that fails, relaxed as a
// vector is (relax), so that a case that agrees costs no more. other
// reports a rejection that passed only because a check order the spec
// allows gives its code.
func (f *fuzzer) judge(c fuzzgen.Case, ref, resp testee.Response, readings map[string]string) (vd vectorset.Verdict, other bool) {
	exp := expectation(c.Op, c.Args, ref)
	vd = vectorset.Judge(&exp, resp, false)
	if vd.Pass || (exp.Expect == vectorset.Accept) != (resp.Outcome == testee.Accepted) ||
		!relax(specOfOp(f.cfg.Specs, c.Op), c.Op, c.Args, c.Input, &exp, readings) {
		return vd, false
	}
	if w := vectorset.Judge(&exp, resp, false); w.Pass {
		return w, resp.Outcome == testee.Rejected
	}
	return vd, false
}

// anyCode reports whether a rejection of c with any code passes against
// ref, the reference's answer under readings (the spec names no code for
// what it rejects by, or one of the checks a spec-following order reaches
// first).
func (f *fuzzer) anyCode(c fuzzgen.Case, ref testee.Response, readings map[string]string) bool {
	if ref.Outcome != testee.Rejected {
		return false
	}
	vd, _ := f.judge(c, ref, testee.Response{Outcome: testee.Rejected, Code: "(a code no spec names)"}, readings)
	return vd.Pass
}

// expectation is the vector the reference's answer makes. Where the spec
// names no code for the rule the reference rejects by, the reference
// answers with the rule ID (or REJECTED) as its code (package reference);
// a vector then expects any code, and so does this.
func expectation(op string, args json.RawMessage, ref testee.Response) vectorset.Vector {
	v := vectorset.Vector{Op: op, Args: args}
	if ref.Outcome == testee.Accepted {
		v.Expect, v.Result = vectorset.Accept, ref.Result
	} else {
		v.Expect, v.Code = vectorset.Reject, ref.Code
		if ref.Code == ref.Rule || ref.Code == "REJECTED" {
			v.Code = ""
		}
		if ref.Rule != "" {
			v.Rules = []string{ref.Rule}
		}
	}
	return v
}

// relax makes exp, the reference's answer to a request of sp's, what a
// vector of it expects under readings: a rejection widened to the codes
// the spec's check orders allow (widen), an acceptance's free text matched
// as the spec's generator writes it (spec.Spec.ExpectedResult). It reports
// whether it changed exp.
func relax(sp *spec.Spec, op string, args json.RawMessage, input []byte, exp *vectorset.Vector, readings map[string]string) bool {
	if exp.Expect == vectorset.Reject {
		return widen(sp, op, args, input, exp, readings)
	}
	if sp == nil || sp.ExpectedResult == nil {
		return false
	}
	r, err := sp.ExpectedResult(op, exp.Result)
	if err != nil {
		return false
	}
	exp.Result = r
	return true
}

// widen makes exp, the reference's rejection of a request of sp's, what a
// vector of it would expect (docs/VECTORS.md, "Check order"): every code
// that a check order the spec allows reports first on it under readings
// (spec.Spec.CheckOrder) is acceptable beside the reference's, and any
// code is when one such check has no code the spec names. It reports
// whether it widened exp: not when the spec has no check order for the
// request, nor when the order does not give the reference's own code (the
// two readings of the spec differ there, and the reference's code alone
// stands).
func widen(sp *spec.Spec, op string, args json.RawMessage, input []byte, exp *vectorset.Vector, readings map[string]string) bool {
	if exp.Expect != vectorset.Reject || exp.Code == "" || sp == nil || sp.CheckOrder == nil {
		return false
	}
	codes, err := sp.CheckOrder(op, args, input, readings)
	if err != nil {
		return false
	}
	switch {
	case slices.Contains(codes, spec.AnyCode):
		exp.Code = ""
	case slices.Contains(codes, exp.Code):
		for _, code := range codes {
			if code != exp.Code {
				exp.AcceptableCodes = append(exp.AcceptableCodes, code)
			}
		}
	default:
		return false
	}
	return true
}

// classify names a disagreement: by an undeclared reading whose
// alternative gives the testee's answer, else by the rule, direction and
// member.
func (f *fuzzer) classify(c fuzzgen.Case, o *outcome) {
	ref, resp := o.ref, o.resp
	o.kind = FindingDisagreement
	switch {
	case ref.Outcome == testee.Rejected && resp.Outcome == testee.Accepted:
		o.key = FuzzKey{Op: c.Op, Rule: cmpOr(ref.Rule, ref.Code), Direction: DirAccepts}
	case ref.Outcome == testee.Accepted && resp.Outcome == testee.Rejected:
		o.key = FuzzKey{Op: c.Op, Rule: cmpOr(f.catalogRule(resp.Rule), f.catalogRule(resp.Code), resp.Code), Direction: DirRejects}
	case ref.Outcome == testee.Rejected:
		o.key = FuzzKey{Op: c.Op, Rule: cmpOr(ref.Rule, ref.Code), Direction: DirCode, Member: bound(resp.Code, 100)}
	default:
		exp := expectation(c.Op, c.Args, ref)
		relax(specOfOp(f.cfg.Specs, c.Op), c.Op, c.Args, c.Input, &exp, f.declared)
		o.key = FuzzKey{Op: c.Op, Direction: DirResult, Member: differingMember(c.Op, c.Args, exp.Result, resp)}
	}
	o.rds = f.readingsOf(o.key.Rule)
	// Another alternative of a reading the testee did not declare?
	sp := specOfOp(f.cfg.Specs, c.Op)
	if sp == nil {
		return
	}
	req := testee.Request{Op: c.Op, Args: c.Args, Input: c.Input}
	// Of the alternatives that give the testee's answer, the one that
	// cites the rule the testee cites names it: an input can hold what
	// several alternatives reject (a control byte in a path and a row
	// length above 2^53), and the testee's rule says which it took.
	var first *FuzzKey
	var firstRds map[string]string
	for _, rd := range sp.Readings {
		if _, ok := f.declared[string(rd.ID)]; ok {
			continue
		}
		for _, alt := range rd.Alternatives {
			if alt.Name == rd.Default {
				continue
			}
			taken := maps.Clone(f.declared)
			if taken == nil {
				taken = map[string]string{}
			}
			taken[string(rd.ID)] = alt.Name
			r2, err := f.base.WithChecks(rules.Checks{Readings: reading.Of(taken)}).Do(f.ctx, req)
			if err != nil {
				continue
			}
			if vd, _ := f.judge(c, r2, resp, taken); !vd.Pass {
				continue
			}
			key := FuzzKey{Op: c.Op, Rule: string(rd.ID), Direction: FindingReading, Member: alt.Name}
			rds := map[string]string{string(rd.ID): alt.Name}
			if resp.Rule == "" || r2.Rule == resp.Rule {
				o.kind, o.key, o.rds = FindingReading, key, rds
				return
			}
			// Another rule than the testee's: the alternative is the
			// testee's only if the code ties them, which it does not where
			// any code would pass.
			if first == nil && !f.anyCode(c, r2, taken) {
				first, firstRds = &key, rds
			}
		}
	}
	if first != nil {
		o.kind, o.key, o.rds = FindingReading, *first, firstRds
	}
}

func cmpOr(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// catalogRule returns id when it is a rule of the specs' catalogs.
func (f *fuzzer) catalogRule(id string) string {
	if _, ok := f.cfg.Specs.Rule(rules.ID(id)); ok {
		return id
	}
	return ""
}

// readingsOf returns the readings whose rules include rule, at the
// alternative the reference takes.
func (f *fuzzer) readingsOf(rule string) map[string]string {
	if rule == "" {
		return nil
	}
	var m map[string]string
	for _, rd := range f.cfg.Specs.Readings() {
		if !slices.Contains(rd.Rules, rules.ID(rule)) {
			continue
		}
		if m == nil {
			m = map[string]string{}
		}
		alt, ok := f.declared[string(rd.ID)]
		if !ok {
			alt = rd.Default
		}
		m[string(rd.ID)] = alt
	}
	return m
}

// differingMember names the first result member (in name order) whose
// value the testee gives otherwise, judged member by member by the
// vectors' judge; "" when none alone differs (a member the testee adds
// is not compared, as in a run).
func differingMember(op string, args, want json.RawMessage, resp testee.Response) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(want, &m) != nil {
		return ""
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		one, err := json.Marshal(map[string]json.RawMessage{k: m[k]})
		if err != nil {
			continue
		}
		v := vectorset.Vector{Op: op, Args: args, Expect: vectorset.Accept, Result: one}
		if !vectorset.Judge(&v, resp, false).Pass {
			return k
		}
	}
	return ""
}

// failure handles an error of the testee adapter: false when the run
// stops (conform's own resources, the run canceled, the testee not
// starting).
func (f *fuzzer) failure(err error) bool {
	var re *testee.ResourceError
	if errors.As(err, &re) {
		f.mu.Lock()
		if f.conformErr == "" {
			f.conformErr = err.Error()
		}
		f.mu.Unlock()
		f.abort()
		return false
	}
	var fl *testee.Failure
	if !errors.As(err, &fl) || fl.Kind == testee.Canceled || fl.Kind == testee.Closed || f.ctx.Err() != nil {
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if fl.Kind != testee.StartFailed {
		f.startFails = 0
		return true
	}
	f.startFails++
	if f.startFails > startFailureLimit(f.cfg.MaxStartFailures) && f.aborted == "" {
		f.aborted = fmt.Sprintf("the testee does not start (%d cases in a row): %s", f.startFails, fl.Detail)
		f.abort()
		return false
	}
	return true
}

// one runs case n.
func (f *fuzzer) one(n int64) {
	c := f.generate(n)
	o, ok := f.ask(c, &f.execs)
	if !ok {
		return
	}
	if o.ref.Outcome == testee.Rejected && o.ref.Rule != "" {
		f.mu.Lock()
		f.cited[o.ref.Rule] = true
		f.mu.Unlock()
	}
	if o.kind == "" {
		return
	}
	f.mu.Lock()
	if fd, seen := f.findings[o.key]; seen {
		fd.Count++
		f.mu.Unlock()
		return
	}
	fd := &FuzzFinding{Key: o.key, Kind: o.kind, Readings: o.rds, Count: 1, Case: n, Generator: c.Generator, After: time.Since(f.t0).Seconds(),
		Operators: c.Operators, Parent: c.Parent, Size: len(c.Input)}
	f.findings[o.key] = fd
	f.order = append(f.order, fd)
	stop := f.cfg.StopAfter > 0 && len(f.order) >= f.cfg.StopAfter
	f.mu.Unlock()
	defer func() {
		if stop {
			f.stopped.Store(true)
		}
	}()

	small, so := f.shrink(c, o)
	fd.ShrunkSize = len(small.Input)
	fd.Expected, fd.Got, fd.Reason = gotText(so.ref), answerText(so), bound(so.vd.Reason, maxReason)
	fd.op, fd.args, fd.input, fd.ref = small.Op, small.Args, small.Input, so.ref
}

func answerText(o outcome) string {
	if o.kind == FindingFailure {
		return "testee failure (" + o.key.Member + "): " + o.resp.Detail
	}
	return gotText(o.resp)
}

// shrink returns the smallest case found that still disagrees as o does
// (the same key): first over structure (the generator's Smaller), then
// over bytes (ranges removed, halving their length), within
// ShrinkBudget requests. A testee failure is not shrunk (each try may
// cost a timeout).
func (f *fuzzer) shrink(c fuzzgen.Case, o outcome) (fuzzgen.Case, outcome) {
	if o.kind == FindingFailure {
		return c, o
	}
	budget := f.cfg.ShrinkBudget
	if budget <= 0 {
		budget = 2000
	}
	try := func(d fuzzgen.Case) (outcome, bool) {
		if budget <= 0 || f.ctx.Err() != nil {
			return outcome{}, false
		}
		budget--
		o2, ok := f.ask(d, &f.shrinks)
		return o2, ok && o2.kind == o.kind && o2.key == o.key
	}
structure:
	for c.Smaller != nil && budget > 0 {
		for _, d := range c.Smaller() {
			d.Op, d.Args = c.Op, cmpArgs(d.Args, c.Args)
			if o2, ok := try(d); ok {
				c, o = d, o2
				continue structure
			}
		}
		break
	}
	in := c.Input
	for chunk := len(in) / 2; chunk >= 1 && budget > 0; chunk /= 2 {
		for i := 0; i+chunk <= len(in) && budget > 0; {
			d := c
			d.Smaller = nil
			d.Input = append(append([]byte(nil), in[:i]...), in[i+chunk:]...)
			if o2, ok := try(d); ok {
				c, o, in = d, o2, d.Input
				continue
			}
			i += chunk
		}
	}
	return c, o
}

func cmpArgs(a, b json.RawMessage) json.RawMessage {
	if len(a) == 0 {
		return b
	}
	return a
}

// replay runs case n alone.
func (f *fuzzer) replay(n int64) *FuzzReplay {
	c := f.generate(n)
	r := &FuzzReplay{Case: n, Op: c.Op, Args: c.Args, Input: c.Input, Generator: c.Generator, Operators: c.Operators, Parent: c.Parent}
	o, ok := f.ask(c, &f.execs)
	if !ok {
		r.Reason = "not judged: the reference cannot answer the case, or the testee answered unsupported"
		r.Agrees = true
		return r
	}
	r.Expected, r.Got = gotText(o.ref), answerText(o)
	r.Agrees = o.kind == ""
	if !r.Agrees {
		r.Reason = o.key.String() + ": " + o.vd.Reason
	}
	return r
}
