package hivefuzz

import (
	"bytes"
	"encoding/binary"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	hr "github.com/threespec/conformance/impl/hiverelay"
	"github.com/threespec/conformance/impl/hiverelay/hivespec"
	"github.com/threespec/conformance/internal/fuzzgen"
)

// Single-defect inputs: a record, catalog or artifact that is valid but
// for exactly one named defect, so that the rule of that defect is the one
// the reference reaches (a defect drawn among others is hidden behind the
// first rule the input breaks, and a byte mutation rarely writes an exact
// form such as an overlong compact uint or a tag 02 and keeps the rest
// valid). Each defect is named in the case's operators.

// cleanKeys returns a key generator for a record free of defects.
func cleanKeys(r *fuzzgen.Rand) *keys { return &keys{r: r, zero: -1, clean: true} }

// cleanCaps are n read capabilities, valid, sorted and unique.
func cleanCaps(r *fuzzgen.Rand, g *keys, n int) []hr.ReadCellCapV1 { return caps(r, g, n) }

// cleanFrame is a valid OpaqueChainFrameV1.
func cleanFrame(r *fuzzgen.Rand, g *keys) *hr.OpaqueChainFrameV1 {
	v := &hr.OpaqueChainFrameV1{ChainID: g.key(), Sequence: r.Uint(1<<64 - 1), TransportVerifyKey: g.key()}
	if v.Sequence != 0 {
		h := g.key()
		v.PreviousFrameHash = &h
	}
	for range r.Length(3) {
		v.OpaquePayloads = append(v.OpaquePayloads, r.Bytes(r.Length(16)))
	}
	v.NextReadCellCaps = cleanCaps(r, g, r.Length(3))
	if len(v.OpaquePayloads) == 0 || r.Chance(1, 2) {
		v.Checkpoint = checkpoint(r, g) // HR-FRAME-11: a payload or a checkpoint
	}
	copy(v.TransportSignature[:], r.Bytes(64))
	return v
}

// zeroKey is the all-zero key of the nonzero rules of section 3.
var zeroKey [32]byte

// recordDefect is one defect of section 3 applied to a record otherwise
// valid: build returns the schema, the class argument and the bytes.
type recordDefect struct {
	name  string
	build func(r *fuzzgen.Rand, g *keys) (schema string, class int, b []byte)
}

// badCaps returns 2 to 4 caps, valid and unique but for one adjacent
// pair: equal in (relay key, storage slot), a duplicate, or out of order.
func badCaps(r *fuzzgen.Rand, g *keys) []hr.ReadCellCapV1 {
	cs := cleanCaps(r, g, 2+r.IntN(3))
	i := r.IntN(len(cs) - 1)
	if r.Chance(1, 2) {
		cs[i+1].RelayPublicKey, cs[i+1].StorageSlot = cs[i].RelayPublicKey, cs[i].StorageSlot
	} else {
		cs[i], cs[i+1] = cs[i+1], cs[i]
	}
	return cs
}

