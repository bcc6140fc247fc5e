package hiverelay

import (
	"bytes"
	"fmt"
	"sync"
	"testing"

	"github.com/threespec/conformance/impl/cenc"
	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/internal/fault"
	"github.com/threespec/conformance/internal/reading"
)

// takes returns the Checks that take alternative alt of reading id.
func takes(id, alt string) rules.Checks {
	return rules.Checks{Readings: reading.Of(map[string]string{id: alt})}
}

// Inputs whose verdict a fault or a reading changes.
var (
	zeroRelayCap  = rcapB(fill(0), fill(0x22), 2, nil)
	zeroPrevFrame = stdFrame().with(func(f *frameParts) { f.seq, f.prev = 1, fill(0) })
	bigForkCore   = bcoreB(fill(0x41), fill(0x42), cenc.MaxSafeInteger+1, 77, []byte("h"))
	classlessBlob = blobB(ClassLength(1))
)

// Each reading the decoder branches on is taken from the Checks it carries
// (rules.Checks.Takes), and a rule the branch fails with is still switched
// off by the Checks' faults.
func TestReadingsAreTakenFromTheChecks(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, schema string
		in           []byte
		c            rules.Checks
		want         rules.ID // "" when accepted
	}{
		{"zero previous hash, default", SchemaOpaqueChainFrameV1, zeroPrevFrame, std, ""},
		{"zero previous hash, " + AltZeroPreviousHashRejected, SchemaOpaqueChainFrameV1, zeroPrevFrame,
			takes(ReadZeroPreviousHash, AltZeroPreviousHashRejected), cenc.RuleNonzero},
		{"zero previous hash, rejected but HR-CENC-16 off", SchemaOpaqueChainFrameV1, zeroPrevFrame,
			rules.Checks{Faults: fault.Of(string(cenc.RuleNonzero)), Readings: reading.Of(map[string]string{ReadZeroPreviousHash: AltZeroPreviousHashRejected})}, ""},
		{"fixed u64 above 2^53-1, default", SchemaBlindCoreReadCapV1, bigForkCore, std, ""},
		{"fixed u64 above 2^53-1, " + AltFixedU64SafeRange, SchemaBlindCoreReadCapV1, bigForkCore,
			takes(ReadFixedU64Range, AltFixedU64SafeRange), cenc.RuleCompactSafe},
		{"fixed u64 above 2^53-1, in range but HR-CENC-08 off", SchemaBlindCoreReadCapV1, bigForkCore,
			rules.Checks{Faults: fault.Of(string(cenc.RuleCompactSafe)), Readings: reading.Of(map[string]string{ReadFixedU64Range: AltFixedU64SafeRange})}, ""},
		{"blob without a class (HR-READ-16 retired: no alternative to take)", SchemaCellBlobV1, classlessBlob,
			takes(ReadBlobWithoutClass, "class-from-length"), RuleBlobClassSelect},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := DecodeWith(tc.c, tc.schema, 0, tc.in)
			if rules.RuleOf(err) != tc.want || (tc.want == "" && err != nil) {
				t.Fatalf("DecodeWith = %v, want rule %q", err, tc.want)
			}
		})
	}
}

// Decodes with different Checks running at the same time each see only
// their own faults and readings: the Checks are values each decoder
// carries (issue 16). With the process-global switches of old, one
// goroutine switching HR-RCAP-03 off would let another goroutine's
// standard decode accept the zero relay key.
func TestConcurrentDecodesSeeOnlyTheirOwnChecks(t *testing.T) {
	t.Parallel()
	runs := []struct {
		c      rules.Checks
		schema string
		in     []byte
		want   rules.ID // "" when accepted
	}{
		{std, SchemaReadCellCapV1, zeroRelayCap, RuleRCapRelayKey},
		{faults(RuleRCapRelayKey), SchemaReadCellCapV1, zeroRelayCap, ""},
		{std, SchemaOpaqueChainFrameV1, zeroPrevFrame, ""},
		{takes(ReadZeroPreviousHash, AltZeroPreviousHashRejected), SchemaOpaqueChainFrameV1, zeroPrevFrame, cenc.RuleNonzero},
	}
	start := make(chan struct{})
	errs := make([]error, len(runs))
	var wg sync.WaitGroup
	for i, r := range runs {
		wg.Go(func() {
			<-start
			for n := range 500 {
				if _, _, err := DecodeWith(r.c, r.schema, 0, r.in); rules.RuleOf(err) != r.want || (r.want == "" && err != nil) {
					errs[i] = fmt.Errorf("run %d (%s), decode %d: %v, want rule %q", i, r.schema, n, err, r.want)
					return
				}
			}
		})
	}
	close(start)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

// Reading HR-READ-11: by default the metadata artifact is the project's
// canonical JSON, byte for byte; under metadata-unchecked only the two
// hashes it publishes are compared.
func TestMetadataReading(t *testing.T) {
	t.Parallel()
	ref := ReferenceMetadata().Encode()
	spaced := bytes.Replace(ref, []byte(`,"formatArtifact"`), []byte(`, "formatArtifact"`), 1)
	otherHash := bytes.Replace(ref, []byte(`"clientCompositionFormatHash":"5c30`), []byte(`"clientCompositionFormatHash":"5c31`), 1)
	loose := takes(ReadMetadataFormat, AltMetadataUnchecked)
	for _, tc := range []struct {
		name     string
		metadata []byte
		c        rules.Checks
		want     rules.ID // "" when accepted
	}{
		{"the published metadata, default", ref, std, ""},
		{"whitespace, default", spaced, std, RuleVecIdentity},
		{"whitespace, " + AltMetadataUnchecked, spaced, loose, ""},
		{"another format hash, " + AltMetadataUnchecked, otherHash, loose, RuleVecIdentity},
		{"no hash at all, " + AltMetadataUnchecked, []byte("{}\n"), loose, RuleVecIdentity},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := VerifyAuthorityWith(tc.c, tc.metadata, ReferenceFormatArtifact(), VectorManifest(), VectorFiles())
			if rules.RuleOf(err) != tc.want || (tc.want == "" && err != nil) {
				t.Fatalf("VerifyAuthorityWith = %v, want rule %q", err, tc.want)
			}
		})
	}
}
