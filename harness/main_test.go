package harness

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/threespec/conformance/harness/harnesstest"
	"github.com/threespec/conformance/internal/allspecs"
	"github.com/threespec/conformance/reference"
)

// allSuites are the project's suite definitions, as cmd/conform passes them.
var allSuites = allspecs.Set().SuiteDefs()

// The test binary is its own testee: `TESTBINARY testee ARGS...` runs
// harnesstest.Main, `TESTBINARY serve [OP]` is conform serve.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case "testee":
			os.Exit(harnesstest.Main(allspecs.Synthetic(), os.Args[2:]))
		case "broken":
			os.Exit(brokenAdapter(os.Args[2], os.Stdin, os.Stdout))
		case "broken-oneshot": // KIND OP
			os.Exit(brokenOneShot(os.Args[2], os.Args[3]))
		case "serve":
			if len(os.Args) > 2 { // one-shot
				code, err := ServeOneShot(context.Background(), os.Args[2], os.Stdin, os.Getenv("CONFORM_ARGS"), os.Stdout, reference.New(allspecs.Set()), 0)
				if err != nil {
					fmt.Fprintln(os.Stderr, err)
				}
				os.Exit(code)
			}
			if err := Serve(context.Background(), os.Stdin, os.Stdout, reference.New(allspecs.Set()), 0); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			os.Exit(0)
		}
	}
	os.Exit(m.Run())
}

// self returns the command that runs this test binary as the given testee.
func self(args ...string) []string { return append([]string{os.Args[0]}, args...) }
