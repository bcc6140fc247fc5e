package harness

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/impl/spec"
	"github.com/threespec/conformance/testee"
	"github.com/threespec/conformance/vectorset"
)

// Status is the verdict on one vector.
type Status string

const (
	// Pass: the testee answered as the vector expects.
	Pass Status = "pass"
	// PassOther: "passed, other reason": a negative vector rejected as it
	// expects (the outcome, and the code where one is named), but for
	// another rule than the vector's: the testee's answer named a rule, or
	// gave as its code the ID of a rule, that is none of the vector's rules
	// (issue 32). It is a pass (it does not fail the run), counted apart,
	// because the check the vector is about may be missing.
	PassOther Status = "pass-other"
	// Fail: a MUST-level vector failed, or the testee failed the protocol
	// on it (hang, crash, invalid answer: a testee failure, at any level).
	Fail Status = "fail"
	// Warn: a SHOULD-level vector failed; it does not fail the run.
	Warn Status = "warn"
	// XFail: the vector failed as the expected-failures file says.
	XFail Status = "xfail"
	// XPass: the expected-failures file says it fails, but it passed; this
	// fails the run, so that the file cannot go stale.
	XPass Status = "xpass"
	// NotApplicable: the testee does not claim the vector's operation or a
	// profile it needs, or answered unsupported.
	NotApplicable Status = "not-applicable"
	// NotRun: the run was interrupted or aborted before the vector's answer.
	NotRun Status = "not-run"
	// Reading: the vector failed, and the answer is what the vector of a
	// named alternative reading expects (docs/READINGS.md); the testee did
	// not declare that reading. Counted apart from failures; it fails the
	// run until the reading is declared in hello.
	Reading Status = "reading"
	// OtherReading: the vector belongs to another branch of a reading than
	// the one the testee takes (declared, or the default): not run, the
	// vectors of the testee's branch judge it instead.
	OtherReading Status = "other-reading"
	// Error: conform could not build the request (an input file unreadable
	// or not matching its index entry); the run exits with status 2.
	Error Status = "error"
	// NotJudged is a rule's verdict, never a vector's: a vector of the rule
	// failed as the testee's failure (a timeout, a crash, an answer that is
	// not the protocol's), so no answer was judged against the rule. The
	// vector is a failure of the run; the rule is not reported as failed.
	NotJudged Status = "not-judged"
)

// Exit statuses of conform run.
const (
	ExitPass        = 0   // every required vector passed
	ExitFail        = 1   // conformance failures (MUST failures, testee failures, stale expectations)
	ExitSetup       = 2   // usage or setup error (flags, vector sets, expected-failures file)
	ExitTestee      = 3   // the testee could not be run (it does not start, or fails hello)
	ExitInterrupted = 130 // interrupted (SIGINT): the report lists what ran
)

