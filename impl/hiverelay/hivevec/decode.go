package hivevec

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/threespec/conformance/impl/cenc"
	hr "github.com/threespec/conformance/impl/hiverelay"
	"github.com/threespec/conformance/impl/rules"
)

// u64Boundaries are the values every fixed u64 field is tried at (issue 26,
// item 7): 2^53-1, the largest JavaScript safe integer, 2^53, 2^53+1 and
// 2^64-1. Whether the values above 2^53-1 decode is reading HR-READ-12.
var u64Boundaries = []uint64{maxSafe, two53, two53 + 1, u64Max}

// u64Name spells a boundary value as a power of two.
func u64Name(x uint64) string {
	switch x {
	case maxSafe:
		return "2^53-1"
	case two53:
		return "2^53"
	case two53 + 1:
		return "2^53+1"
	case u64Max:
		return "2^64-1"
	}
	return fmt.Sprint(x)
}

// Targeted hiverelay.decode vectors of the five non-blob records: both
// sides of every bound of sections 2 and 3, and the forms that isolate a
// compact uint's own rules from the range and truncation rules. The order in
// which a decoder reports overlapping failures is the reference's
// (docs/hiverelay.md, "Which failure wins"): a compact uint's overlong form,
// then its 2^53-1 bound, then the field's range rule, then truncation.

const (
	u64Max = 1<<64 - 1
	two53  = 1 << 53
)

// ids lists rule IDs for a meta.
func ids(r ...rules.ID) []rules.ID { return r }

func (g *gen) pos(schema, name string, b []byte, rs []rules.ID, tags []string, comment string) {
	g.accept(name, decoder(schema), file(b), meta{rules: rs, tags: tags, comment: comment})
}

func (g *gen) neg(schema, name string, b []byte, rule rules.ID, tags []string, comment string) {
	g.reject(name, decoder(schema), file(b), rule, tags, comment)
}

var boundary = []string{tagBoundary}

// side adds a boundary vector on one side of a bound: accepted when inside
// (naming rule and the extra rules it shows), rejected by rule otherwise.
func (g *gen) side(schema, name string, b []byte, inside bool, rule rules.ID, comment string, extra ...rules.ID) {
	if inside {
		g.pos(schema, name, b, append(ids(rule), extra...), boundary, comment)
	} else {
		g.neg(schema, name, b, rule, boundary, comment)
	}
}

// oneByte returns 32 zero bytes but for byte at, which is v.
func oneByte(at int, v byte) [32]byte {
	var k [32]byte
	k[at] = v
	return k
}

func (g *gen) records() error {
	g.readCaps()
	g.writeCaps()
	g.checkpoints()
	g.frames()
	g.blindCores()
	return nil
}

func (g *gen) readCaps() {
	const s = hr.SchemaReadCellCapV1
	for _, c := range []byte{1, 3, 4, 5} {
		v := posReadCap()
		v.class = c
		g.pos(s, fmt.Sprintf("read-cell-cap-v1-size-class-%d", c), record(v.write), ids(hr.RuleRCapLayout, hr.RuleRCapSizeClass), boundary,
			fmt.Sprintf("the positive ReadCellCapV1 with size class %d (classes 1..5 are valid)", c))
	}
	v := posReadCap()
	v.expected = nil
	g.pos(s, "read-cell-cap-v1-no-expected-hash", record(v.write), ids(hr.RuleRCapLayout, cenc.RuleOptionalTag), boundary,
		"the positive ReadCellCapV1 with its expected hash absent: optional tag 0 and nothing after it")
	v = posReadCap()
	v.relay, v.slot, v.cell = oneByte(31, 1), oneByte(0, 1), oneByte(16, 0x80)
	h := oneByte(31, 0xff)
	v.expected = &h
	g.pos(s, "read-cell-cap-v1-keys-one-nonzero-byte", record(v.write),
		ids(hr.RuleRCapRelayKey, hr.RuleRCapStorageSlot, hr.RuleRCapCellKey, hr.RuleRCapExpectedHash), boundary,
		"every nonzero field holds a single nonzero byte (last, first, middle, last): one nonzero byte suffices")
}

