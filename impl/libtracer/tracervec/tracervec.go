// Package tracervec generates the libtracer vector suite: the worked frame
// examples and frame-size rows of libtracer-01 as known answers, every
// option combination, timestamps, unknown types, nesting and truncation,
// negatives for every rejecting rule, libtracer.encode vectors, and
// systematic mutations of every positive (docs/VECTORS.md).
//
// Expectations come from the generator's own code: the bytes and frame
// lists from its wire writer (wire.go) and, checked against them, from its
// own receiver (model.go); neither shares code with impl/libtracer, which
// the engine then checks against every vector.
package tracervec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"

	"github.com/threespec/conformance/impl/libtracer/tracermodel"
	"github.com/threespec/conformance/impl/libtracer/tracerspec"
	"github.com/threespec/conformance/internal/vecgen"
	"github.com/threespec/conformance/vectorset"
)

// Generator is the libtracer suite's generator.
var Generator = vecgen.Generator{Spec: tracerspec.Spec, Generate: generate, Readings: readingUses}

func generate(opt vecgen.Options) ([]vecgen.Vector, error) {
	s := &set{large: opt.Large, seen: map[string]string{}}
	for _, part := range []func(*set){
		workedExamples,
		sizeTable,
		optionCombos,
		timestamps,
		unknownTypes,
		nesting,
		streamsAndReports,
		ropes,
		lifecycle,
		limits,
		negatives,
		truncations,
		encodeVectors,
	} {
		part(s)
		if s.err != nil {
			return nil, s.err
		}
	}
	s.mutations()
	if s.err != nil {
		return nil, s.err
	}
	return s.vecs, nil
}

// set collects the suite's vectors and the decode positives that the
// mutation families start from.
type set struct {
	large     bool
	vecs      []vecgen.Vector
	seen      map[string]string // request key -> vector name
	positives []positive
	err       error
}

// positive is a decode positive, the start of a mutation family.
type positive struct {
	name   string
	in     []byte
	args   decodeArgs
	frames []flat
	core   bool // a known answer: its full family goes into the default set
}

// input is a vector's bytes, given as a recipe when they are too large to
// commit (docs/VECTORS.md "Recipes").
type input struct {
	b      []byte
	recipe *vectorset.Recipe
	commit bool // write the file whatever its size
}

// maxFile is the largest input committed as a file; larger inputs become
// recipes, except the worked example of 102410 bytes (commit).
const maxFile = 32 << 10

func (s *set) failf(format string, args ...any) {
	if s.err == nil {
		s.err = fmt.Errorf(format, args...)
	}
}

// key identifies a request, so that no two vectors ask the same question.
func key(op string, args []byte, in []byte) string {
	return op + "\x00" + string(args) + "\x00" + vectorset.Hash(in)
}

// meta is what every vector states beside its request.
type meta struct {
	rules   []string
	tags    []string
	comment string
	derived string
	// unmutated keeps a positive out of the mutation families: its verdict
	// rests on a SHOULD default (the receiver's MAX_TLV_BYTES), so its
	// mutations' codes would too.
	unmutated bool
}

// add records one vector. ext is the file extension; result is nil for a
// rejection.
func (s *set) add(name, ext, op string, args any, in input, expect, code string, result any, m meta) bool {
	ab, err := json.Marshal(args)
	if err != nil {
		s.failf("%s: args: %v", name, err)
		return false
	}
	k := key(op, ab, in.b)
	if other, dup := s.seen[k]; dup {
		if m.derived == "" {
			s.failf("%s asks what %s asks", name, other)
		}
		return false
	}
	s.seen[k] = name
	pol := map[string]string{vectorset.Accept: "positive", vectorset.Reject: "negative"}[expect]
	v := vecgen.Vector{}
	v.ID = "libtracer/" + pol + "/" + name
	v.Op, v.Args, v.Expect, v.Code = op, ab, expect, code
	v.Rules, v.Tags, v.Comment, v.DerivedFrom = m.rules, m.tags, m.comment, m.derived
	if da, ok := args.(decodeArgs); ok && expect == vectorset.Reject {
		// Every code another check order the spec allows gives first
		// (tracermodel, docs/VECTORS.md "Check order").
		var also []string
		v.AcceptableCodes, also = acceptableCodes(in.b, da, code)
		for _, r := range also {
			if !slices.Contains(v.Rules, r) {
				v.Rules = append(slices.Clip(v.Rules), r)
			}
		}
	}
	if v.DerivedFrom != "" {
		v.DerivedFrom = "libtracer/positive/" + v.DerivedFrom
	}
	if result != nil {
		if v.Result, err = json.Marshal(result); err != nil {
			s.failf("%s: result: %v", name, err)
			return false
		}
	}
	switch {
	case in.recipe != nil:
		// The expectation is the model's reading of in.b: the recipe must
		// build exactly those bytes.
		b, err := in.recipe.Expand(func(p string) ([]byte, error) { return nil, fmt.Errorf("no file parts here (%s)", p) })
		if err != nil || !bytes.Equal(b, in.b) {
			s.failf("%s: the recipe does not build the vector's bytes (%v)", name, err)
			return false
		}
		v.Recipe = in.recipe
		v.Tags = append(v.Tags, "recipe")
	case len(in.b) > maxFile && !in.commit:
		v.Recipe = compress(in.b)
		if b, err := v.Recipe.Expand(nil); err != nil || !bytes.Equal(b, in.b) {
			s.failf("%s: the compressed recipe does not build the vector's bytes (%v)", name, err)
			return false
		}
		v.Tags = append(v.Tags, "recipe")
	default:
		v.File, v.Data = pol+"/"+name+ext, in.b
		if v.Data == nil {
			v.Data = []byte{}
		}
	}
	sort.Strings(v.Tags)
	s.vecs = append(s.vecs, v)
	return true
}