var recordDefects = []recordDefect{
	// HR-RCAP-06, MUT-HR-OPTIONAL-ANY-NONZERO-PRESENT's neighbour.
	{"read-cap expected hash zero", func(r *fuzzgen.Rand, g *keys) (string, int, []byte) {
		v := readCap(r, g)
		v.ExpectedCellBlobHash = &zeroKey
		return hr.SchemaReadCellCapV1, 0, v.Raw()
	}},
	// HR-RCAP-02..05: a key of 32 zero bytes, or a size class outside
	// 1..5 (MUT-HR-SIZE-CLASS-6-ACCEPTED).
	{"read-cap key zero or size class", func(r *fuzzgen.Rand, g *keys) (string, int, []byte) {
		v := readCap(r, g)
		switch r.IntN(4) {
		case 0:
			v.RelayPublicKey = zeroKey
		case 1:
			v.StorageSlot = zeroKey
		case 2:
			v.CellKey = zeroKey
		default:
			v.SizeClass = byte(r.Pick("\x00", "\x06", "\xff")[0])
		}
		return hr.SchemaReadCellCapV1, 0, v.Raw()
	}},
	// HR-BCORE-02..04: a key of 32 zero bytes, or a head of 0 or 4097
	// bytes (4096 is the most).
	{"blind core key zero or head length", func(r *fuzzgen.Rand, g *keys) (string, int, []byte) {
		v := hr.BlindCoreReadCapV1{CorePublicKey: g.key(), BlockEncryptionKey: g.key(),
			WitnessedFork: r.Uint(1<<64 - 1), WitnessedLength: r.Uint(1<<64 - 1), WitnessedSignedHead: r.Bytes(1 + r.Length(63))}
		switch r.IntN(3) {
		case 0:
			v.CorePublicKey = zeroKey
		case 1:
			v.BlockEncryptionKey = zeroKey
		default:
			v.WitnessedSignedHead = r.Bytes([]int{0, 4096, 4097}[r.IntN(3)])
		}
		return hr.SchemaBlindCoreReadCapV1, 0, v.Raw()
	}},
	// HR-WCAP-03 and its siblings.
	{"write-cap key zero", func(r *fuzzgen.Rand, g *keys) (string, int, []byte) {
		v := hr.WriteCellCapV1{ReadCap: readCap(r, g), AllocationEpoch: uint32(r.Uint(1<<32 - 1)),
			CreatePrivateKey: g.key(), RenewPrivateKey: g.key(), DropPrivateKey: g.key()}
		k := []*[32]byte{&v.CreatePrivateKey, &v.RenewPrivateKey, &v.DropPrivateKey}[r.IntN(3)]
		*k = zeroKey
		return hr.SchemaWriteCellCapV1, 0, v.Raw()
	}},
	// HR-BLOB-08: an all-zero nonce is valid.
	{"blob nonce zero", func(r *fuzzgen.Rand, g *keys) (string, int, []byte) {
		class := 1 + r.IntN(2)
		v := hr.CellBlobV1{Class: uint8(class), Sealed: r.Bytes(hr.ClassLength(uint8(class)) - 13)}
		return hr.SchemaCellBlobV1, class, v.Raw()
	}},
	// HR-CKPT-06, -08 and the checkpoint's other keys.
	{"checkpoint key zero", func(r *fuzzgen.Rand, g *keys) (string, int, []byte) {
		v := checkpoint(r, g)
		switch r.IntN(3) {
		case 0:
			v.OpaqueStateCommitment = zeroKey
		case 1:
			v.SnapshotPayloadHash = zeroKey
		default:
			if len(v.CoveredFrontier) == 0 {
				v.CoveredFrontier = append(v.CoveredFrontier, hr.FrontierEntry{ChainID: g.key(), FrameHash: g.key()})
			}
			i := r.IntN(len(v.CoveredFrontier))
			if r.Chance(1, 2) {
				v.CoveredFrontier[i].FrameHash = zeroKey
			} else {
				v.CoveredFrontier[i].ChainID = zeroKey
				sortFrontier(v)
			}
		}
		return hr.SchemaOpaqueChainCheckpointV1, 0, v.Raw()
	}},
	// HR-CKPT-10, -11.
	{"checkpoint caps unsorted or duplicate", func(r *fuzzgen.Rand, g *keys) (string, int, []byte) {
		v := checkpoint(r, g)
		v.SnapshotReadCaps = badCaps(r, g)
		return hr.SchemaOpaqueChainCheckpointV1, 0, v.Raw()
	}},
	// MUT-HR-FRONTIER-LIMIT-1025 and HR-CKPT-02: 1,024 frontier entries
	// are the most, 1,025 one too many.
	{"checkpoint frontier 1024 or 1025", func(r *fuzzgen.Rand, g *keys) (string, int, []byte) {
		v := checkpoint(r, g)
		v.CoveredFrontier = v.CoveredFrontier[:0]
		for range 1024 + r.IntN(2) {
			v.CoveredFrontier = append(v.CoveredFrontier, hr.FrontierEntry{ChainID: g.key(), Sequence: r.Uint(1<<64 - 1), FrameHash: g.key()})
		}
		sortFrontier(v)
		return hr.SchemaOpaqueChainCheckpointV1, 0, v.Raw()
	}},
	// HR-FRAME-02, -05.
	{"frame key zero", func(r *fuzzgen.Rand, g *keys) (string, int, []byte) {
		v := cleanFrame(r, g)
		if r.Chance(1, 2) {
			v.ChainID = zeroKey
		} else {
			v.TransportVerifyKey = zeroKey
		}
		return hr.SchemaOpaqueChainFrameV1, 0, v.Raw()
	}},
	// HR-FRAME-03, -04.
	{"frame previous hash against its sequence", func(r *fuzzgen.Rand, g *keys) (string, int, []byte) {
		v := cleanFrame(r, g)
		if r.Chance(1, 2) {
			h := g.key()
			v.Sequence, v.PreviousFrameHash = 0, &h
		} else {
			v.Sequence, v.PreviousFrameHash = 1+r.Uint(1<<64-2), nil
		}
		return hr.SchemaOpaqueChainFrameV1, 0, v.Raw()
	}},
	// HR-FRAME-06 and its bound: 256 payloads at most.
	{"frame payloads at their bound", func(r *fuzzgen.Rand, g *keys) (string, int, []byte) {
		v := cleanFrame(r, g)
		v.OpaquePayloads = v.OpaquePayloads[:0]
		for range 256 + r.IntN(2) {
			v.OpaquePayloads = append(v.OpaquePayloads, r.Bytes(r.Length(2)))
		}
		return hr.SchemaOpaqueChainFrameV1, 0, v.Raw()
	}},
	// HR-FRAME-08 and its bound: 16 next read capabilities at most.
	{"frame caps at their bound", func(r *fuzzgen.Rand, g *keys) (string, int, []byte) {
		v := cleanFrame(r, g)
		v.NextReadCellCaps = cleanCaps(r, g, 16+r.IntN(2))
		return hr.SchemaOpaqueChainFrameV1, 0, v.Raw()
	}},
	// HR-FRAME-09, -10.
	{"frame caps unsorted or duplicate", func(r *fuzzgen.Rand, g *keys) (string, int, []byte) {
		v := cleanFrame(r, g)
		v.NextReadCellCaps = badCaps(r, g)
		return hr.SchemaOpaqueChainFrameV1, 0, v.Raw()
	}},
	// HR-CENC-10: a version byte other than 1 (every record begins with
	// its version, section 3).
	{"version", func(r *fuzzgen.Rand, g *keys) (string, int, []byte) {
		schema, class, b := validRecord(r, g)
		b[0] = byte(r.Pick("\x00", "\x02", "\xff")[0])
		return schema, class, b
	}},
	// HR-CENC-09, MUT-HR-OPTIONAL-ANY-NONZERO-PRESENT: an optional tag
	// other than 00 and 01, before a present value (the read cap's
	// expectedCellBlobHash tag follows version, three keys and sizeClass).
	{"optional tag", func(r *fuzzgen.Rand, g *keys) (string, int, []byte) {
		v := readCap(r, g)
		h := g.key()
		v.ExpectedCellBlobHash = &h
		b := v.Raw()
		b[1+3*32+1] = byte(r.Pick("\x02", "\x03", "\x80", "\xff")[0])
		return hr.SchemaReadCellCapV1, 0, b
	}},
	// HR-CENC-07, MUT-HR-OVERLONG-FD-ONLY, MUT-HR-COMPACT-FD-FROM-252: the
	// witnessed signed head's compact length (after version, two keys and
	// two u64s) written in a longer form than its shortest; 252 is the
	// largest one-byte value.
	{"overlong compact uint", func(r *fuzzgen.Rand, g *keys) (string, int, []byte) {
		n := 1 + r.Length(63)
		if r.Chance(1, 2) {
			n = 252
		}
		v := hr.BlindCoreReadCapV1{CorePublicKey: g.key(), BlockEncryptionKey: g.key(),
			WitnessedFork: r.Uint(1<<64 - 1), WitnessedLength: r.Uint(1<<64 - 1), WitnessedSignedHead: r.Bytes(n)}
		b := v.Raw()
		const at = 1 + 2*32 + 2*8
		out := append([]byte(nil), b[:at]...)
		switch r.IntN(3) {
		case 0:
			out = binary.LittleEndian.AppendUint16(append(out, 0xfd), uint16(n))
		case 1:
			if n == 252 { // the 0xfd form one below its lower bound
				out = binary.LittleEndian.AppendUint16(append(out, 0xfd), uint16(n))
				break
			}
			out = binary.LittleEndian.AppendUint32(append(out, 0xfe), uint32(n))
		default:
			out = binary.LittleEndian.AppendUint64(append(out, 0xff), uint64(n))
		}
		return hr.SchemaBlindCoreReadCapV1, 0, append(out, b[at+1:]...)
	}},
}

