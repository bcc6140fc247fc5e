package lace

import (
	"bytes"
	"runtime"
	"testing"

	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/internal/fault"
)

// Lace-010, "Record streams concatenate complete records".

func testStream(t testing.TB) ([]byte, []int) {
	parts := [][]byte{vector(t, "blob"), mk(plexT("", "App: x")), mk(sealOver(t, mk(plexT("\n🖧: B.x", "App: y")))), mk(blobT(""))}
	var s []byte
	var ends []int
	for _, p := range parts {
		s = append(s, p...)
		ends = append(ends, len(s))
	}
	return s, ends
}

func TestStream(t *testing.T) {
	t.Parallel()
	s, ends := testStream(t)
	recs, err := ParseStream(s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	forms := []Form{FormBlob, FormPlex, FormSeal, FormBlob}
	if len(recs) != len(forms) {
		t.Fatalf("%d records, want %d", len(recs), len(forms))
	}
	start := 0
	for i, r := range recs {
		if r.Form != forms[i] || r.Offset != start || r.Offset+r.Size != ends[i] {
			t.Fatalf("record %d: %s at %d+%d", i, r.Form, r.Offset, r.Size)
		}
		start = ends[i]
	}
	if !bytes.Equal(EncodeStream(recs), s) {
		t.Fatal("EncodeStream does not give back the stream")
	}
	// LACE-STREAM-05: an empty stream holds no records.
	if recs, err := ParseStream(nil, Options{}); err != nil || len(recs) != 0 {
		t.Fatalf("empty stream: %v, %d records", err, len(recs))
	}
}

// TestStreamPrefixes cuts the stream at every byte: a cut at a record
// boundary is a shorter valid stream, any other cut ends inside a record.
func TestStreamPrefixes(t *testing.T) {
	t.Parallel()
	s, ends := testStream(t)
	boundary := map[int]int{0: 0}
	for i, e := range ends {
		boundary[e] = i + 1
	}
	for n := 0; n <= len(s); n++ {
		recs, err := ParseStream(s[:n], Options{})
		if k, ok := boundary[n]; ok {
			if err != nil || len(recs) != k {
				t.Fatalf("cut at boundary %d: %v, %d records", n, err, len(recs))
			}
			continue
		}
		switch got := ruleOf(err); got {
		case RuleStreamTruncated, RuleBlobExactData:
		default:
			t.Fatalf("cut at %d: %v, want %s or %s", n, err, RuleStreamTruncated, RuleBlobExactData)
		}
	}
	// Under fault a careless reader drops the unfinished record.
	careless := rules.Checks{Faults: fault.Of(string(RuleStreamTruncated))}
	if recs, err := ParseStreamWith(careless, s[:ends[1]+10], Options{}); err != nil || len(recs) != 2 {
		t.Fatalf("under fault: %v, %d records", err, len(recs))
	}
}

// TestMemoryBoundedByInput parses a Blob that declares 32 MiB of data but
// carries 10 bytes: nothing proportional to the declared length is allocated.
func TestMemoryBoundedByInput(t *testing.T) {
	in := mk("@B\nData-Length: 33554432\n\n0123456789")
	var before, after runtime.MemStats
	const runs = 50
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range runs {
		if _, err := Parse(in, Options{}); ruleOf(err) != RuleBlobExactData {
			t.Fatalf("got %v, want %s", err, RuleBlobExactData)
		}
		if _, err := ParseStream(in, Options{}); ruleOf(err) != RuleBlobExactData {
			t.Fatalf("stream: got %v", err)
		}
	}
	runtime.ReadMemStats(&after)
	per := (after.TotalAlloc - before.TotalAlloc) / (2 * runs)
	t.Logf("%d bytes allocated per parse", per)
	if per > 4<<10 {
		t.Fatalf("%d bytes allocated per parse of a %d-byte input", per, len(in))
	}
}
