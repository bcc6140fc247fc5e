package lacefuzz

import (
	"bytes"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/threespec/conformance/impl/b64a"
	"github.com/threespec/conformance/impl/lace"
	"github.com/threespec/conformance/impl/lace/lacespec"
	"github.com/threespec/conformance/impl/spec"
	"github.com/threespec/conformance/internal/fuzzgen"
	"github.com/threespec/conformance/testee"
	"github.com/zeebo/blake3"
)

// glyphLines are the offsets of a record's glyph lines (its own and each
// embedded record's), outermost first, up to the Blob's blank line: what
// follows it is data, never parsed (LACE-NEST-01).
func glyphLines(b []byte) []int {
	var at []int
	for i := 0; i < len(b); {
		end := bytes.IndexByte(b[i:], '\n')
		if end <= 0 {
			break
		}
		if end+1 == lace.GlyphLineLen && bytes.HasPrefix(b[i:], []byte(lace.Glyph+": ")) {
			at = append(at, i)
		}
		i += end + 1
	}
	return at
}

// allGlyphs, as reglyph's inner, recomputes every glyph digest.
const allGlyphs = math.MaxInt

// reglyph returns b with the digests of its glyph lines outer to the
// inner-th (all of them when inner is past the last) computed afresh,
// innermost first: each is BLAKE3-256 of everything after its line
// (LACE-GLYPH-03), so that a defect inside a record is what a reader
// judges, not the digest of the record around it. A glyph line whose
// letter is no form's is left alone.
func reglyph(b []byte, inner int) []byte {
	b = slices.Clone(b)
	at := glyphLines(b)
	for j := min(inner, len(at)) - 1; j >= 0; j-- {
		off := at[j]
		f := formOf(b[off+len(lace.Glyph+": ")])
		if f == 0 {
			continue
		}
		h := lace.Hash{Form: f, Digest: blake3.Sum256(b[off+lace.GlyphLineLen:])}
		copy(b[off:], lace.Glyph+": "+h.String()+"\n")
	}
	return b
}

func formOf(letter byte) lace.Form {
	for _, f := range []lace.Form{lace.FormBlob, lace.FormPlex, lace.FormSeal} {
		if f.Letter() == letter {
			return f
		}
	}
	return 0
}

// separator is b with the ": " of one field line drawn from it replaced
// by sep, the glyph digests recomputed; b when it has no field line.
func separator(r *fuzzgen.Rand, b []byte, sep string) []byte {
	at, ok := fieldLine(r, b)
	if !ok {
		return b
	}
	i := at + bytes.Index(b[at:], []byte(": "))
	return reglyph(splice(b, i, 2, sep), allGlyphs)
}

// splice is b with n bytes at off replaced by repl.
func splice(b []byte, off, n int, repl string) []byte {
	return slices.Concat(b[:off], []byte(repl), b[off+n:])
}

// dataLengthAt is the offset of the innermost Blob's Data-Length line and
// the offset of its value.
func dataLengthAt(b []byte) (line, value int) {
	at := glyphLines(b)
	line = at[len(at)-1] + lace.GlyphLineLen
	return line, line + len("Data-Length: ")
}

// fieldLine is the offset of a field line of b's Plex (its own or the
// one a Seal embeds), drawn, and whether it has one.
func fieldLine(r *fuzzgen.Rand, b []byte) (int, bool) {
	at := glyphLines(b)
	for k := 0; k+1 < len(at); k++ {
		if b[at[k]+len(lace.Glyph+": ")] != 'P' {
			continue
		}
		var lines []int
		for i := at[k] + lace.GlyphLineLen; i < at[k+1]; i += bytes.IndexByte(b[i:], '\n') + 1 {
			// One ':' only, the separator's: with the separator broken,
			// no other ':' makes the line another rule's.
			if bytes.Count(b[i:i+bytes.IndexByte(b[i:], '\n')], []byte(":")) == 1 {
				lines = append(lines, i)
			}
		}
		if len(lines) == 0 {
			return 0, false
		}
		return lines[r.IntN(len(lines))], true
	}
	return 0, false
}

// otherB64A is a B64A character other than c.
func otherB64A(r *fuzzgen.Rand, c byte) byte {
	i := strings.IndexByte(b64a.Alphabet, c)
	return b64a.Alphabet[(i+1+r.IntN(len(b64a.Alphabet)-1))%len(b64a.Alphabet)]
}

