// Package lacefuzz is the Lace-010 wing's fuzz generation (conform fuzz,
// issue 27): records of the three forms built from their model (fields
// whose names and values are drawn from every Unicode plane and category,
// near the line bounds, reserved or malformed; data of boundary-weighted
// lengths; Seals signed under the stand-in scheme or carrying a random
// Mark), written with every digest computed afresh (lace.Encode), so that
// the rule a model change breaks is what the reference cites; streams of
// them; lace.construct specifications; chunk trees whose ranges are
// drawn around the bounds; and directory trees whose names come from
// every plane. A quarter of the record cases are written with an envelope
// defect the encoder does not make (a final LF, By and Mark swapped, a
// record embedded where its form may not be, a glyph of another form, a
// Mark over the Blob digest, the empty input), every glyph recomputed;
// rarely a record is at the 32 MiB data limit. One in eight record cases
// is a valid record with one structure defect that a single check alone
// sees (structure.go: the Data-Length line, the blank line, fewer data
// bytes, a field separator, an embedded digest, the Seal envelope), every
// glyph digest around it recomputed, and no byte mutation after it. Half
// the other record and stream cases then get the byte-level mutation
// operators of internal/fuzzgen at random places.
package lacefuzz

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/threespec/conformance/impl/b64a"
	"github.com/threespec/conformance/impl/lace"
	"github.com/threespec/conformance/impl/lace/lacespec"
	"github.com/threespec/conformance/impl/mark"
	"github.com/threespec/conformance/internal/fuzzgen"
	"github.com/zeebo/blake3"
)

// Generator is the wing's fuzz generator.
var Generator = fuzzgen.Generator{
	Suite:    string(lacespec.Spec.Name),
	Ops:      []string{lacespec.OpRecord, lacespec.OpStream, lacespec.OpConstruct, lacespec.OpChunks, lacespec.OpDirectory},
	Generate: generate,
	AcceptRule: map[string]string{
		lacespec.OpRecord:    string(lace.RuleGlyphDigestBytes),
		lacespec.OpStream:    string(lace.RuleStreamConcat),
		lacespec.OpConstruct: string(lace.RuleCtorFields),
		lacespec.OpChunks:    string(lace.RuleChunkPlex),
		lacespec.OpDirectory: string(lace.RuleDirPlex),
	},
}

func generate(r *fuzzgen.Rand, op string) fuzzgen.Case {
	var c fuzzgen.Case
	switch op {
	case lacespec.OpRecord:
		switch {
		case r.Chance(1, 2048):
			// No byte mutation: 32 MiB are not copied again. At 1 in 2,048
			// record cases these cost about 5 % of all execs.
			return bigCase(r)
		case r.Chance(1, 64):
			return overLimitCase(r)
		case r.Chance(1, 8):
			// No byte mutation: the defect is the one thing wrong. One in
			// eight record cases: each of the 13 defects is then about 1
			// in 520 of all cases (five operations), found within seconds.
			return structCase(r, model(r))
		case r.Chance(1, 4):
			c = envelopeCase(r, model(r))
		default:
			c = recordCase(r, model(r))
		}
	case lacespec.OpStream:
		n := 1 + r.IntN(3)
		if r.Chance(1, 32) {
			n = 0 // the empty stream (LACE-STREAM-05)
		}
		recs := make([]rec, n)
		for i := range recs {
			recs[i] = model(r)
		}
		c = streamCase(r.Pick("", "", lacespec.MarkNone), recs)
		if r.Chance(1, 32) {
			// A directory chain past a consumer's default depth bound is a
			// valid stream all the same (LACE-DIR-32).
			chain := dirChain(62 + r.IntN(6))
			slices.Reverse(chain) // the root first, as a directory stream is read
			c.Input = slices.Concat(chain...)
			c.Parent, c.Smaller = "stream of a directory chain", nil
		}
	case lacespec.OpConstruct:
		return constructCase(r)
	case lacespec.OpChunks:
		c = chunksCase(r)
	default:
		c = directoryCase(r)
	}
	if r.Chance(1, 2) {
		c.Input, c.Operators = r.MutateN(c.Input, 3, c.Operators)
		c.Smaller = nil
	}
	return c
}

// fieldName draws a well-formed field name, sometimes a record-link name.
func fieldName(r *fuzzgen.Rand) string {
	if r.Chance(1, 6) {
		return r.Pick("Link", "file+Link", "Chunk+Link", "a+Link")
	}
	if r.Chance(1, 8) {
		// Names that contain or resemble the reserved ones are ordinary
		// (LACE-PLEX-11).
		return r.Pick("data-length", "by", "mark", "BY", "Mark-2", "xBy", "Data-Length-2", "🖧x", "⋯", "x🖧")
	}
	return r.Pick("title", "a", "note", "z", "x-1", "Author", "é", "日本", "Kind", "b.c", "~")
}

// linkTarget draws a link target of record-hash shape: a well-formed H3
// hash, one of another format suffix (a link does not require H3,
// LACE-LINK-05, -12) or one of the spec's symbolic example hashes
// (LACE-LINK-13).
func linkTarget(r *fuzzgen.Rand) string {
	if r.Chance(1, 4) {
		return r.Pick("S.EXAMPLE_SEAL_HASH.H3", "B.EXAMPLE_BLOB_HASH.H3", "P.EXAMPLE_PLEX_HASH.H3")
	}
	h := lace.Hash{Form: lace.Form(1 + r.IntN(3)), Digest: [lace.DigestSize]byte(r.Bytes(lace.DigestSize))}.String()
	if r.Chance(1, 3) {
		h = strings.TrimSuffix(h, ".H3") + r.Pick(".H4", ".H2", ".X9", ".h3")
	}
	return h
}

