package main

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// conform itself does not link the Gherkin runner or the fault proof:
// `conform serve` must start without godog's package initialisation (it
// runs `go env GOTOOLDIR`); features and prove are cmd/conform-features.
func TestConformDoesNotLinkGodog(t *testing.T) {
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	out, err := exec.Command(gobin, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if strings.HasPrefix(pkg, "github.com/cucumber/") || strings.HasSuffix(pkg, "/steps") || strings.Contains(pkg, "/steps/") || strings.HasSuffix(pkg, "/internal/prove") {
			t.Errorf("cmd/conform links %s", pkg)
		}
	}
}