func (g *gen) writeCaps() {
	const s = hr.SchemaWriteCellCapV1
	for _, e := range []uint32{0, 1<<32 - 1} {
		v := posWriteCap()
		v.epoch = e
		g.pos(s, fmt.Sprintf("write-cell-cap-v1-allocation-epoch-%d", e), record(v.write), ids(hr.RuleWCapLayout, cenc.RuleBigEndian), boundary,
			fmt.Sprintf("the positive WriteCellCapV1 with allocationEpoch %d (u32 big-endian)", e))
	}
	v := posWriteCap()
	v.create, v.renew, v.drop = oneByte(31, 1), oneByte(31, 2), oneByte(31, 3)
	g.pos(s, "write-cell-cap-v1-private-keys-differ-in-last-byte", record(v.write),
		ids(hr.RuleWCapDistinct, hr.RuleWCapCreateKey, hr.RuleWCapRenewKey, hr.RuleWCapDropKey), boundary,
		"private keys 00..01, 00..02 and 00..03: nonzero and pairwise distinct by one byte")
	v = posWriteCap()
	v.read = readCapFrom("write-cell-cap/read-cap", 5, true)
	g.pos(s, "write-cell-cap-v1-read-cap-with-expected-hash", record(v.write), ids(hr.RuleWCapLayout), nil,
		"the positive WriteCellCapV1 around a size-class-5 ReadCellCapV1 with an expected hash")
}

// capsFrom returns n sorted read capabilities from prefix p/<i>, of classes
// cycling through 1..5, with an expected hash on every even one.
func capsFrom(p string, n int) []readCap {
	caps := make([]readCap, n)
	for i := range caps {
		caps[i] = readCapFrom(p+"/"+strconv.Itoa(i), byte(i%5+1), i%2 == 0)
	}
	sortCaps(caps)
	return caps
}

// frontierFrom returns n sorted frontier entries from prefix p/<i>.
func frontierFrom(p string, n int) []frontierEntry {
	f := make([]frontierEntry, n)
	for i := range f {
		q := p + "/" + strconv.Itoa(i)
		f[i] = frontierEntry{chain: label32(q + "/chain-id"), sequence: uint64(i), frame: label32(q + "/frame-hash")}
	}
	sortFrontier(f)
	return f
}

// capsOfOneRelay returns two read capabilities from prefix p that share
// one relayPublicKey (p/relay-public-key), their storage slots sorted, or
// the wrong way round.
func capsOfOneRelay(p string, sorted bool) []readCap {
	caps := []readCap{readCapFrom(p+"/0", 1, false), readCapFrom(p+"/1", 3, true)}
	for i := range caps {
		caps[i].relay = label32(p + "/relay-public-key")
	}
	sortCaps(caps)
	if !sorted {
		caps[0], caps[1] = caps[1], caps[0]
	}
	return caps
}

// withField replaces the bytes of the field recorded at path by repl.
func withField(w *writer, path string, repl []byte) []byte {
	for _, f := range w.fields {
		if f.path == path {
			out := append([]byte(nil), w.b[:f.off]...)
			out = append(out, repl...)
			return append(out, w.b[f.off+f.n:]...)
		}
	}
	panic("hivevec: no field " + path)
}

