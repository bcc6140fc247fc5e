package libtracer

import (
	"encoding/binary"
	"math/bits"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/threespec/conformance/impl/rules"
)

// A dialect is how a receiver (or sender) reads and writes frames: the
// width and place of every field for each opt value, the CRC parameters and
// coverage, how stamps resolve, which type codes it knows, how it walks.
// stdDialect is libtracer-01's. The rules.Checks a parse carries (one rule
// switched off, one named mutant switched on, or another reading taken)
// make another: the reading of an implementation that ignores that rule or
// makes that mistake (docs/libtracer.md "Fault proof"). It is built once
// per parse, from the Checks, and only when they name a libtracer rule,
// mutant or reading. The walker never reads its flags: it asks its
// misreading (faultwalk.go), which a fault dialect is, and the standard
// walk has none.
type dialect struct {
	std    bool
	shapes [256]shape // by opt byte

	// Header.
	swapTypeOpt     bool // LT-FRAME-01: the header read as opt, type
	revOpt          bool // LT-FRAME-02: opt bits numbered from the left
	lenU32Load      bool // LT-FRAME-03: the length loaded as a u32 whatever LL
	allBE           bool // LT-FRAME-11: every multi-byte field big-endian
	lenBE           bool // MUT-LT-LENGTH-BIG-ENDIAN
	crc32BE         bool // MUT-LT-CRC32-BYTE-SWAPPED
	ll1Max16        bool // LT-LEN-02: an LL=1 length above 65535 is INVALID
	zeroLenInvalid  bool // LT-FRAME-13: an empty payload is INVALID
	versionBit      bool // LT-TYPE-08: opt bit 7 read as the rejected VR bit
	reservedTopOnly bool // MUT-LT-RESERVED-CHECK-TOP-ONLY
	maxOffByOne     bool // MUT-LT-MAX-TLV-OFF-BY-ONE
	default16e6     bool // LT-TRUNC-07: the default MAX_TLV_BYTES is 16,000,000
	stickyVariants  bool // LT-IOP-01: CW and TF of the first TLV apply to all
	zeroKnown       bool // LT-TYPE-01: type 0x00 taken for a known type

	// Placement.
	extentNoTrailer    bool // LT-FRAME-10: a frame's extent is H + L
	crc32AtPayloadEnd  bool // LT-FRAME-08: CRC-32C read at H + L
	crc16AtPayloadEnd  bool // LT-FRAME-09: CRC-16 read at H + L
	crcBeforeTS        bool // LT-LIFE-02: trailer_crc, then trailer_ts
	tsBeforePayload    bool // LT-EX-03: a relative stamp read before the payload
	payloadWithTrailer bool // LT-FRAME-05: the payload reported to the frame's end
	align4             bool // LT-EX-02: frames padded to a multiple of 4 bytes
	unalignedInvalid   bool // LT-FRAME-12: unaligned length or trailer fields are INVALID

	// CRC.
	crc32, crc16      crcParams
	covTSFirst        bool // LT-CRC-11: trailer_ts folded before the payload
	covFromLength     bool // LT-CRC-12: the length field covered
	covFromType       bool // MUT-LT-CRC-OVER-HEADER
	covNoTS           bool // MUT-LT-CRC-WITHOUT-TS
	foldXor           bool // LT-EX-04: CRC(payload) XOR CRC(trailer_ts)
	padPayload4       bool // LT-EX-05: the payload zero-padded to whole 32-bit words
	childPayloadsOnly bool // LT-EX-06: a structured CRC over its children's payloads
	count16           bool // LT-EX-07: a 16-bit byte counter in the CRC loop
	crcLenientTS      bool // LT-CRC-15: a mismatch tolerated if the payload alone matches
	skipStructuredCRC bool // MUT-LT-CRC-STRUCTURED-SKIPPED
	unknownNoCRC      bool // LT-UNK-03

	// Stamps.
	absHalvesSwapped   bool // LT-FRAME-06
	relNoSignExt       bool // LT-FRAME-07
	relUnresolved      bool // LT-TS-02
	absRelative        bool // LT-TS-01
	anchorOutermost    bool // LT-TS-03
	anchorDirectParent bool // MUT-LT-REL-TS-DIRECT-PARENT
	siblingChain       bool // LT-TS-05
	tsSaturate         bool // LT-TS-07: wire-times clamped instead of wrapping
	absSigned          bool // LT-TS-08: an absolute stamp read as a signed int64, negatives refused

	// Types.
	namedOnly           bool // LT-TYPE-02
	core1F              bool // LT-TYPE-03
	userOpaque          bool // LT-TYPE-04
	userUnknown         bool // LT-OPT-12: user types taken for unknown extension types
	known05             bool // LT-TYPE-05
	unknownOuterFraming bool // LT-TYPE-07
	unknownFatal        bool // LT-UNK-01
	unknownStops        bool // LT-UNK-02
	unknownNoTrailer    bool // LT-UNK-04
	unknownWalked       bool // LT-UNK-06

	// Nesting.
	cap32           bool // LT-NEST-01
	ignoreBudget    bool // LT-NEST-02
	emptyPL1Invalid bool // LT-NEST-06
	budgetOffByOne  bool // MUT-LT-BUDGET-OFF-BY-ONE

	// Contexts and truncation.
	popNoTrailer      bool // LT-CTX-01
	ropeOneView       bool // LT-CTX-02
	ropeSplitHeader   bool // LT-CTX-03
	zeroFill          bool // LT-TRUNC-04
	crcBeforeLength   bool // LT-TRUNC-05
	dgramTruncAsDown  bool // MUT-LT-TRUNC-DATAGRAM-AS-DOWN
	zeroLenDropped    bool // LT-EX-01
	frameErrStops     bool // LT-CTX-04: an error inside a frame breaks framing
	streamNoWait      bool // LT-TRUNC-01
	streamEndDown     bool // LT-TRUNC-09
	streamDownAsTrunc bool // MUT-LT-STREAM-DOWN-AS-TRUNCATED
	streamCRCPayload  bool // LT-CRC-14

	// Senders.
	sendCRCPayloadOnly bool // LT-CRC-13
	smallestRangeOff   bool // MUT-LT-SMALLEST-TF-RANGE-OFF-BY-ONE
	encodeLenTrailer   bool // MUT-LT-ENCODE-LENGTH-INCLUDES-TRAILER

	// Trailer lifecycle.
	stripKeepsBits     bool // LT-LIFE-01
	stripNoValidate    bool // LT-LIFE-03
	forwardPassThrough bool // LT-LIFE-04
	stripKeepsTrailer  bool // LT-LIFE-05
	stripNested        bool // LT-LIFE-06
	forwardKeepsStamp  bool // LT-TS-06

	sending bool // the dialect of an encoder (set on a copy)
}

