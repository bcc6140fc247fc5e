package tracermodel

import (
	"encoding/binary"
	"fmt"
	"sort"

	"github.com/threespec/conformance/impl/libtracer"
)

// Codes is every error code a receiver following libtracer-01 may report
// first on the input of a libtracer.decode request the reference rejects,
// under args a and the alternatives alt (docs/VECTORS.md, "Check order");
// nil when such a receiver accepts in. It is the model's second reading:
// the generator's receiver (tracervec's decodeModel) checks in the one
// order docs/libtracer.md gives, Codes in every order the spec leaves
// free, which is:
//
//   - a header's fields (type 0x00, the reserved bits, a length above
//     MAX_TLV_BYTES: all INVALID) and the frame's extent against the bytes
//     present (truncated on a datagram, transport::down on a stream) in
//     any order: the spec orders none ("A header read that succeeds but
//     encounters length > MAX_TLV_BYTES MUST be rejected"; "Implementations
//     MUST validate length against available buffer before reading any
//     payload byte"), and a parser that reads the whole header first
//     ("read 2 or 4 bytes based on one bit") meets the end of the bytes
//     before a field it has not judged;
//   - within a frame whose extent is known, its CRC, its stamp's anchor,
//     its type (top level), its work-stack level and its children, in any
//     order: a streaming receiver walks the children before the CRC that
//     follows them ("Streaming receive: stream payload bytes into segment
//     while accumulating CRC. ... Read CRC, compare to accumulator"), and
//     the spec orders none of the others; children in byte order, the
//     first child with a failing check giving its own codes;
//   - across top-level TLVs, the first TLV with an error inside its known
//     extent, or the error that breaks framing after it (a pure-framing
//     parser routes "by length+CRC alone" before it looks inside).
//
// A check that fires only because an earlier one was skipped (a walk on
// past a header already judged INVALID) is no such order and is not
// counted: every set is built from checks on bytes a spec-following parser
// reaches with every earlier frame framed.
func Codes(in []byte, a Args, alt Alternatives) []string {
	return Order(in, a, alt).List()
}

// Alternatives are the non-default branches of the readings
// (docs/READINGS.md) the check orders follow, for a testee that takes them.
type Alternatives struct {
	EmptyInvalid     bool // LT-READ-02 empty-structured-invalid
	StopAtFirst      bool // LT-READ-08 stop-at-first-error
	BudgetAsIs       bool // LT-READ-18 budget-as-configured
	EmptyFree        bool // LT-READ-12 empty-free
	SkipOuterUnknown bool // LT-READ-14 silently-skipped
	DownAsTruncated  bool // LT-READ-17 down-recommended
	CRC16Reflected   bool // LT-READ-19 reflected
	WholeCoreKnown   bool // LT-READ-21 whole-core-range-known
	StandaloneRel    bool // LT-READ-22 accepted-as-shown
	OnePerDatagram   bool // LT-READ-23 one-per-datagram
	NoFramesEmpty    bool // LT-READ-01 empty-datagram-no-frames
}

// AlternativesOf reads the branches readings take (reading ID to
// alternative; one absent or at its default takes none).
func AlternativesOf(readings map[string]string) (Alternatives, error) {
	var alt Alternatives
	flags := map[string]*bool{
		libtracer.ReadEmptyInput + "=" + libtracer.AltEmptyDatagramNoFrames:       &alt.NoFramesEmpty,
		libtracer.ReadEmptyStructured + "=" + libtracer.AltEmptyStructuredInvalid: &alt.EmptyInvalid,
		libtracer.ReadContinue + "=" + libtracer.AltStopAtFirstError:              &alt.StopAtFirst,
		libtracer.ReadDepthFloor + "=" + libtracer.AltBudgetAsConfigured:          &alt.BudgetAsIs,
		libtracer.ReadEmptyLevel + "=" + libtracer.AltEmptyFree:                   &alt.EmptyFree,
		libtracer.ReadReturnPath + "=" + libtracer.AltSilentlySkipped:             &alt.SkipOuterUnknown,
		libtracer.ReadDownReport + "=" + libtracer.AltDownRecommended:             &alt.DownAsTruncated,
		libtracer.ReadCRC16Variant + "=" + libtracer.AltReflected:                 &alt.CRC16Reflected,
		libtracer.ReadAssignedTypes + "=" + libtracer.AltWholeCoreRangeKnown:      &alt.WholeCoreKnown,
		libtracer.ReadStandaloneRel + "=" + libtracer.AltAcceptedAsShown:          &alt.StandaloneRel,
		libtracer.ReadDatagramFrames + "=" + libtracer.AltOnePerDatagram:          &alt.OnePerDatagram,
	}
	defaults := map[string]string{}
	for _, r := range libtracer.Readings() {
		defaults[string(r.ID)] = r.Default
	}
	for id, a := range readings {
		if defaults[id] == a {
			continue
		}
		f, ok := flags[id+"="+a]
		if !ok {
			return alt, fmt.Errorf("the check orders of reading %s alternative %q are not modelled", id, a)
		}
		*f = true
	}
	return alt, nil
}

