// Package conformtest runs the project's vector sets against a Go
// implementation in process, inside the implementer's own `go test`: no
// stdin/stdout program, no checkout. The vectors and their manifests are
// embedded in the module (packages vectors and manifest), so
//
//	go get github.com/threespec/conformance
//
// is all it needs. The implementation is a testee.Implementation: Do
// answers one request of testee protocol v1 (docs/PROTOCOL.md) as a
// Response value, hello included, exactly as a testee program answers it
// on a line.
//
//	func TestConformance(t *testing.T) {
//		conformtest.Run(t, myImpl{}, conformtest.Options{Suites: []string{"libtracer"}})
//	}
//
// Run is `conform run` (docs/CONFORM.md) with the implementation in
// process: the same verification of the sets against their manifests and
// set hashes, the same selection, judging (vectorset.Judge, through
// harness.Run), expected-failures files, readings declared in hello and
// profiles. Each vector is a subtest named by its first rule and its ID
// (TestConformance/LT-OPT-02/libtracer/negative/reserved-bit0-set), so
// that `go test -run 'TestConformance/LT-OPT-02/'` shows one rule's
// vectors. The vectors run before the subtests report (with Jobs at once),
// so a -run pattern narrows what is shown, not what runs: Options narrows
// the run.
package conformtest

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/threespec/conformance/harness"
	"github.com/threespec/conformance/impl/hiverelay/hivespec"
	"github.com/threespec/conformance/impl/lace/lacespec"
	"github.com/threespec/conformance/impl/libtracer/tracerspec"
	"github.com/threespec/conformance/impl/spec"
	"github.com/threespec/conformance/internal/parallel"
	"github.com/threespec/conformance/manifest"
	"github.com/threespec/conformance/testee"
	"github.com/threespec/conformance/vectors"
)

// Specs are the specifications the vector sets are of, in report order
// (the list cmd/conform holds): reference.New(conformtest.Specs) is the
// project's reference implementation of all of them.
var Specs = spec.MustSet(lacespec.Spec, hivespec.Spec, tracerspec.Spec)

// Options narrow and tune a run; the zero value runs every vector of every
// suite, one at a time, against what the implementation claims in hello.
// The fields are those of `conform run`'s flags of the same names.
type Options struct {
	// Suites, Ops, Rules, Tags, IDs and Skip select vectors as --suite,
	// --op, --rule, --tag, --id and --skip do (harness.Selection).
	Suites, Ops, Rules, Tags, IDs, Skip []string
	// Profiles are added to those the implementation claims (--profile).
	Profiles []string
	// Mark is the Mark policy (--mark): "" relies on the stand-in scheme,
	// "none" makes the vectors that need it not applicable.
	Mark string
	// ExpectFail is an expected-failures file (--expect-fail,
	// docs/CONFORM.md): known gaps by vector or rule ID, each with a reason.
	ExpectFail string
	// Jobs is how many requests are asked at once (-j): Do is then called
	// concurrently. Below 1 is 1.
	Jobs int
	// Vectors, when set, is a vectors directory (a checkout's vectors/,
	// its manifests in ../manifest) to run instead of the embedded sets.
	Vectors string
	// Report, when set, is a file the human report (conform run's) is
	// written to; JSON one the JSON report is written to.
	Report, JSON string
}

// Run runs the selected vectors against impl, reports each as a subtest
// of t named by its first rule and its ID, and returns the report. A
// vector that passes passes; one that fails (a MUST failure, an error of
// the implementation, an unexpected pass, an answer of an undeclared
// reading) fails its subtest with what was expected and what came; a
// SHOULD failure (a warning) passes with a log line; an expected failure,
// a vector that does not apply and one of another reading's branch are
// skipped with the reason. t fails, with the report's verdict, whenever
// `conform run` would exit with another status than 0 (stale
// expected-failures entries, a suite none of whose vectors passed, a
// setup error). Run does not close impl.
func Run(t *testing.T, impl testee.Implementation, opts Options) *harness.Report {
	t.Helper()
	rep, err := Check(t.Context(), impl, opts)
	if err != nil {
		t.Fatalf("conformtest: %v", err)
	}
	for _, g := range Verdicts(rep) {
		t.Run(g.Rule, func(t *testing.T) {
			for _, v := range g.Vectors {
				t.Run(v.ID, func(t *testing.T) {
					switch v.Outcome {
					case Failed:
						t.Error(v.Message)
					case Skipped:
						t.Skip(v.Message)
					default:
						if v.Message != "" {
							t.Log(v.Message)
						}
					}
				})
			}
		})
	}
	var text bytes.Buffer
	if err := harness.WriteText(&text, rep, harness.TextOptions{}); err != nil {
		t.Fatalf("conformtest: the report: %v", err)
	}
	if opts.Report != "" {
		if err := os.WriteFile(opts.Report, text.Bytes(), 0o644); err != nil {
			t.Errorf("conformtest: %v", err)
		}
	}
	if opts.JSON != "" {
		var b bytes.Buffer
		if err := harness.WriteJSON(&b, rep); err != nil {
			t.Errorf("conformtest: the JSON report: %v", err)
		} else if err := os.WriteFile(opts.JSON, b.Bytes(), 0o644); err != nil {
			t.Errorf("conformtest: %v", err)
		}
	}
	for _, p := range rep.Expectations {
		t.Errorf("%s:%d: %s: %s", p.File, p.Line, p.Key, p.Problem)
	}
	lines := strings.Split(strings.TrimSpace(text.String()), "\n")
	summary := strings.Join(lines[max(len(lines)-2, 0):], "\n")
	if rep.ExitCode != harness.ExitPass {
		t.Errorf("conformtest: %s", summary)
	} else {
		t.Log(summary)
	}
	return rep
}

