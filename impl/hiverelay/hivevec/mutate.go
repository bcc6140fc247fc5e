package hivevec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/threespec/conformance/impl/cenc"
	hr "github.com/threespec/conformance/impl/hiverelay"
	"github.com/threespec/conformance/impl/hiverelay/hivespec"
	"github.com/threespec/conformance/impl/manifest"
	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/internal/vecgen"
	"github.com/threespec/conformance/vectorset"
)

// Systematic mutations (issue #6, item 3). Each positive of the inventory
// gets a bounded, deterministic family of negatives built from its recorded
// layout: truncation at every field boundary and inside every multi-byte
// compact uint, a trailing byte, every version byte and optional tag set to
// unknown values, every nonzero field zeroed, every size class moved out of
// range, every count and length written in each overlong form, adjacent
// sorted elements swapped and their keys duplicated, the write capability's
// keys made equal, and the frame's sequence moved across zero. Their
// expected rule is known from the layout alone. A few families (a tag
// flipped between 0 and 1, a count or length off by one) are classified by
// the reference, as the issue allows; those the reference accepts are
// dropped. Every other positive gets a trailing byte and loses its last
// byte. Options.Large adds, for the inventory's record positives, every
// truncation and every single-byte flip.

// base is a positive record with the layout the generator's encoder
// recorded while writing it.
type base struct {
	name, schema string
	w            *writer
}

func (g *gen) recordBases() []base {
	bs := []base{
		{"blind-core-read-cap-v1", hr.SchemaBlindCoreReadCapV1, encoded(posBlindCore().write)},
		{"opaque-chain-checkpoint-v1", hr.SchemaOpaqueChainCheckpointV1, encoded(posCheckpoint().write)},
		{"opaque-chain-frame-v1-genesis", hr.SchemaOpaqueChainFrameV1, encoded(posGenesis().write)},
		{"opaque-chain-frame-v1-successor", hr.SchemaOpaqueChainFrameV1, encoded(posSuccessor().write)},
		{"read-cell-cap-v1", hr.SchemaReadCellCapV1, encoded(posReadCap().write)},
		{"write-cell-cap-v1", hr.SchemaWriteCellCapV1, encoded(posWriteCap().write)},
	}
	for _, b := range bs {
		// The layout is only meaningful if the generator's encoder wrote
		// the inventory file itself.
		if !bytes.Equal(b.w.b, g.files["positive/"+b.name+".bin"]) {
			panic("hivevec: the generator's encoder does not reproduce positive/" + b.name + ".bin")
		}
	}
	return bs
}

func (g *gen) mutations() error {
	bases := g.recordBases()
	for _, b := range bases {
		g.recordMutations(b)
	}
	g.formatMutations()
	g.manifestMutations()
	g.everyPositive()
	if g.opt.Large {
		for _, b := range bases {
			g.largeMutations(b)
		}
	}
	return nil
}

// mutant adds a negative derived from positive from. rule is its expected
// rule; "" asks the reference to classify it (and drops it when the
// reference accepts it). Mutants equal to an earlier vector are dropped.
func (g *gen) mutant(from string, name string, s request, in input, rule rules.ID, tags []string, comment string) {
	g.mutantAlso(from, name, s, in, rule, nil, tags, comment)
}

// mutantAlso is mutant for a negative that also tests the rules also
// (after rule, before the general rules rule realizes): the Nesting rules
// of the nested value it breaks (hiverelay.NestingRules).
func (g *gen) mutantAlso(from string, name string, s request, in input, rule rules.ID, also []rules.ID, tags []string, comment string) {
	if rule == "" {
		rule = classify(s, in.b)
		if rule == "" {
			g.droppedAccepted++
			return
		}
		comment += fmt.Sprintf(" (classified by the reference: %s)", rule)
	}
	m := meta{rules: append(ids(rule), also...), tags: append([]string{tagMutation}, tags...), comment: comment, derived: from}
	if !g.add("negative", name, s, in, nil, m) {
		g.droppedDuplicate++
	}
}