func (g *gen) checkpoints() {
	const s = hr.SchemaOpaqueChainCheckpointV1
	base := posCheckpoint()
	v := base
	v.frontier, v.caps = base.frontier[:1], base.caps[:1]
	g.pos(s, "opaque-chain-checkpoint-v1-one-frontier-entry-one-snapshot-cap", record(v.write),
		ids(hr.RuleCkptFrontierCount, hr.RuleCkptCapsCount), boundary,
		"the smallest arrays: 1 frontier entry and 1 snapshot read capability")
	for _, n := range []int{0, 1024, 1025} {
		v := base
		v.frontier = frontierFrom("checkpoint/boundary/frontier", n)
		name := fmt.Sprintf("opaque-chain-checkpoint-v1-%d-frontier-entries", n)
		comment := fmt.Sprintf("%d sorted frontier entries (the bound is 1..1024), the positive's commitments and snapshot caps", n)
		if n == 1024 {
			comment += "; the count in the 0xfd form"
		}
		g.side(s, name, record(v.write), n == 1024, hr.RuleCkptFrontierCount, comment)
	}
	for _, n := range []int{0, 16, 17} {
		v := base
		v.caps = capsFrom("checkpoint/boundary/snapshot-read-cap", n)
		name := fmt.Sprintf("opaque-chain-checkpoint-v1-%d-snapshot-caps", n)
		comment := fmt.Sprintf("%d sorted snapshot read capabilities (the bound is 1..16) after the positive's frontier and commitments", n)
		g.side(s, name, record(v.write), n == 16, hr.RuleCkptCapsCount, comment)
	}
	for _, sorted := range []bool{true, false} {
		v := base
		v.caps = capsOfOneRelay("checkpoint/one-relay", sorted)
		name, comment := "opaque-chain-checkpoint-v1-snapshot-caps-one-relay-key", "two snapshot read capabilities of one relayPublicKey, sorted by storageSlot: the sort key is (relayPublicKey, storageSlot)"
		if !sorted {
			name, comment = name+"-slots-unsorted", "two snapshot read capabilities of one relayPublicKey whose storage slots sort the wrong way"
		}
		g.side(s, name, record(v.write), sorted, hr.RuleCkptCapsOrder, comment)
	}
	v = base
	v.frontier = append([]frontierEntry(nil), base.frontier...)
	for i := range v.frontier {
		v.frontier[i].sequence = u64Max - uint64(i)
	}
	g.pos(s, "opaque-chain-checkpoint-v1-frontier-sequences-near-max", record(v.write), ids(hr.RuleCkptLayout, cenc.RuleBigEndian), boundary,
		"frontier sequences 2^64-1, 2^64-2, 2^64-3 (u64 big-endian)")
	for _, x := range u64Boundaries {
		v := base
		v.frontier = append([]frontierEntry(nil), base.frontier...)
		v.frontier[0].sequence = x
		g.pos(s, fmt.Sprintf("opaque-chain-checkpoint-v1-frontier-sequence-%d", x), record(v.write), ids(hr.RuleCkptLayout, cenc.RuleBigEndian), boundary,
			fmt.Sprintf("frontier entry 0 at sequence %s (u64 big-endian; the safe-integer bound is reading HR-READ-12)", u64Name(x)))
	}

	w := encoded(base.write)
	for _, c := range []struct {
		v    uint64
		rule rules.ID
	}{{maxSafe, hr.RuleCkptFrontierCount}, {two53, cenc.RuleCompactSafe}, {u64Max, cenc.RuleCompactSafe}} {
		why := "the count is range-checked (1..1024) before the bytes it needs"
		if c.rule == cenc.RuleCompactSafe {
			why = "above 2^53-1, which the compact uint itself rejects before any range check"
		}
		g.neg(s, fmt.Sprintf("opaque-chain-checkpoint-v1-frontier-count-%d", c.v), withField(w, "coveredFrontier", compactForm(c.v, 0xff)), c.rule, boundary,
			fmt.Sprintf("frontier count %d in the 0xff form before the positive's 3 entries: %s", c.v, why))
	}
}