func sortFrontier(v *hr.OpaqueChainCheckpointV1) {
	sort.SliceStable(v.CoveredFrontier, func(i, j int) bool {
		return bytes.Compare(v.CoveredFrontier[i].ChainID[:], v.CoveredFrontier[j].ChainID[:]) < 0
	})
}

// validRecord is one of the six records, valid.
func validRecord(r *fuzzgen.Rand, g *keys) (string, int, []byte) {
	switch r.IntN(6) {
	case 0:
		v := readCap(r, g)
		return hr.SchemaReadCellCapV1, 0, v.Raw()
	case 1:
		v := hr.WriteCellCapV1{ReadCap: readCap(r, g), AllocationEpoch: uint32(r.Uint(1<<32 - 1)),
			CreatePrivateKey: g.key(), RenewPrivateKey: g.key(), DropPrivateKey: g.key()}
		return hr.SchemaWriteCellCapV1, 0, v.Raw()
	case 2:
		class := 1 + r.IntN(2)
		v := hr.CellBlobV1{Class: uint8(class), Sealed: r.Bytes(hr.ClassLength(uint8(class)) - 13)}
		copy(v.Nonce[:], r.Bytes(12))
		return hr.SchemaCellBlobV1, class, v.Raw()
	case 3:
		return hr.SchemaOpaqueChainCheckpointV1, 0, checkpoint(r, g).Raw()
	case 4:
		return hr.SchemaOpaqueChainFrameV1, 0, cleanFrame(r, g).Raw()
	default:
		v := hr.BlindCoreReadCapV1{CorePublicKey: g.key(), BlockEncryptionKey: g.key(),
			WitnessedFork: r.Uint(1<<64 - 1), WitnessedLength: r.Uint(1<<64 - 1), WitnessedSignedHead: r.Bytes(1 + r.Length(63))}
		return hr.SchemaBlindCoreReadCapV1, 0, v.Raw()
	}
}

