package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/threespec/conformance/harness"
	"github.com/threespec/conformance/impl/hiverelay/hivespec"
	"github.com/threespec/conformance/impl/spec"
	"github.com/threespec/conformance/internal/fuzzgen"
	"github.com/threespec/conformance/reference"
	"github.com/threespec/conformance/testee"
)

// unsafeU64 is the testee of issue 27: the reference, except that it
// rejects a vector manifest whose row lengths (fixed u64, HiveRelay BCC v1
// section 5) exceed 2^53-1, as a JavaScript implementation reading them
// into Numbers does. It passes every committed vector.
type unsafeU64 struct{ *reference.Reference }

func (u unsafeU64) Do(ctx context.Context, req testee.Request) (testee.Response, error) {
	resp, err := u.Reference.Do(ctx, req)
	if err != nil || req.Op != hivespec.OpManifest || resp.Outcome != testee.Accepted {
		return resp, err
	}
	var res struct {
		Entries []hivespec.ManifestEntry `json:"entries"`
	}
	if err := json.Unmarshal(resp.Result, &res); err != nil {
		return resp, err
	}
	for _, e := range res.Entries {
		if e.Length > 1<<53-1 {
			return testee.Response{ID: req.ID, Outcome: testee.Rejected, Code: "BAD_ENCODING",
				Detail: "row length " + strconv.FormatUint(e.Length, 10) + " is above Number.MAX_SAFE_INTEGER"}, nil
		}
	}
	return resp, nil
}

// serveUnsafeU64 serves unsafeU64 (TESTBINARY unsafe-u64).
func serveUnsafeU64() int {
	if err := harness.Serve(context.Background(), os.Stdin, os.Stdout, unsafeU64{reference.New(specs)}, testee.DefaultMaxLine); err != nil {
		return 1
	}
	return 0
}

// fuzzRun runs conform fuzz with a JSON summary and returns the exit
// status, the summary and the human report.
func fuzzRun(t *testing.T, args ...string) (int, *harness.FuzzReport, string) {
	t.Helper()
	js := filepath.Join(t.TempDir(), "fuzz.json")
	code, out, errOut := conform(t, append([]string{"fuzz", "-q", "--json", js}, args...)...)
	b, err := os.ReadFile(js)
	if err != nil {
		t.Fatalf("no JSON summary (exit %d): %v\n%s\n%s", code, err, out, errOut)
	}
	var rep harness.FuzzReport
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	return code, &rep, out
}

// TestFuzzReferenceFindsNothing fuzzes the reference served over the
// protocol (every operation, two processes): no disagreement, and the
// seed in every summary.
func TestFuzzReferenceFindsNothing(t *testing.T) {
	code, rep, out := fuzzRun(t, "--seed", "27", "--count", "2200", "-j", "2", "--", os.Args[0], "conform", "serve")
	if code != 0 || len(rep.Findings) > 0 {
		t.Fatalf("exit %d, %d findings against the reference:\n%s", code, len(rep.Findings), out)
	}
	if rep.Seed != 27 || !strings.Contains(out, "seed 27\n") || rep.Execs < 2000 || len(rep.Ops) != 11 {
		t.Errorf("seed %d, %d execs, ops %v; report:\n%s", rep.Seed, rep.Execs, rep.Ops, out)
	}
	if len(rep.RulesCited) < 50 {
		t.Errorf("the reference cited %d rules: the generation reaches too few", len(rep.RulesCited))
	}
}

