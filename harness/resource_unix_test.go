//go:build unix

package harness

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/threespec/conformance/harness/harnesstest"
	"github.com/threespec/conformance/internal/allspecs"
	"github.com/threespec/conformance/reference"
	"github.com/threespec/conformance/testee"
)

// starved is an implementation whose starts after the first n requests
// fail for want of conform's own file descriptors.
type starved struct {
	testee.Implementation
	n, calls atomic.Int64
}

func (s *starved) Do(ctx context.Context, req testee.Request) (testee.Response, error) {
	if s.calls.Add(1) > s.n.Load() {
		return testee.Response{}, testee.AsResourceError("starting the testee", fmt.Errorf("pipe2: %w", syscall.EMFILE))
	}
	return s.Implementation.Do(ctx, req)
}

// conform's own resources running out stop the run as conform's error,
// exit status 2, at hello or on a vector: never a testee failure (issue
// 30).
func TestOwnResourcesAreConformsError(t *testing.T) {
	var vecs []harnesstest.Vector
	for i := range 5 {
		vecs = append(vecs, harnesstest.Vector{Name: fmt.Sprintf("v%d", i), Input: "x"})
	}
	suites := synthetic(t, vecs)
	for _, c := range []struct {
		name string
		ok   int64 // requests answered before the starts fail
	}{
		{"at hello", 0},
		{"on the third vector", 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			impl := &starved{Implementation: reference.New(allspecs.Set())}
			impl.n.Store(c.ok)
			rep := Run(context.Background(), Config{Specs: allspecs.Set(), Suites: suites, Impl: impl, Jobs: 1})
			if rep.ExitCode != ExitSetup || rep.Aborted != "" || !strings.Contains(rep.ConformError, "too many open files") {
				t.Fatalf("exit %d, aborted %q, conform error %q; want 2 and conform's error", rep.ExitCode, rep.Aborted, rep.ConformError)
			}
			if rep.Counts.TesteeFailures != 0 || rep.Counts.NotRun == 0 {
				t.Errorf("counts %+v", rep.Counts)
			}
			var b strings.Builder
			WriteText(&b, rep, TextOptions{})
			if out := b.String(); !strings.Contains(out, "CONFORM ERROR (not the testee's): ") || !strings.Contains(out, "\nERROR: ") || strings.Contains(out, "PASS") {
				t.Errorf("human report:\n%s", out)
			}
		})
	}
}
