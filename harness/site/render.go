package site

import (
	"bytes"
	"fmt"
	"html"
	"html/template"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/threespec/conformance/harness"
)

// Build writes the site of the claims into dir (made when missing):
// index.html, spec-<suite>.html (the matrix), vectors-<suite>.html (every
// vector by rule, with what each implementation gave where it did not
// pass), impl-<slug>.html, badges/<slug>-<suite>.svg, claims/<slug>.json
// (the claims as given), style.css and filter.js.
func Build(dir string, ins []Input, opt Options) error {
	m, err := newModel(ins, opt)
	if err != nil {
		return err
	}
	for _, d := range []string{dir, filepath.Join(dir, "badges"), filepath.Join(dir, "claims")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	write := func(name string, b []byte) error { return os.WriteFile(filepath.Join(dir, name), b, 0o644) }
	for name, b := range map[string]string{"style.css": styleCSS, "filter.js": filterJS} {
		if err := write(name, []byte(b)); err != nil {
			return err
		}
	}
	page := func(name, tmpl string, data any) error {
		var b bytes.Buffer
		if err := pages.ExecuteTemplate(&b, tmpl, data); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		return write(name, b.Bytes())
	}
	if err := page("index.html", "index", m); err != nil {
		return err
	}
	for _, s := range m.Specs {
		if err := page("spec-"+s.Name+".html", "spec", specPage{m, s}); err != nil {
			return err
		}
		if err := page("vectors-"+s.Name+".html", "vectors", specPage{m, s}); err != nil {
			return err
		}
	}
	for _, im := range m.Impls {
		if err := page("impl-"+im.Slug+".html", "impl", implPage{m, im}); err != nil {
			return err
		}
		if err := write(filepath.Join("claims", im.Slug+".json"), im.In.Raw); err != nil {
			return err
		}
		for _, s := range m.Specs {
			if !slices.Contains(s.Impls, im) {
				continue
			}
			if err := write(filepath.Join("badges", im.Slug+"-"+s.Name+".svg"), badge(s.Name, im.tally(s))); err != nil {
				return err
			}
		}
	}
	return nil
}

type specPage struct {
	*model
	S *spec
}

type implPage struct {
	*model
	I *impl
}

// cell is one cell of a matrix: an implementation's verdict on a rule
// and where it drills down to.
type cell struct {
	Impl    *impl
	Verdict harness.Status
	Label   string
	Href    string
	Title   string
}

var verdictLabels = map[harness.Status]string{
	harness.Pass: "pass", harness.PassOther: "pass (other reason)", harness.Fail: "FAIL", harness.Warn: "warn", harness.XFail: "xfail",
	harness.Reading: "reading", harness.NotJudged: "not judged", harness.NotApplicable: "n/a", harness.NotRun: "not run", "": "–",
}

func (p specPage) Cells(r *rule) []cell {
	var out []cell
	for _, im := range p.S.Impls {
		v := im.verdict(r.ID)
		c := cell{Impl: im, Verdict: v, Label: verdictLabels[v], Href: "vectors-" + p.S.Name + ".html#r-" + r.ID}
		if c.Label == "" {
			c.Label = string(v)
		}
		if im.detailed(r) {
			c.Href = "impl-" + im.Slug + ".html#s-" + r.ID
		}
		if cr := im.rules[r.ID]; cr != nil {
			c.Title = countsText(cr.Counts)
		}
		out = append(out, c)
	}
	return out
}

// Column is an implementation's column heading: its name, less the name
// of another implementation of the spec that begins it ("threespec
// reference with fault MUT-X" beside "threespec reference" is "… with
// fault MUT-X"), so that the columns of variants of one implementation
// say what differs.
func (p specPage) Column(im *impl) string {
	best := ""
	for _, o := range p.S.Impls {
		if o != im && len(o.Name) > len(best) && strings.HasPrefix(im.Name, o.Name+" ") {
			best = o.Name
		}
	}
	if best == "" {
		return im.Name
	}
	return "… " + strings.TrimPrefix(im.Name, best+" ")
}

// FailIn lists the slugs of the implementations whose verdict on r is a
// failure (the rows' data-fail, which the filters read).
func (p specPage) FailIn(r *rule) string {
	var out []string
	for _, im := range p.S.Impls {
		if failing(im.verdict(r.ID)) {
			out = append(out, im.Slug)
		}
	}
	return strings.Join(out, " ")
}

// Readings lists the readings any rule of the spec turns on.
func (p specPage) Readings() []string {
	var out []string
	for _, r := range p.S.Rules {
		for _, rd := range r.Readings {
			if !slices.Contains(out, rd) {
				out = append(out, rd)
			}
		}
	}
	slices.Sort(out)
	return out
}

// vectorRow is a vector under a rule on the vectors page: what it is and
// which implementations did not pass it.
type vectorRow struct {
	E        *harness.ClaimEntry
	Info     VectorInfo
	Readings string
	Others   []other
	Passed   int
}

type other struct {
	Impl   *impl
	Status harness.Status
	Href   string
}

func (p specPage) VectorRows(r *rule) []vectorRow {
	var out []vectorRow
	for _, id := range r.Vectors {
		row := vectorRow{E: p.vectors[id], Info: p.info[id], Readings: readingsText(p.vectors[id].Readings)}
		for _, im := range p.S.Impls {
			e := im.byID[id]
			switch {
			case e == nil:
			case e.Status == harness.Pass:
				row.Passed++
			default:
				o := other{Impl: im, Status: e.Status}
				if im.detailed(r) {
					o.Href = "impl-" + im.Slug + ".html#s-" + r.ID
				}
				row.Others = append(row.Others, o)
			}
		}
		out = append(out, row)
	}
	return out
}

// specTally is an implementation's line on its page for one spec.
type specTally struct {
	S     *spec
	T     tally
	Rules []*rule // its detailed rules
}

func (p implPage) Specs() []specTally {
	var out []specTally
	for _, s := range p.model.Specs {
		if !slices.Contains(s.Impls, p.I) {
			continue
		}
		st := specTally{S: s, T: p.I.tally(s)}
		for _, r := range s.Rules {
			if p.I.detailed(r) {
				st.Rules = append(st.Rules, r)
			}
		}
		out = append(out, st)
	}
	return out
}

// Entries are the implementation's vectors of r that did not simply pass.
func (p implPage) Entries(r *rule) []vectorRow {
	var out []vectorRow
	for _, id := range r.Vectors {
		e := p.I.byID[id]
		if e == nil || e.Status == harness.Pass || e.Status == harness.NotApplicable || e.Status == harness.OtherReading || e.Status == harness.NotRun {
			continue
		}
		info := p.info[id]
		if e.Comment != "" || e.Expected != "" {
			info = VectorInfo{Comment: e.Comment, Expected: e.Expected}
		}
		out = append(out, vectorRow{E: e, Info: info, Readings: readingsText(e.Readings)})
	}
	return out
}

func (p implPage) Verdict(r *rule) harness.Status { return p.I.verdict(r.ID) }

// readingsText renders readings as "ID=alternative, ..." in ID order.
func readingsText(m map[string]string) string { return pairsText(m, "=", ", ") }

// pairsText renders a map as its pairs in key order: key, between, value,
// the pairs joined by sep.
func pairsText(m map[string]string, between, sep string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, k+between+m[k])
	}
	return strings.Join(parts, sep)
}

