package harness

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/impl/spec"
	"github.com/threespec/conformance/internal/parallel"
	"github.com/threespec/conformance/internal/reading"
	"github.com/threespec/conformance/testee"
	"github.com/threespec/conformance/vectorset"
)

// Config configures a run of vectors against a testee.
type Config struct {
	// Specs are the specs the suites are of: their catalogs give the rules'
	// levels and texts, their readings the defaults and what a hello may
	// declare, their profiles the policy's.
	Specs     *spec.Set
	Suites    []*Suite
	Selection Selection
	Policy    Policy
	Expect    *Expectations // nil: none

	// Impl is the testee: an external adapter (wrapped with Timeouts) or
	// an in-process implementation.
	Impl testee.Implementation
	// Testee describes it for the report: Command and Mode.
	Testee TesteeInfo
	// Jobs is how many requests run at once (as many one-shot runs, or
	// persistent processes of a testee.Pool); below 1 is 1. With more than
	// one, vectors are dealt largest input first.
	Jobs int
	// Stats and Stderr, when set, give the persistent adapter's counters
	// and the standard error tail of its last process, for the report.
	Stats  func() testee.Stats
	Stderr func() []byte
	// Endings, when set, tells how the persistent adapter's processes
	// ended when it was closed (their input closed, then a grace period).
	// Run then closes Impl itself as it ends, before it reads Stats, Stderr
	// and Endings, so that what a testee writes as its input ends (a
	// sanitizer's leak report) and its exit status then reach the report.
	Endings func() []testee.Ending
	// MaxStartFailures is how many consecutive vectors may fail because the
	// testee does not start before the run is aborted as "could not be
	// run"; 0 selects testee.DefaultMaxStartFailures.
	MaxStartFailures int

	// InputPaths, when set, gives inputs by path to a testee whose hello
	// claims testee.CapabilityInputPath (the caller removes the files
	// after the run); nil sends every input in its request. Only for a
	// persistent-mode adapter: one-shot mode writes inputs to standard
	// input.
	InputPaths *InputFiles

	// Args are the run's flags that choose and judge its vectors, for the
	// report's Header (conform verify runs them again).
	Args []string

	// Rerun returns the command line that reruns one vector.
	Rerun func(id string) string
	// Show returns the command line that prints one vector and writes its
	// input bytes (conform show).
	Show func(id string) string
	// Progress, when set, is called after each vector (never concurrently).
	Progress func(Progress)
}

// ModeInProcess is the TesteeInfo.Mode of an implementation called in
// process (package conformtest): its inputs are handed over in memory.
const ModeInProcess = "in-process"

// Progress is the state of a run after a vector.
type Progress struct {
	Done, Total   int
	Failed        int // failures, errors and unexpected passes so far
	NotApplicable int
	Elapsed       time.Duration
}

// item is one selected vector in run order.
type item struct {
	suite *Suite
	v     *vectorset.Vector
	res   *VectorResult
	resp  *testee.Response // the answer, when one came
	vd    vectorset.Verdict
	// byPath: the testee was given the path of the vector's committed
	// file (checkCommitted looks at it after the run).
	byPath bool
	// budget is the time the testee was given for the vector (Budgeter),
	// 0 when the testee sets none; fresh is its result before it ran, for
	// a retry (retryTimeouts).
	budget time.Duration
	fresh  VectorResult
}

// Budgeter is a testee whose requests have a time budget that grows with
// what the run has measured of it (Timeouts).
type Budgeter interface {
	Budget(size int64) time.Duration
}