// shape is the layout of the frames with one opt value.
type shape struct {
	h     uint8 // header size H
	len32 bool  // the length field is a u32 (else a u16), at offset 2
	ts    uint8 // trailer_ts width
	rel   bool  // the stamp is a relative i32 (else an absolute u64)
	crc   uint8 // trailer_crc width
	cw16  bool  // CRC-16-CCITT (else CRC-32C)
}

// crcParams is a CRC in the Rocksoft model: width, polynomial (not
// reflected), init, refin = refout, xorout.
type crcParams struct {
	width  uint
	poly   uint32
	init   uint32
	refl   bool
	xorout uint32
}

// The spec's CRCs (§CRC, LT-CRC-01..08).
var (
	paramsCRC32C = crcParams{width: 32, poly: 0x1EDC6F41, init: 0xFFFFFFFF, refl: true, xorout: 0xFFFFFFFF}
	paramsCRC16  = crcParams{width: 16, poly: 0x1021, init: 0xFFFF}
)

// sum is the CRC of b, bit by bit (fault paths only).
func (p crcParams) sum(b []byte) uint32 {
	top := uint64(1) << (p.width - 1)
	mask := uint64(1)<<p.width - 1
	c := uint64(p.init)
	for _, x := range b {
		if p.refl {
			x = bits.Reverse8(x)
		}
		c ^= uint64(x) << (p.width - 8)
		for range 8 {
			if c&top != 0 {
				c = c<<1 ^ uint64(p.poly)
			} else {
				c <<= 1
			}
			c &= mask
		}
	}
	if p.refl {
		c = uint64(bits.Reverse32(uint32(c)) >> (32 - p.width))
	}
	return uint32(c^uint64(p.xorout)) & uint32(mask)
}

