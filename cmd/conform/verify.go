package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/threespec/conformance/harness"
)

const verifyHead = `usage: conform verify [flags] CLAIM -- TESTEE ARGS...
  Runs the vectors of a conformance claim (conform run --claim) again, with
  the claim's flags, against TESTEE, and says whether the claim holds: every
  vector with the claimed outcome and answer digest. A claim made against
  other vector sets than these is refused, naming both. Exit status: 0 the
  claim holds, 1 it does not (every differing vector is named), 2 usage or
  setup error (a refused claim included), 3 the testee could not be run,
  130 interrupted.
`

// verification is what conform verify hands the run: the claim and how to
// report the comparison.
type verification struct {
	claim   *harness.Claim
	file    string
	verbose bool
}

// verifyCmd is `conform verify`.
func verifyCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("conform verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	vectors := fs.String("vectors", "", "vectors directory (default: the claim's --vectors, else vectors)")
	manifest := fs.String("manifest", "", "manifest directory (default: the claim's, else manifest/ beside the vectors directory)")
	jsonOut := fs.String("json", "", "also write the re-run's JSON report to `file` (- for standard output)")
	junitOut := fs.String("junit", "", "also write the re-run's JUnit XML report to `file` (- for standard output)")
	verbose := fs.Bool("v", false, "print the re-run's human report before the comparison")
	quiet := fs.Bool("q", false, "no progress line")
	fs.Usage = harness.Usage(fs, verifyHead)
	if err := fs.Parse(args); err != nil {
		return harness.HelpStatus(err)
	}
	rest := fs.Args()
	fail := func(err error) int { fmt.Fprintln(stderr, "conform verify:", err); return harness.ExitSetup }
	if len(rest) < 3 || rest[1] != "--" {
		return fail(fmt.Errorf("want CLAIM -- TESTEE ARGS...: conform verify [flags] CLAIM -- TESTEE ARGS..."))
	}
	file, command := rest[0], rest[2:]
	f, err := os.Open(file)
	if err != nil {
		return fail(err)
	}
	claim, err := harness.ReadClaim(f)
	f.Close()
	if err != nil {
		return fail(fmt.Errorf("%s: %w", file, err))
	}
	var runArgs []string
	for _, a := range claim.Header.Args {
		if *vectors != "" && strings.HasPrefix(a, "--vectors=") || *manifest != "" && strings.HasPrefix(a, "--manifest=") {
			continue
		}
		runArgs = append(runArgs, a)
	}
	for _, o := range []struct{ flag, v string }{{"vectors", *vectors}, {"manifest", *manifest}, {"json", *jsonOut}, {"junit", *junitOut}} {
		if o.v != "" {
			runArgs = append(runArgs, "--"+o.flag+"="+o.v)
		}
	}
	if *quiet {
		runArgs = append(runArgs, "-q")
	}
	if *verbose {
		runArgs = append(runArgs, "-v")
	}
	runArgs = append(append(runArgs, "--"), command...)
	return runOrVerify(runArgs, stdout, stderr, &verification{claim: claim, file: file, verbose: *verbose})
}

// report writes the re-run's machine reports (and its human report with
// -v), then the comparison with the claim, and returns the exit status.
func (v *verification) report(outs *reports, rep *harness.Report, opt harness.TextOptions, stdout io.Writer) int {
	var err error
	if v.verbose {
		err = outs.write(rep, opt)
	} else if err = outs.writeMachine(rep); err != nil {
		rep.SetConformError(err.Error())
	}
	w := outs.text
	h := v.claim.Header
	fmt.Fprintf(w, "conform verify: claim %s: %s, %d vectors, results digest %s\n", v.file, v.claim.Label(), len(v.claim.Vectors), h.ResultsDigest)
	fmt.Fprintf(w, "  claimed by  %s, ended %s\n", h.Conform.String(), h.Ended.Format("2006-01-02T15:04:05Z07:00"))
	fmt.Fprintf(w, "  re-run      %s against %s: results digest %s\n", rep.Header.Conform.String(), harness.ShellJoin(rep.Testee.Command), rep.Header.ResultsDigest)
	if i := rep.Header.Implementation; i != nil {
		fmt.Fprintf(w, "  testee      %s\n", i.String())
	}
	switch {
	case err != nil:
		fmt.Fprintln(w, "ERROR:", rep.ConformError)
		return harness.ExitSetup
	case rep.ExitCode == harness.ExitSetup || rep.ExitCode == harness.ExitTestee || rep.ExitCode == harness.ExitInterrupted:
		why := rep.Aborted
		if rep.ConformError != "" {
			why = rep.ConformError
		}
		if rep.Interrupted {
			why = "interrupted"
		}
		fmt.Fprintf(w, "NOT VERIFIED: the re-run did not complete (exit status %d): %s\n", rep.ExitCode, why)
		return rep.ExitCode
	}
	diffs := v.claim.Compare(rep)
	if len(diffs) == 0 {
		fmt.Fprintf(w, "HOLDS: every one of the %d vectors has the claimed outcome and answer digest (exit status 0)\n", len(v.claim.Vectors))
		return harness.ExitPass
	}
	fmt.Fprintf(w, "DOES NOT HOLD: %d of %d vectors differ from the claim:\n", len(diffs), len(v.claim.Vectors))
	for _, d := range diffs {
		fmt.Fprintf(w, "  %s\n", harness.EscapeText(d.String()))
	}
	fmt.Fprintln(w, "(exit status 1)")
	return harness.ExitFail
}
