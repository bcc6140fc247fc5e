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
// take first and every later request a budget that fits the testee, as a
// testee failure of kind Timeout when it takes longer. The flags give the
// floor: each plus perMiB for every started MiB of its input. Above it,
// the budget grows with what the run has measured of this testee: the
// slowest time per MiB of an input of RateMin bytes or more, times
// RateFactor, for every MiB of the input; at most MaxGrowth times the floor.
// An input that timed out counts with the time it was given: the testee
// needs at least that much a MiB.
// A testee started with `go run` compiles before it answers hello: first
// allows for that; a 32 MiB record takes a while to send, parse and answer:
// perMiB and the measured rate allow for that without making a hang on a
// small input slow to notice. The adapter's own Config.Timeout must be
// larger than any of these (AdapterTimeout).
func Timeouts(impl testee.Implementation, first, each, perMiB time.Duration) testee.Implementation {
	return &timeouts{impl: impl, first: first, each: each, perMiB: perMiB}
}

// The growth of a budget with the measured speed of the testee.
const (
	RateMin    = 256 << 10 // inputs from which the time per MiB is measured
	RateFactor = 4         // the budget allows this many times the slowest measured rate
	MaxGrowth  = 16        // and at most this many times the flags' budget
)

// AdapterTimeout is the Config.Timeout to give an adapter wrapped with
// Timeouts: more than any deadline the wrapper sets (inputs are at most
// vectorset.MaxExpanded bytes), so that the wrapper's always comes first.
func AdapterTimeout(first, each, perMiB time.Duration) time.Duration {
	return max(first, MaxGrowth*(each+perMiB*(vectorset.MaxExpanded>>20))) + 5*time.Second
}

type timeouts struct {
	impl                testee.Implementation
	first, each, perMiB time.Duration
	n                   atomic.Int64
	// rate is the slowest time per MiB (in ns) of an answered request of
	// RateMin bytes or more; 0 before one.
	rate atomic.Int64
}

// Budget is the time a request of size input bytes is given now (a later
// request may be given more, once the testee's speed is measured).
func (t *timeouts) Budget(size int64) time.Duration {
	mib := (size + 1<<20 - 1) >> 20
	floor := t.each + t.perMiB*time.Duration(mib)
	r := time.Duration(t.rate.Load())
	if r == 0 {
		return floor
	}
	grown := t.each + RateFactor*time.Duration(float64(r)*float64(size)/(1<<20))
	return min(max(floor, grown), MaxGrowth*floor)
}

// measure records the time per MiB of an answered request.
func (t *timeouts) measure(size int64, took time.Duration) {
	if size < RateMin {
		return
	}
	r := int64(float64(took) * (1 << 20) / float64(size))
	for {
		old := t.rate.Load()
		if r <= old || t.rate.CompareAndSwap(old, r) {
			return
		}
	}
}

func (t *timeouts) Do(ctx context.Context, req testee.Request) (testee.Response, error) {
	size := req.Size()
	d := t.Budget(size)
	if t.n.Add(1) == 1 {
		d = t.first
	}
	start := time.Now()
	deadline := start.Add(d)
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
		if t.n.Load() > 1 {
			f.Detail += timeoutHint(t.each, t.perMiB, size, time.Duration(t.rate.Load()))
			t.measure(size, d) // it needs more than d: a lower bound of its rate
		}
	}
	if err == nil {
		t.measure(size, time.Since(start))
	}
	return resp, err
}

func (t *timeouts) Close() error { return t.impl.Close() }

// timeoutHint says where a timed-out request's budget came from and which
// flag gives it more: --timeout for a small input, --timeout-per-mib for a
// large one.
func timeoutHint(each, perMiB time.Duration, size int64, rate time.Duration) string {
	mib := (size + 1<<20 - 1) >> 20
	h := fmt.Sprintf(" (--timeout %v", each)
	if mib > 0 {
		h += fmt.Sprintf(" + --timeout-per-mib %v x %d MiB", perMiB, mib)
	}
	if rate > 0 {
		h += fmt.Sprintf("; this testee took up to %v a MiB so far", rate.Round(time.Millisecond))
	}
	flag := "--timeout"
	if size >= 1<<20 {
		flag = "--timeout-per-mib"
	}
	return h + "): a larger " + flag + " gives it more"
}

// Kill is the wrapped adapter's (testee.Killer), or Close.
func (t *timeouts) Kill() {
	if k, ok := t.impl.(testee.Killer); ok {
		k.Kill()
		return
	}
	t.impl.Close()
}