func (g *gen) frames() {
	const s = hr.SchemaOpaqueChainFrameV1
	gen := posGenesis()

	v := gen
	v.next = nil
	g.pos(s, "opaque-chain-frame-v1-genesis-no-next-caps", record(v.write), ids(hr.RuleFrameCapsCount), boundary,
		"the positive genesis frame with 0 next read capabilities (0..16)")
	for _, n := range []int{16, 17} {
		v := gen
		v.next = capsFrom("frame/boundary/next-read-cap", n)
		name := fmt.Sprintf("opaque-chain-frame-v1-genesis-%d-next-caps", n)
		comment := fmt.Sprintf("the positive genesis frame with %d sorted next read capabilities (0..16)", n)
		g.side(s, name, record(v.write), n == 16, hr.RuleFrameCapsCount, comment)
	}
	for _, n := range []int{252, 253, 256, 257} {
		v := gen
		v.payloads = make([][]byte, n)
		for i := range v.payloads {
			v.payloads[i] = []byte{}
		}
		name := fmt.Sprintf("opaque-chain-frame-v1-genesis-%d-empty-payloads", n)
		comment := fmt.Sprintf("the positive genesis frame with %d empty payloads (0..256)", n)
		switch n {
		case 252:
			comment += "; the largest one-byte count"
		case 253:
			comment += "; the smallest count in the 0xfd form"
		}
		g.side(s, name, record(v.write), n <= hr.MaxPayloads, hr.RuleFramePayloadCount, comment, cenc.RuleCompactForms)
	}
	v = gen
	v.payloads = nil
	g.neg(s, "opaque-chain-frame-v1-genesis-no-payload-no-checkpoint", record(v.write), hr.RuleFrameNotEmpty, boundary,
		"the positive genesis frame with no payload and no checkpoint: neither is present")
	v = gen
	cp := posCheckpoint()
	v.checkpoint = &cp
	g.pos(s, "opaque-chain-frame-v1-genesis-payloads-and-checkpoint", record(v.write), ids(hr.RuleFrameNotEmpty, hr.RuleFrameLayout), nil,
		"the positive genesis frame with the positive checkpoint added: payloads and a checkpoint together")
	v = gen
	v.payloads = nil
	v.checkpoint = &cp
	g.pos(s, "opaque-chain-frame-v1-genesis-checkpoint-only", record(v.write), ids(hr.RuleFrameNotEmpty, hr.RuleFrameGenesisNoPrev), boundary,
		"a genesis frame (sequence 0, no previous hash) with no payload and a checkpoint")
	v = gen
	v.next = capsOfOneRelay("frame/one-relay", true)
	g.pos(s, "opaque-chain-frame-v1-genesis-next-caps-one-relay-key", record(v.write), ids(hr.RuleFrameCapsOrder, hr.RuleFrameCapsDuplicate), boundary,
		"the positive genesis frame with two next read capabilities of one relayPublicKey, sorted by storageSlot")
	v = gen
	v.signature = [64]byte{}
	g.pos(s, "opaque-chain-frame-v1-genesis-zero-signature", record(v.write), ids(hr.RuleFrameHigherLevel), nil,
		"the positive genesis frame with a transport signature of 64 zero bytes, which no signature scheme verifies: section 3 makes signature verification a higher-level composition check, not the codec's")
	v = gen
	v.previous = lp("frame/boundary/previous-frame-hash")
	g.neg(s, "opaque-chain-frame-v1-genesis-with-previous-hash", record(v.write), hr.RuleFrameGenesisNoPrev, boundary,
		"the positive genesis frame (sequence 0) with a previous frame hash present")
	suc := posSuccessor()
	v = suc
	v.sequence = u64Max
	g.pos(s, "opaque-chain-frame-v1-successor-sequence-max", record(v.write), ids(hr.RuleFrameSuccessorPrev), boundary,
		"the positive successor frame at sequence 2^64-1, previous hash present")
	for _, x := range u64Boundaries[:3] {
		v := suc
		v.sequence = x
		g.pos(s, fmt.Sprintf("opaque-chain-frame-v1-successor-sequence-%d", x), record(v.write), ids(hr.RuleFrameSuccessorPrev), boundary,
			fmt.Sprintf("the positive successor frame at sequence %s, previous hash present (the safe-integer bound is reading HR-READ-12)", u64Name(x)))
	}
	v.previous = nil
	g.neg(s, "opaque-chain-frame-v1-successor-sequence-max-without-predecessor", record(v.write), hr.RuleFrameSuccessorPrev, boundary,
		"the positive successor frame at sequence 2^64-1 with previousFrameHash absent")
	v = suc
	var zero [32]byte
	v.previous = &zero
	g.pos(s, "opaque-chain-frame-v1-successor-zero-previous-hash", record(v.write), ids(hr.RuleFrameSuccessorPrev), []string{tagDecision},
		"a previous frame hash of 32 zero bytes is accepted: section 3 does not mark it nonzero (docs/hiverelay.md)")

	g.payloadLengths(gen)
}

