package hivevec

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/threespec/conformance/impl/cenc"
	hr "github.com/threespec/conformance/impl/hiverelay"
	"github.com/threespec/conformance/impl/hiverelay/hivespec"
	"github.com/threespec/conformance/impl/manifest"
	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/internal/vecgen"
	"github.com/threespec/conformance/vectorset"
)

// The published identity of the authority (docs/hiverelay.md, "The
// reference values"), reproduced there by an independent Python program.
const (
	publishedFormatHash    = "5c30092c817079e041a715ff6c6a03044c1f90adfb6b934d85975c69319a7165"
	publishedVectorSetHash = "fd0639c088f1c420a7768940bd1e82b85e4831d2a0508a468e611be1ad9e54ca"
)

var (
	genOnce sync.Once
	genVecs []vecgen.Vector
	genErr  error
)

// generated returns the suite's vectors (generated once per test binary).
func generated(t testing.TB) []vecgen.Vector {
	t.Helper()
	genOnce.Do(func() { genVecs, genErr = generate(vecgen.Options{}) })
	if genErr != nil {
		t.Fatal(genErr)
	}
	return genVecs
}

func byID(t testing.TB) map[string]*vecgen.Vector {
	m := map[string]*vecgen.Vector{}
	vs := generated(t)
	for i := range vs {
		m[vs[i].ID] = &vs[i]
	}
	return m
}

func schemaOf(t testing.TB, v *vecgen.Vector) hivespec.DecodeArgs {
	var a hivespec.DecodeArgs
	if v.Op == hivespec.OpDecode {
		if err := json.Unmarshal(v.Args, &a); err != nil {
			t.Fatal(err)
		}
	}
	return a
}

// Every rejecting rule of the catalog (rules.Rejecting) has a negative
// vector that it rejects first, and every general rule is realized by a
// covered rule.
func TestEveryRejectingRuleHasANegative(t *testing.T) {
	first := map[rules.ID]int{}
	for _, v := range generated(t) {
		if v.Expect == vectorset.Reject {
			first[rules.ID(v.Rules[0])]++
		}
	}
	// A rule that only a reading's alternative rejects with (HR-MAN-08
	// under nfc-required) has its negatives among the branch vectors.
	for _, u := range readingUses() {
		for _, b := range u.Branches {
			if b.Expect == vectorset.Reject && len(b.Rules) > 0 {
				first[rules.ID(b.Rules[0])]++
			}
		}
	}
	var uncovered []string
	for _, r := range hr.Catalog() {
		switch r.Check {
		case rules.Rejecting:
			if first[r.ID] == 0 {
				uncovered = append(uncovered, string(r.ID)+": "+r.Text)
			}
		case rules.General:
			realized := false
			for _, s := range hr.RealizedBy(r.ID) {
				realized = realized || first[s] > 0
			}
			if !realized {
				uncovered = append(uncovered, string(r.ID)+" (general; none of "+strings.Join(idStrings(hr.RealizedBy(r.ID)), ", ")+" has a negative)")
			}
		}
	}
	if len(uncovered) > 0 {
		t.Errorf("%d rules have no negative vector:\n  %s", len(uncovered), strings.Join(uncovered, "\n  "))
	}
}

func idStrings(ids []rules.ID) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = string(id)
	}
	return out
}

// The general encoding rules hold for each of the six schemas: an unknown
// version, truncation and trailing bytes each have a negative for every
// schema (for CellBlobV1, whose truncation and trailing bytes are short and
// long blobs, for every class), and every blob is refused by every other
// class.
func TestGeneralRulesForEverySchema(t *testing.T) {
	type key struct {
		schema string
		class  int
		rule   rules.ID
	}
	have := map[key]int{}
	for i := range generated(t) {
		v := &generated(t)[i]
		if v.Expect != vectorset.Reject || v.Op != hivespec.OpDecode {
			continue
		}
		a := schemaOf(t, v)
		have[key{a.Schema, a.Class, rules.ID(v.Rules[0])}]++
	}
	for _, s := range hr.Schemas {
		if s == hr.SchemaCellBlobV1 {
			for c := 1; c <= hr.NumClasses; c++ {
				for _, r := range []rules.ID{cenc.RuleUnknownVersion, hr.RuleBlobShort, hr.RuleBlobLong} {
					if have[key{s, c, r}] == 0 {
						t.Errorf("no CellBlobV1 class-%d negative for %s", c, r)
					}
				}
				if n := have[key{s, c, hr.RuleBlobWrongClass}]; n != hr.NumClasses-1 {
					t.Errorf("class %d: %d wrong-class negatives, want %d", c, n, hr.NumClasses-1)
				}
			}
			continue
		}
		for _, r := range []rules.ID{cenc.RuleUnknownVersion, cenc.RuleTruncated, cenc.RuleTrailing, cenc.RuleCompactOverlong} {
			if r == cenc.RuleCompactOverlong && (s == hr.SchemaReadCellCapV1 || s == hr.SchemaWriteCellCapV1) {
				continue // no compact uint in these two
			}
			if have[key{s, 0, r}] == 0 {
				t.Errorf("no %s negative for %s", s, r)
			}
		}
	}
}