// fieldValue draws a value: text from every plane, sometimes a link
// whose target is drawn.
func fieldValue(r *fuzzgen.Rand) string {
	if r.Chance(1, 6) {
		if r.Chance(1, 2) {
			return r.Pick("1", "0..4", "x", "evidence", "0..33554432", "5..1", "00") + " " + linkTarget(r)
		}
		return r.Pick("1", "0..4", "x") + " " + r.Pick("blob:", "plex:", "seal:") + strings.Repeat(r.Pick("0", "a", "Z"), []int{43, 44, 64, 0}[r.IntN(4)])
	}
	t := []rune(r.Text(1 + r.Length(24)))
	t = slices.DeleteFunc(t, func(c rune) bool {
		return c < 0x20 || c == 0x7f || c >= 0x80 && c <= 0x9f || c == 0x2028 || c == 0x2029
	})
	if len(t) == 0 || t[0] == ' ' || t[len(t)-1] == ' ' {
		return "v"
	}
	return string(t)
}

// fieldDefects are the ways a field line breaks a rule of "Field lines",
// one applied to one field of a record model.
var fieldDefects = []struct {
	name  string
	apply func(r *fuzzgen.Rand, f *lace.Field)
}{
	{"reserved-name", func(r *fuzzgen.Rand, f *lace.Field) { f.Name = r.Pick("Data-Length", "By", "Mark", "🖧", "⋯🖧") }},
	{"empty-name", func(r *fuzzgen.Rand, f *lace.Field) { f.Name = "" }},
	{"long-name", func(r *fuzzgen.Rand, f *lace.Field) { f.Name = strings.Repeat("n", 100+r.IntN(40)) }},
	{"name-char", func(r *fuzzgen.Rand, f *lace.Field) { f.Name = r.Pick("a:b", "a b", "a\tb", "a\x00", "a\x7f") }},
	{"name-text", func(r *fuzzgen.Rand, f *lace.Field) { f.Name = r.Text(1 + r.IntN(6)) }},
	{"empty-value", func(r *fuzzgen.Rand, f *lace.Field) { f.Value = "" }},
	{"value-edge-space", func(r *fuzzgen.Rand, f *lace.Field) { f.Value = r.Pick(" ", "") + f.Value + r.Pick(" ", "\t") }},
	{"value-cr", func(r *fuzzgen.Rand, f *lace.Field) { f.Value += "\r" + f.Value }},
	{"value-control", func(r *fuzzgen.Rand, f *lace.Field) { f.Value += string(rune(r.IntN(0x20))) }},
	{"long-value", func(r *fuzzgen.Rand, f *lace.Field) { f.Value = strings.Repeat("v", 110+r.IntN(30)) }},
	{"value-text", func(r *fuzzgen.Rand, f *lace.Field) { f.Value = r.Text(1 + r.IntN(12)) }},
	{"bad-utf8", func(r *fuzzgen.Rand, f *lace.Field) { f.Value += "\xed\xa0\x80" }},
	// Decompositions of characters Unicode 16.0 added compositions for are
	// NFC under older tables, not under 17.0.0's (LACE-FIELD-08).
	{"not-nfc", func(r *fuzzgen.Rand, f *lace.Field) {
		f.Value += r.Pick("e\u0301", "\U000113C2\U000113C2", "\U00011382\U000113C9", "\U000105D2\u0307")
	}},
}

// rec is a record model: its form, fields, data and, for a Seal, its
// secret (signed under the stand-in) or a drawn By and Mark.
type rec struct {
	form   lace.Form
	fields []lace.Field
	data   []byte
	secret *[mark.KeySize]byte
	by     [mark.KeySize]byte
	mk     [mark.MarkSize]byte
	defect string // the model-level mutation applied, if any
}

func model(r *fuzzgen.Rand) rec {
	m := rec{form: lace.Form(1 + r.IntN(3))}
	m.data = r.Bytes(r.Length(48))
	if r.Chance(1, 4) {
		m.data = []byte(r.Text(r.Length(16)))
	}
	if m.form != lace.FormBlob {
		n := 1 + r.Length(3)
		if r.Chance(1, 16) {
			n = 0
		}
		for range n {
			m.fields = append(m.fields, lace.Field{Name: fieldName(r), Value: fieldValue(r)})
		}
		if n > 0 && r.Chance(1, 2) {
			d := fieldDefects[r.IntN(len(fieldDefects))]
			i := r.IntN(n)
			d.apply(r, &m.fields[i])
			m.defect = d.name + "@field " + strconv.Itoa(i)
		}
		sort.SliceStable(m.fields, func(i, j int) bool { return m.fields[i].Name < m.fields[j].Name })
		if n > 1 && r.Chance(1, 8) {
			m.fields[0], m.fields[n-1] = m.fields[n-1], m.fields[0]
			m.defect = "fields out of order"
		}
	}
	if m.form == lace.FormSeal {
		if r.Chance(3, 4) {
			s := [mark.KeySize]byte(r.Bytes(mark.KeySize))
			s[0] |= 1
			m.secret = &s
		} else {
			m.by, m.mk = [mark.KeySize]byte(r.Bytes(mark.KeySize)), [mark.MarkSize]byte(r.Bytes(mark.MarkSize))
		}
	}
	return m
}

// bytes writes the model: a signed Seal by the constructor (when its
// fields are ones the constructor takes), anything else by lace.Encode,
// every digest computed afresh.
func (m rec) bytes() []byte {
	if m.secret != nil {
		if out, _, err := lace.Construct(lace.Spec{Data: m.data, Fields: m.fields, Secret: m.secret}); err == nil {
			return out
		}
	}
	return lace.Encode(&lace.Record{Form: m.form, Fields: m.fields, Data: m.data, By: m.by, Mark: m.mk})
}

func (m rec) String() string {
	return m.form.String() + " with " + strconv.Itoa(len(m.fields)) + " fields and " + strconv.Itoa(len(m.data)) + " data bytes"
}

