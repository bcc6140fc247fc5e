package harness

import (
	"context"
	"encoding/base64"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/threespec/conformance/harness/harnesstest"
	"github.com/threespec/conformance/internal/allspecs"
	"github.com/threespec/conformance/reference"
	"github.com/threespec/conformance/vectorset"
)

// benchSuite writes n small hiverelay.decode vectors (the committed
// ReadCellCapV1 positive, re-encoded byte for byte) as a synthetic suite.
func benchSuite(b *testing.B, n int) []*Suite {
	b.Helper()
	rcap, err := os.ReadFile("../vectors/positive/hiverelay/read-cell-cap-v1.bin")
	if err != nil {
		b.Fatal(err)
	}
	result := fmt.Sprintf(`{"reencoded":%q}`, base64.StdEncoding.EncodeToString(rcap))
	vecs := make([]harnesstest.Vector, n)
	for i := range vecs {
		vecs[i] = harnesstest.Vector{Name: fmt.Sprintf("v%06d", i), Op: "hiverelay.decode", Args: `{"schema":"ReadCellCapV1"}`,
			Input: string(rcap), Result: result, Expect: vectorset.Accept}
	}
	return synthetic(b, vecs)
}

// BenchmarkRunPersistent measures a whole run, in vectors per second,
// against conform serve (this binary's serve mode) in persistent mode. The
// bar is 5,000 vectors/s.
func BenchmarkRunPersistent(b *testing.B) { benchRun(b, false, 2000) }

// BenchmarkRunOneShot is BenchmarkRunPersistent in one-shot mode, with as
// many processes at once as there are CPUs.
func BenchmarkRunOneShot(b *testing.B) { benchRun(b, true, 100) }

func benchRun(b *testing.B, oneShot bool, n int) {
	suites := benchSuite(b, n)
	jobs := 1
	if oneShot {
		jobs = 4
	}
	var vectors int
	start := time.Now()
	for b.Loop() {
		tt, err := StartTestee(self("serve"), TesteeOptions{OneShot: oneShot, Timeout: 10 * time.Second, HelloTimeout: 10 * time.Second})
		if err != nil {
			b.Fatal(err)
		}
		rep := Run(context.Background(), Config{Specs: allspecs.Set(), Suites: suites, Impl: tt.Impl, Jobs: jobs})
		tt.Impl.Close()
		if rep.ExitCode != ExitPass || rep.Counts.Passed != n {
			b.Fatalf("exit %d, counts %+v", rep.ExitCode, rep.Counts)
		}
		vectors += n
	}
	b.ReportMetric(float64(vectors)/time.Since(start).Seconds(), "vectors/s")
}

// BenchmarkRunInProcess is the harness's own cost per vector, against the
// in-process reference.
func BenchmarkRunInProcess(b *testing.B) {
	const n = 2000
	suites := benchSuite(b, n)
	var vectors int
	start := time.Now()
	for b.Loop() {
		rep := Run(context.Background(), Config{Specs: allspecs.Set(), Suites: suites, Impl: reference.New(allspecs.Set())})
		if rep.Counts.Passed != n {
			b.Fatalf("counts %+v", rep.Counts)
		}
		vectors += n
	}
	b.ReportMetric(float64(vectors)/time.Since(start).Seconds(), "vectors/s")
}