// CodeSet is a set of error codes, each with the rule of the check that
// gives it (the first found).
type CodeSet map[string]string

func (s CodeSet) add(code, rule string) CodeSet {
	if _, ok := s[code]; !ok {
		s[code] = rule
	}
	return s
}

// ListedErrorsOrdered reports whether a frame list (report "frames") of in
// under a lists an error whose code rests on a check order: a top-level
// frame that fails two checks giving different codes. A frame list cannot
// accept either, so no positive holds one.
func ListedErrorsOrdered(in []byte, a Args) bool {
	fc := orderCtx{a: a}
	for off := 0; off < len(in); {
		bad, size, complete := Header(in[off:], a.MaxTLV())
		if bad != "" || !complete || size > uint64(len(in)-off) {
			return false
		}
		if len(fc.frame(in[off:off+int(size)], 0, false, true)) > 1 {
			return true
		}
		off += int(size)
	}
	return false
}

func (s CodeSet) union(t CodeSet) CodeSet {
	for c, r := range t {
		s.add(c, r)
	}
	return s
}

// List is the codes of s in order.
func (s CodeSet) List() []string {
	out := make([]string, 0, len(s))
	for c := range s {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// Order is Codes with the rule of each code's check.
func Order(in []byte, a Args, alt Alternatives) CodeSet {
	stream := a.Transport == TransportStream
	trunc, truncRule := CodeTruncated, "LT-TRUNC-03"
	if stream {
		truncRule = "LT-TRUNC-02"
		if !alt.DownAsTruncated {
			trunc = CodeDown
		}
	}
	if len(in) == 0 {
		if stream || alt.NoFramesEmpty {
			return nil
		}
		return CodeSet{CodeTruncated: "LT-TRUNC-08"}
	}
	fc := orderCtx{a: a, alt: alt}
	var first CodeSet // the codes of the first TLV with an error inside its extent
	for off := 0; off < len(in); {
		bad, size, complete := Header(in[off:], a.MaxTLV())
		framing := CodeSet{}
		if bad != "" {
			framing.add(CodeInvalid, bad)
		}
		if !complete || size > uint64(len(in)-off) {
			framing.add(trunc, truncRule)
		}
		if off > 0 && alt.OnePerDatagram && !stream {
			framing = CodeSet{CodeInvalid: "LT-CTX-04"} // bytes after the datagram's one TLV
		}
		if len(framing) > 0 {
			if first == nil || a.Report == "frames" {
				return framing
			}
			if alt.StopAtFirst {
				return first
			}
			return first.union(framing)
		}
		if codes := fc.frame(in[off:off+int(size)], 0, false, true); len(codes) > 0 && first == nil {
			if alt.StopAtFirst {
				return codes
			}
			first = codes
		}
		off += int(size)
	}
	if a.Report == "frames" {
		return nil
	}
	return first
}

// Header judges the header at the start of b as far as b goes: bad
// names the rule of the first field present that is INVALID, complete
// says whether the whole header is there, size is the frame's size then.
func Header(b []byte, maxTLV uint64) (bad string, size uint64, complete bool) {
	if len(b) >= 1 && b[0] == 0x00 {
		bad = "LT-TYPE-01"
	}
	if len(b) < 2 {
		return bad, 0, false
	}
	opt := b[1]
	switch {
	case bad != "":
	case opt&BitR7 != 0:
		bad = "LT-OPT-01"
	case opt&BitR0 != 0:
		bad = "LT-OPT-02"
	}
	h := HeaderSize(opt)
	if len(b) < h {
		return bad, 0, false
	}
	length := uint64(binary.LittleEndian.Uint16(b[2:4]))
	if h == 6 {
		length = uint64(binary.LittleEndian.Uint32(b[2:6]))
	}
	if length > maxTLV && bad == "" {
		bad = "LT-TRUNC-06"
	}
	return bad, uint64(h) + length + uint64(TSSize(opt)+CRCSize(opt)), true
}

// orderCtx carries what every frame of one input is judged under.
type orderCtx struct {
	a   Args
	alt Alternatives
}

// truncation is the code and rule of bytes that end before a frame does on
// the transport of a: a receiver that reads a child which does not fit its
// parent as a frame cut short reports it so (LT-NEST-05's precedence note).
func (fc orderCtx) truncation() (code, rule string) {
	if fc.a.Transport == TransportStream {
		if fc.alt.DownAsTruncated {
			return CodeTruncated, "LT-TRUNC-02"
		}
		return CodeDown, "LT-TRUNC-02"
	}
	return CodeTruncated, "LT-TRUNC-03"
}

func (fc orderCtx) known(t uint8) bool {
	return Known(t) || (fc.alt.WholeCoreKnown && t >= 0x0E && t <= 0x1F)
}

func (fc orderCtx) budget() int {
	if fc.alt.BudgetAsIs && fc.a.WorkBudget != nil {
		return int(*fc.a.WorkBudget)
	}
	return fc.a.Budget()
}

// frame is the set of codes the frame b (exactly its bytes, header valid)
// may be rejected with first: depth open levels above it, hasAnchor when
// an ancestor has a trailer_ts.
func (fc orderCtx) frame(b []byte, depth int, hasAnchor, top bool) CodeSet {
	typ, opt := b[0], b[1]
	h := HeaderSize(opt)
	length := len(b) - h - TSSize(opt) - CRCSize(opt)
	payload := b[h : h+length]
	tsEnd := h + length + TSSize(opt)
	codes := CodeSet{}
	switch CRCSize(opt) { // §CRC (LT-CRC-09, LT-CRC-10), every type (LT-UNK-03)
	case 4:
		if CRC32C(b[h:tsEnd]) != binary.LittleEndian.Uint32(b[tsEnd:]) {
			codes.add(CodeCRCFail, "LT-CRC-09")
		}
	case 2:
		got := CRC16(b[h:tsEnd])
		if fc.alt.CRC16Reflected {
			got = CRC16Reflected(b[h:tsEnd])
		}
		if got != binary.LittleEndian.Uint16(b[tsEnd:]) {
			codes.add(CodeCRCFail, "LT-CRC-10")
		}
	}
	if TSSize(opt) == 4 && !hasAnchor && !(top && fc.alt.StandaloneRel) {
		codes.add(CodePath, "LT-TS-04")
	}
	if top && !fc.known(typ) && !fc.alt.SkipOuterUnknown {
		codes.add(CodeMismatch, "LT-UNK-05")
	}
	if opt&BitPL == 0 || !fc.known(typ) {
		return codes // opaque (LT-OPT-04, LT-UNK-06)
	}
	if len(payload) == 0 && fc.alt.EmptyInvalid {
		return codes.add(CodeInvalid, "LT-NEST-06")
	}
	if depth >= fc.budget() && !(len(payload) == 0 && fc.alt.EmptyFree) {
		return codes.add(CodeTooDeep, "LT-NEST-03") // no node, so no child is reached
	}
	anchored := hasAnchor || TSSize(opt) > 0
	for pos := 0; pos < len(payload); {
		bad, size, complete := Header(payload[pos:], fc.a.MaxTLV())
		switch {
		case bad != "":
			return codes.add(CodeInvalid, bad) // the child's header
		case !complete || size > uint64(len(payload)-pos):
			// The spec names no code for a malformed structured payload:
			// INVALID, or truncated as for a frame the wire cut.
			return codes.add(CodeInvalid, "LT-NEST-05").add(fc.truncation())
		}
		if c := fc.frame(payload[pos:pos+int(size)], depth+1, anchored, false); len(c) > 0 {
			return codes.union(c)
		}
		pos += int(size)
	}
	return codes
}
