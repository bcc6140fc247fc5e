package reference_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/threespec/conformance/impl/lace"
	"github.com/threespec/conformance/impl/lace/lacespec"
	"github.com/threespec/conformance/impl/libtracer/tracerspec"
	"github.com/threespec/conformance/impl/spec"
	"github.com/threespec/conformance/internal/allspecs"
	"github.com/threespec/conformance/reference"
	"github.com/threespec/conformance/testee"
)

// bomb is a record stream, root first, of levels records: each but the last
// links the next twice (two uses per level), so that the logical tree has
// 2^(levels-1) leaves. leaf is the last record; link makes the two link
// fields of a record whose child is h and whose child has n logical bytes.
func bomb(t testing.TB, levels int, leaf lace.Spec, kind string, link func(h string, n uint64) [2]lace.Field) []byte {
	t.Helper()
	out, rec, err := lace.Construct(leaf)
	if err != nil {
		t.Fatal(err)
	}
	n := uint64(len(leaf.Data))
	stream := [][]byte{out}
	for range levels - 1 {
		l := link(rec.Hash.String(), n)
		out, rec, err = lace.Construct(lace.Spec{Fields: []lace.Field{{Name: "Kind", Value: kind}, l[0], l[1]}})
		if err != nil {
			t.Fatal(err)
		}
		stream = append(stream, out)
		n *= 2
	}
	var b []byte
	for i := len(stream) - 1; i >= 0; i-- {
		b = append(b, stream[i]...)
	}
	return b
}

// dirBomb is a directory of levels records each listing the next as its
// children a and b: about 2^levels logical entries.
func dirBomb(t testing.TB, levels int) []byte {
	return bomb(t, levels, lace.Spec{Fields: []lace.Field{{Name: "Kind", Value: "directory"}}}, "directory", func(h string, _ uint64) [2]lace.Field {
		return [2]lace.Field{{Name: "Child+Link", Value: "a " + h}, {Name: "Child+Link", Value: "b " + h}}
	})
}

// chunkBomb is a file of levels records each made of the next twice:
// 2^(levels-1) bytes.
func chunkBomb(t testing.TB, levels int) []byte {
	return bomb(t, levels, lace.Spec{Data: []byte("x")}, "chunks", func(h string, n uint64) [2]lace.Field {
		return [2]lace.Field{
			{Name: "Chunk+Link", Value: fmt.Sprintf("0..%d %s", n, h)},
			{Name: "Chunk+Link", Value: fmt.Sprintf("%d..%d %s", n, 2*n, h)},
		}
	})
}

// measure answers one request and returns the response, the time it took
// and the bytes allocated meanwhile (an upper bound of the memory it held).
func measure(t *testing.T, r *reference.Reference, op, args string, in []byte) (testee.Response, time.Duration, uint64) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	resp, err := r.Do(context.Background(), testee.Request{ID: 1, Op: op, Args: json.RawMessage(args), Input: in})
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	return resp, took, after.TotalAlloc - before.TotalAlloc
}

// smallCaps keep the bomb tests fast; the default caps are measured by
// BenchmarkBombsAtDefaultCaps.
var smallCaps = spec.Caps{
	lacespec.LimitMaxDepth:          16,
	lacespec.LimitMaxExpansion:      1 << 12,
	lacespec.LimitMaxAssembledBytes: 1 << 16,
	lacespec.LimitMaxListingBytes:   1 << 20,
	tracerspec.LimitMaxTLVBytes:     1 << 10,
	tracerspec.LimitWorkBudget:      64,
}