var stdDialect = func() dialect {
	d := dialect{std: true, crc32: paramsCRC32C, crc16: paramsCRC16}
	for i := range d.shapes {
		o := Opt(i)
		d.shapes[i] = shape{h: uint8(o.HeaderSize()), len32: o.Has(OptLL), ts: uint8(o.TSSize()), rel: o.Has(OptTF),
			crc: uint8(o.CRCSize()), cw16: o.Has(OptCW)}
	}
	return d
}()

// dialectOf is the dialect of the Checks c: stdDialect unless c names a
// libtracer rule, mutant or reading. The last fault dialect is kept for the
// next parse under the same Checks.
func dialectOf(c rules.Checks) *dialect {
	if !c.Faulty() && c.Readings.Empty() {
		return &stdDialect // without allocating
	}
	ids := c.Faults.IDs()
	// Readings (docs/READINGS.md) whose other branch is a dialect.
	for _, id := range c.Readings.IDs() {
		if strings.HasPrefix(id, "LT-READ-") {
			ids = append(ids, id+"="+c.Readings.Taken(id))
		}
	}
	lt := false
	for _, id := range ids {
		lt = lt || strings.HasPrefix(id, "LT-") || strings.HasPrefix(id, "MUT-LT-")
	}
	if !lt {
		return &stdDialect
	}
	sort.Strings(ids)
	key := strings.Join(ids, " ")
	if cd := lastDialect.Load(); cd != nil && cd.key == key {
		return cd.d
	}
	d := faultDialect(c)
	lastDialect.Store(&cachedDialect{key: key, d: d})
	return d
}

type cachedDialect struct {
	key string
	d   *dialect
}

var lastDialect atomic.Pointer[cachedDialect]

