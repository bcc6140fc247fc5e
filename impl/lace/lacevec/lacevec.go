// Package lacevec generates the Lace-010 vector suite (docs/VECTORS.md):
// the canonical vector as known answers, every boundary and rejection
// example of the specification, a negative for every rule a byte input can
// break, record streams, constructor specifications, chunk sequences and
// directories, the size maxima as recipes, the project's decisions, and a
// bounded family of systematic mutations of every positive record.
//
// Expected results (hash texts, constructed record bytes, assembled file
// lengths and digests, directory listings) are computed here from the bytes
// the generator writes, never copied from the reference; the engine then
// checks the reference against them (internal/vecgen).
package lacevec

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/threespec/conformance/impl/lace/lacespec"
	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/internal/vecgen"
	"github.com/threespec/conformance/vectorset"
)

// Generator is the Lace suite's generator.
var Generator = vecgen.Generator{Spec: lacespec.Spec, Generate: generate, Readings: readingUses}

// Mark modes of a vector (the "mark" argument, docs/PROTOCOL.md).
const (
	markNone    = ""               // {"mark":"none"}: By and Mark text only
	markStandin = "bip340-standin" // verifies under the stand-in: profile lace-mark-bip340-standin
	mark009     = "009"            // verifies under the real 009: profile lace-009
)

// vec is one vector as the generators describe it.
type vec struct {
	name   string // file name without extension; the ID's last part
	op     string
	mark   string // markNone, markStandin or mark009 (record, stream, chunks, directory); markStandin for a construct vector that makes a Mark
	bounds string // extra argument members for chunks and directory, e.g. `"max_depth":1`
	in     []byte
	recipe *vectorset.Recipe
	ok     bool
	result map[string]any // for ok: the expected result fields
	rules  []rules.ID     // for a rejection, the first is the rule the reference reports
	tags   []string
	// profiles beyond the one the mark mode needs (lace.construct Seals).
	profiles []string
	comment  string
	from     string // derived_from: the ID of the positive a mutation comes from

	// rec is the model of a positive lace.record vector, for mutations.
	rec *record
}

// gen collects the vectors of one generation.
type gen struct {
	opt  vecgen.Options
	vecs []vec
}

func generate(opt vecgen.Options) ([]vecgen.Vector, error) {
	g := families(opt)
	if err := g.mutations(); err != nil {
		return nil, err
	}
	out := make([]vecgen.Vector, 0, len(g.vecs))
	for _, v := range g.vecs {
		gv, err := v.vector()
		if err != nil {
			return nil, err
		}
		out = append(out, gv)
	}
	return out, nil
}

// families makes every vector but the mutations.
func families(opt vecgen.Options) *gen {
	g := &gen{opt: opt}
	for _, f := range []func(*gen){
		seedVectors, exampleVectors, fieldVectors, glyphVectors, blobVectors,
		plexVectors, sealVectors, linkVectors, sizeVectors, streamVectors,
		constructVectors, chunkVectors, directoryVectors, genericVectors,
	} {
		f(g)
	}
	return g
}

func (g *gen) add(v vec) { g.vecs = append(g.vecs, v) }

// ext is the file extension of a vector of op (docs/VECTORS.md).
func ext(op string) string {
	switch op {
	case lacespec.OpRecord:
		return ".lr"
	case lacespec.OpConstruct:
		return ".json"
	}
	return ".lrs"
}

// args is the vector's argument object.
func (v vec) args() string {
	if v.op == lacespec.OpConstruct {
		// A constructor reads no record: mark names only the scheme a Seal's
		// Mark is made under, given where the vector makes one.
		if v.mark == markStandin {
			return `{"mark":"` + markStandin + `"}`
		}
		return "{}"
	}
	m := v.mark
	if m == markNone {
		m = "none"
	}
	s := `{"mark":"` + m + `"`
	if v.bounds != "" {
		s += "," + v.bounds
	}
	return s + "}"
}

func (v vec) polarity() string {
	if v.ok {
		return "positive"
	}
	return "negative"
}

func (v vec) id() string { return "lace/" + v.polarity() + "/" + v.name }

// vector turns v into the engine's vector.
func (v vec) vector() (vecgen.Vector, error) {
	var g vecgen.Vector
	g.ID = v.id()
	g.Op = v.op
	g.Args = json.RawMessage(v.args())
	g.Comment = v.comment
	g.DerivedFrom = v.from
	g.Tags = slices.Clone(v.tags)
	switch v.mark {
	case markStandin:
		g.Profiles = append(g.Profiles, lacespec.ProfileMarkBIP340Standin)
	case mark009:
		g.Profiles = append(g.Profiles, lacespec.Profile009)
	}
	for _, p := range v.profiles {
		if !slices.Contains(g.Profiles, p) {
			g.Profiles = append(g.Profiles, p)
		}
	}
	for _, r := range v.rules {
		g.Rules = append(g.Rules, string(r))
	}
	if v.recipe != nil {
		g.Recipe = v.recipe
		if !slices.Contains(g.Tags, "recipe") {
			g.Tags = append(g.Tags, "recipe")
		}
	} else {
		g.File = v.polarity() + "/" + v.name + ext(v.op)
		g.Data = v.in
		if g.Data == nil {
			g.Data = []byte{}
		}
	}
	if v.ok {
		g.Expect = vectorset.Accept
		res, err := json.Marshal(v.result)
		if err != nil {
			return g, fmt.Errorf("%s: result: %w", g.ID, err)
		}
		g.Result = res
	} else {
		g.Expect = vectorset.Reject
		g.Comment = vecgen.ReportedUnder(lacespec.Spec.Rule, g.Comment, g.Rules[0])
	}
	return g, nil
}

// ids turns rule IDs into the list a vec carries.
func ids(r ...rules.ID) []rules.ID { return r }

func tags(t ...string) []string { return t }

// Results the generator computes itself (docs/PROTOCOL.md, "Operations").

func recordResult(r record) map[string]any {
	return map[string]any{"form": formName(r.form), "hash": r.hash()}
}

func streamResult(hashes ...string) map[string]any {
	if hashes == nil {
		hashes = []string{}
	}
	return map[string]any{"hashes": hashes}
}

// Record vectors.

// accept adds a positive lace.record vector for r.
func (g *gen) accept(name string, r record, rs []rules.ID, t []string, comment string) {
	rc := r.clone()
	g.add(vec{name: name, op: lacespec.OpRecord, in: r.bytes(), ok: true, result: recordResult(r),
		rules: rs, tags: t, comment: comment, rec: &rc})
}

// acceptMark is accept under a mark mode.
func (g *gen) acceptMark(name, mode string, r record, rs []rules.ID, t []string, comment string) {
	g.accept(name, r, rs, t, comment)
	g.vecs[len(g.vecs)-1].mark = mode
}

// reject adds a negative lace.record vector.
func (g *gen) reject(name string, in []byte, rs []rules.ID, t []string, comment string) {
	g.add(vec{name: name, op: lacespec.OpRecord, in: in, rules: rs, tags: t, comment: comment})
}

// rejectMark is reject under a mark mode.
func (g *gen) rejectMark(name, mode string, in []byte, rs []rules.ID, t []string, comment string) {
	g.reject(name, in, rs, t, comment)
	g.vecs[len(g.vecs)-1].mark = mode
}