// smaller are the model with one field left out.
func (m rec) smaller() []rec {
	var out []rec
	for i := range m.fields {
		w := m
		w.fields = slices.Delete(slices.Clone(m.fields), i, i+1)
		out = append(out, w)
	}
	return out
}

func recordCase(r *fuzzgen.Rand, m rec) fuzzgen.Case {
	return recordOf(r.Pick("", "", lacespec.MarkNone), m)
}

func recordOf(markArg string, m rec) fuzzgen.Case {
	var ops []string
	if m.defect != "" {
		ops = append(ops, m.defect)
	}
	return fuzzgen.Case{
		Operators: ops,
		Args:      fuzzgen.Args(lacespec.Args{Mark: markArg}),
		Input:     m.bytes(),
		Generator: "lacefuzz/record",
		Parent:    m.String(),
		Smaller: func() []fuzzgen.Case {
			var out []fuzzgen.Case
			for _, s := range m.smaller() {
				out = append(out, recordOf(markArg, s))
			}
			return out
		},
	}
}

// glyphed is a record of form f over payload, its glyph line's digest
// computed afresh (BLAKE3-256 of the payload, LACE-GLYPH-03) whatever the
// payload holds, so that a defect of the payload's structure is the rule
// the reference cites.
func glyphed(f lace.Form, payload []byte) []byte {
	h := lace.Hash{Form: f, Digest: blake3.Sum256(payload)}
	out := make([]byte, 0, lace.GlyphLineLen+len(payload))
	out = append(out, lace.Glyph+": "+h.String()+"\n"...)
	return append(out, payload...)
}

// Widths of a Seal's structural By and Mark lines (Lace-010, "Maximum H3
// record size is bounded").
const (
	byLineLen   = len("By: ") + mark.ByTextLen + 1     // 53
	markLineLen = len("Mark: ") + mark.MarkTextLen + 1 // 93
)

// envelopeDefects are byte forms of a whole record that the model's
// encoder does not write: a final LF, the Seal envelope's lines swapped,
// a record embedded where its form may not be, a glyph of another form,
// a Mark over the Blob's digest, and the empty input. Each recomputes
// every glyph digest, so that the structure is what the reference judges.
var envelopeDefects = []struct {
	name  string
	apply func(r *fuzzgen.Rand, m rec) []byte
}{
	// MUT-LACE-TRAILING-LF-ACCEPTED: a stored record holds nothing after it.
	{"append-lf", func(r *fuzzgen.Rand, m rec) []byte { return append(m.bytes(), '\n') }},
	// LACE-SEAL-01, MUT-LACE-SEAL-ENVELOPE-ANY-ORDER: By comes first.
	{"swap-by-mark", func(r *fuzzgen.Rand, m rec) []byte {
		p := sealOf(m)[lace.GlyphLineLen:]
		env := byLineLen + markLineLen
		return glyphed(lace.FormSeal, slices.Concat(p[byLineLen:env], p[:byLineLen], p[env:]))
	}},
	// LACE-SEAL-08, LACE-EX-10, LACE-NEST-03: a Seal embeds a Plex.
	{"seal-wraps-blob", func(r *fuzzgen.Rand, m rec) []byte { return sealAround(m, blob(m.data)) }},
	{"seal-wraps-seal", func(r *fuzzgen.Rand, m rec) []byte { return sealAround(m, sealOf(m)) }},
	// LACE-SEAL-01: nothing between the Mark line and the embedded Plex.
	{"blank-before-plex", func(r *fuzzgen.Rand, m rec) []byte {
		return sealAround(m, append([]byte(strings.Repeat("\n", 1+r.IntN(2))), plexOf(m)...))
	}},
	// LACE-LINK-14: a Plex naming a convention it breaks is a valid record.
	{"convention-invalid", func(r *fuzzgen.Rand, m rec) []byte {
		m.form, m.secret = lace.FormPlex, nil
		m.fields = []lace.Field{
			{Name: r.Pick("Chunk+Link", "File+Link", "Page+Link", "Child+Link"), Value: r.Pick("1..4", "5..1", "a/b", "00", "..") + " " + linkTarget(r)},
			{Name: "Kind", Value: r.Pick("chunks", "directory")},
		}
		sort.SliceStable(m.fields, func(i, j int) bool { return m.fields[i].Name < m.fields[j].Name })
		return m.bytes()
	}},
	// LACE-NEST-02: a Plex embeds a Blob.
	{"plex-wraps-plex", func(r *fuzzgen.Rand, m rec) []byte { return plexAround(m, plexOf(m)) }},
	{"plex-wraps-seal", func(r *fuzzgen.Rand, m rec) []byte { return plexAround(m, sealOf(m)) }},
	// LACE-NEST-01: a Blob's data is never parsed, whatever it holds.
	{"blob-holds-record", func(r *fuzzgen.Rand, m rec) []byte { return blob(m.bytes()) }},
	// LACE-GLYPH-05: the glyph letter names the parsed form.
	{"glyph-letter", func(r *fuzzgen.Rand, m rec) []byte {
		b := m.bytes()
		f := lace.Form(1 + (int(m.form)-1+1+r.IntN(2))%3)
		return glyphed(f, b[lace.GlyphLineLen:])
	}},
	// LACE-SEAL-06: the Mark subject is the embedded Plex digest.
	{"mark-over-blob", func(r *fuzzgen.Rand, m rec) []byte {
		b := sealOf(m)
		if m.secret == nil {
			return b
		}
		bl := blob(m.data)
		mk, err := mark.CheckBIP340Standin.Scheme().Sign(*m.secret, blake3.Sum256(bl[lace.GlyphLineLen:]), [mark.AuxSize]byte{})
		if err != nil {
			return b
		}
		b = slices.Clone(b)
		copy(b[lace.GlyphLineLen+byLineLen+len("Mark: "):], mark.FormatMark(mk))
		return glyphed(lace.FormSeal, b[lace.GlyphLineLen:])
	}},
	// LACE-STREAM-05: no input is no record.
	{"empty", func(r *fuzzgen.Rand, m rec) []byte { return []byte{} }},
}