// VectorResult is the verdict on one selected vector and what it rests on.
type VectorResult struct {
	ID    string          `json:"id"`
	Suite string          `json:"suite"`
	Op    string          `json:"op"`
	Args  json.RawMessage `json:"args"`
	Input string          `json:"input"` // the input file's path under the vectors directory, or "recipe"
	Size  int64           `json:"size"`
	Level string          `json:"level"`
	Rules []string        `json:"rules"`
	// ProjectDefined lists those of Rules that are project-defined
	// (rules.Rule.ProjectDefined): not the spec's own words.
	ProjectDefined []string `json:"project_defined_rules,omitempty"`
	Comment        string   `json:"comment"`
	// Decision is set when the vector's expectation is a project decision
	// (tagged decision or code-decision, docs/VECTORS.md), not a statement
	// of the specification: the report says so beside the rule text.
	Decision string `json:"decision,omitempty"`

	Status Status `json:"status"`
	// Expected and Got say, on one line each, what the vector expects and
	// what came back (empty when nothing was asked).
	Expected string `json:"expected"`
	Got      string `json:"got,omitempty"`
	// Reason says why the vector did not pass, or why it does not apply;
	// for a result that differs it holds a field-by-field diff.
	Reason string `json:"reason,omitempty"`
	// RuleNote: the testee named another rule than the vector's first
	// (informational: reporting rules is optional).
	RuleNote string `json:"rule_note,omitempty"`
	// OtherReason, for status PassOther, says which other rule the
	// rejection named (by its rule member or its code).
	OtherReason string `json:"other_reason,omitempty"`
	// Failure is set for a testee failure.
	Failure *TesteeFailure `json:"testee_failure,omitempty"`
	// ExpectedFailure is the reason of the expected-failures entry that
	// matched (and, after a colon, its file and line).
	ExpectedFailure string `json:"expected_failure,omitempty"`
	// Readings are the readings the vector's expectation depends on, with
	// the alternative it encodes (docs/READINGS.md).
	Readings map[string]string `json:"readings,omitempty"`
	// TakesReading, for status Reading, names the reading and the
	// alternative the answer matches ("HR-READ-03=zero-previous-hash-rejected").
	TakesReading string `json:"takes_reading,omitempty"`
	// Declared is set when a reading the testee declared decides whether
	// the vector runs: the vector of its branch was run, or the default
	// vector was set aside for it ("HR-READ-03=zero-previous-hash-rejected").
	Declared string `json:"declared_reading,omitempty"`
	// NotPreferred: the rejection passed with one of the vector's
	// acceptable codes, not its preferred code.
	NotPreferred string `json:"not_preferred,omitempty"`
	// AnswerDigest is the digest of the testee's answer (answerDigest:
	// outcome, code, rule and result, not the detail); empty when nothing
	// was answered (not asked, or a testee failure).
	AnswerDigest string `json:"answer_digest,omitempty"`
	Rerun        string `json:"rerun"`
	Show         string `json:"show,omitempty"` // the command that prints it and writes its input bytes
	// Retried says why the vector was asked twice: its first answer timed
	// out before the run had measured the testee's speed.
	Retried string  `json:"retried,omitempty"`
	Millis  float64 `json:"elapsed_ms"`
	// Times splits Millis (nil for a vector that was not asked).
	Times *VectorTimes `json:"times,omitempty"`
}

// TesteeFailure describes a testee failure on one vector.
type TesteeFailure struct {
	Kind   string `json:"kind"` // testee.Kind.String(): timeout, exited, invalid-json, ...; or KindTampered
	Detail string `json:"detail"`
	Stderr string `json:"stderr_tail,omitempty"`
}

// KindTampered is the kind of the testee failure of a vector whose input
// could not be given by path because the testee changed conform's input
// files or their directory (TamperedError).
const KindTampered = "tampered"

// RuleSummary is the result of one rule: the verdicts of the vectors that
// test it (a vector counts for each of its rules).
type RuleSummary struct {
	Rule  string `json:"rule"`
	Level string `json:"level"`
	Text  string `json:"text,omitempty"` // the statement, from the rule catalog
	// ProjectDefined, when not empty, says what of the rule is the
	// project's and not the spec's words (rules.Rule.ProjectDefined).
	ProjectDefined string         `json:"project_defined,omitempty"`
	Counts         map[Status]int `json:"counts"`
	Vectors        []string       `json:"not_passed,omitempty"` // vectors that failed, warned, xfailed, xpassed, errored or passed for another reason
	// Verdict is the rule's verdict (ruleStatus): fail, reading,
	// not-judged (the testee failed on a vector of it: no answer to judge),
	// warn, xfail, pass, pass-other (its vectors that ran passed, none for
	// the rule itself), not-run (no vector of it ran: the run was aborted
	// or interrupted first) or not-applicable.
	Verdict Status `json:"verdict"`
}

// judged reports whether a vector ran and was judged: asked, answered
// (or failed by the testee) and given a verdict, not set aside, not
// applicable, not run and not an error of conform's.
func judged(s Status) bool {
	switch s {
	case Pass, PassOther, Fail, Warn, XFail, XPass, Reading:
		return true
	}
	return false
}

// passed reports whether a vector's status is a pass: Pass, or PassOther
// (the right verdict, for another rule than the vector's).
func passed(s Status) bool { return s == Pass || s == PassOther }

// tested reports whether any vector of a rule ran and was judged.
func (s *RuleSummary) tested() bool {
	for st, n := range s.Counts {
		if n > 0 && judged(st) {
			return true
		}
	}
	return false
}

