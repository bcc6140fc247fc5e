package site

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/threespec/conformance/harness"
	"github.com/threespec/conformance/testee"
)

// claim makes a claim of one suite, "alpha", from its vectors' outcomes:
// entries of (vector name, rules, status), the rule verdicts derived as
// conform derives them.
func claim(t *testing.T, name string, vs []harness.ClaimEntry) Input {
	t.Helper()
	c := &harness.Claim{Format: harness.ClaimFormat, Header: &harness.Header{
		SetHashes: map[string]string{"alpha": strings.Repeat("a", 64)}, Command: []string{name},
		Implementation: &testee.ImplementationInfo{Name: name, Version: "1.0", Language: "Go"},
	}}
	counts := map[string]map[harness.Status]int{}
	for i := range vs {
		v := &vs[i]
		v.Suite, v.Op, v.Level = "alpha", "alpha.op", "MUST"
		if v.Status != harness.Pass {
			v.Expected, v.Got, v.Comment = "rejection by rule "+v.Rules[0], "acceptance: {}", "the comment of "+v.ID
		}
		for _, r := range v.Rules {
			if counts[r] == nil {
				counts[r] = map[harness.Status]int{}
			}
			counts[r][v.Status]++
		}
	}
	c.Vectors = vs
	for _, r := range slices.Sorted(func(yield func(string) bool) {
		for r := range counts {
			if !yield(r) {
				return
			}
		}
	}) {
		verdict := harness.Pass
		switch {
		case counts[r][harness.Fail] > 0:
			verdict = harness.Fail
		case counts[r][harness.Pass] == 0 && counts[r][harness.PassOther] > 0:
			verdict = harness.PassOther
		case counts[r][harness.Pass] == 0:
			verdict = harness.NotApplicable
		}
		c.Rules = append(c.Rules, harness.ClaimRule{Rule: r, Spec: "alpha", Section: "Section of " + r, Level: "MUST", Text: "The text of " + r + " <b>&</b>", Verdict: verdict, Counts: counts[r]})
	}
	var b bytes.Buffer
	if err := harness.WriteClaim(&b, c); err != nil {
		t.Fatal(err)
	}
	return Input{File: name + ".json", Raw: b.Bytes(), Claim: c}
}

func entry(id string, st harness.Status, rules ...string) harness.ClaimEntry {
	return harness.ClaimEntry{ID: "alpha/negative/" + id, Rules: rules, Status: st, AnswerDigest: strings.Repeat("d", 64)}
}

// page is a parsed page: its elements with their attributes and text.
type element struct {
	Name  string
	Attr  map[string]string
	Text  string
	Inner []*element
}

// parse reads a page as XML (the site writes well-formed XHTML-compatible
// HTML), strictly.
func parse(t *testing.T, file string) *element {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(bytes.NewReader(b))
	root := &element{Name: "#root"}
	stack := []*element{root}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s is not well-formed: %v", file, err)
		}
		top := stack[len(stack)-1]
		switch tk := tok.(type) {
		case xml.StartElement:
			e := &element{Name: tk.Name.Local, Attr: map[string]string{}}
			for _, a := range tk.Attr {
				e.Attr[a.Name.Local] = a.Value
			}
			top.Inner = append(top.Inner, e)
			stack = append(stack, e)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			for _, e := range stack[1:] {
				e.Text += string(tk)
			}
		}
	}
	return root
}

// all lists the elements under e (e included) for which keep is true.
func (e *element) all(keep func(*element) bool) []*element {
	var out []*element
	if keep(e) {
		out = append(out, e)
	}
	for _, c := range e.Inner {
		out = append(out, c.all(keep)...)
	}
	return out
}

func (e *element) hasClass(c string) bool { return slices.Contains(strings.Fields(e.Attr["class"]), c) }

func ids(e *element) map[string]bool {
	m := map[string]bool{}
	for _, x := range e.all(func(x *element) bool { return x.Attr["id"] != "" }) {
		m[x.Attr["id"]] = true
	}
	return m
}

