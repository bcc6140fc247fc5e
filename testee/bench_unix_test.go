//go:build unix

package testee

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"
)

func benchPersistent(b *testing.B) *Persistent {
	cfg := testeeConfig("serve")
	cfg.Timeout = 10 * time.Second
	a, err := NewPersistent(cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { a.Close() })
	if _, err := Handshake(context.Background(), a); err != nil {
		b.Fatal(err)
	}
	return a
}

// BenchmarkPersistentEcho measures requests per second, one at a time,
// against a fast testee (Serve over an echo implementation, which is what
// `conform serve` is over the reference). The bar is 5,000 requests/s.
func BenchmarkPersistentEcho(b *testing.B) {
	a := benchPersistent(b)
	req := benchRequest()
	ctx := context.Background()
	b.ReportAllocs()
	start := time.Now()
	var n int
	for b.Loop() {
		req.ID++
		resp, err := a.Do(ctx, req)
		if err != nil || resp.Outcome != Unsupported {
			b.Fatalf("%+v %v", resp, err)
		}
		n++
	}
	b.ReportMetric(float64(n)/time.Since(start).Seconds(), "req/s")
}

// BenchmarkPersistentEchoCancelable is BenchmarkPersistentEcho with a
// cancelable context, as conform passes one (it arms a watch per request).
func BenchmarkPersistentEchoCancelable(b *testing.B) {
	a := benchPersistent(b)
	req := Request{Op: "test.echo", Args: json.RawMessage(`{"mark":"none"}`), Input: benchRequest().Input}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	b.ReportAllocs()
	start := time.Now()
	var n int
	for b.Loop() {
		req.ID++
		if _, err := a.Do(ctx, req); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric(float64(n)/time.Since(start).Seconds(), "req/s")
}

// BenchmarkPersistentEchoParallel sends from several goroutines at once;
// the adapter serializes them.
func BenchmarkPersistentEchoParallel(b *testing.B) {
	a := benchPersistent(b)
	var id atomic.Int64
	start := time.Now()
	var n atomic.Int64
	b.RunParallel(func(pb *testing.PB) {
		req := benchRequest()
		for pb.Next() {
			req.ID = id.Add(1)
			if _, err := a.Do(context.Background(), req); err != nil {
				b.Fatal(err)
			}
			n.Add(1)
		}
	})
	b.ReportMetric(float64(n.Load())/time.Since(start).Seconds(), "req/s")
}

// BenchmarkOneShot measures one-shot runs per second (a process each).
func BenchmarkOneShot(b *testing.B) {
	cfg := testeeConfig("oneshot")
	o, err := NewOneShot(cfg)
	if err != nil {
		b.Fatal(err)
	}
	defer o.Close()
	start := time.Now()
	var n int
	for b.Loop() {
		if _, err := o.Do(context.Background(), Request{ID: 1, Op: "test.unsupported"}); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric(float64(n)/time.Since(start).Seconds(), "runs/s")
}
