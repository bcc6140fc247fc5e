// Package hivevec generates the HiveRelay vector suite: the 18 files of the
// specification's closed inventory (HiveRelay BCC v1, section 5), the
// project's further conformance vectors beside them (boundaries, one
// negative per rejecting rule, format-artifact and manifest vectors, and
// systematic mutations of every positive), and the authority files (format
// artifact, schema catalog, vector manifest, metadata).
//
// Expected results are computed here, independently of impl/hiverelay: the
// records are written by this package's own encoder (writer.go), a positive's
// expected re-encoding is its own input, and both authority hashes are
// computed from the spec's formulas. The engine then checks every vector
// against the reference.
package hivevec

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/threespec/conformance/impl/hiverelay"
	"github.com/threespec/conformance/impl/hiverelay/hivespec"
	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/internal/vecgen"
	"github.com/threespec/conformance/vectorset"
)

// Generator is the HiveRelay suite's generator.
var Generator = vecgen.Generator{Spec: hivespec.Spec, Generate: generate, Extra: extra, Readings: readingUses}

// Code is the one code section 2 gives every failure.
const Code = "BAD_ENCODING"

// Tags of the index.
const (
	tagInventory = "authority-inventory"
	tagBoundary  = "boundary"
	tagMutation  = "mutation"
	tagKnown     = "known-answer"
	tagRecipe    = "recipe"
	tagDecision  = "decision"
)

// input is a vector's input: bytes committed as a file, or a recipe (the
// bytes are then its expansion, computed here).
type input struct {
	b      []byte
	recipe *vectorset.Recipe
}

func file(b []byte) input { return input{b: b} }

// gen collects the suite's vectors.
type gen struct {
	opt     vecgen.Options
	vecs    []vecgen.Vector
	seen    map[string]string // op, args and input digest -> vector ID
	files   map[string][]byte // suite-tree files, for recipe parts
	parents map[rules.ID][]rules.ID
	// reading holds the rules that are the project's reading of a silent
	// spec (their catalog text says "project"): their vectors are tagged
	// decision.
	reading map[rules.ID]bool
	// Systematic mutations left out: accepted by the reference, or equal
	// to a vector generated before.
	droppedAccepted, droppedDuplicate int
}

func newGen(opt vecgen.Options) *gen {
	g := &gen{opt: opt, seen: map[string]string{}, files: map[string][]byte{}, parents: map[rules.ID][]rules.ID{}, reading: map[rules.ID]bool{}}
	for _, r := range hiverelay.Catalog() {
		g.reading[r.ID] = strings.Contains(r.Text, "project")
		if r.Check == rules.General {
			for _, s := range hiverelay.RealizedBy(r.ID) {
				g.parents[s] = append(g.parents[s], r.ID)
			}
		}
	}
	for _, v := range hiverelay.Vectors() {
		if v.Kind == hiverelay.Registry {
			g.files[v.Path] = v.Bytes
		}
	}
	return g
}

func generate(opt vecgen.Options) ([]vecgen.Vector, error) {
	g := newGen(opt)
	steps := []func() error{g.inventory, g.records, g.blobs, g.formats, g.manifests, g.authority, g.mutations}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, err
		}
	}
	return g.vecs, nil
}

// Operations and their arguments.

func decodeArgs(schema string, class int) json.RawMessage {
	b, _ := json.Marshal(hivespec.DecodeArgs{Schema: schema, Class: class})
	return b
}

// request says which operation a vector runs, with which arguments, and the
// extension of its file.
type request struct {
	op   string
	args json.RawMessage
	ext  string
}

func decoder(schema string) request {
	return request{hivespec.OpDecode, decodeArgs(schema, 0), ".bin"}
}

func blobDecoder(class int) request {
	return request{hivespec.OpDecode, decodeArgs(hiverelay.SchemaCellBlobV1, class), ".bin"}
}

var (
	formatOp   = request{hivespec.OpFormat, json.RawMessage("{}"), ".cenc"}
	manifestOp = request{hivespec.OpManifest, json.RawMessage("{}"), ".bin"}
)

// meta is what an index entry says about a vector besides its input.
type meta struct {
	rules   []rules.ID
	tags    []string
	comment string
	derived string // name of the positive a mutation comes from
}