// classify returns the rule the reference rejects b with, or "" when it
// accepts it.
func classify(s request, b []byte) rules.ID {
	var err error
	switch s.op {
	case hivespec.OpDecode:
		var a hivespec.DecodeArgs
		mustUnmarshal(s.args, &a)
		_, _, err = hr.Decode(a.Schema, uint8(a.Class), b)
	case hivespec.OpFormat:
		_, err = hr.VerifyFormatArtifact(b)
	case hivespec.OpManifest:
		_, err = manifest.Parse(b)
	}
	if err == nil {
		return ""
	}
	r := rules.RuleOf(err)
	if r == "" {
		panic("hivevec: the reference rejects without a rule: " + err.Error())
	}
	return r
}

// splice returns b with n bytes at off replaced by repl.
func splice(b []byte, off, n int, repl []byte) []byte {
	out := make([]byte, 0, len(b)-n+len(repl))
	out = append(append(append(out, b[:off]...), repl...), b[off+n:]...)
	return out
}

func (g *gen) recordMutations(b base) {
	s := decoder(b.schema)
	data := b.w.b
	mut := func(suffix string, out []byte, rule rules.ID, tags []string, comment string) {
		g.mutant(b.name, b.name+"-"+suffix, s, file(out), rule, tags, comment)
	}
	// nested is mut for a record check broken at path, which may lie in a
	// nested value that is itself a canonical record (HR-CKPT-12,
	// HR-FRAME-13/14): the vector tests those rules too.
	nested := func(path, suffix string, out []byte, rule rules.ID, tags []string, comment string) {
		g.mutantAlso(b.name, b.name+"-"+suffix, s, file(out), rule, hr.NestingRules(b.schema, path, rule), tags, comment)
	}

	// Truncation at every field boundary, inside multi-byte compact uints,
	// and one byte short.
	cut := map[int]bool{}
	for _, f := range b.w.fields {
		if f.n == 0 || cut[f.off] {
			continue
		}
		cut[f.off] = true
		mut("truncated-before-"+kebab(f.path), data[:f.off], cenc.RuleTruncated, nil,
			fmt.Sprintf("the first %d bytes of %s, cut before %s", f.off, b.name, f.path))
		if (f.kind == kCount || f.kind == kLength) && f.n > 1 {
			mut("truncated-inside-"+kebab(f.path), data[:f.off+1], cenc.RuleTruncated, nil,
				fmt.Sprintf("%s cut after the marker 0x%02x of %s", b.name, data[f.off], f.path))
		}
	}
	mut("last-byte-missing", data[:len(data)-1], cenc.RuleTruncated, nil, b.name+" without its last byte")
	mut("trailing-byte", append(bytes.Clone(data), 0), cenc.RuleTrailing, nil, b.name+" and one more byte 0x00")

	var keys = map[string]field{}
	for _, f := range b.w.fields {
		set := func(v byte) []byte { return splice(data, f.off, 1, []byte{v}) }
		switch f.kind {
		case kVersion:
			for _, v := range []byte{0, 2, 0xff} {
				nested(f.path, fmt.Sprintf("%s-%d", kebab(f.path), v), set(v), cenc.RuleUnknownVersion, nil,
					fmt.Sprintf("%s with %s %d", b.name, f.path, v))
			}
		case kTag:
			for _, v := range []byte{2, 0xff} {
				mut(fmt.Sprintf("%s-%d", kebab(f.path), v), set(v), cenc.RuleOptionalTag, []string{tagBoundary},
					fmt.Sprintf("%s with %s %d (only 0 and 1 are tags)", b.name, f.path, v))
			}
			mut(kebab(f.path)+"-flipped", set(byte(1-f.value)), "", nil,
				fmt.Sprintf("%s with %s %d instead of %d", b.name, f.path, 1-f.value, f.value))
		case kKey:
			keys[f.path] = f
			nested(f.path, "zero-"+kebab(f.path), splice(data, f.off, f.n, make([]byte, f.n)), f.rule, nil,
				fmt.Sprintf("%s with %s set to 32 zero bytes", b.name, f.path))
		case kClass:
			for _, v := range []byte{0, 6, 0xff} {
				nested(f.path, fmt.Sprintf("%s-%d", kebab(f.path), v), set(v), hr.RuleRCapSizeClass, []string{tagBoundary},
					fmt.Sprintf("%s with %s %d (1..5)", b.name, f.path, v))
			}
		case kCount, kLength:
			canon := shortestMarker(f.value)
			for _, m := range []byte{0xfd, 0xfe, 0xff} {
				if m > canon {
					mut(fmt.Sprintf("%s-overlong-%02x", kebab(f.path), m), splice(data, f.off, f.n, compactForm(f.value, m)), cenc.RuleCompactOverlong, nil,
						fmt.Sprintf("%s with %s %d written in the 0x%02x form, overlong", b.name, f.path, f.value, m))
				}
			}
			mut(kebab(f.path)+"-plus-one", splice(data, f.off, f.n, compact(f.value+1)), "", nil,
				fmt.Sprintf("%s with %s %d instead of %d", b.name, f.path, f.value+1, f.value))
			if f.value > 0 {
				mut(kebab(f.path)+"-minus-one", splice(data, f.off, f.n, compact(f.value-1)), "", nil,
					fmt.Sprintf("%s with %s %d instead of %d", b.name, f.path, f.value-1, f.value))
			}
		case kInt:
			if b.schema == hr.SchemaOpaqueChainFrameV1 && f.path == "sequence" {
				seq, rule := uint64(0), hr.RuleFrameGenesisNoPrev
				if f.value == 0 {
					seq, rule = 1, hr.RuleFrameSuccessorPrev
				}
				mut(fmt.Sprintf("sequence-%d", seq), splice(data, f.off, f.n, be64(seq)), rule, nil,
					fmt.Sprintf("%s with sequence %d, its previous hash left as it is", b.name, seq))
			}
		}
	}

	// Sorted arrays: adjacent elements swapped, and a key equal to its
	// predecessor's.
	for _, a := range b.w.arrays {
		for i := 0; i+1 < len(a.elems); i++ {
			x, y := a.elems[i], a.elems[i+1]
			sw := append(append(append(append([]byte(nil), data[:x[0]]...), data[y[0]:y[1]]...), data[x[0]:x[1]]...), data[y[1]:]...)
			nested(a.path, fmt.Sprintf("%s-%d-and-%d-swapped", kebab(a.path), i, i+1), sw, a.order, nil,
				fmt.Sprintf("%s with elements %d and %d of %s swapped", b.name, i, i+1, a.path))
			key := data[x[0]+a.keyOff : x[0]+a.keyOff+a.keyLen]
			nested(a.path, fmt.Sprintf("%s-%d-duplicate-key", kebab(a.path), i+1), splice(data, y[0]+a.keyOff, a.keyLen, key), a.dup, nil,
				fmt.Sprintf("%s with the sort key of element %d of %s copied from element %d", b.name, i+1, a.path, i))
		}
	}

	// The write capability's private keys, pairwise equal.
	if b.schema == hr.SchemaWriteCellCapV1 {
		names := []string{"createPrivateKey", "renewPrivateKey", "dropPrivateKey"}
		for j := 1; j < 3; j++ {
			for i := 0; i < j; i++ {
				src, dst := keys[names[i]], keys[names[j]]
				mut(kebab(names[j])+"-equals-"+kebab(names[i]), splice(data, dst.off, dst.n, data[src.off:src.off+src.n]), hr.RuleWCapDistinct, nil,
					fmt.Sprintf("%s with %s equal to %s", b.name, names[j], names[i]))
			}
		}
	}
}