// Run handshakes with the testee, runs every selected vector that applies
// to it, and returns the report; it never returns without one. Canceling
// ctx stops the run: the vector in flight and those not started are
// reported as not run, and the report as interrupted.
func Run(ctx context.Context, cfg Config) *Report {
	start := time.Now()
	rep := &Report{Format: ReportFormat, Started: start.UTC(), Testee: cfg.Testee, Selection: cfg.Selection, Policy: cfg.Policy}
	if rep.Policy.Mark == "" {
		rep.Policy.Mark = RelyOn(cfg.Specs)
	}
	defaults := cfg.Specs.ReadingDefaults()
	var items []*item
	for _, s := range cfg.Suites {
		info := SuiteInfo{Name: s.Name, SetHash: s.SetHash, ManifestFiles: s.ManifestFiles, Vectors: len(s.Index.Vectors), Authority: s.Authority}
		for i := range s.Index.Vectors {
			v := &s.Index.Vectors[i]
			if !cfg.Selection.Match(s.Name, v) {
				continue
			}
			info.Selected++
			res := newResult(cfg.Specs, defaults, s, v)
			if cfg.Show != nil {
				res.Show = cfg.Show(v.ID)
			}
			if cfg.Rerun != nil {
				res.Rerun = cfg.Rerun(v.ID)
			}
			items = append(items, &item{suite: s, v: v, res: res})
			rep.Vectors = append(rep.Vectors, res)
		}
		rep.Suites = append(rep.Suites, info)
	}
	defer func() {
		rep.Testee.ended(cfg.Impl, cfg.Endings, cfg.Stats, cfg.Stderr)
		rep.Seconds = time.Since(start).Seconds()
		rep.Times.Wall = rep.Seconds
		rep.Times.sumVectors(rep.Vectors)
		rep.Times.RunnerMaxRSS = maxRSS()
		rep.finish(cfg.Specs)
		rep.Header = rep.header(cfg.Args, time.Now())
	}()
	rep.Times.Verification = verificationTime(cfg.Suites).Seconds()

	th := time.Now()
	hello, err := testee.Handshake(ctx, cfg.Impl)
	rep.Times.Testee += time.Since(th).Seconds()
	if err != nil {
		rep.Interrupted, rep.ConformError, rep.Aborted = helloFailed(ctx, err)
		why := "the testee could not be run"
		if rep.ConformError != "" {
			why = "an error of conform's own stopped the run"
		}
		for _, it := range items {
			it.res.Status, it.res.Reason = NotRun, why
		}
		return rep
	}
	boundHello(&rep.Testee, hello)
	byPath := cfg.InputPaths != nil && hello.ClaimsCapability(testee.CapabilityInputPath)
	switch {
	case cfg.Testee.Mode == ModeInProcess:
		rep.Testee.Inputs = "memory"
	case cfg.Testee.Mode == "one-shot":
		rep.Testee.Inputs = "stdin"
	case byPath:
		rep.Testee.Inputs = "path"
	case cfg.Testee.Mode != "":
		rep.Testee.Inputs = "base64"
	}
	if err := cfg.Specs.CheckTaken(hello.Readings); err != nil {
		rep.Aborted = "hello declares a reading conform does not know: " + bound(err.Error(), maxFailure)
		for _, it := range items {
			it.res.Status, it.res.Reason = NotRun, "the testee's hello was refused"
		}
		return rep
	}

	var todo []*item
	for _, it := range items {
		if branchOut(defaults, hello.Readings, it) {
			continue
		}
		if why := cfg.Policy.NotApplicable(cfg.Specs, hello, it.v); why != "" {
			it.res.Status, it.res.Reason = NotApplicable, why
			continue
		}
		todo = append(todo, it)
	}
	restore := boundMemory(todo)
	defer restore()
	if byPath {
		for _, it := range todo {
			cfg.InputPaths.Expect(it.v)
		}
	}
	r := &runner{cfg: cfg, total: len(items), done: len(items) - len(todo), start: start, byPath: byPath, parts: vectorset.NewParts(partsLimit), alternates: alternatesOf(cfg.Suites)}
	r.naCount = r.done
	r.ctx, r.abort = context.WithCancel(ctx)
	defer r.abort()
	r.runAll(todo)
	if byPath {
		checkCommitted(todo)
	}
	restore() // what follows (the expected failures, the reports) is not the vectors' work
	switch {
	case r.conformErr != "":
		rep.ConformError = r.conformErr
	case r.aborted != "":
		rep.Aborted = r.aborted
	case ctx.Err() != nil:
		rep.Interrupted = true
	}
	rep.Expectations = applyExpectations(cfg.Expect, items)
	rep.AdapterHint = adapterHint(r.first, cfg.Testee)
	return rep
}

// hintAfter is how many of a run's first answers adapterHint looks at.
const hintAfter = 10

