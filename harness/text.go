package harness

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/threespec/conformance/internal/reading"
)

// TextOptions control the human report.
type TextOptions struct {
	// Verbose lists every vector and every rule, not only those that did
	// not pass.
	Verbose bool
	// StderrLines is how many last lines of a testee's standard error a
	// failure shows; 0 selects 12.
	StderrLines int
	// ProfileTimes lists the ten slowest vectors with their time split
	// (Verbose does too).
	ProfileTimes bool
}

// WriteText writes the human report: what ran against what (vector set
// hashes included), each vector that did not pass with what it expected,
// what came back and the command that reruns it, the verdicts by level and
// rule, and the totals.
func WriteText(w io.Writer, r *Report, opt TextOptions) error {
	bw := bufio.NewWriterSize(w, 64<<10) // not a write for each piece of a line
	tw := &textWriter{w: bw}
	tw.header(r)
	tw.vectors(r, opt)
	tw.readings(r)
	tw.rules(r, opt)
	tw.notApplicable(r)
	tw.expectations(r)
	tw.times(r, opt)
	tw.footer(r)
	if err := bw.Flush(); tw.err == nil {
		tw.err = err
	}
	return tw.err
}

type textWriter struct {
	w   io.Writer
	err error
}

// printf writes one piece of the report; every string and byte slice of
// args is escaped (escapeText): testee text (a name in hello, a detail, a
// difference, standard error) never reaches the terminal raw. A text of
// several lines is written a line at a time (block, lines).
func (t *textWriter) printf(format string, args ...any) {
	if t.err != nil {
		return
	}
	for i, a := range args {
		switch a := a.(type) {
		case string:
			args[i] = escapeText(a)
		case []byte:
			args[i] = escapeText(string(a))
		case json.RawMessage:
			args[i] = escapeText(string(a))
		}
	}
	_, t.err = fmt.Fprintf(t.w, format, args...)
}

// lines writes a text of several lines of conform's own, a line at a time.
func (t *textWriter) lines(text string) {
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		t.printf("%s\n", line)
	}
}

func (t *textWriter) header(r *Report) {
	mode := r.Testee.Mode
	if r.Testee.Jobs > 1 {
		mode += fmt.Sprintf(", %d at a time", r.Testee.Jobs)
	}
	t.printf("conform run: %s against %s (%s mode)\n", plural(r.Counts.Selected, "vector"), ShellJoin(r.Testee.Command), mode)
	switch {
	case r.Testee.Implementation != "" || r.Testee.HelloAnswered:
		t.printf("testee:      %s; claims %s; profiles: %s\n", orText(r.Testee.Implementation, "(no name)"),
			plural(len(r.Testee.Ops), "operation"), orText(strings.Join(r.Testee.Profiles, ", "), "none"))
	case r.Aborted == "" && !r.Interrupted:
		t.printf("testee:      answered hello with unsupported: taken to claim every operation and no profile\n")
	}
	if h := r.Header; h != nil {
		if h.Implementation != nil && implementationExtras(h.Implementation) != "" {
			t.printf("             %s\n", clip(implementationExtras(h.Implementation), 2*maxDetail))
		}
		if len(h.Capabilities) > 0 {
			t.printf("capabilities: %s\n", clip(strings.Join(h.Capabilities, ", "), maxDetail))
		}
		t.printf("conform:     %s\n", h.Conform.String())
		t.printf("run:         started %s, ended %s\n", h.Started.Format(time.RFC3339), h.Ended.Format(time.RFC3339))
		t.printf("results:     digest %s (BLAKE2b-256 over each vector's ID, outcome and answer digest)\n", h.ResultsDigest)
	}
	t.printf("policy:      mark checking %s", r.Policy.Mark)
	if len(r.Policy.Profiles) > 0 {
		t.printf("; profiles added: %s", strings.Join(r.Policy.Profiles, ", "))
	}
	t.printf("\nreadings:    %s", declaredText(r))
	t.printf("\nvector sets:\n")
	for _, s := range r.Suites {
		t.printf("  %-10s set hash %s  (%d of %d vectors selected; %d files verified against manifest/%s/suite-manifest.bin)\n",
			s.Name, s.SetHash, s.Selected, s.Vectors, s.ManifestFiles, s.Name)
		width := 0
		for _, h := range s.Authority {
			width = max(width, len(h.Name))
		}
		for i, h := range s.Authority {
			label := "authority"
			if i > 0 {
				label = ""
			}
			t.printf("  %-10s %-9s %-*s %s (%d bytes)\n", "", label, width, h.Name, h.Hex, h.Length)
		}
	}
	t.printf("\n")
}

