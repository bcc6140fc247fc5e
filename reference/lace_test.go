package reference

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/threespec/conformance/impl/lace"
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
	resp := do(t, testee.OpLaceRecord, "{}", in)
	if resp.Outcome != testee.Accepted {
		t.Fatalf("%+v", resp)
	}
	var res LaceRecordResult
	if err := json.Unmarshal(resp.Result, &res); err != nil {
		t.Fatal(err)
	}
	wantLinks := []LaceLink{
		{Field: 0, Name: "+Link", Data: "evidence", Target: "S.EXAMPLE_SEAL_HASH.H3"},
		{Field: 2, Name: "File+Link", Data: "my  file", Target: "B.x.H9"},
	}
	wantBad := []LaceMalformedLink{
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
	if r := do(t, testee.OpLaceRecord, "{}", plain); !json.Valid(r.Result) || !strings.Contains(string(r.Result), `"links":[],"malformed_links":[]`) {
		t.Errorf("plain Plex: %s", r.Result)
	}
	if r := do(t, testee.OpLaceRecord, "{}", []byte(seedBlob)); strings.Contains(string(r.Result), "links") {
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