// sealOf is m written as a Seal, plexOf as a Plex.
func sealOf(m rec) []byte {
	m.form = lace.FormSeal
	return m.bytes()
}

func plexOf(m rec) []byte {
	m.form, m.secret = lace.FormPlex, nil
	return m.bytes()
}

// sealAround is m's Seal envelope (By and Mark lines) around embedded.
func sealAround(m rec, embedded []byte) []byte {
	env := sealOf(m)[lace.GlyphLineLen:][:byLineLen+markLineLen]
	return glyphed(lace.FormSeal, slices.Concat(env, embedded))
}

// plexAround is m's field lines around embedded.
func plexAround(m rec, embedded []byte) []byte {
	p := plexOf(m)[lace.GlyphLineLen:]
	at := bytes.Index(p, []byte(lace.Glyph+": "))
	if at < 0 {
		at = len(p)
	}
	return glyphed(lace.FormPlex, slices.Concat(p[:at], embedded))
}

// envelopeCase is a record model written with one envelope defect.
func envelopeCase(r *fuzzgen.Rand, m rec) fuzzgen.Case {
	if m.form == lace.FormSeal && m.secret == nil {
		s := [mark.KeySize]byte(r.Bytes(mark.KeySize))
		s[0] |= 1
		m.secret = &s
	}
	d := envelopeDefects[r.IntN(len(envelopeDefects))]
	return fuzzgen.Case{
		Operators: []string{d.name},
		Args:      fuzzgen.Args(lacespec.Args{Mark: r.Pick("", "", lacespec.MarkNone)}),
		Input:     d.apply(r, m),
		Generator: "lacefuzz/envelope",
		Parent:    m.String(),
	}
}

// bigCase is a record at the 32 MiB data limit or one byte over it
// (LACE-BLOB-05, MUT-LACE-BLOB-LIMIT-PLUS-1), a Plex or Seal there
// carrying 512 field lines of 129 bytes, the largest record of
// its form (LACE-SIZE-01..03). Drawn rarely: it costs tens of
// milliseconds.
func bigCase(r *fuzzgen.Rand) fuzzgen.Case {
	n := lace.MaxData
	if r.Chance(1, 4) {
		n++ // also drawn, cheaply, by overLimitCase's short data
	}
	m := rec{form: []lace.Form{lace.FormBlob, lace.FormBlob, lace.FormPlex, lace.FormSeal, lace.FormSeal}[r.IntN(5)]}
	if m.form != lace.FormBlob {
		v := strings.Repeat("v", lace.MaxLine-len("a: "))
		m.fields = make([]lace.Field, lace.MaxFields)
		for i := range m.fields {
			m.fields[i] = lace.Field{Name: "a", Value: v}
		}
	}
	m.data = make([]byte, n)
	if m.form == lace.FormSeal {
		s := [mark.KeySize]byte{1}
		m.secret = &s
	}
	return fuzzgen.Case{
		Operators: []string{"data " + strconv.Itoa(n)},
		Args:      fuzzgen.Args(lacespec.Args{Mark: lacespec.MarkNone}),
		Input:     m.bytes(),
		Generator: "lacefuzz/big",
		Parent:    m.String(),
	}
}

// overLimitCase is a Blob whose Data-Length is over the 32 MiB limit
// (by one, or by far) followed by fewer bytes: the limit is judged from
// the Data-Length line before any data is read (LACE-BLOB-05).
func overLimitCase(r *fuzzgen.Rand) fuzzgen.Case {
	data := r.Bytes(r.Length(16))
	n := r.Pick(strconv.Itoa(lace.MaxData+1), strconv.Itoa(lace.MaxData+1+r.IntN(1<<20)), "18446744073709551616")
	in := bytes.Replace(blob(data), []byte("Data-Length: "+strconv.Itoa(len(data))+"\n"), []byte("Data-Length: "+n+"\n"), 1)
	return fuzzgen.Case{
		Operators: []string{"Data-Length " + n + " over " + strconv.Itoa(len(data)) + " bytes"},
		Args:      fuzzgen.Args(lacespec.Args{Mark: lacespec.MarkNone}),
		Input:     glyphed(lace.FormBlob, in[lace.GlyphLineLen:]),
		Generator: "lacefuzz/big",
		Parent:    "Blob of " + strconv.Itoa(len(data)) + " data bytes",
	}
}

func streamCase(markArg string, recs []rec) fuzzgen.Case {
	var in []byte
	var forms []string
	for _, m := range recs {
		in = append(in, m.bytes()...)
		forms = append(forms, m.form.String())
	}
	return fuzzgen.Case{
		Args:      fuzzgen.Args(lacespec.Args{Mark: markArg}),
		Input:     in,
		Generator: "lacefuzz/stream",
		Parent:    "stream of " + strings.Join(forms, ", "),
		Smaller: func() []fuzzgen.Case {
			var out []fuzzgen.Case
			for i := range recs {
				if len(recs) > 1 {
					out = append(out, streamCase(markArg, slices.Delete(slices.Clone(recs), i, i+1)))
				}
			}
			return out
		},
	}
}