// The boundaries the issue names, on both sides, by vector ID: a guard
// that fails when one is renamed or lost.
func TestBoundaryVectorsExist(t *testing.T) {
	pos := func(names ...string) []string { return names }
	want := map[string][]string{ // polarity -> names
		"positive": pos(
			"read-cell-cap-v1-size-class-1", "read-cell-cap-v1", "read-cell-cap-v1-size-class-5", "read-cell-cap-v1-no-expected-hash",
			"opaque-chain-checkpoint-v1-one-frontier-entry-one-snapshot-cap", "opaque-chain-checkpoint-v1-1024-frontier-entries",
			"opaque-chain-checkpoint-v1-16-snapshot-caps", "opaque-chain-frame-v1-genesis-16-next-caps", "opaque-chain-frame-v1-genesis-no-next-caps",
			"opaque-chain-frame-v1-genesis-256-empty-payloads", "opaque-chain-frame-v1-genesis-252-empty-payloads", "opaque-chain-frame-v1-genesis-253-empty-payloads",
			"opaque-chain-frame-v1-payload-252-bytes", "opaque-chain-frame-v1-payload-253-bytes", "opaque-chain-frame-v1-payload-65535-bytes",
			"opaque-chain-frame-v1-payload-65536-bytes", "opaque-chain-frame-v1-payload-262144-bytes",
			"opaque-chain-frame-v1-genesis", "opaque-chain-frame-v1-successor", "opaque-chain-frame-v1-successor-sequence-max",
			"blind-core-read-cap-v1-head-1-bytes", "blind-core-read-cap-v1-head-4096-bytes", "blind-core-read-cap-v1-head-252-bytes", "blind-core-read-cap-v1-head-253-bytes",
			"format-artifact-v1", "manifest-authority-v1", "manifest-empty",
		),
		"negative": pos(
			"read-cell-cap-v1-size-class-0", "read-cell-cap-v1-size-class-6", "read-cell-cap-v1-size-class-255",
			"read-cell-cap-v1-expected-cell-blob-hash-tag-2", "read-cell-cap-v1-expected-cell-blob-hash-tag-255",
			"opaque-chain-checkpoint-v1-0-frontier-entries", "opaque-chain-checkpoint-v1-1025-frontier-entries",
			"opaque-chain-checkpoint-v1-0-snapshot-caps", "opaque-chain-checkpoint-v1-17-snapshot-caps",
			"opaque-chain-frame-v1-genesis-17-next-caps", "opaque-chain-frame-v1-genesis-257-empty-payloads",
			"opaque-chain-frame-v1-payload-262145-bytes", "opaque-chain-frame-v1-payload-length-262145",
			"opaque-chain-frame-v1-payload-length-9007199254740991", "opaque-chain-frame-v1-payload-length-9007199254740992",
			"opaque-chain-frame-v1-payload-252-bytes-length-overlong-fd", "opaque-chain-frame-v1-payload-65535-bytes-length-overlong-fe",
			"opaque-chain-frame-v1-payload-length-4294967295-overlong-ff",
			"opaque-chain-frame-v1-genesis-with-previous-hash", "opaque-chain-frame-sequence-one-without-predecessor",
			"opaque-chain-frame-v1-genesis-no-payload-no-checkpoint",
			"opaque-chain-frame-v1-genesis-previous-frame-hash-tag-2", "opaque-chain-frame-v1-genesis-checkpoint-tag-255",
			"blind-core-read-cap-v1-head-0-bytes", "blind-core-read-cap-v1-head-4097-bytes",
			"blind-core-read-cap-v1-head-length-9007199254740991", "blind-core-read-cap-v1-head-length-9007199254740992",
			"blind-core-read-cap-v1-head-length-4097-at-end", "blind-core-read-cap-v1-head-length-9007199254740991-at-end",
			"opaque-chain-checkpoint-v1-frontier-count-9007199254740991", "opaque-chain-checkpoint-v1-frontier-count-9007199254740992",
			"cell-blob-v1-class-1-decoded-without-class", "cell-blob-v1-class-1-decoded-as-class-6",
			"format-spec-length-0", "format-spec-1048577-bytes", "format-catalog-length-0", "format-catalog-length-1048577",
			"format-spec-length-1048576-beyond-input", "format-catalog-length-one-beyond-input", "format-trailing-byte",
			"manifest-count-19", "manifest-count-17", "manifest-trailing-byte",
		),
	}
	m := byID(t)
	for polarity, names := range want {
		for _, n := range names {
			if m["hiverelay/"+polarity+"/"+n] == nil {
				t.Errorf("missing boundary vector hiverelay/%s/%s", polarity, n)
			}
		}
	}
	for c := 1; c <= hr.NumClasses; c++ {
		for d := 1; d <= hr.NumClasses; d++ {
			if c != d && m["hiverelay/negative/cell-blob-v1-class-"+itoa(c)+"-decoded-as-class-"+itoa(d)] == nil {
				t.Errorf("missing wrong-class blob vector %d as %d", c, d)
			}
		}
	}
}