var statusLabel = map[Status]string{
	Pass: "PASS", PassOther: "PASS-OTHER", Fail: "FAIL", Warn: "WARN", XFail: "XFAIL", XPass: "XPASS",
	NotApplicable: "N/A", NotRun: "NOT RUN", Error: "ERROR", Reading: "READING", OtherReading: "OTHER",
}

// declaredText says which readings the testee declared and how many
// vectors that changed.
func declaredText(r *Report) string {
	if len(r.Testee.Readings) == 0 {
		return "none declared: judged by every reading's default (docs/READINGS.md)"
	}
	var parts []string
	for _, id := range reading.IDs(r.Testee.Readings) {
		parts = append(parts, id+"="+r.Testee.Readings[id])
	}
	c := r.Counts
	return fmt.Sprintf("declared %s: %s changed (%d judged by the declared branch, %s set aside)",
		strings.Join(parts, ", "), plural(c.DeclaredJudged+c.DeclaredSetAside, "vector"), c.DeclaredJudged, plural(c.DeclaredSetAside, "default vector"))
}

// readings lists the vectors whose answer is that of an undeclared
// reading, apart from the failures, the rejections that passed with an
// acceptable code that is not the preferred one, and those that passed for
// another reason (PassOther).
func (t *textWriter) readings(r *Report) {
	var taken, notPreferred, other []*VectorResult
	for _, v := range r.Vectors {
		if v.Status == PassOther {
			other = append(other, v)
		}
		switch {
		case v.Status == Reading:
			taken = append(taken, v)
		case passed(v.Status) && v.NotPreferred != "":
			notPreferred = append(notPreferred, v)
		}
	}
	if len(other) > 0 {
		t.printf("Passed, other reason (rejected as expected, but for another rule than the vector's: not failures; the check the vector is about may be missing):\n")
		for _, v := range other {
			t.printf("PASS-OTHER %s  [%s %s]\n", v.ID, v.Level, citeRules(v))
			t.printf("  why       %s\n", v.OtherReason)
			if v.Got != "" {
				t.printf("  got       %s\n", v.Got)
			}
		}
		t.printf("\n")
	}
	if len(taken) > 0 {
		t.printf("Readings taken but not declared (not MUST failures: the spec is open here; each fails the run until declared in hello):\n")
		for _, v := range taken {
			t.printf("READING %s  [%s %s]\n", v.ID, v.Level, strings.Join(v.Rules, " "))
			t.printf("  reading   %s\n", v.Reason)
			t.printf("  expected  %s (the default reading)\n", v.Expected)
			if v.Got != "" {
				t.printf("  got       %s\n", v.Got)
			}
			if v.Rerun != "" {
				t.printf("  rerun     %s\n", v.Rerun)
			}
		}
		t.printf("\n")
	}
	if len(notPreferred) > 0 {
		t.printf("Acceptable, not preferred (passed: the code is a correct report of the input, the spec naming no precedence):\n")
		for _, v := range notPreferred {
			t.printf("  %s: %s\n", v.ID, v.NotPreferred)
		}
		t.printf("\n")
	}
}

func (t *textWriter) vectors(r *Report, opt TextOptions) {
	lines := opt.StderrLines
	if lines <= 0 {
		lines = 12
	}
	for _, v := range r.Vectors {
		switch v.Status {
		case Fail, Warn, XPass, Error:
		case XFail:
			t.printf("XFAIL %s  [%s %s]%s: %s\n", v.ID, v.Level, citeRules(v), decisionMark(v), v.ExpectedFailure)
			continue
		default:
			continue
		}
		t.printf("%s %s  [%s %s]%s\n", statusLabel[v.Status], v.ID, v.Level, citeRules(v), decisionMark(v))
		if v.Decision != "" {
			t.printf("  decision  %s\n", v.Decision)
		}
		t.printf("  vector    %s %s  %s (%d bytes)\n", v.Op, v.Args, v.Input, v.Size)
		if v.Comment != "" {
			t.printf("            %s\n", v.Comment)
		}
		t.printf("  expected  %s\n", v.Expected)
		if v.Got != "" {
			t.printf("  got       %s\n", v.Got)
		}
		if v.Reason != "" && v.Reason != v.Got && !outcomeMismatch(v.Reason) {
			t.block("  why       ", v.Reason, true)
		}
		if v.RuleNote != "" {
			t.printf("  note      %s\n", v.RuleNote)
		}
		if f := v.Failure; f != nil && f.Stderr != "" {
			t.block("  stderr    | ", lastLines(f.Stderr, lines), false)
		}
		if v.Rerun != "" {
			t.printf("  rerun     %s\n", v.Rerun)
		}
		if v.Show != "" {
			t.printf("  show      %s\n", v.Show)
		}
		t.printf("\n")
	}
	if opt.Verbose {
		t.printf("Vectors:\n")
		for _, v := range r.Vectors {
			t.printf("  %-7s %s", statusLabel[v.Status], v.ID)
			if v.Status == NotApplicable || v.Status == NotRun {
				t.printf("  (%s)", v.Reason)
			}
			t.printf("\n")
		}
		t.printf("\n")
	}
}