// failureKind says how a vector failed, in a few words, for adapterHint:
// the testee failure's kind, or the shape of a wrong answer; "" for a
// vector that did not fail.
func failureKind(res *VectorResult, resp *testee.Response) string {
	switch {
	case res.Failure != nil:
		return "testee failure (" + res.Failure.Kind + ")"
	case res.Status != Fail && res.Status != Warn && res.Status != Reading:
		return "" // a Reading is a failed answer that another branch expects

	case resp == nil:
		return string(res.Status)
	}
	wantReject := strings.HasPrefix(res.Expected, "rejection")
	switch {
	case resp.Outcome == testee.Rejected && !wantReject:
		return "inputs that must be accepted were rejected"
	case resp.Outcome == testee.Rejected:
		return "rejected with code " + bound(resp.Code, maxName) + " where another is expected"
	case wantReject:
		return "inputs that must be rejected were accepted"
	}
	return "accepted with another result than expected"
}

// adapterHint says, when the first hintAfter answers of a run all failed
// the same way, that the adapter is the likely cause (an implementation
// that is wrong is seldom wrong the same way on ten different vectors)
// and names the command that checks it: conform smoke.
func adapterHint(first []string, t TesteeInfo) string {
	if len(first) < hintAfter {
		return ""
	}
	for _, k := range first {
		if k == "" || k != first[0] {
			return ""
		}
	}
	hint := fmt.Sprintf("the first %d answers all failed the same way (%s): the adapter, not the implementation, is the likely cause", hintAfter, first[0])
	if t.Mode == ModeInProcess {
		return hint + "; check how Do decodes requests and builds its answers"
	}
	return hint + "; conform smoke -- " + ShellJoin(t.Command) + " checks it request by request and names the problem"
}

// ended records, as a run or a fuzz run ends, how the testee's processes
// ended (closing an adapter that reports endings first), its counters and
// its standard error's tail.
func (info *TesteeInfo) ended(impl testee.Implementation, endings func() []testee.Ending, stats func() testee.Stats, stderr func() []byte) {
	if endings != nil {
		impl.Close()
		for _, e := range endings() {
			info.Exit = append(info.Exit, TesteeExit{Process: e.Process, Status: e.Status, Code: e.Code})
		}
	}
	if stats != nil {
		st := stats()
		info.Stats = &Stats{Starts: st.Starts, Failures: st.Failures, IdleExits: st.IdleExits, Unsolicited: st.Unsolicited, Processes: st.Processes}
	}
	if stderr != nil {
		info.StderrTail = boundTail(string(stderr()), maxTail)
	}
}

// helloFailed says how a failed hello ends a run: interrupted, an error of
// conform's own (its resources), or the testee's (aborted, with the tail
// of its standard error).
func helloFailed(ctx context.Context, err error) (interrupted bool, conformErr, aborted string) {
	var re *testee.ResourceError
	switch {
	case ctx.Err() != nil:
		return true, "", ""
	case errors.As(err, &re):
		return false, "hello: " + err.Error(), ""
	}
	aborted = "hello failed: " + bound(failureText(err), maxFailure)
	if f := (*testee.Failure)(nil); errors.As(err, &f) && len(f.Stderr) > 0 {
		aborted += "\n" + boundTail(string(f.Stderr), maxStderr)
	}
	return false, "", aborted
}

func newResult(specs *spec.Set, defaults map[string]string, s *Suite, v *vectorset.Vector) *VectorResult {
	// The input as a path one can open (under the vectors directory the
	// run was given), or "recipe" (conform show ID --write FILE writes it).
	input := "recipe"
	if v.Recipe == nil {
		var err error
		if input, err = vectorset.TreePath(s.VectorsDir, s.Name, v.File); err != nil {
			input = v.File
		}
	}
	args := v.Args
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	return &VectorResult{
		ID: v.ID, Suite: s.Name, Op: v.Op, Args: compactJSON(args), Input: input, Size: v.Size,
		Level: v.Level, Rules: v.Rules, ProjectDefined: projectDefined(specs, v.Rules), Comment: v.Comment, Expected: expectedText(v),
		Decision: decisionText(defaults, s.Name, v), Readings: v.Readings,
	}
}