// The site of two claims: every rule has its row, every cell links to an
// anchor that exists in the site, a failing cell to the failing vectors
// with what they expected and what came back, nothing links or loads
// anything outside the site, a badge per implementation and spec, the
// claims beside it as given.
func TestSiteStructure(t *testing.T) {
	ref := claim(t, "good impl", []harness.ClaimEntry{
		entry("one", harness.Pass, "A-ONE-01"), entry("two", harness.Pass, "A-ONE-02", "A-ONE-01"), entry("three", harness.Pass, "A-ONE-03"),
	})
	bad := claim(t, "bad impl", []harness.ClaimEntry{
		entry("one", harness.Fail, "A-ONE-01"), entry("two", harness.PassOther, "A-ONE-02", "A-ONE-01"), entry("three", harness.NotApplicable, "A-ONE-03"),
	})
	bad.Claim.Vectors[1].OtherReason = "the testee named rule A-ONE-09"
	dir := t.TempDir()
	if err := Build(dir, []Input{ref, bad}, Options{Vectors: map[string]VectorInfo{"alpha/negative/three": {Comment: "from the index", Expected: "acceptance"}}}); err != nil {
		t.Fatal(err)
	}
	parsed := map[string]*element{}
	files, _ := filepath.Glob(filepath.Join(dir, "*.html"))
	if len(files) != 5 { // index, spec-alpha, vectors-alpha, two implementation pages
		t.Errorf("%d pages: %v", len(files), files)
	}
	for _, f := range files {
		parsed[filepath.Base(f)] = parse(t, f)
	}
	// Nothing outside the site: every href and src names a file of it.
	for name, p := range parsed {
		for _, e := range p.all(func(e *element) bool { return e.Attr["href"] != "" || e.Attr["src"] != "" }) {
			ref := e.Attr["href"] + e.Attr["src"]
			file, anchor, _ := strings.Cut(ref, "#")
			if strings.Contains(file, ":") || strings.HasPrefix(file, "/") {
				t.Errorf("%s: %s links outside the site: %q", name, e.Name, ref)
				continue
			}
			if file == "" {
				file = name
			}
			if _, err := os.Stat(filepath.Join(dir, file)); err != nil {
				t.Errorf("%s: %s links %q, which the site lacks", name, e.Name, ref)
				continue
			}
			if anchor != "" && !ids(parsed[file])[anchor] {
				t.Errorf("%s: %s links %q, whose page has no id %q", name, e.Name, ref, anchor)
			}
		}
	}
	matrix := parsed["spec-alpha.html"]
	rows := matrix.all(func(e *element) bool { return e.Name == "tr" && e.hasClass("rule") })
	var rowIDs []string
	for _, r := range rows {
		rowIDs = append(rowIDs, r.Attr["id"])
	}
	if want := []string{"r-A-ONE-01", "r-A-ONE-02", "r-A-ONE-03"}; !slices.Equal(rowIDs, want) {
		t.Errorf("rule rows %v, want %v", rowIDs, want)
	}
	cells := map[string]*element{}
	for _, r := range rows {
		for _, c := range r.all(func(e *element) bool { return e.Name == "td" && e.hasClass("cell") }) {
			cells[r.Attr["id"]+" "+c.Attr["data-impl"]] = c
		}
	}
	for _, tt := range []struct{ key, class, href string }{
		{"r-A-ONE-01 good-impl-1-0", "v-pass", "vectors-alpha.html#r-A-ONE-01"},
		{"r-A-ONE-01 bad-impl-1-0", "v-fail", "impl-bad-impl-1-0.html#s-A-ONE-01"},
		{"r-A-ONE-02 bad-impl-1-0", "v-pass-other", "impl-bad-impl-1-0.html#s-A-ONE-02"},
		{"r-A-ONE-03 bad-impl-1-0", "v-not-applicable", "vectors-alpha.html#r-A-ONE-03"},
	} {
		c := cells[tt.key]
		if c == nil {
			t.Errorf("no cell %s", tt.key)
			continue
		}
		links := c.all(func(e *element) bool { return e.Name == "a" })
		if !c.hasClass(tt.class) || len(links) != 1 || links[0].Attr["href"] != tt.href {
			t.Errorf("cell %s: class %q, links %v; want %s to %s", tt.key, c.Attr["class"], links, tt.class, tt.href)
		}
	}
	var heads []string
	for _, th := range matrix.all(func(e *element) bool { return e.Name == "th" && e.hasClass("impl") }) {
		heads = append(heads, th.Text)
	}
	if want := []string{"good impl", "bad impl"}; !slices.Equal(heads, want) {
		t.Errorf("column headings %q, want %q", heads, want)
	}
	if r := rows[0]; r.Attr["data-fail"] != "bad-impl-1-0" || r.Attr["data-level"] != "MUST" {
		t.Errorf("row A-ONE-01 data %v", r.Attr)
	}
	// The failing cell's section: the failing vector, what it expected, what came back, the rule's text and section.
	sec := parsed["impl-bad-impl-1-0.html"].all(func(e *element) bool { return e.Attr["id"] == "s-A-ONE-01" })
	if len(sec) != 1 {
		t.Fatal("no section s-A-ONE-01 on the bad implementation's page")
	}
	for _, want := range []string{"alpha/negative/one", "expected: rejection by rule A-ONE-01", "actual: acceptance: {}", "the comment of alpha/negative/one",
		"The text of A-ONE-01 <b>&</b>", "Section: Section of A-ONE-01", "alpha/negative/two", "other reason: the testee named rule A-ONE-09"} {
		if !strings.Contains(sec[0].Text, want) {
			t.Errorf("section s-A-ONE-01 lacks %q:\n%s", want, sec[0].Text)
		}
	}
	if v := parsed["vectors-alpha.html"].all(func(e *element) bool { return e.Attr["id"] == "r-A-ONE-03" }); len(v) != 1 || !strings.Contains(v[0].Text, "from the index") {
		t.Error("the vectors page does not describe a vector from the vector sets at hand")
	}
	// Scripts and style sheets: the site's own only.
	for name, p := range parsed {
		for _, e := range p.all(func(e *element) bool { return e.Name == "script" || e.Name == "link" || e.Name == "img" }) {
			if src := e.Attr["src"] + e.Attr["href"]; src != "filter.js" && src != "style.css" && !strings.HasPrefix(src, "badges/") {
				t.Errorf("%s: %s loads %q", name, e.Name, src)
			}
		}
	}
	for _, in := range []Input{ref, bad} {
		slug := strings.ReplaceAll(strings.ReplaceAll(in.Claim.Label(), " ", "-"), ".", "-")
		b, err := os.ReadFile(filepath.Join(dir, "claims", slug+".json"))
		if err != nil || !bytes.Equal(b, in.Raw) {
			t.Errorf("claims/%s.json: %v, equal %v", slug, err, bytes.Equal(b, in.Raw))
		}
		svg := parse(t, filepath.Join(dir, "badges", slug+"-alpha.svg"))
		text := svg.all(func(e *element) bool { return e.Name == "svg" })[0].Text
		want := map[string]string{"good-impl-1-0": "3/3 rules", "bad-impl-1-0": "1/2 rules"}[slug]
		if !strings.Contains(text, want) {
			t.Errorf("badge of %s says %q, want %q", slug, text, want)
		}
	}

	var md bytes.Buffer
	if err := Markdown(&md, []Input{ref, bad}, Options{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| good impl 1.0 | alpha | 3 / 3 | 0 | 3 | 0 | pass |", "| bad impl 1.0 | alpha | 1 / 3 | 1 | 0 (+1 other reason) | 1 | pass |"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("the Markdown summary lacks %q:\n%s", want, md.String())
		}
	}
}

// A column names an implementation less the name of another that begins
// it: the variants of one implementation say what differs.
func TestColumn(t *testing.T) {
	p := specPage{S: &spec{Impls: []*impl{{Name: "ref"}, {Name: "ref with fault X"}, {Name: "refine"}, {Name: "ref with fault X and Y"}}}}
	var got []string
	for _, im := range p.S.Impls {
		got = append(got, p.Column(im))
	}
	if want := []string{"ref", "… with fault X", "refine", "… and Y"}; !slices.Equal(got, want) {
		t.Errorf("columns %q, want %q", got, want)
	}
}