// Check loads and verifies the selected suites (the embedded ones,
// written once to a cache directory, Cached; or opts.Vectors), runs them
// against impl as `conform run` does (harness.Run) and returns the
// report. An error is a setup error: options that select nothing or name
// what does not exist, a vector set that does not verify, an unreadable
// expected-failures file.
func Check(ctx context.Context, impl testee.Implementation, opts Options) (*harness.Report, error) {
	sel := harness.Selection{Suites: opts.Suites, Ops: opts.Ops, Rules: opts.Rules, Tags: opts.Tags, IDs: opts.IDs, Skip: opts.Skip}
	pol := harness.Policy{Profiles: opts.Profiles, Mark: opts.Mark}
	if err := sel.Check(); err != nil {
		return nil, err
	}
	if err := pol.Check(Specs); err != nil {
		return nil, err
	}
	vectorsDir, cached := opts.Vectors, opts.Vectors == ""
	if cached {
		var err error
		if vectorsDir, err = Cached(false); err != nil {
			return nil, err
		}
	}
	suites, err := harness.LoadSuites(Specs.SuiteDefs(), vectorsDir, harness.DefaultManifestDir(vectorsDir), sel.Suites)
	if err != nil && cached {
		// The cached copy does not verify (changed or cut short since it
		// was written): written afresh, verified again.
		if vectorsDir, err = Cached(true); err != nil {
			return nil, err
		}
		suites, err = harness.LoadSuites(Specs.SuiteDefs(), vectorsDir, harness.DefaultManifestDir(vectorsDir), sel.Suites)
	}
	if err != nil {
		return nil, err
	}
	if sel.Count(suites) == 0 {
		return nil, sel.NoMatch(suites, vectorsDir)
	}
	var expect *harness.Expectations
	if opts.ExpectFail != "" {
		b, err := os.ReadFile(opts.ExpectFail)
		if err != nil {
			return nil, err
		}
		if expect, err = harness.ParseExpectations(Specs, bytes.NewReader(b), opts.ExpectFail); err != nil {
			return nil, err
		}
	}
	jobs := max(opts.Jobs, 1)
	return harness.Run(ctx, harness.Config{
		Specs: Specs, Suites: suites, Selection: sel, Policy: pol, Expect: expect,
		Impl: impl, Jobs: jobs,
		Testee: harness.TesteeInfo{Command: []string{os.Args[0]}, Mode: harness.ModeInProcess, Jobs: jobs},
	}), nil
}

// Cached returns the vectors directory of a copy of the embedded vector
// sets in the user's cache directory (os.UserCacheDir, else the temporary
// directory), below threespec-conformtest/<key>, the key a hash of the
// embedded manifests (which identify every file of the sets), written the
// first time (Extract: 3,400 files, a second or two) and reused after:
// every run verifies it against the manifests as it loads it (harness.LoadSuites), so a
// copy that was changed is refused, never judged by. fresh writes it
// again even when it exists.
func Cached(fresh bool) (string, error) {
	h := sha256.New()
	err := fs.WalkDir(manifest.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(manifest.FS, p)
		fmt.Fprintf(h, "%s\x00%d\x00", p, len(b))
		h.Write(b)
		return err
	})
	if err != nil {
		return "", err
	}
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	parent := filepath.Join(base, "threespec-conformtest")
	dir := filepath.Join(parent, hex.EncodeToString(h.Sum(nil))[:24])
	vectorsDir := filepath.Join(dir, "vectors")
	if _, err := os.Stat(vectorsDir); err == nil && !fresh {
		return vectorsDir, nil
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(parent, "tmp-")
	if err != nil {
		return "", err
	}
	if _, err := Extract(tmp); err != nil {
		os.RemoveAll(tmp)
		return "", err
	}
	if fresh {
		os.RemoveAll(dir)
	}
	if err := os.Rename(tmp, dir); err != nil {
		// Another test binary wrote it meanwhile: its copy is as good.
		os.RemoveAll(tmp)
		if _, serr := os.Stat(vectorsDir); serr != nil {
			return "", err
		}
	}
	return vectorsDir, nil
}

