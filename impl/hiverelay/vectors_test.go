package hiverelay

import (
	"bytes"
	"encoding/binary"
	"maps"
	"strings"
	"testing"

	"golang.org/x/crypto/blake2b"

	"github.com/threespec/conformance/impl/cenc"
	"github.com/threespec/conformance/impl/manifest"
	"github.com/threespec/conformance/impl/rules"
)

// specBlock returns the lines of the ```text block that follows intro in
// the spec.
func specBlock(t *testing.T, intro string) []string {
	t.Helper()
	s := string(Spec())
	i := strings.Index(s, intro+"\n```text\n")
	if i < 0 {
		t.Fatalf("spec has no block after %q", intro)
	}
	s = s[i+len(intro)+len("\n```text\n"):]
	return strings.Split(strings.TrimSuffix(s[:strings.Index(s, "```")], "\n"), "\n")
}

func TestSchemasAreTheSpecs(t *testing.T) {
	t.Parallel()
	got := specBlock(t, "The authority owns exactly these schema names, in raw-ASCII order:")
	if strings.Join(got, " ") != strings.Join(Schemas[:], " ") {
		t.Fatalf("spec names %v, package names %v", got, Schemas)
	}
}

func TestInventoryIsTheSpecs(t *testing.T) {
	t.Parallel()
	want := specBlock(t, "The closed path inventory is:")
	if len(want) != 18 || strings.Join(InventoryPaths(), "\n") != strings.Join(want, "\n") {
		t.Fatalf("inventory %v\nspec %v", InventoryPaths(), want)
	}
	for _, v := range Vectors() {
		top := v.Path[:strings.IndexByte(v.Path, '/')]
		if top != v.Kind.String() {
			t.Errorf("%s: kind %s", v.Path, v.Kind)
		}
		if err := manifest.CheckPath(v.Path); err != nil {
			t.Errorf("%s: %v", v.Path, err)
		}
		if v.Kind == Negative && CheckOf(v.Rule) != rules.Rejecting || v.Kind == Positive && CheckOf(v.Rule) != rules.Constructing || v.Comment == "" {
			t.Errorf("%s: rule %s (%s), comment %q", v.Path, v.Rule, CheckOf(v.Rule), v.Comment)
		}
	}
}

func TestLabelDerivation(t *testing.T) {
	t.Parallel()
	if Label32("x") != blake2b.Sum256([]byte("hiverelay-bcc-v1/vector/x")) {
		t.Fatal("Label32")
	}
	block := func(i uint64) []byte {
		h := blake2b.Sum256(binary.BigEndian.AppendUint64([]byte("hiverelay-bcc-v1/vector/y"), i))
		return h[:]
	}
	want := cat(block(0), block(1), block(2))[:70]
	if got := LabelBytes("y", 70); !bytes.Equal(got, want) {
		t.Fatal("LabelBytes")
	}
	if len(LabelBytes("y", 0)) != 0 {
		t.Fatal("LabelBytes of 0 bytes")
	}
}

func TestVectorsAreDeterministic(t *testing.T) {
	t.Parallel()
	// Two fresh generations (not the cached one) give the same bytes.
	for i, v := range inventory {
		if a, b := v.gen(std), v.gen(std); !bytes.Equal(a, b) || !bytes.Equal(a, Vectors()[i].Bytes) {
			t.Fatalf("%s differs between two generations", v.Path)
		}
	}
	vs := Vectors()
	vs[0].Bytes[0] ^= 1
	if bytes.Equal(vs[0].Bytes, Vectors()[0].Bytes) {
		t.Fatal("Vectors must return copies")
	}
	m1, _ := manifest.Build(VectorFiles())
	if !bytes.Equal(m1, VectorManifest()) {
		t.Fatal("manifest differs between two generations")
	}
}

