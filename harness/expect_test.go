package harness

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/threespec/conformance/harness/harnesstest"
	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/internal/allspecs"
	"github.com/threespec/conformance/internal/fault"
	"github.com/threespec/conformance/reference"
	"github.com/threespec/conformance/vectorset"
)

func TestParseExpectations(t *testing.T) {
	good := "# my-lace 0.3\n\n" +
		"lace/negative/plex-field-line-129-bytes  field lines are not length-checked yet\n" +
		"LACE-DIR-14\tcontinuation pages are not implemented # issue 12\n" +
		"  hiverelay/positive/x   reason with  spaces  \n"
	ex, err := ParseExpectations(allspecs.Set(), strings.NewReader(good), "x.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := []Expectation{
		{Key: "lace/negative/plex-field-line-129-bytes", Reason: "field lines are not length-checked yet", Line: 3},
		{Key: "LACE-DIR-14", Rule: true, Reason: "continuation pages are not implemented", Line: 4},
		{Key: "hiverelay/positive/x", Reason: "reason with  spaces", Line: 5},
	}
	if len(ex.Entries) != len(want) {
		t.Fatalf("%d entries", len(ex.Entries))
	}
	for i, w := range want {
		if *ex.Entries[i] != w {
			t.Errorf("entry %d: %+v, want %+v", i, *ex.Entries[i], w)
		}
	}
	bad := []struct{ in, want string }{
		{"lace/negative/x\n", "x.txt:1: lace/negative/x has no reason"},
		{"# c\nnot-an-id because\n", "x.txt:2: \"not-an-id\" is neither"},
		{"lace/sideways/x reason\n", "neither"},
		{"lace-field-03 lower case\n", "neither"},
		{"LACE-DIR-14 a\nLACE-DIR-14 b\n", "x.txt:2: LACE-DIR-14 is listed again (first on line 1)"},
	}
	for _, c := range bad {
		_, err := ParseExpectations(allspecs.Set(), strings.NewReader(c.in), "x.txt")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.in, err, c.want)
		}
	}
}

