package hiverelay

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"golang.org/x/crypto/blake2b"

	"github.com/threespec/conformance/steps"
)

// The HiveRelay authority's files as the steps build them: the spec bytes,
// the schema catalog (docs/hiverelay.md, "The schema catalog", byte by byte),
// the format artifact (section 4), the vector manifest (section 5), the
// metadata artifact (docs/hiverelay.md), and the committed vector files.

// Where the steps find the spec and the committed files, relative to the
// repository root (steps.RepoRoot): the spec is the project's copy in specs/, read
// as a file (not through impl/) so that the steps build the authority from
// their own reading of the tree.
func hrSpecPath() string {
	return steps.FromRoot("specs/hiverelay-blind-client-composition-v1.spec.md")
}

func hrDeclarationDir() string { return steps.FromRoot("impl/hiverelay/data/declarations") }
func hrVectorRoot() string     { return steps.FromRoot("vectors") }
func hrPublishedRoot() string  { return steps.FromRoot("manifest/hiverelay") }

// Known answers of the spec and of docs/hiverelay.md.
const (
	hrSpecSHA256            = "c8b2941c96eaf3704ca1671973cf7436b832c659dac41f14811a0fc926af7c43"
	hrFormatHashDomain      = "hiverelay.blind.client-composition-format-hash.v1"
	hrVectorSetHashDomain   = "hiverelay.blind.client-composition-vector-set-hash.v1"
	hrAuthorityName         = "hiverelay-blind-client-composition-v1"
	hrFormatArtifactFile    = "hiverelay-blind-client-composition-format-v1.cenc"
	hrVectorManifestFile    = "hiverelay-blind-client-composition-vector-manifest-v1.bin"
	hrCategoryClientExample = 3
)

// hrDependencies are the composition dependencies of each schema
// (docs/hiverelay.md, the table of catalog entries).
var hrDependencies = map[string][]string{
	"OpaqueChainCheckpointV1": {"ReadCellCapV1"},
	"OpaqueChainFrameV1":      {"OpaqueChainCheckpointV1", "ReadCellCapV1"},
	"WriteCellCapV1":          {"ReadCellCapV1"},
}

var hrFiles struct {
	once  sync.Once
	spec  []byte
	decls map[string][]byte
	err   error
}

func hrLoad() error {
	hrFiles.once.Do(func() {
		p := hrSpecPath()
		b, err := os.ReadFile(p)
		if err != nil {
			hrFiles.err = fmt.Errorf("the HiveRelay spec: %w", err)
			return
		}
		if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != hrSpecSHA256 {
			hrFiles.err = fmt.Errorf("%s: SHA-256 %x, want %s", p, sum, hrSpecSHA256)
			return
		}
		hrFiles.spec = b
		hrFiles.decls = map[string][]byte{}
		for _, name := range hrSchemas {
			b, err := os.ReadFile(filepath.Join(hrDeclarationDir(), name+".decl"))
			if err != nil {
				hrFiles.err = err
				return
			}
			hrFiles.decls[name] = bytes.TrimSuffix(b, []byte("\n"))
		}
	})
	return hrFiles.err
}

// hrSpec returns the exact spec bytes the format artifact embeds.
func hrSpec() ([]byte, error) {
	if err := hrLoad(); err != nil {
		return nil, err
	}
	return bytes.Clone(hrFiles.spec), nil
}

// hrDeclaration returns the canonical declaration text of a schema.
func hrDeclaration(name string) ([]byte, error) {
	if err := hrLoad(); err != nil {
		return nil, err
	}
	d, ok := hrFiles.decls[name]
	if !ok {
		return nil, fmt.Errorf("no declaration of %q", name)
	}
	return bytes.Clone(d), nil
}

// hrCatalog returns the reference schema catalog as a tree: a compact-uint
// entry count, then per entry category u8, localId u8, name, declaration and
// the dependency names, each string a bounded byte string.
func hrCatalog() (*hrNode, error) {
	entries := hrArr("entries", nil, nil)
	for i, name := range hrSchemas {
		decl, err := hrDeclaration(name)
		if err != nil {
			return nil, err
		}
		deps := hrArr("dependencies", nil, nil)
		for _, d := range hrDependencies[name] {
			deps.items = append(deps.items, hrBound("", []byte(d)))
		}
		entries.items = append(entries.items, hrRec("",
			hrUint("category", hrU8, hrCategoryClientExample),
			hrUint("localId", hrU8, uint64(i+1)),
			hrBound("name", []byte(name)),
			hrBound("declaration", decl),
			deps,
		))
	}
	return hrRec("schemaCatalog", entries), nil
}