func countsText(c map[harness.Status]int) string {
	var parts []string
	for _, s := range []harness.Status{harness.Pass, harness.PassOther, harness.Fail, harness.Warn, harness.XFail, harness.XPass,
		harness.Reading, harness.NotJudged, harness.Error, harness.NotApplicable, harness.OtherReading, harness.NotRun} {
		if n := c[s]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, s))
		}
	}
	return strings.Join(parts, ", ")
}

var pages = template.Must(template.New("site").Funcs(template.FuncMap{
	"verdictClass": func(v harness.Status) string { return "v-" + string(v) },
	"label":        func(v harness.Status) string { return verdictLabels[v] },
	"join":         strings.Join,
	"setHashes":    func(m map[string]string) string { return pairsText(m, " ", "; ") },
	"counts":       countsText,
	"badgeFile":    func(im *impl, s *spec) string { return "badges/" + im.Slug + "-" + s.Name + ".svg" },
	"has":          func(s *spec, im *impl) bool { return slices.Contains(s.Impls, im) },
	"data":         func(m map[string]string) string { return readingsText(m) },
}).Parse(templates))

// Markdown writes a summary of the claims for a CI step summary: a table
// of every implementation and spec with its rules passed and failing and
// its vectors' counts.
func Markdown(w io.Writer, ins []Input, opt Options) error {
	m, err := newModel(ins, opt)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "## %s\n\n", m.Title)
	fmt.Fprintln(w, "| implementation | spec | MUST rules passed | rules failing | vectors passed | vectors failed | run |")
	fmt.Fprintln(w, "| --- | --- | ---: | ---: | ---: | ---: | --- |")
	for _, im := range m.Impls {
		for _, s := range m.Specs {
			if !slices.Contains(s.Impls, im) {
				continue
			}
			t := im.tally(s)
			verdict := "pass"
			if im.In.Claim.ExitCode != 0 {
				verdict = fmt.Sprintf("exit status %d", im.In.Claim.ExitCode)
			}
			failed := t.Vectors[harness.Fail] + t.Vectors[harness.XPass] + t.Vectors[harness.Reading]
			passed := fmt.Sprint(t.Vectors[harness.Pass])
			if n := t.Vectors[harness.PassOther]; n > 0 {
				passed += fmt.Sprintf(" (+%d other reason)", n)
			}
			fmt.Fprintf(w, "| %s | %s | %d / %d | %d | %s | %d | %s |\n", mdEscape(im.Label), s.Name, t.MustPassed, t.MustRules, t.Failing, passed, failed, verdict)
		}
	}
	_, err = fmt.Fprintln(w)
	return err
}

// mdEscape keeps a label from breaking a Markdown table cell.
func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "<", "&lt;", ">", "&gt;").Replace(s)
}

// badge is an SVG badge of an implementation's result on a spec: the
// spec's name, then its MUST rules passed of those tested; green when no
// rule fails, red when one does, grey when none was tested.
func badge(specName string, t tally) []byte {
	label := html.EscapeString(specName)
	tested := t.Passed + t.Failing
	right := fmt.Sprintf("%d/%d rules", t.Passed, tested)
	color := "#4c1"
	switch {
	case tested == 0:
		right, color = "not tested", "#9f9f9f"
	case t.Failing > 0:
		color = "#e05d44"
	}
	lw, rw := 7*utf8.RuneCountInString(specName)+12, 7*len(right)+12
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="20" role="img" aria-label="%s: %s">`, lw+rw, label, right)
	fmt.Fprintf(&b, `<title>%s: %s</title>`, label, right)
	fmt.Fprintf(&b, `<rect width="%d" height="20" fill="#555"/><rect x="%d" width="%d" height="20" fill="%s"/>`, lw, lw, rw, color)
	fmt.Fprintf(&b, `<g fill="#fff" text-anchor="middle" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">`)
	fmt.Fprintf(&b, `<text x="%d" y="14">%s</text><text x="%d" y="14">%s</text></g></svg>`+"\n", lw/2, label, lw+rw/2, right)
	return b.Bytes()
}