// constructCase is a lace.construct specification: data, fields and
// sometimes a By-secret and aux, each drawn.
func constructCase(r *fuzzgen.Rand) fuzzgen.Case {
	spec := map[string]any{}
	if !r.Chance(1, 8) {
		spec["data"] = base64.StdEncoding.EncodeToString(r.Bytes(r.Length(48)))
	}
	var fields [][2]string
	if !r.Chance(1, 4) {
		for range r.Length(4) {
			f := lace.Field{Name: fieldName(r), Value: fieldValue(r)}
			if r.Chance(1, 4) {
				fieldDefects[r.IntN(len(fieldDefects))].apply(r, &f)
			}
			fields = append(fields, [2]string{f.Name, f.Value})
		}
		spec["fields"] = fields
	}
	if r.Chance(1, 8) {
		// Same-name link fields whose link data run backwards: the
		// constructor keeps caller order within a name (LACE-LINK-17).
		name := r.Pick("File+Link", "Child+Link", "Page+Link", "Chunk+Link")
		for _, d := range []string{"z", "m", "b"} {
			fields = append(fields, [2]string{name, d + " " + linkTarget(r)})
		}
		spec["fields"] = fields
	}
	if r.Chance(1, 3) {
		secret := r.Bytes(mark.KeySize)
		if r.Chance(1, 4) {
			// By-secrets no By derives from: zero, the curve order n and
			// above (LACE-CTOR-10).
			secret = []byte(r.Pick(strings.Repeat("\x00", mark.KeySize), strings.Repeat("\xff", mark.KeySize),
				"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xba\xae\xdc\xe6\xaf\x48\xa0\x3b\xbf\xd2\x5e\x8c\xd0\x36\x41\x41"))
		}
		spec["secret"] = base64.StdEncoding.EncodeToString(secret)
		if r.Chance(1, 2) {
			spec["aux"] = base64.StdEncoding.EncodeToString(r.Bytes(mark.AuxSize))
		}
	}
	b, err := json.Marshal(spec)
	if err != nil {
		panic(err)
	}
	return fuzzgen.Case{Args: fuzzgen.Args(lacespec.Args{}), Input: b, Generator: "lacefuzz/construct",
		Parent: strconv.Itoa(len(fields)) + " fields"}
}

// hashOf is the hash text of a record's bytes ("" when they do not parse).
func hashOf(b []byte) string {
	rc, err := lace.Parse(b, lace.Options{Mark: mark.CheckNone})
	if err != nil {
		return ""
	}
	return rc.Hash.String()
}

func plex(fields ...string) []byte {
	var fs []lace.Field
	for _, f := range fields {
		name, value, _ := strings.Cut(f, ": ")
		fs = append(fs, lace.Field{Name: name, Value: value})
	}
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].Name < fs[j].Name })
	return lace.Encode(&lace.Record{Form: lace.FormPlex, Fields: fs, Data: []byte{}})
}

func blob(data []byte) []byte {
	return lace.Encode(&lace.Record{Form: lace.FormBlob, Data: data})
}

// node is a chunk node or directory record model: its form, fields (in
// the order they are written: a defect may leave them unsorted) and data.
type node struct {
	form   lace.Form
	fields []string // "Name: value"
	data   []byte
	sorted bool
}

func (n node) bytes() []byte {
	var fs []lace.Field
	for _, f := range n.fields {
		name, value, _ := strings.Cut(f, ": ")
		fs = append(fs, lace.Field{Name: name, Value: value})
	}
	if n.sorted {
		sort.SliceStable(fs, func(i, j int) bool { return fs[i].Name < fs[j].Name })
	}
	switch n.form {
	case lace.FormBlob:
		return blob(n.data)
	case lace.FormSeal:
		s := [mark.KeySize]byte{1}
		if out, _, err := lace.Construct(lace.Spec{Data: n.data, Fields: fs, Secret: &s}); err == nil {
			return out
		}
	}
	return lace.Encode(&lace.Record{Form: lace.FormPlex, Fields: fs, Data: n.data})
}

// shapeDefect changes a chunk node's or directory's own shape (its form,
// data, Kind, other fields), the Kind value being kind; it returns its
// name.
func shapeDefect(r *fuzzgen.Rand, n *node, kind string) string {
	switch r.IntN(7) {
	case 0:
		n.form = lace.FormBlob
		n.data = []byte("Kind: " + kind)
		return "node is a Blob"
	case 1:
		n.form = lace.FormSeal
		return "node is a Seal"
	case 2:
		n.data = r.Bytes(1 + r.IntN(8))
		return "node has data"
	case 3:
		n.fields = slices.DeleteFunc(n.fields, func(f string) bool { return strings.HasPrefix(f, "Kind: ") })
		return "Kind left out"
	case 4:
		n.fields = append(n.fields, "Kind: "+kind)
		return "Kind twice"
	case 5:
		for i, f := range n.fields {
			if strings.HasPrefix(f, "Kind: ") {
				n.fields[i] = "Kind: " + r.Pick("chunk", "directory", "chunks", "Chunks", "dir", kind+" ")
			}
		}
		return "Kind changed"
	}
	n.fields = append(n.fields, r.Pick("title: x", "File+Link: a "+strings.Repeat("A", 10), "Chunk+Link: 0..1 x", "Page+Link: 0 x", "a+Link: 1 x"))
	return "another field"
}

// kid is a chunk node's child: a Blob, or a record of another shape.
func kid(r *fuzzgen.Rand, shape string) []byte {
	switch shape {
	case "seal":
		return node{form: lace.FormSeal, fields: []string{"title: x"}, data: r.Bytes(r.Length(8)), sorted: true}.bytes()
	case "plex":
		return plex("title: " + r.Text(3))
	}
	return blob(r.Bytes(1 + r.Length(32)))
}

// rangeText writes a range, sometimes not canonically.
func rangeText(start, end uint64, defect string) string {
	s, e := strconv.FormatUint(start, 10), strconv.FormatUint(end, 10)
	switch defect {
	case "leading-zero":
		s = "0" + s
	case "sign":
		s = "+" + s
	case "space":
		return s + " .." + e
	case "dash":
		return s + "-" + e
	case "overflow":
		e = "18446744073709551616"
	default:
		if strings.HasPrefix(defect, "1") {
			e = defect // an end written as given (overflowEnd)
		}
	}
	return s + ".." + e
}

