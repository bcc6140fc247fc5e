package harness

import (
	"context"
	"errors"
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
