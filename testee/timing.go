package testee

import (
	"context"
	"time"
)

// Timing is how one request's time was spent in an external adapter, for
// the time split of the reports. A caller that wants it passes a context
// made by WithTiming; the adapter fills it in before Do returns.
type Timing struct {
	// Send is the time spent writing the request to the testee (persistent
	// mode; the testee reads it as it is written, so a large input's
	// parsing by the testee overlaps it). Zero in one-shot mode.
	Send time.Duration
	// Answer is the time from the request written to the answer read and
	// parsed (persistent mode), or the whole run of the testee process
	// (one-shot mode, whose input is written while it runs).
	Answer time.Duration
}

type timingKey struct{}

// WithTiming returns a context that makes the adapters record a request's
// Timing in t.
func WithTiming(ctx context.Context, t *Timing) context.Context {
	return context.WithValue(ctx, timingKey{}, t)
}

func timingFrom(ctx context.Context) *Timing {
	t, _ := ctx.Value(timingKey{}).(*Timing)
	return t
}