// faultDialect builds the dialect of the faults and readings of c. A new
// rule fault or mutant is one line here setting its flag (a new field of
// dialect), and the flag's effect in the misreading (faultwalk.go) or the
// dialect's methods below; the walker is not touched.
func faultDialect(c rules.Checks) *dialect {
	d := stdDialect
	d.std = false
	readingDialect(&d, c)
	// Rules: what an implementation that ignores the rule does (the flags'
	// comments in the dialect type say what each does).
	d.swapTypeOpt = !c.Enforced(RuleFrameType)
	d.revOpt = !c.Enforced(RuleFrameOpt)
	d.lenU32Load = !c.Enforced(RuleFrameLen16)
	d.payloadWithTrailer = !c.Enforced(RuleFramePayload)
	d.absHalvesSwapped = !c.Enforced(RuleFrameTSAbs)
	d.relNoSignExt = !c.Enforced(RuleFrameTSRel)
	d.crc32AtPayloadEnd = !c.Enforced(RuleFrameCRC32)
	d.crc16AtPayloadEnd = !c.Enforced(RuleFrameCRC16)
	d.extentNoTrailer = !c.Enforced(RuleFrameSize)
	d.allBE = !c.Enforced(RuleFrameLittleEndian)
	d.unalignedInvalid = !c.Enforced(RuleFrameUnaligned)
	d.zeroLenInvalid = !c.Enforced(RuleFrameMinimum)
	d.stripKeepsBits = d.stripKeepsBits || !c.Enforced(RuleLifeAtRest)
	d.crcBeforeTS = !c.Enforced(RuleLifeInTransit)
	d.stripNoValidate = !c.Enforced(RuleLifeStrip)
	d.forwardPassThrough = !c.Enforced(RuleLifeForward)
	d.stripKeepsTrailer = !c.Enforced(RuleLifeRecord)
	d.stripNested = !c.Enforced(RuleLifeInvariant)
	d.ll1Max16 = !c.Enforced(RuleLenMax32)
	d.covTSFirst = !c.Enforced(RuleCRCCoverage)
	d.covFromLength = !c.Enforced(RuleCRCHeaderExcluded)
	d.sendCRCPayloadOnly = !c.Enforced(RuleCRCStreamSend)
	d.streamCRCPayload = !c.Enforced(RuleCRCStreamReceive)
	d.crcLenientTS = !c.Enforced(RuleCRCCorruptTS)
	d.absRelative = !c.Enforced(RuleTSAbs)
	d.relUnresolved = !c.Enforced(RuleTSRel)
	d.anchorOutermost = !c.Enforced(RuleTSParent)
	d.siblingChain = !c.Enforced(RuleTSExampleADC)
	d.forwardKeepsStamp = !c.Enforced(RuleTSWireTime)
	d.tsSaturate = d.tsSaturate || !c.Enforced(RuleTSWrap)
	d.absSigned = !c.Enforced(RuleTSAbsAny)
	d.frameErrStops = d.frameErrStops || !c.Enforced(RuleCtxBackToBack)
	d.namedOnly = !c.Enforced(RuleTypeCore)
	d.core1F = d.core1F || !c.Enforced(RuleTypeFuture)
	d.userOpaque = !c.Enforced(RuleTypeUser)
	d.userUnknown = !c.Enforced(RuleOptExtensions)
	d.known05 = !c.Enforced(RuleType05Receive)
	d.unknownOuterFraming = !c.Enforced(RuleTypeLayering)
	d.versionBit = !c.Enforced(RuleTypeNoVersion)
	d.unknownFatal = !c.Enforced(RuleUnkNoCrash)
	d.unknownStops = !c.Enforced(RuleUnkContinue)
	d.unknownNoCRC = !c.Enforced(RuleUnkCRC)
	d.unknownNoTrailer = !c.Enforced(RuleUnkSkipByLength)
	d.unknownWalked = d.unknownWalked || !c.Enforced(RuleUnkNested)
	d.cap32 = !c.Enforced(RuleNestIterative)
	d.ignoreBudget = !c.Enforced(RuleNestBudget)
	d.emptyPL1Invalid = d.emptyPL1Invalid || !c.Enforced(RuleNestEmpty)
	d.popNoTrailer = !c.Enforced(RuleCtxWire)
	d.ropeOneView = !c.Enforced(RuleCtxRope)
	d.ropeSplitHeader = !c.Enforced(RuleCtxAgree)
	d.streamNoWait = !c.Enforced(RuleTruncStreamWait)
	d.zeroFill = !c.Enforced(RuleTruncNoOverrun)
	d.crcBeforeLength = !c.Enforced(RuleTruncLengthFirst)
	d.default16e6 = !c.Enforced(RuleTruncMaxDefault)
	d.streamEndDown = !c.Enforced(RuleTruncEmptyStream)
	d.zeroLenDropped = !c.Enforced(RuleExStatusOK)
	d.align4 = !c.Enforced(RuleExBool)
	d.tsBeforePayload = !c.Enforced(RuleExU32Rel)
	d.foldXor = !c.Enforced(RuleExU32AbsCRC)
	d.padPayload4 = !c.Enforced(RuleExValueCRC)
	d.childPayloadsOnly = !c.Enforced(RuleExPath)
	d.count16 = !c.Enforced(RuleExLL1)
	d.stickyVariants = !c.Enforced(RuleIopAcceptAll)
	d.zeroKnown = !c.Enforced(RuleTypeZero)
	// Named mutants (mutants.go).
	d.covNoTS = c.Mutated(MutCRCWithoutTS)
	d.covFromType = c.Mutated(MutCRCOverHeader)
	d.lenBE = c.Mutated(MutLengthBigEndian)
	d.reservedTopOnly = c.Mutated(MutReservedTopOnly)
	d.anchorDirectParent = c.Mutated(MutRelTSDirectParent)
	d.dgramTruncAsDown = c.Mutated(MutTruncDatagramAsDown)
	d.maxOffByOne = c.Mutated(MutMaxTLVOffByOne)
	d.budgetOffByOne = c.Mutated(MutBudgetOffByOne)
	d.skipStructuredCRC = c.Mutated(MutCRCStructuredSkipped)
	d.streamDownAsTrunc = d.streamDownAsTrunc || c.Mutated(MutStreamDownAsTruncated)
	d.crc32BE = c.Mutated(MutCRC32ByteSwapped)
	d.smallestRangeOff = c.Mutated(MutSmallestRangeOffByOne)
	d.encodeLenTrailer = c.Mutated(MutEncodeLengthWithTrailer)
	// The CRC parameters (§CRC, LT-CRC-01..08): each fault is a CRC of
	// another catalogue entry, the mistake of one that ignores the
	// parameter the rule names.
	for _, f := range []struct {
		on  bool
		set func(*crcParams)
		p   *crcParams
	}{
		{!c.Enforced(RuleCRC32Poly), func(p *crcParams) { p.poly = 0x04C11DB7 }, &d.crc32},       // CRC-32 (IEEE), check 0xCBF43926
		{!c.Enforced(RuleCRC32Init), func(p *crcParams) { p.init = 0 }, &d.crc32},                // init 0
		{!c.Enforced(RuleCRC32XorOut), func(p *crcParams) { p.xorout = 0 }, &d.crc32},            // no final XOR, check 0x1CF96D7C
		{!c.Enforced(RuleCRC32Check), func(p *crcParams) { p.refl = false }, &d.crc32},           // Castagnoli MSB first
		{!c.Enforced(RuleCRC16Poly), func(p *crcParams) { p.refl = true }, &d.crc16},             // CRC-16/MCRF4XX, check 0x6F91
		{!c.Enforced(RuleCRC16Init), func(p *crcParams) { p.init = 0x1D0F }, &d.crc16},           // CRC-16/SPI-FUJITSU (AUG-CCITT), check 0xE5CC
		{!c.Enforced(RuleCRC16XorOut), func(p *crcParams) { p.xorout = 0xFFFF }, &d.crc16},       // CRC-16/GENIBUS, check 0xD64E
		{!c.Enforced(RuleCRC16Check), func(p *crcParams) { p.init, p.refl = 0, true }, &d.crc16}, // CRC-16/KERMIT, check 0x2189
		{c.Mutated(MutCRC16XModem), func(p *crcParams) { p.init = 0 }, &d.crc16},                 // CRC-16/XMODEM, check 0x31C3
	} {
		if f.on {
			f.set(f.p)
		}
	}
	sf := readShapeFaults(c)
	for i := range d.shapes {
		d.shapes[i] = d.shapeOf(Opt(i), &sf)
	}
	return &d
}