// Each vector behaves as its path says.
func TestVectorsClassify(t *testing.T) {
	t.Parallel()
	for _, v := range Vectors() {
		t.Run(v.Path, func(t *testing.T) {
			switch v.Kind {
			case Positive:
				_, re, err := Decode(v.Schema, v.Class, v.Bytes)
				if err != nil || !bytes.Equal(re, v.Bytes) {
					t.Fatalf("positive: %v", err)
				}
			case Negative:
				_, _, err := Decode(v.Schema, v.Class, v.Bytes)
				wantViolation(t, err, v.Rule, -2, "")
			case Registry:
				if !bytes.Equal(v.Bytes, SchemaCatalog()) {
					t.Fatal("registry vector is not the catalog")
				}
			}
		})
	}
}

// Each negative differs from a positive only in the condition its path names.
func TestNegativesDifferOnlyInTheirCondition(t *testing.T) {
	t.Parallel()
	files := VectorFiles()
	pos := func(p string) []byte { return files["positive/"+p] }
	neg := func(p string) []byte { return files["negative/"+p] }
	zeroed := func(b []byte, off int) []byte { return cat(b[:off], fill(0), b[off+32:]) }

	if p := pos("read-cell-cap-v1.bin"); !bytes.Equal(neg("read-cell-cap-zero-relay-public-key.bin"), zeroed(p, 1)) {
		t.Error("read-cell-cap negative is not the positive with relayPublicKey zeroed")
	}
	if p := pos("blind-core-read-cap-v1.bin"); !bytes.Equal(neg("blind-core-read-cap-zero-core-public-key.bin"), zeroed(p, 1)) {
		t.Error("blind-core negative is not the positive with corePublicKey zeroed")
	}
	if p := pos("cell-blob-v1-class-1.bin"); !bytes.Equal(neg("cell-blob-v1-class-1-truncated.bin"), p[:len(p)-1]) {
		t.Error("blob negative is not the class-1 positive without its last byte")
	}
	// WriteCellCapV1: readCap (99 bytes, no expected hash), epoch, create at 103, renew at 135.
	if p := pos("write-cell-cap-v1.bin"); !bytes.Equal(neg("write-cell-cap-duplicate-private-keys.bin"), cat(p[:135], p[103:135], p[167:])) {
		t.Error("write-cell-cap negative is not the positive with renewPrivateKey = createPrivateKey")
	}
	// Checkpoint: version, count 3, entries of 72 bytes at 2: the first two swapped.
	if p := pos("opaque-chain-checkpoint-v1.bin"); !bytes.Equal(neg("opaque-chain-checkpoint-unsorted-frontier.bin"), cat(p[:2], p[74:146], p[2:74], p[146:])) {
		t.Error("checkpoint negative is not the positive with its first two frontier entries swapped")
	}
	// Successor frame: previous hash tag 1 + 32 bytes at 41 becomes tag 0.
	if p := pos("opaque-chain-frame-v1-successor.bin"); p[41] != 1 || !bytes.Equal(neg("opaque-chain-frame-sequence-one-without-predecessor.bin"), cat(p[:41], b1(0), p[74:])) {
		t.Error("frame negative is not the successor with previousFrameHash absent")
	}
	if fr, _ := DecodeOpaqueChainFrameV1(pos("opaque-chain-frame-v1-successor.bin")); fr.Sequence != 1 {
		t.Error("the successor frame must be at sequence 1")
	}
}

func TestVerifyVectorSetAccepts(t *testing.T) {
	t.Parallel()
	if err := VerifyVectorSet(VectorManifest(), VectorFiles(), ReferenceFormatArtifact()); err != nil {
		t.Fatal(err)
	}
}

// vectorSetCase is a vector set mutated in one way.
type vectorSetCase struct {
	name     string
	edit     func(files map[string][]byte) // applied before the manifest is built
	manifest func(m []byte) []byte         // applied to the built manifest
	artifact []byte                        // nil: the reference artifact
	rule     rules.ID
}

