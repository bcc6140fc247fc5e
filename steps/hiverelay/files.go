package hiverelay

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"golang.org/x/crypto/blake2b"

	hr "github.com/threespec/conformance/impl/hiverelay"
	"github.com/threespec/conformance/specs"
	"github.com/threespec/conformance/steps"
)

// The HiveRelay authority's files as the steps build them: the spec bytes,
// the schema catalog (docs/hiverelay.md, "The schema catalog", byte by byte),
// the format artifact (section 4), the vector manifest (section 5), the
// metadata artifact (docs/hiverelay.md), and the committed vector files.

// Where the steps find the spec and the committed files, relative to the
// repository root (steps.RepoRoot): the spec is the project's copy in specs/, read
// as a file (not through impl/) so that the steps build the authority from
// their own reading of the tree. Outside a checkout (conform features
// installed with go install), where there is no tree to read, readTree
// falls back to the same bytes as the project carries them: the embedded
// spec copy and declarations, and the reference's authority files, which
// vecgen -check keeps equal to the committed ones.
func specPath() string { return steps.FromRoot("specs/" + hr.SpecFile) }

func declarationDir() string { return steps.FromRoot("impl/hiverelay/data/declarations") }
func vectorRoot() string     { return steps.FromRoot("vectors") }
func publishedRoot() string  { return steps.FromRoot("manifest/hiverelay") }

// publishedFile reads a file of manifest/hiverelay.
func publishedFile(name string) ([]byte, error) {
	return readTree(filepath.Join(publishedRoot(), name), "manifest/hiverelay/"+name)
}

// Known answers of the spec and of docs/hiverelay.md.
const (
	specSHA256            = "c8b2941c96eaf3704ca1671973cf7436b832c659dac41f14811a0fc926af7c43"
	formatHashDomain      = "hiverelay.blind.client-composition-format-hash.v1"
	vectorSetHashDomain   = "hiverelay.blind.client-composition-vector-set-hash.v1"
	authorityName         = "hiverelay-blind-client-composition-v1"
	formatArtifactFile    = "hiverelay-blind-client-composition-format-v1.cenc"
	vectorManifestFile    = "hiverelay-blind-client-composition-vector-manifest-v1.bin"
	categoryClientExample = 3
)

// dependencies are the composition dependencies of each schema
// (docs/hiverelay.md, the table of catalog entries).
var dependencies = map[string][]string{
	"OpaqueChainCheckpointV1": {"ReadCellCapV1"},
	"OpaqueChainFrameV1":      {"OpaqueChainCheckpointV1", "ReadCellCapV1"},
	"WriteCellCapV1":          {"ReadCellCapV1"},
}

var loaded struct {
	once  sync.Once
	spec  []byte
	decls map[string][]byte
	err   error
}

// readTree reads the file at path p of the tree; when p is missing and
// the working directory is outside a checkout (no go.mod of the module
// above it), it gives the built-in copy of rel (a path relative to the
// repository root) instead.
func readTree(p, rel string) ([]byte, error) {
	b, err := os.ReadFile(p)
	if err == nil || !errors.Is(err, fs.ErrNotExist) || steps.InCheckout() {
		return b, err
	}
	if c, ok := builtIn(rel); ok {
		return c, nil
	}
	return nil, fmt.Errorf("%w (outside a checkout, and the project carries no built-in copy of %s)", err, rel)
}

// builtIn is the built-in copy of a file of the tree, by its path relative
// to the repository root.
func builtIn(rel string) ([]byte, bool) {
	dir, name := path.Split(rel)
	switch {
	case rel == "specs/"+hr.SpecFile:
		return specs.Text(hr.SpecFile), true
	case dir == "impl/hiverelay/data/declarations/":
		d, ok := hr.Declaration(strings.TrimSuffix(name, ".decl"))
		return []byte(d + "\n"), ok
	case dir == "manifest/hiverelay/":
		b, ok := hr.AuthorityFiles()[name]
		return b, ok
	case strings.HasPrefix(rel, "vectors/"):
		// vectors/<kind>/hiverelay/<name> is the inventory path <kind>/<name>.
		parts := strings.Split(rel, "/")
		if len(parts) == 4 && parts[2] == "hiverelay" {
			b, ok := hr.VectorFiles()[parts[1]+"/"+parts[3]]
			return b, ok
		}
	}
	return nil, false
}

func load() error {
	loaded.once.Do(func() {
		p := specPath()
		b, err := readTree(p, "specs/"+hr.SpecFile)
		if err != nil {
			loaded.err = fmt.Errorf("the HiveRelay spec: %w", err)
			return
		}
		if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != specSHA256 {
			loaded.err = fmt.Errorf("%s: SHA-256 %x, want %s", p, sum, specSHA256)
			return
		}
		loaded.spec = b
		loaded.decls = map[string][]byte{}
		for _, name := range schemas {
			b, err := readTree(filepath.Join(declarationDir(), name+".decl"), "impl/hiverelay/data/declarations/"+name+".decl")
			if err != nil {
				loaded.err = err
				return
			}
			loaded.decls[name] = bytes.TrimSuffix(b, []byte("\n"))
		}
	})
	return loaded.err
}

// specBytes returns the exact spec bytes the format artifact embeds.
func specBytes() ([]byte, error) {
	if err := load(); err != nil {
		return nil, err
	}
	return bytes.Clone(loaded.spec), nil
}