// chunksCase is a chunk node over 1 to 4 children (Blobs, sometimes a
// nested chunk node or a repeated child), its ranges computed from them,
// and half the time one defect: of the node's shape, of a child's shape
// or hash format, of a range's text or value, or a child left out.
func chunksCase(r *fuzzgen.Rand) fuzzgen.Case {
	defect := ""
	if r.Chance(1, 2) {
		defect = r.Pick(chunksDefects...)
	}
	return chunksOf(r, defect)
}

// chunksDefects are the defects chunksCase draws.
var chunksDefects = []string{"shape", "kid-seal", "kid-plex", "format", "leading-zero", "sign", "space", "dash", "overflow",
	"empty-range", "first-start", "gap", "overlap", "length", "missing", "end", "no-links", "fanout", "swap",
	"fanout-511", "empty-file", "other-format", "pad-bits", "kid-sealed-node", "overflow-wraps"}

// chunksOf is chunksCase with defect ("" none).
func chunksOf(r *fuzzgen.Rand, defect string) fuzzgen.Case {
	n := 1 + r.IntN(4)
	var ops []string
	if defect != "" {
		ops = append(ops, defect)
	}
	switch defect {
	case "fanout":
		n = 512
	case "fanout-511":
		n = 511 // the most one Kind field leaves (LACE-CHUNK-23)
	case "empty-file":
		// An empty file is an empty Blob, no chunk node (LACE-CHUNK-11).
		return fuzzgen.Case{Args: fuzzgen.Args(lacespec.BoundedArgs{}), Input: blob([]byte{}), Generator: "lacefuzz/chunks",
			Operators: ops, Parent: "empty Blob"}
	}
	var kids, extra [][]byte
	var lens []uint64
	for i := range n {
		shape := ""
		if i == 0 && (defect == "kid-seal" || defect == "kid-plex") {
			shape = strings.TrimPrefix(defect, "kid-")
		}
		k := kid(r, shape)
		if i == 0 && defect == "kid-sealed-node" {
			// A Seal around a chunk node over a Blob: read as its Plex, a
			// valid subtree; a Chunk+Link to a Seal is invalid all the same
			// (LACE-CHUNK-07, vector chunks-child-seal).
			b := kid(r, "")
			sub := node{form: lace.FormSeal, data: []byte{}, sorted: true,
				fields: []string{"Chunk+Link: 0.." + strconv.Itoa(dataLen(b)) + " " + hashOf(b), "Kind: chunks"}}
			k = sub.bytes()
			extra = append(extra, b)
			lens = append(lens, uint64(dataLen(b)))
			kids = append(kids, k)
			continue
		}
		if (defect == "fanout" || defect == "fanout-511") && i > 0 {
			k = kids[0]
		}
		if i > 0 && defect != "kid-sealed-node" && r.Chance(1, 8) {
			k = kids[r.IntN(i)] // sharing
		}
		kids = append(kids, k)
		lens = append(lens, uint64(max(dataLen(k), 1)))
	}
	root := node{form: lace.FormPlex, data: []byte{}, sorted: true}
	at := uint64(0)
	for i, k := range kids {
		start, end := at, at+lens[i]
		rd := ""
		switch {
		case i == 0 && defect == "first-start":
			start++
			end++
		case i == n-1 && defect == "gap":
			start++
			end++
		case i == n-1 && defect == "overlap" && start > 0:
			start--
		case i == n-1 && defect == "empty-range":
			end = start
		case i == n-1 && defect == "length":
			end++
		case i == n-1 && defect == "end":
			end = r.Uint(1<<64-1, end)
		case i == n-1 && defect == "overflow-wraps":
			rd = overflowEnd(end)
		}
		target := hashOf(k)
		if i == 0 && defect == "format" {
			target = r.Pick("blob:", "h4:", "B.") + strings.Repeat("a", 10)
		}
		if i == 0 && defect == "pad-bits" {
			target = padBits(r, target)
		}
		if i == 0 && defect == "other-format" {
			// A well-formed hash of a format other than H3 is invalid,
			// not missing (LACE-CHUNK-08).
			target = strings.TrimSuffix(target, ".H3") + r.Pick(".H4", ".H2", ".X9")
		}
		if i == n-1 && rd == "" {
			rd = defect
		}
		root.fields = append(root.fields, "Chunk+Link: "+rangeText(start, end, rd)+" "+target)
		at = end
	}
	if defect == "swap" && n > 1 {
		root.sorted = false
		root.fields[0], root.fields[n-1] = root.fields[n-1], root.fields[0]
	}
	if defect == "no-links" {
		root.fields = nil
	}
	root.fields = append(root.fields, "Kind: chunks")
	if defect == "shape" {
		ops = append(ops, shapeDefect(r, &root, "chunks"))
	}
	in := root.bytes()
	seen := map[string]bool{}
	kids = append(kids, extra...)
	for i, k := range kids {
		if defect == "missing" && i == n-1 {
			continue
		}
		if !seen[string(k)] {
			in = append(in, k...)
			seen[string(k)] = true
		}
	}
	return fuzzgen.Case{Args: fuzzgen.Args(lacespec.BoundedArgs{}), Input: in, Generator: "lacefuzz/chunks",
		Operators: ops, Parent: "chunk node over " + strconv.Itoa(n) + " children"}
}

// padBits writes an H3 hash text with nonzero pad bits in its last B64A
// character: it decodes, leniently, to the same digest, but is not the
// canonical hash text a chunk or directory target must be (LACE-CHUNK-06,
// LACE-DIR-05..07).
func padBits(r *fuzzgen.Rand, target string) string {
	at := len(target) - len(".H3") - 1
	if at < 2 || !strings.HasSuffix(target, ".H3") {
		return target
	}
	i := strings.IndexByte(b64a.Alphabet, target[at])
	if i < 0 || i%4 != 0 {
		return target
	}
	return target[:at] + string(b64a.Alphabet[i+1+r.IntN(3)]) + target[at+1:]
}