// shapeFaults are the faults that change the layout of some opt values.
type shapeFaults struct {
	llIgnored, ll1U16, crIgnored, cwIgnored bool
	cwAlone, tfInverted, tfIgnored, tfAlone bool
	rows                                    []sizeRowFault // the size-table rows switched off
}

// sizeRowFault is a row of §Frame size summary and its fault: that one
// configuration sized wrong (LT-SIZE-01..10).
type sizeRowFault struct {
	opt Opt
	fix func(*shape)
}

func sizeRowFaults(c rules.Checks) []sizeRowFault {
	var rows []sizeRowFault
	for _, r := range []struct {
		on  bool
		opt Opt
		fix func(*shape)
	}{
		{!c.Enforced(RuleSizeMinimum), 0, func(s *shape) { s.h = 6 }},                                // the previous revision's 6-byte minimum
		{!c.Enforced(RuleSizeCRC16), OptCR | OptCW, func(s *shape) { s.crc = 4 }},                    // 8 instead of 6
		{!c.Enforced(RuleSizeCRC32), OptCR, func(s *shape) { s.crc = 2 }},                            // 6 instead of 8
		{!c.Enforced(RuleSizeRel), OptTS | OptTF, func(s *shape) { s.ts = 8 }},                       // 12 instead of 8
		{!c.Enforced(RuleSizeRelCRC16), OptTS | OptTF | OptCR | OptCW, func(s *shape) { s.crc = 4 }}, // 12 instead of 10
		{!c.Enforced(RuleSizeRelCRC32), OptTS | OptTF | OptCR, func(s *shape) { s.crc = 2 }},         // 10 instead of 12
		{!c.Enforced(RuleSizeAbs), OptTS, func(s *shape) { s.ts = 4 }},                               // 8 instead of 12
		{!c.Enforced(RuleSizeAbsCRC16), OptTS | OptCR | OptCW, func(s *shape) { s.crc = 4 }},         // 16 instead of 14
		{!c.Enforced(RuleSizeAbsCRC32), OptTS | OptCR, func(s *shape) { s.crc = 2 }},                 // 14 instead of 16
		{!c.Enforced(RuleSizeLL1AbsCRC2), OptLL | OptTS | OptCR, func(s *shape) { s.h = 4 }},         // 16 instead of 18
	} {
		if r.on {
			rows = append(rows, sizeRowFault{r.opt, r.fix})
		}
	}
	return rows
}

