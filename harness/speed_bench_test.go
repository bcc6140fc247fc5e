package harness

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/threespec/conformance/impl/lace"
	"github.com/threespec/conformance/internal/allspecs"
	"github.com/threespec/conformance/reference"
	"github.com/threespec/conformance/testee"
	"github.com/threespec/conformance/vectorset"
)

// The speed benchmarks of issue 14 (docs/MEASUREMENTS.md):
// conform should cost little beyond the testee's own work.

// committedVector returns a committed vector and its suite.
func committedVector(b *testing.B, suite, id string) (*Suite, *vectorset.Vector) {
	b.Helper()
	suites, err := LoadSuites(allSuites, "../vectors", "../manifest", []string{suite})
	if err != nil {
		b.Fatal(err)
	}
	for i := range suites[0].Index.Vectors {
		if v := &suites[0].Index.Vectors[i]; v.ID == id {
			return suites[0], v
		}
	}
	b.Fatalf("no vector %s", id)
	return nil, nil
}

// BenchmarkLargeRecord sends the committed 32 MiB Seal
// (lace/positive/seal-max-size, 33,620,814 bytes) through the protocol to
// conform serve (this binary's serve mode) by path and by base64, and
// validates it in process (lace.Parse, and the reference's whole
// lace.record answer), all in one run so that the ratios compare like
// with like. The targets: by path at most 3x in process, by base64 at most
// 10x. The input file is written once, as a run writes it.
func BenchmarkLargeRecord(b *testing.B) {
	s, v := committedVector(b, "lace", "lace/positive/seal-max-size")
	input, err := v.Input(s.VectorsDir, s.Name)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.Run("lace.Parse", func(b *testing.B) {
		b.SetBytes(int64(len(input)))
		for b.Loop() {
			if _, err := lace.Parse(input, lace.Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("in-process", func(b *testing.B) {
		impl := reference.New(allspecs.Set())
		b.SetBytes(int64(len(input)))
		for b.Loop() {
			if resp, err := impl.Do(ctx, testee.Request{Op: v.Op, Args: v.Args, Input: input}); err != nil || resp.Outcome != testee.Accepted {
				b.Fatalf("%+v %v", resp, err)
			}
		}
	})
	external := func(b *testing.B, byPath bool) {
		a, err := testee.NewPersistent(testee.Config{Command: self("serve"), Timeout: time.Minute})
		if err != nil {
			b.Fatal(err)
		}
		defer a.Close()
		if _, err := testee.Handshake(ctx, a); err != nil {
			b.Fatal(err)
		}
		req := testee.Request{Op: v.Op, Args: v.Args, Input: input}
		if byPath {
			files := NewInputFiles()
			defer files.Remove()
			req.Input = nil
			if req.InputPath, req.InputSize, err = files.Path(s, v); err != nil {
				b.Fatal(err)
			}
		}
		b.SetBytes(int64(len(input)))
		for b.Loop() {
			req.ID++
			resp, err := a.Do(ctx, req)
			if err != nil || resp.Outcome != testee.Accepted {
				b.Fatalf("%+v %v", resp, err)
			}
		}
	}
	b.Run("by-path", func(b *testing.B) { external(b, true) })
	b.Run("by-base64", func(b *testing.B) { external(b, false) })
}

// BenchmarkCommittedSet runs the whole committed set (all three suites)
// in persistent mode against conform serve by path, as `conform run`
// does: loading and verifying the suites, the hello, every vector, the
// report; with as many testee processes as CPUs (conform run's default)
// and with one. The target is 2,500 vectors/s on 2 cores, manifest
// verification included. The in-process run (the reference called
// directly, no protocol, one job) is the floor: what the vectors cost the
// reference itself.
func BenchmarkCommittedSet(b *testing.B) {
	run := func(b *testing.B, external bool, jobs int) {
		var vectors int
		start := time.Now()
		for b.Loop() {
			suites, err := LoadSuites(allSuites, "../vectors", "../manifest", nil)
			if err != nil {
				b.Fatal(err)
			}
			cfg := Config{Specs: allspecs.Set(), Suites: suites, Impl: reference.New(allspecs.Set()), Jobs: jobs}
			if external {
				tt, err := StartTestee(self("serve"), TesteeOptions{Jobs: jobs, Timeout: 10 * time.Second, TimeoutPerMiB: time.Second, HelloTimeout: 10 * time.Second})
				if err != nil {
					b.Fatal(err)
				}
				cfg.Impl, cfg.InputPaths, cfg.Testee.Mode = tt.Impl, NewInputFiles(), "persistent"
			}
			rep := Run(context.Background(), cfg)
			cfg.Impl.Close()
			if cfg.InputPaths != nil {
				cfg.InputPaths.Remove()
			}
			if rep.ExitCode != ExitPass || external && rep.Testee.Inputs != "path" {
				b.Fatalf("exit %d, inputs by %s, counts %+v", rep.ExitCode, rep.Testee.Inputs, rep.Counts)
			}
			vectors += rep.Counts.Selected
		}
		b.ReportMetric(float64(vectors)/time.Since(start).Seconds(), "vectors/s")
	}
	b.Run("persistent-by-path", func(b *testing.B) { run(b, true, runtime.NumCPU()) })
	b.Run("persistent-by-path-j1", func(b *testing.B) { run(b, true, 1) })
	b.Run("in-process", func(b *testing.B) { run(b, false, 1) })
}

// BenchmarkOneShotVector is the cost of one vector in one-shot mode
// against conform serve (this binary, which links what conform serve links
// and no more): a process start, the request, the answer. Lower is better;
// the target for the conform binary is at least 200 vectors/s at -j 2.
func BenchmarkOneShotVector(b *testing.B) {
	s, v := committedVector(b, "hiverelay", "hiverelay/positive/read-cell-cap-v1")
	input, err := v.Input(s.VectorsDir, s.Name)
	if err != nil {
		b.Fatal(err)
	}
	a, err := testee.NewOneShot(testee.Config{Command: self("serve"), Timeout: 10 * time.Second})
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	for b.Loop() {
		resp, err := a.Do(context.Background(), testee.Request{Op: v.Op, Args: v.Args, Input: input})
		if err != nil || resp.Outcome != testee.Accepted {
			b.Fatalf("%+v %v", resp, err)
		}
	}
}

// BenchmarkReferenceLargeVectors answers every committed vector whose
// input is 1 MiB or more with the reference in process (inputs expanded
// once, before the timer): the reference's own cost for the inputs that
// dominate a run of the whole set, its result's JSON encoding included.
func BenchmarkReferenceLargeVectors(b *testing.B) {
	suites, err := LoadSuites(allSuites, "../vectors", "../manifest", nil)
	if err != nil {
		b.Fatal(err)
	}
	var reqs []testee.Request
	var size int64
	for _, s := range suites {
		for i := range s.Index.Vectors {
			v := &s.Index.Vectors[i]
			if v.Size < 1<<20 {
				continue
			}
			input, err := v.Input(s.VectorsDir, s.Name)
			if err != nil {
				b.Fatal(err)
			}
			reqs = append(reqs, testee.Request{Op: v.Op, Args: v.Args, Input: input})
			size += int64(len(input))
		}
	}
	impl, ctx := reference.New(allspecs.Set()), context.Background()
	b.SetBytes(size)
	for b.Loop() {
		for _, req := range reqs {
			if _, err := impl.Do(ctx, req); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(reqs)), "vectors")
}

// BenchmarkCheckCommitted is the cost, after a run by path, of looking at
// every committed file the testee was given (checkCommitted: a Lstat
// each), for the whole committed set.
func BenchmarkCheckCommitted(b *testing.B) {
	suites, err := LoadSuites(allSuites, "../vectors", "../manifest", nil)
	if err != nil {
		b.Fatal(err)
	}
	var todo []*item
	for _, s := range suites {
		for i := range s.Index.Vectors {
			v := &s.Index.Vectors[i]
			todo = append(todo, &item{suite: s, v: v, res: &VectorResult{}, byPath: v.Recipe == nil})
		}
	}
	for b.Loop() {
		checkCommitted(todo)
	}
	for _, it := range todo {
		if it.res.Failure != nil {
			b.Fatalf("%s: %s", it.v.ID, it.res.Reason)
		}
	}
	b.ReportMetric(float64(len(todo)), "vectors")
}
