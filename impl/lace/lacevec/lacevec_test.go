package lacevec

import (
	"bytes"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/threespec/conformance/impl/lace"
	"github.com/threespec/conformance/impl/lace/lacespec"
	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/impl/spec"
	"github.com/threespec/conformance/internal/vecgen"
	"github.com/threespec/conformance/reference"
	"github.com/threespec/conformance/vectorset"

	"github.com/threespec/conformance/specs"
)

func generated(t testing.TB) []vecgen.Vector {
	t.Helper()
	vs, err := generate(vecgen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return vs
}

// TestSeedMatchesSpec checks the canonical records against the bytes
// Lace-010 prints (specs/lace-010-records.txt), and that the generator's own builder lays out exactly those bytes, so that
// the hash texts it computes are the printed ones.
func TestSeedMatchesSpec(t *testing.T) {
	spec := specs.Text(lace.TextFile)
	for _, c := range []struct {
		name, text, hash, marker string
		model                    record
	}{
		{"blob", seedBlobText, seedBlobHash, "Blob:\n\n", seedBlob()},
		{"plex", seedPlexText, seedPlexHash, "Plex:\n\n", seedPlex()},
		{"seal", seedSealText, seedSealHash, "Seal over that exact Plex:\n\n", seedSeal()},
	} {
		if got := c.model.bytes(); string(got) != c.text {
			t.Errorf("%s: the builder lays out\n%q\nwant\n%q", c.name, got, c.text)
		}
		if got := c.model.hash(); got != c.hash {
			t.Errorf("%s: the builder computes %s, the spec prints %s", c.name, got, c.hash)
		}
		k := bytes.Index(spec, []byte("A canonical vector covers all three record forms"))
		if k < 0 {
			t.Fatal("the spec has no canonical vector section")
		}
		i := bytes.Index(spec[k:], []byte(c.marker))
		if i < 0 {
			t.Fatalf("%s: the spec has no %q in its canonical vector section", c.name, c.marker)
		}
		rest := spec[k+i+len(c.marker):]
		if j := bytes.Index(rest, hello); j < 0 || string(rest[:j+len(hello)]) != c.text {
			t.Errorf("%s: the spec prints other bytes", c.name)
		}
	}
	if !bytes.Contains(spec, []byte("known-answer Mark "+kaMark+" and")) {
		t.Error("the spec does not quote the known-answer Mark kaMark")
	}
}

// TestSizeMaxima checks the recipes against the sizes Lace-010 states
// ("Maximum H3 record size is bounded"), counting their parts unexpanded.
func TestSizeMaxima(t *testing.T) {
	want := map[string]int64{
		"lace/positive/blob-32mib":        33554510,
		"lace/negative/blob-32mib-plus-1": 33554511,
		"lace/positive/plex-max-size":     33620613,
		"lace/positive/seal-max-size":     33620814,
	}
	for _, v := range generated(t) {
		n, ok := want[v.ID]
		if !ok {
			continue
		}
		delete(want, v.ID)
		var size int64
		for _, p := range v.Recipe.Parts {
			switch {
			case p.Hex != "":
				size += int64(len(p.Hex) / 2)
			case p.Repeat != nil:
				size += int64(len(p.Repeat.Hex)/2) * p.Repeat.Count
			default:
				t.Fatalf("%s: unexpected part %+v", v.ID, p)
			}
		}
		if size != n {
			t.Errorf("%s expands to %d bytes, the spec says %d", v.ID, size, n)
		}
	}
	if len(want) > 0 {
		t.Errorf("recipes not generated: %v", want)
	}
}

// Rules the reference rejects with but no input can make it report, each
// with the reason. TestRejectingRulesCovered fails when one of them gains a
// vector (the entry is stale) as when another rule has none.
var notByteTestable = map[string]string{
	"LACE-CTOR-01": "reported only under fault injection (a careless constructor refusing the empty specification); construct-empty-spec shows the duty",
	"LACE-CTOR-02": "reported only under fault injection (a careless constructor refusing data without fields); construct-only-data shows the duty",
	"LACE-LINK-02": "ParseLink's verdict; a malformed link never rejects a record (LACE-LINK-10) and convention consumers report it as LACE-LINK-15 (cited second in chunks-link-empty-data)",
	"LACE-LINK-03": "as LACE-LINK-02 (cited second in chunks-link-no-target, dir-page-link-no-target)",
	"LACE-LINK-04": "as LACE-LINK-02 (cited second in chunks-link-bad-type, dir-file-link-bad-target)",
	"LACE-DIR-10":  "a name is a prefix of an NFC field value ending before a space, so it is NFC whenever its record is valid (non-NFC values are LACE-FIELD-07)",
	"LACE-DIR-13":  "a control byte in a name is a control byte in its field value, rejected as LACE-FIELD-09/10 before any convention check",
	"LACE-DIR-31":  "a cycle needs a record whose hash text occurs in its own bytes (a BLAKE3 preimage): records in a stream are keyed by their own hash",
}

// rejectingRules lists the rule IDs the Lace reference can reject with: every
// rule constant used in the non-test sources of impl/lace and
// impl/lace/convention, outside rules.go and outside the arguments of
// rules.Enforced (which consult construction rules). It reads tokens, so
// comments do not count.
func rejectingRules(t *testing.T) map[string][]string {
	t.Helper()
	root := filepath.Join("..", "..", "..", "impl", "lace")
	decl := regexp.MustCompile(`(Rule\w+)\s+rules\.ID = "(LACE-[A-Z]+-\d\d)"`)
	src, err := os.ReadFile(filepath.Join(root, "rules.go"))
	if err != nil {
		t.Fatal(err)
	}
	idOf := map[string]string{}
	for _, m := range decl.FindAllStringSubmatch(string(src), -1) {
		idOf[m[1]] = m[2]
	}
	if len(idOf) != len(lace.Catalog()) {
		t.Fatalf("read %d rule constants from rules.go, the catalog has %d", len(idOf), len(lace.Catalog()))
	}
	files, _ := filepath.Glob(filepath.Join(root, "*.go"))
	conv, _ := filepath.Glob(filepath.Join(root, "convention", "*.go"))
	used := map[string][]string{}
	for _, f := range append(files, conv...) {
		if strings.HasSuffix(f, "_test.go") || filepath.Base(f) == "rules.go" || filepath.Base(f) == "readings.go" {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var s scanner.Scanner
		s.Init(token.NewFileSet().AddFile(f, -1, len(b)), b, nil, 0)
		depth, enforced := 0, -1 // paren depth; depth inside an Enforced( call (c.Enforced, p.c.Enforced) or -1
		prev := ""
		for {
			_, tok, lit := s.Scan()
			if tok == token.EOF {
				break
			}
			switch tok {
			case token.LPAREN:
				depth++
				if prev == "Enforced" && enforced < 0 {
					enforced = depth
				}
			case token.RPAREN:
				if depth == enforced {
					enforced = -1
				}
				depth--
			case token.IDENT:
				if id, ok := idOf[lit]; ok && enforced < 0 {
					used[id] = append(used[id], filepath.Base(f))
				}
			}
			prev = lit
		}
	}
	return used
}

// TestRejectingRulesCovered fails when a rule the reference rejects with has
// no negative vector that it rejects (its first rule), and prints them.
func TestRejectingRulesCovered(t *testing.T) {
	first := map[string]bool{}
	for _, v := range generated(t) {
		if v.Expect == vectorset.Reject {
			first[v.Rules[0]] = true
		}
	}
	var missing []string
	used := rejectingRules(t)
	for id, where := range used {
		reason, exempt := notByteTestable[id]
		switch {
		case first[id] && exempt:
			t.Errorf("%s has a negative vector now: drop it from notByteTestable (%s)", id, reason)
		case !first[id] && !exempt:
			slices.Sort(where)
			missing = append(missing, id+" ("+strings.Join(slices.Compact(where), ", ")+")")
		}
	}
	for id := range notByteTestable {
		if _, ok := used[id]; !ok {
			t.Errorf("notByteTestable names %s, which the reference never rejects with", id)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("%d rules the reference rejects with have no negative vector rejected by them:\n  %s", len(missing), strings.Join(missing, "\n  "))
	}
	t.Logf("%d rules the reference rejects with; %d without a negative vector, each for its stated reason", len(used), len(notByteTestable))
}

// TestDeterministic generates twice and compares every vector.
func TestDeterministic(t *testing.T) {
	a, b := generated(t), generated(t)
	if len(a) != len(b) {
		t.Fatalf("%d vectors, then %d", len(a), len(b))
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.ID != y.ID || !bytes.Equal(x.Data, y.Data) || !bytes.Equal(x.Result, y.Result) || strings.Join(x.Rules, " ") != strings.Join(y.Rules, " ") {
			t.Errorf("vector %d differs between two generations: %s / %s", i, x.ID, y.ID)
		}
	}
}

// maxMutants bounds the mutation family of one positive in a default generation.
const maxMutants = 45

// TestMutationFamilies checks that every positive record vector has a
// bounded family, derived from an existing positive, with unique names.
func TestMutationFamilies(t *testing.T) {
	vs := generated(t)
	ids := map[string]vecgen.Vector{}
	for _, v := range vs {
		if _, dup := ids[v.ID]; dup {
			t.Errorf("two vectors named %s", v.ID)
		}
		ids[v.ID] = v
	}
	family := map[string]int{}
	for _, v := range vs {
		if v.DerivedFrom == "" {
			continue
		}
		p, ok := ids[v.DerivedFrom]
		if !ok || p.Expect != vectorset.Accept || p.Op != lacespec.OpRecord {
			t.Errorf("%s is derived from %q, no positive record vector", v.ID, v.DerivedFrom)
		}
		family[v.DerivedFrom]++
	}
	for _, v := range vs {
		mutable := v.Expect == vectorset.Accept && v.Op == lacespec.OpRecord && v.Recipe == nil &&
			v.DerivedFrom == "" && !slices.Contains(v.Profiles, lacespec.Profile009)
		if mutable && family[v.ID] == 0 {
			t.Errorf("positive %s has no mutations", v.ID)
		}
	}
	for id, n := range family {
		if n > maxMutants {
			t.Errorf("%s has %d mutations, more than %d", id, n, maxMutants)
		}
	}
}

// BenchmarkGenerate measures the suite generator alone (the engine's
// reference check and layout come on top; docs/DECISIONS.md: all suites under 5 s).
func BenchmarkGenerate(b *testing.B) {
	for b.Loop() {
		if _, err := generate(vecgen.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSuite measures generation with the engine: every vector checked
// against the reference, the index and manifest laid out.
func BenchmarkSuite(b *testing.B) {
	for b.Loop() {
		if _, err := vecgen.Generate([]vecgen.Generator{Generator}, vecgen.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestModels checks the file and directory models against hand-written
// answers: assembled bytes, link depth and uses, listing paths.
func TestModels(t *testing.T) {
	two := chunkFile(blobFile("abc"), blobFile("defgh"))
	nested := chunkFile(two, blobFile("ij"))
	if got := string(nested.bytes()); got != "abcdefghij" {
		t.Errorf("nested file assembles %q", got)
	}
	if d, n := depth(nested), uses(nested); d != 2 || n != 4 {
		t.Errorf("nested file: depth %d, uses %d; want 2 and 4", d, n)
	}
	if got := len(records(chunkFile(two, two))); got != 4 {
		t.Errorf("a node over one shared subtree holds %d distinct records, want 4", got)
	}
	node := two.rec()
	want := []string{"Chunk+Link: 0..3 " + blobR([]byte("abc")).hash(), "Chunk+Link: 3..8 " + blobR([]byte("defgh")).hash(), "Kind: chunks"}
	if strings.Join(node.fields, "\n") != strings.Join(want, "\n") || len(node.data) != 0 {
		t.Errorf("chunk node fields %q", node.fields)
	}

	f := blobFile("x")
	docs := &dir{files: []dirFile{{"readme.md", f}}}
	shared := &dir{files: []dirFile{{"f", f}}, children: []dirChild{{"sub", docs}}}
	for _, c := range []struct {
		d     *dir
		paths string
	}{
		{&dir{}, ""},
		{&dir{files: []dirFile{{"b", f}, {"empty", f}}, children: []dirChild{{"a", &dir{}}, {"docs", docs}}}, "a b docs docs/readme.md empty"},
		{&dir{children: []dirChild{{"x", shared}, {"y", shared}}}, "x x/f x/sub x/sub/readme.md y y/f y/sub y/sub/readme.md"},
		{&dir{files: []dirFile{{"m", f}}, pages: []*dir{{files: []dirFile{{"z", f}}}, {files: []dirFile{{"a", f}}}}}, "a m z"},
		{&dir{files: []dirFile{{" lead", f}, {"trail ", f}}, children: []dirChild{{" sp ", docs}}}, "| lead| sp | sp /readme.md|trail "},
	} {
		var paths []string
		for _, e := range dirResult(c.d)["entries"].([]entry) {
			paths = append(paths, e.Path)
		}
		sep := " "
		if strings.HasPrefix(c.paths, "|") {
			sep, c.paths = "|", c.paths[1:]
		}
		if got := strings.Join(paths, sep); got != c.paths {
			t.Errorf("listing %q, want %q", got, c.paths)
		}
	}
}

// TestMutationRules checks every mutation operator's stated rule against
// the rule the reference cites (checkMutant, which stops the generation
// otherwise): over the positives of a default and a large generation, and
// over positives made here to reach the branches of the rule-choice
// functions that no positive of the suite reaches. The rules these
// mutations must state are written by hand from Lace-010 and docs/lace.md.
func TestMutationRules(t *testing.T) {
	t.Run("large", func(t *testing.T) {
		if testing.Short() {
			t.Skip("the large family is about twice the default one")
		}
		if err := families(vecgen.Options{Large: true}).mutations(); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("branches", func(t *testing.T) {
		g := &gen{}
		nine := []byte("123456789") // Data-Length: 9, whose last digit flips to 0
		f512 := make([]string, maxFields)
		for i := range f512 {
			f512[i] = "F: " + strconv.Itoa(i)
		}
		g.accept("blob-9", blobR(nine), nil, nil, "")
		g.accept("plex-9-colon-in-value", plexR(nine, "Note: a:b"), nil, nil, "")
		g.acceptMark("seal-9-two-names", markStandin, signer7.seal(plexR(nine, "A: 1", "B: 2")), nil, nil, "")
		g.acceptMark("seal-seed-plex", markStandin, signer7.seal(seedPlex()), nil, nil, "")
		g.acceptMark("seal-512-fields", markStandin, signer7.seal(plexR(nil, f512...)), nil, nil, "")
		g.acceptMark("seal-data-lf", markStandin, signer7.seal(plexR([]byte("\nx"), "A: 1")), nil, nil, "")
		if err := g.mutations(); err != nil {
			t.Fatal(err)
		}
		want := map[string]rules.ID{
			// A smaller Data-Length: the innermost digest no longer matches.
			"blob-9--flip-data-length-digit":                lace.RuleGlyphDigestMatch,
			"plex-9-colon-in-value--flip-data-length-digit": lace.RuleGlyphEmbedded,
			"seal-9-two-names--flip-data-length-digit":      lace.RuleGlyphEmbedded,
			// Note; a:b and Note:<TAB>a:b hold a ':' but no ": ".
			"plex-9-colon-in-value--flip-separator-colon": lace.RuleFieldOneSpace,
			"plex-9-colon-in-value--flip-separator-space": lace.RuleFieldOneSpace,
			// A Seal's Plex with a decrease, a valid change, 513 fields.
			"seal-9-two-names--swap-fields-1-2":    lace.RulePlexOrder,
			"seal-9-two-names--duplicate-field-1":  lace.RuleSealVerify,
			"seal-9-two-names--one-more-data-byte": lace.RuleSealVerify,
			"seal-seed-plex--swap-fields-1-2":      lace.RuleSealVerify,
			"seal-512-fields--duplicate-field-1":   lace.RulePlexMaxFields,
			// Empty data ends the input where the blank line belongs; data
			// starting with LF lends it as the blank line.
			"seal-512-fields--no-blank-line": lace.RuleStreamTruncated,
			"seal-data-lf--no-blank-line":    lace.RuleBlobExactData,
		}
		for _, v := range g.vecs {
			rule, ok := want[v.name]
			if !ok {
				continue
			}
			delete(want, v.name)
			if v.ok || len(v.rules) != 1 || v.rules[0] != rule {
				t.Errorf("%s: ok %v, rules %v; want rejected by %s", v.name, v.ok, v.rules, rule)
			}
		}
		for name := range want {
			t.Errorf("no mutation %s", name)
		}
	})
	t.Run("wrong rule stops the generation", func(t *testing.T) {
		ref := reference.For(lacespec.Spec)
		r := seedBlob()
		for _, m := range mutants(r, r.bytes(), markNone, false) {
			if m.name != "append-lf" {
				continue
			}
			m.rule = lace.RuleBlobExactData
			err := checkMutant(ref, vec{name: "seed-blob--append-lf", op: lacespec.OpRecord, in: m.in}, m)
			if err == nil || !strings.Contains(err.Error(), "seed-blob--append-lf") || !strings.Contains(err.Error(), "meant to break LACE-BLOB-04") ||
				!strings.Contains(err.Error(), "cites LACE-GLYPH-08") {
				t.Errorf("append-lf stated as LACE-BLOB-04: %v", err)
			}
			return
		}
		t.Error("the seed Blob has no append-lf mutation")
	})
}

// TestCheckOrder: Lace names no codes, so every negative expects any code
// (the empty code), which is what the spec's check order gives, and lists
// no acceptable codes; a code on a Lace vector would be refused
// (docs/VECTORS.md, "Check order").
func TestCheckOrder(t *testing.T) {
	t.Parallel()
	n, vs := 0, generated(t)
	for i := range vs {
		v := &vs[i]
		if v.Expect != vectorset.Reject {
			continue
		}
		n++
		codes, err := lacespec.Spec.CheckOrder(v.Op, v.Args, nil, v.Readings)
		if err != nil || !slices.Equal(codes, []string{spec.AnyCode}) || v.Code != "" || len(v.AcceptableCodes) > 0 {
			t.Errorf("%s: code %q, acceptable %v; the check order gives %q, %v", v.ID, v.Code, v.AcceptableCodes, codes, err)
		}
	}
	if n < 1000 {
		t.Errorf("only %d negatives checked", n)
	}
}
