// Command conform checks an implementation of Lace-010, HiveRelay BCC v1 or
// libtracer v1, in any language, against the project's vector sets and
// Gherkin features, over testee protocol v1 (docs/PROTOCOL.md); `conform
// serve` is the reference implementation speaking that protocol.
//
// Usage:
//
//	conform run [flags] -- TESTEE ARGS...       run the vector sets against a testee
//	conform smoke [flags] -- TESTEE ARGS...     check a testee's adapter with a few requests
//	conform serve [OP]                          the reference as a testee (persistent; one-shot with OP)
//	conform fuzz [flags] -- TESTEE ARGS...      differential fuzzing against the reference
//	conform features [flags] -- TESTEE ARGS...  run the Gherkin features against a testee
//	conform prove [flags]                       show that the suite catches each rule's fault
//	conform verify [flags] CLAIM -- TESTEE...   re-run a conformance claim and say whether it holds
//	conform site [flags] CLAIM... -o DIR        a static results site of conformance claims
//	conform verify [flags] CLAIM -- TESTEE...   re-run a conformance claim and say whether it holds
//
// features and prove are the program cmd/conform-features, which conform
// runs for them (delegate.go): conform itself does not link godog, so that
// `conform serve` starts fast. See docs/CONFORM.md for the flags, the
// reports and the exit statuses.
package main

import (
	"fmt"
	"io"
	"os"
)

const usage = `usage:
  conform run [flags] -- TESTEE ARGS...       run the vector sets against a testee
  conform smoke [flags] -- TESTEE ARGS...     check a testee's adapter (its protocol plumbing) with a few requests
  conform serve [OP]                          the reference implementation as a testee
  conform fuzz [flags] -- TESTEE ARGS...      generate inputs, judge the testee against the reference
  conform features [flags] -- TESTEE ARGS...  run the Gherkin features against a testee
  conform prove [flags]                       show that the suite catches each rule's fault
  conform show [flags] ID                     print one vector and its input (--write FILE: its bytes)
  conform verify [flags] CLAIM -- TESTEE...   re-run a conformance claim (run --claim FILE) and say whether it holds
  conform site [flags] CLAIM... -o DIR        a static results site of conformance claims (--format markdown: a summary)
Run "conform COMMAND -help" for the flags of a command; docs/CONFORM.md says more.
`

func main() { os.Exit(dispatch(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }

func dispatch(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "run":
		return runCmd(args[1:], stdout, stderr)
	case "smoke":
		return smokeCmd(args[1:], stdout, stderr)
	case "serve":
		return serveCmd(args[1:], stdin, stdout, stderr)
	case "fuzz":
		return fuzzCmd(args[1:], stdout, stderr)
	case "show":
		return showCmd(args[1:], stdout, stderr)
	case "verify":
		return verifyCmd(args[1:], stdout, stderr)
	case "site":
		return siteCmd(args[1:], stdout, stderr)
	case "features", "prove":
		// Not linked into this binary: see delegate.go.
		return delegate(args[0], args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "conform: unknown command %q\n%s", args[0], usage)
	return 2
}
