package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/threespec/conformance/harness"
	"github.com/threespec/conformance/testee"
)

const smokeHead = `usage: conform smoke [flags] -- TESTEE ARGS...
  Checks TESTEE's adapter, not its implementation, with a few requests:
  hello, one input that must be accepted and one that must be rejected per
  claimed operation, an unknown operation, a large input, an id beyond 32
  bits, an input by path (if claimed); with --one-shot, TESTEE ARGS... OP
  runs once per request and the id and by-path checks are skipped. Each
  failure names the adapter
  problem on one line. Exit status: 0 every check passed, 1 a check failed,
  2 usage or setup error.
`

// smokeCmd is `conform smoke`.
func smokeCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("conform smoke", flag.ContinueOnError)
	fs.SetOutput(stderr)
	vectors := fs.String("vectors", "vectors", "vectors directory holding <suite>.index.json")
	manifest := fs.String("manifest", "", "manifest directory (default: manifest/ beside the vectors directory)")
	var pol harness.Policy
	fs.Var((*harness.ListFlag)(&pol.Profiles), "profile", "add to the profiles the testee claims")
	oneShot := fs.Bool("one-shot", false, "one-shot mode: run TESTEE ARGS... OP once per request (the id and by-path checks are skipped)")
	tf := harness.AddTesteeFlags(fs)
	fs.Usage = harness.Usage(fs, smokeHead)
	if err := fs.Parse(args); err != nil {
		return harness.HelpStatus(err)
	}
	command := fs.Args()
	fail := func(err error) int { fmt.Fprintln(stderr, "conform smoke:", err); return harness.ExitSetup }
	if len(command) == 0 {
		return fail(fmt.Errorf("no testee: conform smoke [flags] -- TESTEE ARGS..."))
	}
	opts := tf.Options()
	opts.OneShot = *oneShot
	if err := opts.Check(); err != nil {
		return fail(err)
	}
	if err := pol.Check(specs); err != nil {
		return fail(err)
	}
	if *manifest == "" {
		*manifest = harness.DefaultManifestDir(*vectors)
	}
	suites, err := harness.LoadSuites(specs.SuiteDefs(), *vectors, *manifest, nil)
	if err != nil {
		return fail(err)
	}
	t, closeTrace, err := tf.Start(command, opts, stderr)
	if err != nil {
		return fail(err)
	}
	defer closeTrace()
	var inputs *harness.InputFiles // the by-path check; one-shot mode has none
	if !*oneShot {
		inputs = harness.NewInputFiles()
		defer removeInputs(inputs, stderr)
	}
	ctx, stop := harness.OnInterrupt(context.Background(), stderr, func() {
		t.Impl.(testee.Killer).Kill()
		removeInputs(inputs, stderr)
	})
	defer stop()
	rs := harness.Smoke(ctx, harness.SmokeConfig{Specs: specs, Suites: suites, Impl: t.Impl, Policy: pol, InputPaths: inputs, OneShot: *oneShot})
	t.Impl.Close()
	for _, r := range rs {
		fmt.Fprintf(stdout, "%-4s %s: %s\n", r.Status, r.Check, r.Detail)
	}
	if n := harness.SmokeFailed(rs); n > 0 {
		fmt.Fprintf(stdout, "conform smoke: %d of %d checks failed: the adapter, not the implementation, is at fault (docs/PROTOCOL.md, \"Writing a testee: a checklist\")\n", n, len(rs))
		return harness.ExitFail
	}
	next := "conform run -- "
	if *oneShot {
		next = "conform run --one-shot -- "
	}
	fmt.Fprintf(stdout, "conform smoke: the adapter passed %d checks; now %s%s\n", len(rs), next, harness.ShellJoin(command))
	return harness.ExitPass
}
