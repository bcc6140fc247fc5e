package harness

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/threespec/conformance/testee"
	"github.com/threespec/conformance/vectorset"
)

// Timeouts wraps an external adapter so that the first request (hello) may
// take first and every later request each plus perMiB for every started MiB
// of its input, as a testee failure of kind Timeout when it takes longer. A
// testee started with `go run` compiles before it answers hello: first
// allows for that; a 32 MiB record takes a while to send, parse and answer:
// perMiB allows for that without making a hang on a small input slow to
// notice. The adapter's own Config.Timeout must be larger than any of these
// (AdapterTimeout).
func Timeouts(impl testee.Implementation, first, each, perMiB time.Duration) testee.Implementation {
	return &timeouts{impl: impl, first: first, each: each, perMiB: perMiB}
}

// AdapterTimeout is the Config.Timeout to give an adapter wrapped with
// Timeouts: more than any deadline the wrapper sets (inputs are at most
// vectorset.MaxExpanded bytes), so that the wrapper's always comes first.
func AdapterTimeout(first, each, perMiB time.Duration) time.Duration {
	return max(first, each+perMiB*(vectorset.MaxExpanded>>20)) + 5*time.Second
}

type timeouts struct {
	impl                testee.Implementation
	first, each, perMiB time.Duration
	n                   atomic.Int64
}

func (t *timeouts) Do(ctx context.Context, req testee.Request) (testee.Response, error) {
	d := t.each + t.perMiB*time.Duration((req.Size()+1<<20-1)>>20)
	if t.n.Add(1) == 1 {
		d = t.first
	}
	deadline := time.Now().Add(d)
	rctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	resp, err := t.impl.Do(rctx, req)
	var f *testee.Failure
	// The adapter may notice the deadline before the context's own timer
	// has fired: compare with the clock, not only rctx.Err().
	ownDeadline := errors.Is(rctx.Err(), context.DeadlineExceeded) || !time.Now().Before(deadline)
	if err != nil && errors.As(err, &f) && f.Kind == testee.Canceled && ctx.Err() == nil && ownDeadline {
		// The deadline was the wrapper's, not the caller's: a timeout.
		f.Kind, f.Err = testee.Timeout, nil
		f.Detail = fmt.Sprintf("no answer within %v", d)
	}
	return resp, err
}

func (t *timeouts) Close() error { return t.impl.Close() }

// Kill is the wrapped adapter's (testee.Killer), or Close.
func (t *timeouts) Kill() {
	if k, ok := t.impl.(testee.Killer); ok {
		k.Kill()
		return
	}
	t.impl.Close()
}
