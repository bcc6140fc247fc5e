package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"github.com/threespec/conformance/harness"
	"github.com/threespec/conformance/impl/hiverelay/hivespec"
	"github.com/threespec/conformance/impl/lace/lacespec"
	"github.com/threespec/conformance/impl/libtracer/tracerspec"
	"github.com/threespec/conformance/impl/spec"
	"github.com/threespec/conformance/testee"
)

const runHead = `usage: conform run [flags] -- TESTEE ARGS...
  Runs every selected vector against TESTEE and reports. Exit status: 0 every
  required vector passed, 1 conformance failures, 2 usage or setup error,
  3 the testee could not be run, 130 interrupted.
`

// specs are the specs conform knows, in report order: each wing declares
// its Spec; this list is the one place conform names them.
var specs = spec.MustSet(lacespec.Spec, hivespec.Spec, tracerspec.Spec)

// runCmd is `conform run`.
func runCmd(args []string, stdout, stderr io.Writer) int {
	return runOrVerify(args, stdout, stderr, nil)
}

// reportFlags are the flags of conform run that say where its reports go
// and how they look: not part of what a claim pins (Header.Args).
var reportFlags = []string{"json", "junit", "claim", "v", "q", "profile-times"}

// runOrVerify is conform run, and with a claim the run of conform verify:
// the suites must be the claim's (a *harness.SetHashMismatch otherwise),
// and after the run the claim is compared with what came back (verify.go).
func runOrVerify(args []string, stdout, stderr io.Writer, v *verification) int {
	name := "conform run"
	if v != nil {
		name = "conform verify"
	}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	vectors := fs.String("vectors", "vectors", "vectors directory holding <suite>.index.json")
	manifest := fs.String("manifest", "", "manifest directory (default: manifest/ beside the vectors directory)")
	var sel harness.Selection
	var pol harness.Policy
	fs.Var((*harness.ListFlag)(&sel.Suites), "suite", "select suites (lace, hiverelay, libtracer; repeatable, comma-separated)")
	fs.Var((*harness.ListFlag)(&sel.Ops), "op", "select operations")
	fs.Var((*harness.ListFlag)(&sel.Rules), "rule", "select vectors testing these rule IDs")
	fs.Var((*harness.ListFlag)(&sel.Tags), "tag", "select vectors carrying these tags")
	fs.Var((*harness.ListFlag)(&sel.IDs), "id", "select vector IDs matching these globs (* does not cross /; a glob without / matches the vector's name)")
	fs.Var((*harness.ListFlag)(&sel.Skip), "skip", "leave out vector IDs matching these globs (as --id)")
	fs.Var((*harness.ListFlag)(&pol.Profiles), "profile", "add to the profiles the testee claims (lace-009, lace-mark-bip340-standin)")
	fs.StringVar(&pol.Mark, "mark", harness.RelyOn(specs), "Mark checking to rely on: bip340-standin, or none (vectors needing the stand-in scheme do not apply)")
	expectFile := fs.String("expect-fail", "", "expected-failures `file`: a vector or rule ID per line, then the reason")
	oneShot := fs.Bool("one-shot", false, "one-shot mode: run TESTEE ARGS... OP once per vector")
	jobs := fs.Int("j", min(runtime.NumCPU(), harness.MaxJobs), fmt.Sprintf("vectors run at once: persistent testee processes, or one-shot runs (1 to %d; no more than the selection's vectors)", harness.MaxJobs))
	tf := harness.AddTesteeFlags(fs)
	maxResponse := fs.Int("max-response", testee.DefaultMaxLine, "read cap of one answer in bytes; longer is a flood")
	jsonOut := fs.String("json", "", "also write the JSON report to `file` (- for standard output)")
	junitOut := fs.String("junit", "", "also write a JUnit XML report to `file` (- for standard output)")
	claimOut := fs.String("claim", "", "also write the run's conformance claim to `file` (- for standard output; docs/CLAIM.md)")
	verbose := fs.Bool("v", false, "list every vector and every rule, and the ten slowest vectors")
	profileTimes := fs.Bool("profile-times", false, "list the ten slowest vectors with their time split")
	noInputPath := fs.Bool("no-input-path", false, "send every input in its request (base64), also to a testee claiming input-path")
	quiet := fs.Bool("q", false, "no progress line")
	fs.Usage = harness.Usage(fs, runHead)
	if err := fs.Parse(args); err != nil {
		return harness.HelpStatus(err)
	}
	command := fs.Args()
	fail := func(err error) int { fmt.Fprintf(stderr, "%s: %v\n", name, err); return harness.ExitSetup }
	if len(command) == 0 {
		return fail(fmt.Errorf("no testee: conform run [flags] -- TESTEE ARGS..."))
	}
	// Usage errors, before anything is read or started (issue 30): flags
	// under which every request would fail for conform's own reasons.
	opts := tf.Options()
	opts.OneShot, opts.Jobs, opts.MaxResponse = *oneShot, *jobs, *maxResponse
	switch {
	case *jobs < 1:
		return fail(fmt.Errorf("-j %d: from 1 to %d", *jobs, harness.MaxJobs))
	case *maxResponse < 1:
		return fail(fmt.Errorf("--max-response %d: a read cap of at least 1 byte", *maxResponse))
	}
	if err := opts.Check(); err != nil {
		return fail(err)
	}
	if err := sel.Check(); err != nil {
		return fail(err)
	}
	if err := pol.Check(specs); err != nil {
		return fail(err)
	}
	if *manifest == "" {
		*manifest = harness.DefaultManifestDir(*vectors)
	}
	suites, err := harness.LoadSuites(specs.SuiteDefs(), *vectors, *manifest, sel.Suites)
	if err != nil {
		return fail(err)
	}
	if v != nil {
		if err := v.claim.CheckSetHashes(suites); err != nil {
			return fail(fmt.Errorf("%s refused: %w", v.file, err))
		}
	}
	selected := sel.Count(suites)
	if selected == 0 {
		return fail(sel.NoMatch(suites, *vectors))
	}
	var expect *harness.Expectations
	if *expectFile != "" {
		if expect, err = readExpectations(*expectFile); err != nil {
			return fail(err)
		}
	}
	outs, err := openReports(stdout, stderr, *jsonOut, *junitOut, *claimOut)
	if err != nil {
		return fail(err)
	}
	defer outs.close()

	// The inputs directories of runs killed before they could remove them
	// (issue 30, item 18).
	stale, err := harness.RemoveStaleInputs(os.TempDir())
	if len(stale) > 0 {
		fmt.Fprintf(stderr, "conform run: removed %d inputs folder(s) left by runs that were killed: %s\n", len(stale), strings.Join(stale, ", "))
	}
	if err != nil {
		fmt.Fprintln(stderr, "conform run: removing the inputs folders of killed runs:", err)
	}

	// No more processes or one-shot runs than vectors to ask.
	mode, nJobs := "persistent", max(min(*jobs, selected), 1)
	if *oneShot {
		mode = "one-shot"
	}
	opts.Jobs = nJobs
	t, closeTrace, err := tf.Start(command, opts, stderr)
	if err != nil {
		return fail(err)
	}
	defer closeTrace()
	var inputs *harness.InputFiles
	if !*oneShot && !*noInputPath {
		inputs = harness.NewInputFiles()
		defer removeInputs(inputs, stderr)
	}
	ctx, stop := harness.OnInterrupt(context.Background(), stderr, func() {
		t.Impl.(testee.Killer).Kill() // at once: no waiting for a request or a grace period
		removeInputs(inputs, stderr)
	})
	defer stop()
	cfg := harness.Config{
		InputPaths: inputs,
		Specs:      specs, Suites: suites, Selection: sel, Policy: pol, Expect: expect,
		Impl: t.Impl, Stats: t.Stats, Stderr: t.Stderr, Endings: t.Endings, Jobs: nJobs,
		Testee: harness.TesteeInfo{Command: command, Mode: mode, Jobs: nJobs},
		Args:   harness.SetFlags(fs, reportFlags),
		Show:   harness.ShowFunc(harness.ProgramName(os.Args[0]), *vectors),
		Rerun: harness.RerunFunc(harness.ProgramName(os.Args[0]), "run", fs,
			[]string{"suite", "op", "rule", "tag", "id", "expect-fail", "j", "json", "junit", "v", "q", "profile-times"}, command),
	}
	clearProgress := func() {}
	if f, ok := stderr.(*os.File); ok && !*quiet && harness.IsTerminal(f) {
		cfg.Progress, clearProgress = harness.ProgressLine(stderr)
	}
	rep := harness.Run(ctx, cfg)
	t.Impl.Close()
	stop()
	clearProgress()
	removeInputs(inputs, stderr)
	if v != nil {
		return v.report(outs, rep, harness.TextOptions{Verbose: *verbose, ProfileTimes: *profileTimes}, stdout)
	}
	if err := outs.write(rep, harness.TextOptions{Verbose: *verbose, ProfileTimes: *profileTimes}); err != nil {
		return fail(err)
	}
	return rep.ExitCode
}

func readExpectations(file string) (*harness.Expectations, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, &harness.SetupError{Err: err}
	}
	defer f.Close()
	return harness.ParseExpectations(specs, f, file)
}

// removeInputs removes the run's input files (nil: none), noting a failure.
func removeInputs(f *harness.InputFiles, stderr io.Writer) {
	if f == nil {
		return
	}
	if err := f.Remove(); err != nil {
		fmt.Fprintln(stderr, "conform run: removing the input files:", err)
	}
}