// defectCase is a decode input valid but for one defect of recordDefects.
func defectCase(r *fuzzgen.Rand) fuzzgen.Case {
	d := recordDefects[r.IntN(len(recordDefects))]
	schema, class, b := d.build(r, cleanKeys(r))
	return fuzzgen.Case{
		Args:      fuzzgen.Args(hivespec.DecodeArgs{Schema: schema, Class: class}),
		Input:     b,
		Generator: "hivefuzz/defect",
		Parent:    schema,
		Operators: []string{d.name},
	}
}

// catalogDefects are the ways a schema catalog breaks a rule of section 1
// or 4 (HR-CAT-02..11; HR-AUTH-03 for the foreign names and categories),
// each applied to the authority's six entries.
var catalogDefects = []struct {
	name  string
	apply func(r *fuzzgen.Rand, es []hr.CatalogEntry) []hr.CatalogEntry
}{
	{"entry count", func(r *fuzzgen.Rand, es []hr.CatalogEntry) []hr.CatalogEntry {
		if r.Chance(1, 2) {
			return es[:len(es)-1]
		}
		return append(es, es[len(es)-1])
	}},
	{"category", func(r *fuzzgen.Rand, es []hr.CatalogEntry) []hr.CatalogEntry {
		es[r.IntN(len(es))].Category = byte(r.Pick("\x00", "\x01", "\x02", "\x04", "\x05", "\xff")[0])
		return es
	}},
	{"local id", func(r *fuzzgen.Rand, es []hr.CatalogEntry) []hr.CatalogEntry {
		i := r.IntN(len(es) - 1)
		if r.Chance(1, 2) {
			es[i].LocalID, es[i+1].LocalID = es[i+1].LocalID, es[i].LocalID
		} else {
			es[i].LocalID = byte(r.Pick("\x00", "\x07", "\xff")[0])
		}
		return es
	}},
	{"entries swapped", func(r *fuzzgen.Rand, es []hr.CatalogEntry) []hr.CatalogEntry {
		i := r.IntN(len(es) - 1)
		es[i].LocalID, es[i+1].LocalID = es[i+1].LocalID, es[i].LocalID
		es[i], es[i+1] = es[i+1], es[i]
		return es
	}},
	{"foreign name", func(r *fuzzgen.Rand, es []hr.CatalogEntry) []hr.CatalogEntry {
		i := r.IntN(len(es))
		name := r.Pick("RelayWireFrameV1", "RelayPersistenceRowV1", "PrivateIpcRequestV1", "ProductEvidenceV1")
		es[i].Name = name
		es[i].Declaration = name + strings.TrimPrefix(es[i].Declaration, hr.Schemas[i])
		return es
	}},
	{"declaration length", func(r *fuzzgen.Rand, es []hr.CatalogEntry) []hr.CatalogEntry {
		i := r.IntN(len(es))
		head, tail := es[i].Name+" {\n", "\n}"
		n := hr.MaxDeclarationLength + r.IntN(2) - len(head) - len(tail)
		es[i].Declaration = head + strings.Repeat("x", n) + tail
		return es
	}},
	{"declaration head or tail", func(r *fuzzgen.Rand, es []hr.CatalogEntry) []hr.CatalogEntry {
		i := r.IntN(len(es))
		d, name := es[i].Declaration, es[i].Name
		body := strings.TrimSuffix(strings.TrimPrefix(d, name+" {\n"), "\n}")
		switch r.IntN(5) {
		case 0:
			d = name + "{\n" + body + "\n}"
		case 1:
			d = name + " (\n" + body + "\n}"
		case 2:
			d = name + " {\n" + body
		case 3:
			d += "\n"
		default:
			d = hr.Schemas[(i+1)%len(hr.Schemas)] + " {\n" + body + "\n}"
		}
		es[i].Declaration = d
		return es
	}},
	{"dependencies", func(r *fuzzgen.Rand, es []hr.CatalogEntry) []hr.CatalogEntry {
		var with []int // entries with two dependencies or more
		for i, e := range es {
			if len(e.Dependencies) >= 2 {
				with = append(with, i)
			}
		}
		i := r.IntN(len(es))
		deps := slices.Clone(es[i].Dependencies)
		switch r.IntN(4) {
		case 0:
			if len(with) > 0 {
				i = with[r.IntN(len(with))]
				deps = slices.Clone(es[i].Dependencies)
				j := r.IntN(len(deps) - 1)
				deps[j], deps[j+1] = deps[j+1], deps[j]
			}
		case 1:
			if len(deps) > 0 {
				j := r.IntN(len(deps))
				deps = slices.Insert(deps, j, deps[j])
			} else {
				deps = []string{hr.Schemas[(i+1)%len(hr.Schemas)], hr.Schemas[(i+1)%len(hr.Schemas)]}
			}
		case 2:
			deps = append(deps, es[i].Name)
			slices.Sort(deps)
		default:
			deps = append(deps, r.Pick("", "RelayPersistenceRowV1", "RelayWireFrameV1", "zzz"))
			slices.Sort(deps)
		}
		es[i].Dependencies = deps
		return es
	}},
}