// outcomeMismatch reports whether a vectorset.Judge reason only says that
// the outcome differs, which the expected and got lines already show.
func outcomeMismatch(reason string) bool {
	return strings.HasPrefix(reason, "expected rejection by ") && strings.Contains(reason, ", got acceptance: ") ||
		strings.HasPrefix(reason, "expected acceptance, got rejection")
}

// block prints text under a label, continuing lines with the label's width
// (or the label again when it ends with "| "), each line escaped
// (escapeText; with diff, tabs are kept: escapeDiff).
func (t *textWriter) block(label, text string, diff bool) {
	cont := strings.Repeat(" ", len(label))
	if strings.HasSuffix(label, "| ") {
		cont = strings.Repeat(" ", len(label)-2) + "| "
	}
	for i, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		var l any = line
		if diff {
			l = escapeDiff(line)
		}
		if i == 0 {
			t.printf("%s%s\n", label, l)
		} else {
			t.printf("%s%s\n", cont, l)
		}
	}
}

// decisionMark is what a vector line and a rule's vector list show beside
// the rule of a vector whose expectation is a project decision.
func decisionMark(v *VectorResult) string {
	if v == nil || v.Decision == "" {
		return ""
	}
	if len(v.Readings) > 0 {
		return "  (project decision: " + strings.Join(reading.IDs(v.Readings), ", ") + ")"
	}
	return "  (project decision)"
}

func (t *textWriter) rules(r *Report, opt TextOptions) {
	byID := make(map[string]*VectorResult, len(r.Vectors))
	for _, v := range r.Vectors {
		byID[v.ID] = v
	}
	for _, level := range []string{"MUST", "SHOULD"} {
		var all, shown []*RuleSummary
		// Of the rules not shown: those that passed, those some of whose
		// vectors did not run, those no vector of which applied, and those
		// none of whose vectors ran. A rule is tested only when a vector
		// of it ran and was judged: one that did not apply, or did not
		// run, is never said to have been tested or to have passed
		// (issue 30, item 6).
		var passed, partly, na, none int
		tested, notApplied, notRun, notJudged := 0, 0, 0, 0
		for _, s := range r.Rules {
			if s.Level != level {
				continue
			}
			all = append(all, s)
			switch {
			case s.tested():
				tested++
			case s.Verdict == NotRun:
				notRun++
			case s.Verdict == NotApplicable:
				notApplied++
			case s.Verdict == NotJudged:
				notJudged++
			}
			if opt.Verbose || len(s.Vectors) > 0 {
				shown = append(shown, s)
				continue
			}
			switch {
			case s.Verdict == NotRun:
				none++
			case s.Verdict == NotApplicable:
				na++
			case s.Counts[NotRun] > 0:
				partly++
			default:
				passed++
			}
		}
		if len(all) == 0 {
			continue
		}
		if tested == len(all) {
			t.printf("%s rules: %s tested\n", level, plural(len(all), "rule"))
		} else {
			t.printf("%s rules: %s, %d tested", level, plural(len(all), "rule"), tested)
			if notApplied > 0 {
				t.printf(", %d did not apply", notApplied)
			}
			if notRun > 0 {
				t.printf(", %d not run", notRun)
			}
			if notJudged > 0 {
				t.printf(", %d not judged (the testee failed on their vectors)", notJudged)
			}
			if rest := len(all) - tested - notApplied - notRun - notJudged; rest > 0 {
				t.printf(", %d with no vector conform could build", rest)
			}
			t.printf("\n")
		}
		for _, s := range shown {
			t.printf("  %-16s %-6s %s", s.Rule, ruleVerdict(s), countsText(s.Counts))
			if s.ProjectDefined != "" {
				t.printf("  (project-defined)")
			}
			if s.Text != "" {
				t.printf("  %s", clip(s.Text, 100))
			}
			t.printf("\n")
			if !opt.Verbose {
				for _, id := range s.Vectors {
					t.printf("  %-16s        %s%s\n", "", id, decisionMark(byID[id]))
				}
			}
		}
		more := len(shown) > 0
		for _, g := range []struct {
			n          int
			what, rest string
		}{
			{passed, "passed", "that passed"},
			{partly, "passed as far as their vectors ran (some did not run)", "that passed as far as their vectors ran (some did not run)"},
			{na, "did not apply (no vector of them applied)", "that did not apply (no vector of them applied)"},
			{none, "not run (none of their vectors ran)", "none of whose vectors ran"},
		} {
			switch {
			case g.n == 0:
			case !more && g.n == len(all):
				t.printf("  all %d %s\n", g.n, g.what)
			case !more:
				t.printf("  %s %s\n", plural(g.n, "rule"), g.rest)
			default:
				t.printf("  and %s %s\n", plural(g.n, "more rule"), g.rest)
			}
			more = more || g.n > 0
		}
		t.printf("\n")
	}
}