func readShapeFaults(c rules.Checks) shapeFaults {
	return shapeFaults{llIgnored: !c.Enforced(RuleOptLL), ll1U16: !c.Enforced(RuleFrameLen32), crIgnored: !c.Enforced(RuleOptCR),
		cwIgnored: !c.Enforced(RuleOptCW), cwAlone: !c.Enforced(RuleOptCWIgnored), tfInverted: !c.Enforced(RuleOptTF),
		tfIgnored: c.Mutated(MutTFIgnored), tfAlone: !c.Enforced(RuleOptTFIgnored), rows: sizeRowFaults(c)}
}

// shapeOf is the layout of opt o under the option-bit, size-table and
// version faults.
func (d *dialect) shapeOf(o Opt, f *shapeFaults) shape {
	s := stdDialect.shapes[o]
	ll, cr, cw, ts, tf := o.Has(OptLL), o.Has(OptCR), o.Has(OptCW), o.Has(OptTS), o.Has(OptTF)
	switch {
	case f.llIgnored: // LL ignored: always a u16 length and H = 4
		s.h, s.len32 = 4, false
	case f.ll1U16 && ll: // LL=1: the length read as a u16
		s.len32 = false
	case d.versionBit && o.Has(OptReserved7): // VR set: the previous revision's u32 header
		s.h, s.len32 = 6, true
	}
	switch {
	case f.crIgnored: // CR ignored: no CRC trailer
		s.crc = 0
	case f.cwIgnored && cr: // CW ignored: always CRC-32C
		s.crc, s.cw16 = 4, false
	case f.cwAlone && cw && !cr: // CW alone taken for a CRC-16 trailer
		s.crc, s.cw16 = 2, true
	}
	switch {
	case f.tfInverted && ts: // TF inverted: 0 relative, 1 absolute
		s.ts, s.rel = 8, false
		if !tf {
			s.ts, s.rel = 4, true
		}
	case f.tfIgnored && ts: // TF ignored: every stamp absolute
		s.ts, s.rel = 8, false
	case f.tfAlone && tf && !ts: // TF alone taken for a relative stamp
		s.ts, s.rel = 4, true
	}
	row := o & (OptLL | OptTS | OptTF | OptCR | OptCW)
	for _, r := range f.rows {
		if row == r.opt {
			r.fix(&s)
		}
	}
	return s
}

