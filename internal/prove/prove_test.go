package prove

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/threespec/conformance/internal/allspecs"
)

// TestProverSeesAFault injects a real rule's fault (HiveRelay ReadCellCapV1's
// size class 1..5, HR-RCAP-02) and a fault that switches off nothing: the
// first must be caught by vectors, the second must survive. This checks the
// prover, not the suite's coverage (that is the proof itself).
func TestProverSeesAFault(t *testing.T) {
	ctx := context.Background()
	p, err := New(ctx, Options{Specs: allspecs.Set(), Steps: allspecs.Steps(), VectorsDir: "../../vectors", FeaturePaths: []string{"../../features"}, AllowMissingSuites: true})
	if err != nil {
		t.Fatal(err)
	}
	if p.Vectors() == 0 {
		t.Fatal("no vectors loaded")
	}
	out, err := p.Run(ctx, []Target{{ID: "HR-RCAP-02"}, {ID: "NO-SUCH-RULE-01"}})
	if err != nil {
		t.Fatal(err)
	}
	if !out[0].Caught() {
		t.Errorf("switching off HR-RCAP-02 was not caught")
	}
	for _, id := range out[0].Vectors {
		if !strings.HasPrefix(id, "hiverelay/") {
			t.Errorf("a HiveRelay fault failed vector %s", id)
		}
	}
	if out[1].Caught() {
		t.Errorf("a fault that switches off nothing was caught by %v %v", out[1].Vectors, out[1].Scenarios)
	}
}

// TestEveryFaultIsCaught is the fault proof's bar, run by go test: every
// rule fault and every named mutant of the three specs is caught by the
// vector sets alone (the features are a second net, proved by hand with
// `conform prove -with-features always`). It runs verdict-only, so a fault
// that a small vector catches does not also run the 32 MiB records.
func TestEveryFaultIsCaught(t *testing.T) {
	if testing.Short() {
		t.Skip("the whole proof takes about 15 s on two cores")
	}
	ctx := context.Background()
	targets, untestable := Targets(allspecs.Set())
	p, err := New(ctx, Options{Specs: allspecs.Set(), Steps: allspecs.Steps(), VectorsDir: "../../vectors", VerdictOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	out, err := p.Run(ctx, targets)
	if err != nil {
		t.Fatal(err)
	}
	mutants := 0
	for _, o := range out {
		if o.Mutant {
			mutants++
		}
		if !o.Caught() {
			t.Errorf("%s (%s) survives: no vector fails with it injected: %s", o.ID, o.Spec, o.Text)
		}
	}
	// Issue 8's bar: at least 30 named mutants across the three specs.
	if mutants < 30 {
		t.Errorf("%d named mutants, want at least 30", mutants)
	}
	for _, u := range untestable {
		if strings.TrimSpace(u.Text) == "" {
			t.Errorf("%s is marked untestable without a reason", u.ID)
		}
	}
	t.Logf("%d faults (%d mutants) caught by vectors; %d rules untestable", len(out), mutants, len(untestable))
}

// TestVerdictOnlyKeepsVerdicts checks that verdict-only mode gives the same
// caught/survived verdict as a full run, and that its outcomes cannot be
// recorded: a Lace rule only a 32 MiB record catches, a Lace rule small
// vectors catch, and a fault that switches off nothing.
func TestVerdictOnlyKeepsVerdicts(t *testing.T) {
	ctx := context.Background()
	targets := []Target{{ID: "LACE-BLOB-05", Spec: "lace"}, {ID: "LACE-FIELD-03", Spec: "lace"}, {ID: "NO-SUCH-RULE-01", Spec: "lace"}}
	run := func(verdict bool) []Outcome {
		p, err := New(ctx, Options{Specs: allspecs.Set(), Steps: allspecs.Steps(), VectorsDir: "../../vectors", VerdictOnly: verdict, AllowMissingSuites: true})
		if err != nil {
			t.Fatal(err)
		}
		out, err := p.Run(ctx, targets)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	full, quick := run(false), run(true)
	for i := range targets {
		if full[i].Caught() != quick[i].Caught() {
			t.Errorf("%s: caught %v in a full run, %v verdict-only", targets[i].ID, full[i].Caught(), quick[i].Caught())
		}
	}
	if quick[0].LargeSkipped != 0 || quick[1].LargeSkipped == 0 {
		t.Errorf("large vectors skipped: %d for the 32 MiB rule (want 0), %d for the small one (want more than 0)", quick[0].LargeSkipped, quick[1].LargeSkipped)
	}
	if _, err := NewRecord(quick, nil, FeaturesNever, nil); err == nil {
		t.Errorf("NewRecord accepted verdict-only outcomes with large vectors skipped")
	}
	if _, err := NewRecord(full, nil, FeaturesNever, nil); err != nil {
		t.Errorf("NewRecord refused a full run: %v", err)
	}
}

// TestSummary checks the counts of the report: rows only for the specs the
// run proved, survivors named, and the return value.
func TestSummary(t *testing.T) {
	out := []Outcome{
		{Target: Target{ID: "LT-A-01", Spec: "libtracer"}, Vectors: []string{"v"}},
		{Target: Target{ID: "LT-A-02", Spec: "libtracer"}, Scenarios: []string{"s"}},
		{Target: Target{ID: "LT-A-03", Spec: "libtracer", Text: "gap"}},
		{Target: Target{ID: "MUT-LT-X", Spec: "libtracer", Mutant: true}, Vectors: []string{"v"}},
	}
	untestable := []Target{{ID: "LT-A-04", Spec: "libtracer"}, {ID: "LACE-A-01", Spec: "lace"}}
	var b strings.Builder
	if n := Summary(&b, out, untestable, 0); n != 1 {
		t.Errorf("Summary returned %d survivors, want 1", n)
	}
	got := b.String()
	for _, want := range []string{
		"libtracer        2/3              1/1                  1\n",
		"caught by vectors: 2; by scenarios only: 1; survived: 1",
		"  LT-A-03: gap\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "lace") {
		t.Errorf("summary has a row for a spec the run did not prove:\n%s", got)
	}
}

// Inputs names every suite's set hash and the features' digest, and the
// digest changes with a feature file's bytes.
func TestInputs(t *testing.T) {
	in, err := Inputs(allspecs.Set().Names(), "../../manifest", "../../features")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"lace", "hiverelay", "libtracer", FeaturesInput} {
		if len(in[k]) != 64 {
			t.Errorf("input %s = %q, want 64 hex digits", k, in[k])
		}
	}
	dir := t.TempDir()
	write := func(s string) string {
		if err := os.WriteFile(filepath.Join(dir, "a.feature"), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		h, err := featuresDigest(dir)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	if write("Feature: a\n") == write("Feature: b\n") {
		t.Error("the features digest did not change with a feature file's bytes")
	}
	if _, err := featuresDigest(t.TempDir()); err == nil {
		t.Error("no feature files gave a digest")
	}
}