// ruleStatus is the verdict of a rule from the verdicts of its vectors: a
// failure, an unexpected pass or an error fails it; else an answer that
// takes an undeclared reading marks it Reading; else a warning warns,
// an expected failure makes it xfail; else one pass passes it; else a
// pass for another reason only marks it PassOther; else it is not run when
// a vector did not run, and not applicable otherwise. A rule passes only
// on a vector that ran and passed.
func ruleStatus(c map[Status]int) Status {
	switch {
	case c[Fail] > 0 || c[XPass] > 0 || c[Error] > 0:
		return Fail
	case c[Reading] > 0:
		return Reading
	case c[NotJudged] > 0:
		return NotJudged
	case c[Warn] > 0:
		return Warn
	case c[XFail] > 0:
		return XFail
	case c[Pass] > 0:
		return Pass
	case c[PassOther] > 0:
		return PassOther
	case c[NotRun] > 0:
		return NotRun
	}
	return NotApplicable
}

// ExpectationProblem is an entry of the expected-failures file that makes
// the run fail: it matched no applicable selected vector (stale), or a
// vector it matched passed.
type ExpectationProblem struct {
	File    string   `json:"file"`
	Line    int      `json:"line"`
	Key     string   `json:"key"`
	Problem string   `json:"problem"`
	Vectors []string `json:"vectors,omitempty"`
}

// Counts tallies a run.
type Counts struct {
	Selected int `json:"selected"`
	Passed   int `json:"passed"`
	// PassedOther: vectors of status PassOther ("passed, other reason"),
	// not counted in Passed; they do not fail the run.
	PassedOther    int `json:"passed_other_reason"`
	Failed         int `json:"failed"`
	TesteeFailures int `json:"testee_failures"` // of Failed, XFailed
	Warnings       int `json:"warnings"`
	XFailed        int `json:"expected_failures"`
	XPassed        int `json:"unexpected_passes"`
	NotApplicable  int `json:"not_applicable"`
	NotRun         int `json:"not_run"`
	Errors         int `json:"errors"`
	// Readings: vectors failed with the answer of an undeclared reading
	// (status Reading), counted apart from Failed.
	Readings int `json:"undeclared_readings"`
	// OtherReading: vectors of another branch than the testee's, not run.
	OtherReading int `json:"other_reading"`
	// DeclaredJudged: vectors of a declared non-default alternative that
	// ran; DeclaredSetAside: default vectors a declared alternative set
	// aside. Together, the vectors a declared reading changed.
	DeclaredJudged   int `json:"declared_reading_judged"`
	DeclaredSetAside int `json:"declared_reading_set_aside"`
	// NotPreferred: rejections that passed with an acceptable, not the
	// preferred, code.
	NotPreferred int `json:"acceptable_not_preferred"`
}

// TesteeInfo describes the testee of a run.
type TesteeInfo struct {
	Command        []string `json:"command"`
	Mode           string   `json:"mode"` // "persistent", "one-shot" or ModeInProcess
	Jobs           int      `json:"jobs,omitempty"`
	Implementation string   `json:"implementation,omitempty"`
	// Info is hello's implementation block (nil when hello gave free text
	// or nothing); the report's Header carries it.
	Info          *testee.ImplementationInfo `json:"implementation_block,omitempty"`
	HelloAnswered bool                       `json:"hello_answered"` // false: it answered hello with unsupported
	Ops           []string                   `json:"ops"`            // claimed (nil with every op claimed)
	Profiles      []string                   `json:"profiles"`       // claimed in hello
	Limits        map[string]json.RawMessage `json:"limits,omitempty"`
	Capabilities  []string                   `json:"capabilities,omitempty"` // claimed in hello
	Inputs        string                     `json:"inputs,omitempty"`       // how inputs were sent: "base64", "path" (input_path), "stdin" (one-shot) or "memory" (in process)
	Readings      map[string]string          `json:"readings,omitempty"`     // declared in hello
	Stats         *Stats                     `json:"stats,omitempty"`        // persistent mode
	StderrTail    string                     `json:"stderr_tail,omitempty"`  // of the last process (of each, with -j N), persistent mode
	Exit          []TesteeExit               `json:"exit,omitempty"`         // how each process ended at the end of the run, persistent mode
}

// TesteeExit is how a persistent testee process ended at the end of the run
// (testee.Ending): its standard input closed, given a grace period to exit,
// then killed. What it wrote on standard error meanwhile ends StderrTail.
type TesteeExit struct {
	Process int    `json:"process,omitempty"` // which of the -j N processes (1 to N); absent for one
	Status  string `json:"status"`            // "exit status 0", "exit status 3", "killed: still running 1s after ..."
	Code    int    `json:"code"`              // the exit status; -1 when a signal ended it or it was killed
}

