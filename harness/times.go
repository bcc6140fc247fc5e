package harness

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// Times is the time split of a run (docs/CONFORM.md, "Where the time goes"):
// what the runner spent verifying the vector sets, moving inputs to the
// testee, waiting for the testee, and judging its answers. The per-vector
// parts are sums over the vectors; with several jobs (one-shot -j N) they
// overlap, and their sum exceeds the wall time.
type Times struct {
	// Verification: loading the suites and verifying them against their
	// manifests (and the HiveRelay authority), before anything runs (the
	// suites at once: from the first's start to the last's end).
	Verification float64 `json:"verification_s"`
	// Transfer: loading and checking each input, writing it to a file
	// (input_path) and writing the request to the testee.
	Transfer float64 `json:"transfer_s"`
	// Testee: from each request written to its answer read (persistent
	// mode), or each testee process's whole run (one-shot mode); hello
	// included.
	Testee float64 `json:"testee_s"`
	// Judging: comparing each answer with the vector's expectation.
	Judging float64 `json:"judging_s"`
	// Wall is the run's duration after verification, hello included.
	Wall float64 `json:"wall_s"`
	// RunnerMaxRSS is the runner's own peak resident set size in bytes, the
	// testee's not included (0 where the system does not say).
	RunnerMaxRSS int64 `json:"runner_max_rss_bytes"`
}

// NotePeakRSS raises the report's runner peak RSS (Times.RunnerMaxRSS) to
// the process's peak so far. cmd/conform calls it after writing the JUnit
// report, the one that builds a copy of the report's texts, and before
// the JSON and human reports, which print the figure and are written a
// vector (a line) at a time: the figure is the peak of the whole run,
// its reports included (issue 30, item 3: taken before the reports were
// written, it understated the peak 8-fold).
func NotePeakRSS(r *Report) { r.Times.RunnerMaxRSS = max(r.Times.RunnerMaxRSS, maxRSS()) }

// VectorTimes splits one vector's time (milliseconds).
type VectorTimes struct {
	Transfer float64 `json:"transfer_ms"`
	Testee   float64 `json:"testee_ms"`
	Judging  float64 `json:"judging_ms"`
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// sumTimes adds the vectors' split to t.
func (t *Times) sumVectors(vs []*VectorResult) {
	for _, v := range vs {
		if v.Times == nil {
			continue
		}
		t.Transfer += v.Times.Transfer / 1000
		t.Testee += v.Times.Testee / 1000
		t.Judging += v.Times.Judging / 1000
	}
}

// timeSplitText renders the time split on one line.
func timeSplitText(t Times) string {
	s := fmt.Sprintf("time:        verification %s, transfer %s, testee %s, judging %s (run %s)",
		secs(t.Verification), secs(t.Transfer), secs(t.Testee), secs(t.Judging), secs(t.Wall))
	if t.RunnerMaxRSS > 0 {
		s += fmt.Sprintf("; runner peak RSS %.1f MiB", float64(t.RunnerMaxRSS)/(1<<20))
	}
	return s
}

func secs(s float64) string {
	if s < 10 {
		return fmt.Sprintf("%.3fs", s)
	}
	return fmt.Sprintf("%.1fs", s)
}

// Slowest returns the n vectors that took longest, slowest first (ties by
// ID).
func Slowest(vs []*VectorResult, n int) []*VectorResult {
	var out []*VectorResult
	for _, v := range vs {
		if v.Times != nil {
			out = append(out, v)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Millis != out[j].Millis {
			return out[i].Millis > out[j].Millis
		}
		return out[i].ID < out[j].ID
	})
	return out[:min(n, len(out))]
}

// slowestText lists the n slowest vectors with their time split.
func slowestText(vs []*VectorResult, n int) string {
	sl := Slowest(vs, n)
	if len(sl) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "slowest %d vectors (ms: total = transfer + testee + judging):\n", len(sl))
	for _, v := range sl {
		fmt.Fprintf(&b, "  %9.1f = %8.1f + %8.1f + %6.1f  %s (%d bytes)\n",
			v.Millis, v.Times.Transfer, v.Times.Testee, v.Times.Judging, v.ID, v.Size)
	}
	return b.String()
}

// timeProperties are the JUnit properties of the time split.
// (the run's, in every testsuite) and how inputs were sent.
func timeProperties(r *Report) []junitProperty {
	t := r.Times
	f := func(s float64) string { return fmt.Sprintf("%.3f", s) }
	ps := []junitProperty{
		{"time.verification", f(t.Verification)}, {"time.transfer", f(t.Transfer)},
		{"time.testee", f(t.Testee)}, {"time.judging", f(t.Judging)}, {"time.wall", f(t.Wall)},
	}
	if r.Testee.Inputs != "" {
		ps = append(ps, junitProperty{"inputs", r.Testee.Inputs})
	}
	return ps
}

// times writes the slowest vectors (with -v or --profile-times) and the
// time split line.
func (t *textWriter) times(r *Report, opt TextOptions) {
	if opt.Verbose || opt.ProfileTimes {
		if s := slowestText(r.Vectors, 10); s != "" {
			t.lines(s)
			t.printf("\n")
		}
	}
	if s := retriedText(r.Vectors, 5); s != "" {
		t.printf("%s\n", s)
	}
	line := timeSplitText(r.Times)
	if r.Testee.Inputs != "" {
		line += "; inputs by " + r.Testee.Inputs
	}
	t.printf("%s\n", line)
}

// retriedText names the vectors asked twice because their first answer
// timed out before the run had measured the testee (up to n of them), ""
// when there are none.
func retriedText(vs []*VectorResult, n int) string {
	var ids []string
	for _, v := range vs {
		if v.Retried != "" {
			ids = append(ids, v.ID)
		}
	}
	if len(ids) == 0 {
		return ""
	}
	s := fmt.Sprintf("retried:     %d vector(s) whose first answer timed out before the run had measured the testee's speed, asked again with more time: ", len(ids))
	if len(ids) > n {
		return s + strings.Join(ids[:n], ", ") + fmt.Sprintf(", ... (JSON: retried)")
	}
	return s + strings.Join(ids, ", ")
}
