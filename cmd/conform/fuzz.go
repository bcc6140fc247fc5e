package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/threespec/conformance/harness"
	"github.com/threespec/conformance/impl/hiverelay/hivefuzz"
	"github.com/threespec/conformance/impl/lace/lacefuzz"
	"github.com/threespec/conformance/impl/libtracer/tracerfuzz"
	"github.com/threespec/conformance/internal/fuzzgen"
	"github.com/threespec/conformance/testee"
)

// fuzzGens are the wings' fuzz generators: each format's generation lives
// in its wing; this list is the one place conform names them.
var fuzzGens = []fuzzgen.Generator{lacefuzz.Generator, hivefuzz.Generator, tracerfuzz.Generator}

const fuzzHead = `usage: conform fuzz [flags] -- TESTEE ARGS...
  Generates inputs for every operation TESTEE claims, from each format's
  structure (numbers weighted to their boundaries, text from every Unicode
  plane, mutation operators at random places), asks TESTEE and the
  reference (under the readings TESTEE declares), and reports every
  distinct disagreement, shrunk; --out writes each as a candidate vector.
  Exit status: 0 no disagreement, 1 disagreements, 2 usage or setup error,
  3 the testee could not be run, 130 interrupted.
`

// fuzzCmd is `conform fuzz`.
func fuzzCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("conform fuzz", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var suites, ops []string
	fs.Var((*harness.ListFlag)(&suites), "suite", "fuzz these suites' operations only (lace, hiverelay, libtracer)")
	fs.Var((*harness.ListFlag)(&ops), "op", "fuzz these operations only")
	seedFlag := fs.String("seed", "", "the run's seed (a decimal u64; default: drawn, and printed)")
	dur := fs.Duration("time", 0, "fuzz for this long (default 1m when --count is not given)")
	count := fs.Int64("count", 0, "fuzz this many cases")
	jobs := fs.Int("j", min(runtime.NumCPU(), harness.MaxJobs), fmt.Sprintf("cases at once: persistent testee processes, or one-shot runs (1 to %d)", harness.MaxJobs))
	out := fs.String("out", "", "write each finding as a candidate vector under `DIR` (conform run --vectors DIR/vectors runs them)")
	replay := fs.String("replay", "", "run case `SEED:N` alone and show both answers")
	vectors := fs.String("vectors", "vectors", "the vectors directory whose suites --out copies beside the candidates")
	manifestDir := fs.String("manifest", "", "its manifest directory (default: manifest/ beside it)")
	oneShot := fs.Bool("one-shot", false, "one-shot mode: run TESTEE ARGS... OP once per case")
	timeout := fs.Duration("timeout", 10*time.Second, "per-request timeout")
	perMiB := fs.Duration("timeout-per-mib", 500*time.Millisecond, "added to the per-request timeout for every started MiB of input")
	helloTimeout := fs.Duration("hello-timeout", 5*time.Minute, "timeout of the first request, hello (allows for go run compiling)")
	maxResponse := fs.Int("max-response", testee.DefaultMaxLine, "read cap of one answer in bytes; longer is a flood")
	jsonOut := fs.String("json", "", "also write the JSON summary to `file` (- for standard output)")
	stopAfter := fs.Int("stop-after", 0, "end the run once `N` distinct disagreements are found (0: never)")
	quiet := fs.Bool("q", false, "no progress line")
	faults := fs.Bool("faults", false, "no testee: fuzz the in-process reference with each rule fault and named mutant of the proof in turn, --time each (default 60s), and report which fuzz alone finds and how fast")
	faultID := fs.String("id", "", "with --faults: only the faults whose ID matches this `glob`")
	fs.Usage = harness.Usage(fs, fuzzHead)
	if err := fs.Parse(args); err != nil {
		return harness.HelpStatus(err)
	}
	fail := func(err error) int { fmt.Fprintln(stderr, "conform fuzz:", err); return harness.ExitSetup }
	command := fs.Args()
	if len(command) == 0 && !*faults {
		return fail(errors.New("no testee: conform fuzz [flags] -- TESTEE ARGS..."))
	}
	opts := harness.TesteeOptions{OneShot: *oneShot, Jobs: *jobs, Timeout: *timeout, TimeoutPerMiB: *perMiB, HelloTimeout: *helloTimeout, MaxResponse: *maxResponse}
	switch {
	case *jobs < 1 || *jobs > harness.MaxJobs:
		return fail(fmt.Errorf("-j %d: from 1 to %d", *jobs, harness.MaxJobs))
	case *maxResponse < 1:
		return fail(fmt.Errorf("--max-response %d: a read cap of at least 1 byte", *maxResponse))
	case *count < 0 || *dur < 0:
		return fail(errors.New("--count and --time cannot be negative"))
	}
	if err := opts.Check(); err != nil {
		return fail(err)
	}
	for _, s := range suites {
		if _, ok := specs.Lookup(s); !ok {
			return fail(fmt.Errorf("--suite %s: the suites are %s", s, strings.Join(specs.Names(), ", ")))
		}
	}
	known := map[string]bool{}
	for _, g := range fuzzGens {
		for _, op := range g.Ops {
			known[op] = true
		}
	}
	for _, op := range ops {
		if !known[op] {
			return fail(fmt.Errorf("--op %s: not an operation conform fuzz generates for", op))
		}
	}
	cfg := harness.FuzzConfig{Specs: specs, Gens: fuzzGens, Suites: suites, Ops: ops, Jobs: *jobs, Count: *count, Time: *dur, StopAfter: *stopAfter}
	if *dur == 0 && *count == 0 {
		cfg.Time = time.Minute
	}
	switch {
	case *replay != "":
		s, n, ok := strings.Cut(*replay, ":")
		seed, err1 := strconv.ParseUint(s, 10, 64)
		c, err2 := strconv.ParseInt(n, 10, 64)
		if !ok || err1 != nil || err2 != nil || c < 0 {
			return fail(fmt.Errorf("--replay %q: SEED:N, two decimal numbers", *replay))
		}
		cfg.Seed, cfg.Replay, cfg.Time, cfg.Jobs = seed, &c, 0, 1
		opts.Jobs = 1
	case *seedFlag != "":
		seed, err := strconv.ParseUint(*seedFlag, 10, 64)
		if err != nil {
			return fail(fmt.Errorf("--seed %q: a decimal u64", *seedFlag))
		}
		cfg.Seed = seed
	default:
		cfg.Seed = uint64(time.Now().UnixNano())
	}
	if *faults {
		if len(command) > 0 {
			return fail(errors.New("--faults fuzzes the in-process reference: no testee"))
		}
		if *seedFlag == "" {
			cfg.Seed = 1
		}
		var jw io.Writer
		if *jsonOut != "" {
			f, err := os.Create(*jsonOut)
			if err != nil {
				return fail(err)
			}
			defer f.Close()
			jw = f
		}
		return faultsCmd(cfg, *faultID, jw, stdout, stderr)
	}
	var jsonW io.Writer
	text := stdout
	if *jsonOut == "-" {
		jsonW, text = stdout, stderr
	} else if *jsonOut != "" {
		f, err := os.Create(*jsonOut)
		if err != nil {
			return fail(err)
		}
		defer f.Close()
		jsonW = f
	}

	mode := "persistent"
	if *oneShot {
		mode = "one-shot"
	}
	t, err := harness.StartTestee(command, opts)
	if err != nil {
		return fail(err)
	}
	ctx, stop := harness.OnInterrupt(context.Background(), stderr, func() { t.Impl.(testee.Killer).Kill() })
	defer stop()
	cfg.Impl, cfg.Stats, cfg.Stderr, cfg.Endings = t.Impl, t.Stats, t.Stderr, t.Endings
	cfg.Testee = harness.TesteeInfo{Command: command, Mode: mode, Jobs: cfg.Jobs, Inputs: "base64"}
	if *oneShot {
		cfg.Testee.Inputs = "stdin"
	}
	clear := func() {}
	if f, ok := stderr.(*os.File); ok && !*quiet && harness.IsTerminal(f) {
		cfg.Progress, clear = fuzzProgressLine(stderr)
	}
	fmt.Fprintf(stderr, "conform fuzz: seed %d\n", cfg.Seed)
	rep := harness.Fuzz(ctx, cfg)
	t.Impl.Close()
	stop()
	clear()
	if *out != "" && len(rep.Findings) > 0 {
		if err := harness.WriteFuzzCandidates(*out, specs, fuzzGens, rep, harness.FuzzSource{VectorsDir: *vectors, ManifestDir: *manifestDir}); err != nil {
			fmt.Fprintln(stderr, "conform fuzz:", err)
			rep.ConformError, rep.ExitCode = err.Error(), harness.ExitSetup
		}
	}
	writeFuzzText(text, rep, *out, command)
	if jsonW != nil {
		b, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return fail(err)
		}
		if _, err := jsonW.Write(append(b, '\n')); err != nil {
			return fail(err)
		}
	}
	return rep.ExitCode
}

