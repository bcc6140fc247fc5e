package harness

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/threespec/conformance/impl/lace/lacespec"
	"github.com/threespec/conformance/internal/allspecs"
	"github.com/threespec/conformance/testee"
	"github.com/threespec/conformance/vectorset"
)

func TestSelection(t *testing.T) {
	v := &vectorset.Vector{ID: "lace/negative/plex-field-line-129-bytes", Op: "lace.record",
		Rules: []string{"LACE-FIELD-09", "LACE-FIELD-01"}, Tags: []string{"boundary"}}
	cases := []struct {
		name string
		sel  Selection
		want bool
	}{
		{"everything", Selection{}, true},
		{"suite", Selection{Suites: []string{"hiverelay", "lace"}}, true},
		{"other suite", Selection{Suites: []string{"hiverelay"}}, false},
		{"op", Selection{Ops: []string{"lace.record"}}, true},
		{"other op", Selection{Ops: []string{"lace.stream"}}, false},
		{"second rule", Selection{Rules: []string{"LACE-FIELD-01"}}, true},
		{"other rule", Selection{Rules: []string{"LACE-FIELD-02"}}, false},
		{"tag", Selection{Tags: []string{"mutation", "boundary"}}, true},
		{"other tag", Selection{Tags: []string{"mutation"}}, false},
		{"exact id", Selection{IDs: []string{"lace/negative/plex-field-line-129-bytes"}}, true},
		{"glob", Selection{IDs: []string{"lace/*/plex-*"}}, true},
		{"star does not cross /", Selection{IDs: []string{"lace/*"}}, false},
		{"glob alternatives", Selection{IDs: []string{"hiverelay/*/*", "lace/negative/*"}}, true},
		{"all fields must match", Selection{Ops: []string{"lace.record"}, Tags: []string{"mutation"}}, false},
		{"all fields match", Selection{Suites: []string{"lace"}, Ops: []string{"lace.record"}, Rules: []string{"LACE-FIELD-09"}, Tags: []string{"boundary"}, IDs: []string{"*/*/*"}}, true},
		{"a glob without / matches the name", Selection{IDs: []string{"*129*"}}, true},
		{"the exact name", Selection{IDs: []string{"plex-field-line-129-bytes"}}, true},
		{"a name glob that does not match", Selection{IDs: []string{"*crlf*"}}, false},
		{"a name glob does not see the suite", Selection{IDs: []string{"lace*"}}, false},
		{"skipped by name", Selection{Skip: []string{"*129*"}}, false},
		{"skipped by ID glob", Selection{Skip: []string{"lace/negative/*"}}, false},
		{"skip of another", Selection{Skip: []string{"*crlf*"}}, true},
		{"skip wins over id", Selection{IDs: []string{"*129*"}, Skip: []string{"plex-*"}}, false},
	}
	for _, c := range cases {
		if got := c.sel.Match("lace", v); got != c.want {
			t.Errorf("%s: Match = %v, want %v", c.name, got, c.want)
		}
	}
	if err := (Selection{IDs: []string{"lace/["}}).Check(); err == nil {
		t.Error("a malformed glob passed Check")
	}
	if err := (Selection{Skip: []string{"["}}).Check(); err == nil || !strings.Contains(err.Error(), "--skip") {
		t.Errorf("a malformed --skip glob: %v", err)
	}
	// A rerun's escaped ID selects exactly its vector.
	odd := &vectorset.Vector{ID: "lace/positive/a[1]*?", Op: "lace.record"}
	if !(Selection{IDs: []string{globEscape(odd.ID)}}).Match("lace", odd) || (Selection{IDs: []string{globEscape(odd.ID)}}).Match("lace", &vectorset.Vector{ID: "lace/positive/a1xy"}) {
		t.Error("globEscape does not select exactly the vector")
	}
}