// decisionText says, for a vector whose expectation is the project's
// reading (docs/VECTORS.md, tags decision and code-decision, and every
// vector that names a reading), that it is one, which readings it turns on
// (with the alternative the vector encodes) and where they are argued; ""
// for a vector that states the spec.
func decisionText(defaults map[string]string, suite string, v *vectorset.Vector) string {
	var what string
	switch {
	case slices.Contains(v.Tags, "code-decision"):
		what = "project decision: the expected code is the project's reading where the specification names none or several (SHOULD: a failure only warns)"
	case slices.Contains(v.Tags, "decision") || len(v.Readings) > 0:
		what = "project decision: the expectation is the project's reading where the specification is silent or open, not a statement of it"
	default:
		return ""
	}
	if len(v.Readings) == 0 {
		return what + " (docs/" + suite + ".md)"
	}
	var rs []string
	for _, id := range reading.IDs(v.Readings) {
		alt := v.Readings[id]
		if alt == defaults[id] {
			alt += ", the default"
		}
		rs = append(rs, id+" "+alt)
	}
	return what + "; reading " + strings.Join(rs, "; ") + " (docs/READINGS.md)"
}

// boundMemory sets the garbage collector's soft memory limit
// (debug.SetMemoryLimit) for a run of the given vectors, unless GOMEMLIMIT
// does: one and a half times the largest input or expected answer, at
// least 64 MiB, so that while one job holds a 44.7 MiB answer the garbage
// of the others is collected before it piles up, and a large vector's
// garbage is collected before the next one's (issue 14: the runner's peak
// RSS at most twice the largest input). The heap already in use when the
// run starts (the suites' indexes, an expected-failures file of a million
// entries) is added: a limit below the live heap would have the collector
// run without end (issue 30, item 17: with 10^6 entries the run took 9 s
// instead of 2). It returns the function that restores the limit before.
func boundMemory(todo []*item) (restore func()) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	var largest int64
	for _, it := range todo {
		largest = max(largest, it.v.Size, it.v.AnswerSize())
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	old := debug.SetMemoryLimit(max(largest+largest/2, 64<<20) + int64(m.HeapAlloc))
	return func() { debug.SetMemoryLimit(old) }
}

// runner runs the applicable vectors, on Jobs workers.
type runner struct {
	cfg   Config
	ctx   context.Context
	abort context.CancelFunc
	start time.Time
	id    atomic.Int64
	// byPath: inputs go by path (cfg.InputPaths), not in the request.
	byPath bool
	// parts: the files recipes read, for inputs sent in the request.
	parts *vectorset.Parts

	mu          sync.Mutex // guards what follows, and Progress calls
	total, done int
	failed      int
	naCount     int
	startFails  int // consecutive vectors that failed because the testee did not start
	aborted     string
	conformErr  string   // an error of conform's own that stopped the run (Report.ConformError)
	first       []string // how the first answers failed (failureKind), for adapterHint

	// alternates are the vectors that name readings, by the request they
	// make (alternateKey): the answers of the branches of each reading.
	alternates map[string][]*vectorset.Vector
}

func (r *runner) runAll(todo []*item) {
	jobs := max(r.cfg.Jobs, 1)
	if jobs > 1 {
		todo = dealOrder(todo)
	}
	next := make(chan *item)
	var wg sync.WaitGroup
	for range min(jobs, max(len(todo), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for it := range next {
				r.runOne(it)
			}
		}()
	}
	for i, it := range todo {
		it.fresh = *it.res
		select {
		case next <- it:
			continue
		case <-r.ctx.Done():
		}
		reason := r.notRunReason()
		for _, rest := range todo[i:] {
			rest.res.Status, rest.res.Reason = NotRun, reason
		}
		break
	}
	close(next)
	wg.Wait()
	r.retryTimeouts(todo)
}

// retryTimeouts asks once more, one at a time, about every vector that
// timed out with a budget smaller than the one the testee is given now:
// the largest inputs go first, before the run has measured how fast the
// testee is, and a slow testee on a busy machine would time out on them
// with the flags' budget alone. The result says it was retried. A retry
// that times out again ends the retries: the testee is not slow but stuck.
func (r *runner) retryTimeouts(todo []*item) {
	b, ok := r.cfg.Impl.(Budgeter)
	if !ok {
		return
	}
	for _, it := range todo {
		f := it.res.Failure
		if r.ctx.Err() != nil || f == nil || f.Kind != testee.Timeout.String() || it.budget == 0 || b.Budget(it.v.Size) <= it.budget {
			continue
		}
		first := fmt.Sprintf("retried: the first answer timed out (%s); given %v the second time, from the testee's measured speed",
			f.Detail, b.Budget(it.v.Size).Round(time.Millisecond))
		r.mu.Lock()
		r.done--
		r.failed--
		r.mu.Unlock()
		*it.res = it.fresh
		r.runOne(it)
		it.res.Retried = first
		if f := it.res.Failure; f != nil && f.Kind == testee.Timeout.String() {
			return
		}
	}
}