func vectorSetCases() []vectorSetCase {
	const rcPos, rcNeg = "positive/read-cell-cap-v1.bin", "negative/read-cell-cap-zero-relay-public-key.bin"
	swap := func(a, b string) func(map[string][]byte) {
		return func(f map[string][]byte) { f[a], f[b] = f[b], f[a] }
	}
	otherSpec := artOf([]byte("another spec\n"))
	otherCatalogEntries := SchemaCatalogEntries()
	otherCatalogEntries[1].Declaration = "CellBlobV1 {\nsealed: everything\n}"
	otherCatalog, _ := EncodeSchemaCatalog(otherCatalogEntries)
	otherArtifact, _ := BuildFormatArtifact(Spec(), otherCatalog)
	return []vectorSetCase{
		{name: "missing vector (and row)", edit: func(f map[string][]byte) { delete(f, rcPos) }, rule: RuleVecMissing},
		{name: "extra vector (and row)", edit: func(f map[string][]byte) { f["positive/relay-wire-v1.bin"] = []byte{1} }, rule: RuleVecExtra},
		{name: "extra vector under a new top directory", edit: func(f map[string][]byte) { f["fixtures/x.bin"] = nil }, rule: RuleVecExtra},
		{name: "manifest row without a file", manifest: func(m []byte) []byte { return m }, edit: nil, rule: RuleVecMissing},
		{name: "file without a manifest row", rule: RuleVecExtra},
		{name: "substituted vector", rule: RuleVecSubstituted},
		{name: "positive that does not decode", edit: func(f map[string][]byte) { f[rcPos] = f[rcNeg] }, rule: RuleVecPositive},
		{name: "positive and negative swapped", edit: swap(rcPos, rcNeg), rule: RuleVecNegative},
		{name: "negative that decodes", edit: func(f map[string][]byte) { f[rcNeg] = f[rcPos] }, rule: RuleVecNegative},
		{name: "negative failing for another condition", edit: func(f map[string][]byte) {
			b := bytes.Clone(f[rcPos])
			copy(b[33:65], fill(0)) // storage slot, not relay key
			f[rcNeg] = b
		}, rule: RuleVecNegative},
		{name: "negative blob failing as long, not truncated", edit: func(f map[string][]byte) {
			f["negative/cell-blob-v1-class-1-truncated.bin"] = cat(f["positive/cell-blob-v1-class-1.bin"], b1(0))
		}, rule: RuleVecNegative},
		{name: "blob vectors swapped", edit: swap("positive/cell-blob-v1-class-1.bin", "positive/cell-blob-v1-class-2.bin"), rule: RuleVecBlobClass},
		{name: "blob vector that is no blob of any class", edit: func(f map[string][]byte) {
			f["positive/cell-blob-v1-class-2.bin"] = cat(f["positive/cell-blob-v1-class-1.bin"], b1(0))
		}, rule: RuleVecPositive},
		{name: "registry vector differs", edit: func(f map[string][]byte) { f["registry/client-composition-schema-catalog-v1.cenc"] = otherCatalog }, rule: RuleVecRegistry},
		{name: "registry vector against another artifact's catalog", artifact: otherArtifact, rule: RuleVecRegistry},
		{name: "artifact that does not verify", artifact: otherSpec[:len(otherSpec)-1], rule: cenc.RuleTruncated},
		{name: "manifest that does not parse", manifest: func(m []byte) []byte { return append(m, 0) }, rule: manifest.RuleTrailing},
	}
}

func TestVerifyVectorSetRejects(t *testing.T) {
	t.Parallel()
	for _, tc := range vectorSetCases() {
		t.Run(tc.name, func(t *testing.T) {
			files := maps.Clone(VectorFiles())
			if tc.edit != nil {
				tc.edit(files)
			}
			m, err := manifest.Build(files)
			if err != nil {
				t.Fatal(err)
			}
			switch tc.name {
			case "manifest row without a file":
				delete(files, "positive/write-cell-cap-v1.bin")
			case "file without a manifest row":
				files["positive/unlisted.bin"] = []byte{1}
			case "substituted vector":
				b := bytes.Clone(files["positive/write-cell-cap-v1.bin"])
				b[len(b)-1] ^= 1
				files["positive/write-cell-cap-v1.bin"] = b
			}
			if tc.manifest != nil {
				m = tc.manifest(m)
			}
			a := tc.artifact
			if a == nil {
				a = ReferenceFormatArtifact()
			}
			err = VerifyVectorSet(m, files, a)
			wantViolation(t, err, tc.rule, -2, "")
		})
	}
}