func itoa(i int) string { return string(rune('0' + i)) }

// The generator's own encoder, built from the label table of
// docs/hiverelay.md, reproduces all 18 inventory files byte for byte, and
// its catalog, artifact and manifest reproduce the authority files.
func TestIndependentEncoderReproducesTheAuthority(t *testing.T) {
	mine := map[string][]byte{
		"positive/read-cell-cap-v1.bin":                      record(posReadCap().write),
		"positive/write-cell-cap-v1.bin":                     record(posWriteCap().write),
		"positive/opaque-chain-checkpoint-v1.bin":            record(posCheckpoint().write),
		"positive/opaque-chain-frame-v1-genesis.bin":         record(posGenesis().write),
		"positive/opaque-chain-frame-v1-successor.bin":       record(posSuccessor().write),
		"positive/blind-core-read-cap-v1.bin":                record(posBlindCore().write),
		"registry/client-composition-schema-catalog-v1.cenc": writeCatalog(catalogEntries()),
	}
	for c := 1; c <= 5; c++ {
		mine["positive/cell-blob-v1-class-"+itoa(c)+".bin"] = record(posBlob(c).write)
	}
	// The negatives, as the table of docs/hiverelay.md makes them.
	bc := posBlindCore()
	bc.core = [32]byte{}
	mine["negative/blind-core-read-cap-zero-core-public-key.bin"] = record(bc.write)
	mine["negative/cell-blob-v1-class-1-truncated.bin"] = record(posBlob(1).write)[:4095]
	ck := posCheckpoint()
	ck.frontier[0], ck.frontier[1] = ck.frontier[1], ck.frontier[0]
	mine["negative/opaque-chain-checkpoint-unsorted-frontier.bin"] = record(ck.write)
	fr := posSuccessor()
	fr.previous = nil
	mine["negative/opaque-chain-frame-sequence-one-without-predecessor.bin"] = record(fr.write)
	rc := posReadCap()
	rc.relay = [32]byte{}
	mine["negative/read-cell-cap-zero-relay-public-key.bin"] = record(rc.write)
	wc := posWriteCap()
	wc.renew = wc.create
	mine["negative/write-cell-cap-duplicate-private-keys.bin"] = record(wc.write)

	ref := hr.VectorFiles()
	if len(ref) != len(mine) {
		t.Fatalf("%d inventory files, %d built here", len(ref), len(mine))
	}
	for p, b := range ref {
		if !bytes.Equal(mine[p], b) {
			t.Errorf("%s: the generator's encoder writes %d bytes that differ from the inventory's %d", p, len(mine[p]), len(b))
		}
	}
	if a := artifact(hr.Spec(), writeCatalog(catalogEntries())); !bytes.Equal(a, hr.ReferenceFormatArtifact()) {
		t.Error("the generator's artifact differs from the reference format artifact")
	}
	if m := manifestOf(authorityRows()); !bytes.Equal(m, hr.VectorManifest()) {
		t.Error("the generator's manifest differs from the reference vector manifest")
	}
}