// dealOrder is the order in which several jobs take the vectors: by
// expected cost, the largest input first (a 32 MiB record costs as much as
// hundreds of small vectors), ties in index order, so that the largest do
// not come last and leave the other jobs idle while one finishes them.
func dealOrder(todo []*item) []*item {
	out := slices.Clone(todo)
	slices.SortStableFunc(out, func(a, b *item) int { return cmp.Compare(b.v.Size, a.v.Size) })
	return out
}

func (r *runner) notRunReason() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.conformErr != "" {
		return "not run: an error of conform's own stopped the run"
	}
	if r.aborted != "" {
		return "not run: the run was aborted"
	}
	return "not run: the run was interrupted"
}

// runOne asks the testee about one vector and judges the answer.
func (r *runner) runOne(it *item) {
	res := it.res
	t0 := time.Now()
	var tm testee.Timing
	var t1, t2 time.Time // the input ready; the answer in
	defer func() {
		end := time.Now()
		res.Millis = ms(end.Sub(t0))
		if !t2.IsZero() {
			res.Times = &VectorTimes{Transfer: ms(t1.Sub(t0) + tm.Send), Testee: ms(t2.Sub(t1) - tm.Send), Judging: ms(end.Sub(t2))}
		}
		r.progress(res)
	}()
	req := testee.Request{ID: r.id.Add(1), Op: it.v.Op, Args: it.v.Args, AnswerSize: it.v.AnswerSize()}
	var err error
	if r.byPath {
		req.InputPath, req.InputSize, err = r.cfg.InputPaths.Path(it.suite, it.v)
	} else {
		req.Input, err = r.parts.Input(it.v, it.suite.VectorsDir, it.suite.Name)
	}
	if err != nil {
		if r.byPath {
			r.cfg.InputPaths.Release(it.v)
		}
		if re := testee.AsResourceError("preparing the input", err); re != nil {
			r.failure(it, re) // conform's own: the run stops
			return
		}
		if te := (*TamperedError)(nil); errors.As(err, &te) {
			// The testee's: it changed conform's input files (docs/PROTOCOL.md).
			res.Status = Fail
			res.Failure = &TesteeFailure{Kind: KindTampered, Detail: te.Error()}
			res.Got = "testee failure (" + KindTampered + "): " + te.Error()
			res.Reason = res.Got
			return
		}
		res.Status, res.Reason = Error, err.Error()
		return
	}
	it.byPath = r.byPath && it.v.Recipe == nil
	if b, ok := r.cfg.Impl.(Budgeter); ok {
		it.budget = b.Budget(it.v.Size)
	}
	t1 = time.Now()
	resp, err := r.cfg.Impl.Do(testee.WithTiming(r.ctx, &tm), req)
	t2 = time.Now()
	req.Input = nil
	if r.byPath {
		r.cfg.InputPaths.Release(it.v)
	}
	if err != nil {
		r.failure(it, err)
		return
	}
	r.mu.Lock()
	r.startFails = 0
	r.mu.Unlock()
	res.Got = gotText(resp)
	defer func() { r.noteFirst(failureKind(res, &resp)) }()
	res.AnswerDigest = answerDigest(resp)
	if resp.Outcome == testee.Unsupported {
		res.Status = NotApplicable
		res.Reason = "the testee answered unsupported"
		if resp.Detail != "" {
			res.Reason += ": " + boundLine(resp.Detail, maxDetail)
		}
		return
	}
	vd := vectorset.Judge(it.v, resp, false)
	res.RuleNote, res.NotPreferred = bound(vd.RuleMismatch, maxDetail), bound(vd.NotPreferred, maxDetail)
	switch {
	case vd.Pass:
		res.Status = Pass
		if other := otherRule(r.cfg.Specs, it.v, resp); other != "" {
			res.Status, res.OtherReason = PassOther, bound(other, maxDetail)
		}
	case r.takesReading(it, resp):
	case it.v.Level == "SHOULD":
		res.Status, res.Reason = Warn, bound(vd.Reason, maxReason)
	default:
		res.Status, res.Reason = Fail, bound(vd.Reason, maxReason)
	}
}

