package lacevec

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/threespec/conformance/impl/lace"
	"github.com/threespec/conformance/impl/lace/lacespec"
	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/impl/spec"
	"github.com/threespec/conformance/reference"
	"github.com/threespec/conformance/testee"
)

// Systematic mutations (VECTORS_BRIEF item 3): for every positive lace.record
// vector, a bounded, deterministic family of changes. Byte-level mutations
// (truncations at structural boundaries, appended bytes, flips of structural
// bytes) leave every digest as it was; model-level mutations change the
// record's lines and recompute every digest, so that the one semantic rule
// they break is what rejects them.
//
// Each mutation says whether it yields a valid record. One that must be
// invalid and that the reference accepts, or one that must be valid and
// that the reference rejects, stops the generation: the reference (or the
// generator) is wrong. Rejected mutations keep the rule the reference
// reports, with derived_from naming their positive; valid ones become
// positives whose hash the generator computes.

// mutant is one mutation of a positive record.
type mutant struct {
	name  string   // appended to the positive's name after "--"
	what  string   // the mutation in words, for the comment
	in    []byte   // the mutated input
	valid *record  // non-nil when the mutation is a valid record: its model
	rule  rules.ID // for a valid mutation, the rule it shows
}

// headerEnds returns the offset after each LF of r's lines up to and
// including the blank line before the data.
func headerEnds(r record, b []byte) []int {
	n := 3 // glyph, Data-Length, blank
	if r.form != 'B' {
		n += len(r.fields) + 1 // fields, embedded Blob glyph
	}
	if r.form == 'S' {
		n += len(r.env) + 1 // envelope, embedded Plex glyph
	}
	var ends []int
	for i := 0; i < len(b) && len(ends) < n; i++ {
		if b[i] == '\n' {
			ends = append(ends, i+1)
		}
	}
	return ends
}

// lineNames names r's header lines, in order.
func lineNames(r record) []string {
	names := []string{"glyph line"}
	if r.form == 'S' {
		for i := range r.env {
			names = append(names, []string{"By line", "Mark line"}[min(i, 1)])
		}
		names = append(names, "Plex glyph line")
	}
	if r.form != 'B' {
		for i := range r.fields {
			names = append(names, "field line "+strconv.Itoa(i+1))
		}
		names = append(names, "Blob glyph line")
	}
	return append(names, "Data-Length line", "blank line")
}

// representative picks the header lines whose boundaries a default
// generation cuts at: one of each kind (glyph lines, first envelope line,
// first and last field line, Data-Length, blank). Large takes them all.
func representative(r record, large bool) []int {
	names := lineNames(r)
	var out []int
	for i, n := range names {
		first := i == 0 || !strings.HasPrefix(names[i-1], strings.TrimRight(n, "0123456789 "))
		last := i == len(names)-1 || !strings.HasPrefix(names[i+1], strings.TrimRight(n, "0123456789 "))
		if large || first || (last && strings.HasPrefix(n, "field")) {
			out = append(out, i)
		}
	}
	return out
}

func nameOf(s string) string { return strings.ToLower(strings.ReplaceAll(s, " ", "-")) }