// defectCatalog is the authority's catalog with one defect of
// catalogDefects, named in ops.
func defectCatalog(r *fuzzgen.Rand, ops *[]string) []byte {
	d := catalogDefects[r.IntN(len(catalogDefects))]
	for d.name == "declaration length" && r.Chance(1, 2) { // 64 KiB: half as often
		d = catalogDefects[r.IntN(len(catalogDefects))]
	}
	*ops = append(*ops, "catalog "+d.name)
	return hr.RawSchemaCatalog(d.apply(r, slices.Clone(catalogEntries())))
}

// catalogEntries are the authority's six catalog entries, built once;
// the defects change a copy of the slice (and clone what they change
// inside an entry).
var catalogEntries = sync.OnceValue(hr.SchemaCatalogEntries)

// otherSpec is a valid spec text other than this authority's: the
// embedded spec with one ASCII letter changed, or one LF.
func otherSpec(r *fuzzgen.Rand) []byte {
	spec := bytes.Clone(hr.Spec())
	for range 64 {
		i := r.IntN(len(spec))
		if c := spec[i]; c >= 'a' && c <= 'y' {
			spec[i]++
			return spec
		}
	}
	return []byte("\n")
}

// bigSpecs are valid spec texts of 1 MiB and of one byte more
// (HR-FMT-07), built once; callers must not modify them.
var bigSpecs = sync.OnceValue(func() [2][]byte {
	var out [2][]byte
	for i := range out {
		n := 1<<20 + i
		b := []byte(strings.Repeat(strings.Repeat("x", 63)+"\n", (n-2)/64))
		out[i] = append(b, strings.Repeat("y", n-len(b)-1)+"\n"...)
	}
	return out
})