// TestFuzzFindsFaults serves the reference with one rule switched off or
// one mutant switched on: fuzz alone finds it, names it by the rule the
// reference cites, writes a candidate vector the clean reference passes
// and the faulty one fails, and --replay reproduces the case.
func TestFuzzFindsFaults(t *testing.T) {
	for _, tc := range []struct {
		fault, op, rule string
	}{
		{"HR-CENC-12", hivespec.OpDecode, "HR-CENC-12"},
		{"MUT-HR-SIZE-CLASS-6-ACCEPTED", hivespec.OpDecode, "HR-RCAP-02"},
		{"LT-OPT-02", "libtracer.decode", "LT-OPT-02"},
		{"LACE-FIELD-03", "lace.record", "LACE-FIELD-03"},
	} {
		t.Run(tc.fault, func(t *testing.T) {
			out := t.TempDir()
			code, rep, text := fuzzRun(t, "--seed", "1", "--time", "60s", "--stop-after", "1", "--op", tc.op, "-j", "2", "--out", out, "--vectors", "../../vectors",
				"--", os.Args[0], "conform", "serve", "--fault", tc.fault)
			if code != 1 || len(rep.Findings) == 0 {
				t.Fatalf("exit %d, no finding:\n%s", code, text)
			}
			f := rep.Findings[0]
			if f.Key.Rule != tc.rule || f.Key.Op != tc.op || f.Vector == "" || f.ShrunkSize > f.Size {
				t.Fatalf("finding %+v, want rule %s:\n%s", f, tc.rule, text)
			}
			// The candidate: the clean reference passes it, the faulty one fails it.
			vecs := filepath.Join(out, "vectors")
			if code, o, e := conform(t, "run", "-q", "--vectors", vecs, "--id", f.Vector, "--", os.Args[0], "conform", "serve"); code != 0 {
				t.Fatalf("the reference fails the candidate %s: exit %d\n%s%s", f.Vector, code, o, e)
			}
			if code, o, e := conform(t, "run", "-q", "--vectors", vecs, "--id", f.Vector, "--", os.Args[0], "conform", "serve", "--fault", tc.fault); code != 1 {
				t.Fatalf("the faulty reference passes the candidate %s: exit %d\n%s%s", f.Vector, code, o, e)
			}
			// --replay reproduces the first case.
			rc, rr, rt := fuzzRun(t, "--replay", strconv.FormatUint(rep.Seed, 10)+":"+strconv.FormatInt(f.Case, 10), "--op", tc.op,
				"--", os.Args[0], "conform", "serve", "--fault", tc.fault)
			if rc != 1 || rr.Replayed == nil || rr.Replayed.Agrees {
				t.Fatalf("replay: exit %d\n%s", rc, rt)
			}
		})
	}
}

// TestFuzzFindsUnsafeU64 is issue 27's target: a testee that rejects
// fixed u64 values above 2^53-1 passes every committed HiveRelay vector
// but the found family (which keeps what this test's fuzzing found) and
// the boundary vectors at 2^53 and 2^64-1 that issue 26 added, and
// fuzzing every operation finds it within 60 s, named by the reading it
// takes without declaring it.
func TestFuzzFindsUnsafeU64(t *testing.T) {
	boundaries := "*-9007199254740992*,*-9007199254740993*,*-18446744073709551615*"
	if code, o, e := conform(t, "run", "-q", "--vectors", "../../vectors", "--suite", "hiverelay", "--skip", "found-*,"+boundaries, "--", os.Args[0], "unsafe-u64"); code != 0 {
		t.Fatalf("the unsafe-u64 testee fails the committed vectors (exit %d): the fixture is not the issue's\n%s%s", code, o, e)
	}
	// The boundary vectors catch it (issue 26, item 7), by the reading.
	if code, o, e := conform(t, "run", "-q", "--vectors", "../../vectors", "--suite", "hiverelay", "--id", boundaries, "--skip", "found-*", "--", os.Args[0], "unsafe-u64"); code != 1 || !strings.Contains(o, "HR-READ-12") {
		t.Fatalf("the u64 boundary vectors do not catch the unsafe-u64 testee (exit %d)\n%s%s", code, o, e)
	}
	// What fuzz found is kept (found/hiverelay/): the found family fails it.
	if code, o, e := conform(t, "run", "-q", "--vectors", "../../vectors", "--suite", "hiverelay", "--tag", "found", "--", os.Args[0], "unsafe-u64"); code != 1 || !strings.Contains(o, "HR-READ-12") {
		t.Fatalf("the found family does not catch the unsafe-u64 testee (exit %d)\n%s%s", code, o, e)
	}
	code, rep, text := fuzzRun(t, "--seed", "1", "--time", "60s", "--stop-after", "1", "-j", "2", "--", os.Args[0], "unsafe-u64")
	if code != 1 || len(rep.Findings) != 1 {
		t.Fatalf("exit %d, %d findings:\n%s", code, len(rep.Findings), text)
	}
	// The project reads section 2's safe-integer bound as binding compact
	// uints only (HR-READ-12, default compact-uints-only); the testee takes
	// the other alternative without declaring it, and the finding is named
	// by that reading.
	f := rep.Findings[0]
	if (f.Key.Op != hivespec.OpManifest && f.Key.Op != hivespec.OpDecode) || f.Kind != harness.FindingReading ||
		f.Key.Rule != "HR-READ-12" || f.Key.Member != "fixed-u64-within-safe-range" || f.After > 60 {
		t.Fatalf("finding %+v:\n%s", f, text)
	}
	t.Logf("found after %.1fs (case %d), shrunk from %d to %d bytes", f.After, f.Case, f.Size, f.ShrunkSize)
}