// Expected failures cannot go stale: a listed vector that passes, and an
// entry that matches nothing, fail the run.
func TestExpectationsApplied(t *testing.T) {
	vecs := []harnesstest.Vector{
		{Name: "fails", Input: "reject:X"},
		{Name: "fails-should", Input: "reject:X", Level: "SHOULD", Rules: []string{"LACE-TEST-02"}},
		{Name: "passes", Input: "ok:{}", Rules: []string{"LACE-TEST-03"}},
		{Name: "rule-fails", Input: "reject:X", Rules: []string{"LACE-TEST-04"}},
		{Name: "unclaimed", Op: "lace.chunks", Input: "reject:X", Rules: []string{"LACE-TEST-05"}},
		{Name: "not-listed", Input: "reject:X", Rules: []string{"LACE-TEST-06"}},
	}
	suites := synthetic(t, vecs)
	file := "lace/positive/fails known\n" +
		"lace/positive/fails-should known\n" +
		"lace/positive/passes fixed meanwhile\n" +
		"LACE-TEST-04 known by rule\n" +
		"LACE-TEST-05 only in a vector that does not apply\n" +
		"lace/positive/no-such-vector typo\n"
	ex, err := ParseExpectations(allspecs.Set(), strings.NewReader(file), "expect.txt")
	if err != nil {
		t.Fatal(err)
	}
	tt, err := StartTestee(self("testee"), TesteeOptions{Timeout: 5 * time.Second, HelloTimeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer tt.Impl.Close()
	rep := Run(t.Context(), Config{Specs: allspecs.Set(), Suites: suites, Impl: tt.Impl, Expect: ex})
	want := map[string]Status{"fails": XFail, "fails-should": XFail, "passes": XPass, "rule-fails": XFail, "unclaimed": NotApplicable, "not-listed": Fail}
	for name, st := range want {
		if v := byID(t, rep, name); v.Status != st {
			t.Errorf("%s: %s, want %s", name, v.Status, st)
		}
	}
	var problems []string
	for _, p := range rep.Expectations {
		problems = append(problems, p.Key+": "+p.Problem)
	}
	wantProblems := []string{
		"lace/positive/passes: expected to fail, but 1 matching vector(s) passed",
		"LACE-TEST-05: stale: matches no applicable selected vector",
		"lace/positive/no-such-vector: stale: matches no applicable selected vector",
	}
	if strings.Join(problems, "\n") != strings.Join(wantProblems, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(problems, "\n"), strings.Join(wantProblems, "\n"))
	}
	if rep.ExitCode != ExitFail || rep.Counts.XFailed != 3 || rep.Counts.XPassed != 1 || rep.Counts.Failed != 1 {
		t.Errorf("exit %d, counts %+v", rep.ExitCode, rep.Counts)
	}
}

// FuzzParseExpectations: no panic; what parses writes back (key, a space,
// reason) to a file that parses to the same entries.
func FuzzParseExpectations(f *testing.F) {
	f.Add("# c\nlace/negative/x  reason # trailing\nLACE-DIR-14\tr\n")
	f.Add("hiverelay/positive/a b\n\n  \t\nLT-CRC-09 x y z")
	f.Fuzz(func(t *testing.T, in string) {
		ex, err := ParseExpectations(allspecs.Set(), strings.NewReader(in), "f")
		if err != nil {
			return
		}
		var b strings.Builder
		for _, e := range ex.Entries {
			b.WriteString(e.Key + " " + e.Reason + "\n")
		}
		back, err := ParseExpectations(allspecs.Set(), strings.NewReader(b.String()), "f")
		if err != nil {
			t.Fatalf("%q written back as %q: %v", in, b.String(), err)
		}
		if len(back.Entries) != len(ex.Entries) {
			t.Fatalf("%d entries, %d after writing back", len(ex.Entries), len(back.Entries))
		}
		for i, e := range ex.Entries {
			if g := back.Entries[i]; g.Key != e.Key || g.Reason != e.Reason || g.Rule != e.Rule {
				t.Fatalf("entry %d: %+v, %+v after writing back", i, e, g)
			}
		}
	})
}

// A rule entry survives vectors that test two rules: the reference with
// LT-OPT-02 (reserved opt bit 0) switched off, run on the committed vectors
// of LT-OPT-01 and LT-OPT-02, fails every vector reported under LT-OPT-02
// but still rejects negative/reserved-bits-both-bit7-first (bits 7 and 0
// set) for LT-OPT-01. The one-line file "LT-OPT-02 reason" makes the run
// pass: the failures are expected, the two-rule vector's pass is no
// unexpected pass. Listing that vector by ID keeps today's strictness, and
// the entry goes stale once the rule is enforced again.
func TestRuleEntryWithMultiRuleVectors(t *testing.T) {
	suites, err := LoadSuites(allSuites, "../vectors", "../manifest", nil)
	if err != nil {
		t.Fatal(err)
	}
	sel := Selection{Suites: []string{"libtracer"}, Rules: []string{"LT-OPT-01", "LT-OPT-02"}}
	faulty := reference.New(allspecs.Set()).WithChecks(rules.Checks{Faults: fault.Of("LT-OPT-02")})
	impl := faulty
	run := func(file string) *Report {
		ex, err := ParseExpectations(allspecs.Set(), strings.NewReader(file), "expect.txt")
		if err != nil {
			t.Fatal(err)
		}
		return Run(t.Context(), Config{Specs: allspecs.Set(), Suites: suites, Selection: sel, Impl: impl, Expect: ex})
	}
	problems := func(r *Report) string {
		var s []string
		for _, p := range r.Expectations {
			s = append(s, p.Key+": "+p.Problem)
		}
		return strings.Join(s, "\n")
	}
	const twoRules = "libtracer/negative/reserved-bits-both-bit7-first"

	rep := run("LT-OPT-02  reserved opt bit 0 not checked\n")
	if rep.ExitCode != ExitPass || problems(rep) != "" {
		var b strings.Builder
		WriteText(&b, rep, TextOptions{})
		t.Errorf("one-bug testee with a rule entry: exit %d, problems %q\n%s", rep.ExitCode, problems(rep), b.String())
	}
	xfail, multi := 0, false
	for _, v := range rep.Vectors {
		switch {
		case v.ID == twoRules:
			multi = true
			if v.Status != Pass || v.ExpectedFailure != "" {
				t.Errorf("%s: %s (%q), want a plain pass (rejected for LT-OPT-01)", v.ID, v.Status, v.ExpectedFailure)
			}
		case v.Status == XFail:
			xfail++
		}
	}
	if !multi || xfail < 30 {
		t.Errorf("two-rule vector seen: %v; %d expected failures, want the single-rule vectors of LT-OPT-02 (34)", multi, xfail)
	}

	rep = run("LT-OPT-02  reserved opt bit 0 not checked\n" + twoRules + "  listed by ID: strict\n")
	if want := twoRules + ": expected to fail, but 1 matching vector(s) passed"; problems(rep) != want || rep.ExitCode != ExitFail {
		t.Errorf("vector-ID entry: exit %d, problems %q, want %q", rep.ExitCode, problems(rep), want)
	}
	if v := byID(t, rep, "reserved-bits-both-bit7-first"); v.Status != XPass {
		t.Errorf("vector-ID entry: %s, want %s", v.Status, XPass)
	}
	impl = reference.New(allspecs.Set()) // the rule enforced again

	rep = run("LT-OPT-02  reserved opt bit 0 not checked\n")
	if !strings.HasPrefix(problems(rep), "LT-OPT-02: expected to fail, but ") || rep.ExitCode != ExitFail {
		t.Errorf("rule enforced again: exit %d, problems %q, want unexpected passes of single-rule vectors", rep.ExitCode, problems(rep))
	}
	sel = Selection{Suites: []string{"libtracer"}, IDs: []string{twoRules}}
	rep = run("LT-OPT-02  reserved opt bit 0 not checked\n")
	if want := "LT-OPT-02: stale: none of the 1 applicable selected vector(s) testing this rule failed"; problems(rep) != want || rep.ExitCode != ExitFail {
		t.Errorf("only a two-rule vector, which passes: exit %d, problems %q, want %q", rep.ExitCode, problems(rep), want)
	}
}

// Matching the expected-failures file is linear in entries and vectors
// (issue 30, item 17: 10^6 entries against the committed set took 61 s,
// entries x vectors). 200,000 entries, none matching, against 4,000
// vectors, and one rule entry matching them all: before, 8 x 10^8
// comparisons (about 3 s here); now a look-up per vector and rule.
func TestExpectationsMatchLinear(t *testing.T) {
	var file strings.Builder
	for i := range 200_000 {
		fmt.Fprintf(&file, "lace/negative/no-such-vector-%d  reason\n", i)
	}
	file.WriteString("LACE-TEST-01  every vector tests it\n")
	ex, err := ParseExpectations(allspecs.Set(), strings.NewReader(file.String()), "expect.txt")
	if err != nil {
		t.Fatal(err)
	}
	var items []*item
	for i := range 4_000 {
		v := &vectorset.Vector{ID: fmt.Sprintf("lace/negative/v%d", i), Rules: []string{"LACE-TEST-01", "LACE-TEST-02"}}
		items = append(items, &item{v: v, res: &VectorResult{ID: v.ID, Rules: v.Rules, Status: Fail}})
	}
	start := time.Now()
	problems := applyExpectations(ex, items)
	if d := time.Since(start); d > time.Second {
		t.Errorf("matching took %v", d)
	}
	if len(problems) != 200_000 || items[0].res.Status != XFail {
		t.Errorf("%d problems, first vector %s", len(problems), items[0].res.Status)
	}
}

// A vector renamed with its old ID kept as an alias is still matched by
// an expected-failures entry and an --id or --skip glob of the old ID.
func TestAliasesMatch(t *testing.T) {
	ex, err := ParseExpectations(allspecs.Set(), strings.NewReader("lace/negative/old-name  a known gap\n"), "expect.txt")
	if err != nil {
		t.Fatal(err)
	}
	v := &vectorset.Vector{ID: "lace/negative/new-name", Aliases: []string{"lace/negative/old-name"}, Rules: []string{"LACE-TEST-01"}}
	items := []*item{{v: v, res: &VectorResult{ID: v.ID, Rules: v.Rules, Status: Fail}}}
	if problems := applyExpectations(ex, items); len(problems) != 0 || items[0].res.Status != XFail {
		t.Errorf("problems %+v, status %s", problems, items[0].res.Status)
	}
	for _, c := range []struct {
		sel  Selection
		want bool
	}{
		{Selection{IDs: []string{"lace/negative/old-name"}}, true},
		{Selection{IDs: []string{"old-*"}}, true},
		{Selection{IDs: []string{"new-name"}}, true},
		{Selection{IDs: []string{"other"}}, false},
		{Selection{Skip: []string{"old-name"}}, false},
	} {
		if got := c.sel.Match("lace", v); got != c.want {
			t.Errorf("%+v: Match %v", c.sel, got)
		}
	}
}