// artifactOf writes a format artifact of magic, spec and catalog.
func artifactOf(magic string, spec, catalog []byte) []byte {
	b := []byte(magic)
	for _, v := range []uint64{hr.AuthorityVersion, hr.FormatMajor, hr.FormatMinor} {
		b = binary.BigEndian.AppendUint16(b, uint16(v))
	}
	b = binary.BigEndian.AppendUint64(b, uint64(len(spec)))
	b = binary.BigEndian.AppendUint64(b, uint64(len(catalog)))
	return append(append(b, spec...), catalog...)
}

// defectArtifactCase is a format artifact valid but for one defect: its
// catalog (catalogDefects), its magic (HR-FMT-02), or its spec text of 1
// MiB or one byte more (HR-FMT-07).
func defectArtifactCase(r *fuzzgen.Rand) fuzzgen.Case {
	var ops []string
	magic, spec, catalog := hr.FormatMagic, hr.Spec(), hr.SchemaCatalog()
	switch r.IntN(8) {
	case 0:
		magic = r.Pick("HRBCCF00", "HRBCCF02", "hrbccf01", "\x00HRBCCF0", "HRBCCG01")
		ops = append(ops, "magic "+strconv.Quote(magic))
	case 1:
		if !r.Chance(1, 8) { // a megabyte: rarely
			catalog = defectCatalog(r, &ops)
			break
		}
		spec = bigSpecs()[r.IntN(2)]
		ops = append(ops, "spec of "+strconv.Itoa(len(spec))+" bytes")
	case 2:
		// HR-FMT-11..13: a BOM at the start, a byte that is not strict
		// UTF-8, or a CR, in the embedded spec.
		d := r.Pick("\ufeff", "\xff", "\xc0\xaf", "\xed\xa0\x80", "\r")
		i := 0
		if d != "\ufeff" {
			i = r.IntN(len(spec))
		}
		spec = slices.Concat(spec[:i], []byte(d), spec[i:])
		ops = append(ops, "spec "+strconv.Quote(d)+" at "+strconv.Itoa(i))
	default:
		catalog = defectCatalog(r, &ops)
	}
	return fuzzgen.Case{Input: artifactOf(magic, spec, catalog), Generator: "hivefuzz/format", Parent: "format artifact", Operators: ops}
}