// declaration returns the canonical declaration text of a schema.
func declaration(name string) ([]byte, error) {
	if err := load(); err != nil {
		return nil, err
	}
	d, ok := loaded.decls[name]
	if !ok {
		return nil, fmt.Errorf("no declaration of %q", name)
	}
	return bytes.Clone(d), nil
}

// catalog returns the reference schema catalog as a tree: a compact-uint
// entry count, then per entry category u8, localId u8, name, declaration and
// the dependency names, each string a bounded byte string.
func catalog() (*node, error) {
	entries := arr("entries", nil, nil)
	for i, name := range schemas {
		decl, err := declaration(name)
		if err != nil {
			return nil, err
		}
		deps := arr("dependencies", nil, nil)
		for _, d := range dependencies[name] {
			deps.items = append(deps.items, bound("", []byte(d)))
		}
		entries.items = append(entries.items, rec("",
			unsigned("category", u8, categoryClientExample),
			unsigned("localId", u8, uint64(i+1)),
			bound("name", []byte(name)),
			bound("declaration", decl),
			deps,
		))
	}
	return rec("schemaCatalog", entries), nil
}

// artifact returns the format artifact of section 4 around a catalog.
func artifact(catalog *node) (*node, error) {
	spec, err := specBytes()
	if err != nil {
		return nil, err
	}
	catalog = catalog.clone()
	catalog.name = "schemaCatalogBytes"
	return rec("formatArtifact",
		fixedBytes("magic", []byte("HRBCCF01")),
		unsigned("authorityVersion", u16, 1),
		unsigned("formatMajor", u16, 1),
		unsigned("formatMinor", u16, 0),
		&node{name: "specLength", kind: u64, lengthOf: "specBytes"},
		&node{name: "schemaCatalogLength", kind: u64, lengthOf: "schemaCatalogBytes"},
		varBytes("specBytes", spec),
		catalog,
	), nil
}

// referenceArtifact returns the authority's format artifact.
func referenceArtifact() (*node, error) {
	c, err := catalog()
	if err != nil {
		return nil, err
	}
	return artifact(c)
}

// manifestRow describes vector bytes data at path p.
func manifestRow(p []byte, data []byte) *node {
	h := blake2b.Sum256(data)
	return rec("",
		&node{name: "pathLength", kind: u16, lengthOf: "path"},
		varBytes("path", p),
		unsigned("length", u64, uint64(len(data))),
		fixedBytes("hash", h[:]),
	)
}

// manifest returns the vector manifest of section 5 for files, its rows
// sorted by raw path bytes.
func manifest(files map[string][]byte) *node {
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	rows := &node{name: "rows", kind: array, u32Count: true}
	for _, p := range paths {
		rows.items = append(rows.items, manifestRow([]byte(p), files[p]))
	}
	return rec("manifest", rows)
}

// inventory returns the closed path inventory as the spec text lists it
// (section 5).
func inventory() ([]string, error) {
	spec, err := specBytes()
	if err != nil {
		return nil, err
	}
	_, after, ok := strings.Cut(string(spec), "The closed path inventory is:\n```text\n")
	block, _, ok2 := strings.Cut(after, "```")
	if !ok || !ok2 {
		return nil, errors.New("the spec text has no closed path inventory")
	}
	return strings.Fields(block), nil
}

// vectorFile reads a committed vector by its inventory path
// ("positive/read-cell-cap-v1.bin" is vectors/positive/hiverelay/read-cell-cap-v1.bin).
func vectorFile(p string) ([]byte, error) {
	kind, name, ok := strings.Cut(p, "/")
	if !ok {
		return nil, fmt.Errorf("%q is not an inventory path", p)
	}
	return readTree(filepath.Join(vectorRoot(), kind, "hiverelay", name), "vectors/"+kind+"/hiverelay/"+name)
}

// vectorFiles reads the committed vector set: the file of every inventory
// path (the suite may commit further vectors beside them; they are not part
// of the authority's set).
func vectorFiles() (map[string][]byte, error) {
	inv, err := inventory()
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	for _, p := range inv {
		b, err := vectorFile(p)
		if err != nil {
			return nil, err
		}
		files[p] = b
	}
	return files, nil
}

// domainHash is BLAKE2b-256(ASCII(domain) || U64BE(len(b)) || b), the
// formula of both authority hashes (sections 4 and 5).
func domainHash(domain string, b []byte) string {
	h, _ := blake2b.New256(nil)
	h.Write([]byte(domain))
	h.Write(binary.BigEndian.AppendUint64(nil, uint64(len(b))))
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))
}

// metadata writes the metadata artifact of docs/hiverelay.md: one line of
// canonical JSON (keys sorted, no whitespace) and a final LF.
func metadata(artifact, manifest []byte, rows int) []byte {
	return fmt.Appendf(nil, `{"authority":"%s","clientCompositionFormatHash":"%s","clientCompositionVectorSetHash":"%s",`+
		`"formatArtifact":"%s","formatArtifactLength":%d,"vectorManifest":"%s","vectorManifestEntries":%d,"vectorManifestLength":%d}`+"\n",
		authorityName, domainHash(formatHashDomain, artifact), domainHash(vectorSetHashDomain, manifest),
		formatArtifactFile, len(artifact), vectorManifestFile, rows, len(manifest))
}
