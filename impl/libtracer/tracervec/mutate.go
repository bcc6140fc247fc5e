package tracervec

import (
	"encoding/json"
	"fmt"
	"hash/fnv"

	"github.com/threespec/conformance/impl/libtracer/tracermodel"
	"github.com/threespec/conformance/impl/libtracer/tracerspec"
	"github.com/threespec/conformance/vectorset"
)

// Systematic mutations (docs/VECTORS.md, issue point 3). Each decode
// positive yields a deterministic family: single-byte changes of header
// bytes (every bit of opt, the type byte, the length), of the first
// payload, trailer_ts and CRC bytes, truncation at every structural
// boundary and appended bytes. The model classifies each mutation; the
// engine then requires the reference to agree (a rejected one rejected by
// the same rule, an accepted one accepted with the model's frame list). A
// mutation that asks what another vector asks is dropped.
//
// The default set gives the full family to the known answers (the worked
// examples, the ADC record and the frame-size rows, on a datagram) and a
// light family of three to every other positive; Options.Large gives every positive the full
// family.

// mutation is one derived input and what an acceptance of it would show.
type mutation struct {
	suffix string
	b      []byte
	rule   string // the rule an accepted mutation shows
	what   string // for the comment
}

// fullFamily lists the mutations of p: header changes for its first two
// frames in pre-order, trailer and payload byte changes, every boundary
// cut, and three appended tails.
func fullFamily(p positive) []mutation {
	var out []mutation
	for i, f := range p.frames {
		if i == 2 {
			break
		}
		out = append(out, frameMutations(p.in, i, f)...)
	}
	for _, cut := range boundaries(p.frames, len(p.in)) {
		out = append(out, mutation{fmt.Sprintf("cut-%d", cut), p.in[:cut], "LT-CTX-04", fmt.Sprintf("cut after %d of %d bytes", cut, len(p.in))})
	}
	return append(out, appended(p.in)...)
}

// lightFamily is three mutations of a positive: the last byte cut off, one
// option bit of the first frame flipped (bit 1..6, chosen by a hash of the
// positive's name, so that adding a positive changes no other family) and
// its CRC or its length changed.
func lightFamily(p positive) []mutation {
	if len(p.frames) == 0 {
		return []mutation{{"append-unknown-0e", cat(p.in, []byte{0x0e, 0x00, 0x00, 0x00}), "LT-CTX-04", "an empty outer 0x0E appended"}}
	}
	f := p.frames[0]
	h := fnv.New32a()
	h.Write([]byte(p.name))
	bit := 1 + int(h.Sum32()%6)
	out := []mutation{
		{"cut-last-byte", p.in[:len(p.in)-1], "LT-CTX-04", "its last byte cut off"},
		optFlip(p.in, 0, f, bit),
	}
	if f.crc != nil {
		out = append(out, crcFlip(p.in, 0, f))
	} else {
		out = append(out, lengthChange(p.in, 0, f, 1))
	}
	return out
}

func frameMutations(b []byte, i int, f flat) []mutation {
	var out []mutation
	o := int(f.offset)
	for bit := 0; bit < 8; bit++ {
		out = append(out, optFlip(b, i, f, bit))
	}
	for _, t := range []struct {
		name string
		v    byte
	}{{"type-00", 0x00}, {"type-05", 0x05}, {"type-0e", 0x0E}, {"type-xor-80", f.typ ^ 0x80}} {
		if t.v != f.typ {
			out = append(out, mutation{fmt.Sprintf("f%d-%s", i, t.name), with(b, o, t.v), "LT-TYPE-07", fmt.Sprintf("frame %d's type set to 0x%02x", i, t.v)})
		}
	}
	out = append(out, lengthChange(b, i, f, 1))
	if f.length > 0 {
		out = append(out, lengthChange(b, i, f, -1))
	}
	start := o + hdrSize(f.opt)
	end := start + int(f.length)
	if f.length > 0 {
		out = append(out, mutation{fmt.Sprintf("f%d-payload-byte", i), xorAt(b, start, 0x01), "LT-FRAME-05", fmt.Sprintf("frame %d's first payload byte changed", i)})
	}
	if f.ts != nil && f.err == nil {
		rule := "LT-TS-01"
		if f.ts.rel {
			rule = "LT-TS-02"
		}
		out = append(out, mutation{fmt.Sprintf("f%d-ts-byte", i), xorAt(b, end, 0x01), rule, fmt.Sprintf("frame %d's first trailer_ts byte changed", i)})
	}
	if f.crc != nil {
		out = append(out, crcFlip(b, i, f))
	}
	return out
}