// The inventory is the spec's: the authority manifest's rows are exactly
// the 18 paths listed in section 5, read from the spec text.
func TestAuthorityManifestIsTheSpecInventory(t *testing.T) {
	spec := string(hr.Spec())
	_, after, ok := strings.Cut(spec, "The closed path inventory is:\n```text\n")
	if !ok {
		t.Fatal("no inventory in the spec")
	}
	list, _, _ := strings.Cut(after, "```")
	want := strings.Fields(list)
	var got []string
	for _, r := range authorityRows() {
		got = append(got, r.path)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") || len(want) != 18 {
		t.Fatalf("manifest paths %q, spec inventory %q", got, want)
	}
	_, mf, err := extra()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(mf[hr.VectorManifestFile], manifestOf(authorityRows())) {
		t.Error("the published vector manifest is not the manifest of the 18 inventory files")
	}
}

// The two hashes, computed here from the formulas, are the published ones,
// and the generated positives expect exactly them.
func TestPublishedHashes(t *testing.T) {
	if got := formatHash(artifact(hr.Spec(), writeCatalog(catalogEntries()))); got != publishedFormatHash {
		t.Errorf("format hash %s, published %s", got, publishedFormatHash)
	}
	h := domainHash(vectorSetHashDomain, manifestOf(authorityRows()))
	if got := hex.EncodeToString(h[:]); got != publishedVectorSetHash {
		t.Errorf("vector set hash %s, published %s", got, publishedVectorSetHash)
	}
	m := byID(t)
	var f struct {
		FormatHash string `json:"format_hash"`
	}
	mustUnmarshal(m["hiverelay/positive/"+formatArtifactName].Result, &f)
	var s struct {
		Entries []struct {
			Path string `json:"path"`
		} `json:"entries"`
		Hash string `json:"vector_set_hash"`
	}
	mustUnmarshal(m["hiverelay/positive/"+authorityManifestName].Result, &s)
	if f.FormatHash != publishedFormatHash || s.Hash != publishedVectorSetHash || len(s.Entries) != 18 {
		t.Errorf("expected results: format_hash %s, vector_set_hash %s, %d entries", f.FormatHash, s.Hash, len(s.Entries))
	}
	// The domain strings are the spec's.
	for _, d := range []string{formatHashDomain, vectorSetHashDomain} {
		if !strings.Contains(string(hr.Spec()), `ASCII("`+d+`")`) {
			t.Errorf("domain %q is not in the spec", d)
		}
	}
}

// Compact uints at every boundary of section 2, as the spec describes the
// forms.
func TestCompactForms(t *testing.T) {
	for _, c := range []struct {
		v   uint64
		hex string
	}{
		{0, "00"}, {252, "fc"}, {253, "fdfd00"}, {0xffff, "fdffff"}, {0x10000, "fe00000100"},
		{0xffffffff, "feffffffff"}, {1 << 32, "ff0000000001000000"}, {maxSafe, "ffffffffffffff1f00"},
	} {
		if got := hex.EncodeToString(compact(c.v)); got != c.hex {
			t.Errorf("compact(%d) = %s, want %s", c.v, got, c.hex)
		}
	}
	if got := hex.EncodeToString(compactForm(252, 0xfd)); got != "fdfc00" {
		t.Errorf("overlong fd form of 252 = %s", got)
	}
}

func TestKebab(t *testing.T) {
	for in, want := range map[string]string{
		"snapshotReadCaps[1].relayPublicKey":    "snapshot-read-caps-1-relay-public-key",
		"checkpoint.coveredFrontier[0].chainId": "checkpoint-covered-frontier-0-chain-id",
		"opaquePayloads[1].payload.length":      "opaque-payloads-1-payload-length",
		"readCap.expectedCellBlobHash.tag":      "read-cap-expected-cell-blob-hash-tag",
		"version":                               "version",
	} {
		if got := kebab(in); got != want {
			t.Errorf("kebab(%q) = %q, want %q", in, got, want)
		}
	}
}

