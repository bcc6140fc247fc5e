package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"syscall"

	"github.com/threespec/conformance/harness"
	"github.com/threespec/conformance/internal/floors"
)

// FeaturesEnv names the program that runs `conform features` and `conform
// prove` (cmd/conform-features), when set.
const FeaturesEnv = "CONFORM_FEATURES"

// featuresPackage is the package of that program, for go run.
const featuresPackage = "github.com/threespec/conformance/cmd/conform-features"

// delegate runs `conform features` and `conform prove` as the program
// cmd/conform-features: the Gherkin runner (godog) is not linked into this
// binary, so that `conform serve` and `conform run` start without its
// package initialisation. The program is $CONFORM_FEATURES, else
// conform-features beside this executable (go install ./cmd/... puts both
// there), else `go run` of its package (inside the module, as `go run
// ./cmd/conform` is). Its exit status is returned. On Unix it runs in its
// own process group, and an interrupt or termination of conform is passed
// on to it once, so its own handling (report, then quit at once on a second
// interrupt) is what the user sees; on Windows it shares conform's console,
// which sends it Ctrl-C itself (delegate_windows.go).
func delegate(sub string, args []string, stdout, stderr io.Writer) int {
	argv, err := featuresCommand()
	if err != nil {
		fmt.Fprintf(stderr, "conform %s: %v\n", sub, err)
		return harness.ExitSetup
	}
	cmd := exec.Command(argv[0], append(append(argv[1:len(argv):len(argv)], sub), args...)...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.SysProcAttr = delegateAttr()
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(stderr, "conform %s: starting %s: %v\n", sub, argv[0], err)
		return harness.ExitSetup
	}
	done := make(chan struct{})
	go func() {
		for {
			select {
			case s := <-sigs:
				passOn(cmd, s)
			case <-done:
				return
			}
		}
	}()
	err = cmd.Wait()
	close(done)
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return exitStatus(ee)
	}
	fmt.Fprintf(stderr, "conform %s: %v\n", sub, err)
	return harness.ExitSetup
}

// featuresCommand is the command line that runs cmd/conform-features.
func featuresCommand() ([]string, error) {
	exe, _ := os.Executable()
	cwd, _ := os.Getwd()
	return findFeatures(os.Getenv(FeaturesEnv), exe, exec.LookPath, cwd)
}

// featuresName is the file name of cmd/conform-features' program.
var featuresName = "conform-features" + map[bool]string{true: ".exe"}[runtime.GOOS == "windows"]

// findFeatures finds cmd/conform-features: env ($CONFORM_FEATURES) when
// set, else the program beside exe (go install ./cmd/... puts both
// there), else the program on PATH, else `go run` of its package when cwd
// is inside this module (as `go run ./cmd/conform` is). Anywhere else it
// says in one line how to install it.
func findFeatures(env, exe string, lookPath func(string) (string, error), cwd string) ([]string, error) {
	if env != "" {
		return []string{env}, nil
	}
	if exe != "" {
		p := filepath.Join(filepath.Dir(exe), featuresName)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return []string{p}, nil
		}
	}
	if p, err := lookPath(featuresName); err == nil {
		return []string{p}, nil
	}
	if _, inModule := floors.ModuleRoot(cwd); inModule {
		if gobin, err := lookPath("go"); err == nil {
			return []string{gobin, "run", featuresPackage}, nil
		}
	}
	return nil, errors.New(featuresName + " is neither beside this program nor on PATH (and this directory is outside the module, so go run cannot build it): install both with go install github.com/threespec/conformance/cmd/... (in a clone: go install ./cmd/...), or set " + FeaturesEnv)
}