// The suite catches an implementation that stops enforcing the rule a
// negative vector names, or the wrong-class rule the blob vectors rely on.
func TestVerifyVectorSetCatchesFaults(t *testing.T) {
	t.Parallel()
	for _, v := range Vectors() {
		if v.Kind != Negative {
			continue
		}
		err := VerifyVectorSetWith(faults(v.Rule), VectorManifest(), VectorFiles(), ReferenceFormatArtifact())
		if rules.RuleOf(err) != RuleVecNegative {
			t.Errorf("%s switched off: VerifyVectorSet = %v, want %s", v.Rule, err, RuleVecNegative)
		}
	}
	err := VerifyVectorSetWith(faults(RuleBlobWrongClass), VectorManifest(), VectorFiles(), ReferenceFormatArtifact())
	if rules.RuleOf(err) != RuleVecBlobClass {
		t.Errorf("%s switched off: VerifyVectorSet = %v, want %s", RuleBlobWrongClass, err, RuleVecBlobClass)
	}
}

func TestMetadata(t *testing.T) {
	t.Parallel()
	m := ReferenceMetadata()
	enc := m.Encode()
	if m.FormatArtifactLength != uint64(len(ReferenceFormatArtifact())) || m.VectorManifestLength != uint64(len(VectorManifest())) ||
		m.VectorManifestEntries != 18 || m.FormatHash != FormatHash(ReferenceFormatArtifact()) || m.VectorSetHash != VectorSetHash(VectorManifest()) {
		t.Fatalf("metadata %s", enc)
	}
	if !bytes.HasPrefix(enc, []byte(`{"authority":"hiverelay-blind-client-composition-v1","clientCompositionFormatHash":"`)) ||
		!bytes.HasSuffix(enc, []byte(`,"vectorManifestEntries":18,"vectorManifestLength":1506}`+"\n")) || bytes.Count(enc, []byte("\n")) != 1 {
		t.Fatalf("metadata shape: %s", enc)
	}
	back, err := ParseMetadata(enc)
	if err != nil || back != m {
		t.Fatalf("ParseMetadata: %v", err)
	}
	if err := VerifyAuthority(enc, ReferenceFormatArtifact(), VectorManifest(), VectorFiles()); err != nil {
		t.Fatalf("VerifyAuthority: %v", err)
	}
}

func metadataRejectCases() []rejectCase {
	enc := string(ReferenceMetadata().Encode())
	return []rejectCase{
		{"not JSON", "", 0, []byte("hello"), RuleVecIdentity, -2, "metadata"},
		{"no final LF", "", 0, []byte(strings.TrimSuffix(enc, "\n")), RuleVecIdentity, -2, "metadata"},
		{"CRLF", "", 0, []byte(strings.TrimSuffix(enc, "\n") + "\r\n"), RuleVecIdentity, -2, "metadata"},
		{"whitespace", "", 0, []byte(strings.Replace(enc, `":`, `": `, 1)), RuleVecIdentity, -2, "metadata"},
		{"upper-case hex", "", 0, []byte(strings.ToUpper(enc[:120]) + enc[120:]), RuleVecIdentity, -2, "metadata"},
		{"short hash", "", 0, []byte(strings.Replace(enc, `FormatHash":"`, `FormatHash":"00`, 1)), RuleVecIdentity, -2, "metadata"},
		{"unknown key", "", 0, []byte(strings.Replace(enc, `{"authority"`, `{"x":1,"authority"`, 1)), RuleVecIdentity, -2, "metadata"},
		{"other authority", "", 0, []byte(strings.Replace(enc, `-v1"`, `-v2"`, 1)), RuleVecIdentity, -2, "metadata"},
		{"keys out of order", "", 0, []byte(`{"clientCompositionFormatHash":"` + enc[len(`{"authority":"hiverelay-blind-client-composition-v1","clientCompositionFormatHash":"`):]), RuleVecIdentity, -2, "metadata"},
	}
}

func TestAuthorityFiles(t *testing.T) {
	t.Parallel()
	f := AuthorityFiles()
	if len(f) != 4 {
		t.Fatalf("%d files", len(f))
	}
	if err := VerifyAuthority(f[MetadataFile], f[FormatArtifactFile], f[VectorManifestFile], VectorFiles()); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(f[SchemaCatalogFile], Vectors()[17].Bytes) {
		t.Fatal("the catalog file is not the registry vector")
	}
}