// payloadLengths adds the payload-length boundaries: a genesis frame whose
// only payload has n bytes, around every compact-uint form and the 262144
// bound.
func (g *gen) payloadLengths(gen frame) {
	const s = hr.SchemaOpaqueChainFrameV1
	one := func(n int) frame {
		v := gen
		v.payloads = [][]byte{labelBytes("frame/boundary/payload", n)}
		return v
	}
	// A frame whose payload is n bytes of 0x5a, as a recipe: the bytes
	// before the payload, the payload, the bytes after it. lengthForm
	// replaces the payload's canonical length prefix.
	big := func(n int, lengthForm []byte) input {
		v := gen
		v.payloads = [][]byte{{}}
		w := encoded(v.write)
		var at int
		for _, f := range w.fields {
			if f.path == "opaquePayloads[0].payload.length" {
				at = f.off
			}
		}
		if lengthForm == nil {
			lengthForm = compact(uint64(n))
		}
		return g.recipe(hexPart(append(append([]byte(nil), w.b[:at]...), lengthForm...)), repeatPart(0x5a, n), hexPart(w.b[at+1:]))
	}
	for _, n := range []int{252, 253} {
		g.pos(s, fmt.Sprintf("opaque-chain-frame-v1-payload-%d-bytes", n), record(one(n).write), ids(hr.RuleFramePayloadLength, cenc.RuleCompactForms), boundary,
			fmt.Sprintf("one %d-byte payload: the length in the %s", n, map[int]string{252: "largest one-byte form", 253: "smallest 0xfd form (fd fd00)"}[n]))
	}
	for _, c := range []struct {
		n       int
		comment string
	}{
		{0xffff, "the largest 0xfd form (fd ffff)"},
		{0x10000, "the smallest 0xfe form (fe 00000100)"},
		{hr.MaxPayloadLength, "the largest payload allowed (262144 = 256 KiB)"},
	} {
		g.accept(fmt.Sprintf("opaque-chain-frame-v1-payload-%d-bytes", c.n), decoder(s), big(c.n, nil),
			meta{rules: ids(hr.RuleFramePayloadLength, cenc.RuleCompactForms), tags: boundary,
				comment: fmt.Sprintf("a genesis frame whose one payload is %d bytes of 0x5a: %s", c.n, c.comment)})
	}
	g.reject("opaque-chain-frame-v1-payload-262145-bytes", decoder(s), big(hr.MaxPayloadLength+1, nil), hr.RuleFramePayloadLength, boundary,
		"a complete genesis frame whose one payload is 262145 bytes of 0x5a, one over the bound")
	g.reject("opaque-chain-frame-v1-payload-65535-bytes-length-overlong-fe", decoder(s), big(0xffff, compactForm(0xffff, 0xfe)), cenc.RuleCompactOverlong, boundary,
		"a genesis frame with a 65535-byte payload whose length is written fe ffff0000, the overlong form of fd ffff")

	w := encoded(one(252).write)
	g.neg(s, "opaque-chain-frame-v1-payload-252-bytes-length-overlong-fd", withField(w, "opaquePayloads[0].payload.length", compactForm(252, 0xfd)),
		cenc.RuleCompactOverlong, boundary, "a 252-byte payload whose length is written fd fc00, the overlong form of fc")
	w = encoded(one(300).write)
	g.neg(s, "opaque-chain-frame-v1-payload-300-bytes-length-overlong-ff", withField(w, "opaquePayloads[0].payload.length", compactForm(300, 0xff)),
		cenc.RuleCompactOverlong, boundary, "a 300-byte payload whose length is written in the 0xff form, overlong for fd 2c01")

	// Lengths in front of the rest of a frame whose one payload was empty:
	// each fails at the length, before the bytes it would need.
	v := gen
	v.payloads = [][]byte{{}}
	w = encoded(v.write)
	for _, c := range []struct {
		val    uint64
		marker byte
		rule   rules.ID
		what   string
	}{
		{hr.MaxPayloadLength + 1, 0xfe, hr.RuleFramePayloadLength, "262145 (fe 01000400), range-checked before the bytes it needs"},
		{0xffffffff, 0xfe, hr.RuleFramePayloadLength, "2^32-1 (fe ffffffff), range-checked before the bytes it needs"},
		{0xffffffff, 0xff, cenc.RuleCompactOverlong, "2^32-1 in the 0xff form: overlong, reported before the range"},
		{1 << 32, 0xff, hr.RuleFramePayloadLength, "2^32 (ff 0000000001000000), range-checked before the bytes it needs"},
		{maxSafe, 0xff, hr.RuleFramePayloadLength, "2^53-1, range-checked before the bytes it needs"},
		{two53, 0xff, cenc.RuleCompactSafe, "2^53, above JavaScript's safe integer range"},
		{u64Max, 0xff, cenc.RuleCompactSafe, "2^64-1, above JavaScript's safe integer range"},
	} {
		name := fmt.Sprintf("opaque-chain-frame-v1-payload-length-%d", c.val)
		if c.marker != shortestMarker(c.val) {
			name += "-overlong-ff"
		}
		g.neg(s, name, withField(w, "opaquePayloads[0].payload.length", compactForm(c.val, c.marker)), c.rule, boundary,
			"a genesis frame whose one payload length is "+c.what)
	}
}