// chunkFile is a file of two or three Blobs as a chunk node, followed by
// its Blobs: a directory's file that is a chunk tree, listed by the
// node's hash, not by its assembled bytes' (LACE-CHUNK-24).
func chunkFile(r *fuzzgen.Rand) (nodeBytes []byte, stream [][]byte) {
	root := node{form: lace.FormPlex, data: []byte{}, sorted: true}
	at := uint64(0)
	for range 2 + r.IntN(2) {
		k := kid(r, "")
		end := at + uint64(dataLen(k))
		root.fields = append(root.fields, "Chunk+Link: "+rangeText(at, end, "")+" "+hashOf(k))
		stream = append(stream, k)
		at = end
	}
	root.fields = append(root.fields, "Kind: chunks")
	return root.bytes(), stream
}

// dataLen is the data length of a Blob's bytes.
func dataLen(b []byte) int {
	rc, err := lace.Parse(b, lace.Options{Mark: mark.CheckNone})
	if err != nil {
		return 0
	}
	return len(rc.Data)
}

// dirName draws a directory entry name: a component, from every plane.
func dirName(r *fuzzgen.Rand) string {
	if r.Chance(1, 3) {
		t := []rune(r.Text(1 + r.IntN(6)))
		t = slices.DeleteFunc(t, func(c rune) bool {
			return c < 0x21 || c == 0x7f || c == '/' || c >= 0x80 && c <= 0x9f || c == 0x2028 || c == 0x2029 || c >= 0x300 && c <= 0x36f
		})
		if s := string(t); s != "" && s != "." && s != ".." {
			return s
		}
	}
	return r.Pick("readme", "a", "docs", "z.txt", "é", "日本", " lead", "b c")
}

// dirChain is a chain of depth+1 directory records, each the one Child+Link
// of the next, innermost first.
func dirChain(depth int) [][]byte {
	var out [][]byte
	child := node{form: lace.FormPlex, data: []byte{}, sorted: true, fields: []string{"Kind: directory"}}
	for range depth {
		cb := child.bytes()
		out = append(out, cb)
		child.fields = []string{"Child+Link: d " + hashOf(cb), "Kind: directory"}
	}
	return append(out, child.bytes())
}

// directoryCase is a directory of files, children and sometimes a page,
// its names drawn and sorted, and half the time one defect: of its shape,
// a name (empty, a dot segment, a '/', over the line budget), the order,
// a repeated name, a target of the wrong family or format, a page
// ordinal, or an entry left out of the stream.
func directoryCase(r *fuzzgen.Rand) fuzzgen.Case {
	defect := ""
	if r.Chance(1, 2) {
		defect = r.Pick(directoryDefects...)
	}
	return directoryOf(r, defect)
}

// directoryDefects are the defects directoryCase draws.
var directoryDefects = []string{"shape", "name-empty", "name-dot", "name-dotdot", "name-slash", "name-long", "order", "duplicate",
	"file-plex", "file-seal", "child-blob", "format", "page-ordinal", "missing", "page-shape",
	"other-format", "duplicate-page", "reuse-child", "deep", "bounds", "pad-file", "pad-child", "pad-page", "names-not-values",
	"page-of-pages"}

