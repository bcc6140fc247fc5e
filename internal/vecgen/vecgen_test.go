package vecgen_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/threespec/conformance/impl/hiverelay"
	"github.com/threespec/conformance/impl/hiverelay/hivespec"
	"github.com/threespec/conformance/impl/hiverelay/hivevec"
	"github.com/threespec/conformance/impl/lace/lacespec"
	"github.com/threespec/conformance/internal/allspecs"
	"github.com/threespec/conformance/internal/vecgen"
	"github.com/threespec/conformance/vectorset"
)

// The canonical Blob of Lace-010 ("A canonical vector covers all three record forms").
const seedBlob = "🖧: B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3\nData-Length: 5\n\nhello"

func laceVector(id, file, expect string, data []byte, rule string) vecgen.Vector {
	v := vecgen.Vector{Data: data}
	v.ID, v.File, v.Op, v.Expect, v.Rules, v.Comment = id, file, lacespec.OpRecord, expect, []string{rule}, "test vector"
	if expect == vectorset.Reject {
		v.Comment = "test vector: " + rule
	}
	return v
}

func suiteOf(vs ...vecgen.Vector) vecgen.Generator {
	return vecgen.Generator{Spec: lacespec.Spec, Generate: func(vecgen.Options) ([]vecgen.Vector, error) { return vs, nil }}
}

func TestGenerateChecksAgainstTheReference(t *testing.T) {
	good := laceVector("lace/positive/seed-blob", "positive/seed-blob.lr", vectorset.Accept, []byte(seedBlob), "LACE-VEC-01")
	good.Want = []string{"form", "hash"}
	bad := []byte(strings.Replace(seedBlob, "Data-Length: 5", "Data-Length: 05", 1))
	tests := []struct {
		name string
		vs   []vecgen.Vector
		err  string
	}{
		{"accepted vector the reference rejects", []vecgen.Vector{laceVector("lace/positive/x", "positive/x.lr", vectorset.Accept, bad, "LACE-BLOB-03")}, "disagrees"},
		{"rejected vector the reference accepts", []vecgen.Vector{laceVector("lace/negative/x", "negative/x.lr", vectorset.Reject, []byte(seedBlob), "LACE-BLOB-03")}, "disagrees"},
		{"rejected for another rule", []vecgen.Vector{laceVector("lace/negative/x", "negative/x.lr", vectorset.Reject, bad, "LACE-FIELD-01")}, "expected rejection by rule LACE-FIELD-01"},
		{"unknown rule", []vecgen.Vector{laceVector("lace/negative/x", "negative/x.lr", vectorset.Reject, bad, "LACE-NOPE-01")}, "no catalog defines"},
		{"polarity and expectation disagree", []vecgen.Vector{laceVector("lace/positive/x", "positive/x.lr", vectorset.Reject, bad, "LACE-BLOB-03")}, "filed under positive"},
		{"file not named for the vector", []vecgen.Vector{laceVector("lace/negative/x", "negative/y.lr", vectorset.Reject, bad, "LACE-BLOB-03")}, "is not negative/x"},
		{"duplicate", []vecgen.Vector{good, good}, "two vectors named"},
		{"alias naming another vector", []vecgen.Vector{good, func() vecgen.Vector {
			v := laceVector("lace/positive/seed-blob-2", "positive/seed-blob-2.lr", vectorset.Accept, []byte(seedBlob), "LACE-VEC-01")
			v.Aliases = []string{"lace/positive/seed-blob"}
			return v
		}()}, `alias "lace/positive/seed-blob" already names`},
		{"comment not naming the rule", []vecgen.Vector{func() vecgen.Vector {
			v := laceVector("lace/negative/x", "negative/x.lr", vectorset.Reject, bad, "LACE-BLOB-03")
			v.Comment = "a leading zero, LACE-BLOB-0"
			return v
		}()}, "does not name LACE-BLOB-03, the rule the vector is reported under"},
	}
	for _, tt := range tests {
		_, err := vecgen.Generate([]vecgen.Generator{suiteOf(tt.vs...)}, vecgen.Options{})
		if err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%s: err = %v, want %q", tt.name, err, tt.err)
		}
	}
	out, err := vecgen.Generate([]vecgen.Generator{suiteOf(good, laceVector("lace/negative/data-length-05", "negative/data-length-05.lr", vectorset.Reject, bad, "LACE-BLOB-03"))}, vecgen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ix, err := vectorset.Parse(out.Files["vectors/lace.index.json"], "lace")
	if err != nil {
		t.Fatal(err)
	}
	var res map[string]string
	if err := json.Unmarshal(ix.Vectors[1].Result, &res); err != nil {
		t.Fatal(err)
	}
	// The hash printed by Lace-010 for its canonical Blob.
	if res["form"] != "blob" || res["hash"] != "B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3" {
		t.Fatalf("filled result %v", res)
	}
	if ix.Vectors[0].Level != "MUST" || ix.Vectors[0].Size != int64(len(bad)) {
		t.Fatalf("index entry %+v", ix.Vectors[0])
	}
}

