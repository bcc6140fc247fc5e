// Package hiverelay holds the steps of the HiveRelay Blind Client
// Composition v1 features (features/hiverelay), its steps.Wing. Inputs are
// built by build.go and files.go with the steps' own encoder; every question
// goes to the implementation under test through World.Call:
// hiverelay.decode, hiverelay.format, hiverelay.manifest and
// hiverelay.authority (docs/PROTOCOL.md).
package hiverelay

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/cucumber/godog"
	"golang.org/x/crypto/blake2b"

	"github.com/threespec/conformance/impl/hiverelay/hivespec"
	"github.com/threespec/conformance/steps"
)

// Steps are the HiveRelay steps; each scenario keeps its HiveRelay state in
// its own scenario.
var Steps = steps.Wing{Spec: hivespec.Spec, Register: register, Unreachable: unreachable}

// scenario is the HiveRelay state of one scenario.
type scenario struct {
	w *steps.World

	// The input being built: a value (a record, the schema catalog, the
	// format artifact, a vector manifest) or, once bytes were edited
	// directly, its bytes.
	value    *node
	input    []byte
	hasInput bool

	set *vectorSet // the vector set of the authority scenarios

	// What the last When step sent, for the Then steps.
	sent         []byte
	sentArtifact []byte
	sentManifest []byte
}

// vectorSet is the input of hiverelay.authority as the steps build it.
type vectorSet struct {
	files        map[string][]byte
	manifest     []byte
	omitManifest bool
	artifact     []byte
	metadata     []byte
}

// quoted is a double-quoted step argument with Go escapes.
const quoted = `"((?:[^"\\]|\\.)*)"`

const hexArg = `"([0-9a-f]{2}(?: [0-9a-f]{2})*|)"`

// pathArg is a field path as the declarations name fields: "sizeClass",
// "readCap.sizeClass", "coveredFrontier[1].chainId".
const pathArg = `([a-zA-Z]\w*(?:\[\d+\])?(?:\.[a-zA-Z]\w*(?:\[\d+\])?)*)`

// Building.

// inputBytes sets the input to the bytes of a hex string.
func (s *scenario) inputBytes(h string) error {
	b, err := parseHex(h)
	s.setInput(b)
	return err
}

// cutInput removes the last byte, or the last n, of the input.
func (s *scenario) cutInput(n string) error {
	b, err := cut(s.bytes(), n)
	s.setInput(b)
	return err
}

// cutInputTo cuts the input to its first n bytes.
func (s *scenario) cutInputTo(n int) error {
	b := s.bytes()
	if n > len(b) {
		return fmt.Errorf("the input is only %d bytes", len(b))
	}
	s.setInput(b[:n])
	return nil
}

// appendToInput appends the bytes expr gives to the input.
func (s *scenario) appendToInput(expr string) error {
	x, err := parseBytes(expr, 0)
	s.setInput(append(s.bytes(), x...))
	return err
}

// inputLengthIs checks the length of the input.
func (s *scenario) inputLengthIs(n int) error {
	if got := len(s.bytes()); got != n {
		return fmt.Errorf("the input is %d bytes, want %d", got, n)
	}
	return nil
}

// inputContains checks that the input holds the bytes expr gives.
func (s *scenario) inputContains(expr string) error {
	want, err := parseBytes(expr, 0)
	if err != nil {
		return err
	}
	if !bytes.Contains(s.bytes(), want) {
		return fmt.Errorf("the input (%d bytes) does not contain %s", len(s.bytes()), expr)
	}
	return nil
}

// inputEquals checks the input against the bytes expr gives.
func (s *scenario) inputEquals(expr string) error {
	want, err := parseBytes(expr, 0)
	if err != nil {
		return err
	}
	return same(s.bytes(), want, expr)
}

// referenceCatalog makes the reference schema catalog the value being built.
func (s *scenario) referenceCatalog() error {
	c, err := catalog()
	s.value = c
	return err
}

// referenceArtifact makes the reference format artifact the value being built.
func (s *scenario) referenceArtifact() error {
	a, err := referenceArtifact()
	s.value = a
	return err
}

// verifyFormat sends the input to hiverelay.format.
func (s *scenario) verifyFormat() error {
	s.sent = s.bytes()
	s.sentArtifact = s.sent
	return s.w.Call(hivespec.OpFormat, nil, s.sent)
}