// mutants returns the mutation family of the positive record r with bytes b.
func mutants(r record, b []byte, mode string, large bool) []mutant {
	var out []mutant
	add := func(name, what string, in []byte, valid *record) {
		out = append(out, mutant{name: name, what: what, in: in, valid: valid})
	}
	addValid := func(name, what string, m record, rule rules.ID) {
		out = append(out, mutant{name: name, what: what, in: m.bytes(), valid: &m, rule: rule})
	}
	ends := headerEnds(r, b)
	names := lineNames(r)

	// Truncation at structural boundaries: inside and after lines, inside data.
	add("cut-inside-glyph", "cut inside the glyph character", b[:2:2], nil)
	for _, k := range representative(r, large) {
		start := 0
		if k > 0 {
			start = ends[k-1]
		}
		if mid := (start + ends[k]) / 2; mid > start {
			add("cut-inside-"+nameOf(names[k]), "cut inside its "+names[k], b[:mid:mid], nil)
		}
		if ends[k] < len(b) {
			add("cut-after-"+nameOf(names[k]), "cut after its "+names[k], b[:ends[k]:ends[k]], nil)
		}
	}
	if len(r.data) >= 2 {
		add("cut-inside-data", "cut one byte before its end, inside the data", b[:len(b)-1:len(b)-1], nil)
	}

	// Appended bytes.
	add("append-lf", "followed by a LF", concat(b, []byte("\n")), nil)
	add("append-byte", "followed by the byte x", concat(b, []byte("x")), nil)
	add("append-itself", "followed by itself (two records)", concat(b, b), nil)

	// Flips of structural bytes, digests left as they were.
	flip := func(name, what string, at int, to byte) {
		c := concat(b)
		c[at] = to
		add(name, what, c, nil)
	}
	letter := len(glyphPrefix)
	flip("flip-glyph-type", "with its glyph type letter changed, digest as it was", letter, map[byte]byte{'B': 'P', 'P': 'S', 'S': 'B'}[b[letter]])
	flip("flip-digest-char", "with the first character of its digest changed", letter+2, nextChar(b[letter+2])[0])
	first := 1 // the first line after the glyph: By, a field or Data-Length
	sep := ends[first-1] + strings.Index(string(b[ends[first-1]:ends[first]]), ": ")
	flip("flip-separator-space", "with the space after the first ':' of its "+names[first]+" made a tab", sep+1, '\t')
	flip("flip-separator-colon", "with the first ':' of its "+names[first]+" made ';'", sep, ';')
	flip("flip-lf-to-cr", "with the LF ending its "+names[first]+" made CR", ends[first]-1, '\r')
	dl := len(names) - 2
	flip("flip-data-length-digit", "with the last Data-Length digit changed, digests as they were", ends[dl]-2, "1234567890"[b[ends[dl]-2]-'0'])

	// Model-level mutations, every digest recomputed.
	// model adds m, a mutation with every digest recomputed. valid names the
	// rule a valid m shows, or is empty. A changed Seal is never valid: its
	// Mark no longer covers its Plex. Under mark checking the reference must
	// reject it; under mark none it would be accepted, so it is left out.
	model := func(name, what string, m record, valid rules.ID) {
		what += ", digests recomputed"
		switch {
		case valid == "":
			add(name, what, m.bytes(), nil)
		case r.form != 'S':
			addValid(name, what, m, valid)
		case mode != markNone:
			add(name, what+": its Mark no longer covers its Plex", m.bytes(), nil)
		}
	}
	validIf := func(ok bool, id rules.ID) rules.ID {
		if ok {
			return id
		}
		return ""
	}
	raw := func(name, what string, in []byte) { add(name, what+", digests recomputed", in, nil) }
	if r.form != 'B' {
		fs := r.fields
		if len(fs) >= 2 {
			m := r.clone()
			m.fields[0], m.fields[1] = fs[1], fs[0]
			if fs[0] != fs[1] {
				model("swap-fields-1-2", "with field lines 1 and 2 swapped", m, validIf(nameOfLine(fs[0]) == nameOfLine(fs[1]), lace.RulePlexSameName))
			}
		}
		m := r.clone()
		m.fields = append([]string{fs[0]}, fs...)
		model("duplicate-field-1", "with field line 1 repeated", m, validIf(len(fs) < maxFields, lace.RuleExRepeatedNames))
		m = r.clone()
		m.fields = nil
		model("drop-fields", "with no field lines", m, "")
		m = r.clone()
		m.fields[0] += "\r"
		model("crlf-field-1", "with field line 1 ending in CRLF", m, "")
		m = r.clone()
		m.fields[0] = nameOfLine(fs[0]) + ": "
		model("empty-value-field-1", "with the value of field line 1 emptied", m, "")
	}
	m := r.clone()
	m.dl = strp("data-length: " + strconv.Itoa(len(r.data)))
	model("data-length-lowercase", "with its Data-Length line named data-length", m, "")
	m = r.clone()
	m.dl = strp("Data-Length: 0" + strconv.Itoa(len(r.data)))
	model("data-length-leading-zero", "with a leading zero on its Data-Length", m, "")
	m = r.clone()
	m.blank = strp("")
	model("no-blank-line", "without the blank line before its data", m, "")
	m = r.clone()
	m.data = concat(r.data, []byte("a"))
	model("one-more-data-byte", "with one more data byte a and Data-Length one larger", m, validIf(len(m.data) <= maxData, lace.RuleBlobExactData))
	other := map[byte]byte{'B': 'P', 'P': 'S', 'S': 'P'}[r.form]
	raw("glyph-type-"+formName(other), "under a "+string(other)+". glyph", rawRecord(other, r.payload()...))
	if r.form == 'S' && len(r.env) == 2 {
		for _, c := range []struct {
			name, what string
			env        []string
		}{
			{"swap-by-mark", "with its By and Mark lines swapped", []string{r.env[1], r.env[0]}},
			{"drop-by", "without its By line", []string{r.env[1]}},
			{"drop-mark", "without its Mark line", []string{r.env[0]}},
			{"repeat-mark", "with its Mark line repeated", []string{r.env[0], r.env[1], r.env[1]}},
		} {
			m := r.clone()
			m.env = c.env
			model(c.name, c.what, m, "")
		}
		raw("seal-over-blob", "wrapping its Blob instead of its Plex", rawRecord('S', lines(r.env), concat(r.blobRecord()...)))
	}
	return out
}