// TestFuzzHostileTestee: what conform run promises about hostile testees
// holds in fuzz mode. A testee that hangs, crashes or floods on every
// request is a testee failure of that kind, found once (deduplicated),
// restarted for each case, and the run ends within its bounds.
func TestFuzzHostileTestee(t *testing.T) {
	for _, tc := range []struct {
		directive, kind string
		extra           []string
	}{
		{"hang", "timeout", []string{"--timeout", "500ms"}},
		{"crash", "exited", nil},
		{"flood", "flood", []string{"--max-response", "4096"}},
		{"invalid", "invalid-json", nil},
	} {
		t.Run(tc.directive, func(t *testing.T) {
			args := append([]string{"--seed", "3", "--count", "6", "-j", "2"}, tc.extra...)
			args = append(args, "--", os.Args[0], "testee", "-ops", hivespec.OpManifest, "-always", tc.directive)
			code, rep, text := fuzzRun(t, args...)
			if code != 1 || len(rep.Findings) != 1 {
				t.Fatalf("exit %d, %d findings:\n%s", code, len(rep.Findings), text)
			}
			f := rep.Findings[0]
			if f.Kind != harness.FindingFailure || f.Key.Member != tc.kind || f.Count < 5 {
				t.Fatalf("finding %+v, want a %s testee failure on every case:\n%s", f, tc.kind, text)
			}
			if rep.Testee.Stats == nil || rep.Testee.Stats.Starts < 3 {
				t.Errorf("the testee was not restarted after its failures: %+v", rep.Testee.Stats)
			}
		})
	}
}