// specIs checks the length and SHA-256 of the spec copy.
func (s *scenario) specIs(n int, h string) error {
	spec, err := specBytes()
	if err != nil {
		return err
	}
	if sum := sha256.Sum256(spec); len(spec) != n || fmt.Sprintf("%x", sum) != h {
		return fmt.Errorf("the spec is %d bytes with SHA-256 %x", len(spec), sum)
	}
	return nil
}

// appendToField appends the bytes expr gives to byte-string field p.
func (s *scenario) appendToField(expr, p string) error {
	return s.editBytes(p, func(b []byte) ([]byte, error) {
		x, err := parseBytes(expr, 0)
		return append(b, x...), err
	})
}

// insertIntoField inserts the bytes expr gives into byte-string field p at offset at.
func (s *scenario) insertIntoField(expr, p string, at int) error {
	return s.editBytes(p, func(b []byte) ([]byte, error) {
		x, err := parseBytes(expr, 0)
		if at > len(b) {
			return nil, fmt.Errorf("offset %d is beyond the %d bytes", at, len(b))
		}
		return slices.Insert(b, at, x...), err
	})
}

// setFieldByte sets byte at of byte-string field p.
func (s *scenario) setFieldByte(at int, p, h string) error {
	return s.editBytes(p, func(b []byte) ([]byte, error) {
		if at >= len(b) {
			return nil, fmt.Errorf("%s has no byte %d", p, at)
		}
		v, err := parseHex(h)
		b[at] = v[0]
		return b, err
	})
}

// replaceInField replaces the first old in byte-string field p by new.
func (s *scenario) replaceInField(old, new, p string) error {
	return s.editBytes(p, func(b []byte) ([]byte, error) {
		o, err1 := unquote(old)
		n, err2 := unquote(new)
		if err := errors.Join(err1, err2); err != nil {
			return nil, err
		}
		if !bytes.Contains(b, o) {
			return nil, fmt.Errorf("%s does not hold %q", p, o)
		}
		return bytes.Replace(b, o, n, 1), nil
	})
}

// referenceManifest makes the manifest of the committed vector files the value being built.
func (s *scenario) referenceManifest() error {
	files, err := vectorFiles()
	s.value = manifest(files)
	return err
}

// addFileAt adds to the vector set a file whose path is the bytes pathExpr gives.
func (s *scenario) addFileAt(pathExpr, expr string) error {
	p, err := parseBytes(pathExpr, 0)
	if err != nil {
		return err
	}
	return s.addFile(string(p), expr)
}

// parseManifest sends the input to hiverelay.manifest.
func (s *scenario) parseManifest() error {
	s.sent = s.bytes()
	s.sentManifest = s.sent
	return s.w.Call(hivespec.OpManifest, nil, s.sent)
}

// entryCount checks the number of manifest entries in the answer.
func (s *scenario) entryCount(n int) error {
	es, err := s.entries()
	if err == nil && len(es) != n {
		err = fmt.Errorf("%d entries, want %d", len(es), n)
	}
	return err
}

// removeFile removes file p from the vector set.
func (s *scenario) removeFile(p string) error {
	if _, ok := s.set.files[p]; !ok {
		return fmt.Errorf("the vector set has no file %q", p)
	}
	delete(s.set.files, p)
	return nil
}

// setFile sets the bytes of file p of the vector set.
func (s *scenario) setFile(p, expr string) error {
	b, err := parseBytes(expr, 0)
	s.set.files[p] = b
	return err
}

// replaceInMetadata replaces the first old in the metadata artifact by new (single-quoted: the JSON text holds double quotes).
func (s *scenario) replaceInMetadata(old, new string) error {
	o, err1 := unquote(strings.ReplaceAll(old, `"`, `\"`))
	n, err2 := unquote(strings.ReplaceAll(new, `"`, `\"`))
	if err := errors.Join(err1, err2); err != nil {
		return err
	}
	if !bytes.Contains(s.set.metadata, o) {
		return fmt.Errorf("the metadata artifact %q does not hold %q", s.set.metadata, o)
	}
	s.set.metadata = bytes.Replace(s.set.metadata, o, n, 1)
	return nil
}

