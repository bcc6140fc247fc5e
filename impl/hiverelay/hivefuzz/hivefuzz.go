// Package hivefuzz is the HiveRelay BCC v1 wing's fuzz generation
// (conform fuzz, issue 27): the six records of section 3 built from their
// types with every field drawn at random (numbers weighted to the
// boundaries and to the limits of section 3, keys sometimes all zero or
// equal, arrays sometimes unsorted or over their bounds), vector
// manifests of section 5 with row lengths over the whole u64 range and
// paths from every Unicode plane, and format artifacts of section 4 with
// spec texts and declared lengths drawn the same way; then, half the
// time, the byte-level mutation operators of internal/fuzzgen at random
// places. Half the decode inputs, a third of the format artifacts and
// four of the eight authority inputs are instead valid but for exactly
// one named defect (defects.go), so that rules behind another defect of
// the same input, exact byte forms and the catalog's rules are reached.
package hivefuzz

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/threespec/conformance/impl/cenc"
	hr "github.com/threespec/conformance/impl/hiverelay"
	"github.com/threespec/conformance/impl/hiverelay/hivespec"
	"github.com/threespec/conformance/impl/manifest"
	"github.com/threespec/conformance/internal/fuzzgen"
)

// Generator is the wing's fuzz generator.
var Generator = fuzzgen.Generator{
	Suite:    string(hivespec.Spec.Name),
	Ops:      []string{hivespec.OpDecode, hivespec.OpManifest, hivespec.OpFormat, hivespec.OpAuthority},
	Generate: generate,
	AcceptRule: map[string]string{
		hivespec.OpDecode:    string(cenc.RuleDeclarationOrder),
		hivespec.OpManifest:  string(manifest.RuleFraming),
		hivespec.OpFormat:    string(hr.RuleFmtLayout),
		hivespec.OpAuthority: string(hr.RuleVecIdentity),
	},
}

func generate(r *fuzzgen.Rand, op string) fuzzgen.Case {
	var c fuzzgen.Case
	switch op {
	case hivespec.OpDecode:
		if r.Chance(1, 2) {
			return defectCase(r)
		}
		c = decodeCase(r)
	case hivespec.OpManifest:
		c = manifestCase(r)
	case hivespec.OpFormat:
		if r.Chance(1, 3) {
			return defectArtifactCase(r)
		}
		c = formatCase(r)
	default:
		// A JSON input: byte mutations would only make it no JSON, a
		// request built wrong; authorityCase changes what it carries.
		return authorityCase(r)
	}
	if r.Chance(1, 2) {
		c.Input, c.Operators = r.MutateN(c.Input, 3, c.Operators)
		c.Smaller = nil
	}
	return c
}

// keys draws a record's 32-byte keys: random, sometimes one byte set
// (sorting neighbours); in a third of the records the zero-th key drawn
// is all zero (the nonzero rules of section 3), one key only, so that
// the rule of that key is the one reached.
type keys struct {
	r       *fuzzgen.Rand
	n, zero int
	// clean keeps the record free of defects (every key random, arrays
	// sorted, unique and within their bounds): defectCase then breaks
	// exactly one rule, so that the rule is the one reached.
	clean bool
}

func newKeys(r *fuzzgen.Rand) *keys {
	k := &keys{r: r, zero: -1}
	if r.Chance(1, 3) {
		k.zero = 1 + r.IntN(12)
	}
	return k
}

func (g *keys) key() [32]byte {
	var k [32]byte
	g.n++
	switch {
	case g.n == g.zero:
	case !g.clean && g.r.Chance(1, 12):
		k[31] = byte(1 + g.r.IntN(3))
	default:
		copy(k[:], g.r.Bytes(32))
	}
	return k
}

func readCap(r *fuzzgen.Rand, g *keys) hr.ReadCellCapV1 {
	c := hr.ReadCellCapV1{RelayPublicKey: g.key(), StorageSlot: g.key(), CellKey: g.key(),
		SizeClass: uint8(1 + r.IntN(5))}
	if !g.clean && r.Chance(1, 10) {
		c.SizeClass = uint8(r.Uint(255, 1, 5)) // around the bounds 1..5
	}
	if r.Chance(1, 2) {
		h := g.key()
		c.ExpectedCellBlobHash = &h
	}
	return c
}