// String says how the process ended, and which it was.
func (e TesteeExit) String() string {
	if e.Process > 0 {
		return fmt.Sprintf("process %d: %s", e.Process, e.Status)
	}
	return e.Status
}

// exitText says how the testee's processes ended at the end of the run,
// those that did not exit with status 0 only ("" when all did).
func exitText(r *Report) string {
	var parts []string
	for _, e := range r.Testee.Exit {
		if e.Code != 0 {
			parts = append(parts, e.String())
		}
	}
	return strings.Join(parts, "; ")
}

// Stats counts what happened to a persistent testee (testee.Stats).
type Stats struct {
	Starts      int `json:"starts"`      // processes started
	Failures    int `json:"failures"`    // requests that ended in a testee failure
	IdleExits   int `json:"idle_exits"`  // exits found between requests (restarted, no failure)
	Unsolicited int `json:"unsolicited"` // output found between requests (restarted, no failure)
	Processes   int `json:"processes"`   // processes run at once (-j) that started at least once
}

// Restarts is the number of starts after the first of each process.
func (s Stats) Restarts() int { return max(s.Starts-max(s.Processes, 1), 0) }

// SuiteInfo names a vector set a run used.
type SuiteInfo struct {
	Name          string              `json:"name"`
	SetHash       string              `json:"set_hash"`
	ManifestFiles int                 `json:"manifest_files"`
	Vectors       int                 `json:"vectors"`  // in the index
	Selected      int                 `json:"selected"` // selected for this run
	Authority     vectorset.Authority `json:"authority,omitempty"`
}

// Report is everything a run found; the human, JSON and JUnit reports
// render it.
type Report struct {
	Format string `json:"format"` // ReportFormat
	// Header pins the run: set hashes, conform's build, the
	// implementation, what it declared, start, end, the results digest.
	Header    *Header     `json:"header"`
	Started   time.Time   `json:"started"`
	Seconds   float64     `json:"seconds"`
	Testee    TesteeInfo  `json:"testee"`
	Suites    []SuiteInfo `json:"suites"`
	Selection Selection   `json:"selection"`
	Policy    Policy      `json:"policy"`

	Counts       Counts               `json:"counts"`
	Times        Times                `json:"times"`
	Vectors      []*VectorResult      `json:"vectors"`
	Rules        []*RuleSummary       `json:"rules"`
	Expectations []ExpectationProblem `json:"expectation_problems"`

	// NothingPassed names each selected suite none of whose selected
	// vectors passed (all of them not applicable, answered unsupported,
	// failed, expected to fail or not run): such a run is not a pass,
	// whatever else it found (issue 30, item 6).
	NothingPassed []string `json:"suites_nothing_passed,omitempty"`

	// Interrupted: the run was stopped (SIGINT) before every vector ran.
	Interrupted bool `json:"interrupted"`
	// Aborted says why the run stopped early because the testee could not
	// be run ("" when it did not).
	Aborted string `json:"aborted,omitempty"`
	// ConformError says why the run or its reports failed for a reason of
	// conform's own, not the testee's ("" when none): its own resources ran
	// out starting a testee process (file descriptors under -j N), or a
	// report could not be written. It makes the exit status 2.
	ConformError string `json:"conform_error,omitempty"`
	// AdapterHint is set when the run's first answers all failed the same
	// way (adapterHint): the adapter, not the implementation, is the likely
	// cause, and conform smoke checks it.
	AdapterHint string `json:"adapter_hint,omitempty"`
	ExitCode    int    `json:"exit_code"`
}

// SetConformError records an error of conform's own found after the run
// (a report that could not be written; ConformError) and sets the exit
// status to 2, unless the run was interrupted.
func (r *Report) SetConformError(msg string) {
	if r.ConformError != "" {
		msg = r.ConformError + "; " + msg
	}
	r.ConformError = msg
	if !r.Interrupted {
		r.ExitCode = ExitSetup
	}
}

// ReportFormat is the value of Report.Format.
const ReportFormat = "threespec-conform-report/1"

// Incomplete reports whether some selected vectors did not run.
func (r *Report) Incomplete() bool { return r.Interrupted || r.Aborted != "" }