// metadataIs checks the metadata artifact against the published file.
func (s *scenario) metadataIs(name string) error {
	want, err := publishedFile(name)
	if err != nil {
		return err
	}
	return same(s.set.metadata, want, "manifest/hiverelay/"+name)
}

func (s *scenario) setInput(b []byte) {
	s.value, s.input, s.hasInput = nil, b, true
}

// bytes returns the input as it stands: the value's encoding, or the bytes.
func (s *scenario) bytes() []byte {
	if s.value != nil {
		return s.value.encode()
	}
	return s.input
}

func (s *scenario) record(schema string) error {
	v, err := recordOf(schema)
	s.value = v
	return err
}

func (s *scenario) recordWith(schema, mod string) error {
	if err := s.record(schema); err != nil {
		return err
	}
	// "with <field> <value>": the longest field name that resolves and
	// takes the rest as its value.
	words := strings.Fields(mod)
	var errs []string
	for i := len(words) - 1; i >= 1; i-- {
		f, err := s.value.resolve(strings.Join(words[:i], " "))
		if err != nil {
			continue
		}
		if err := f.setValue(strings.Join(words[i:], " ")); err != nil {
			errs = append(errs, err.Error())
			continue
		}
		return nil
	}
	return fmt.Errorf("cannot read %q as <field> <value> of %s: %s", mod, schema, strings.Join(errs, "; "))
}

func (s *scenario) blobOfClass(c int) error {
	if classLength(c) == 0 {
		return fmt.Errorf("there is no class %d", c)
	}
	s.value = blob(c)
	return nil
}

func (s *scenario) frame(kind string) error {
	if kind == "genesis" {
		s.value = genesisFrame()
	} else {
		s.value = successorFrame()
	}
	return nil
}

func (s *scenario) concatenation(t *godog.Table) error {
	var out []byte
	for i, row := range t.Rows {
		if len(row.Cells) != 2 {
			return fmt.Errorf("row %d: want | field | bytes |", i+1)
		}
		if i == 0 && row.Cells[0].Value == "field" {
			continue
		}
		b, err := parseBytes(row.Cells[1].Value, 0)
		if err != nil {
			return fmt.Errorf("row %d (%s): %w", i+1, row.Cells[0].Value, err)
		}
		out = append(out, b...)
	}
	s.setInput(out)
	return nil
}

func (s *scenario) vector(p string) error {
	b, err := vectorFile(p)
	s.setInput(b)
	return err
}

func (s *scenario) setByte(at int, h string) error {
	b := bytes.Clone(s.bytes())
	if at >= len(b) {
		return fmt.Errorf("the input has no byte %d (%d bytes)", at, len(b))
	}
	v, err := parseHex(h)
	b[at] = v[0]
	s.setInput(b)
	return err
}

var quotedList = regexp.MustCompile(quoted)

func (s *scenario) manifestOfPaths(list string) error {
	rows := &node{name: "rows", kind: array, u32Count: true}
	for _, m := range quotedList.FindAllStringSubmatch(list, -1) {
		p, err := unquote(m[1])
		if err != nil {
			return err
		}
		// The row describes a vector whose bytes are its own path.
		rows.items = append(rows.items, manifestRow(p, p))
	}
	s.value = rec("manifest", rows)
	return nil
}

func (s *scenario) field(p string) (*node, error) {
	if s.value == nil {
		return nil, fmt.Errorf("no value is being built (the input is bytes now)")
	}
	return s.value.resolve(p)
}

func (s *scenario) setField(p, value string) error {
	f, err := s.field(p)
	if err != nil {
		return err
	}
	return f.setValue(value)
}

// fields resolves two paths.
func (s *scenario) fields(p, q string) (*node, *node, error) {
	a, err := s.field(p)
	if err != nil {
		return nil, nil, err
	}
	b, err := s.field(q)
	return a, b, err
}

func (s *scenario) copyField(dst, src string) error {
	d, from, err := s.fields(dst, src)
	if err != nil {
		return err
	}
	if d.kind != from.kind {
		return fmt.Errorf("%s and %s are of different kinds", dst, src)
	}
	c := from.clone()
	c.name = d.name
	*d = *c
	return nil
}

func (s *scenario) resize(p string, n int) error {
	f, err := s.field(p)
	if err != nil {
		return err
	}
	return f.resize(n)
}

