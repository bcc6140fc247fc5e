package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// conform finds conform-features where an installation puts it, and
// outside the module (where go run cannot build it) says how to install
// it instead of failing in go.
func TestFindFeatures(t *testing.T) {
	bin := t.TempDir()
	exe := filepath.Join(bin, "conform")
	beside := filepath.Join(bin, featuresName)
	if err := os.WriteFile(beside, []byte("x"), 0o755); err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	module, _ := filepath.Abs(".")
	onPath := func(found ...string) func(string) (string, error) {
		return func(name string) (string, error) {
			for _, f := range found {
				if filepath.Base(f) == name {
					return f, nil
				}
			}
			return "", errors.New("not found")
		}
	}
	for _, c := range []struct {
		name, env, exe string
		look           func(string) (string, error)
		cwd, want, err string
	}{
		{"env", "/x/cf", exe, onPath(), outside, "/x/cf", ""},
		{"beside the executable", "", exe, onPath("/usr/bin/conform-features"), outside, beside, ""},
		{"on PATH", "", filepath.Join(outside, "conform"), onPath("/usr/bin/" + featuresName), outside, "/usr/bin/" + featuresName, ""},
		{"go run inside the module", "", filepath.Join(outside, "conform"), onPath("/usr/bin/go"), module, "/usr/bin/go run " + featuresPackage, ""},
		{"outside the module", "", filepath.Join(outside, "conform"), onPath("/usr/bin/go"), outside, "", "go install ./cmd/..."},
		{"no go", "", "", onPath(), module, "", "go install github.com/threespec/conformance/cmd/..."},
	} {
		argv, err := findFeatures(c.env, c.exe, c.look, c.cwd)
		got := strings.Join(argv, " ")
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%s: %q, %v; want one line holding %q", c.name, got, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s: %q, %v; want %q", c.name, got, err, c.want)
		}
	}
}