func nameOfLine(l string) string {
	name, _, _ := strings.Cut(l, ": ")
	return name
}

// classify asks the reference about one lace.record input.
func classify(ref *reference.Reference, args string, in []byte) (testee.Response, error) {
	return ref.Do(context.Background(), testee.Request{Op: lacespec.OpRecord, Args: json.RawMessage(args), Input: in})
}

// mutations adds the mutation family of every positive lace.record vector.
func (g *gen) mutations() error {
	ref := reference.New(spec.MustSet(lacespec.Spec))
	seen := map[[32]byte]bool{}
	key := func(v vec) [32]byte { return sha256.Sum256([]byte(v.op + "\x00" + v.args() + "\x00" + string(v.in))) }
	for _, v := range g.vecs {
		seen[key(v)] = true
	}
	n := len(g.vecs)
	for i := 0; i < n; i++ {
		p := g.vecs[i]
		if p.rec == nil || !p.ok || p.op != lacespec.OpRecord {
			continue
		}
		for _, m := range mutants(*p.rec, p.in, p.mark, g.opt.Large) {
			v := vec{name: p.name + "--" + m.name, op: p.op, mark: p.mark, in: m.in, tags: tags("mutation"), from: p.id(),
				comment: p.name + " " + m.what}
			if seen[key(v)] {
				continue // the same bytes as a vector already made
			}
			seen[key(v)] = true
			resp, err := classify(ref, v.args(), v.in)
			if err != nil {
				return fmt.Errorf("lacevec: %s: %w", v.name, err)
			}
			switch {
			case m.valid == nil && resp.Outcome == testee.Accepted:
				return fmt.Errorf("lacevec: mutation %s must be invalid, but the reference accepts it", v.name)
			case m.valid != nil && resp.Outcome != testee.Accepted:
				return fmt.Errorf("lacevec: mutation %s is a valid record, but the reference answers %v %s: %s", v.name, resp.Outcome, resp.Rule, resp.Detail)
			case m.valid != nil:
				v.ok, v.result, v.rules = true, recordResult(*m.valid), []rules.ID{m.rule}
			default:
				v.rules = []rules.ID{rules.ID(resp.Rule)}
			}
			g.add(v)
		}
	}
	return nil
}
