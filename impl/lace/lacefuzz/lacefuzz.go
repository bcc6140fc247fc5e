// Package lacefuzz is the Lace-010 wing's fuzz generation (conform fuzz,
// issue 27): records of the three forms built from their model (fields
// whose names and values are drawn from every Unicode plane and category,
// near the line bounds, reserved or malformed; data of boundary-weighted
// lengths; Seals signed under the stand-in scheme or carrying a random
// Mark), written with every digest computed afresh (lace.Encode), so that
// the rule a model change breaks is what the reference cites; streams of
// them; lace.construct specifications; chunk trees whose ranges are
// drawn around the bounds; and directory trees whose names come from
// every plane. Half the record and stream cases then get the byte-level
// mutation operators of internal/fuzzgen at random places.
package lacefuzz

import (
	"encoding/base64"
	"encoding/json"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/threespec/conformance/impl/lace"
	"github.com/threespec/conformance/impl/lace/lacespec"
	"github.com/threespec/conformance/impl/mark"
	"github.com/threespec/conformance/internal/fuzzgen"
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
		c = recordCase(r, model(r))
	case lacespec.OpStream:
		n := 1 + r.IntN(3)
		recs := make([]rec, n)
		for i := range recs {
			recs[i] = model(r)
		}
		c = streamCase(r.Pick("", "", lacespec.MarkNone), recs)
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
	return r.Pick("title", "a", "note", "z", "x-1", "Author", "é", "日本", "Kind", "b.c", "~")
}

// fieldValue draws a value: text from every plane, sometimes a link
// whose target is drawn.
func fieldValue(r *fuzzgen.Rand) string {
	if r.Chance(1, 6) {
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
	{"reserved-name", func(r *fuzzgen.Rand, f *lace.Field) { f.Name = r.Pick("Data-Length", "By", "Mark") }},
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
	{"not-nfc", func(r *fuzzgen.Rand, f *lace.Field) { f.Value += "e\u0301" }},
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
	if r.Chance(1, 3) {
		spec["secret"] = base64.StdEncoding.EncodeToString(r.Bytes(mark.KeySize))
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

// chunksCase is a chunk node over 1 to 4 Blobs, its ranges computed from
// them and, a third of the time, one range end or start drawn around the
// bounds, the Kind changed, or a Blob left out of the stream.
func chunksCase(r *fuzzgen.Rand) fuzzgen.Case {
	n := 1 + r.IntN(4)
	var kids [][]byte
	var fields []string
	at := uint64(0)
	for range n {
		k := blob(r.Bytes(r.Length(32)))
		kids = append(kids, k)
		end := at + uint64(dataLen(k))
		fields = append(fields, "Chunk+Link: "+strconv.FormatUint(at, 10)+".."+strconv.FormatUint(end, 10)+" "+hashOf(k))
		at = end
	}
	kind := "Kind: chunks"
	var ops []string
	if r.Chance(1, 3) {
		i := r.IntN(len(fields))
		switch r.IntN(4) {
		case 0:
			v := r.Uint(1<<64-1, at)
			name, rest, _ := strings.Cut(fields[i], " ")
			_, tail, _ := strings.Cut(rest, " ")
			start, _, _ := strings.Cut(rest, "..")
			fields[i] = name + " " + start + ".." + strconv.FormatUint(v, 10) + " " + tail
			ops = append(ops, "chunk "+strconv.Itoa(i)+" end="+fuzzgen.BoundaryName(v))
		case 1:
			kind = r.Pick("Kind: chunk", "Kind: directory", "Kind: Chunks", "")
			ops = append(ops, "kind "+strconv.Quote(kind))
		case 2:
			j := r.IntN(len(kids))
			kids = slices.Delete(kids, j, j+1)
			ops = append(ops, "blob "+strconv.Itoa(j)+" left out")
		default:
			j := r.IntN(len(fields))
			fields[i], fields[j] = fields[j], fields[i]
			ops = append(ops, "ranges "+strconv.Itoa(i)+" and "+strconv.Itoa(j)+" swapped")
		}
	}
	if kind != "" {
		fields = append(fields, kind)
	}
	in := plex(fields...)
	for _, k := range kids {
		in = append(in, k...)
	}
	return fuzzgen.Case{Args: fuzzgen.Args(lacespec.BoundedArgs{}), Input: in, Generator: "lacefuzz/chunks",
		Operators: ops, Parent: "chunk node over " + strconv.Itoa(n) + " Blobs"}
}

// dataLen is the data length of a Blob's bytes.
func dataLen(b []byte) int {
	rc, err := lace.Parse(b, lace.Options{Mark: mark.CheckNone})
	if err != nil {
		return 0
	}
	return len(rc.Data)
}

// dirName draws a directory entry name: mostly plain, else text from every
// plane, or one that is empty, a dot segment or holds a '/' or a space.
func dirName(r *fuzzgen.Rand) string {
	switch r.IntN(10) {
	case 0:
		return r.Pick("", ".", "..", "a/b", "a b", "a\\b")
	case 1, 2, 3:
		return r.Text(1 + r.IntN(6))
	}
	return r.Pick("readme", "a", "docs", "z.txt", "é", "日本")
}

// directoryCase is a directory of files and one level of children, the
// names drawn, links sometimes unsorted or repeated.
func directoryCase(r *fuzzgen.Rand) fuzzgen.Case {
	var fields []string
	var stream [][]byte
	for range r.Length(3) {
		f := blob(r.Bytes(r.Length(16)))
		stream = append(stream, f)
		fields = append(fields, "File+Link: "+dirName(r)+" "+hashOf(f))
	}
	for range r.Length(2) {
		var cf []string
		for range 1 + r.IntN(2) {
			f := blob(r.Bytes(r.Length(8)))
			stream = append(stream, f)
			cf = append(cf, "File+Link: "+dirName(r)+" "+hashOf(f))
		}
		child := plex(append(cf, "Kind: directory")...)
		stream = append(stream, child)
		fields = append(fields, "Child+Link: "+dirName(r)+" "+hashOf(child))
	}
	if len(fields) > 1 && r.Chance(1, 6) {
		fields[1] = fields[0]
	}
	if !r.Chance(1, 10) {
		fields = append(fields, "Kind: directory")
	}
	in := plex(fields...)
	for _, b := range stream {
		in = append(in, b...)
	}
	return fuzzgen.Case{Args: fuzzgen.Args(lacespec.BoundedArgs{}), Input: in, Generator: "lacefuzz/directory",
		Parent: "directory of " + strconv.Itoa(len(fields)) + " fields"}
}