func be64(v uint64) []byte {
	var b [8]byte
	for i := range b {
		b[i] = byte(v >> (56 - 8*i))
	}
	return b[:]
}

// formatMutations truncates the reference artifact at every header field,
// at the start of each section and of each catalog entry.
func (g *gen) formatMutations() {
	ref := g.files["positive/"+formatArtifactName+".cenc"]
	specLen := len(hr.Spec())
	cuts := []struct {
		at   int
		what string
	}{}
	for _, f := range headerFields {
		cuts = append(cuts, struct {
			at   int
			what string
		}{f.off, f.name})
	}
	catAt := 30 + specLen
	cuts = append(cuts, struct {
		at   int
		what string
	}{catAt, "schemaCatalogBytes"})
	entries := catalogEntries()
	for i := 1; i < len(entries); i++ {
		cuts = append(cuts, struct {
			at   int
			what string
		}{catAt + len(writeCatalog(entries[:i])), fmt.Sprintf("entries[%d]", i)})
	}
	for _, c := range cuts {
		g.mutant(formatArtifactName, formatArtifactName+"-truncated-before-"+kebab(c.what), formatOp, file(ref[:c.at]), cenc.RuleTruncated, nil,
			fmt.Sprintf("the first %d bytes of the reference artifact, cut before %s", c.at, c.what))
	}
}

