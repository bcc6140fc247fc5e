package steps

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/cucumber/godog"

	"github.com/threespec/conformance/impl/spec"
	"github.com/threespec/conformance/testee"
)

// Config configures a run of the features.
type Config struct {
	// Impl is the implementation under test.
	Impl testee.Implementation
	// Wings are the wings whose steps the features use, each with its
	// spec (whose rules and readings the run knows); the common steps are
	// always registered.
	Wings []Wing
	// StrictRules makes "it is rejected by rule X" also require that the
	// implementation reports rule X (the reference does; the testee
	// protocol makes reporting rules optional, so external runs leave it off).
	StrictRules bool
	// Options are godog's: paths, tags, format, output, TestingT. Strict is
	// always set: undefined or pending steps fail the run.
	Options godog.Options
}

// Report is what a run observed, for the traceability test and the rule list.
type Report struct {
	// Status is godog's exit status: 0 passed, 1 failed, 2 usage error.
	Status int
	// Scenarios maps a scenario's AST node ID (the ID of its Scenario or
	// Examples row in the Gherkin document) and URI to its outcome.
	Scenarios []ScenarioRun
}

// ScenarioRun is one executed scenario (one pickle).
type ScenarioRun struct {
	URI        string
	Name       string
	AstNodeIDs []string
	Err        error    // nil when it passed
	Skipped    bool     // not applicable to the implementation
	Expected   []string // rule IDs its "rejected by rule" steps expected
	Reported   []string // rule IDs the implementation reported for them
}

type runState struct {
	specs       *spec.Set
	impl        testee.Implementation
	hello       *testee.Hello
	strictRules bool
	id          atomic.Int64

	mu        sync.Mutex
	scenarios map[string]*ScenarioRun // by pickle ID
	order     []string
}

func (r *runState) nextID() int64 { return r.id.Add(1) }

func (r *runState) record(sc *godog.Scenario, expected, reported string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s := r.scenarios[sc.Id]; s != nil {
		s.Expected = append(s.Expected, expected)
		s.Reported = append(s.Reported, reported)
	}
}

// Run runs the features against cfg.Impl and reports what it saw.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	hello, err := testee.Handshake(ctx, cfg.Impl)
	if err != nil {
		return nil, fmt.Errorf("steps: hello: %w", err)
	}
	var ss []*spec.Spec
	for _, s := range cfg.Wings {
		ss = append(ss, s.Spec)
	}
	specs, err := spec.NewSet(ss...)
	if err != nil {
		return nil, fmt.Errorf("steps: %w", err)
	}
	rs := &runState{specs: specs, impl: cfg.Impl, hello: hello, strictRules: cfg.StrictRules, scenarios: map[string]*ScenarioRun{}}
	opts := cfg.Options
	opts.Strict = true
	if opts.Format == "" {
		opts.Format = "progress"
	}
	if opts.Output == nil {
		opts.Output = io.Discard
	}
	if len(opts.Paths) == 0 && opts.FS == nil {
		opts.Paths = []string{"features"}
	}
	if opts.DefaultContext == nil {
		opts.DefaultContext = ctx
	}
	suite := godog.TestSuite{
		Name: "conformance",
		ScenarioInitializer: func(sc *godog.ScenarioContext) {
			w := &World{run: rs}
			sc.Before(func(ctx context.Context, s *godog.Scenario) (context.Context, error) {
				w.ctx, w.scenario = ctx, s
				rs.mu.Lock()
				rs.scenarios[s.Id] = &ScenarioRun{URI: s.Uri, Name: s.Name, AstNodeIDs: s.AstNodeIds}
				rs.order = append(rs.order, s.Id)
				rs.mu.Unlock()
				// A scenario tagged @needs-<profile> applies only to an
				// implementation that claims the profile (docs/PROTOCOL.md).
				for _, tag := range s.Tags {
					if p, ok := strings.CutPrefix(tag.Name, "@needs-"); ok && !hello.ClaimsProfile(p) {
						return ctx, fmt.Errorf("%w: the implementation does not claim profile %s", godog.ErrSkip, p)
					}
					// A scenario tagged @reading:ID (the default) or
					// @reading:ID=ALT shows one branch of a reading
					// (docs/READINGS.md): it applies only to an
					// implementation taking that branch, as declared in hello.
					if why := otherReading(specs, tag.Name, hello.Readings); why != "" {
						return ctx, fmt.Errorf("%w: %s", godog.ErrSkip, why)
					}
				}
				return ctx, nil
			})
			sc.After(func(ctx context.Context, s *godog.Scenario, err error) (context.Context, error) {
				rs.mu.Lock()
				if r := rs.scenarios[s.Id]; r != nil {
					r.Err = err
				}
				rs.mu.Unlock()
				// godog keeps every scenario's context, and so this World,
				// until the run ends: drop the last exchange, whose input
				// may be tens of MiB.
				w.req, w.resp = testee.Request{}, testee.Response{}
				return ctx, nil
			})
			sc.StepContext().After(func(ctx context.Context, st *godog.Step, status godog.StepResultStatus, err error) (context.Context, error) {
				if status == godog.StepSkipped && w.scenario != nil {
					rs.mu.Lock()
					if r := rs.scenarios[w.scenario.Id]; r != nil && r.Err == nil {
						r.Skipped = true
					}
					rs.mu.Unlock()
				}
				return ctx, nil
			})
			registerCommon(sc, w)
			for _, spec := range cfg.Wings {
				spec.Register(sc, w)
			}
		},
		Options: &opts,
	}
	rep := &Report{Status: suite.Run()}
	for _, id := range rs.order {
		rep.Scenarios = append(rep.Scenarios, *rs.scenarios[id])
	}
	return rep, nil
}

// ReadingTag parses a scenario tag @reading:ID or @reading:ID=ALT into the
// reading and the alternative the scenario shows (the catalog default when
// none is given); ok is false for other tags and for readings specs do not
// have.
func ReadingTag(specs *spec.Set, tag string) (id, alt string, ok bool) {
	rest, found := strings.CutPrefix(tag, "@reading:")
	if !found {
		return "", "", false
	}
	id, alt, _ = strings.Cut(rest, "=")
	r, known := specs.Reading(id)
	if !known {
		return "", "", false
	}
	if alt == "" {
		alt = r.Default
	}
	return id, alt, r.Has(alt)
}

// otherReading says why a scenario with the given tag is of another
// branch than the implementation takes, or "" when it applies.
func otherReading(specs *spec.Set, tag string, declared map[string]string) string {
	id, alt, ok := ReadingTag(specs, tag)
	if !ok {
		return ""
	}
	taken, set := declared[id]
	if !set {
		r, _ := specs.Reading(id)
		taken = r.Default
	}
	if taken == alt {
		return ""
	}
	return fmt.Sprintf("the scenario of reading %s %s; the implementation takes %s", id, alt, taken)
}
