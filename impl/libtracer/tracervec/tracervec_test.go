package tracervec

import (
	"bytes"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/threespec/conformance/impl/libtracer/tracerspec"
	"github.com/threespec/conformance/internal/allspecs"
	"github.com/threespec/conformance/internal/vecgen"
	"github.com/threespec/conformance/reference"
	"github.com/threespec/conformance/vectorset"
)

func vecgenOptions() vecgen.Options { return vecgen.Options{} }

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func diffResult(want, got []byte) string {
	d, err := vectorset.ResultDiff(want, got)
	if err != nil {
		return err.Error()
	}
	return d
}

// TestSuiteAgainstTheReference runs the engine on the suite: every vector is
// checked against the reference (accepted ones with the generator's
// result, rejected ones by the rule they name).
func TestSuiteAgainstTheReference(t *testing.T) {
	out, err := vecgen.Generate([]vecgen.Generator{Generator}, vecgen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := out.Summary[0]
	if s.Positive < 250 || s.Negative < 700 || s.Recipes < 10 {
		t.Errorf("suite is smaller than expected: %+v", s)
	}
}

// TestLargeFamilies: Options.Large gives every positive the full family,
// and every mutation is still classified alike by the model and the
// reference.
func TestLargeFamilies(t *testing.T) {
	if testing.Short() {
		t.Skip("large families: a few seconds")
	}
	out, err := vecgen.Generate([]vecgen.Generator{Generator}, vecgen.Options{Large: true})
	if err != nil {
		t.Fatal(err)
	}
	small, _ := generate(vecgen.Options{})
	if n := out.Summary[0].Positive + out.Summary[0].Negative; n <= len(small) {
		t.Errorf("the large set has %d vectors, the default one %d", n, len(small))
	}
}

// TestDeterministic: two generations give the same vectors.
func TestDeterministic(t *testing.T) {
	a, err := generate(vecgen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := generate(vecgen.Options{})
	if len(a) != len(b) {
		t.Fatalf("%d then %d vectors", len(a), len(b))
	}
	for i := range a {
		x, _ := json.Marshal(a[i].Vector)
		y, _ := json.Marshal(b[i].Vector)
		if !bytes.Equal(x, y) || !bytes.Equal(a[i].Data, b[i].Data) {
			t.Fatalf("vector %d differs: %s / %s", i, x, y)
		}
	}
}

// notByteTestable are the rules impl/libtracer rejects with that no
// protocol operation reaches, each with the reason.
var notByteTestable = map[string]string{
	"LT-FRAME-05": "FrameWriter (streaming send) refuses a payload longer or shorter than its header declares; no testee operation writes a stream",
	"LT-LIFE-01":  "Attach refuses bytes that are not at rest; the trailer lifecycle is no testee operation",
	"LT-LIFE-03":  "Strip refuses an input of more than one TLV; the trailer lifecycle is no testee operation",
	"LT-LEN-03":   "an encoder refuses a payload over 4 GiB - 1 bytes: no vector can carry one",
}

// onlyUnderAlternative lists the rules the reference rejects with only
// when it takes a reading's non-default alternative: their negatives are
// that alternative's branch vectors, which vecgen adds (readings.go).
var onlyUnderAlternative = map[string]string{
	"LT-CTX-04": "rejects only under LT-READ-23 one-per-datagram (bytes after a datagram's one TLV): the --one-per-datagram branch vectors",
}

// rejectingRules lists the rules impl/libtracer rejects with: the first
// argument of every rules.Fail and rules.FailLine call in its non-test
// sources, resolved through the constants of rules.go.
func rejectingRules(t *testing.T) map[string]bool {
	t.Helper()
	dir := filepath.Join("..", "..", "..", "impl", "libtracer")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	ids := map[string]string{} // constant name -> rule ID
	var used []string          // constant names passed to Fail
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.ValueSpec:
				for i, id := range x.Names {
					if i < len(x.Values) {
						if lit, ok := x.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
							if v, err := strconv.Unquote(lit.Value); err == nil && strings.HasPrefix(v, "LT-") {
								ids[id.Name] = v
							}
						}
					}
				}
			case *ast.CallExpr:
				sel, ok := x.Fun.(*ast.SelectorExpr)
				if ok && (sel.Sel.Name == "Fail" || sel.Sel.Name == "FailLine") && len(x.Args) > 0 {
					if arg, ok := x.Args[0].(*ast.Ident); ok {
						used = append(used, arg.Name)
					}
				}
			}
			return true
		})
	}
	out := map[string]bool{}
	for _, name := range used {
		id, ok := ids[name]
		if !ok {
			t.Fatalf("rules.Fail is given %s, which is no rule constant of rules.go", name)
		}
		out[id] = true
	}
	if len(out) < 20 {
		t.Fatalf("found only %d rejecting rules: the scan is broken", len(out))
	}
	return out
}