// The fan-out and chunk bombs of issue 17 (62 records, two uses per level:
// about 2^61 logical entries or bytes) asked at the caps are answered
// within a second and 32 MB of allocation, and asked above them are
// unsupported, naming the bound and its cap, before any work.
func TestBombsBoundedByCaps(t *testing.T) {
	const maxTime, maxAlloc = time.Second, 32 << 20
	dir, file := dirBomb(t, 62), chunkBomb(t, 62)
	// Bombs of 14 levels stay within the depth cap and break the others.
	dir14, file14 := dirBomb(t, 14), chunkBomb(t, 14)
	tight := maps.Clone(smallCaps)
	tight[lacespec.LimitMaxListingBytes] = 1 << 16
	for _, c := range []struct {
		name, op, args string
		in             []byte
		want           testee.Outcome
		rule, detail   string    // rule of a rejection; text the detail holds
		caps           spec.Caps // nil: smallCaps
	}{
		{"directory at the caps", lacespec.OpDirectory, `{"mark":"none","max_expansion":4096,"max_depth":16}`, dir, testee.Rejected, "LACE-DIR-29", "beyond the bound 16", nil},
		{"directory at the caps, expansion", lacespec.OpDirectory, `{"mark":"none","max_expansion":4096,"max_depth":16}`, dir14, testee.Rejected, "LACE-DIR-30", "more than 4096 link uses", nil},
		{"directory at the caps, listing", lacespec.OpDirectory, `{"mark":"none","max_expansion":4096,"max_depth":16}`, dir14, testee.Unsupported, "", "larger than 65536 bytes of paths and targets (hello limits lace.max_listing_bytes)", tight},
		{"directory, defaults", lacespec.OpDirectory, `{"mark":"none"}`, dir, testee.Rejected, "LACE-DIR-29", "beyond the bound 16", nil},
		{"directory above the expansion cap", lacespec.OpDirectory, `{"mark":"none","max_expansion":4611686018427387904,"max_depth":16}`, dir, testee.Unsupported, "", "max_expansion 4611686018427387904 is above this testee's cap 4096 (hello limits lace.max_expansion)", nil},
		{"directory above the depth cap", lacespec.OpDirectory, `{"mark":"none","max_expansion":4096,"max_depth":100}`, dir, testee.Unsupported, "", "max_depth 100 is above this testee's cap 16 (hello limits lace.max_depth)", nil},
		{"chunks at the caps", lacespec.OpChunks, `{"mark":"none","max_expansion":4096,"max_bytes":65536,"max_depth":16}`, file, testee.Rejected, "LACE-DIR-29", "beyond the bound 16", nil},
		{"chunks at the caps, expansion", lacespec.OpChunks, `{"mark":"none","max_expansion":4096,"max_bytes":65536,"max_depth":16}`, file14, testee.Rejected, "LACE-DIR-30", "more than 4096 link uses", nil},
		{"chunks at the caps, bytes", lacespec.OpChunks, `{"mark":"none","max_expansion":4096,"max_bytes":2047,"max_depth":16}`, chunkBomb(t, 12), testee.Rejected, "LACE-DIR-30", "assembles 2048 bytes, beyond the bound 2047", nil},
		{"chunks, defaults", lacespec.OpChunks, `{"mark":"none"}`, file, testee.Rejected, "LACE-DIR-29", "beyond the bound 16", nil},
		{"chunks above the byte cap", lacespec.OpChunks, `{"mark":"none","max_expansion":4096,"max_bytes":4611686018427387904}`, file, testee.Unsupported, "", "max_bytes 4611686018427387904 is above this testee's cap 65536 (hello limits lace.max_assembled_bytes)", nil},
		{"chunks above the expansion cap", lacespec.OpChunks, `{"mark":"none","max_expansion":4611686018427387904,"max_bytes":65536}`, file, testee.Unsupported, "", "max_expansion 4611686018427387904 is above this testee's cap 4096", nil},
		{"libtracer above the size cap", tracerspec.OpDecode, `{"transport":"stream","max_tlv_bytes":4611686018427387904}`, nil, testee.Unsupported, "", "max_tlv_bytes 4611686018427387904 is above this testee's cap 1024 (hello limits libtracer.max_tlv_bytes)", nil},
		{"libtracer above the budget cap", tracerspec.OpDecode, `{"transport":"datagram","work_budget":65}`, nil, testee.Unsupported, "", "work_budget 65 is above this testee's cap 64 (hello limits libtracer.work_budget)", nil},
		{"libtracer at the caps", tracerspec.OpDecode, `{"transport":"datagram","work_budget":64,"max_tlv_bytes":1024}`, nil, testee.Rejected, "LT-TRUNC-08", "empty datagram", nil},
		{"bound below 1", lacespec.OpChunks, `{"max_bytes":0}`, file, testee.Unsupported, "", "max_bytes 0: bounds below 1", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			caps := smallCaps
			if c.caps != nil {
				caps = c.caps
			}
			resp, took, alloc := measure(t, reference.NewWithCaps(allspecs.Set(), caps), c.op, c.args, c.in)
			if resp.Outcome != c.want || resp.Rule != c.rule || !strings.Contains(resp.Detail, c.detail) {
				t.Errorf("got %v %s %q, want %v %s %q", resp.Outcome, resp.Rule, resp.Detail, c.want, c.rule, c.detail)
			}
			if took > maxTime || alloc > maxAlloc {
				t.Errorf("answered in %v with %d bytes allocated, want within %v and %d", took, alloc, maxTime, maxAlloc)
			}
		})
	}
}

