package main

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// conform links only what running and serving need (docs/ARCHITECTURE.md,
// floor cmd): not the Gherkin runner or the steps, so that `conform serve`
// starts without godog's package initialisation (it runs `go env
// GOTOOLDIR`), the features and prove being cmd/conform-features'; and not
// the vector generators or the fault proof, whose engine, per-spec
// generators and reference checks a run never uses (the set hash it
// verifies is vectorset's).
func TestConformDoesNotLink(t *testing.T) {
	const module = "github.com/threespec/conformance/"
	refused := []struct {
		what  string
		match func(pkg string) bool
	}{
		{"godog and its Gherkin packages", func(pkg string) bool { return strings.HasPrefix(pkg, "github.com/cucumber/") }},
		{"the steps", func(pkg string) bool { return pkg == module+"steps" || strings.HasPrefix(pkg, module+"steps/") }},
		{"the vector generators", func(pkg string) bool {
			return pkg == module+"internal/vecgen" || strings.HasPrefix(pkg, module+"internal/vecgen/")
		}},
		{"the fault proof", func(pkg string) bool { return pkg == module+"internal/prove" }},
	}
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	out, err := exec.Command(gobin, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) == 0 || deps[len(deps)-1] != module+"cmd/conform" {
		t.Fatalf("go list -deps . does not end with cmd/conform: %q", deps)
	}
	for _, r := range refused {
		for _, pkg := range deps {
			if r.match(pkg) {
				t.Errorf("cmd/conform links %s (%s)", pkg, r.what)
			}
		}
	}
}