// caps are n read capabilities, sorted by (relay key, slot) unless the
// draw leaves them as they came (the order rules).
func caps(r *fuzzgen.Rand, g *keys, n int) []hr.ReadCellCapV1 {
	out := make([]hr.ReadCellCapV1, n)
	for i := range out {
		out[i] = readCap(r, g)
		if i > 0 && r.Chance(1, 6) {
			out[i].RelayPublicKey = out[i-1].RelayPublicKey // one relay, two slots
			if !g.clean && r.Chance(1, 3) {
				out[i].StorageSlot = out[i-1].StorageSlot // a duplicate
			}
		}
	}
	if g.clean || !r.Chance(1, 6) {
		sort.SliceStable(out, func(i, j int) bool {
			if c := bytes.Compare(out[i].RelayPublicKey[:], out[j].RelayPublicKey[:]); c != 0 {
				return c < 0
			}
			return bytes.Compare(out[i].StorageSlot[:], out[j].StorageSlot[:]) < 0
		})
	}
	return out
}

// count draws an array length: small mostly, else at or around the
// bound of section 3.
func count(r *fuzzgen.Rand, g *keys, bound int) int {
	if !g.clean && r.Chance(1, 12) {
		return bound + r.IntN(2)
	}
	return r.Length(min(bound, 4))
}

func checkpoint(r *fuzzgen.Rand, g *keys) *hr.OpaqueChainCheckpointV1 {
	cp := &hr.OpaqueChainCheckpointV1{OpaqueStateCommitment: g.key(), SnapshotPayloadHash: g.key()}
	n := count(r, g, 1024)
	if n == 0 && (g.clean || r.Chance(3, 4)) {
		n = 1
	}
	for i := range n {
		e := hr.FrontierEntry{ChainID: g.key(), Sequence: r.Uint(1<<64 - 1), FrameHash: g.key()}
		if i > 0 && !g.clean && r.Chance(1, 10) {
			e.ChainID = cp.CoveredFrontier[i-1].ChainID // a duplicate
		}
		cp.CoveredFrontier = append(cp.CoveredFrontier, e)
	}
	if g.clean || !r.Chance(1, 6) {
		sort.SliceStable(cp.CoveredFrontier, func(i, j int) bool {
			return bytes.Compare(cp.CoveredFrontier[i].ChainID[:], cp.CoveredFrontier[j].ChainID[:]) < 0
		})
	}
	k := count(r, g, 16)
	if k == 0 && (g.clean || r.Chance(3, 4)) {
		k = 1
	}
	cp.SnapshotReadCaps = caps(r, g, k)
	return cp
}

// record is one of the six records, built and written raw.
type record struct {
	schema string
	class  int
	build  func() []byte
	// smaller returns the record with one element of an array left out.
	smaller func() []record
}

func decodeCase(r *fuzzgen.Rand) fuzzgen.Case {
	rec := drawRecord(r)
	return decodeOf(rec)
}

func decodeOf(rec record) fuzzgen.Case {
	c := fuzzgen.Case{
		Args:      fuzzgen.Args(hivespec.DecodeArgs{Schema: rec.schema, Class: rec.class}),
		Input:     rec.build(),
		Generator: "hivefuzz/decode",
		Parent:    rec.schema,
	}
	if rec.smaller != nil {
		c.Smaller = func() []fuzzgen.Case {
			var out []fuzzgen.Case
			for _, s := range rec.smaller() {
				d := decodeOf(s)
				d.Generator, d.Parent = c.Generator, c.Parent
				out = append(out, d)
			}
			return out
		}
	}
	return c
}