// directoryOf is directoryCase with defect ("" none).
func directoryOf(r *fuzzgen.Rand, defect string) fuzzgen.Case {
	var ops []string
	if defect != "" {
		ops = append(ops, defect)
	}
	var stream [][]byte
	var files, children []string
	names := map[string]bool{}
	name := func() string {
		n := dirName(r)
		for names[n] {
			n += "x"
		}
		names[n] = true
		return n
	}
	for i := range r.Length(3) {
		f := kid(r, "")
		if r.Chance(1, 6) {
			var ks [][]byte
			f, ks = chunkFile(r)
			stream = append(stream, ks...)
		}
		switch {
		case i == 0 && defect == "file-plex":
			f = plex("title: x")
		case i == 0 && defect == "file-seal":
			f = kid(r, "seal")
		}
		stream = append(stream, f)
		files = append(files, name()+" "+hashOf(f))
	}
	for i := range r.Length(2) {
		child := node{form: lace.FormPlex, data: []byte{}, sorted: true, fields: []string{"Kind: directory"}}
		for range r.Length(2) {
			f := kid(r, "")
			stream = append(stream, f)
			child.fields = append(child.fields, "File+Link: "+dirName(r)+" "+hashOf(f))
		}
		if defect == "names-not-values" || defect == "page-of-pages" {
			// A child whose own files are in order: the root's names are
			// the one thing wrong, or nothing is.
			child.fields = childFilesSorted(child.fields)
		}
		cb := child.bytes()
		if i == 0 && defect == "child-blob" {
			cb = kid(r, "")
		}
		stream = append(stream, cb)
		children = append(children, name()+" "+hashOf(cb))
	}
	bad := map[string]string{"name-empty": "", "name-dot": ".", "name-dotdot": "..", "name-slash": "a/b", "name-long": strings.Repeat("n", 60+r.IntN(20))}
	if v, ok := bad[defect]; ok && len(files) > 0 {
		_, target, _ := strings.Cut(files[0], " ")
		files[0] = v + " " + target
	}
	if defect == "format" && len(files) > 0 {
		files[0] = "f " + r.Pick("blob:", "h4:", "P.") + strings.Repeat("a", 10)
	}
	if defect == "other-format" && len(files) > 0 {
		// A non-H3 target is invalid, not missing (LACE-DIR-24).
		n, t, _ := strings.Cut(files[0], " ")
		files[0] = n + " " + strings.TrimSuffix(t, ".H3") + r.Pick(".H4", ".H2", ".X9")
	}
	if defect == "pad-file" && len(files) > 0 {
		n, t, _ := strings.Cut(files[0], " ")
		files[0] = n + " " + padBits(r, t)
	}
	if defect == "pad-child" && len(children) > 0 {
		n, t, _ := strings.Cut(children[0], " ")
		children[0] = n + " " + padBits(r, t)
	}
	if defect == "reuse-child" && len(children) > 0 {
		// One subtree under two names expands at each (LACE-DIR-27).
		_, t, _ := strings.Cut(children[0], " ")
		children = append(children, name()+" "+t)
	}
	if defect == "deep" {
		// A chain of children past the depth bound: refused by the
		// consumer, still a valid stream (LACE-DIR-29, -32).
		chain := dirChain(60 + r.IntN(10))
		stream = append(stream, chain...)
		children = append(children, name()+" "+hashOf(chain[len(chain)-1]))
	}
	if defect == "names-not-values" {
		// Names n+" " then n: their complete values ascend (a space sorts
		// before a hash's type letter) while the names decrease; names
		// are compared (LACE-DIR-16, -18, vector dir-names-decrease-values-ascend).
		n := name()
		names[n+" "] = true
		for _, v := range []string{n + " ", n} {
			f := kid(r, "")
			stream = append(stream, f)
			files = append(files, v+" "+hashOf(f))
		}
	}
	sort.Strings(files)
	sort.Strings(children)
	if defect == "duplicate" && len(files) > 0 {
		if len(children) > 0 && r.Chance(1, 2) {
			n, _, _ := strings.Cut(files[0], " ")
			_, t, _ := strings.Cut(children[0], " ")
			children[0] = n + " " + t
		} else {
			files = append(files, files[0])
		}
	}
	root := node{form: lace.FormPlex, data: []byte{}, sorted: true}
	for _, c := range children {
		root.fields = append(root.fields, "Child+Link: "+c)
	}
	for _, f := range files {
		root.fields = append(root.fields, "File+Link: "+f)
	}
	if defect == "order" && len(files) > 1 {
		root.sorted = false
		k := len(children)
		root.fields[k], root.fields[k+1] = root.fields[k+1], root.fields[k]
	}
	root.fields = append(root.fields, "Kind: directory")
	if r.Chance(1, 4) || defect == "page-ordinal" || defect == "page-shape" || defect == "duplicate-page" || defect == "pad-page" || defect == "page-of-pages" {
		page := node{form: lace.FormPlex, data: []byte{}, sorted: true, fields: []string{"Kind: directory"}}
		f := kid(r, "")
		stream = append(stream, f)
		pn := name()
		if defect == "duplicate-page" && len(files) > 0 {
			// Names are unique across a directory's pages, not only
			// within each record (MUT-LACE-DIR-UNIQUE-PER-RECORD).
			pn, _, _ = strings.Cut(files[r.IntN(len(files))], " ")
		}
		page.fields = append(page.fields, "File+Link: "+pn+" "+hashOf(f))
		if defect == "page-of-pages" {
			// A page may reference a further page: no defect, a valid
			// directory whose third record holds an entry (LACE-DIR-26,
			// vector dir-pages-of-pages).
			sub := node{form: lace.FormPlex, data: []byte{}, sorted: true, fields: []string{"Kind: directory"}}
			sf := kid(r, "")
			sub.fields = append(sub.fields, "File+Link: "+name()+" "+hashOf(sf))
			sb := sub.bytes()
			stream = append(stream, sf, sb)
			page.fields = append(page.fields, "Page+Link: 0 "+hashOf(sb))
		}
		if defect == "page-shape" {
			ops = append(ops, shapeDefect(r, &page, "directory"))
		}
		pb := page.bytes()
		stream = append(stream, pb)
		ord := "0"
		if defect == "page-ordinal" {
			ord = r.Pick("1", "00", "+0", "-0", "0x0")
		}
		pt := hashOf(pb)
		if defect == "pad-page" {
			pt = padBits(r, pt)
		}
		root.fields = append(root.fields, "Page+Link: "+ord+" "+pt)
	}
	if defect == "shape" {
		ops = append(ops, shapeDefect(r, &root, "directory"))
	}
	if defect == "missing" && len(stream) > 0 {
		stream = stream[:len(stream)-1]
	}
	in := root.bytes()
	seen := map[string]bool{}
	for _, b := range stream {
		if !seen[string(b)] {
			in = append(in, b...)
			seen[string(b)] = true
		}
	}
	args := lacespec.BoundedArgs{}
	if defect == "bounds" || defect == "reuse-child" || defect != "names-not-values" && defect != "page-of-pages" && r.Chance(1, 8) {
		// Bounds near the tree's size: the expansion bound counts repeated
		// uses (LACE-DIR-30), the depth bound links from the root (LACE-DIR-29).
		d, e, b := int64(1+r.IntN(4)), int64(1+r.IntN(12)), int64(1+r.IntN(200))
		args.MaxDepth, args.MaxExpansion, args.MaxBytes = &d, &e, &b
		if r.Chance(1, 2) {
			args.MaxBytes = nil
		}
	}
	return fuzzgen.Case{Args: fuzzgen.Args(args), Input: in, Generator: "lacefuzz/directory",
		Operators: ops, Parent: "directory of " + strconv.Itoa(len(files)) + " files and " + strconv.Itoa(len(children)) + " children"}
}

// childFilesSorted is a directory's fields with its File+Link names made
// unique and sorted by name bytes (LACE-DIR-16, -18): fields are
// "File+Link: <name> <target>" or others, kept first.
func childFilesSorted(fields []string) []string {
	var out, files []string
	seen := map[string]bool{}
	for _, f := range fields {
		v, ok := strings.CutPrefix(f, "File+Link: ")
		if !ok {
			out = append(out, f)
			continue
		}
		at := strings.LastIndexByte(v, ' ')
		if n := v[:at]; !seen[n] {
			seen[n] = true
			files = append(files, v)
		}
	}
	slices.SortStableFunc(files, func(a, b string) int {
		return strings.Compare(a[:strings.LastIndexByte(a, ' ')], b[:strings.LastIndexByte(b, ' ')])
	})
	for _, v := range files {
		out = append(out, "File+Link: "+v)
	}
	return out
}
