package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// conform smoke passes the reference served as a testee, and its trace
// holds every request and answer; run --trace writes the same lines.
func TestSmokeAndTrace(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "trace.txt")
	args := append([]string{"smoke", "--vectors", "../../vectors", "--trace", trace, "--"}, serveArgv()...)
	code, out, errOut := conform(t, args...)
	if code != 0 || !strings.Contains(out, "conform smoke: the adapter passed") || strings.Contains(out, "FAIL") {
		t.Fatalf("smoke: exit %d\n%s%s", code, out, errOut)
	}
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	checks := strings.Count(out, "\n") - 1 // one line a check, then the verdict
	if reqs := strings.Count(string(b), " > {"); reqs < checks-3 || reqs != strings.Count(string(b), " < {") {
		t.Errorf("%d requests traced for %d checks, %d answers:\n%s", reqs, checks, strings.Count(string(b), " < {"), b)
	}
	line := regexp.MustCompile(`^\+\d+\.\d{3}s pid \d+ [<>] \{"id":\d+,`)
	for _, l := range lines {
		if !line.MatchString(l) || len(l) > 1200 {
			t.Errorf("trace line %.200q", l)
		}
	}

	trace2 := filepath.Join(t.TempDir(), "trace2.txt")
	args = append([]string{"run", "-q", "-j", "1", "--vectors", "../../vectors", "--suite", "libtracer", "--id", "ex04-*", "--trace", trace2, "--"}, serveArgv()...)
	if code, out, errOut := conform(t, args...); code != 0 {
		t.Fatalf("run: exit %d\n%s%s", code, out, errOut)
	}
	if b, err := os.ReadFile(trace2); err != nil || !strings.Contains(string(b), `"op":"libtracer.decode"`) {
		t.Errorf("run --trace: %v\n%s", err, b)
	}
}

// conform smoke --one-shot runs the testee once per request and passes the
// reference's one-shot mode, skipping the id and by-path checks, and
// names the one-shot run command next.
func TestSmokeOneShot(t *testing.T) {
	args := append([]string{"smoke", "--one-shot", "--vectors", "../../vectors", "--"}, serveArgv()...)
	code, out, errOut := conform(t, args...)
	if code != 0 || strings.Contains(out, "FAIL") || !strings.Contains(out, "skip id echo: one-shot mode") ||
		!strings.Contains(out, "now conform run --one-shot -- ") {
		t.Fatalf("smoke --one-shot: exit %d\n%s%s", code, out, errOut)
	}
}
