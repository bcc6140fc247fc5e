package main

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The plan: the reference, the two examples on their suites (the
// JavaScript one with its expected failures), and every named mutant of
// the fault proof on its own spec's suite, served with --fault.
func TestPlan(t *testing.T) {
	serve := []string{"conform", "serve"}
	all, err := plan(serve, true, "*")
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 3+len(specs.Mutants()) || all[0].stem != "reference" || !slices.Equal(all[0].testee, serve) {
		t.Fatalf("%d implementations, the first %+v", len(all), all[0])
	}
	if js := all[2]; !slices.Contains(js.flags, "examples/javascript/expected-failures.txt") || js.testee[0] != "node" || all[1].testee[0] != "python3" {
		t.Errorf("examples %+v %+v", all[1], all[2])
	}
	for i, m := range specs.Mutants() {
		im := all[3+i]
		if !im.mutant || !slices.Equal(im.testee, []string{"conform", "serve", "--fault", string(m.ID)}) || !slices.Equal(im.flags, []string{"--suite", string(m.Spec)}) {
			t.Errorf("mutant %s: %+v", m.ID, im)
		}
	}
	if some, _ := plan(serve, false, "MUT-HR-*"); len(some) < 2 || some[1].mutant != true || !strings.HasPrefix(some[1].stem, "mut-hr-") {
		t.Errorf("-examples=false -mutants MUT-HR-*: %+v", some)
	}
	if _, err := plan(serve, false, "MUT-NONE-*"); err == nil {
		t.Error("a glob that matches no mutant is no error")
	}
}

// The command end to end, on one mutant: conform is built, the claims
// made, the site built with the reference and the mutant as its
// implementations, and the mutant caught.
func TestProjectSite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "site")
	var out, errOut bytes.Buffer
	if code := run([]string{"-root", "../..", "-o", dir, "-examples=false", "-mutants", "MUT-HR-BLOB-CLASS-FROM-LENGTH"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out.String(), errOut.String())
	}
	// The slugs end in conform's version, which the build decides.
	for _, f := range []string{"index.html", "spec-hiverelay.html", "impl-threespec-reference-with-fault-mut-hr-blob-class-from-length*.html", "claims/threespec-reference-with-fault-mut-hr-blob-class-from-length*.json", "impl-threespec-reference-*.html"} {
		if m, _ := filepath.Glob(filepath.Join(dir, f)); len(m) == 0 {
			t.Errorf("the site lacks %s", f)
		}
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "impl-*.html")); len(m) != 2 {
		t.Errorf("implementation pages %v, want the reference's and the mutant's", m)
	}
	if !strings.Contains(out.String(), "2 implementations (1 mutants)") {
		t.Errorf("output:\n%s", out.String())
	}
}
