package harness

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/impl/spec"
)

// ClaimFormat is the value of Claim.Format.
const ClaimFormat = "threespec-conformance-claim/1"

// Claim is a conformance claim (docs/CLAIM.md; its JSON Schema is
// docs/claim.schema.json): what a run of conform found of one
// implementation, in a form anyone can publish, set beside others
// (conform site) and re-check (conform verify): the run's Header, each
// rule's verdict and each vector's outcome and answer digest.
type Claim struct {
	Format   string       `json:"format"` // ClaimFormat
	Header   *Header      `json:"header"`
	Counts   Counts       `json:"counts"`
	ExitCode int          `json:"exit_code"`
	Rules    []ClaimRule  `json:"rules"`
	Vectors  []ClaimEntry `json:"vectors"`
}

// ClaimRule is one rule's verdict in a claim, with what the catalog says
// of it.
type ClaimRule struct {
	Rule           string         `json:"rule"`
	Spec           string         `json:"spec,omitempty"`
	Section        string         `json:"section,omitempty"`
	Level          string         `json:"level"`
	Text           string         `json:"text,omitempty"`
	ProjectDefined string         `json:"project_defined,omitempty"`
	Verdict        Status         `json:"verdict"`
	Counts         map[Status]int `json:"counts"`
}

// ClaimEntry is one selected vector's outcome in a claim. What it expected
// and what came back are kept for a vector that did not pass only (a
// passing answer is what the vector expects; its digest pins it).
type ClaimEntry struct {
	ID           string            `json:"id"`
	Suite        string            `json:"suite"`
	Op           string            `json:"op"`
	Level        string            `json:"level"`
	Rules        []string          `json:"rules"`
	Status       Status            `json:"status"`
	AnswerDigest string            `json:"answer_digest,omitempty"`
	Readings     map[string]string `json:"readings,omitempty"`
	Comment      string            `json:"comment,omitempty"`
	Expected     string            `json:"expected,omitempty"`
	Got          string            `json:"got,omitempty"`
	Reason       string            `json:"reason,omitempty"`
	OtherReason  string            `json:"other_reason,omitempty"`
}

// NewClaim makes the claim of a report; specs give the rules' spec and
// section.
func NewClaim(specs *spec.Set, r *Report) *Claim {
	c := &Claim{Format: ClaimFormat, Header: r.Header, Counts: r.Counts, ExitCode: r.ExitCode, Rules: []ClaimRule{}, Vectors: []ClaimEntry{}}
	for _, s := range r.Rules {
		cr := ClaimRule{Rule: s.Rule, Level: s.Level, Text: s.Text, ProjectDefined: s.ProjectDefined, Verdict: s.Verdict, Counts: s.Counts}
		if rule, ok := specs.Rule(rules.ID(s.Rule)); ok {
			cr.Spec, cr.Section = string(rule.Spec), rule.Section
		}
		c.Rules = append(c.Rules, cr)
	}
	for _, v := range r.Vectors {
		e := ClaimEntry{ID: v.ID, Suite: v.Suite, Op: v.Op, Level: v.Level, Rules: v.Rules, Status: v.Status, AnswerDigest: v.AnswerDigest, Readings: v.Readings}
		if v.Status != Pass {
			e.Comment, e.Expected, e.Got, e.Reason, e.OtherReason = v.Comment, v.Expected, v.Got, v.Reason, v.OtherReason
		}
		c.Vectors = append(c.Vectors, e)
	}
	return c
}

// ClaimWriter returns the function that writes a report's claim as JSON,
// for conform run --claim: the header indented, then a rule or a vector a
// line (a claim of the whole set is about 1 MB; indenting every member
// would double it).
func ClaimWriter(specs *spec.Set) func(io.Writer, *Report) error {
	return func(w io.Writer, r *Report) error { return WriteClaim(w, NewClaim(specs, r)) }
}