// optRule is what an accepted flip of an opt bit shows.
var optRule = [8]string{"LT-OPT-02", "LT-OPT-10", "LT-OPT-08", "LT-OPT-07", "LT-OPT-06", "LT-OPT-05", "LT-OPT-04", "LT-OPT-01"}

// optName names the opt bits (libtracer-01, §Options bitfield).
var optName = [8]string{"reserved bit 0", "TF", "CW", "LL", "CR", "TS", "PL", "reserved bit 7"}

func optFlip(b []byte, i int, f flat, bit int) mutation {
	return mutation{fmt.Sprintf("f%d-opt-bit%d", i, bit), xorAt(b, int(f.offset)+1, 1<<bit), optRule[bit],
		fmt.Sprintf("frame %d's opt bit %d (%s) flipped (0x%02x to 0x%02x)", i, bit, optName[bit], f.opt, f.opt^(1<<bit))}
}

func lengthChange(b []byte, i int, f flat, d int) mutation {
	name := "plus-1"
	if d < 0 {
		name = "minus-1"
	}
	c := append([]byte(nil), b...)
	o := int(f.offset) + 2
	l := uint32(int64(f.length) + int64(d))
	c[o], c[o+1] = byte(l), byte(l>>8)
	if f.opt&bitLL != 0 {
		c[o+2], c[o+3] = byte(l>>16), byte(l>>24)
	}
	return mutation{fmt.Sprintf("f%d-length-%s", i, name), c, "LT-FRAME-10", fmt.Sprintf("frame %d's length %d changed to %d", i, f.length, l)}
}

func crcFlip(b []byte, i int, f flat) mutation {
	at := int(f.offset) + hdrSize(f.opt) + int(f.length) + tsSize(f.opt)
	return mutation{fmt.Sprintf("f%d-crc-byte", i), xorAt(b, at, 0x80), "LT-UNK-06", fmt.Sprintf("frame %d's first CRC byte changed", i)}
}

func appended(b []byte) []mutation {
	return []mutation{
		{"append-00", cat(b, []byte{0x00}), "LT-CTX-04", "a zero byte appended"},
		{"append-01", cat(b, []byte{0x01}), "LT-CTX-04", "a lone type byte 01 appended"},
		{"append-status-ok", cat(b, []byte{0x09, 0x00, 0x00, 0x00}), "LT-CTX-04", "an empty STATUS appended"},
	}
}

func (s *set) mutations() {
	start := len(s.positives)
	for _, p := range s.positives[:start] {
		family := lightFamily(p)
		if p.core || s.large {
			family = fullFamily(p)
		}
		for _, m := range family {
			s.mutant(p, m)
			if s.err != nil {
				return
			}
		}
	}
	// Encode positives in exact mode: the first frame turned into what no
	// sender emits.
	for _, v := range s.encodePositives() {
		for _, m := range []struct {
			suffix, rule, what string
			set                func(map[string]any)
		}{
			{"type-05", "LT-TYPE-06", "its first frame's type set to 0x05", func(f map[string]any) { f["type"] = 0x05 }},
			{"opt-bit7", "LT-OPT-03", "its first frame's opt bit 7 set", func(f map[string]any) { f["opt"] = int(f["opt"].(float64)) | 0x80 }},
		} {
			var list []map[string]any
			if err := json.Unmarshal(v.in, &list); err != nil || len(list) == 0 {
				s.failf("%s: encode input: %v", v.name, err)
				return
			}
			m.set(list[0])
			b, _ := json.Marshal(list)
			s.add(v.name+"--"+m.suffix, ".json", tracerspec.OpEncode, v.args, in(b), vectorset.Reject, "", nil,
				meta{rules: rulesOf(m.rule), tags: tags("mutation"), derived: v.name, comment: v.name + " with " + m.what + ", which no sender emits: refused, " + m.rule})
		}
	}
}