func TestNotApplicable(t *testing.T) {
	hello := &testee.Hello{Ops: []string{"lace.record"}, Profiles: []string{lacespec.ProfileMarkBIP340Standin}}
	all := &testee.Hello{AllOps: true}
	vec := func(op string, profiles ...string) *vectorset.Vector {
		return &vectorset.Vector{Op: op, Profiles: profiles}
	}
	cases := []struct {
		name   string
		h      *testee.Hello
		p      Policy
		v      *vectorset.Vector
		reason string // "" applies
	}{
		{"claimed op", hello, Policy{}, vec("lace.record"), ""},
		{"unclaimed op", hello, Policy{}, vec("lace.stream"), "does not claim operation lace.stream"},
		{"claimed profile", hello, Policy{}, vec("lace.record", lacespec.ProfileMarkBIP340Standin), ""},
		{"unclaimed profile", hello, Policy{}, vec("lace.record", lacespec.Profile009), "needs profile lace-009"},
		{"profile added", hello, Policy{Profiles: []string{lacespec.Profile009}}, vec("lace.record", lacespec.Profile009), ""},
		{"mark none", hello, Policy{Mark: MarkNone}, vec("lace.record", lacespec.ProfileMarkBIP340Standin), "--mark none"},
		{"no hello: any op", all, Policy{}, vec("libtracer.decode"), ""},
		{"no hello: no profile", all, Policy{}, vec("lace.record", lacespec.ProfileMarkBIP340Standin), "needs profile"},
	}
	for _, c := range cases {
		got := c.p.NotApplicable(allspecs.Set(), c.h, c.v)
		if (c.reason == "") != (got == "") || !strings.Contains(got, c.reason) {
			t.Errorf("%s: %q, want %q", c.name, got, c.reason)
		}
	}
	for _, bad := range []Policy{{Mark: "009"}, {Profiles: []string{"lace-010"}}} {
		if bad.Check(allspecs.Set()) == nil {
			t.Errorf("%+v passed Check", bad)
		}
	}
}

func TestListFlag(t *testing.T) {
	var l ListFlag
	l.Set("a,b")
	l.Set(" c ,,")
	if got, _ := json.Marshal(l); string(got) != `["a","b","c"]` {
		t.Errorf("%s", got)
	}
}

func TestProgramName(t *testing.T) {
	cases := map[string]string{
		"/tmp/go-build123/b001/exe/conform":  "go run ./cmd/conform",
		"conform":                            "conform",
		"./conform":                          "./conform",
		"/tmp/go-build123/b001/conform.test": "/tmp/go-build123/b001/conform.test",
	}
	for in, want := range cases {
		if got := ProgramName(in); got != want {
			t.Errorf("ProgramName(%q) = %q, want %q", in, got, want)
		}
	}
}

// A selection that matches nothing says what an ID looks like and offers
// the nearest IDs to what was typed.
func TestNoMatch(t *testing.T) {
	st := &Suite{Name: "lace", Index: &vectorset.Index{Vectors: []vectorset.Vector{
		{ID: "lace/negative/plex-value-crlf"}, {ID: "lace/negative/plex-field-line-129-bytes"}, {ID: "lace/positive/seed-blob"},
	}}}
	err := (Selection{IDs: []string{"plex-value-cr1f"}}).NoMatch([]*Suite{st}, "vectors").Error()
	for _, want := range []string{"matches no vector of vectors", "<suite>/<positive|negative>/<name>", "closest: lace/negative/plex-value-crlf, "} {
		if !strings.Contains(err, want) {
			t.Errorf("NoMatch = %q, want it to hold %q", err, want)
		}
	}
	if err := (Selection{Ops: []string{"no.such"}}).NoMatch([]*Suite{st}, "vectors").Error(); strings.Contains(err, "closest") {
		t.Errorf("without --id: %q", err)
	}
	for _, c := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"abc", "", 3}, {"kitten", "sitting", 3}, {"crlf", "crlf", 0}} {
		if got := editDistance(c.a, c.b); got != c.d {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}