// Every vector is checked by the engine against the reference; the
// systematic family stays reviewable, and Large adds more.
func TestGenerationAgreesWithTheReference(t *testing.T) {
	out, err := vecgen.Generate([]vecgen.Generator{Generator}, vecgen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := out.Summary[0]
	if s.Positive < 50 || s.Negative < 500 {
		t.Errorf("summary %+v", s)
	}
	var mutations int
	for _, v := range generated(t) {
		for _, tag := range v.Tags {
			if tag == tagMutation {
				mutations++
			}
		}
		if v.DerivedFrom != "" && byID(t)[v.DerivedFrom] == nil {
			t.Errorf("%s derives from %s, which does not exist", v.ID, v.DerivedFrom)
		}
	}
	if mutations < 300 || mutations > 1000 {
		t.Errorf("%d mutations; the committed family should be hundreds", mutations)
	}
	large, err := generate(vecgen.Options{Large: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(large) <= len(generated(t))+1000 {
		t.Errorf("Large gives %d vectors, the default %d", len(large), len(generated(t)))
	}
}

// The authority files keep covering exactly the 18 inventory paths, and
// the inventory vectors keep their names, polarity and bytes.
func TestInventoryVectorsUnchanged(t *testing.T) {
	m := byID(t)
	var n int
	for _, v := range hr.Vectors() {
		if v.Kind == hr.Registry {
			continue
		}
		n++
		polarity, fname, _ := strings.Cut(v.Path, "/")
		g := m["hiverelay/"+polarity+"/"+strings.TrimSuffix(fname, ".bin")]
		if g == nil || g.File != v.Path || !bytes.Equal(g.Data, v.Bytes) {
			t.Errorf("inventory vector %s is not generated unchanged", v.Path)
		}
	}
	if n != 17 {
		t.Fatalf("%d inventory decode vectors", n)
	}
	entries, err := manifest.Parse(hr.AuthorityFiles()[hr.VectorManifestFile])
	if err != nil || len(entries) != 18 {
		t.Fatalf("authority manifest: %d entries, %v", len(entries), err)
	}
}

func TestDeterministic(t *testing.T) {
	a, err := generate(vecgen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b := generated(t)
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if len(a) == 0 || !bytes.Equal(ja, jb) {
		t.Fatal("two generations differ")
	}
}

func BenchmarkGenerate(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := generate(vecgen.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// The hiverelay.authority vectors: the two positives expect the published
// pair; every input is a recipe that embeds the committed inventory files
// (file_base64) and expands to the JSON object of docs/PROTOCOL.md; the
// negatives reject for each rule of complete authority verification.
func TestAuthorityVectors(t *testing.T) {
	first := map[rules.ID]int{}
	n := 0
	for _, v := range generated(t) {
		if v.Op != hivespec.OpAuthority {
			continue
		}
		n++
		if v.Recipe == nil {
			t.Fatalf("%s is not a recipe", v.ID)
		}
		in, err := v.Recipe.Expand(func(p string) ([]byte, error) { return treeFile(t, p), nil })
		if err != nil {
			t.Fatal(err)
		}
		var obj hivespec.AuthorityInput
		if err := json.Unmarshal(in, &obj); err != nil || len(obj.FormatArtifact) == 0 || len(obj.Files) < 17 {
			t.Fatalf("%s: not the authority input object: %v", v.ID, err)
		}
		if v.Expect == vectorset.Accept {
			var r struct {
				FormatHash    string `json:"format_hash"`
				VectorSetHash string `json:"vector_set_hash"`
			}
			if err := json.Unmarshal(v.Result, &r); err != nil || r.FormatHash != publishedFormatHash || r.VectorSetHash != publishedVectorSetHash {
				t.Errorf("%s: expects %+v, not the published pair", v.ID, r)
			}
			continue
		}
		first[rules.ID(v.Rules[0])]++
	}
	for _, id := range []rules.ID{hr.RuleVecMissing, hr.RuleVecExtra, hr.RuleVecSubstituted, hr.RuleVecPositive,
		hr.RuleVecBlobClass, hr.RuleVecNegative, hr.RuleVecRegistry, hr.RuleVecIdentity, hr.RuleFmtSpecExact} {
		if first[id] == 0 {
			t.Errorf("no hiverelay.authority negative for %s", id)
		}
	}
	if n != 24 {
		t.Errorf("%d authority vectors, want the 24 of docs/hiverelay.md", n)
	}
}

// treeFile returns a suite-tree file as the generator wrote it.
func treeFile(t *testing.T, p string) []byte {
	t.Helper()
	for _, v := range generated(t) {
		if v.File == p {
			return v.Data
		}
	}
	for _, v := range hr.Vectors() {
		if v.Path == p {
			return v.Bytes
		}
	}
	t.Fatalf("no suite-tree file %s", p)
	return nil
}
