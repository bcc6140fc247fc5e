package harness

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/threespec/conformance/testee"
)

// Timeouts wraps an external adapter so that the first request (hello) may
// take first and every later request each, as a testee failure of kind
// Timeout when it takes longer. The adapter's own Config.Timeout must be at
// least the larger of the two (AdapterTimeout). A testee started with `go
// run` compiles before it answers hello: first allows for that.
func Timeouts(impl testee.Implementation, first, each time.Duration) testee.Implementation {
	return &timeouts{impl: impl, first: first, each: each}
}

// AdapterTimeout is the Config.Timeout to give an adapter wrapped with
// Timeouts(first, each): a little more than both, so that the wrapper's
// deadline always comes first.
func AdapterTimeout(first, each time.Duration) time.Duration {
	return max(first, each) + 5*time.Second
}

type timeouts struct {
	impl        testee.Implementation
	first, each time.Duration
	n           atomic.Int64
}

func (t *timeouts) Do(ctx context.Context, req testee.Request) (testee.Response, error) {
	d := t.each
	if t.n.Add(1) == 1 {
		d = t.first
	}
	rctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	resp, err := t.impl.Do(rctx, req)
	var f *testee.Failure
	if err != nil && errors.As(err, &f) && f.Kind == testee.Canceled && ctx.Err() == nil && errors.Is(rctx.Err(), context.DeadlineExceeded) {
		// The deadline was the wrapper's, not the caller's: a timeout.
		f.Kind, f.Err = testee.Timeout, nil
		f.Detail = fmt.Sprintf("no answer within %v", d)
	}
	return resp, err
}

func (t *timeouts) Close() error { return t.impl.Close() }
