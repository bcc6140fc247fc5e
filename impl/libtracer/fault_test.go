package libtracer

import (
	"bytes"
	"io"
	"regexp"
	"testing"

	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/internal/fault"
	"github.com/threespec/conformance/internal/reading"
)

// With the rule of each rejected input switched off, every parser carries
// on without panicking or reading out of bounds, and no longer reports that
// rule: the suite can tell an implementation that skips it.
func TestFaultsCarryOn(t *testing.T) {
	t.Parallel()
	for _, c := range rejectCases(t) {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ch := faultChecks(string(c.rule))
			if v := DecodeWith(ch, c.in, c.lim).FirstError(); v != nil && v.Rule == c.rule {
				t.Fatalf("%s switched off, still reported: %v", c.rule, v)
			}
			ValidateWith(ch, c.in, c.lim)
			for _, cuts := range cutSets(len(c.in))[:min(len(cutSets(len(c.in))), 50)] {
				DecodeRopeWith(ch, NewRope(viewsOf(c.in, cuts, true)...), c.lim)
			}
			d := NewStreamDecoderWith(ch, bytes.NewReader(c.in), c.lim)
			for range 100 {
				if _, err := d.Next(); err == io.EOF || (err != nil && asViolation(err) == nil) {
					break
				}
			}
		})
	}
}

// Construction rules give other bytes when switched off.
func TestConstructionFaults(t *testing.T) {
	t.Parallel()
	tree := []Frame{{Type: 1, Opt: OptCR, Payload: spb}}
	good, _ := EncodeWith(rules.Checks{}, tree)
	bad, err := EncodeWith(faultChecks(string(RuleIopSmallest)), tree)
	if err != nil || bytes.Equal(good, bad) {
		t.Fatalf("LT-IOP-02 off: %x, %v", bad, err)
	}
	wire := hx(t, "01 10 05 00 aa bb cc dd ee b6 c9 12 23")
	good, _ = StripWith(rules.Checks{}, wire, Limits{})
	bad, err = StripWith(faultChecks(string(RuleLifeAtRest)), wire, Limits{})
	if err != nil || bytes.Equal(good, bad) {
		t.Fatalf("LT-LIFE-01 off: %x, %v", bad, err)
	}
}

// faultChecks are the Checks that switch off the given rules or switch on
// the given mutants.
func faultChecks(ids ...string) rules.Checks { return rules.Checks{Faults: fault.Of(ids...)} }

// faultIDs are every libtracer rule and mutant whose fault the proof
// injects.
func faultIDs() []string {
	var ids []string
	for _, r := range Catalog() {
		if r.Untestable == "" {
			ids = append(ids, string(r.ID))
		}
	}
	for _, m := range Mutants() {
		ids = append(ids, string(m.ID))
	}
	return ids
}

// Under every fault and every mutant, every API carries on over the whole
// test corpus (and its frames cut short, lengthened and cut into views)
// without panicking or reading out of bounds: a fault dialect reads other
// widths and places, so this is where an overrun would show.
func TestEveryFaultCarriesOn(t *testing.T) {
	t.Parallel()
	ins, lims := corpus(t)
	var extra [][]byte
	for _, in := range ins {
		if len(in) > 1 {
			extra = append(extra, in[:len(in)-1], in[:len(in)/2], cat(in, []byte{0, 0, 0}), cat(in, in))
		}
	}
	clock := func() uint64 { return T0 }
	for _, id := range faultIDs() {
		t.Run(id, func(t *testing.T) {
			t.Parallel()
			c := faultChecks(id)
			all := append(append([][]byte(nil), ins...), extra...)
			for i, in := range all {
				lim := Limits{}
				if i < len(lims) {
					lim = lims[i]
				}
				r := DecodeWith(c, in, lim)
				ValidateWith(c, in, lim)
				if len(in) > 2 {
					DecodeRopeWith(c, NewRope(in[:1], in[1:len(in)/2], nil, in[len(in)/2:]), lim)
				}
				d := NewStreamDecoderWith(c, bytes.NewReader(in), lim)
				for range 64 {
					if _, err := d.Next(); err != nil {
						break
					}
				}
				if r.Err == nil && len(r.Frames) > 0 {
					EncodeWith(c, r.Frames)
					EncodeExactWith(c, r.Frames)
				}
				if len(r.Frames) == 1 && r.Frames[0].Offset == 0 {
					StripWith(c, in, lim)
					ForwardWith(c, in, lim, Trailer{Timestamp: true, CRC: TrailerCRC16}, clock)
				}
			}
		})
	}
}