func drawRecord(r *fuzzgen.Rand) record {
	schema := hr.Schemas[r.IntN(len(hr.Schemas))]
	g := newKeys(r)
	switch schema {
	case hr.SchemaReadCellCapV1:
		v := readCap(r, g)
		return record{schema: schema, build: v.Raw}
	case hr.SchemaWriteCellCapV1:
		v := hr.WriteCellCapV1{ReadCap: readCap(r, g), AllocationEpoch: uint32(r.Uint(1<<32 - 1)),
			CreatePrivateKey: g.key(), RenewPrivateKey: g.key(), DropPrivateKey: g.key()}
		switch r.IntN(6) {
		case 0:
			v.DropPrivateKey = v.CreatePrivateKey
		case 1:
			v.RenewPrivateKey = v.CreatePrivateKey
		}
		return record{schema: schema, build: v.Raw}
	case hr.SchemaCellBlobV1:
		class := 1 + r.IntN(2)
		if r.Chance(1, 16) {
			class = 1 + r.IntN(5)
		}
		n := max(hr.ClassLength(uint8(class))-13, 0)
		switch r.IntN(8) {
		case 0:
			n--
		case 1:
			n++
		}
		v := hr.CellBlobV1{Class: uint8(class), Sealed: r.Bytes(max(n, 0))}
		copy(v.Nonce[:], r.Bytes(12))
		argClass := class
		switch r.IntN(10) {
		case 0:
			argClass = int(r.Uint(300, 0, 6))
		case 1:
			argClass = 0
		}
		return record{schema: schema, class: argClass, build: v.Raw}
	case hr.SchemaOpaqueChainCheckpointV1:
		v := checkpoint(r, g)
		return record{schema: schema, build: v.Raw}
	case hr.SchemaOpaqueChainFrameV1:
		v := &hr.OpaqueChainFrameV1{ChainID: g.key(), Sequence: r.Uint(1<<64 - 1), TransportVerifyKey: g.key()}
		if (v.Sequence != 0) != r.Chance(1, 8) {
			h := g.key()
			v.PreviousFrameHash = &h
		}
		for range count(r, g, 256) {
			n := r.Length(64)
			if r.Chance(1, 40) {
				n = 262144 + r.IntN(2)
			}
			v.OpaquePayloads = append(v.OpaquePayloads, r.Bytes(n))
		}
		v.NextReadCellCaps = caps(r, g, count(r, g, 16))
		if r.Chance(1, 2) {
			v.Checkpoint = checkpoint(r, g)
		}
		copy(v.TransportSignature[:], r.Bytes(64))
		rec := record{schema: schema, build: v.Raw}
		rec.smaller = func() []record {
			var out []record
			for i := range v.OpaquePayloads {
				w := *v
				w.OpaquePayloads = slices.Delete(slices.Clone(v.OpaquePayloads), i, i+1)
				out = append(out, record{schema: schema, build: w.Raw})
			}
			for i := range v.NextReadCellCaps {
				w := *v
				w.NextReadCellCaps = slices.Delete(slices.Clone(v.NextReadCellCaps), i, i+1)
				out = append(out, record{schema: schema, build: w.Raw})
			}
			if v.Checkpoint != nil {
				w := *v
				w.Checkpoint = nil
				out = append(out, record{schema: schema, build: w.Raw})
			}
			return out
		}
		return rec
	default: // BlindCoreReadCapV1
		n := 1 + r.Length(63)
		if r.Chance(1, 10) {
			n = []int{0, 4096, 4097}[r.IntN(3)]
		}
		v := hr.BlindCoreReadCapV1{CorePublicKey: g.key(), BlockEncryptionKey: g.key(),
			WitnessedFork: r.Uint(1<<64 - 1), WitnessedLength: r.Uint(1<<64 - 1), WitnessedSignedHead: r.Bytes(n)}
		return record{schema: schema, build: v.Raw}
	}
}

// pathPart draws one canonical component of a manifest path, from every
// plane (NFC text, no control, no '/', '\\' or dot segment).
func pathPart(r *fuzzgen.Rand) string {
	if r.Chance(1, 3) {
		t := []rune(r.Text(1 + r.IntN(6)))
		t = slices.DeleteFunc(t, func(c rune) bool { return c < 0x20 || c == 0x7f || c == '/' || c == '\\' || c >= 0x300 && c <= 0x36f })
		if s := string(t); s != "" && s != "." && s != ".." {
			return s
		}
	}
	return r.Pick("positive", "negative", "registry", "read-cell-cap-v1.bin", "x", "cell-blob-v1-class-1.bin", "é", "😀", ".hidden", "a.b")
}

// pathDefects are the ways a path breaks a rule of section 5, each
// applied at a random component.
var pathDefects = []struct {
	name  string
	apply func(parts []string, i int) []string
}{
	{"absolute", func(p []string, i int) []string { return append([]string{""}, p...) }},
	{"dot", func(p []string, i int) []string { p[i] = "."; return p }},
	{"dot-dot", func(p []string, i int) []string { p[i] = ".."; return p }},
	{"empty-segment", func(p []string, i int) []string { p[i] = ""; return p }},
	{"trailing-slash", func(p []string, i int) []string { return append(p, "") }},
	{"backslash", func(p []string, i int) []string { p[i] += "\\x"; return p }},
	{"not-nfc", func(p []string, i int) []string { p[i] += "e\u0301"; return p }},
	{"control", func(p []string, i int) []string { p[i] += "\x01"; return p }},
	{"del", func(p []string, i int) []string { p[i] += "\x7f"; return p }},
	{"bad-utf8", func(p []string, i int) []string { p[i] += "\xed\xa0\x80"; return p }},
	{"overlong-utf8", func(p []string, i int) []string { p[i] += "\xc0\xaf"; return p }},
}