// hrArtifact returns the format artifact of section 4 around a catalog.
func hrArtifact(catalog *hrNode) (*hrNode, error) {
	spec, err := hrSpec()
	if err != nil {
		return nil, err
	}
	catalog = catalog.clone()
	catalog.name = "schemaCatalogBytes"
	return hrRec("formatArtifact",
		hrBytes("magic", []byte("HRBCCF01")),
		hrUint("authorityVersion", hrU16, 1),
		hrUint("formatMajor", hrU16, 1),
		hrUint("formatMinor", hrU16, 0),
		&hrNode{name: "specLength", kind: hrU64, lengthOf: "specBytes"},
		&hrNode{name: "schemaCatalogLength", kind: hrU64, lengthOf: "schemaCatalogBytes"},
		hrVar("specBytes", spec),
		catalog,
	), nil
}

// hrReferenceArtifact returns the authority's format artifact.
func hrReferenceArtifact() (*hrNode, error) {
	c, err := hrCatalog()
	if err != nil {
		return nil, err
	}
	return hrArtifact(c)
}

// hrManifestRow describes vector bytes data at path p.
func hrManifestRow(p []byte, data []byte) *hrNode {
	h := blake2b.Sum256(data)
	return hrRec("",
		&hrNode{name: "pathLength", kind: hrU16, lengthOf: "path"},
		hrVar("path", p),
		hrUint("length", hrU64, uint64(len(data))),
		hrBytes("hash", h[:]),
	)
}

// hrManifest returns the vector manifest of section 5 for files, its rows
// sorted by raw path bytes.
func hrManifest(files map[string][]byte) *hrNode {
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	rows := &hrNode{name: "rows", kind: hrArray, u32Count: true}
	for _, p := range paths {
		rows.items = append(rows.items, hrManifestRow([]byte(p), files[p]))
	}
	return hrRec("manifest", rows)
}

// hrInventory returns the closed path inventory as the spec text lists it
// (section 5).
func hrInventory() ([]string, error) {
	spec, err := hrSpec()
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

// hrVectorFile reads a committed vector by its inventory path
// ("positive/read-cell-cap-v1.bin" is vectors/positive/hiverelay/read-cell-cap-v1.bin).
func hrVectorFile(p string) ([]byte, error) {
	kind, name, ok := strings.Cut(p, "/")
	if !ok {
		return nil, fmt.Errorf("%q is not an inventory path", p)
	}
	return os.ReadFile(filepath.Join(hrVectorRoot(), kind, "hiverelay", name))
}

// hrVectorFiles reads the committed vector set: the file of every inventory
// path (the suite may commit further vectors beside them; they are not part
// of the authority's set).
func hrVectorFiles() (map[string][]byte, error) {
	inv, err := hrInventory()
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	for _, p := range inv {
		b, err := hrVectorFile(p)
		if err != nil {
			return nil, err
		}
		files[p] = b
	}
	return files, nil
}

// hrDomainHash is BLAKE2b-256(ASCII(domain) || U64BE(len(b)) || b), the
// formula of both authority hashes (sections 4 and 5).
func hrDomainHash(domain string, b []byte) string {
	h, _ := blake2b.New256(nil)
	h.Write([]byte(domain))
	h.Write(binary.BigEndian.AppendUint64(nil, uint64(len(b))))
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))
}

// hrMetadata writes the metadata artifact of docs/hiverelay.md: one line of
// canonical JSON (keys sorted, no whitespace) and a final LF.
func hrMetadata(artifact, manifest []byte, rows int) []byte {
	return fmt.Appendf(nil, `{"authority":"%s","clientCompositionFormatHash":"%s","clientCompositionVectorSetHash":"%s",`+
		`"formatArtifact":"%s","formatArtifactLength":%d,"vectorManifest":"%s","vectorManifestEntries":%d,"vectorManifestLength":%d}`+"\n",
		hrAuthorityName, hrDomainHash(hrFormatHashDomain, artifact), hrDomainHash(hrVectorSetHashDomain, manifest),
		hrFormatArtifactFile, len(artifact), hrVectorManifestFile, rows, len(manifest))
}