// hello advertises the caps, and the default caps are those of New.
func TestHelloAdvertisesCaps(t *testing.T) {
	for _, c := range []spec.Caps{reference.DefaultCaps(allspecs.Set()), smallCaps} {
		lim := reference.NewWithCaps(allspecs.Set(), c).Hello()["limits"].(map[string]any)
		for name, v := range map[string]int64{
			"lace.max_depth":           c[lacespec.LimitMaxDepth],
			"lace.max_expansion":       c[lacespec.LimitMaxExpansion],
			"lace.max_assembled_bytes": c[lacespec.LimitMaxAssembledBytes],
			"lace.max_listing_bytes":   c[lacespec.LimitMaxListingBytes],
			"libtracer.max_tlv_bytes":  c[tracerspec.LimitMaxTLVBytes],
			"libtracer.work_budget":    c[tracerspec.LimitWorkBudget],
		} {
			if lim[name] != v {
				t.Errorf("hello limits %s = %v, want %d", name, lim[name], v)
			}
		}
	}
	if !reflect.DeepEqual(reference.New(allspecs.Set()).Hello(), reference.NewWithCaps(allspecs.Set(), reference.DefaultCaps(allspecs.Set())).Hello()) {
		t.Error("New does not take the default caps")
	}
}

// BenchmarkBombsAtDefaultCaps measures the bombs of TestBombsBoundedByCaps
// at the default caps (docs/PROTOCOL.md gives the figures).
func BenchmarkBombsAtDefaultCaps(b *testing.B) {
	dir, file := dirBomb(b, 62), chunkBomb(b, 62)
	r := reference.New(allspecs.Set())
	for _, c := range []struct {
		name, op, args string
		in             []byte
	}{
		{"directory", lacespec.OpDirectory, `{"mark":"none","max_expansion":1048576,"max_depth":64}`, dir},
		{"chunks", lacespec.OpChunks, `{"mark":"none","max_expansion":1048576,"max_bytes":1073741824}`, file},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				resp, err := r.Do(context.Background(), testee.Request{ID: 1, Op: c.op, Args: json.RawMessage(c.args), Input: c.in})
				if err != nil || resp.Outcome == testee.Accepted {
					b.Fatalf("%+v %v", resp, err)
				}
			}
		})
	}
}