// otherRule says, of a rejection that passed a negative vector, which
// other rule it was made for: the rule the answer names, or the rule its
// code is the ID of (Lace names no codes, and a testee may give the rule
// ID as one, as the reference does), when that is none of the vector's
// rules; "" when the answer names none of another rule. Such a vector
// "passed, other reason" (issue 32): the verdict is right, but the check
// the vector is about may be missing (docs/CONFORM.md, "Passed, other
// reason").
func otherRule(specs *spec.Set, v *vectorset.Vector, resp testee.Response) string {
	if v.Expect != vectorset.Reject || resp.Outcome != testee.Rejected || len(v.Rules) == 0 {
		return ""
	}
	if resp.Rule != "" && !slices.Contains(v.Rules, resp.Rule) {
		return fmt.Sprintf("the testee named rule %s; the vector tests %s", bound(resp.Rule, maxName), strings.Join(v.Rules, " "))
	}
	if resp.Rule == "" && resp.Code != "" && !slices.Contains(v.Rules, resp.Code) {
		if _, ok := specs.Rule(rules.ID(resp.Code)); ok {
			return fmt.Sprintf("the testee's code %s is the ID of another rule; the vector tests %s", bound(resp.Code, maxName), strings.Join(v.Rules, " "))
		}
	}
	return ""
}

// checkCommitted looks, after a run by path, at the committed file of
// every vector whose path the testee was given: one it changed, moved or
// removed (unchangedSince: another file, size, mode, modification or, on
// Linux, status-change time than verification read) fails the vector as
// the testee's failure, kind tampered (issue 30: a testee could rewrite
// the checkout's files through input_path, the run passed, and the next
// one failed verification). It costs a Lstat a vector, on every core
// (BenchmarkCheckCommitted).
func checkCommitted(todo []*item) {
	parallel.Each(len(todo), func(i int) {
		it := todo[i]
		if !it.byPath || it.suite.stamps == nil {
			return
		}
		was, ok := it.suite.stamps[it.v.File]
		p, err := vectorset.TreePath(it.suite.VectorsDir, it.suite.Name, it.v.File)
		if !ok || err != nil || unchangedSince(p, was) {
			return
		}
		res := it.res
		detail := "the testee changed, moved or removed the suite's committed file " + p + ", given to it by path, during the run (a testee must not change its input files): the vectors directory no longer verifies; restore it"
		res.Status, res.RuleNote, res.NotPreferred, res.OtherReason = Fail, "", "", ""
		res.Failure = &TesteeFailure{Kind: KindTampered, Detail: detail}
		res.Got = "testee failure (" + KindTampered + "): " + detail
		res.Reason = res.Got
	})
}

// failure records an error of the testee (or of the request) on a vector.
func (r *runner) failure(it *item, err error) {
	res := it.res
	var re *testee.ResourceError
	if errors.As(err, &re) {
		// conform's own resources ran out (file descriptors under -j N):
		// not the testee's failure; the run stops, exit status 2.
		res.Status, res.Reason = Error, err.Error()
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.conformErr == "" {
			r.conformErr = err.Error()
			r.abort()
		}
		return
	}
	var f *testee.Failure
	if errors.As(err, &f) && f.Kind != testee.Canceled && f.Kind != testee.Closed {
		defer func() { r.noteFirst(failureKind(res, nil)) }()
	}
	if !errors.As(err, &f) {
		// A request conform built wrong: the vector's args are not an object.
		res.Status, res.Reason = Error, err.Error()
		return
	}
	if f.Kind == testee.Canceled || f.Kind == testee.Closed {
		res.Status, res.Reason = NotRun, r.notRunReason()
		return
	}
	res.Status = Fail
	res.Failure = &TesteeFailure{Kind: f.Kind.String(), Detail: bound(f.Detail, maxFailure), Stderr: boundTail(string(f.Stderr), maxStderr)}
	res.Got = "testee failure (" + f.Kind.String() + "): " + res.Failure.Detail
	res.Reason = res.Got
	r.mu.Lock()
	defer r.mu.Unlock()
	if f.Kind != testee.StartFailed {
		r.startFails = 0
		return
	}
	r.startFails++
	if r.startFails > startFailureLimit(r.cfg.MaxStartFailures) && r.aborted == "" {
		r.aborted = fmt.Sprintf("the testee does not start (%d vectors in a row): %s", r.startFails, f.Detail)
		r.abort()
	}
}

