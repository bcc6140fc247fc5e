// Package tracerfuzz is the libtracer v1 wing's fuzz generation (conform
// fuzz, issue 27): frame trees drawn from the type registry (core,
// sentinel, reserved, unknown and user codes) with every option bit drawn
// (the reserved ones sometimes set), nested structured payloads, trailers
// whose absolute stamps are weighted to the u64 boundaries (2^53 +-1,
// 2^64-1) and relative ones to the i32 bounds, and CRCs of either width;
// written by the exact encoder (every length and CRC computed) and sent to
// libtracer.decode under drawn receiver options, half the time after the
// byte-level mutation operators of internal/fuzzgen at random places; and
// the same trees, as JSON, to libtracer.encode in both modes. An eighth
// of the decode inputs are nests as deep as their work-stack budget, one
// level less or one more; a quarter of the encode trees have a child
// stamped at an end of the i32 range from its parent, and an eighth a
// frame an encoder must refuse.
package tracerfuzz

import (
	"slices"
	"strconv"

	"github.com/threespec/conformance/impl/libtracer"
	"github.com/threespec/conformance/impl/libtracer/tracerspec"
	"github.com/threespec/conformance/internal/fuzzgen"
)

// Generator is the wing's fuzz generator.
var Generator = fuzzgen.Generator{
	Suite:    string(tracerspec.Spec.Name),
	Ops:      []string{tracerspec.OpDecode, tracerspec.OpEncode},
	Generate: generate,
	AcceptRule: map[string]string{
		tracerspec.OpDecode: string(libtracer.RuleFrameType),
		tracerspec.OpEncode: string(libtracer.RuleFrameType),
	},
}

func generate(r *fuzzgen.Rand, op string) fuzzgen.Case {
	frames := tree(r)
	if op == tracerspec.OpEncode {
		var ops []string
		switch r.IntN(8) {
		case 0, 1:
			rangeEnds(r, frames)
		case 2:
			ops = unwritable(r, frames)
		}
		c := encodeCase(r.Pick(tracerspec.ModeExact, tracerspec.ModeSmallest), frames)
		c.Operators = ops
		return c
	}
	args := decodeArgs(r)
	if r.Chance(1, 8) {
		return nestCase(r, args)
	}
	c := decodeCase(args, frames)
	if r.Chance(1, 2) {
		c.Input, c.Operators = r.MutateN(c.Input, 3, c.Operators)
		c.Smaller = nil
	}
	// Cut offsets, of a datagram only, within the input as sent.
	if n := len(c.Input); args["transport"] == tracerspec.TransportDatagram && r.Chance(1, 6) {
		views := []int64{int64(r.N(n + 1))}
		if r.Chance(1, 2) {
			views = append(views, int64(r.N(n+1)))
		}
		slices.Sort(views)
		args["views"] = views
		c.Args, c.Smaller = fuzzgen.Args(args), nil
	}
	return c
}

// typeCode draws a type code from every class of the registry.
func typeCode(r *fuzzgen.Rand) uint8 {
	switch r.IntN(10) {
	case 0:
		return 0x00 // INVALID
	case 1:
		return 0x05 // reserved
	case 2:
		return uint8(0x0e + r.IntN(0x72)) // unknown
	case 3, 4:
		return uint8(0x80 + r.IntN(0x80)) // user
	}
	return []uint8{libtracer.TypeValue, libtracer.TypeName, libtracer.TypePath, libtracer.TypeStatus, 0x03, 0x04, 0x07, 0x08, 0x0a, 0x0b, 0x0c, 0x0d}[r.IntN(12)]
}

