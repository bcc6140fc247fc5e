package harness

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/threespec/conformance/testee"
)

// deadlineImpl records the time each request is given, and with op "block"
// waits for its context, failing as the adapters do (Canceled).
type deadlineImpl struct{ given []time.Duration }

func (d *deadlineImpl) Do(ctx context.Context, req testee.Request) (testee.Response, error) {
	dl, _ := ctx.Deadline()
	d.given = append(d.given, time.Until(dl))
	if req.Op == "block" {
		<-ctx.Done()
		return testee.Response{}, &testee.Failure{Kind: testee.Canceled, Detail: "the caller's context ended", Err: ctx.Err()}
	}
	return testee.Response{Outcome: testee.Unsupported}, nil
}

func (d *deadlineImpl) Close() error { return nil }

func TestTimeouts(t *testing.T) {
	d := &deadlineImpl{}
	impl := Timeouts(d, time.Hour, time.Minute, time.Second)
	ctx := context.Background()
	for _, n := range []int{0, 0, 1, 1 << 20, 1<<20 + 1, 5 << 20} {
		impl.Do(ctx, testee.Request{Op: "x", Input: make([]byte, n)})
	}
	want := []time.Duration{time.Hour, time.Minute, time.Minute + time.Second, time.Minute + time.Second, time.Minute + 2*time.Second, time.Minute + 5*time.Second}
	for i, w := range want {
		if g := d.given[i]; g > w || g < w-time.Second/2 {
			t.Errorf("request %d: given %v, want %v", i, g, w)
		}
	}
	if a := AdapterTimeout(time.Hour, time.Minute, time.Second); a <= time.Hour || a < time.Minute+64*time.Second {
		t.Errorf("AdapterTimeout %v is not above every deadline", a)
	}

	// The wrapper's deadline is a Timeout; the caller's is still Canceled.
	impl = Timeouts(&deadlineImpl{}, 20*time.Millisecond, 20*time.Millisecond, 0)
	_, err := impl.Do(ctx, testee.Request{Op: "block"})
	var f *testee.Failure
	if !errors.As(err, &f) || f.Kind != testee.Timeout || f.Detail != "no answer within 20ms" {
		t.Errorf("own deadline: %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	time.AfterFunc(10*time.Millisecond, cancel)
	_, err = Timeouts(&deadlineImpl{}, time.Hour, time.Hour, 0).Do(cctx, testee.Request{Op: "block"})
	if !errors.As(err, &f) || f.Kind != testee.Canceled {
		t.Errorf("caller's cancel: %v", err)
	}
}

// The budget grows with the testee's measured speed: RateFactor times the
// slowest time per MiB of an answered input of RateMin bytes or more, the
// flags' budget as the floor and MaxGrowth times it as the ceiling; small
// inputs are not measured. A timeout names the flag that gives more.
func TestTimeoutsGrowWithTheTestee(t *testing.T) {
	tm := Timeouts(&deadlineImpl{}, time.Hour, time.Second, 100*time.Millisecond).(*timeouts)
	const mib = 1 << 20
	if got := tm.Budget(32 * mib); got != time.Second+32*100*time.Millisecond {
		t.Errorf("before any measure: %v", got)
	}
	tm.measure(RateMin-1, time.Hour) // too small to measure
	if tm.rate.Load() != 0 {
		t.Error("a small input was measured")
	}
	tm.measure(2*mib, 400*time.Millisecond) // 200 ms a MiB
	tm.measure(mib, 100*time.Millisecond)   // faster: the slowest stays
	if got, want := tm.Budget(32*mib), time.Second+RateFactor*32*200*time.Millisecond; got != want {
		t.Errorf("after 200 ms/MiB: %v, want %v", got, want)
	}
	if got, floor := tm.Budget(1), time.Second+100*time.Millisecond; got != floor {
		t.Errorf("a small input keeps the floor: %v, want %v", got, floor)
	}
	tm.measure(mib, time.Hour)
	if got, ceil := tm.Budget(32*mib), MaxGrowth*(time.Second+32*100*time.Millisecond); got != ceil {
		t.Errorf("capped: %v, want %v", got, ceil)
	}
	if a := AdapterTimeout(time.Hour, time.Second, 100*time.Millisecond); a <= MaxGrowth*(time.Second+64*100*time.Millisecond) {
		t.Errorf("AdapterTimeout %v is below the largest grown budget", a)
	}
	for _, c := range []struct {
		size int64
		want string
	}{{10, "a larger --timeout gives"}, {3 * mib, "--timeout-per-mib 100ms x 3 MiB; this testee took up to 1.5s a MiB so far): a larger --timeout-per-mib gives"}} {
		if h := timeoutHint(time.Second, 100*time.Millisecond, c.size, 1500*time.Millisecond); !strings.Contains(h, c.want) {
			t.Errorf("hint for %d bytes: %q, want %q in it", c.size, h, c.want)
		}
	}
}

// A timeout is a measure too: the testee needs more than the time it was
// given, so an input of RateMin bytes or more that timed out raises the
// rate to at least that time per MiB.
func TestTimeoutIsALowerBound(t *testing.T) {
	tm := Timeouts(&deadlineImpl{}, time.Hour, 20*time.Millisecond, 0).(*timeouts)
	ctx := context.Background()
	tm.Do(ctx, testee.Request{Op: "hello"})
	if _, err := tm.Do(ctx, testee.Request{Op: "block", Input: make([]byte, 1<<20)}); err == nil {
		t.Fatal("the blocked request did not time out")
	}
	if r := time.Duration(tm.rate.Load()); r < 20*time.Millisecond {
		t.Errorf("rate after a 20ms timeout of 1 MiB: %v", r)
	}
	if b := tm.Budget(1 << 20); b < 20*time.Millisecond+RateFactor*20*time.Millisecond {
		t.Errorf("the next MiB is given %v", b)
	}
}