// WriteClaim writes c as ClaimWriter does.
func WriteClaim(w io.Writer, c *Claim) error {
	bw := bufio.NewWriter(w)
	line := func(v any, indent bool) error {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if indent {
			enc.SetIndent(" ", " ")
		}
		if err := enc.Encode(v); err != nil {
			return err
		}
		bw.Write(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
		return nil
	}
	fmt.Fprintf(bw, "{\"format\": %q,\n \"header\": ", c.Format)
	if err := line(c.Header, true); err != nil {
		return err
	}
	bw.WriteString(",\n \"counts\": ")
	line(c.Counts, false)
	fmt.Fprintf(bw, ",\n \"exit_code\": %d,\n \"rules\": [", c.ExitCode)
	for i, r := range c.Rules {
		if i > 0 {
			bw.WriteByte(',')
		}
		bw.WriteString("\n  ")
		if err := line(r, false); err != nil {
			return err
		}
	}
	bw.WriteString("\n ],\n \"vectors\": [")
	for i, v := range c.Vectors {
		if i > 0 {
			bw.WriteByte(',')
		}
		bw.WriteString("\n  ")
		if err := line(v, false); err != nil {
			return err
		}
	}
	bw.WriteString("\n ]\n}\n")
	return bw.Flush()
}

// ReadClaim reads a claim, checking its format and that it pins a run:
// a header with set hashes and a results digest that its vectors give.
func ReadClaim(r io.Reader) (*Claim, error) {
	dec := json.NewDecoder(r)
	var c Claim
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("not a conformance claim: %v", err)
	}
	switch {
	case c.Format != ClaimFormat:
		return nil, fmt.Errorf("not a conformance claim: format %q, want %q", c.Format, ClaimFormat)
	case c.Header == nil || len(c.Header.SetHashes) == 0:
		return nil, errors.New("the claim has no header naming the set hashes it was run against")
	}
	vs := make([]*VectorResult, len(c.Vectors))
	for i, e := range c.Vectors {
		vs[i] = &VectorResult{ID: e.ID, Status: e.Status, AnswerDigest: e.AnswerDigest}
	}
	if d := ResultsDigest(vs); d != c.Header.ResultsDigest {
		return nil, fmt.Errorf("the claim's vectors give the results digest %s, its header says %s: it was changed after it was written", d, c.Header.ResultsDigest)
	}
	return &c, nil
}

// SetHashMismatch is the error of a claim made against other vector sets
// than those at hand: conform verify refuses it, naming both.
type SetHashMismatch struct {
	Claimed, Here map[string]string
}

func (e *SetHashMismatch) Error() string {
	return fmt.Sprintf("the claim was made against the vector sets %s; these vector sets are %s: a claim is verified against the sets it names only",
		setHashesText(e.Claimed), setHashesText(e.Here))
}

// CheckSetHashes refuses (a *SetHashMismatch) a claim whose suites are
// not those of suites, or whose set hashes differ from theirs.
func (c *Claim) CheckSetHashes(suites []*Suite) error {
	here := map[string]string{}
	for _, s := range suites {
		if _, ok := c.Header.SetHashes[s.Name]; ok {
			here[s.Name] = s.SetHash
		}
	}
	if !maps.Equal(here, c.Header.SetHashes) {
		return &SetHashMismatch{Claimed: c.Header.SetHashes, Here: here}
	}
	return nil
}

// Suites are the names of the claim's suites, sorted.
func (c *Claim) Suites() []string { return slices.Sorted(maps.Keys(c.Header.SetHashes)) }

// Difference is a vector whose outcome or answer digest differs between a
// claim and a run that re-checks it.
type Difference struct {
	ID                    string
	Claimed, Now          Status
	ClaimedDigest, Digest string
	Got                   string // what came back now
}

// String says how the vector differs, on one line.
func (d Difference) String() string {
	switch {
	case d.Claimed == "":
		return fmt.Sprintf("%s: not in the claim, now %s", d.ID, d.Now)
	case d.Now == "":
		return fmt.Sprintf("%s: claimed %s, not run now", d.ID, d.Claimed)
	case d.Claimed != d.Now:
		return fmt.Sprintf("%s: claimed %s, now %s (%s)", d.ID, d.Claimed, d.Now, clip(d.Got, 200))
	}
	return fmt.Sprintf("%s: %s both times, but another answer (digest %.16s..., claimed %.16s...): %s", d.ID, d.Now, d.Digest, d.ClaimedDigest, clip(d.Got, 200))
}

// Compare lists every vector whose outcome or answer digest differs
// between the claim and the report of a run that re-checks it, in the
// claim's order (then the run's vectors the claim lacks).
func (c *Claim) Compare(r *Report) []Difference {
	now := make(map[string]*VectorResult, len(r.Vectors))
	for _, v := range r.Vectors {
		now[v.ID] = v
	}
	var out []Difference
	seen := map[string]bool{}
	for _, e := range c.Vectors {
		seen[e.ID] = true
		v := now[e.ID]
		if v == nil {
			out = append(out, Difference{ID: e.ID, Claimed: e.Status, ClaimedDigest: e.AnswerDigest})
			continue
		}
		if v.Status != e.Status || v.AnswerDigest != e.AnswerDigest {
			out = append(out, Difference{ID: e.ID, Claimed: e.Status, Now: v.Status, ClaimedDigest: e.AnswerDigest, Digest: v.AnswerDigest, Got: v.Got})
		}
	}
	for _, v := range r.Vectors {
		if !seen[v.ID] {
			out = append(out, Difference{ID: v.ID, Now: v.Status, Digest: v.AnswerDigest, Got: v.Got})
		}
	}
	return out
}

// Label names the claim's implementation on one line: its block's name
// and version, else the testee command.
func (c *Claim) Label() string {
	if i := c.Header.Implementation; i != nil {
		if i.Version != "" {
			return i.Name + " " + i.Version
		}
		return i.Name
	}
	return strings.Join(c.Header.Command, " ")
}