// noteFirst records how one of the run's first answers failed ("" when
// it did not), for adapterHint.
func (r *runner) noteFirst(kind string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.first) < hintAfter {
		r.first = append(r.first, kind)
	}
}

// startFailureLimit is how many consecutive failed starts a run allows:
// the configured number, or testee.DefaultMaxStartFailures.
func startFailureLimit(configured int) int {
	if configured <= 0 {
		return testee.DefaultMaxStartFailures
	}
	return configured
}

func (r *runner) progress(res *VectorResult) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.done++
	switch res.Status {
	case Fail, Error:
		r.failed++
	case NotApplicable:
		r.naCount++
	}
	if r.cfg.Progress != nil {
		r.cfg.Progress(Progress{Done: r.done, Total: r.total, Failed: r.failed, NotApplicable: r.naCount, Elapsed: time.Since(r.start)})
	}
}

// applyExpectations turns the failures the expected-failures file names
// into XFail and its unexpected passes into XPass, and lists the entries that
// make the run fail. Entries count as matched by applicable vectors only.
//
// A vector-ID entry is strict: its vector must fail. A rule entry means
// "failures attributed to this rule are expected": every vector that tests
// the rule and fails is an expected failure; a vector testing the rule that
// passes is an unexpected pass only when it tests no other rule (one that
// also tests another rule may pass because the testee rejects it for that
// rule); the entry is stale when no vector testing the rule fails.
func applyExpectations(ex *Expectations, items []*item) []ExpectationProblem {
	if ex == nil {
		return nil
	}
	passedBy := map[*Expectation][]string{}
	for _, it := range items {
		res := it.res
		if res.Status == NotApplicable {
			continue
		}
		es := ex.match(it.v)
		if len(es) == 0 {
			continue
		}
		for _, e := range es {
			e.matched++
			if !passed(res.Status) {
				e.failed++
			}
		}
		e := es[0] // a vector-ID entry first, then rule entries in file order
		note := fmt.Sprintf("%s (%s:%d)", e.Reason, ex.File, e.Line)
		switch res.Status {
		case Fail, Warn:
			res.Status, res.ExpectedFailure = XFail, note
		case Pass, PassOther:
			if e.Rule && (len(it.v.Rules) > 1 || res.Status == PassOther) {
				continue // it also tests another rule, or was rejected for one: no unexpected pass of the rule entry
			}
			res.Status, res.ExpectedFailure = XPass, note
			res.Reason = "expected to fail (" + note + "), but passed"
			passedBy[e] = append(passedBy[e], res.ID)
		}
	}
	var out []ExpectationProblem
	for _, e := range ex.Entries {
		problem := func(format string, args ...any) {
			p := format // the stale entry's, a million times over in a file of a million typos
			if len(args) > 0 {
				p = fmt.Sprintf(format, args...)
			}
			out = append(out, ExpectationProblem{File: ex.File, Line: e.Line, Key: e.Key, Problem: p, Vectors: passedBy[e]})
		}
		switch {
		case e.matched == 0:
			problem("stale: matches no applicable selected vector")
		case !e.Rule && len(passedBy[e]) > 0:
			problem("expected to fail, but %d matching vector(s) passed", len(passedBy[e]))
		case len(passedBy[e]) > 0:
			problem("expected to fail, but %d vector(s) testing only this rule passed", len(passedBy[e]))
		case e.failed == 0:
			problem("stale: none of the %d applicable selected vector(s) testing this rule failed", e.matched)
		}
	}
	return out
}

// Texts.

// ExpectedText says what a vector expects, on one line, as the reports
// write it.
func ExpectedText(v *vectorset.Vector) string { return expectedText(v) }

// expectedText says what a vector expects, on one line.
func expectedText(v *vectorset.Vector) string {
	rule := ""
	if len(v.Rules) > 0 {
		rule = v.Rules[0]
	}
	if v.Expect == vectorset.Reject {
		code := "any code"
		if v.Code != "" {
			code = "code " + v.Code
		}
		return fmt.Sprintf("rejection (%s) by rule %s", code, rule)
	}
	if len(v.Result) == 0 {
		return "acceptance"
	}
	return "acceptance with result " + clip(string(compactJSON(v.Result)), 300)
}