// manifestMutations truncates the authority manifest inside and at the
// boundaries of its first and last rows, changes a path length by one, and
// swaps rows.
func (g *gen) manifestMutations() {
	rows := authorityRows()
	m := manifestOf(rows)
	mut := func(suffix string, out []byte, rule rules.ID, comment string) {
		g.mutant(authorityManifestName, authorityManifestName+"-"+suffix, manifestOp, file(out), rule, nil, comment)
	}
	cut := func(at int, what string) {
		mut("truncated-"+what, m[:at], manifest.RuleTruncated, fmt.Sprintf("the first %d bytes of the authority manifest, cut %s", at, strings.ReplaceAll(what, "-", " ")))
	}
	cut(0, "before-count")
	cut(2, "inside-count")
	off := 4
	for i, r := range rows {
		pl := len(r.path)
		if i == 0 || i == len(rows)-1 {
			p := fmt.Sprintf("row-%d-", i)
			cut(off, "before-"+p+"path-length")
			cut(off+1, "inside-"+p+"path-length")
			cut(off+2, "before-"+p+"path")
			cut(off+2+pl/2, "inside-"+p+"path")
			cut(off+2+pl, "before-"+p+"length")
			cut(off+2+pl+4, "inside-"+p+"length")
			cut(off+2+pl+8, "before-"+p+"hash")
			cut(off+2+pl+8+16, "inside-"+p+"hash")
			for _, d := range []int{1, -1} {
				out := bytes.Clone(m)
				out[off+1] += byte(d)
				mut(fmt.Sprintf("%spath-length-%s", p, map[int]string{1: "plus-one", -1: "minus-one"}[d]), out, "", fmt.Sprintf("the authority manifest with row %d's path length %d instead of %d", i, pl+d, pl))
			}
		}
		off += 2 + pl + 8 + 32
	}
	cut(len(m)-1, "last-byte-missing")
	for _, i := range []int{0, 8, 16} {
		sw := append([]row(nil), rows...)
		sw[i], sw[i+1] = sw[i+1], sw[i]
		mut(fmt.Sprintf("rows-%d-and-%d-swapped", i, i+1), manifestOf(sw), manifest.RuleUnsorted,
			fmt.Sprintf("the authority manifest with rows %d and %d swapped", i, i+1))
	}
}

// maxMutantFile bounds the files everyPositive writes; a larger positive's
// trailing-byte mutant is a recipe naming its file.
const maxMutantFile = 16 << 10