// ruleVerdict is a rule's verdict as the human report writes it.
func ruleVerdict(s *RuleSummary) string { return verdictLabel[s.Verdict] }

var verdictLabel = map[Status]string{
	Fail: "FAIL", Reading: "READING", Warn: "WARN", XFail: "XFAIL", Pass: "PASS", PassOther: "PASS-OTHER", NotRun: "-", NotApplicable: "N/A",
	NotJudged: "NOT JUDGED",
}

var countOrder = []struct {
	s    Status
	name string
}{
	{Pass, "passed"}, {PassOther, "passed for another reason"}, {Fail, "failed"}, {Warn, "warned"}, {XFail, "expected failures"},
	{XPass, "unexpected passes"}, {Error, "errors"}, {Reading, "undeclared readings"}, {OtherReading, "other readings"},
	{NotApplicable, "not applicable"}, {NotRun, "not run"}, {NotJudged, "not judged (the testee failed)"},
}

func countsText(c map[Status]int) string {
	var parts []string
	for _, o := range countOrder {
		if n := c[o.s]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, o.name))
		}
	}
	return strings.Join(parts, ", ")
}

func (t *textWriter) notApplicable(r *Report) {
	why := map[string]int{}
	for _, v := range r.Vectors {
		if v.Status == NotApplicable {
			why[v.Reason]++
		}
	}
	if len(why) == 0 {
		return
	}
	reasons := make([]string, 0, len(why))
	for k := range why {
		reasons = append(reasons, k)
	}
	sort.Slice(reasons, func(i, j int) bool {
		if why[reasons[i]] != why[reasons[j]] {
			return why[reasons[i]] > why[reasons[j]]
		}
		return reasons[i] < reasons[j]
	})
	t.printf("Not applicable (not failures):\n")
	for _, k := range reasons {
		t.printf("  %5d  %s\n", why[k], k)
	}
	t.printf("\n")
}

func (t *textWriter) expectations(r *Report) {
	if len(r.Expectations) == 0 {
		return
	}
	t.printf("Expected-failures file problems (each fails the run):\n")
	for _, p := range r.Expectations {
		t.printf("  %s:%d  %s: %s\n", p.File, p.Line, p.Key, p.Problem)
		for _, id := range p.Vectors {
			t.printf("      %s\n", id)
		}
	}
	t.printf("\n")
}