func (g *gen) blindCores() {
	const s = hr.SchemaBlindCoreReadCapV1
	base := posBlindCore()
	for _, n := range []int{0, 1, 252, 253, 4096, 4097} {
		v := base
		v.head = labelBytes("blind-core-read-cap/boundary/witnessed-signed-head", n)
		name := fmt.Sprintf("blind-core-read-cap-v1-head-%d-bytes", n)
		comment := fmt.Sprintf("a %d-byte witnessed signed head (1..4096)", n)
		g.side(s, name, record(v.write), n >= 1 && n <= hr.MaxSignedHead, hr.RuleCoreHeadLength, comment)
	}
	for _, x := range []uint64{0, u64Max} {
		v := base
		v.fork, v.length = x, x
		g.pos(s, fmt.Sprintf("blind-core-read-cap-v1-fork-and-length-%d", x), record(v.write), ids(hr.RuleCoreLayout, cenc.RuleBigEndian), boundary,
			fmt.Sprintf("witnessedFork and witnessedLength both %d (u64 big-endian)", x))
	}
	for _, x := range u64Boundaries {
		v := base
		v.fork = x
		g.pos(s, fmt.Sprintf("blind-core-read-cap-v1-witnessed-fork-%d", x), record(v.write), ids(hr.RuleCoreLayout, cenc.RuleBigEndian), boundary,
			fmt.Sprintf("witnessedFork %s (u64 big-endian; the safe-integer bound is reading HR-READ-12)", u64Name(x)))
		v = base
		v.length = x
		g.pos(s, fmt.Sprintf("blind-core-read-cap-v1-witnessed-length-%d", x), record(v.write), ids(hr.RuleCoreLayout, cenc.RuleBigEndian), boundary,
			fmt.Sprintf("witnessedLength %s (u64 big-endian; the safe-integer bound is reading HR-READ-12)", u64Name(x)))
	}
	w := encoded(base.write)
	g.neg(s, "blind-core-read-cap-v1-head-length-9007199254740991", withField(w, "witnessedSignedHead.length", compactForm(maxSafe, 0xff)),
		hr.RuleCoreHeadLength, boundary, "head length 2^53-1 before the positive's 300-byte head: range-checked (1..4096) before the bytes it needs")
	g.neg(s, "blind-core-read-cap-v1-head-length-9007199254740992", withField(w, "witnessedSignedHead.length", compactForm(two53, 0xff)),
		cenc.RuleCompactSafe, boundary, "head length 2^53 before the positive's 300-byte head: above JavaScript's safe integer range")
	// The same lengths with nothing after them: the range is checked
	// before the bytes the length needs (docs/hiverelay.md, "Which failure
	// wins"), so these fail by the range rule, not by truncation.
	var at int
	for _, f := range w.fields {
		if f.path == "witnessedSignedHead.length" {
			at = f.off
		}
	}
	for _, c := range []struct {
		v    uint64
		rule rules.ID
	}{{hr.MaxSignedHead + 1, hr.RuleCoreHeadLength}, {maxSafe, hr.RuleCoreHeadLength}, {two53, cenc.RuleCompactSafe}} {
		g.neg(s, fmt.Sprintf("blind-core-read-cap-v1-head-length-%d-at-end", c.v), append(bytes.Clone(w.b[:at]), compact(c.v)...), c.rule, boundary,
			fmt.Sprintf("the positive's fields up to a head length of %d and nothing after it: %s, not HR-CENC-11", c.v, c.rule))
	}
}
