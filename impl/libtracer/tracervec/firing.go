package tracervec

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"sort"

	"github.com/threespec/conformance/impl/libtracer"
	"github.com/threespec/conformance/impl/libtracer/tracerspec"
	"github.com/threespec/conformance/internal/vecgen"
)

// firing is the generator's Firing (docs/VECTORS.md, "Check order"): every
// error code a receiver following libtracer-01 may report first on the
// input of a libtracer.decode negative. It is the model's second reading:
// decodeModel checks in the one order docs/libtracer.md gives, firing in
// every order the spec leaves free, which is:
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
func firing(v *vecgen.Vector, input []byte) ([]string, error) {
	if v.Op != tracerspec.OpDecode {
		return nil, fmt.Errorf("%s: no check order for op %s", v.ID, v.Op)
	}
	var a decodeArgs
	if err := json.Unmarshal(v.Args, &a); err != nil {
		return nil, fmt.Errorf("%s: args: %w", v.ID, err)
	}
	alt, err := firingAlternatives(v.Readings)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", v.ID, err)
	}
	return firingCodes(input, a, alt), nil
}

// alternatives are the non-default branches of the readings (docs/READINGS.md)
// firing follows, for the branch vectors of those readings.
type alternatives struct {
	emptyInvalid     bool // LT-READ-02 empty-structured-invalid
	stopAtFirst      bool // LT-READ-08 stop-at-first-error
	budgetAsIs       bool // LT-READ-18 budget-as-configured
	emptyFree        bool // LT-READ-12 empty-free
	skipOuterUnknown bool // LT-READ-14 silently-skipped
	downAsTruncated  bool // LT-READ-17 down-recommended
	crc16Reflected   bool // LT-READ-19 reflected
	wholeCoreKnown   bool // LT-READ-21 whole-core-range-known
	standaloneRel    bool // LT-READ-22 accepted-as-shown
	onePerDatagram   bool // LT-READ-23 one-per-datagram
	noFramesEmpty    bool // LT-READ-01 empty-datagram-no-frames
}

