package featurescmd

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/cucumber/godog"

	"github.com/threespec/conformance/features"
	"github.com/threespec/conformance/harness"
	"github.com/threespec/conformance/steps"
	"github.com/threespec/conformance/testee"
)

const featuresHead = `usage: conform features [flags] -- TESTEE ARGS...
  Runs the Gherkin features (features/) against TESTEE: the rule-by-rule
  report. The --godog.* flags are godog's. Exit status: 0 passed, 1 failed,
  2 usage error, 3 the testee could not be run, 130 interrupted.
`

// featuresCmd is `conform features`: steps.Run through the external adapter.
func featuresCmd(w Wings, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("conform features", flag.ContinueOnError)
	fs.SetOutput(stderr)
	opts := godog.Options{Output: stdout}
	godog.BindFlags("godog.", fs, &opts)
	oneShot := fs.Bool("one-shot", false, "one-shot mode: run TESTEE ARGS... OP once per request")
	tf := harness.AddTesteeFlags(fs)
	fs.Usage = harness.Usage(fs, featuresHead)
	if err := fs.Parse(args); err != nil {
		return harness.HelpStatus(err)
	}
	if len(fs.Args()) == 0 {
		fmt.Fprintln(stderr, "conform features: no testee: conform features [flags] -- TESTEE ARGS...")
		return 2
	}
	// The features of a clone (./features), else those built in.
	if len(opts.Paths) == 0 && opts.FS == nil {
		if _, err := os.Stat("features"); err != nil {
			opts.FS, opts.Paths = features.FS, []string{"."}
		}
	}
	// Colour only to a terminal, and never under NO_COLOR (no-color.org).
	opts.NoColors = opts.NoColors || !colourful(stdout, os.Getenv("NO_COLOR"))
	topts := tf.Options()
	topts.OneShot = *oneShot
	t, closeTrace, err := tf.Start(fs.Args(), topts, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "conform features:", err)
		return 2
	}
	defer closeTrace()
	defer t.Impl.Close()
	ctx, stop := harness.OnInterrupt(context.Background(), stderr, func() { t.Impl.(testee.Killer).Kill() })
	defer stop()
	rep, err := steps.Run(ctx, steps.Config{Impl: t.Impl, Wings: w.Steps, StrictRules: false, Options: opts})
	switch {
	case ctx.Err() != nil:
		fmt.Fprintln(stderr, "conform features: interrupted")
		return harness.ExitInterrupted
	case err != nil:
		fmt.Fprintln(stderr, "conform features:", err)
		if s := t.Stderr; s != nil && len(s()) > 0 {
			fmt.Fprintf(stderr, "testee stderr (tail):\n%s\n", s())
		}
		return harness.ExitTestee
	}
	return rep.Status
}

// colourful reports whether output to w may carry ANSI colours: w is a
// terminal and NO_COLOR (noColor) is unset or empty.
func colourful(w io.Writer, noColor string) bool {
	if noColor != "" {
		return false
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