func TestDeterministicAndChecked(t *testing.T) {
	suites := []vecgen.Generator{hivevec.Generator}
	a, err := vecgen.Generate(suites, vecgen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := vecgen.Generate(suites, vecgen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Files) != len(b.Files) {
		t.Fatalf("%d files, then %d", len(a.Files), len(b.Files))
	}
	for p, x := range a.Files {
		if !bytes.Equal(x, b.Files[p]) {
			t.Errorf("%s differs between two generations", p)
		}
	}

	root := t.TempDir()
	if err := vecgen.Write(root, a); err != nil {
		t.Fatal(err)
	}
	if diffs, err := vecgen.Check(root, b); err != nil || len(diffs) != 0 {
		t.Fatalf("fresh tree: diffs %v, err %v", diffs, err)
	}
	changed := filepath.Join(root, "vectors", "positive", "hiverelay", "read-cell-cap-v1.bin")
	stale := filepath.Join(root, "vectors", "negative", "hiverelay", "left-over.bin")
	missing := filepath.Join(root, "manifest", "hiverelay", "suite-manifest.bin")
	if err := os.WriteFile(changed, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(stale, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(missing); err != nil {
		t.Fatal(err)
	}
	diffs, err := vecgen.Check(root, b)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"missing:   manifest/hiverelay/suite-manifest.bin",
		"stale:     vectors/negative/hiverelay/left-over.bin",
		"different: vectors/positive/hiverelay/read-cell-cap-v1.bin",
	}
	if strings.Join(diffs, "\n") != strings.Join(want, "\n") {
		t.Fatalf("diffs:\n%s\nwant:\n%s", strings.Join(diffs, "\n"), strings.Join(want, "\n"))
	}
	if err := vecgen.Write(root, b); err != nil {
		t.Fatal(err)
	}
	if diffs, _ := vecgen.Check(root, b); len(diffs) != 0 {
		t.Fatalf("Write must repair the tree; still %v", diffs)
	}
}

// A recipe may name any file of the suite tree, whatever the order of the
// IDs: here a negative (sorted first) extends a positive's file and another
// names a registry file from Extra.
func TestRecipeNamesAnyTreeFile(t *testing.T) {
	var readCap, catalog []byte
	for _, v := range hiverelay.Vectors() {
		switch v.Path {
		case "positive/read-cell-cap-v1.bin":
			readCap = v.Bytes
		case "registry/client-composition-schema-catalog-v1.cenc":
			catalog = v.Bytes
		}
	}
	args := json.RawMessage(`{"schema":"ReadCellCapV1"}`)
	pos := vecgen.Vector{Data: readCap}
	pos.ID, pos.File, pos.Op, pos.Args, pos.Expect, pos.Rules, pos.Comment = "hiverelay/positive/read-cap", "positive/read-cap.bin", hivespec.OpDecode, args, vectorset.Accept, []string{"HR-RCAP-01"}, "test vector"
	neg := vecgen.Vector{}
	neg.ID, neg.Op, neg.Args, neg.Expect, neg.Code, neg.Rules, neg.Comment = "hiverelay/negative/read-cap-trailing", hivespec.OpDecode, args, vectorset.Reject, "BAD_ENCODING", []string{"HR-CENC-12"}, "test vector: HR-CENC-12"
	neg.Recipe = &vectorset.Recipe{Parts: []vectorset.Part{{File: "positive/read-cap.bin"}, {Hex: "00"}}}
	reg := neg
	// The catalog starts with its entry count, 6: an unknown ReadCellCapV1 version.
	reg.ID, reg.Rules, reg.Comment = "hiverelay/negative/catalog-as-read-cap", []string{"HR-CENC-10"}, "test vector: HR-CENC-10"
	reg.Recipe = &vectorset.Recipe{Parts: []vectorset.Part{{File: "registry/catalog.cenc"}}}
	s := vecgen.Generator{Spec: hivespec.Spec,
		Generate: func(vecgen.Options) ([]vecgen.Vector, error) { return []vecgen.Vector{pos, neg, reg}, nil },
		Extra: func() (map[string][]byte, map[string][]byte, error) {
			return map[string][]byte{"registry/catalog.cenc": catalog}, nil, nil
		},
	}
	out, err := vecgen.Generate([]vecgen.Generator{s}, vecgen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if out.Summary[0].Recipes != 2 || out.Summary[0].Negative != 2 {
		t.Fatalf("summary %+v", out.Summary[0])
	}
}

func TestProfileTheReferenceDoesNotClaim(t *testing.T) {
	v := laceVector("lace/positive/seed-blob-mark-009", "positive/seed-blob-mark-009.lr", vectorset.Accept, []byte(seedBlob), "LACE-VEC-01")
	v.Args = json.RawMessage(`{"mark":"009"}`)
	v.Profiles = []string{lacespec.Profile009}
	var log bytes.Buffer
	if _, err := vecgen.Generate([]vecgen.Generator{suiteOf(v)}, vecgen.Options{Progress: &log}); err != nil {
		t.Fatal(err)
	}
	if want := "lace/positive/seed-blob-mark-009: not checked against the reference: it needs profile lace-009"; !strings.Contains(log.String(), want) {
		t.Fatalf("log %q lacks %q", log.String(), want)
	}
	// Without the profile the reference answers unsupported, which fails.
	v.Profiles = nil
	if _, err := vecgen.Generate([]vecgen.Generator{suiteOf(v)}, vecgen.Options{}); err == nil || !strings.Contains(err.Error(), "unsupported") {
		t.Fatalf("err = %v, want the reference's unsupported answer", err)
	}
	// Nothing can fill Want fields of a vector the reference cannot check.
	v.Profiles = []string{lacespec.Profile009}
	v.Want = []string{"hash"}
	if _, err := vecgen.Generate([]vecgen.Generator{suiteOf(v)}, vecgen.Options{}); err == nil || !strings.Contains(err.Error(), "Want") {
		t.Fatalf("err = %v, want a Want error", err)
	}
}

func TestCommentNamesRule(t *testing.T) {
	for _, c := range []struct {
		comment, rule string
		want          bool
	}{
		{"the trailer bytes are read as a header whose bit 0 is set: INVALID, LT-OPT-02", "LT-OPT-02", true},
		{"LT-OPT-02 first", "LT-OPT-02", true},
		{"(LT-OPT-02)", "LT-OPT-02", true},
		{"LT-OPT-021 is another rule", "LT-OPT-02", false},
		{"XLT-OPT-02", "LT-OPT-02", false},
		{"LT-OPT-0", "LT-OPT-02", false},
		{"LT-OPT-021, then LT-OPT-02", "LT-OPT-02", true},
		{"no rule at all", "LT-OPT-02", false},
	} {
		if got := vecgen.CommentNamesRule(c.comment, c.rule); got != c.want {
			t.Errorf("CommentNamesRule(%q, %s) = %v", c.comment, c.rule, got)
		}
	}
	r, _ := allspecs.Set().Rule("LACE-BLOB-03")
	if got, want := vecgen.ReportedUnder(allspecs.Set().Rule, "a leading zero", "LACE-BLOB-03"), "a leading zero: reported under LACE-BLOB-03: "+strings.TrimSuffix(r.Text, "."); got != want || r.Text == "" {
		t.Errorf("ReportedUnder: %q, want %q", got, want)
	}
	if got := vecgen.ReportedUnder(allspecs.Set().Rule, "a leading zero (LACE-BLOB-03)", "LACE-BLOB-03"); got != "a leading zero (LACE-BLOB-03)" {
		t.Errorf("ReportedUnder of a comment naming the rule: %q", got)
	}
}

// TestCommittedNegativesNameTheirRule: every committed rejected vector's
// comment names the rule it is reported under (its first rule), so that a
// report line's comment explains the rule beside it.
func TestCommittedNegativesNameTheirRule(t *testing.T) {
	n := 0
	for _, suite := range []string{"lace", "hiverelay", "libtracer"} {
		ix, err := vectorset.Load("../../vectors", suite)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range ix.Vectors {
			if v.Expect != vectorset.Reject {
				continue
			}
			n++
			if !vecgen.CommentNamesRule(v.Comment, v.Rules[0]) {
				t.Errorf("%s: the comment %q does not name %s, the rule it is reported under", v.ID, v.Comment, v.Rules[0])
			}
		}
	}
	if n < 2000 {
		t.Errorf("only %d rejected vectors", n)
	}
}