// accept adds a libtracer.decode positive whose frame list is what the
// generator built; the model must read the same list from the bytes.
func (s *set) accept(name string, in input, a decodeArgs, built []flat, m meta) {
	got := decodeModel(in.b, a)
	if got.err != nil {
		s.failf("%s: the model rejects what the generator built: %v", name, got.err)
		return
	}
	if !sameFrames(got.frames, built) {
		s.failf("%s: the model reads other frames than the generator built:\nmodel %s\nbuilt %s", name, framesText(got.frames), framesText(built))
		return
	}
	res := framesResult(built)
	lifecycleResult(res, in.b, built, a)
	if s.add(name, ".bin", tracerspec.OpDecode, a, in, vectorset.Accept, "", res, m) && m.derived == "" && !m.unmutated {
		s.positives = append(s.positives, positive{name: name, in: in.b, args: a, frames: built, core: hasTag(m.tags, "known-answer") && a.Transport == transportDgram})
	}
}

// acceptModel adds a positive whose frame list is the model's (report mode
// "frames", where rejected frames are listed, and accepted mutations).
func (s *set) acceptModel(name string, in input, a decodeArgs, m meta) {
	got := decodeModel(in.b, a)
	if got.err != nil {
		s.failf("%s: the model rejects it: %v", name, got.err)
		return
	}
	if s.add(name, ".bin", tracerspec.OpDecode, a, in, vectorset.Accept, "", framesResult(got.frames), m) && m.derived == "" {
		s.positives = append(s.positives, positive{name: name, in: in.b, args: a, frames: got.frames})
	}
}

// reject adds a libtracer.decode negative; the model must reject it by
// m.rules[0], whose code the vector expects.
func (s *set) reject(name string, in input, a decodeArgs, m meta) {
	got := decodeModel(in.b, a)
	if got.err == nil || got.err.rule != m.rules[0] {
		s.failf("%s: meant to be rejected by %s, the model says %v", name, m.rules[0], got.err)
		return
	}
	if !vecgen.CommentNamesRule(m.comment, m.rules[0]) {
		m.comment += ": " + got.err.why + ": " + got.err.code + ", " + m.rules[0]
	}
	s.add(name, ".bin", tracerspec.OpDecode, a, in, vectorset.Reject, got.err.code, nil, m)
}

func framesResult(list []flat) map[string]any {
	return map[string]any{"frames": jsonFrames(list, true)}
}

func sameFrames(a, b []flat) bool {
	x, _ := json.Marshal(jsonFrames(a, false))
	y, _ := json.Marshal(jsonFrames(b, false))
	return bytes.Equal(x, y)
}

func framesText(list []flat) string {
	b, _ := json.Marshal(jsonFrames(list, false))
	if len(b) > 2000 {
		b = append(b[:2000], "..."...)
	}
	return string(b)
}

func hasTag(tags []string, t string) bool {
	for _, x := range tags {
		if x == t {
			return true
		}
	}
	return false
}

// Argument shorthands.
var (
	dgram  = decodeArgs{Args: tracermodel.Args{Transport: transportDgram}}
	stream = decodeArgs{Args: tracermodel.Args{Transport: transportStream}}
)

func i64(v int64) *int64 { return &v }

func (a decodeArgs) budgetOf(n int64) decodeArgs { a.WorkBudget = i64(n); return a }
func (a decodeArgs) maxOf(n int64) decodeArgs    { a.MaxTLVBytes = i64(n); return a }
func (a decodeArgs) frames() decodeArgs          { a.Report = "frames"; return a }

func in(b []byte) input { return input{b: b} }

func rulesOf(ids ...string) []string { return ids }

func tags(t ...string) []string { return t }

// cat concatenates byte slices.
func cat(parts ...[]byte) []byte {
	var b []byte
	for _, p := range parts {
		b = append(b, p...)
	}
	return b
}

// with returns a copy of b with the bytes at off replaced.
func with(b []byte, off int, v ...byte) []byte {
	c := append([]byte(nil), b...)
	copy(c[off:], v)
	return c
}

// xorAt returns a copy of b with b[off] ^= x.
func xorAt(b []byte, off int, x byte) []byte {
	c := append([]byte(nil), b...)
	c[off] ^= x
	return c
}