// known reports whether the dialect walks type t under PL=1 and accepts it
// as an outer TLV.
func (d *dialect) known(t uint8) bool {
	if d.std {
		return Known(t)
	}
	switch {
	case d.known05 && t == 0x05:
		return true
	case d.core1F && t >= 0x0E && t <= 0x1F:
		return true
	case d.namedOnly && ClassOf(t) == ClassCore:
		return NameOf(t) != ""
	case d.userUnknown && ClassOf(t) == ClassUser:
		return false // fault: every code outside the core table taken for an extension
	case d.zeroKnown && t == 0x00:
		return true // fault of LT-TYPE-01: the sentinel taken for a type
	}
	return Known(t)
}

// walks reports whether a frame of type t with opt o is parsed into
// children: PL=1 and a known type (LT-OPT-04, LT-UNK-06).
func (d *dialect) walks(t uint8, o Opt, top bool) bool {
	if !o.Has(OptPL) {
		return false
	}
	if d.std {
		return Known(t)
	}
	switch {
	case d.userOpaque && ClassOf(t) == ClassUser:
		return false
	case d.unknownWalked && !top:
		return true
	}
	return d.known(t)
}

// place is where the parts of a frame at off with header h lie: payload
// [ps, pe), trailer_ts at tsAt, trailer_crc at crcAt, the frame's end.
type place struct {
	ps, pe, tsAt, crcAt, end int64
}

func (d *dialect) place(off int64, h Header) place {
	s := d.shapes[h.Opt]
	var p place
	p.ps = off + int64(s.h)
	p.pe = p.ps + int64(h.Length)
	p.tsAt = p.pe
	p.crcAt = p.pe + int64(s.ts)
	p.end = p.crcAt + int64(s.crc)
	if d.std {
		return p
	}
	switch {
	case d.tsBeforePayload && s.ts > 0 && s.rel:
		p.tsAt = p.ps
		p.ps += int64(s.ts)
		p.pe += int64(s.ts)
	case d.crcBeforeTS:
		p.crcAt, p.tsAt = p.pe, p.pe+int64(s.crc)
	case d.crc32AtPayloadEnd && s.crc > 0 && !s.cw16, d.crc16AtPayloadEnd && s.crc > 0 && s.cw16:
		p.crcAt = p.pe
	}
	if d.extentNoTrailer || (d.unknownNoTrailer && !d.known(h.Type)) {
		p.end = p.pe
	}
	if d.align4 {
		p.end = off + (p.end-off+3)&^3
	}
	return p
}

// extent is the size of a frame with header h.
func (d *dialect) extent(h Header) uint64 {
	if d.std {
		return h.FrameSize()
	}
	return uint64(d.place(0, h).end)
}

// maxLen is the MAX_TLV_BYTES the dialect applies under lim.
func (d *dialect) maxLen(lim Limits) uint64 {
	if d.default16e6 && lim.MaxTLVBytes == 0 {
		return 16_000_000
	}
	return lim.maxLen()
}

// budget is the work-stack budget the dialect applies under lim.
func (d *dialect) budget(lim Limits, c rules.Checks) int {
	switch {
	case d.cap32:
		return 32 // the former fixed cap of a recursive parser
	case d.ignoreBudget:
		return DefaultMaxOpenLevels
	}
	return lim.budget(c)
}

// u16, u32, u64 read a field in the dialect's byte order.
func (d *dialect) u16(b []byte) uint16 {
	if d.allBE {
		return binary.BigEndian.Uint16(b)
	}
	return binary.LittleEndian.Uint16(b)
}

func (d *dialect) u32(b []byte) uint32 {
	if d.allBE {
		return binary.BigEndian.Uint32(b)
	}
	return binary.LittleEndian.Uint32(b)
}