// Extract writes the embedded vector sets below dir (dir/vectors and
// dir/manifest, the layout of a checkout) and returns the vectors
// directory. harness.LoadSuites then verifies them byte for byte against
// their manifests, as it verifies a checkout.
func Extract(dir string) (string, error) {
	type file struct {
		fsys      fs.FS
		name, out string
	}
	var files []file
	for _, tree := range []struct {
		name string
		fsys fs.FS
	}{{"vectors", vectors.FS}, {"manifest", manifest.FS}} {
		root := filepath.Join(dir, tree.name)
		err := fs.WalkDir(tree.fsys, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			out := filepath.Join(root, filepath.FromSlash(p))
			if d.IsDir() {
				return os.MkdirAll(out, 0o755)
			}
			files = append(files, file{tree.fsys, p, out})
			return nil
		})
		if err != nil {
			return "", fmt.Errorf("writing the embedded %s: %w", tree.name, err)
		}
	}
	// Written on every core: creating 3,400 files is most of the cost.
	errs := make([]error, len(files))
	parallel.Each(len(files), func(i int) {
		f := files[i]
		b, err := fs.ReadFile(f.fsys, f.name)
		if err == nil {
			err = os.WriteFile(f.out, b, 0o644)
		}
		errs[i] = err
	})
	if err := errors.Join(errs...); err != nil {
		return "", fmt.Errorf("writing the embedded vector sets: %w", err)
	}
	return filepath.Join(dir, "vectors"), nil
}

// Outcome is how a vector's subtest ends.
type Outcome int

const (
	// Passed: the vector passed, or only warned (SHOULD).
	Passed Outcome = iota
	// Failed: the subtest fails.
	Failed
	// Skipped: an expected failure, a vector that does not apply, one of
	// another reading's branch.
	Skipped
)

// Verdict is one vector's subtest: its ID, how it ends and what it says.
type Verdict struct {
	ID      string
	Outcome Outcome
	Message string
}

// RuleVerdicts are the vectors of one rule (their first), in report order.
type RuleVerdicts struct {
	Rule    string
	Vectors []Verdict
}

// Verdicts maps a report's vectors to subtests, grouped by each vector's
// first rule in the order the rules first appear.
func Verdicts(rep *harness.Report) []RuleVerdicts {
	var out []RuleVerdicts
	at := map[string]int{}
	for _, v := range rep.Vectors {
		rule := "no-rule"
		if len(v.Rules) > 0 {
			rule = v.Rules[0]
		}
		i, ok := at[rule]
		if !ok {
			i = len(out)
			at[rule] = i
			out = append(out, RuleVerdicts{Rule: rule})
		}
		out[i].Vectors = append(out[i].Vectors, verdict(v))
	}
	return out
}

func verdict(v *harness.VectorResult) Verdict {
	d := Verdict{ID: v.ID}
	what := fmt.Sprintf("%s %s (%s, %s)\n  expected: %s", v.Op, v.ID, v.Level, strings.Join(v.Rules, " "), v.Expected)
	if v.Got != "" {
		what += "\n  got:      " + v.Got
	}
	if v.Reason != "" && v.Reason != v.Got {
		what += "\n  " + strings.ReplaceAll(v.Reason, "\n", "\n  ")
	}
	if v.Decision != "" {
		what += "\n  " + v.Decision
	}
	if v.Comment != "" {
		what += "\n  vector: " + v.Comment
	}
	switch v.Status {
	case harness.Pass:
		d.Message = v.NotPreferred
	case harness.Warn:
		d.Message = "warning (SHOULD, does not fail): " + what
	case harness.XFail:
		d.Outcome, d.Message = Skipped, "expected failure: "+v.ExpectedFailure
	case harness.NotApplicable, harness.OtherReading:
		d.Outcome, d.Message = Skipped, cmp.Or(v.Reason, string(v.Status))
	case harness.XPass:
		d.Outcome, d.Message = Failed, "unexpected pass: "+v.Reason
	case harness.Reading:
		d.Outcome, d.Message = Failed, v.Reason+"\n  "+what
	default: // Fail, Error, NotRun
		d.Outcome, d.Message = Failed, strings.ToUpper(string(v.Status))+": "+what
	}
	return d
}