// firingAlternatives reads the branch a vector's readings take.
func firingAlternatives(readings map[string]string) (alternatives, error) {
	var alt alternatives
	flags := map[string]*bool{
		libtracer.ReadEmptyInput + "=" + libtracer.AltEmptyDatagramNoFrames:       &alt.noFramesEmpty,
		libtracer.ReadEmptyStructured + "=" + libtracer.AltEmptyStructuredInvalid: &alt.emptyInvalid,
		libtracer.ReadContinue + "=" + libtracer.AltStopAtFirstError:              &alt.stopAtFirst,
		libtracer.ReadDepthFloor + "=" + libtracer.AltBudgetAsConfigured:          &alt.budgetAsIs,
		libtracer.ReadEmptyLevel + "=" + libtracer.AltEmptyFree:                   &alt.emptyFree,
		libtracer.ReadReturnPath + "=" + libtracer.AltSilentlySkipped:             &alt.skipOuterUnknown,
		libtracer.ReadDownReport + "=" + libtracer.AltDownRecommended:             &alt.downAsTruncated,
		libtracer.ReadCRC16Variant + "=" + libtracer.AltReflected:                 &alt.crc16Reflected,
		libtracer.ReadAssignedTypes + "=" + libtracer.AltWholeCoreRangeKnown:      &alt.wholeCoreKnown,
		libtracer.ReadStandaloneRel + "=" + libtracer.AltAcceptedAsShown:          &alt.standaloneRel,
		libtracer.ReadDatagramFrames + "=" + libtracer.AltOnePerDatagram:          &alt.onePerDatagram,
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

// codeSet is a set of error codes, each with the rule of the check that
// gives it (the first found).
type codeSet map[string]string

func (s codeSet) add(code, rule string) codeSet {
	if _, ok := s[code]; !ok {
		s[code] = rule
	}
	return s
}

// listedErrorsOrdered reports whether a frame list (report "frames") of in
// under a lists an error whose code rests on a check order: a top-level
// frame that fails two checks giving different codes. A frame list cannot
// accept either, so no positive holds one.
func listedErrorsOrdered(in []byte, a decodeArgs) bool {
	fc := firingCtx{a: a}
	for off := 0; off < len(in); {
		bad, size, complete := headerFiring(in[off:], a.maxTLV())
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

func (s codeSet) union(t codeSet) codeSet {
	for c, r := range t {
		s.add(c, r)
	}
	return s
}

func (s codeSet) list() []string {
	out := make([]string, 0, len(s))
	for c := range s {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// firingCodes is firing on in under a and the alternatives alt; nil when
// a spec-following receiver accepts in.
func firingCodes(in []byte, a decodeArgs, alt alternatives) []string {
	return firingSet(in, a, alt).list()
}

// firingSet is firingCodes with the rule of each code's check.
func firingSet(in []byte, a decodeArgs, alt alternatives) codeSet {
	stream := a.Transport == transportStream
	trunc, truncRule := codeTruncated, "LT-TRUNC-03"
	if stream {
		truncRule = "LT-TRUNC-02"
		if !alt.downAsTruncated {
			trunc = codeDown
		}
	}
	if len(in) == 0 {
		if stream || alt.noFramesEmpty {
			return nil
		}
		return codeSet{codeTruncated: "LT-TRUNC-08"}
	}
	fc := firingCtx{a: a, alt: alt}
	var first codeSet // the codes of the first TLV with an error inside its extent
	for off := 0; off < len(in); {
		bad, size, complete := headerFiring(in[off:], a.maxTLV())
		framing := codeSet{}
		if bad != "" {
			framing.add(codeInvalid, bad)
		}
		if !complete || size > uint64(len(in)-off) {
			framing.add(trunc, truncRule)
		}
		if off > 0 && alt.onePerDatagram && !stream {
			framing = codeSet{codeInvalid: "LT-CTX-04"} // bytes after the datagram's one TLV
		}
		if len(framing) > 0 {
			if first == nil || a.Report == "frames" {
				return framing
			}
			if alt.stopAtFirst {
				return first
			}
			return first.union(framing)
		}
		if codes := fc.frame(in[off:off+int(size)], 0, false, true); len(codes) > 0 && first == nil {
			if alt.stopAtFirst {
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

// headerFiring judges the header at the start of b as far as b goes: bad
// names the rule of the first field present that is INVALID, complete
// says whether the whole header is there, size is the frame's size then.
func headerFiring(b []byte, maxTLV uint64) (bad string, size uint64, complete bool) {
	if len(b) >= 1 && b[0] == 0x00 {
		bad = "LT-TYPE-01"
	}
	if len(b) < 2 {
		return bad, 0, false
	}
	opt := b[1]
	switch {
	case bad != "":
	case opt&bitR7 != 0:
		bad = "LT-OPT-01"
	case opt&bitR0 != 0:
		bad = "LT-OPT-02"
	}
	h := hdrSize(opt)
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
	return bad, uint64(h) + length + uint64(tsSize(opt)+crcSize(opt)), true
}

// firingCtx carries what every frame of one input is judged under.
type firingCtx struct {
	a   decodeArgs
	alt alternatives
}

// truncation is the code and rule of bytes that end before a frame does on
// the transport of a: a receiver that reads a child which does not fit its
// parent as a frame cut short reports it so (LT-NEST-05's precedence note).
func (fc firingCtx) truncation() (code, rule string) {
	if fc.a.Transport == transportStream {
		if fc.alt.downAsTruncated {
			return codeTruncated, "LT-TRUNC-02"
		}
		return codeDown, "LT-TRUNC-02"
	}
	return codeTruncated, "LT-TRUNC-03"
}

func (fc firingCtx) known(t uint8) bool {
	return known(t) || (fc.alt.wholeCoreKnown && t >= 0x0E && t <= 0x1F)
}

func (fc firingCtx) budget() int {
	if fc.alt.budgetAsIs && fc.a.WorkBudget != nil {
		return int(*fc.a.WorkBudget)
	}
	return fc.a.budget()
}

// frame is the set of codes the frame b (exactly its bytes, header valid)
// may be rejected with first: depth open levels above it, hasAnchor when
// an ancestor has a trailer_ts.
func (fc firingCtx) frame(b []byte, depth int, hasAnchor, top bool) codeSet {
	typ, opt := b[0], b[1]
	h := hdrSize(opt)
	length := len(b) - h - tsSize(opt) - crcSize(opt)
	payload := b[h : h+length]
	tsEnd := h + length + tsSize(opt)
	codes := codeSet{}
	switch crcSize(opt) { // §CRC (LT-CRC-09, LT-CRC-10), every type (LT-UNK-03)
	case 4:
		if crc32c(b[h:tsEnd]) != binary.LittleEndian.Uint32(b[tsEnd:]) {
			codes.add(codeCRCFail, "LT-CRC-09")
		}
	case 2:
		got := crc16(b[h:tsEnd])
		if fc.alt.crc16Reflected {
			got = crc16Reflected(b[h:tsEnd])
		}
		if got != binary.LittleEndian.Uint16(b[tsEnd:]) {
			codes.add(codeCRCFail, "LT-CRC-10")
		}
	}
	if tsSize(opt) == 4 && !hasAnchor && !(top && fc.alt.standaloneRel) {
		codes.add(codePath, "LT-TS-04")
	}
	if top && !fc.known(typ) && !fc.alt.skipOuterUnknown {
		codes.add(codeMismatch, "LT-UNK-05")
	}
	if opt&bitPL == 0 || !fc.known(typ) {
		return codes // opaque (LT-OPT-04, LT-UNK-06)
	}
	if len(payload) == 0 && fc.alt.emptyInvalid {
		return codes.add(codeInvalid, "LT-NEST-06")
	}
	if depth >= fc.budget() && !(len(payload) == 0 && fc.alt.emptyFree) {
		return codes.add(codeTooDeep, "LT-NEST-03") // no node, so no child is reached
	}
	anchored := hasAnchor || tsSize(opt) > 0
	for pos := 0; pos < len(payload); {
		bad, size, complete := headerFiring(payload[pos:], fc.a.maxTLV())
		switch {
		case bad != "":
			return codes.add(codeInvalid, bad) // the child's header
		case !complete || size > uint64(len(payload)-pos):
			// The spec names no code for a malformed structured payload:
			// INVALID, or truncated as for a frame the wire cut.
			return codes.add(codeInvalid, "LT-NEST-05").add(fc.truncation())
		}
		if c := fc.frame(payload[pos:pos+int(size)], depth+1, anchored, false); len(c) > 0 {
			return codes.union(c)
		}
		pos += int(size)
	}
	return codes
}

// crc16Reflected is the CRC-16 of LT-READ-19's alternative: polynomial
// 0x1021 reflected (0x8408), init 0xFFFF, refin = refout = true, xorout 0
// (CRC-16/MCRF4XX, check 0x6F91).
func crc16Reflected(b []byte) uint16 {
	c := uint16(0xFFFF)
	for _, x := range b {
		c ^= uint16(x)
		for range 8 {
			if c&1 != 0 {
				c = c>>1 ^ 0x8408
			} else {
				c >>= 1
			}
		}
	}
	return c
}

// acceptableCodes is what a negative of in under a accepts beside code:
// every other code firing gives (docs/VECTORS.md, "Check order"), and the
// rules of their checks, which the vector then tests as well.
func acceptableCodes(in []byte, a decodeArgs, code string) (codes, ruleIDs []string) {
	set := firingSet(in, a, alternatives{})
	for _, c := range set.list() {
		if c != code {
			codes = append(codes, c)
			if !slices.Contains(ruleIDs, set[c]) {
				ruleIDs = append(ruleIDs, set[c])
			}
		}
	}
	return codes, ruleIDs
}