// everyPositive gives every positive a trailing byte and takes away its
// last byte (for a file of more than maxMutantFile bytes, only the trailing
// byte). hiverelay.authority inputs are JSON, whose bytes are no record:
// they are left out.
func (g *gen) everyPositive() {
	n := len(g.vecs)
	for i := 0; i < n; i++ {
		v := g.vecs[i]
		if v.Expect != vectorset.Accept || v.Op == hivespec.OpAuthority {
			continue
		}
		name := v.ID[len("hiverelay/positive/"):]
		s := request{v.Op, v.Args, ".bin"}
		trail, short := cenc.RuleTrailing, cenc.RuleTruncated
		switch v.Op {
		case hivespec.OpFormat:
			s.ext = ".cenc"
			trail = hr.RuleFmtTrailing
		case hivespec.OpManifest:
			trail, short = manifest.RuleTrailing, manifest.RuleTruncated
		default:
			var a hivespec.DecodeArgs
			mustUnmarshal(v.Args, &a)
			if a.Schema == hr.SchemaCellBlobV1 {
				trail, short = hr.RuleBlobLong, hr.RuleBlobShort
			}
		}
		in := g.inputOf(&v)
		var longer, shorter input
		switch {
		case v.Recipe == nil && len(in) <= maxMutantFile:
			longer, shorter = file(append(bytes.Clone(in), 0)), file(in[:len(in)-1])
		case v.Recipe == nil:
			// A large file: the trailing byte as a recipe; no shorter copy.
			longer = g.recipe(filePart(v.File), hexPart([]byte{0}))
		default:
			parts := v.Recipe.Parts
			longer = g.recipe(append(append([]vectorset.Part(nil), parts...), hexPart([]byte{0}))...)
			last := parts[len(parts)-1]
			switch {
			case last.Hex != "":
				p := append([]vectorset.Part(nil), parts...)
				p[len(p)-1] = vectorset.Part{Hex: last.Hex[:len(last.Hex)-2]}
				if p[len(p)-1].Hex == "" {
					p = p[:len(p)-1]
				}
				shorter = g.recipe(p...)
			case last.Repeat != nil:
				p := append([]vectorset.Part(nil), parts...)
				r := *last.Repeat
				r.Count--
				p[len(p)-1] = vectorset.Part{Repeat: &r}
				shorter = g.recipe(p...)
			}
		}
		g.mutant(name, name+"-trailing-byte", s, longer, trail, nil, name+" and one more byte 0x00")
		if shorter.b != nil {
			g.mutant(name, name+"-last-byte-missing", s, shorter, short, nil, name+" without its last byte")
		}
	}
}

// inputOf returns a generated vector's input bytes.
func (g *gen) inputOf(v *vecgen.Vector) []byte {
	if v.Recipe == nil {
		return v.Data
	}
	return g.recipe(v.Recipe.Parts...).b
}

// largeMutations (Options.Large) truncates a record positive at every byte
// and flips every byte, classified by the reference.
func (g *gen) largeMutations(b base) {
	s := decoder(b.schema)
	data := b.w.b
	for n := 0; n < len(data); n++ {
		g.mutant(b.name, fmt.Sprintf("%s-large-first-%d-bytes", b.name, n), s, file(data[:n]), cenc.RuleTruncated, nil,
			fmt.Sprintf("the first %d bytes of %s", n, b.name))
	}
	for i := range data {
		out := bytes.Clone(data)
		out[i] ^= 0xff
		g.mutant(b.name, fmt.Sprintf("%s-large-byte-%d-inverted", b.name, i), s, file(out), "", nil,
			fmt.Sprintf("%s with byte %d inverted", b.name, i))
	}
}

func mustUnmarshal(b []byte, v any) {
	if err := json.Unmarshal(b, v); err != nil {
		panic("hivevec: " + err.Error())
	}
}
