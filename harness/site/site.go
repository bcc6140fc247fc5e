// Package site builds the static results site of conformance claims
// (conform site, issue 32; docs/CONFORM.md, "conform site"): an
// implementation x rule matrix per spec with filters, each cell drilling
// down to its vectors, a page per implementation, an SVG badge per
// implementation and spec, and the claims' JSON beside them; and the
// Markdown summary of the same claims. The site is plain files that open
// from file:// with no server, no network and no outside assets: every
// page links only files of the site.
package site

import (
	"cmp"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/threespec/conformance/harness"
)

// Input is one claim given to the site: the file it was read from (for
// messages), its bytes as published (copied beside the site) and the
// claim they hold (harness.ReadClaim).
type Input struct {
	File  string
	Raw   []byte
	Claim *harness.Claim
}

// VectorInfo is what the site shows of a vector beside the claims: its
// comment and expectation (a claim keeps them for vectors that did not
// pass only). conform site fills it from the vector sets at hand when
// their set hashes are the claims'.
type VectorInfo struct {
	Comment  string
	Expected string
}

// Options configure a site.
type Options struct {
	// Title heads every page; "" selects "Conformance results".
	Title string
	// Vectors describe vectors by ID; optional.
	Vectors map[string]VectorInfo
}

// impl is one implementation of the site: one claim.
type impl struct {
	Slug  string // file-name stem: impl-<slug>.html, badges/<slug>-<suite>.svg, claims/<slug>.json
	Label string // name and version
	Name  string // the implementation's name (a matrix's column)
	In    Input
	rules map[string]*harness.ClaimRule
	byID  map[string]*harness.ClaimEntry
}

// rule is a rule row of a spec's matrix.
type rule struct {
	ID, Level, Section, Text, ProjectDefined string
	Readings                                 []string // the readings its vectors turn on
	Vectors                                  []string // its vectors' IDs, in claim order
}

// spec is one suite of the site: its rules and the implementations whose
// claims cover it.
type spec struct {
	Name      string
	SetHashes []string // the set hashes the claims name for it (one, unless they differ)
	Rules     []*rule
	Impls     []*impl
}

// model is everything the pages are made of.
type model struct {
	Title   string
	Impls   []*impl
	Specs   []*spec
	vectors map[string]*harness.ClaimEntry // one entry per vector ID, the first claim's
	info    map[string]VectorInfo
}

var unsafeSlug = regexp.MustCompile(`[^a-z0-9]+`)