// finish tallies the vectors and rules and sets the exit code.
func (r *Report) finish(specs *spec.Set) {
	if r.Vectors == nil {
		r.Vectors = []*VectorResult{}
	}
	if r.Expectations == nil {
		r.Expectations = []ExpectationProblem{}
	}
	r.Counts = Counts{Selected: len(r.Vectors)}
	c := &r.Counts
	for _, v := range r.Vectors {
		switch v.Status {
		case Pass:
			c.Passed++
		case PassOther:
			c.PassedOther++
		case Fail:
			c.Failed++
		case Warn:
			c.Warnings++
		case XFail:
			c.XFailed++
		case XPass:
			c.XPassed++
		case NotApplicable:
			c.NotApplicable++
		case NotRun:
			c.NotRun++
		case Error:
			c.Errors++
		case Reading:
			c.Readings++
		case OtherReading:
			c.OtherReading++
		}
		if v.Declared != "" {
			if v.Status == OtherReading {
				c.DeclaredSetAside++
			} else {
				c.DeclaredJudged++
			}
		}
		if v.NotPreferred != "" && passed(v.Status) {
			c.NotPreferred++
		}
		if v.Failure != nil && (v.Status == Fail || v.Status == XFail) {
			c.TesteeFailures++
		}
	}
	r.Rules = summarizeRules(specs, r.Vectors)
	passedIn := map[string]int{}
	for _, v := range r.Vectors {
		if passed(v.Status) {
			passedIn[v.Suite]++
		}
	}
	r.NothingPassed = nil
	for _, s := range r.Suites {
		if s.Selected > 0 && passedIn[s.Name] == 0 {
			r.NothingPassed = append(r.NothingPassed, s.Name)
		}
	}
	switch {
	case r.Interrupted:
		r.ExitCode = ExitInterrupted
	case r.ConformError != "":
		r.ExitCode = ExitSetup
	case r.Aborted != "":
		r.ExitCode = ExitTestee
	case c.Errors > 0:
		r.ExitCode = ExitSetup
	case c.Failed > 0 || c.XPassed > 0 || c.Readings > 0 || len(r.Expectations) > 0 || len(r.NothingPassed) > 0:
		r.ExitCode = ExitFail
	default:
		r.ExitCode = ExitPass
	}
}

// catalogRule returns the catalog entry of rule id in the specs (for its
// level, text and project-defined note); the zero Rule when no catalog
// names it.
func catalogRule(specs *spec.Set, id string) rules.Rule {
	r, _ := specs.Rule(rules.ID(id))
	return r
}

// projectDefined returns those of ids that the catalogs mark
// project-defined, in order; nil when there are none.
func projectDefined(specs *spec.Set, ids []string) []string {
	var out []string
	for _, id := range ids {
		if catalogRule(specs, id).ProjectDefined != "" {
			out = append(out, id)
		}
	}
	return out
}

// citeRules renders the rule IDs of v for a report line, each
// project-defined one (v.ProjectDefined) followed by "(project-defined)",
// so that no line presents the project's rule as the spec's.
func citeRules(v *VectorResult) string {
	parts := make([]string, len(v.Rules))
	for i, id := range v.Rules {
		parts[i] = id
		if slices.Contains(v.ProjectDefined, id) {
			parts[i] += " (project-defined)"
		}
	}
	return strings.Join(parts, " ")
}

// summarizeRules groups the verdicts by rule: MUST rules first, then
// SHOULD, each sorted by ID.
func summarizeRules(specs *spec.Set, vs []*VectorResult) []*RuleSummary {
	by := map[string]*RuleSummary{}
	for _, v := range vs {
		for _, id := range v.Rules {
			s := by[id]
			if s == nil {
				s = &RuleSummary{Rule: id, Level: v.Level, Counts: map[Status]int{}}
				if cr, ok := specs.Rule(rules.ID(id)); ok {
					s.Level, s.Text, s.ProjectDefined = cr.Level.String(), cr.Text, cr.ProjectDefined
				}
				by[id] = s
			}
			if v.Level == "MUST" && catalogRule(specs, id).ID == "" {
				s.Level = "MUST"
			}
			st := v.Status
			if st == Fail && v.Failure != nil {
				st = NotJudged // the testee's failure, not a verdict on the rule
			}
			s.Counts[st]++
			switch st {
			case Fail, Warn, XFail, XPass, Error, Reading, NotJudged, PassOther:
				s.Vectors = append(s.Vectors, v.ID)
			}
		}
	}
	out := make([]*RuleSummary, 0, len(by))
	for _, s := range by {
		s.Verdict = ruleStatus(s.Counts)
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Level != out[j].Level {
			return out[i].Level == "MUST"
		}
		return out[i].Rule < out[j].Rule
	})
	return out
}
