package lacespec

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/threespec/conformance/impl/lace"
	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/internal/fault"
	"github.com/threespec/conformance/internal/reading"
	"github.com/threespec/conformance/reference"
	"github.com/threespec/conformance/reference/referencetest"
	"github.com/threespec/conformance/testee"
)

// lace.record reports the record links of a Plex: the well-formed ones with
// their link data and target, the malformed ones with the rule their value
// breaks (Lace-010, "Record-link fields carry typed hash references").
func TestLaceRecordLinks(t *testing.T) {
	in, _, err := lace.Construct(lace.Spec{Fields: []lace.Field{
		{Name: "+Link", Value: "evidence S.EXAMPLE_SEAL_HASH.H3"},
		{Name: "Chunk+Link", Value: "0..3"},
		{Name: "File+Link", Value: "my  file B.x.H9"},
		{Name: "Link", Value: "not a link field"},
		{Name: "Note+Link", Value: " B.x.H3"},
		{Name: "Page+Link", Value: "0 Q.x.H3"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	resp := referencetest.Do(t, Spec, OpRecord, "{}", in)
	if resp.Outcome != testee.Accepted {
		t.Fatalf("%+v", resp)
	}
	var res RecordResult
	if err := json.Unmarshal(resp.Result, &res); err != nil {
		t.Fatal(err)
	}
	wantLinks := []Link{
		{Field: 0, Name: "+Link", Data: "evidence", Target: "S.EXAMPLE_SEAL_HASH.H3"},
		{Field: 2, Name: "File+Link", Data: "my  file", Target: "B.x.H9"},
	}
	wantBad := []MalformedLink{
		{Field: 1, Name: "Chunk+Link", Value: "0..3", Rule: string(lace.RuleLinkSeparator)},
		{Field: 4, Name: "Note+Link", Value: " B.x.H3", Rule: string(lace.RuleLinkData)},
		{Field: 5, Name: "Page+Link", Value: "0 Q.x.H3", Rule: string(lace.RuleLinkTarget)},
	}
	if res.Links == nil || res.MalformedLinks == nil {
		t.Fatalf("links not reported: %s", resp.Result)
	}
	if got, _ := json.Marshal(*res.Links); string(got) != mustJSON(t, wantLinks) {
		t.Errorf("links %s", got)
	}
	if got, _ := json.Marshal(*res.MalformedLinks); string(got) != mustJSON(t, wantBad) {
		t.Errorf("malformed links %s", got)
	}

	// A Plex without link fields reports two empty lists; a Blob neither.
	plain, _, _ := lace.Construct(lace.Spec{Fields: []lace.Field{{Name: "App", Value: "chat"}}})
	if r := referencetest.Do(t, Spec, OpRecord, "{}", plain); !json.Valid(r.Result) || !strings.Contains(string(r.Result), `"links":[],"malformed_links":[]`) {
		t.Errorf("plain Plex: %s", r.Result)
	}
	if r := referencetest.Do(t, Spec, OpRecord, "{}", []byte(seedBlob)); strings.Contains(string(r.Result), "links") {
		t.Errorf("Blob: %s", r.Result)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestLaceWithChecks: a reference made WithChecks carries its checks into
// every Lace operation (the parse, the construction, the convention
// consumers and the reference's own generic faults), while New answers as
// the standard reference.
func TestLaceWithChecks(t *testing.T) {
	t.Parallel()
	construct := func(fields ...lace.Field) []byte {
		out, _, err := lace.ConstructWith(rules.Checks{}, lace.Spec{Fields: fields})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	absent := "B." + strings.Repeat("A", 43) + ".H3"
	off := func(id rules.ID) rules.Checks { return rules.Checks{Faults: fault.Of(string(id))} }
	cases := []struct {
		name        string
		op          string
		input       []byte
		checks      rules.Checks
		std, faulty testee.Outcome
	}{
		{"record, a mutant", OpRecord, construct(lace.Field{Name: "Name", Value: " x "}),
			off(lace.MutValuesTrimmed), testee.Accepted, testee.Accepted},
		{"record, a reading", OpRecord, construct(lace.Field{Name: "Name", Value: " x"}),
			rules.Checks{Readings: reading.Of(map[string]string{lace.ReadValueLeadingSpace: lace.AltSecondSpaceRejected})},
			testee.Accepted, testee.Rejected},
		{"record, a generic fault", OpRecord, construct(lace.Field{Name: "+Link", Value: "x " + absent}),
			off(lace.RuleLinkNotAcquired), testee.Accepted, testee.Rejected},
		{"stream", OpStream, []byte(seedBlob + "trailer"), off(lace.RuleStreamGarbage), testee.Rejected, testee.Accepted},
		{"construct", OpConstruct, []byte(`{"fields":[["App","x"]]}`), off(lace.RuleCtorNoInvented), testee.Accepted, testee.Accepted},
		{"chunks", OpChunks, []byte(seedBlob), off(lace.RuleChunkBareBlob), testee.Accepted, testee.Rejected},
		{"directory", OpDirectory, construct(lace.Field{Name: "Kind", Value: "directory"}), off(lace.RuleDirEmpty), testee.Accepted, testee.Rejected},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			req := testee.Request{Op: c.op, Args: json.RawMessage("{}"), Input: c.input}
			std, err := reference.For(Spec).Do(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			zero, err := reference.For(Spec).WithChecks(rules.Checks{}).Do(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			faulty, err := reference.For(Spec).WithChecks(c.checks).Do(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if std.Outcome != c.std || zero.Outcome != c.std || string(zero.Result) != string(std.Result) {
				t.Fatalf("standard: %+v and %+v, want %s alike", std, zero, c.std)
			}
			if faulty.Outcome != c.faulty || c.std == c.faulty && string(faulty.Result) == string(std.Result) {
				t.Fatalf("under %v: %+v, want %s and not the standard answer %s", c.checks, faulty, c.faulty, std.Result)
			}
		})
	}
}