func (d *dialect) u64(b []byte) uint64 {
	v := binary.LittleEndian.Uint64(b)
	if d.allBE {
		v = binary.BigEndian.Uint64(b)
	}
	if d.absHalvesSwapped {
		v = v<<32 | v>>32
	}
	return v
}

// crcField reads a trailer_crc of width w (2 or 4, or a faulted width up
// to 4) from b.
func (d *dialect) crcField(b []byte, w uint8, cw16 bool) uint32 {
	var f [4]byte
	copy(f[:], b[:w])
	if d.std {
		return readCRC(f[:], cw16)
	}
	switch {
	case d.allBE && w == 2:
		return uint32(binary.BigEndian.Uint16(f[:]))
	case d.allBE || (d.crc32BE && !cw16):
		return binary.BigEndian.Uint32(f[:]) >> (32 - 8*uint(w))
	case w == 2:
		return uint32(binary.LittleEndian.Uint16(f[:]))
	}
	return binary.LittleEndian.Uint32(f[:])
}

// crcOf is the CRC of b in the width cw16 selects.
func (d *dialect) crcOf(cw16 bool, b []byte) uint32 {
	p := d.crc32
	if cw16 {
		p = d.crc16
	}
	switch {
	case p == paramsCRC32C:
		return CRC32C(b)
	case p == paramsCRC16:
		return uint32(CRC16(b))
	}
	return p.sum(b)
}

// frameCRC computes, outside the lazy walk, the CRC a receiver of this
// dialect compares with the trailer of the frame at off: over the payload
// then the trailer_ts (LT-CRC-11), with the dialect's coverage mistakes.
// read returns the bytes [a, b) of the source, clamped to it.
func (d *dialect) frameCRC(c rules.Checks, read func(a, b int64) []byte, off int64, s shape, p place, walked bool) uint32 {
	var head []byte
	switch {
	case d.covFromType:
		head = read(off, p.ps)
	case d.covFromLength:
		head = read(off+2, p.ps)
	}
	payload := read(p.ps, p.pe)
	if d.childPayloadsOnly && walked {
		payload = d.childPayloads(c, payload)
	}
	if d.padPayload4 && len(payload)%4 != 0 {
		payload = append(payload, make([]byte, 4-len(payload)%4)...)
	}
	ts := read(p.tsAt, p.tsAt+int64(s.ts))
	if d.covNoTS || (d.sendCRCPayloadOnly && d.sending) {
		ts = nil
	}
	if d.foldXor && len(ts) > 0 {
		return d.crcOf(s.cw16, cat(head, payload)) ^ d.crcOf(s.cw16, ts)
	}
	cov := cat(head, payload, ts)
	if d.covTSFirst {
		cov = cat(head, ts, payload)
	}
	if d.count16 {
		cov = cov[:len(cov)&0xFFFF]
	}
	return d.crcOf(s.cw16, cov)
}

// childPayloads is the concatenation of the payloads of the child TLVs in
// b, as far as they frame.
func (d *dialect) childPayloads(c rules.Checks, b []byte) []byte {
	var out []byte
	for pos := int64(0); pos+4 <= int64(len(b)); {
		var hb [6]byte
		n := copy(hb[:], b[pos:])
		h, need, err := d.checkHeader(c, &hb, n, 0, MaxLen32, true)
		if err != nil || need > 0 {
			break
		}
		p := d.place(pos, h)
		if p.end > int64(len(b)) || p.end <= pos {
			break
		}
		out = append(out, b[p.ps:p.pe]...)
		pos = p.end
	}
	return out
}

// cat concatenates byte slices into a new one.
func cat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// faultErr is the rejection a faulted dialect makes where libtracer-01
// makes none: it carries the rule whose fault it is.
func faultErr(id rules.ID, code string, off int64, detail string) error {
	return &rules.Violation{Rule: id, Code: code, Offset: off, Detail: detail}
}
