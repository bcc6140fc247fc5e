package vecgen

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/threespec/conformance/found"
	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/impl/spec"
	"github.com/threespec/conformance/internal/reading"
	"github.com/threespec/conformance/reference"
	"github.com/threespec/conformance/testee"
	"github.com/threespec/conformance/vectorset"
)

// TagFound marks the vectors of the found family: cases `conform fuzz`
// found an implementation to disagree on, kept in found/<suite>/ (issue
// 27).
const TagFound = "found"

// foundVectors is a suite's found family: one vector per entry of its
// found corpus (package found), <suite>/<polarity>/found-<name>, its
// expectation the entry's (checked against the reference with every other
// vector), its comment the entry's why and provenance. An accepted
// entry's vector compares every member of the reference's result.
func foundVectors(specs *spec.Set, suite string) ([]Vector, error) {
	entries, err := found.Of(suite)
	if err != nil {
		return nil, err
	}
	var out []Vector
	for _, e := range entries {
		fe, err := vectorset.ParseFoundEntry(e.Name, e.Bytes)
		if err != nil {
			return nil, err
		}
		pol := map[string]string{vectorset.Accept: "positive", vectorset.Reject: "negative"}[fe.Expect]
		name := "found-" + e.Name
		args := fe.Args
		if len(args) == 0 {
			args = json.RawMessage("{}")
		}
		p := fe.Provenance
		ops := "none"
		if len(p.Operators) > 0 {
			ops = strings.Join(p.Operators, ", ")
		}
		comment := fmt.Sprintf("Found by conform fuzz: %s (kept in found/%s/%s.json). Provenance: seed %d, case %d, generator %s, operators %s, parent %s, testee %s, finding %s; shrunk from %d to %d bytes.",
			strings.TrimSuffix(fe.Why, "."), suite, e.Name, p.Seed, p.Case, p.Generator, ops, cmpOr(p.Parent, "none"), p.Testee, p.Finding, p.ShrunkFrom, len(fe.Input))
		v := Vector{Vector: vectorset.Vector{
			ID: path.Join(suite, pol, name), File: path.Join(pol, name+".bin"), Op: fe.Op, Args: args,
			Expect: fe.Expect, Code: fe.Code, AcceptableCodes: fe.AcceptableCodes, Rules: slices.Clone(fe.Rules), Tags: []string{TagFound}, Profiles: []string{},
			Comment: comment, Readings: fe.Readings,
		}, Data: fe.Input}
		if fe.Expect == vectorset.Reject && len(v.Rules) > 0 {
			v.Comment = ReportedUnder(specs.Rule, v.Comment, v.Rules[0])
		}
		if fe.Expect == vectorset.Accept {
			// Every member of the result, under the readings the entry names.
			ref := reference.New(specs).WithChecks(rules.Checks{Readings: reading.Of(fe.Readings)})
			resp, err := ref.Do(context.Background(), testee.Request{Op: fe.Op, Args: args, Input: fe.Input})
			if err != nil || resp.Outcome != testee.Accepted {
				return nil, fmt.Errorf("found/%s/%s.json: the reference does not accept it (%v %s %s)", suite, e.Name, err, resp.Code, resp.Detail)
			}
			var m map[string]json.RawMessage
			if err := json.Unmarshal(resp.Result, &m); err != nil {
				return nil, err
			}
			for k := range m {
				v.Want = append(v.Want, k)
			}
			slices.Sort(v.Want)
		}
		out = append(out, v)
	}
	return out, nil
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