// drawPath draws a path: canonical mostly, else with one defect, named in
// ops.
func drawPath(r *fuzzgen.Rand, ops *[]string) string {
	parts := make([]string, 1+r.IntN(3))
	for i := range parts {
		parts[i] = pathPart(r)
	}
	if r.Chance(1, 4) {
		d := pathDefects[r.IntN(len(pathDefects))]
		i := r.IntN(len(parts))
		parts = d.apply(parts, i)
		*ops = append(*ops, "path "+d.name+"@"+strconv.Itoa(i))
	}
	return strings.Join(parts, "/")
}

func manifestCase(r *fuzzgen.Rand) fuzzgen.Case {
	n := r.Length(4)
	rows := make([]manifest.Entry, n)
	var ops []string
	for i := range rows {
		rows[i] = manifest.Entry{Path: drawPath(r, &ops), Length: r.Uint(1<<64 - 1)}
		copy(rows[i].Hash[:], r.Bytes(32))
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].Path < rows[j].Path })
	if n > 1 && r.Chance(1, 6) {
		i := 1 + r.IntN(n-1)
		if r.Chance(1, 2) {
			rows[i].Path = rows[i-1].Path
			ops = append(ops, "row "+strconv.Itoa(i)+" duplicates its predecessor's path")
		} else {
			rows[i], rows[i-1] = rows[i-1], rows[i]
			ops = append(ops, "rows "+strconv.Itoa(i-1)+" and "+strconv.Itoa(i)+" swapped")
		}
	}
	cnt := uint32(n)
	if r.Chance(1, 16) {
		cnt = uint32(r.Uint(1<<32-1, uint64(n)))
		ops = append(ops, "count="+fuzzgen.BoundaryName(uint64(cnt)))
	}
	c := manifestOf(rows, cnt, cnt == uint32(n))
	c.Operators = ops
	return c
}

func manifestOf(rows []manifest.Entry, cnt uint32, exact bool) fuzzgen.Case {
	var lengths []string
	for _, row := range rows {
		lengths = append(lengths, fuzzgen.BoundaryName(row.Length))
	}
	c := fuzzgen.Case{
		Input:     manifest.WriteRaw(cnt, rows),
		Generator: "hivefuzz/manifest",
		Parent:    strconv.Itoa(len(rows)) + " rows, lengths [" + strings.Join(lengths, " ") + "]",
	}
	if exact {
		c.Smaller = func() []fuzzgen.Case {
			var out []fuzzgen.Case
			for i := range rows {
				w := slices.Delete(slices.Clone(rows), i, i+1)
				out = append(out, manifestOf(w, uint32(len(w)), true))
			}
			return out
		}
	}
	return c
}

// specText draws the spec bytes of a format artifact: the embedded spec
// mostly, else random lines whose text comes from every plane, with the
// text rules of section 4 (CR, BOM, final LF) broken at random.
func specText(r *fuzzgen.Rand) []byte {
	if r.Chance(1, 2) {
		return hr.Spec()
	}
	var b []byte
	for range 1 + r.IntN(4) {
		b = append(b, r.Text(r.Length(40))...)
		switch r.IntN(10) {
		case 0:
			b = append(b, '\r', '\n')
		case 1:
			b = append(b, "\ufeff"...)
		default:
			b = append(b, '\n')
		}
	}
	if r.Chance(1, 8) {
		b = append(b, '\n')
	}
	return b
}

func formatArtifact(r *fuzzgen.Rand) []byte {
	spec, catalog := specText(r), hr.SchemaCatalog()
	b := []byte(hr.FormatMagic)
	for _, v := range []uint64{hr.AuthorityVersion, hr.FormatMajor, hr.FormatMinor} {
		if r.Chance(1, 10) {
			v = r.Uint(0xffff, v)
		}
		b = binary.BigEndian.AppendUint16(b, uint16(v))
	}
	sl, cl := uint64(len(spec)), uint64(len(catalog))
	if r.Chance(1, 10) {
		sl = r.Uint(1<<64-1, sl)
	}
	if r.Chance(1, 10) {
		cl = r.Uint(1<<64-1, cl)
	}
	b = binary.BigEndian.AppendUint64(b, sl)
	b = binary.BigEndian.AppendUint64(b, cl)
	b = append(b, spec...)
	return append(b, catalog...)
}