// encodePositive is an exact-mode encode positive: its name, input and args.
type encodePositive struct {
	name string
	in   []byte
	args json.RawMessage
}

func (s *set) encodePositives() []encodePositive {
	var out []encodePositive
	for _, v := range s.vecs {
		if v.Op == tracerspec.OpEncode && v.Expect == vectorset.Accept && v.DerivedFrom == "" && string(v.Args) == `{"mode":"exact"}` && v.Recipe == nil {
			out = append(out, encodePositive{name: v.Name(), in: v.Data, args: v.Args})
		}
	}
	return out
}

// mutant classifies m by the model and adds it.
func (s *set) mutant(p positive, m mutation) {
	name := p.name + "--" + m.suffix
	a := p.args
	if a.Views != nil { // cuts past a shortened input's end move to its end
		a.Views = append([]int64(nil), a.Views...)
		for i := range a.Views {
			a.Views[i] = min(a.Views[i], int64(len(m.b)))
		}
	}
	got := decodeModel(m.b, a)
	md := meta{tags: tags("mutation"), derived: p.name}
	if got.err != nil {
		md.rules = rulesOf(got.err.rule)
		md.comment = fmt.Sprintf("%s with %s: %s", p.name, m.what, verdict(p, got.err))
		s.add(name, ".bin", tracerspec.OpDecode, a, in(m.b), vectorset.Reject, got.err.code, nil, md)
		return
	}
	if a.Report == "frames" && tracermodel.ListedErrorsOrdered(m.b, a.Args) {
		return // a listed error's code would rest on a check order (tracermodel.ListedErrorsOrdered)
	}
	md.rules = rulesOf(m.rule)
	md.comment = fmt.Sprintf("%s with %s: still a valid input", p.name, m.what)
	res := framesResult(got.frames)
	lifecycleResult(res, m.b, got.frames, a)
	s.add(name, ".bin", tracerspec.OpDecode, a, in(m.b), vectorset.Accept, "", res, md)
}

// verdict says why a mutation of p is rejected, ending with the code and the
// rule it is reported under: what the receiver finds, and, when that is at
// a frame p does not have, the knock-on effect that leads there (a changed
// length or opt bit moves the frame's end, so bytes p holds inside a frame
// are read as the next header, or payload bytes as children).
func verdict(p positive, v *violation) string {
	knock := ""
	if v.frame < int64(len(p.in)) && !startsFrame(p.frames, v.frame) {
		knock = fmt.Sprintf("byte %d, which in %s is %s, is then read as a frame header; ", v.frame, p.name, placeOf(p, v.frame))
	}
	return fmt.Sprintf("%s%s: %s, %s", knock, v.why, v.code, v.rule)
}

func startsFrame(frames []flat, at int64) bool {
	for _, f := range frames {
		if f.offset == at {
			return true
		}
	}
	return false
}

// placeOf says which field of which frame of p holds byte at: the innermost
// frame whose extent holds it.
func placeOf(p positive, at int64) string {
	place := "between frames"
	for i, f := range p.frames {
		start := f.offset + int64(hdrSize(f.opt))
		end := start + int64(f.length)
		ts := end + int64(tsSize(f.opt))
		crcEnd := ts + int64(crcSize(f.opt))
		var part string
		switch {
		case at < f.offset || at >= crcEnd:
			continue
		case at < start:
			part = "header"
		case at < end:
			part = "payload"
		case at < ts:
			part = "trailer_ts"
		default:
			part = "trailer_crc"
		}
		place = fmt.Sprintf("byte %d of frame %d's %s", at-map[string]int64{"header": f.offset, "payload": start, "trailer_ts": end, "trailer_crc": ts}[part], i, part)
	}
	return place
}