// newModel joins the claims.
func newModel(ins []Input, opt Options) (*model, error) {
	if len(ins) == 0 {
		return nil, fmt.Errorf("no claims")
	}
	m := &model{Title: cmp.Or(opt.Title, "Conformance results"), vectors: map[string]*harness.ClaimEntry{}, info: opt.Vectors}
	if m.info == nil {
		m.info = map[string]VectorInfo{}
	}
	slugs := map[string]bool{}
	specs := map[string]*spec{}
	rulesOf := map[string]map[string]*rule{}
	for _, in := range ins {
		c := in.Claim
		im := &impl{Label: c.Label(), Name: c.Label(), In: in, rules: map[string]*harness.ClaimRule{}, byID: map[string]*harness.ClaimEntry{}}
		base := strings.Trim(unsafeSlug.ReplaceAllString(strings.ToLower(im.Label), "-"), "-")
		base = cmp.Or(strings.TrimRight(base[:min(len(base), 100)], "-"), "implementation")
		im.Slug = base
		for n := 2; slugs[im.Slug]; n++ {
			im.Slug = fmt.Sprintf("%s-%d", base, n)
		}
		slugs[im.Slug] = true
		if i := c.Header.Implementation; i != nil {
			im.Name = i.Name
		}
		for i := range c.Rules {
			im.rules[c.Rules[i].Rule] = &c.Rules[i]
		}
		for _, name := range c.Suites() {
			s := specs[name]
			if s == nil {
				s = &spec{Name: name}
				specs[name] = s
				rulesOf[name] = map[string]*rule{}
			}
			if h := c.Header.SetHashes[name]; !slices.Contains(s.SetHashes, h) {
				s.SetHashes = append(s.SetHashes, h)
			}
			s.Impls = append(s.Impls, im)
		}
		for i := range c.Vectors {
			e := &c.Vectors[i]
			im.byID[e.ID] = e
			if _, ok := m.vectors[e.ID]; !ok {
				m.vectors[e.ID] = e
			}
			if _, ok := m.info[e.ID]; !ok && (e.Comment != "" || e.Expected != "") {
				m.info[e.ID] = VectorInfo{Comment: e.Comment, Expected: e.Expected}
			}
			rs := rulesOf[e.Suite]
			if rs == nil {
				continue
			}
			for _, id := range e.Rules {
				r := rs[id]
				if r == nil {
					r = &rule{ID: id, Level: e.Level}
					if cr := im.rules[id]; cr != nil {
						r.Level, r.Section, r.Text, r.ProjectDefined = cr.Level, cr.Section, cr.Text, cr.ProjectDefined
					}
					rs[id] = r
				}
				if !slices.Contains(r.Vectors, e.ID) {
					r.Vectors = append(r.Vectors, e.ID)
				}
				for rd := range e.Readings {
					if !slices.Contains(r.Readings, rd) {
						r.Readings = append(r.Readings, rd)
					}
				}
			}
		}
		m.Impls = append(m.Impls, im)
	}
	for _, name := range slices.Sorted(maps.Keys(specs)) {
		s := specs[name]
		for _, id := range slices.Sorted(maps.Keys(rulesOf[name])) {
			r := rulesOf[name][id]
			slices.Sort(r.Readings)
			s.Rules = append(s.Rules, r)
		}
		m.Specs = append(m.Specs, s)
	}
	return m, nil
}

// failing reports whether a rule verdict is one the matrix counts as a
// failure: failed, answered as an undeclared reading, not judged (the
// testee failed on its vectors), warned (SHOULD) or expected to fail.
func failing(v harness.Status) bool {
	switch v {
	case harness.Fail, harness.Reading, harness.NotJudged, harness.Warn, harness.XFail:
		return true
	}
	return false
}

// verdict is the implementation's verdict on a rule ("" when its claim
// has no vector of the rule).
func (im *impl) verdict(ruleID string) harness.Status {
	if r := im.rules[ruleID]; r != nil {
		return r.Verdict
	}
	return ""
}

// detailed reports whether the implementation's page has a section for
// the rule: one of its vectors did not simply pass, apply or run.
func (im *impl) detailed(r *rule) bool {
	for _, id := range r.Vectors {
		if e := im.byID[id]; e != nil {
			switch e.Status {
			case harness.Pass, harness.NotApplicable, harness.OtherReading, harness.NotRun:
			default:
				return true
			}
		}
	}
	return false
}

// tally is an implementation's result on one spec.
type tally struct {
	Rules, Passed, Failing, NA int // rules with a vector in the claim; passed (pass or pass-other); failing; not applicable or not run
	MustRules, MustPassed      int
	Vectors                    map[harness.Status]int
}

func (im *impl) tally(s *spec) tally {
	t := tally{Vectors: map[harness.Status]int{}}
	for _, r := range s.Rules {
		v := im.verdict(r.ID)
		if v == "" {
			continue
		}
		t.Rules++
		must := r.Level == "MUST"
		if must {
			t.MustRules++
		}
		switch {
		case v == harness.Pass || v == harness.PassOther:
			t.Passed++
			if must {
				t.MustPassed++
			}
		case failing(v):
			t.Failing++
		default:
			t.NA++
		}
	}
	for _, e := range im.byID {
		if e.Suite == s.Name {
			t.Vectors[e.Status]++
		}
	}
	return t
}