// fuzzProgressLine redraws one line on a terminal: execs, execs/s,
// findings and the distinct rules the reference cited so far.
func fuzzProgressLine(w io.Writer) (func(harness.FuzzProgress), func()) {
	draw, clear := harness.RedrawLine(w)
	return func(p harness.FuzzProgress) {
		rate := 0.0
		if s := p.Elapsed.Seconds(); s > 0 {
			rate = float64(p.Execs) / s
		}
		draw(fmt.Sprintf("conform fuzz: %d execs, %.0f/s, %d findings, %d rules cited, %.0fs", p.Execs, rate, p.Findings, p.RulesCited, p.Elapsed.Seconds()))
	}, clear
}

// writeFuzzText writes the human summary; it names the seed first and
// last.
func writeFuzzText(w io.Writer, rep *harness.FuzzReport, out string, command []string) {
	fmt.Fprintf(w, "conform fuzz: seed %d, testee %s (%s, -j %d)\n", rep.Seed, strings.Join(command, " "), rep.Testee.Mode, rep.Testee.Jobs)
	if len(rep.Readings) > 0 {
		var rd []string
		for id, alt := range rep.Readings {
			rd = append(rd, id+"="+alt)
		}
		fmt.Fprintf(w, "readings: declared %s (the reference takes them)\n", strings.Join(rd, ", "))
	}
	if len(rep.Ops) > 0 {
		fmt.Fprintf(w, "ops: %s\n", strings.Join(rep.Ops, ", "))
	}
	if r := rep.Replayed; r != nil {
		fmt.Fprintf(w, "case %d: %s args %s, %d input bytes (%s", r.Case, r.Op, r.Args, len(r.Input), r.Generator)
		if len(r.Operators) > 0 {
			fmt.Fprintf(w, "; %s", strings.Join(r.Operators, ", "))
		}
		fmt.Fprintf(w, "; parent %s)\n  input (hex): %x\n  reference: %s\n  testee:    %s\n", r.Parent, r.Input[:min(len(r.Input), 512)], r.Expected, r.Got)
		if r.Reason != "" {
			fmt.Fprintf(w, "  %s\n", r.Reason)
		}
	} else {
		fmt.Fprintf(w, "%d execs in %.1fs (%.0f execs/s), %d shrinking; %d rules cited by the reference; %d cases the reference could not answer, %d answered unsupported\n",
			rep.Execs, rep.Seconds, rep.ExecsPerSecond, rep.ShrinkExecs, len(rep.RulesCited), rep.Skipped, rep.Unsupported)
		if rep.OtherOrder > 0 {
			fmt.Fprintf(w, "%d rejections with another code than the reference's that the spec allows: one a check order the spec leaves free reports first, or any where such a check has no code the spec names (agreements, as a vector's acceptable_codes)\n", rep.OtherOrder)
		}
	}
	if len(rep.Findings) > 0 {
		fmt.Fprintf(w, "\n%d distinct disagreements:\n", len(rep.Findings))
	}
	for _, f := range rep.Findings {
		fmt.Fprintf(w, "- %s [%s]: %d cases; first case %d after %.1fs (--replay %d:%d), %s", f.Key, f.Kind, f.Count, f.Case, f.After, rep.Seed, f.Case, f.Generator)
		if len(f.Operators) > 0 {
			fmt.Fprintf(w, ", %s", strings.Join(f.Operators, ", "))
		}
		fmt.Fprintf(w, "; shrunk from %d to %d bytes\n", f.Size, f.ShrunkSize)
		if len(f.Readings) > 0 {
			var rd []string
			for id, alt := range f.Readings {
				rd = append(rd, id+"="+alt)
			}
			fmt.Fprintf(w, "    readings: %s\n", strings.Join(rd, ", "))
		}
		fmt.Fprintf(w, "    reference: %s\n    testee:    %s\n", f.Expected, f.Got)
		if f.Vector != "" {
			fmt.Fprintf(w, "    candidate: %s (conform run --vectors %s/vectors --id '%s' -- ...)\n", f.Vector, out, f.Vector)
		}
	}
	switch {
	case rep.ConformError != "":
		fmt.Fprintf(w, "ERROR: %s\n", rep.ConformError)
	case rep.Aborted != "":
		fmt.Fprintf(w, "ABORTED: %s\n", rep.Aborted)
	case rep.Interrupted:
		fmt.Fprintln(w, "INTERRUPTED")
	case rep.ExitCode == 0:
		fmt.Fprintln(w, "PASS: no disagreement with the reference")
	default:
		fmt.Fprintln(w, "FAIL: the testee disagrees with the reference")
	}
	fmt.Fprintf(w, "seed %d\n", rep.Seed)
}