func (s *scenario) swap(i, j int, p string) error {
	f, err := s.field(p)
	if err != nil {
		return err
	}
	if f.kind != array || i >= len(f.items) || j >= len(f.items) {
		return fmt.Errorf("%s has no elements %d and %d", p, i, j)
	}
	f.items[i], f.items[j] = f.items[j], f.items[i]
	return nil
}

func (s *scenario) appendCopy(src, p string) error {
	from, f, err := s.fields(src, p)
	if err != nil {
		return err
	}
	if f.kind != array {
		return fmt.Errorf("%s is not an array", p)
	}
	f.items = append(f.items, from.clone())
	return nil
}

func (s *scenario) removeElement(i int, p string) error {
	f, err := s.field(p)
	if err != nil {
		return err
	}
	if f.kind != array || i >= len(f.items) {
		return fmt.Errorf("%s has no element %d", p, i)
	}
	f.items = slices.Delete(f.items, i, i+1)
	return nil
}

func (s *scenario) writtenAs(p, h string) error {
	f, err := s.field(p)
	if err != nil {
		return err
	}
	if f.kind != bounded && f.kind != optional && f.kind != array {
		return fmt.Errorf("%s has no count, length or tag", p)
	}
	f.raw, err = parseHex(h)
	if f.raw == nil {
		f.raw = []byte{}
	}
	return err
}

func (s *scenario) editBytes(p string, edit func([]byte) ([]byte, error)) error {
	f, err := s.field(p)
	if err != nil {
		return err
	}
	if f.kind != fixed && f.kind != bounded {
		return fmt.Errorf("%s is not a byte string", p)
	}
	b, err := edit(bytes.Clone(f.data))
	if err != nil {
		return err
	}
	f.data, f.size = b, 0 // an edited fixed field may change its size
	return nil
}

func cut(b []byte, n string) ([]byte, error) {
	k := 1
	if n != "" {
		k = atoi(n)
	}
	if k > len(b) {
		return nil, fmt.Errorf("cannot remove %d of %d bytes", k, len(b))
	}
	return bytes.Clone(b[:len(b)-k]), nil
}

func (s *scenario) vectorSet(withMetadata bool) error {
	files, err := vectorFiles()
	if err != nil {
		return err
	}
	a, err := referenceArtifact()
	if err != nil {
		return err
	}
	m := manifest(files)
	s.set = &vectorSet{files: files, manifest: m.encode(), artifact: a.encode()}
	if withMetadata {
		s.set.metadata = metadata(s.set.artifact, s.set.manifest, len(files))
	}
	return nil
}

// vectorSetWith makes the reference vector set around the format artifact
// being built, with its metadata artifact when withMetadata.
func (s *scenario) vectorSetWith(withMetadata bool) error {
	a := s.bytes()
	if err := s.vectorSet(false); err != nil {
		return err
	}
	s.set.artifact = a
	if withMetadata {
		s.set.metadata = metadata(a, s.set.manifest, len(s.set.files))
	}
	return nil
}

// Operations.

func (s *scenario) decode(args hivespec.DecodeArgs) error {
	s.sent = s.bytes()
	return s.w.Call(hivespec.OpDecode, args, s.sent)
}

// verifyHolding verifies the reference format artifact around the input as
// its schema catalog.
func (s *scenario) verifyHolding() error {
	var catalog *node
	if s.value != nil {
		catalog = s.value
	} else {
		catalog = varBytes("schemaCatalogBytes", s.input)
	}
	a, err := artifact(catalog)
	if err != nil {
		return err
	}
	s.sent = a.encode()
	s.sentArtifact = s.sent
	return s.w.Call(hivespec.OpFormat, nil, s.sent)
}

func (s *scenario) verifySet(withMetadata bool) error {
	if s.set == nil {
		return fmt.Errorf("no vector set was given")
	}
	in := hivespec.AuthorityInput{FormatArtifact: s.set.artifact, Files: s.set.files}
	if !s.set.omitManifest {
		in.VectorManifest = s.set.manifest
	}
	if withMetadata {
		if s.set.metadata == nil {
			return fmt.Errorf("the vector set has no metadata artifact")
		}
		in.Metadata = s.set.metadata
	}
	b, err := json.Marshal(in)
	if err != nil {
		return err
	}
	s.sent, s.sentArtifact, s.sentManifest = b, s.set.artifact, in.VectorManifest
	if s.set.omitManifest {
		s.sentManifest = manifest(s.set.files).encode()
	}
	return s.w.Call(hivespec.OpAuthority, nil, b)
}