// TestFuzzUsage: flags that cannot run are usage errors.
func TestFuzzUsage(t *testing.T) {
	for _, args := range [][]string{
		{"fuzz"},
		{"fuzz", "--op", "lace.nothing", "--", "x"},
		{"fuzz", "--suite", "nothing", "--", "x"},
		{"fuzz", "--replay", "12", "--", "x"},
		{"fuzz", "-j", "0", "--", "x"},
	} {
		if code, _, _ := conform(t, args...); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
	if !slices.Contains(fuzzGens[1].Ops, hivespec.OpManifest) {
		t.Error("hivefuzz does not generate hiverelay.manifest")
	}
}

// TestFuzzGenerators: every wing's generation, for every operation it
// names, is the same for the same case, is answered by the reference
// (a request it finds built wrong is rare) and reaches both outcomes.
func TestFuzzGenerators(t *testing.T) {
	ref := reference.New(specs)
	for _, g := range fuzzGens {
		if _, ok := specs.Lookup(g.Suite); !ok {
			t.Errorf("generator of unknown suite %s", g.Suite)
		}
		for _, op := range g.Ops {
			if g.AcceptRule[op] == "" {
				t.Errorf("%s: no rule for an accepted %s", g.Suite, op)
			}
			var accepted, rejected, wrong int
			for n := range uint64(300) {
				c := g.Generate(fuzzgen.New(9, n), op)
				d := g.Generate(fuzzgen.New(9, n), op)
				if !bytes.Equal(c.Input, d.Input) || !bytes.Equal(c.Args, d.Args) || c.Generator == "" {
					t.Fatalf("%s case %d: two draws differ, or no generator named", op, n)
				}
				args := c.Args
				if len(args) == 0 {
					args = json.RawMessage("{}")
				}
				resp, err := ref.Do(context.Background(), testee.Request{Op: op, Args: args, Input: c.Input})
				switch {
				case err != nil || resp.Outcome == testee.Unsupported:
					wrong++
				case resp.Outcome == testee.Accepted:
					accepted++
				default:
					rejected++
					checkOrderGives(t, op, args, c.Input, resp)
				}
			}
			t.Logf("%s: %d accepted, %d rejected, %d not answerable", op, accepted, rejected, wrong)
			if accepted == 0 || rejected == 0 || wrong > 30 {
				t.Errorf("%s: %d accepted, %d rejected, %d the reference cannot answer, of 300", op, accepted, rejected, wrong)
			}
		}
	}
}

// checkOrderGives holds the spec's check order (spec.Spec.CheckOrder, what
// conform fuzz widens the reference's code to) to the reference's
// rejection resp of a request: the code the reference gives is one that
// a check order gives first, or the order says any code is the spec's
// (spec.AnyCode); where the reference gives a rule ID, the spec names no
// code, and the order must say so.
func checkOrderGives(t *testing.T, op string, args json.RawMessage, input []byte, resp testee.Response) {
	t.Helper()
	sp, _ := specs.Lookup(strings.SplitN(op, ".", 2)[0])
	codes, err := sp.CheckOrder(op, args, input, nil)
	switch {
	case err != nil:
		t.Errorf("%s %s %x: the reference rejects (%s %s), the check order: %v", op, args, input, resp.Code, resp.Rule, err)
	case slices.Contains(codes, spec.AnyCode):
	case resp.Code == resp.Rule || !slices.Contains(codes, resp.Code):
		t.Errorf("%s %s %x: the reference rejects with %s (%s), a check order the spec allows gives %q", op, args, input, resp.Code, resp.Rule, codes)
	}
}

// TestFuzzDeclaredReadings: the reference takes the readings the testee
// declares (no finding); the same testee not declaring them is named by
// the reading it takes.
func TestFuzzDeclaredReadings(t *testing.T) {
	args := []string{"--seed", "1", "--count", "1500", "-j", "2", "--op", "hiverelay.manifest,hiverelay.decode", "--",
		os.Args[0], "conform", "serve", "--reading", "HR-READ-12=fixed-u64-within-safe-range"}
	if code, rep, text := fuzzRun(t, args...); code != 0 || rep.Readings["HR-READ-12"] != "fixed-u64-within-safe-range" {
		t.Fatalf("declared: exit %d, readings %v\n%s", code, rep.Readings, text)
	}
	code, rep, text := fuzzRun(t, append(args, "--undeclared")...)
	if code != 1 || len(rep.Findings) == 0 {
		t.Fatalf("undeclared: exit %d\n%s", code, text)
	}
	for _, f := range rep.Findings {
		if f.Kind != harness.FindingReading || f.Key.Rule != "HR-READ-12" {
			t.Errorf("undeclared: finding %s [%s], want the reading HR-READ-12", f.Key, f.Kind)
		}
	}
}

// BenchmarkFuzzCase is one fuzz case of each small-input operation against
// the in-process reference: generation, the reference's answer, the
// testee's (the reference again) and the judge; the cost conform adds to
// each exec against an external testee.
func BenchmarkFuzzCase(b *testing.B) {
	for _, op := range []string{hivespec.OpManifest, hivespec.OpDecode, "lace.record", "libtracer.decode"} {
		b.Run(op, func(b *testing.B) {
			cfg := harness.FuzzConfig{Specs: specs, Gens: fuzzGens, Ops: []string{op}, Impl: reference.New(specs), Jobs: 1, Seed: 1, Count: int64(b.N)}
			b.ResetTimer()
			if rep := harness.Fuzz(context.Background(), cfg); len(rep.Findings) > 0 {
				b.Fatalf("the reference disagrees with itself: %v", rep.Findings[0].Key)
			}
		})
	}
}
