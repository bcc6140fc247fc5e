// Command projectsite builds the project's own results site (issue 32):
// the claims of the reference (conform serve), the Python and JavaScript
// example testees, and every named mutant of the fault proof (conform
// serve --fault MUT-..., the mistake switched on in the reference, as
// docs/PROOF.md runs it), each an implementation of the site, so that the
// matrix shows, rule by rule, which wrong implementations the vectors
// catch. From the repository root:
//
//	go run ./cmd/projectsite -o site
//
// It builds conform, runs `conform run --claim` for each implementation
// (a mutant on its own spec's suite, the Python example on hiverelay, the
// JavaScript example on libtracer with its expected-failures file), then
// `conform site`. It needs python3 and node on PATH for the examples
// (-examples=false leaves them out). Exit status 0 when every claim was
// made and every mutant was caught (a vector failed or, at SHOULD level,
// warned: the fault proof's "caught"), 1 when a mutant survived, 2 on an
// error.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/threespec/conformance/harness"
	"github.com/threespec/conformance/impl/hiverelay/hivespec"
	"github.com/threespec/conformance/impl/lace/lacespec"
	"github.com/threespec/conformance/impl/libtracer/tracerspec"
	"github.com/threespec/conformance/impl/spec"
)

// specs are the specs whose mutants the site shows.
var specs = spec.MustSet(lacespec.Spec, hivespec.Spec, tracerspec.Spec)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// implementation is one claim to make: its file stem, the flags of
// conform run, the testee command, and whether it is a mutant (whose run
// must fail).
type implementation struct {
	stem   string
	flags  []string
	testee []string
	mutant bool
}

// plan lists the implementations: the reference, the examples (with
// examples), the mutants whose ID matches the glob. serve is the command
// of conform serve.
func plan(serve []string, examples bool, glob string) ([]implementation, error) {
	out := []implementation{{stem: "reference", testee: serve}}
	if examples {
		out = append(out,
			implementation{stem: "example-python", flags: []string{"--suite", string(hivespec.Spec.Name)}, testee: []string{"python3", "examples/python/testee.py"}},
			implementation{stem: "example-javascript", flags: []string{"--suite", string(tracerspec.Spec.Name), "--expect-fail", "examples/javascript/expected-failures.txt"},
				testee: []string{"node", "examples/javascript/testee.js"}})
	}
	n := 0
	for _, m := range specs.Mutants() {
		ok, err := path.Match(glob, string(m.ID))
		if err != nil {
			return nil, fmt.Errorf("-mutants %q: %v", glob, err)
		}
		if !ok {
			continue
		}
		n++
		out = append(out, implementation{stem: strings.ToLower(string(m.ID)), flags: []string{"--suite", string(m.Spec)},
			testee: append(append([]string{}, serve...), "--fault", string(m.ID)), mutant: true})
	}
	if n == 0 {
		return nil, fmt.Errorf("-mutants %q matches no mutant", glob)
	}
	return out, nil
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("projectsite", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "site", "the site's `directory`")
	examples := fs.Bool("examples", true, "include the Python and JavaScript examples (need python3 and node)")
	glob := fs.String("mutants", "*", "the mutants to include, by ID `glob`")
	conformBin := fs.String("conform", "", "a conform executable to use (default: built with go build from ./cmd/conform)")
	root := fs.String("root", ".", "the repository root: where conform runs, and the examples are")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	fail := func(err error) int { fmt.Fprintln(stderr, "projectsite:", err); return 2 }
	outDir, err := filepath.Abs(*out)
	if err != nil {
		return fail(err)
	}
	tmp, err := os.MkdirTemp("", "projectsite-")
	if err != nil {
		return fail(err)
	}
	defer os.RemoveAll(tmp)
	conform := *conformBin
	if conform == "" {
		conform = filepath.Join(tmp, "conform")
		if runtime.GOOS == "windows" {
			conform += ".exe"
		}
		build := exec.Command("go", "build", "-o", conform, "./cmd/conform")
		build.Dir, build.Stdout, build.Stderr = *root, stderr, stderr
		if err := build.Run(); err != nil {
			return fail(fmt.Errorf("go build ./cmd/conform (run from the repository root): %v", err))
		}
	}
	impls, err := plan([]string{conform, "serve"}, *examples, *glob)
	if err != nil {
		return fail(err)
	}
	start := time.Now()
	var claims, survived []string
	for _, im := range impls {
		claim := filepath.Join(tmp, im.stem+".claim.json")
		argv := append(append([]string{"run", "-q", "--claim", claim}, im.flags...), "--")
		cmd := exec.Command(conform, append(argv, im.testee...)...)
		cmd.Dir, cmd.Stderr = *root, stderr
		t0 := time.Now()
		err := cmd.Run()
		code := cmd.ProcessState.ExitCode()
		if err != nil && code < 0 || code != 0 && (!im.mutant || code != 1) {
			return fail(fmt.Errorf("conform %s: exit status %d (%v)", strings.Join(append(argv, im.testee...), " "), code, err))
		}
		c, err := readClaim(claim)
		if err != nil {
			return fail(err)
		}
		// A mutant is caught when a vector fails, at any level, as the fault
		// proof counts it (docs/PROOF.md, "What caught means"): a SHOULD
		// vector only warns, and the run passes with the warning.
		n := c.Counts.Failed + c.Counts.Warnings + c.Counts.Readings + c.Counts.XPassed
		if im.mutant && n == 0 {
			survived = append(survived, im.stem)
		}
		fmt.Fprintf(stdout, "projectsite: %-48s exit status %d, %4d vectors failed or warned, in %.1fs\n", im.stem, code, n, time.Since(t0).Seconds())
		claims = append(claims, claim)
	}
	site := exec.Command(conform, append([]string{"site", "-o", outDir, "--title", "threespec conformance: the reference, the examples and the fault proof's mutants"}, claims...)...)
	site.Dir, site.Stdout, site.Stderr = *root, stdout, stderr
	if err := site.Run(); err != nil {
		return fail(fmt.Errorf("conform site: %v", err))
	}
	fmt.Fprintf(stdout, "projectsite: %d implementations (%d mutants) in %.0fs\n", len(impls), countMutants(impls), time.Since(start).Seconds())
	if len(survived) > 0 {
		fmt.Fprintf(stderr, "projectsite: mutants the vectors did not catch (their runs passed): %s\n", strings.Join(survived, ", "))
		return 1
	}
	return 0
}

func readClaim(file string) (*harness.Claim, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return harness.ReadClaim(f)
}

func countMutants(impls []implementation) int {
	n := 0
	for _, im := range impls {
		if im.mutant {
			n++
		}
	}
	return n
}