// structDefects are defects of a record's own structure that the encoder
// never writes and that one check alone rejects: with that check switched
// off (any of faults, each alone) the reference accepts (issue 27: fuzz
// drew no such input for these faults). Each writes a valid model and
// breaks one line of it, then recomputes every glyph digest the defect
// changed by accident, as the fixed vectors do, so that no outer digest
// check rejects first.
var structDefects = []struct {
	name   string
	faults []string
	form   lace.Form // the form the model is written as (0: its own)
	apply  func(r *fuzzgen.Rand, b []byte) []byte
}{
	// LACE-BLOB-01 (vectors blob-first-line-data-length-lowercase, -length).
	{"data-length-name", []string{"LACE-BLOB-01"}, 0, func(r *fuzzgen.Rand, b []byte) []byte {
		line, _ := dataLengthAt(b)
		return reglyph(splice(b, line, len("Data-Length"), r.Pick("data-length", "DATA-LENGTH", "Data-length", "Length")), allGlyphs)
	}},
	// LACE-BLOB-03 (vectors blob-data-length-00, -01).
	{"data-length-leading-zero", []string{"LACE-BLOB-03", "MUT-LACE-DATA-LENGTH-LEADING-ZEROS"}, 0, func(r *fuzzgen.Rand, b []byte) []byte {
		_, v := dataLengthAt(b)
		return reglyph(splice(b, v, 0, r.Pick("0", "0", "00")), allGlyphs)
	}},
	// LACE-BLOB-02 (vector blob-no-blank-line).
	{"no-blank-line", []string{"LACE-BLOB-02"}, 0, func(r *fuzzgen.Rand, b []byte) []byte {
		_, v := dataLengthAt(b)
		blank := v + bytes.IndexByte(b[v:], '\n') + 1
		return reglyph(splice(b, blank, 1, ""), allGlyphs)
	}},
	// LACE-BLOB-04, LACE-SIZE-04 (vector blob-fewer-data-bytes).
	{"fewer-data-bytes", []string{"LACE-BLOB-04", "LACE-SIZE-04"}, 0, func(r *fuzzgen.Rand, b []byte) []byte {
		_, v := dataLengthAt(b)
		end := v + bytes.IndexByte(b[v:], '\n')
		n, _ := strconv.Atoi(string(b[v:end]))
		return reglyph(splice(b, v, end-v, strconv.Itoa(n+1+r.IntN(3))), allGlyphs)
	}},
	// LACE-FIELD-01 (vector plex-field-no-separator: "App chat").
	{"field-no-separator", []string{"LACE-FIELD-01"}, lace.FormPlex, func(r *fuzzgen.Rand, b []byte) []byte {
		return separator(r, b, " ")
	}},
	// LACE-FIELD-04 (vector plex-field-no-space-after-colon: "App:chat").
	{"field-no-space", []string{"LACE-FIELD-04"}, lace.FormPlex, func(r *fuzzgen.Rand, b []byte) []byte {
		return separator(r, b, ":")
	}},
	// LACE-GLYPH-07, LACE-NEST-04 (vectors plex-embedded-blob-digest-mismatch,
	// seal-embedded-*-digest-mismatch): an embedded record's digest is off,
	// the glyphs around it recomputed.
	{"embedded-digest", []string{"LACE-GLYPH-07", "LACE-NEST-04"}, lace.FormPlex, func(r *fuzzgen.Rand, b []byte) []byte {
		at := glyphLines(b)
		k := 1 + r.IntN(len(at)-1)
		// Not the digest's last character, whose pad bits are another rule's.
		i := at[k] + len(lace.Glyph+": ") + 2 + r.IntN(lace.HashTextLen-len("B..H3")-1)
		b = slices.Clone(b)
		b[i] = otherB64A(r, b[i])
		return reglyph(b, k)
	}},
	// LACE-GLYPH-04 (vector glyph-digest-pad-bits): a glyph digest whose
	// last character carries pad bits, the digests around it recomputed.
	{"glyph-pad-bits", []string{"LACE-GLYPH-04"}, 0, func(r *fuzzgen.Rand, b []byte) []byte {
		at := glyphLines(b)
		k := r.IntN(len(at))
		text := at[k] + len(lace.Glyph+": ")
		return reglyph(splice(b, text, lace.HashTextLen, padBits(r, string(b[text:text+lace.HashTextLen]))), k)
	}},
	// LACE-SEAL-02 (vector seal-missing-by-and-mark).
	{"seal-no-envelope", []string{"LACE-SEAL-02"}, lace.FormSeal, func(r *fuzzgen.Rand, b []byte) []byte {
		_, _, rest := envelope(b)
		return glyphed(lace.FormSeal, rest)
	}},
	// LACE-SEAL-04 (vector seal-missing-mark).
	{"seal-no-mark", []string{"LACE-SEAL-04"}, lace.FormSeal, func(r *fuzzgen.Rand, b []byte) []byte {
		by, _, rest := envelope(b)
		return glyphed(lace.FormSeal, slices.Concat(by, rest))
	}},
	// LACE-SEAL-03 (vectors seal-by-*).
	{"seal-by-text", []string{"LACE-SEAL-03"}, lace.FormSeal, func(r *fuzzgen.Rand, b []byte) []byte {
		by, mk, rest := envelope(b)
		v := string(by[len("By: ") : len(by)-1])
		switch r.IntN(8) {
		case 0:
			v = v[:len(v)-len(".H3")-1] + ".H3"
		case 1:
			v = v[:len(v)-len(".H3")] + "A.H3"
		case 2:
			v = "S" + v[1:]
		case 3:
			v = "W" + v[1:]
		case 4:
			v = v[:3] + r.Pick("!", "+", "/", "=") + v[4:]
		case 5:
			v = padBits(r, v)
		case 6:
			v = strings.TrimSuffix(v, ".H3") + ".H4"
		default:
			v += " "
		}
		return glyphed(lace.FormSeal, slices.Concat([]byte("By: "+v+"\n"), mk, rest))
	}},
	// LACE-SEAL-05 (vectors seal-mark-*).
	{"seal-mark-text", []string{"LACE-SEAL-05"}, lace.FormSeal, func(r *fuzzgen.Rand, b []byte) []byte {
		by, mk, rest := envelope(b)
		v := string(mk[len("Mark: ") : len(mk)-1])
		switch r.IntN(4) {
		case 0:
			v = v[:len(v)-1]
		case 1:
			v += "A"
		case 2:
			// 86 characters carry 516 bits: the last one's 4 low bits pad.
			i := strings.IndexByte(b64a.Alphabet, v[len(v)-1])
			v = v[:len(v)-1] + string(b64a.Alphabet[i&^15+1+r.IntN(15)])
		default:
			v = v[:len(v)-1] + "="
		}
		return glyphed(lace.FormSeal, slices.Concat(by, []byte("Mark: "+v+"\n"), rest))
	}},
	// LACE-SEAL-09 (vectors seal-mark-twice, seal-extra-envelope-field).
	{"seal-extra-envelope", []string{"LACE-SEAL-09"}, lace.FormSeal, func(r *fuzzgen.Rand, b []byte) []byte {
		by, mk, rest := envelope(b)
		extra := mk
		if r.Chance(1, 2) {
			extra = []byte(r.Pick("Note: x", "Kind: seal", "By2: y") + "\n")
		}
		return glyphed(lace.FormSeal, slices.Concat(by, mk, extra, rest))
	}},
}