// The dialect of a fault differs from libtracer-01's (a fault that changed
// nothing could not be caught), is built only under a libtracer fault, and
// libtracer-01's is the one every parse uses without faults: the standard
// walk then has no misreading.
func TestDialects(t *testing.T) {
	t.Parallel()
	for _, c := range []rules.Checks{{}, faultChecks("LACE-FIELD-03"), {Readings: reading.Of(map[string]string{"HR-READ-03": "x"})}} {
		if d := dialectOf(c); d != &stdDialect {
			t.Errorf("%v: the dialect is not stdDialect", c)
		}
		if newMisreading(c) != nil {
			t.Errorf("%v: a misreading without a libtracer fault", c)
		}
	}
	if newMisreading(rules.Checks{Readings: reading.Of(map[string]string{ReadStampWrap: AltSaturate})}) == nil {
		t.Error("a libtracer reading's alternative has no misreading")
	}
	std := stdDialect
	for _, id := range faultIDs() {
		d := dialectOf(faultChecks(id))
		if d == &stdDialect || d.std {
			t.Errorf("%s: no fault dialect", id)
			continue
		}
		c := *d
		c.std = true
		if c == std && !construction[id] {
			t.Errorf("%s: the fault dialect is libtracer-01's", id)
		}
	}
}

// construction are the faults that are no dialect difference but a
// branch of the encoder's or Strip's own (Checks.Enforced).
var construction = map[string]bool{string(RuleIopSmallest): true, string(RuleNestProtocolDepth): true, string(RuleOptReservedFrozen): true,
	string(RuleType05NoSend): true, string(RuleLenMax16): true, string(RuleOptPL): true, string(RuleOptTS): true,
	string(RuleTypeZero): true, string(RuleOptReserved7): true, string(RuleOptReserved0): true, string(RuleCRCVerify32): true,
	string(RuleCRCVerify16): true, string(RuleTSNoAnchor): true, string(RuleUnkOuter): true, string(RuleNestTooDeep): true,
	string(RuleNestExactFill): true, string(RuleTruncStreamDown): true, string(RuleTruncDatagram): true,
	string(RuleTruncMaxTLV): true, string(RuleTruncEmptyDatagram): true}

// The CRC parameter sets of the CRC faults are the catalogue entries their
// comments name: their check values ("123456789") are the published ones
// (the RevEng CRC catalogue), not computed here.
func TestFaultCRCParameters(t *testing.T) {
	t.Parallel()
	check := []byte("123456789")
	for _, c := range []struct {
		name string
		p    crcParams
		want uint32
	}{
		{"CRC-32/ISCSI (CRC-32C)", paramsCRC32C, 0xE3069283},
		{"CRC-16/IBM-3740 (CCITT-FALSE)", paramsCRC16, 0x29B1},
		{"CRC-32/ISO-HDLC", crcParams{width: 32, poly: 0x04C11DB7, init: 0xFFFFFFFF, refl: true, xorout: 0xFFFFFFFF}, 0xCBF43926},
		{"CRC-32C without the final XOR", crcParams{width: 32, poly: 0x1EDC6F41, init: 0xFFFFFFFF, refl: true}, 0xE3069283 ^ 0xFFFFFFFF},
		{"CRC-16/MCRF4XX", crcParams{width: 16, poly: 0x1021, init: 0xFFFF, refl: true}, 0x6F91},
		{"CRC-16/SPI-FUJITSU", crcParams{width: 16, poly: 0x1021, init: 0x1D0F}, 0xE5CC},
		{"CRC-16/GENIBUS", crcParams{width: 16, poly: 0x1021, init: 0xFFFF, xorout: 0xFFFF}, 0xD64E},
		{"CRC-16/KERMIT", crcParams{width: 16, poly: 0x1021, refl: true}, 0x2189},
		{"CRC-16/XMODEM", crcParams{width: 16, poly: 0x1021}, 0x31C3},
	} {
		if got := c.p.sum(check); got != c.want {
			t.Errorf("%s: check 0x%X, want 0x%X", c.name, got, c.want)
		}
	}
	// The faults' own parameter sets: each differs from the spec's on the
	// check string.
	for _, id := range []rules.ID{RuleCRC32Poly, RuleCRC32Init, RuleCRC32XorOut, RuleCRC32Check, RuleCRC16Poly, RuleCRC16Init, RuleCRC16XorOut, RuleCRC16Check, MutCRC16XModem} {
		d := dialectOf(faultChecks(string(id)))
		if d.crcOf(false, check) == 0xE3069283 && d.crcOf(true, check) == 0x29B1 {
			t.Errorf("%s: the fault's CRCs give the spec's check values", id)
		}
	}
}

// Mutant IDs are MUT-LT-<WORDS>, unique, and none is a rule ID.
func TestMutants(t *testing.T) {
	t.Parallel()
	form := regexp.MustCompile(`^MUT-LT-[A-Z0-9]+(-[A-Z0-9]+)*$`)
	seen := map[rules.ID]bool{}
	for _, r := range Catalog() {
		seen[r.ID] = true
	}
	for _, m := range Mutants() {
		if !form.MatchString(string(m.ID)) || m.Spec != "libtracer" || m.Text == "" || seen[m.ID] {
			t.Errorf("malformed or repeated mutant %+v", m)
		}
		seen[m.ID] = true
	}
	if len(Mutants()) < 10 {
		t.Errorf("%d mutants, the issue asks at least 10", len(Mutants()))
	}
}
