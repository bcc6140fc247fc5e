package harness

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/internal/allspecs"
	"github.com/threespec/conformance/internal/reading"
	"github.com/threespec/conformance/reference"
	"github.com/threespec/conformance/testee"
	"github.com/threespec/conformance/vectorset"
)

// branchesOf lists, by suite, the non-default alternatives the committed
// vectors have branches for ("HR-READ-03=zero-previous-hash-rejected").
func branchesOf(t *testing.T, suites []*Suite) map[string]map[string]string {
	t.Helper()
	out := map[string]map[string]string{}
	for _, s := range suites {
		for _, v := range s.Index.Vectors {
			for id, alt := range v.Readings {
				if alt != allspecs.Set().ReadingDefaults()[id] {
					out[s.Name+" "+id+"="+alt] = map[string]string{id: alt}
				}
			}
		}
	}
	return out
}

// TestDeclaredReadingPassesEverySuite: for every alternative with branch
// vectors, the reference switched into it and declaring it in hello passes
// its suite, and the report counts the vectors the declaration changed;
// switched into it without declaring it, it fails only by the readings
// section, never by a MUST failure.
func TestDeclaredReadingPassesEverySuite(t *testing.T) {
	all, err := LoadSuites(allSuites, "../vectors", "../manifest", nil)
	if err != nil {
		t.Fatal(err)
	}
	branches := branchesOf(t, all)
	if len(branches) < 3 {
		t.Fatalf("only %d alternatives have branch vectors", len(branches))
	}
	for key, taken := range branches {
		suite, _, _ := strings.Cut(key, " ")
		t.Run(key, func(t *testing.T) {
			suites, err := LoadSuites(allSuites, "../vectors", "../manifest", []string{suite})
			if err != nil {
				t.Fatal(err)
			}
			for _, undeclared := range []bool{false, true} {
				ref := reference.New(allspecs.Set()).WithChecks(rules.Checks{Readings: reading.Of(taken)})
				ref.Undeclared = undeclared
				rep := Run(context.Background(), Config{Specs: allspecs.Set(), Suites: suites, Impl: ref, Testee: TesteeInfo{Mode: "in-process"}})
				var b strings.Builder
				WriteText(&b, rep, TextOptions{})
				c := rep.Counts
				switch {
				case !undeclared && (rep.ExitCode != ExitPass || c.DeclaredJudged == 0 || c.DeclaredSetAside == 0 || c.Readings != 0):
					t.Fatalf("declared: exit %d, counts %+v:\n%s", rep.ExitCode, c, b.String())
				case !undeclared && !strings.Contains(b.String(), "readings:    declared "+strings.TrimPrefix(key, suite+" ")):
					t.Errorf("the report does not show the declared reading:\n%s", b.String())
				case undeclared && (rep.ExitCode != ExitFail || c.Failed != 0 || c.Warnings != 0 || c.Readings == 0):
					t.Fatalf("undeclared: exit %d, counts %+v:\n%s", rep.ExitCode, c, b.String())
				case undeclared && !strings.Contains(b.String(), "Readings taken but not declared") || undeclared && strings.Contains(b.String(), "\nFAIL "):
					t.Errorf("undeclared: no readings section, or a FAIL line:\n%s", b.String())
				}
				if undeclared {
					var j, x strings.Builder
					if err := WriteJSON(&j, rep); err != nil {
						t.Fatal(err)
					}
					if err := WriteJUnit(&x, rep); err != nil {
						t.Fatal(err)
					}
					if !strings.Contains(j.String(), `"status": "reading"`) || !strings.Contains(j.String(), `"undeclared_readings": `) ||
						!strings.Contains(x.String(), `type="undeclared-reading"`) || !strings.Contains(x.String(), `name="undeclared-readings"`) {
						t.Errorf("the JSON or JUnit report does not show the undeclared reading apart")
					}
				}
				for _, v := range rep.Vectors {
					if v.Status == Reading && !strings.Contains(v.Reason, "declare it in hello") {
						t.Errorf("%s: %s", v.ID, v.Reason)
					}
				}
			}
		})
	}
}

// TestHelloRefusesUnknownReading: a hello declaring a reading or an
// alternative the catalog does not know aborts the run, naming it.
func TestHelloRefusesUnknownReading(t *testing.T) {
	suites, err := LoadSuites(allSuites, "../vectors", "../manifest", []string{"libtracer"})
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []map[string]string{{"HR-READ-99": "x"}, {"HR-READ-03": "no-such-alternative"}} {
		impl := helloWith{reference.New(allspecs.Set()), bad}
		rep := Run(context.Background(), Config{Specs: allspecs.Set(), Suites: suites, Impl: impl, Testee: TesteeInfo{Mode: "in-process"}})
		if rep.ExitCode != ExitTestee || !strings.Contains(rep.Aborted, "HR-READ-") {
			t.Errorf("%v: exit %d, aborted %q", bad, rep.ExitCode, rep.Aborted)
		}
	}
}

// helloWith answers hello with the given readings added.
type helloWith struct {
	*reference.Reference
	readings map[string]string
}

func (h helloWith) Do(ctx context.Context, req testee.Request) (testee.Response, error) {
	resp, err := h.Reference.Do(ctx, req)
	if req.Op == testee.OpHello && err == nil {
		hello := h.Reference.Hello()
		hello["readings"] = h.readings
		resp.Result, err = marshalAny(hello)
	}
	return resp, err
}

// TestAcceptableNotPreferred: a rejection with an acceptable code passes,
// noted as not preferred in the report; any other code fails.
func TestAcceptableNotPreferred(t *testing.T) {
	v := &vectorset.Vector{ID: "libtracer/negative/x", Expect: vectorset.Reject, Code: "tr::path::invalid",
		AcceptableCodes: []string{"tr::schema::type_mismatch"}, Rules: []string{"LT-TS-04"}}
	for code, pass := range map[string]bool{"tr::path::invalid": true, "tr::schema::type_mismatch": true, "INVALID": false} {
		vd := vectorset.Judge(v, testee.Response{Outcome: testee.Rejected, Code: code}, false)
		if vd.Pass != pass || (vd.NotPreferred != "") != (code == "tr::schema::type_mismatch") {
			t.Errorf("code %s: %+v", code, vd)
		}
	}
	rep := &Report{Vectors: []*VectorResult{{ID: v.ID, Status: Pass, NotPreferred: "acceptable, not preferred: code x"}}}
	rep.finish(allspecs.Set())
	var b strings.Builder
	WriteText(&b, rep, TextOptions{})
	if rep.Counts.NotPreferred != 1 || !strings.Contains(b.String(), "Acceptable, not preferred") || rep.ExitCode != ExitPass {
		t.Errorf("counts %+v:\n%s", rep.Counts, b.String())
	}
}

func marshalAny(v any) ([]byte, error) { return json.Marshal(v) }