// envelope splits a Seal's payload into its By line, Mark line and the
// embedded Plex.
func envelope(b []byte) (by, mk, rest []byte) {
	p := b[lace.GlyphLineLen:]
	return p[:byLineLen], p[byLineLen : byLineLen+markLineLen], p[byLineLen+markLineLen:]
}

// structCase is a record model with no field defect, written with one
// structure defect, the Mark not verified (the defect may change what it
// signs).
func structCase(r *fuzzgen.Rand, m rec) fuzzgen.Case {
	return structCaseOf(r, m, r.IntN(len(structDefects)))
}

func structCaseOf(r *fuzzgen.Rand, m rec, i int) fuzzgen.Case {
	d := structDefects[i]
	if d.form != 0 && !(d.form == lace.FormPlex && m.form == lace.FormSeal) {
		m.form = d.form
	}
	if len(m.data) == 0 || m.data[0] == '\n' || m.data[0] == '\r' {
		// Data to read past the Data-Length line (LACE-BLOB-02).
		m.data = append([]byte{'d'}, m.data...)
	}
	if m.defect != "" || !valid(m) {
		// The model must be valid for the defect to be the one thing wrong.
		m.fields, m.defect = nil, ""
	}
	if m.form != lace.FormBlob {
		// A plain field for the field defects to break.
		m.fields = append(m.fields, lace.Field{Name: "note", Value: "v"})
		slices.SortStableFunc(m.fields, func(a, b lace.Field) int { return strings.Compare(a.Name, b.Name) })
	}
	return fuzzgen.Case{
		Operators: []string{d.name},
		Args:      fuzzgen.Args(lacespec.Args{Mark: lacespec.MarkNone}),
		Input:     d.apply(r, m.bytes()),
		Generator: "lacefuzz/structure",
		Parent:    m.String(),
	}
}

// valid reports whether the reference's lace.record accepts m with its
// Mark not verified.
func valid(m rec) bool {
	for _, o := range lacespec.Spec.Ops {
		if o.Name == lacespec.OpRecord {
			_, err := o.Handle(spec.Env{}, testee.Request{Op: o.Name, Args: fuzzgen.Args(lacespec.Args{Mark: lacespec.MarkNone}), Input: m.bytes()})
			return err == nil
		}
	}
	return false
}

// overflowEnd is the decimal text of 2^64 + end: a range end past
// u64::MAX that wraps around to the child's true end (LACE-CHUNK-14,
// vector chunks-range-overflow-wraps).
func overflowEnd(end uint64) string {
	v := new(big.Int).Lsh(big.NewInt(1), 64)
	return v.Add(v, new(big.Int).SetUint64(end)).String()
}