// gotText says what came back, on one line.
func gotText(resp testee.Response) string {
	switch resp.Outcome {
	case testee.Accepted:
		return "acceptance: " + clipBytes(resp.Result, 300)
	case testee.Rejected:
		s := "rejection (code " + bound(resp.Code, maxName)
		if resp.Rule != "" {
			s += ", rule " + bound(resp.Rule, maxName)
		}
		s += ")"
		if resp.Detail != "" {
			s += ": " + boundLine(resp.Detail, maxDetail)
		}
		return s
	case testee.Unsupported:
		if resp.Detail != "" {
			return "unsupported: " + boundLine(resp.Detail, maxDetail)
		}
		return "unsupported"
	}
	return resp.Outcome.String()
}

func failureText(err error) string {
	var f *testee.Failure
	if errors.As(err, &f) {
		return fmt.Sprintf("testee failure (%s): %s", f.Kind, f.Detail)
	}
	return err.Error()
}

func compactJSON(b json.RawMessage) json.RawMessage {
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return b
	}
	return buf.Bytes()
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + fmt.Sprintf("... (%d bytes)", len(s))
}

// clipBytes is bound(string(b), n) without copying all of a large b.
func clipBytes(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	return cut(string(b[:n+utf8.UTFMax]), n) + fmt.Sprintf("... (%d bytes)", len(b))
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Readings (docs/READINGS.md).

// branchOut sets aside a vector of another branch than the testee takes
// (its declared alternatives, the defaults elsewhere), as OtherReading, and
// reports whether it did. It marks the vectors a declared alternative
// decides: those of its branch that run, and the defaults it sets aside.
func branchOut(defaults, declared map[string]string, it *item) bool {
	res := it.res
	res.Readings = it.v.Readings
	for _, id := range reading.IDs(it.v.Readings) {
		if alt, ok := declared[id]; ok && alt != defaults[id] {
			res.Declared = id + "=" + alt
		}
	}
	differs := it.v.Branch(declared, defaults)
	if differs == "" {
		return false
	}
	taken, ok := declared[differs]
	if !ok {
		taken = defaults[differs]
	}
	how := "the default"
	if ok && taken != defaults[differs] {
		how = "declared in hello"
	}
	res.Status = OtherReading
	res.Reason = fmt.Sprintf("the vector of reading %s %s; the testee takes %s (%s)", differs, it.v.Readings[differs], taken, how)
	return true
}

// alternateKey names the request a vector makes: op, args and input.
func alternateKey(v *vectorset.Vector) string {
	return v.Op + "\x00" + string(compactJSON(v.Args)) + "\x00" + v.BLAKE2b
}

// alternatesOf lists the vectors that name readings by request, over every
// vector of the suites (selected or not): the answers of each branch.
func alternatesOf(suites []*Suite) map[string][]*vectorset.Vector {
	m := map[string][]*vectorset.Vector{}
	for _, s := range suites {
		for i := range s.Index.Vectors {
			v := &s.Index.Vectors[i]
			if len(v.Readings) > 0 {
				k := alternateKey(v)
				m[k] = append(m[k], v)
			}
		}
	}
	return m
}

// takesReading judges a failed answer against the vectors of the other
// branches that make the same request. When one of them passes, the
// testee takes that reading without declaring it: the vector's status is
// Reading, with the reading named, and takesReading reports true.
func (r *runner) takesReading(it *item, resp testee.Response) bool {
	if len(it.v.Readings) == 0 {
		return false
	}
	for _, alt := range r.alternates[alternateKey(it.v)] {
		if alt == it.v {
			continue
		}
		var ids []string
		for _, id := range reading.IDs(alt.Readings) {
			if alt.Readings[id] != it.v.Readings[id] {
				ids = append(ids, id+"="+alt.Readings[id])
			}
		}
		if len(ids) == 0 || !vectorset.Judge(alt, resp, false).Pass {
			continue
		}
		which := strings.Join(ids, ", ")
		it.res.Status, it.res.TakesReading = Reading, which
		it.res.Reason = fmt.Sprintf("takes reading %s (the answer %s expects); declare it in hello to be judged by it", readingText(which), alt.ID)
		return true
	}
	return false
}

// readingText renders "HR-READ-03=x" as "x of HR-READ-03".
func readingText(s string) string {
	var out []string
	for _, p := range strings.Split(s, ", ") {
		id, alt, _ := strings.Cut(p, "=")
		out = append(out, alt+" of "+id)
	}
	return strings.Join(out, ", ")
}