// add appends a vector. result is the expected result of an accepted
// vector (nil for a rejected one). It returns false, adding nothing, when a
// vector with the same operation, arguments and input exists already.
func (g *gen) add(polarity, name string, s request, in input, result map[string]any, m meta) bool {
	key := s.op + string(s.args) + vectorset.Hash(in.b)
	if _, dup := g.seen[key]; dup {
		return false
	}
	v := vecgen.Vector{}
	v.ID = "hiverelay/" + polarity + "/" + name
	g.seen[key] = v.ID
	v.Op, v.Args, v.Comment = s.op, s.args, m.comment
	v.Tags = append([]string(nil), m.tags...)
	if in.recipe != nil {
		v.Recipe = in.recipe
		v.Tags = append(v.Tags, tagRecipe)
	} else {
		v.Data = in.b
		v.File = polarity + "/" + name + s.ext
		g.files[v.File] = in.b
	}
	if m.derived != "" {
		v.DerivedFrom = "hiverelay/positive/" + m.derived
	}
	ids := append([]rules.ID(nil), m.rules...)
	if polarity == "negative" {
		v.Expect, v.Code = vectorset.Reject, hiverelay.SpecCode(m.rules[0])
		v.Comment = vecgen.ReportedUnder(hivespec.Spec.Rule, v.Comment, string(m.rules[0]))
		// The rule that rejects first, then the general rules it realizes.
		ids = append(ids, g.parents[m.rules[0]]...)
		if g.reading[m.rules[0]] && !slices.Contains(v.Tags, tagDecision) {
			v.Tags = append(v.Tags, tagDecision)
		}
	} else {
		v.Expect = vectorset.Accept
		b, err := json.Marshal(result)
		if err != nil {
			panic(err)
		}
		v.Result = b
	}
	seen := map[rules.ID]bool{}
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			v.Rules = append(v.Rules, string(id))
		}
	}
	sort.Strings(v.Tags)
	g.vecs = append(g.vecs, v)
	return true
}

// accept adds a positive decode vector: its expected re-encoding is its
// input. A positive that duplicates an earlier vector is a generator bug.
func (g *gen) accept(name string, s request, in input, m meta) {
	if !g.add("positive", name, s, in, map[string]any{"reencoded": vectorset.BytesMatcher(in.b)}, m) {
		panic("hivevec: positive " + name + " duplicates another vector")
	}
}

// reject adds a negative vector that rule rejects first.
func (g *gen) reject(name string, s request, in input, rule rules.ID, tags []string, comment string) {
	g.rejectm(name, s, in, meta{rules: []rules.ID{rule}, tags: tags, comment: comment})
}

// rejectm adds a negative vector that m.rules[0] rejects first. A targeted
// negative that duplicates an earlier vector is a generator bug.
func (g *gen) rejectm(name string, s request, in input, m meta) {
	if !g.add("negative", name, s, in, nil, m) {
		panic("hivevec: negative " + name + " duplicates another vector")
	}
}

// recipe builds a recipe input from parts, expanding it with the suite-tree
// files generated so far.
func (g *gen) recipe(parts ...vectorset.Part) input {
	r := &vectorset.Recipe{Parts: parts}
	b, err := r.Expand(func(p string) ([]byte, error) {
		if b, ok := g.files[p]; ok {
			return b, nil
		}
		return nil, fmt.Errorf("no suite-tree file %s", p)
	})
	if err != nil {
		panic("hivevec: " + err.Error())
	}
	return input{b: b, recipe: r}
}

func hexPart(b []byte) vectorset.Part  { return vectorset.Part{Hex: hex.EncodeToString(b)} }
func filePart(p string) vectorset.Part { return vectorset.Part{File: p} }
func repeatPart(c byte, n int) vectorset.Part {
	return vectorset.Part{Repeat: &vectorset.Repeat{Hex: hex.EncodeToString([]byte{c}), Count: int64(n)}}
}

// The closed inventory.

// inventory adds the 17 decode vectors of the closed inventory under their
// own tree paths (the registry file is an Extra).
func (g *gen) inventory() error {
	for _, v := range hiverelay.Vectors() {
		if v.Kind == hiverelay.Registry {
			continue
		}
		_, fname, _ := strings.Cut(v.Path, "/")
		name := strings.TrimSuffix(fname, path.Ext(fname))
		s := decoder(v.Schema)
		if v.Schema == hiverelay.SchemaCellBlobV1 {
			s = blobDecoder(int(v.Class))
		}
		if v.Kind == hiverelay.Positive {
			g.accept(name, s, file(v.Bytes), meta{rules: []rules.ID{v.Rule}, tags: []string{tagInventory, tagKnown}, comment: v.Comment})
		} else {
			g.reject(name, s, file(v.Bytes), v.Rule, []string{tagInventory}, v.Comment)
		}
	}
	return nil
}

// extra returns the registry vector (a tree file, not a decode vector) and
// the four authority files published in manifest/hiverelay/.
func extra() (tree, manifestFiles map[string][]byte, err error) {
	tree = map[string][]byte{}
	for _, v := range hiverelay.Vectors() {
		if v.Kind == hiverelay.Registry {
			tree[v.Path] = v.Bytes
		}
	}
	if len(tree) != 1 {
		return nil, nil, fmt.Errorf("the inventory has %d registry files, want 1", len(tree))
	}
	return tree, hiverelay.AuthorityFiles(), nil
}

// kebab turns a field path such as "snapshotReadCaps[1].relayPublicKey"
// into a file-name part, "snapshot-read-caps-1-relay-public-key".
func kebab(p string) string {
	var b strings.Builder
	dash := func() {
		if b.Len() > 0 && !strings.HasSuffix(b.String(), "-") {
			b.WriteByte('-')
		}
	}
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c >= 'A' && c <= 'Z':
			dash()
			b.WriteByte(c + 'a' - 'A')
		case c == '.' || c == '[':
			dash()
		case c == ']':
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