// TestEveryRejectingRuleHasANegative: every rule the reference rejects with
// has a negative vector that names it first, unless no protocol operation
// can reach it (notByteTestable, each with its reason).
func TestEveryRejectingRuleHasANegative(t *testing.T) {
	vecs, err := generate(vecgen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	covered := map[string]int{}
	for _, v := range vecs {
		if v.Expect == vectorset.Reject {
			covered[v.Rules[0]]++
		}
	}
	var uncovered []string
	for id := range rejectingRules(t) {
		_, exempt := notByteTestable[id]
		if _, alt := onlyUnderAlternative[id]; alt {
			if covered[id] > 0 {
				t.Errorf("%s has %d default negative vectors: remove it from onlyUnderAlternative", id, covered[id])
			}
			continue
		}
		switch {
		case exempt && covered[id] > 0:
			t.Errorf("%s has %d negative vectors: remove it from notByteTestable", id, covered[id])
		case !exempt && covered[id] == 0:
			uncovered = append(uncovered, id)
		}
	}
	for id := range notByteTestable {
		if !rejectingRules(t)[id] {
			t.Errorf("notByteTestable names %s, which impl/libtracer does not reject with", id)
		}
	}
	sort.Strings(uncovered)
	if len(uncovered) > 0 {
		t.Errorf("rejecting rules without a negative vector: %s", strings.Join(uncovered, ", "))
	}
}

// TestReportModeAgrees: for every libtracer.decode vector, the model and
// the reference give the same answer, including the rule of every frame
// listed with an error in report "frames" (the vectors leave it free).
func TestReportModeAgrees(t *testing.T) {
	vecs, err := generate(vecgen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ref := reference.New(allspecs.Set())
	n := 0
	for _, v := range vecs {
		if v.Op != tracerspec.OpDecode || v.Data == nil {
			continue
		}
		var a decodeArgs
		if err := json.Unmarshal(v.Args, &a); err != nil {
			t.Fatal(err)
		}
		if why, ok := agree(ref, v.Data, a); !ok {
			t.Errorf("%s: %s", v.ID, why)
		}
		n++
	}
	if n < 500 {
		t.Errorf("only %d decode vectors compared", n)
	}
}

// TestFamilies: every decode positive of the generator's own has at least
// one mutation derived from it, and the default set stays reviewable.
func TestFamilies(t *testing.T) {
	vecs, err := generate(vecgen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	derived := map[string]int{}
	mutations := 0
	for _, v := range vecs {
		if v.DerivedFrom != "" {
			derived[v.DerivedFrom]++
		}
		if hasTag(v.Tags, "mutation") {
			mutations++
		}
	}
	for _, v := range vecs {
		if v.Op == tracerspec.OpDecode && v.Expect == vectorset.Accept && v.DerivedFrom == "" && derived[v.ID] == 0 && v.Name() != unmutatedDefaultLimit {
			t.Errorf("%s has no mutation", v.ID)
		}
	}
	if mutations < 500 || len(vecs) > 1500 {
		t.Errorf("%d mutations in %d vectors: want a family per positive, hundreds not thousands", mutations, len(vecs))
	}
}

func BenchmarkGenerate(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := generate(vecgen.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