func TestParseMetadataRejects(t *testing.T) {
	t.Parallel()
	for _, tc := range metadataRejectCases() {
		if _, err := ParseMetadata(tc.in); rules.RuleOf(err) != tc.rule || rules.CodeOf(err) != cenc.Code {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	// Published values that the artifact and manifest do not give.
	m := ReferenceMetadata()
	m.VectorManifestLength++
	err := VerifyAuthority(m.Encode(), ReferenceFormatArtifact(), VectorManifest(), VectorFiles())
	wantViolation(t, err, RuleVecIdentity, -1, "metadata publishes")
	m = ReferenceMetadata()
	m.FormatHash[0] ^= 1
	err = VerifyAuthority(m.Encode(), ReferenceFormatArtifact(), VectorManifest(), VectorFiles())
	wantViolation(t, err, RuleVecIdentity, -1, "metadata publishes")
}

// A construction fault changes the generated bytes and is never cached.
func TestGenerationUnderFault(t *testing.T) {
	t.Parallel()
	ref := VectorManifest()
	b := vectors(faults(cenc.RuleCompactForms))[6].Bytes // positive/blind-core-read-cap-v1.bin: its head length is a compact uint
	if bytes.Equal(b, Vectors()[6].Bytes) {
		t.Fatal("the fault did not change the generated bytes")
	}
	if !bytes.Equal(ref, VectorManifest()) {
		t.Fatal("a faulty generation was cached")
	}
}

// With any one rule switched off, generation and verification carry on
// without panicking.
func TestNoPanicUnderAnyFault(t *testing.T) {
	t.Parallel()
	m, files, a, md := VectorManifest(), VectorFiles(), ReferenceFormatArtifact(), ReferenceMetadata().Encode()
	for _, r := range Catalog() {
		c := faults(r.ID)
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Errorf("%s switched off: panic %v", r.ID, p)
				}
			}()
			VerifyAuthorityWith(c, md, a, m, files)
			if r.Check == rules.Constructing {
				VerifyVectorSetWith(c, referenceManifest(c), vectorFiles(c), referenceFormatArtifact(c))
				referenceMetadata(c)
			}
		}()
	}
}

// authorityCase is a published authority whose metadata is computed
// honestly for its artifact and manifest, yet that is not this authority.
type authorityCase struct {
	name     string
	artifact []byte
	rule     rules.ID
}

func authorityCases() []authorityCase {
	single, _ := BuildFormatArtifact([]byte("\n"), SchemaCatalog())
	dropped := bytes.Clone(Spec())
	dropped = append(dropped[:100:100], dropped[101:]...)
	withoutByte100, _ := BuildFormatArtifact(dropped, SchemaCatalog())
	return []authorityCase{
		{"an artifact around another spec text", single, RuleFmtSpecExact},
		{"an artifact around the spec without its byte 100", withoutByte100, RuleFmtSpecExact},
	}
}

// Complete authority verification against metadata (which names this
// authority) requires the artifact to embed this exact spec (HR-FMT-17).
func TestVerifyAuthorityWantsThisSpec(t *testing.T) {
	t.Parallel()
	for _, tc := range authorityCases() {
		t.Run(tc.name, func(t *testing.T) {
			if tc.artifact == nil {
				t.Fatal("artifact not built")
			}
			m, files := VectorManifest(), VectorFiles()
			md, err := MetadataFor(tc.artifact, m)
			if err != nil {
				t.Fatal(err)
			}
			if err := VerifyVectorSet(m, files, tc.artifact); err != nil {
				t.Fatalf("the vector set itself verifies against the artifact: %v", err)
			}
			err = VerifyAuthority(md.Encode(), tc.artifact, m, files)
			wantViolation(t, err, tc.rule, -2, "specBytes")
			if err := VerifyAuthorityWith(faults(tc.rule), md.Encode(), tc.artifact, m, files); err != nil {
				t.Fatalf("with %s switched off: %v", tc.rule, err)
			}
		})
	}
}