// Results.

func (s *scenario) reencodingIs(want []byte, what string) error {
	var r struct {
		Reencoded []byte `json:"reencoded"`
	}
	if err := s.w.Result(&r); err != nil {
		return err
	}
	return same(r.Reencoded, want, what)
}

func (s *scenario) reencodingRange(from, to int, expr string) error {
	var r struct {
		Reencoded []byte `json:"reencoded"`
	}
	if err := s.w.Result(&r); err != nil {
		return err
	}
	want, err := parseBytes(expr, 0)
	if err != nil {
		return err
	}
	if from > to || to >= len(r.Reencoded) {
		return fmt.Errorf("the re-encoding (%d bytes) has no bytes %d to %d", len(r.Reencoded), from, to)
	}
	return same(r.Reencoded[from:to+1], want, expr)
}

func (s *scenario) hashIs(field, want string, equal bool) error {
	var r map[string]any
	if err := s.w.Result(&r); err != nil {
		return err
	}
	got, _ := r[field].(string)
	if (got == want) != equal {
		verb := "want"
		if !equal {
			verb = "must differ from"
		}
		return fmt.Errorf("%s is %q, %s %q", field, got, verb, want)
	}
	return nil
}

type entry struct {
	Path    string `json:"path"`
	Length  uint64 `json:"length"`
	BLAKE2b string `json:"blake2b"`
}

func (s *scenario) entries() ([]entry, error) {
	var r struct {
		Entries []entry `json:"entries"`
	}
	err := s.w.Result(&r)
	return r.Entries, err
}

func (s *scenario) addFile(p, expr string) error {
	if _, ok := s.set.files[p]; ok {
		return fmt.Errorf("the vector set already has %q", p)
	}
	b, err := parseBytes(expr, 0)
	s.set.files[p] = b
	return err
}

func (s *scenario) entryIs(i int, p string, n uint64, blake string) error {
	es, err := s.entries()
	if err != nil {
		return err
	}
	want, err := unquote(p)
	if err != nil {
		return err
	}
	if i >= len(es) || es[i].Path != string(want) || es[i].Length != n || blake != "" && es[i].BLAKE2b != blake {
		return fmt.Errorf("entries %v; want entry %d %q of %d bytes %s", es, i, want, n, blake)
	}
	return nil
}

func (s *scenario) entriesHoldFiles() error {
	es, err := s.entries()
	if err != nil {
		return err
	}
	for _, e := range es {
		b, err := vectorFile(e.Path)
		if err != nil {
			return err
		}
		h := blake2b.Sum256(b)
		if e.Length != uint64(len(b)) || e.BLAKE2b != fmt.Sprintf("%x", h) {
			return fmt.Errorf("entry %q: %d bytes, BLAKE2b-256 %s; the file: %d bytes, %x", e.Path, e.Length, e.BLAKE2b, len(b), h)
		}
	}
	return nil
}

func (s *scenario) pathsAreInventory() error {
	es, err := s.entries()
	if err != nil {
		return err
	}
	inv, err := inventory()
	if err != nil {
		return err
	}
	var got []string
	for _, e := range es {
		got = append(got, e.Path)
	}
	if !slices.Equal(got, inv) {
		return fmt.Errorf("the manifest's paths %q are not the inventory %q", got, inv)
	}
	return nil
}

func (s *scenario) usedManifest() error {
	var r struct {
		VectorManifest []byte `json:"vector_manifest"`
	}
	if err := s.w.Result(&r); err != nil {
		return err
	}
	return same(r.VectorManifest, manifest(maps.Clone(s.set.files)).encode(), "the manifest the steps frame from the files")
}

// same compares bytes and names the first difference.
func same(got, want []byte, what string) error {
	if bytes.Equal(got, want) {
		return nil
	}
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	return fmt.Errorf("%d bytes differ from %s (%d bytes) first at byte %d", len(got), what, len(want), i)
}
