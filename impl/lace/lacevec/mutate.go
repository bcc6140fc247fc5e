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
// Each mutation states, from the spec (specs/lace-010-records.txt) and the
// reading order of docs/lace.md, whether it yields a valid record and which
// rule it breaks or, valid, shows; where that depends on the record (its
// form, its data, the text of the line it damages) the mutation computes it
// from what it changed. The rule a rejected mutation's vector expects is
// the stated one. A mutation that must be invalid and that the reference
// accepts or rejects by another rule, or one that must be valid and that
// the reference rejects, stops the generation: the reference or the
// generator is wrong. Rejected mutations carry derived_from naming their
// positive; valid ones become positives whose hash the generator computes.

// mutant is one mutation of a positive record.
type mutant struct {
	name  string   // appended to the positive's name after "--"
	what  string   // the mutation in words, for the comment
	in    []byte   // the mutated input
	valid *record  // non-nil when the mutation is a valid record: its model
	rule  rules.ID // the rule the mutation breaks or, valid, shows
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
// Every mutation states the rule it breaks (or, when valid, the rule it
// shows) from what it changed and the record it changed, never from the
// reference; mutations checks the reference against that statement.
func mutants(r record, b []byte, mode string, large bool) []mutant {
	var out []mutant
	add := func(name, what string, in []byte, rule rules.ID) {
		out = append(out, mutant{name: name, what: what, in: in, rule: rule})
	}
	ends := headerEnds(r, b)
	names := lineNames(r)
	blank := len(names) - 1

	// Truncation at structural boundaries: inside and after lines, inside
	// data. "Record streams concatenate complete records": a reader MUST
	// reject a stream that ends inside a record (LACE-STREAM-03, for a
	// single record too: docs/lace.md, "Record structure"). A cut after the
	// blank line or inside the data leaves fewer data bytes than the
	// Data-Length: "Blob records carry opaque bytes", readers consume
	// exactly <len> data bytes (LACE-BLOB-04, the more specific rule there).
	add("cut-inside-glyph", "cut inside the glyph character", b[:2:2], lace.RuleStreamTruncated)
	for _, k := range representative(r, large) {
		start := 0
		if k > 0 {
			start = ends[k-1]
		}
		if mid := (start + ends[k]) / 2; mid > start {
			add("cut-inside-"+nameOf(names[k]), "cut inside its "+names[k], b[:mid:mid], lace.RuleStreamTruncated)
		}
		if ends[k] < len(b) {
			rule := lace.RuleStreamTruncated
			if k == blank {
				rule = lace.RuleBlobExactData
			}
			add("cut-after-"+nameOf(names[k]), "cut after its "+names[k], b[:ends[k]:ends[k]], rule)
		}
	}
	if len(r.data) >= 2 {
		add("cut-inside-data", "cut one byte before its end, inside the data", b[:len(b)-1:len(b)-1], lace.RuleBlobExactData)
	}

	// Appended bytes. "Every stored record starts with a record glyph
	// line": a complete stored record has no bytes after those its
	// structure and Data-Length consume (LACE-GLYPH-08).
	for _, c := range []struct{ name, what, tail string }{
		{"append-lf", "followed by a LF", "\n"},
		{"append-byte", "followed by the byte x", "x"},
		{"append-itself", "followed by itself (two records)", string(b)},
	} {
		add(c.name, c.what, concat(b, []byte(c.tail)), lace.RuleGlyphTrailing)
	}

	// Flips of structural bytes, digests left as they were.
	flip := func(at int, to byte) []byte {
		c := concat(b)
		c[at] = to
		return c
	}
	letter := len(glyphPrefix)
	first := 1 // the first line after the glyph: By, a field or Data-Length
	sep := ends[first-1] + strings.Index(string(b[ends[first-1]:ends[first]]), ": ")
	tab, semicolon := flip(sep+1, '\t'), flip(sep, ';')
	dl := len(names) - 2
	digit := "1234567890"[b[ends[dl]-2]-'0']
	for _, c := range []struct {
		name, what string
		in         []byte
		rule       rules.ID
	}{
		// "Every stored record starts with a record glyph line": the glyph
		// type matches the parsed form (LACE-GLYPH-05), the digest the
		// payload (LACE-GLYPH-06).
		{"flip-glyph-type", "with its glyph type letter changed, digest as it was",
			flip(letter, map[byte]byte{'B': 'P', 'P': 'S', 'S': 'B'}[b[letter]]), lace.RuleGlyphTypeMatch},
		{"flip-digest-char", "with the first character of its digest changed", flip(letter+2, nextChar(b[letter+2])[0]), lace.RuleGlyphDigestMatch},
		// "Shared field-line rules keep bytes canonical", which the
		// structural lines satisfy too: separatorRule of the flipped line
		// (LACE-FIELD-01, -03 or -04); lines end with LF only (LACE-FIELD-09).
		{"flip-separator-space", "with the space after the first ':' of its " + names[first] + " made a tab", tab, separatorRule(lineAt(tab, ends, first))},
		{"flip-separator-colon", "with the first ':' of its " + names[first] + " made ';'", semicolon, separatorRule(lineAt(semicolon, ends, first))},
		{"flip-lf-to-cr", "with the LF ending its " + names[first] + " made CR", flip(ends[first]-1, '\r'), lace.RuleFieldLF},
		// "Blob records carry opaque bytes": dataLengthRule (LACE-BLOB-04,
		// or LACE-GLYPH-06/07 for a smaller length).
		{"flip-data-length-digit", "with the last Data-Length digit changed, digests as they were", flip(ends[dl]-2, digit), dataLengthRule(r.form, digit == '0')},
	} {
		add(c.name, c.what, c.in, c.rule)
	}

	// Model-level mutations, every digest recomputed: each one edits a copy
	// of r's model (or, raw, writes the bytes itself) and states the rule
	// the result breaks or, valid, shows.
	type change struct {
		name, what string
		edit       func(m *record)
		raw        []byte
		rule       rules.ID
		valid      bool
	}
	var changes []change
	if r.form != 'B' {
		// "Plex records attach generic fields to a Blob" and "Shared
		// field-line rules keep bytes canonical".
		fs := r.fields
		if len(fs) >= 2 && fs[0] != fs[1] {
			// Same name: occurrences retain caller order, any order is
			// canonical (LACE-PLEX-06). Different names, sorted: the swap
			// is a decrease a parser MUST reject (LACE-PLEX-08).
			same := nameOfLine(fs[0]) == nameOfLine(fs[1])
			changes = append(changes, change{name: "swap-fields-1-2", what: "with field lines 1 and 2 swapped",
				edit: func(m *record) { m.fields[0], m.fields[1] = fs[1], fs[0] },
				rule: choose(same, lace.RulePlexSameName, lace.RulePlexOrder), valid: same})
		}
		// Repeated names are valid (LACE-EX-05), up to N <= 512 (LACE-PLEX-03).
		changes = append(changes, change{name: "duplicate-field-1", what: "with field line 1 repeated",
			edit: func(m *record) { m.fields = append([]string{fs[0]}, fs...) },
			rule: choose(len(fs) < maxFields, lace.RuleExRepeatedNames, lace.RulePlexMaxFields), valid: len(fs) < maxFields},
			// N >= 1 (LACE-PLEX-02).
			change{name: "drop-fields", what: "with no field lines", edit: func(m *record) { m.fields = nil }, rule: lace.RulePlexMinFields},
			// CR and CRLF are invalid (LACE-FIELD-09).
			change{name: "crlf-field-1", what: "with field line 1 ending in CRLF", edit: func(m *record) { m.fields[0] += "\r" }, rule: lace.RuleFieldLF},
			// Field values are non-empty (LACE-FIELD-05).
			change{name: "empty-value-field-1", what: "with the value of field line 1 emptied",
				edit: func(m *record) { m.fields[0] = nameOfLine(fs[0]) + ": " }, rule: lace.RuleFieldValueEmpty})
	}
	oneMore := len(r.data)+1 <= maxData
	other := map[byte]byte{'B': 'P', 'P': 'S', 'S': 'P'}[r.form]
	changes = append(changes,
		// "Blob records carry opaque bytes": the payload begins with the
		// Data-Length line (LACE-BLOB-01), whose digits have no leading zero
		// (LACE-BLOB-03); noBlankRule; exactly <len> data bytes, up to
		// 32 MiB (LACE-BLOB-04 shown, LACE-BLOB-05).
		change{name: "data-length-lowercase", what: "with its Data-Length line named data-length",
			edit: func(m *record) { m.dl = strp("data-length: " + strconv.Itoa(len(r.data))) }, rule: lace.RuleBlobDataLengthLine},
		change{name: "data-length-leading-zero", what: "with a leading zero on its Data-Length",
			edit: func(m *record) { m.dl = strp("Data-Length: 0" + strconv.Itoa(len(r.data))) }, rule: lace.RuleBlobDataLength},
		change{name: "no-blank-line", what: "without the blank line before its data", edit: func(m *record) { m.blank = strp("") }, rule: noBlankRule(r.data)},
		change{name: "one-more-data-byte", what: "with one more data byte a and Data-Length one larger",
			edit: func(m *record) { m.data = concat(r.data, []byte("a")) },
			rule: choose(oneMore, lace.RuleBlobExactData, lace.RuleBlobMaxData), valid: oneMore},
		// The payload of r under another glyph type letter, digest
		// computed over it (LACE-GLYPH-05).
		change{name: "glyph-type-" + formName(other), what: "under a " + string(other) + ". glyph", raw: rawRecord(other, r.payload()...), rule: lace.RuleGlyphTypeMatch})
	if r.form == 'S' && len(r.env) == 2 {
		// "Seal records carry one Mark over one Plex": By appears first
		// (LACE-SEAL-02), Mark second (LACE-SEAL-04), no additional
		// envelope fields (LACE-SEAL-09; docs/lace.md, "Seals and Marks":
		// a line after Mark is one), and no bare Blob (LACE-SEAL-08).
		for _, c := range []struct {
			name, what string
			env        []string
			rule       rules.ID
		}{
			{"swap-by-mark", "with its By and Mark lines swapped", []string{r.env[1], r.env[0]}, lace.RuleSealByFirst},
			{"drop-by", "without its By line", []string{r.env[1]}, lace.RuleSealByFirst},
			{"drop-mark", "without its Mark line", []string{r.env[0]}, lace.RuleSealMarkSecond},
			{"repeat-mark", "with its Mark line repeated", []string{r.env[0], r.env[1], r.env[1]}, lace.RuleSealNoEnvelope},
		} {
			changes = append(changes, change{name: c.name, what: c.what, edit: func(m *record) { m.env = c.env }, rule: c.rule})
		}
		changes = append(changes, change{name: "seal-over-blob", what: "wrapping its Blob instead of its Plex",
			raw: rawRecord('S', lines(r.env), concat(r.blobRecord()...)), rule: lace.RuleSealNoBlob})
	}
	for _, c := range changes {
		what := c.what + ", digests recomputed"
		if c.raw != nil {
			add(c.name, what, c.raw, c.rule)
			continue
		}
		m := r.clone()
		c.edit(&m)
		switch {
		case !c.valid:
			add(c.name, what, m.bytes(), c.rule)
		case r.form != 'S':
			out = append(out, mutant{name: c.name, what: what, in: m.bytes(), valid: &m, rule: c.rule})
		case mode != markNone:
			// A valid change to a Seal's Plex is no valid Seal: its Mark,
			// made over the old Plex digest, verifies over neither the new
			// Plex nor its Blob (LACE-SEAL-07; docs/lace.md, "Seals and
			// Marks"). Under mark none it would be accepted: left out.
			add(c.name, what+": its Mark no longer covers its Plex", m.bytes(), lace.RuleSealVerify)
		}
	}
	return out
}

// choose is a if ok, otherwise b.
func choose(ok bool, a, b rules.ID) rules.ID {
	if ok {
		return a
	}
	return b
}

// lineAt is header line k of in, without its LF; ends are the line ends of
// the record in was flipped from (a flip changes no length).
func lineAt(in []byte, ends []int, k int) string {
	start := 0
	if k > 0 {
		start = ends[k-1]
	}
	return string(in[start : ends[k]-1])
}

// separatorRule is the rule a field line (or a structural line, which
// follows the same rules) breaks once the ": " after its name is damaged
// (Lace-010, "Shared field-line rules keep bytes canonical"; the order is
// docs/lace.md's, "Field lines": the separator is the first ": ", a line
// with a ':' but no ": " breaks LACE-FIELD-04 and one without any ':'
// LACE-FIELD-01; then the name, in which ':', space or tab breaks
// LACE-FIELD-03). When the value holds ": ", that becomes the separator and
// the name runs through the damaged one, which holds ';' and a space or
// ':' and a tab.
func separatorRule(line string) rules.ID {
	switch {
	case strings.Contains(line, ": "):
		return lace.RuleFieldNameChars
	case strings.Contains(line, ":"):
		return lace.RuleFieldOneSpace
	}
	return lace.RuleFieldSyntax
}

// dataLengthRule is the rule a record of form breaks with the last digit of
// its Data-Length made the next one, digests as they were ("Blob records
// carry opaque bytes"). A larger length (0 to 8 made 1 to 9) leaves fewer
// data bytes than it says (LACE-BLOB-04). A 9 made 0 is a smaller length: the Blob ends early
// and its glyph digest no longer matches the bytes it consumed, which is
// found before the bytes after it (docs/lace.md, "Record structure":
// digests are checked innermost first): LACE-GLYPH-06 for a bare Blob,
// LACE-GLYPH-07 for an embedded one.
func dataLengthRule(form byte, smaller bool) rules.ID {
	switch {
	case !smaller:
		return lace.RuleBlobExactData
	case form == 'B':
		return lace.RuleGlyphDigestMatch
	}
	return lace.RuleGlyphEmbedded
}

// noBlankRule is the rule a record with data breaks without the blank
// line after its Data-Length line ("Blob records carry opaque bytes": the
// payload is the Data-Length line, one blank LF line and the data,
// LACE-BLOB-02). Without data the input ends where the blank line belongs,
// inside the record (LACE-STREAM-03); data starting with a LF gives that
// byte as the blank line and leaves one data byte missing (LACE-BLOB-04).
func noBlankRule(data []byte) rules.ID {
	switch {
	case len(data) == 0:
		return lace.RuleStreamTruncated
	case data[0] == '\n':
		return lace.RuleBlobExactData
	}
	return lace.RuleBlobBlankLine
}

func nameOfLine(l string) string {
	name, _, _ := strings.Cut(l, ": ")
	return name
}

// classify asks the reference about one lace.record input.
func classify(ref *reference.Reference, args string, in []byte) (testee.Response, error) {
	return ref.Do(context.Background(), testee.Request{Op: lacespec.OpRecord, Args: json.RawMessage(args), Input: in})
}

// checkMutant asks the reference about v, the vector of the mutation m, and
// returns an error unless it accepts a valid m or rejects an invalid m by
// exactly the rule m states.
func checkMutant(ref *reference.Reference, v vec, m mutant) error {
	if _, ok := lace.Lookup(m.rule); !ok {
		return fmt.Errorf("lacevec: mutation %s states no Lace rule (%q)", v.name, m.rule)
	}
	resp, err := classify(ref, v.args(), v.in)
	switch {
	case err != nil:
		return fmt.Errorf("lacevec: %s: %w", v.name, err)
	case m.valid != nil && resp.Outcome != testee.Accepted:
		return fmt.Errorf("lacevec: mutation %s is a valid record (showing %s), but the reference answers %v %s: %s", v.name, m.rule, resp.Outcome, resp.Rule, resp.Detail)
	case m.valid == nil && resp.Outcome == testee.Accepted:
		return fmt.Errorf("lacevec: mutation %s must be invalid by %s, but the reference accepts it", v.name, m.rule)
	case m.valid == nil && rules.ID(resp.Rule) != m.rule:
		return fmt.Errorf("lacevec: mutation %s is meant to break %s, but the reference cites %s: %s", v.name, m.rule, resp.Rule, resp.Detail)
	}
	return nil
}

// mutations adds the mutation family of every positive lace.record vector.
func (g *gen) mutations() error {
	ref := reference.For(lacespec.Spec)
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
			if err := checkMutant(ref, v, m); err != nil {
				return err
			}
			v.rules = []rules.ID{m.rule}
			if m.valid != nil {
				v.ok, v.result = true, recordResult(*m.valid)
			}
			g.add(v)
		}
	}
	return nil
}