func (t *textWriter) footer(r *Report) {
	c := r.Counts
	if r.Testee.Stats != nil && r.Testee.Stats.Restarts() > 0 {
		st := r.Testee.Stats
		t.printf("testee restarts: %d (after %s; %s, %s)\n", st.Restarts(), plural(st.Failures, "testee failure"),
			plural(st.IdleExits, "idle exit"), plural(st.Unsolicited, "unsolicited output"))
	}
	if x := exitText(r); x != "" {
		t.printf("testee exit: %s, after its input ended at the end of the run (its stderr ends the tail below)\n", x)
	}
	if r.Testee.StderrTail != "" {
		t.block("testee stderr (tail) | ", lastLines(r.Testee.StderrTail, 8), false)
	}
	if r.Aborted != "" {
		t.block("ABORTED: ", r.Aborted, false)
	}
	if r.ConformError != "" {
		t.block("CONFORM ERROR (not the testee's): ", r.ConformError, false)
	}
	if r.Interrupted {
		t.printf("INTERRUPTED: the report is incomplete\n")
	}
	if r.AdapterHint != "" {
		t.printf("ADAPTER? %s\n", r.AdapterHint)
	}
	// The rate counts the vectors that ran and were judged, not those
	// that did not apply, were set aside or did not run (issue 30, item 6).
	ran := c.Passed + c.PassedOther + c.Failed + c.Warnings + c.XFailed + c.XPassed + c.Readings
	rate := fmt.Sprintf(", %d run", ran)
	if r.Seconds > 0 && ran > 0 {
		rate += fmt.Sprintf(" at %.0f vectors/s", float64(ran)/r.Seconds)
	}
	other := ""
	if c.PassedOther > 0 {
		other = fmt.Sprintf(" (and %d passed for another reason)", c.PassedOther)
	}
	t.printf("%s in %s%s: %d passed%s, %d failed (%s), %s, %s, %s, %d not applicable",
		plural(c.Selected, "vector"), (time.Duration(r.Seconds * float64(time.Second))).Round(time.Millisecond), rate,
		c.Passed, other, c.Failed, plural(c.TesteeFailures, "testee failure"), plural(c.Warnings, "warning"),
		plural(c.XFailed, "expected failure"), plural(c.XPassed, "unexpected pass", "unexpected passes"), c.NotApplicable)
	if c.NotRun > 0 {
		t.printf(", %d not run", c.NotRun)
	}
	if c.Errors > 0 {
		t.printf(", %d errors", c.Errors)
	}
	if c.Readings > 0 {
		t.printf(", %s", plural(c.Readings, "undeclared reading"))
	}
	if c.NotPreferred > 0 {
		t.printf(", %d acceptable not preferred", c.NotPreferred)
	}
	if c.OtherReading > 0 {
		t.printf(", %d of other readings' branches", c.OtherReading)
	}
	if n := c.DeclaredJudged + c.DeclaredSetAside; n > 0 {
		t.printf("; declared readings changed %s", plural(n, "vector"))
	}
	t.printf("\n%s (exit status %d)\n", verdictText(r), r.ExitCode)
}

// verdictText is the report's last line.
func verdictText(r *Report) string {
	c := r.Counts
	switch r.ExitCode {
	case ExitPass:
		if c.Warnings > 0 {
			return fmt.Sprintf("PASS with %s (SHOULD)", plural(c.Warnings, "warning"))
		}
		return "PASS"
	case ExitFail:
		var why []string
		if n := c.Failed; n > 0 {
			why = append(why, plural(n, "failure"))
		}
		if n := c.XPassed; n > 0 {
			why = append(why, plural(n, "unexpected pass", "unexpected passes"))
		}
		if n := c.Readings; n > 0 {
			why = append(why, plural(n, "vector")+" taking an undeclared reading (declare it in hello)")
		}
		if n := len(r.Expectations); n > 0 {
			why = append(why, plural(n, "expected-failures problem"))
		}
		for _, s := range r.NothingPassed {
			why = append(why, "no vector of suite "+s+" passed")
		}
		return "FAIL: " + strings.Join(why, ", ")
	case ExitSetup:
		if r.ConformError != "" {
			return "ERROR: " + firstLine(r.ConformError)
		}
		return fmt.Sprintf("ERROR: %s conform could not build", plural(c.Errors, "vector"))
	case ExitTestee:
		return "ERROR: the testee could not be run"
	case ExitInterrupted:
		return "INTERRUPTED"
	}
	return ""
}

func plural(n int, one string, many ...string) string {
	if n == 1 {
		return "1 " + one
	}
	if len(many) > 0 {
		return fmt.Sprintf("%d %s", n, many[0])
	}
	return fmt.Sprintf("%d %ss", n, one)
}

func orText(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

// lastLines returns the last n lines of s.
// A line longer than 1 KiB shows its first KiB.
func lastLines(s string, n int) string {
	s = strings.TrimRight(s, "\n")
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = append([]string{fmt.Sprintf("... (%d earlier lines)", len(lines)-n)}, lines[len(lines)-n:]...)
	}
	for i, l := range lines {
		lines[i] = bound(l, 1<<10)
	}
	return strings.Join(lines, "\n")
}

// ShellJoin renders argv as one POSIX shell command line, quoting where
// needed.
func ShellJoin(argv []string) string {
	parts := make([]string, len(argv))
	for i, a := range argv {
		parts[i] = shellQuote(a)
	}
	return strings.Join(parts, " ")
}

func shellQuote(s string) string {
	if s == "" {
		return "''"
	}
	safe := true
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-_./:=,+@%", c)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
