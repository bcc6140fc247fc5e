package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/threespec/conformance/harness"
	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/internal/fault"
	"github.com/threespec/conformance/internal/reading"
	"github.com/threespec/conformance/reference"
	"github.com/threespec/conformance/testee"
)

// serveCmd is `conform serve [OP]`: the reference implementation as a
// testee, in persistent mode, or in one-shot mode for OP.
func serveCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("conform serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	maxLine := fs.Int("max-request", testee.DefaultMaxLine, "longest request line (persistent) or input (one-shot) in bytes; longer is answered BAD_REQUEST")
	faults := fs.String("fault", "", "switch off these rules' enforcement, or switch on these named mutants (comma-separated rule or MUT- IDs; for testing the suite)")
	readings := fs.String("reading", "", "take these alternatives of the readings catalog and declare them in hello (comma-separated ID=ALTERNATIVE; for testing the suite)")
	undeclared := fs.Bool("undeclared", false, "take the --reading alternatives without declaring them in hello (for testing the readings report)")
	fs.Usage = harness.Usage(fs, "usage: conform serve [flags] [OP]\n"+
		"  Without OP: persistent mode, JSON Lines on stdin and stdout.\n"+
		"  With OP: one-shot mode, the input on stdin, the args in CONFORM_ARGS.\n", "fault", "reading", "undeclared")
	if err := fs.Parse(args); err != nil {
		return harness.HelpStatus(err)
	}
	if fs.NArg() > 1 {
		fmt.Fprintf(stderr, "conform serve: at most one operation, got %q\n", fs.Args())
		return 2
	}
	// What every parse of the served reference carries: --fault and
	// --reading give it rules switched off, mutants and readings.
	var checks rules.Checks
	if *faults != "" {
		ids, unknown, err := harness.ParseFaults(specs, *faults)
		if err != nil {
			fmt.Fprintln(stderr, "conform serve:", err)
			return 2
		}
		if len(unknown) > 0 {
			fmt.Fprintf(stderr, "conform serve: note: --fault names rules or mutants the catalogs do not know: %s\n", strings.Join(unknown, ", "))
		}
		checks.Faults = fault.Of(ids...)
	}
	if *readings != "" {
		m, err := harness.ParseReadings(specs, *readings)
		if err != nil {
			fmt.Fprintln(stderr, "conform serve:", err)
			return 2
		}
		checks.Readings = reading.Of(m)
	}
	ctx := context.Background()
	impl := reference.New(specs).WithChecks(checks)
	impl.Undeclared = *undeclared
	if fs.NArg() == 1 {
		code, err := harness.ServeOneShot(ctx, fs.Arg(0), stdin, os.Getenv(testee.ArgsEnv), stdout, impl, *maxLine)
		if err != nil {
			fmt.Fprintln(stderr, "conform serve:", err)
		}
		return code
	}
	if err := harness.Serve(ctx, stdin, stdout, impl, *maxLine); err != nil {
		fmt.Fprintln(stderr, "conform serve:", err)
		return 1
	}
	return 0
}
