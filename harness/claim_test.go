package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/threespec/conformance/harness/harnesstest"
	"github.com/threespec/conformance/internal/allspecs"
	"github.com/threespec/conformance/testee"
	"github.com/threespec/conformance/vectorset"
)

// jsonMembers lists the JSON members of a struct type: all of them, and
// those always written (no omitempty).
func jsonMembers(t reflect.Type) (all, always []string) {
	for i := range t.NumField() {
		name, opts, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name == "-" || name == "" {
			continue
		}
		all = append(all, name)
		if !strings.Contains(opts, "omitempty") {
			always = append(always, name)
		}
	}
	slices.Sort(all)
	slices.Sort(always)
	return all, always
}

// docs/claim.schema.json names exactly the members conform writes, and
// requires exactly those it always writes.
func TestClaimSchemaNamesEveryMember(t *testing.T) {
	b, err := os.ReadFile("../docs/claim.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var schema map[string]any
	if err := json.Unmarshal(b, &schema); err != nil {
		t.Fatal(err)
	}
	defs := schema["$defs"].(map[string]any)
	header := defs["header"].(map[string]any)
	for _, c := range []struct {
		where string
		obj   map[string]any
		typ   reflect.Type
	}{
		{"claim", schema, reflect.TypeFor[Claim]()},
		{"header", header, reflect.TypeFor[Header]()},
		{"header.conform", header["properties"].(map[string]any)["conform"].(map[string]any), reflect.TypeFor[testee.Build]()},
		{"header.implementation", header["properties"].(map[string]any)["implementation"].(map[string]any), reflect.TypeFor[testee.ImplementationInfo]()},
		{"header.policy", header["properties"].(map[string]any)["policy"].(map[string]any), reflect.TypeFor[Policy]()},
		{"rule", defs["rule"].(map[string]any), reflect.TypeFor[ClaimRule]()},
		{"vector", defs["vector"].(map[string]any), reflect.TypeFor[ClaimEntry]()},
	} {
		all, always := jsonMembers(c.typ)
		var props, required []string
		for k := range c.obj["properties"].(map[string]any) {
			props = append(props, k)
		}
		for _, r := range c.obj["required"].([]any) {
			required = append(required, r.(string))
		}
		slices.Sort(props)
		slices.Sort(required)
		if !slices.Equal(props, all) {
			t.Errorf("%s: the schema names %v, conform writes %v", c.where, props, all)
		}
		if !slices.Equal(required, always) {
			t.Errorf("%s: the schema requires %v, conform always writes %v", c.where, required, always)
		}
	}
	status := defs["status"].(map[string]any)["enum"].([]any)
	for _, s := range []Status{Pass, PassOther, Fail, Warn, XFail, XPass, NotApplicable, NotRun, Reading, OtherReading, Error, NotJudged} {
		if !slices.Contains(status, any(string(s))) {
			t.Errorf("the schema's status lacks %s", s)
		}
	}
}

// A claim round-trips through WriteClaim and ReadClaim; a passing vector
// keeps its outcome and digest only, one that did not pass what it
// expected and what came back.
func TestClaimRoundTrip(t *testing.T) {
	vecs := []harnesstest.Vector{
		{Name: "ok", Input: "ok"},
		{Name: "missed", Input: "ok", Expect: vectorset.Reject, Rules: []string{"LACE-BLOB-02"}},
	}
	rep := Run(context.Background(), Config{Specs: allspecs.Set(), Suites: synthetic(t, vecs), Impl: directed(), Testee: TesteeInfo{Command: []string{"directed"}}})
	var buf bytes.Buffer
	if err := ClaimWriter(allspecs.Set())(&buf, rep); err != nil {
		t.Fatal(err)
	}
	c, err := ReadClaim(&buf)
	if err != nil {
		t.Fatal(err)
	}
	ok, missed := c.Vectors[1], c.Vectors[0]
	if !strings.HasSuffix(ok.ID, "/ok") {
		ok, missed = missed, ok
	}
	if ok.Status != Pass || ok.AnswerDigest == "" || ok.Expected != "" || ok.Comment != "" ||
		missed.Status != Fail || missed.Expected == "" || missed.Got == "" || missed.Comment == "" {
		t.Errorf("claim vectors %+v %+v", ok, missed)
	}
	var rule *ClaimRule
	for i := range c.Rules {
		if c.Rules[i].Rule == "LACE-BLOB-02" {
			rule = &c.Rules[i]
		}
	}
	if rule == nil || rule.Verdict != Fail || rule.Spec != "lace" || rule.Section == "" || rule.Text == "" {
		t.Errorf("claim rule %+v", rule)
	}
	if diffs := c.Compare(rep); len(diffs) != 0 {
		t.Errorf("a claim differs from its own run: %v", diffs)
	}
	rep.Vectors[0].AnswerDigest = strings.Repeat("0", 64)
	if diffs := c.Compare(rep); len(diffs) != 1 || !strings.Contains(diffs[0].String(), "both times, but another answer") {
		t.Errorf("differences %v", diffs)
	}
}