func formatCase(r *fuzzgen.Rand) fuzzgen.Case {
	return fuzzgen.Case{Input: formatArtifact(r), Generator: "hivefuzz/format", Parent: "format artifact"}
}

// authorityCase is an authority input around the committed authority
// files, one of them changed: a file's bytes, the manifest or the
// metadata left out or mutated.
func authorityCase(r *fuzzgen.Rand) fuzzgen.Case {
	files := hr.AuthorityFiles()
	in := map[string]any{}
	fs := map[string]string{}
	paths := hr.InventoryPaths()
	vf := hr.VectorFiles()
	for _, p := range paths {
		fs[p] = base64.StdEncoding.EncodeToString(vf[p])
	}
	parent := "the committed authority"
	artifact := files[hr.FormatArtifactFile]
	framed := false // the manifest written over the files as they are
	metadata := files[hr.MetadataFile]
	if r.Chance(1, 2) {
		metadata = nil
	}
	switch r.IntN(8) {
	case 0:
		p := paths[r.IntN(len(paths))]
		b, op := r.Mutate(vf[p])
		fs[p] = base64.StdEncoding.EncodeToString(b)
		parent += ", " + p + " " + op
	case 1:
		p := paths[r.IntN(len(paths))]
		delete(fs, p)
		parent += ", " + p + " left out"
	case 2:
		// HR-VEC-03 (and HR-AUTH-03): a file outside the inventory,
		// which the manifest names.
		p := r.Pick("positive/extra.bin", "registry/relay-wire-schema-catalog-v1.cenc", "negative/relay-persistence-row-v1.bin")
		vf[p] = r.Bytes(1 + r.IntN(4))
		fs[p] = base64.StdEncoding.EncodeToString(vf[p])
		framed = true
		parent += ", " + p + " added and framed"
	case 3:
		// HR-VEC-06: two blob vectors of other classes swapped, framed.
		i := 1 + r.IntN(hr.NumClasses)
		j := 1 + (i+r.IntN(hr.NumClasses-1))%hr.NumClasses
		pi, pj := blobPath(i), blobPath(j)
		fs[pi], fs[pj] = fs[pj], fs[pi]
		vf[pi], vf[pj] = vf[pj], vf[pi]
		framed = true
		parent += ", " + pi + " and " + pj + " swapped and framed"
	case 5:
		// HR-VEC-08: the registry vector other than the catalog the
		// format artifact embeds (one byte more), framed.
		p := "registry/client-composition-schema-catalog-v1.cenc"
		vf[p] = append(bytes.Clone(vf[p]), 0)
		fs[p] = base64.StdEncoding.EncodeToString(vf[p])
		framed = true
		parent += ", " + p + " with one byte more, framed"
	case 4:
		// HR-FMT-17: a valid artifact around another spec text, against
		// metadata computed for it, which names this authority.
		artifact = artifactOf(hr.FormatMagic, otherSpec(r), hr.SchemaCatalog())
		m, err := hr.MetadataFor(artifact, files[hr.VectorManifestFile])
		if err != nil {
			panic(err)
		}
		metadata = m.Encode()
		parent += ", the format artifact around another spec text, with metadata computed for it"
	}
	in["files"] = fs
	in["format_artifact"] = base64.StdEncoding.EncodeToString(artifact)
	switch {
	case framed:
		var rows []manifest.Entry
		for p, b := range vf {
			if _, ok := fs[p]; ok {
				rows = append(rows, manifest.EntryFor(p, b))
			}
		}
		sort.Slice(rows, func(i, j int) bool { return rows[i].Path < rows[j].Path })
		mb := manifest.WriteRaw(uint32(len(rows)), rows)
		in["vector_manifest"] = base64.StdEncoding.EncodeToString(mb)
		// No metadata: its vector set hash would differ first.
		metadata = nil
	case metadata != nil && string(artifact) != string(files[hr.FormatArtifactFile]), r.Chance(2, 3):
		in["vector_manifest"] = base64.StdEncoding.EncodeToString(files[hr.VectorManifestFile])
	}
	if metadata != nil {
		in["metadata"] = base64.StdEncoding.EncodeToString(metadata)
	}
	b, err := json.Marshal(in)
	if err != nil {
		panic(err)
	}
	return fuzzgen.Case{Input: b, Generator: "hivefuzz/authority", Parent: parent}
}

func blobPath(class int) string { return "positive/cell-blob-v1-class-" + strconv.Itoa(class) + ".bin" }