// frame draws one frame at depth d.
func frame(r *fuzzgen.Rand, d int) libtracer.Frame {
	f := libtracer.Frame{Type: typeCode(r)}
	var o libtracer.Opt
	if d < 3 && r.Chance(1, 3) {
		o |= libtracer.OptPL
	}
	if r.Chance(1, 4) {
		o |= libtracer.OptTS
		if r.Chance(1, 2) {
			o |= libtracer.OptTF
		}
	}
	if r.Chance(1, 3) {
		o |= libtracer.OptCR
		if r.Chance(1, 2) {
			o |= libtracer.OptCW
		}
	}
	if r.Chance(1, 4) {
		o |= libtracer.OptLL
	}
	if r.Chance(1, 24) {
		o |= []libtracer.Opt{libtracer.OptReserved0, libtracer.OptReserved7}[r.IntN(2)]
	}
	if r.Chance(1, 16) {
		o |= []libtracer.Opt{libtracer.OptTF, libtracer.OptCW}[r.IntN(2)] // a form bit alone
	}
	f.Opt = o
	if o.Has(libtracer.OptPL) && libtracer.Known(f.Type) {
		f.Children = []libtracer.Frame{}
		for range r.Length(3) {
			f.Children = append(f.Children, frame(r, d+1))
		}
	} else {
		f.Payload = r.Bytes(r.Length(24))
		if r.Chance(1, 40) {
			f.Payload = r.Bytes(65535 + r.IntN(2))
		}
	}
	if o.Has(libtracer.OptTS) {
		ts := &libtracer.Timestamp{Relative: o.Has(libtracer.OptTF)}
		if ts.Relative {
			ts.Rel = int32(uint32(r.Uint(1<<32-1, 1<<31)))
		} else {
			ts.Abs = r.Uint(1<<64 - 1)
			ts.Resolved = ts.Abs
		}
		f.TS = ts
	}
	if o.Has(libtracer.OptCR) {
		f.CRC = &libtracer.Checksum{Width: 32}
		if o.Has(libtracer.OptCW) {
			f.CRC.Width = 16
		}
	}
	return f
}

// tree draws 1 to 3 top-level frames (rarely none).
func tree(r *fuzzgen.Rand) []libtracer.Frame {
	n := 1 + r.Length(2)
	if r.Chance(1, 20) {
		n = 0
	}
	out := make([]libtracer.Frame, n)
	for i := range out {
		out[i] = frame(r, 0)
	}
	return out
}

// wire writes the frames with the exact encoder; a tree it refuses (a
// relative stamp with no anchor, children under a PL=0 frame) loses its
// stamps, then is written frame by frame, each refused frame left out.
func wire(frames []libtracer.Frame) []byte {
	if b, err := libtracer.EncodeExact(frames); err == nil {
		return b
	}
	var out []byte
	for _, f := range frames {
		if b, err := libtracer.EncodeExact([]libtracer.Frame{f}); err == nil {
			out = append(out, b...)
			continue
		}
		g := f
		stripStamps(&g)
		if b, err := libtracer.EncodeExact([]libtracer.Frame{g}); err == nil {
			out = append(out, b...)
		}
	}
	return out
}

func stripStamps(f *libtracer.Frame) {
	f.TS = nil
	f.Opt &^= libtracer.OptTS | libtracer.OptTF
	for i := range f.Children {
		stripStamps(&f.Children[i])
	}
}

func describe(frames []libtracer.Frame) string {
	s := strconv.Itoa(len(frames)) + " top-level frames, types"
	for _, f := range frames {
		s += " 0x" + strconv.FormatUint(uint64(f.Type), 16) + "/opt 0x" + strconv.FormatUint(uint64(f.Opt), 16)
	}
	return s
}

// smaller are the trees with one top-level frame left out, or one frame's
// children replaced by none.
func smaller(frames []libtracer.Frame) [][]libtracer.Frame {
	var out [][]libtracer.Frame
	for i := range frames {
		out = append(out, slices.Delete(slices.Clone(frames), i, i+1))
		if len(frames[i].Children) > 0 {
			w := slices.Clone(frames)
			w[i].Children = []libtracer.Frame{}
			out = append(out, w)
		}
	}
	return out
}

// decodeArgs draws libtracer.decode's arguments: the transport, sometimes
// bounds around their limits, and either the per-frame report or the
// trailer lifecycle (stripping; forwarding with a fresh trailer whose
// stamp is weighted to the u64 boundaries, each CRC width)
// (docs/PROTOCOL.md).
func decodeArgs(r *fuzzgen.Rand) map[string]any {
	a := map[string]any{"transport": r.Pick(tracerspec.TransportDatagram, tracerspec.TransportStream)}
	if r.Chance(1, 8) {
		a["max_tlv_bytes"] = int64(r.Uint(1<<20, 0, 4, 6, 64))
	}
	if r.Chance(1, 8) {
		a["work_budget"] = int64(r.Uint(64, 0, 1, 2))
	}
	switch r.IntN(6) {
	case 0, 1:
		a["report"] = "frames"
	case 2:
		a["strip"] = true
	case 3:
		fw := map[string]any{"crc": []int{32, 16, 0}[r.IntN(3)]}
		if r.Chance(1, 2) {
			fw["ts"] = strconv.FormatUint(r.Uint(1<<64-1), 10)
		}
		a["forward"] = fw
		a["strip"] = r.Chance(1, 2)
	}
	return a
}