// FuzzLaceBounds sends lace.chunks and lace.directory requests with
// fuzzed streams and caller bounds to a reference with small caps: a bound
// above its cap or below 1 is unsupported and named, whatever the input;
// within the caps the answer is never unsupported but for a listing over
// its cap; and every request is answered. Run it with -fuzzminimizetime
// 200x: minimizing each new stream input for the default 60 s leaves a
// few-minute run at a few dozen executions.
func FuzzLaceBounds(f *testing.F) {
	for _, in := range [][]byte{dirBomb(f, 14), chunkBomb(f, 14), dirBomb(f, 3), chunkBomb(f, 3)} {
		f.Add(in, false, int64(16), int64(4096), int64(65536))
		f.Add(in, true, int64(16), int64(4096), int64(65536))
		f.Add(in, true, int64(100), int64(1)<<62, int64(1)<<62)
		f.Add(in, false, int64(3), int64(5), int64(0))
	}
	r := reference.NewWithCaps(allspecs.Set(), smallCaps)
	f.Fuzz(func(t *testing.T, in []byte, dir bool, depth, expansion, bytes int64) {
		op := lacespec.OpChunks
		if dir {
			op = lacespec.OpDirectory
		}
		args, _ := json.Marshal(map[string]any{"mark": "none", "max_depth": depth, "max_expansion": expansion, "max_bytes": bytes})
		resp, err := r.Do(context.Background(), testee.Request{ID: 1, Op: op, Args: args, Input: in})
		if err != nil {
			t.Fatal(err)
		}
		var over string
		for _, b := range []struct {
			name   string
			v, cap int64
		}{
			{"max_depth", depth, smallCaps[lacespec.LimitMaxDepth]},
			{"max_expansion", expansion, smallCaps[lacespec.LimitMaxExpansion]},
			{"max_bytes", bytes, smallCaps[lacespec.LimitMaxAssembledBytes]},
		} {
			if b.v < 1 || b.v > b.cap {
				over = b.name
				break
			}
		}
		switch {
		case over != "":
			if resp.Outcome != testee.Unsupported || !strings.Contains(resp.Detail, over) {
				t.Fatalf("%s out of its range: %+v", over, resp)
			}
		case resp.Outcome == testee.Unsupported && !strings.Contains(resp.Detail, "lace.max_listing_bytes"):
			t.Fatalf("bounds within the caps unsupported: %+v", resp)
		}
	})
}

// Each bound argument is honoured up to the cap hello advertises for it and
// unsupported one above, naming the bound and the limit (default caps).
func TestBoundsUpToAdvertisedCaps(t *testing.T) {
	r := reference.New(allspecs.Set())
	lim := r.Hello()["limits"].(map[string]any)
	file := chunkBomb(t, 2) // a 1-byte Blob twice: 2 bytes
	for _, c := range []struct {
		op, arg, limit, base string
		in                   []byte
	}{
		{lacespec.OpChunks, "max_depth", "lace.max_depth", `"mark":"none"`, file},
		{lacespec.OpChunks, "max_expansion", "lace.max_expansion", `"mark":"none"`, file},
		{lacespec.OpChunks, "max_bytes", "lace.max_assembled_bytes", `"mark":"none"`, file},
		{lacespec.OpDirectory, "max_depth", "lace.max_depth", `"mark":"none"`, dirBomb(t, 2)},
		{tracerspec.OpDecode, "max_tlv_bytes", "libtracer.max_tlv_bytes", `"transport":"datagram"`, []byte{0, 0, 0, 0}},
		{tracerspec.OpDecode, "work_budget", "libtracer.work_budget", `"transport":"datagram"`, []byte{0, 0, 0, 0}},
	} {
		cap := lim[c.limit].(int64)
		for _, v := range []int64{cap, cap + 1} {
			args := fmt.Sprintf(`{%s,%q:%d}`, c.base, c.arg, v)
			resp, err := r.Do(context.Background(), testee.Request{ID: 1, Op: c.op, Args: json.RawMessage(args), Input: c.in})
			if err != nil {
				t.Fatal(err)
			}
			unsup := resp.Outcome == testee.Unsupported
			if unsup != (v > cap) || unsup && !strings.Contains(resp.Detail, fmt.Sprintf("%s %d is above this testee's cap %d (hello limits %s)", c.arg, v, cap, c.limit)) {
				t.Errorf("%s %s: %+v", c.op, args, resp)
			}
		}
	}
}