func decodeCase(args map[string]any, frames []libtracer.Frame) fuzzgen.Case {
	return fuzzgen.Case{
		Args:      fuzzgen.Args(args),
		Input:     wire(frames),
		Generator: "tracerfuzz/decode",
		Parent:    describe(frames),
		Smaller: func() []fuzzgen.Case {
			var out []fuzzgen.Case
			for _, s := range smaller(frames) {
				out = append(out, decodeCase(args, s))
			}
			return out
		},
	}
}

func encodeCase(mode string, frames []libtracer.Frame) fuzzgen.Case {
	return fuzzgen.Case{
		Args:      fuzzgen.Args(tracerspec.EncodeArgs{Mode: mode}),
		Input:     libtracer.AppendJSON(nil, frames),
		Generator: "tracerfuzz/encode",
		Parent:    describe(frames),
		Smaller: func() []fuzzgen.Case {
			var out []fuzzgen.Case
			for _, s := range smaller(frames) {
				out = append(out, encodeCase(mode, s))
			}
			return out
		},
	}
}

// nestCase is a nest of user records (PL=1, LL sometimes) around one leaf
// frame, as deep as the work-stack budget it is sent with, one level less
// or one more (LT-NEST-01..03: the budget is one node per open level, a
// receiver option); the budget is small, or 2,000 (deeper than a
// recursive parser would go on a small stack).
func nestCase(r *fuzzgen.Rand, args map[string]any) fuzzgen.Case {
	budget := 5 + r.IntN(8) // a budget below 5 is raised to 5 (LT-NEST-04)
	if r.Chance(1, 16) {
		budget = 2000
	}
	depth := max(budget+r.IntN(3)-1, 1)
	f := frame(r, 3)
	f.TS, f.Opt = nil, f.Opt&^(libtracer.OptTS|libtracer.OptTF)
	f.Payload = f.Payload[:min(len(f.Payload), 24)] // within every LL=0 level
	if libtracer.Decode(wire([]libtracer.Frame{f}), libtracer.Limits{}).FirstError() != nil {
		f = libtracer.Frame{Type: libtracer.TypeStatus, Payload: []byte{}} // a valid leaf, so that the depth decides
	}
	for range depth {
		o := libtracer.OptPL
		if r.Chance(1, 2) {
			o |= libtracer.OptLL
		}
		f = libtracer.Frame{Type: uint8(0x80 + r.IntN(0x80)), Opt: o, Children: []libtracer.Frame{f}}
	}
	args["work_budget"] = int64(budget)
	delete(args, "max_tlv_bytes")
	c := decodeCase(args, []libtracer.Frame{f})
	c.Generator, c.Smaller = "tracerfuzz/nest", nil
	c.Operators = []string{"nest " + strconv.Itoa(depth) + " deep at budget " + strconv.Itoa(budget)}
	return c
}

// rangeEnds stamps one top-level frame with children absolutely and its
// first child at an offset from it at an end of the i32 range, inside or
// one past (LT-TS-02: the smallest encoder writes the child relative
// exactly when the offset fits an i32).
func rangeEnds(r *fuzzgen.Rand, frames []libtracer.Frame) {
	for i := range frames {
		f := &frames[i]
		if len(f.Children) == 0 {
			continue
		}
		a := r.Uint(1<<64 - 1)
		f.Opt = f.Opt&^libtracer.OptTF | libtracer.OptTS
		f.TS = &libtracer.Timestamp{Abs: a, Resolved: a}
		off := []int64{1<<31 - 1, 1 << 31, -1 << 31, -1<<31 - 1}[r.IntN(4)]
		c := &f.Children[0]
		c.Opt = c.Opt&^libtracer.OptTF | libtracer.OptTS
		c.TS = &libtracer.Timestamp{Abs: a + uint64(off), Resolved: a + uint64(off)}
		return
	}
}

// unwritable changes one top-level frame into one an encoder must refuse:
// children under PL=0 (LT-OPT-04, refused by the exact encoder) or TS=1
// with no stamp to write (LT-OPT-05).
func unwritable(r *fuzzgen.Rand, frames []libtracer.Frame) []string {
	for i := range frames {
		f := &frames[i]
		if len(f.Children) > 0 && r.Chance(1, 2) {
			f.Opt &^= libtracer.OptPL
			return []string{"children under PL=0"}
		}
		f.Opt |= libtracer.OptTS
		f.TS = nil
		return []string{"TS=1 without a stamp"}
	}
	return nil
}
