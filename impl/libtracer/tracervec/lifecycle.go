package tracervec

import (
	"encoding/base64"
	"encoding/binary"
	"strconv"
)

// The in-memory walk over a rope of views (LT-CTX-02, LT-CTX-03) and the
// trailer lifecycle (LT-LIFE-01..06, LT-TS-06), reached through the decode
// arguments views, strip and forward (docs/libtracer.md "In the testee
// protocol").

// forwardArg is the forward argument: a fresh absolute trailer_ts (when TS
// is set) and a CRC of width CRC (32, 16, 0).
type forwardArg struct {
	TS  *string `json:"ts,omitempty"`
	CRC int     `json:"crc"`
}

func fwd(ts *uint64, crc int) *forwardArg {
	f := &forwardArg{CRC: crc}
	if ts != nil {
		s := strconv.FormatUint(*ts, 10)
		f.TS = &s
	}
	return f
}

func u64p(v uint64) *uint64 { return &v }

// atRest is the at-rest form of the top-level frame e of in: its header
// with TS and CR cleared, then its payload, byte for byte (libtracer-01
// §Append-only-at-egress; docs/DECISIONS.md: the TS and CR bits go with the
// trailer; TF and CW stay as they were).
func atRest(in []byte, e flat) []byte {
	n := int(e.offset) + hdrSize(e.opt) + int(e.length)
	out := append([]byte(nil), in[e.offset:n]...)
	out[1] &^= bitTS | bitCR
	return out
}

// resent is a stored frame sent again with a fresh trailer (a forwarder or
// a replay): TS, TF, CR and CW set for the new trailer, an absolute stamp,
// and the CRC over payload then stamp.
func resent(stored []byte, f *forwardArg) []byte {
	out := append([]byte(nil), stored...)
	opt := out[1] &^ (bitTS | bitTF | bitCR | bitCW)
	var ts []byte
	if f.TS != nil {
		t, err := strconv.ParseUint(*f.TS, 10, 64)
		if err != nil {
			panic(err) // the generator writes the decimal itself
		}
		opt |= bitTS
		ts = binary.LittleEndian.AppendUint64(nil, t)
	}
	switch f.CRC {
	case 32:
		opt |= bitCR
	case 16:
		opt |= bitCR | bitCW
	}
	out[1] = opt
	payload := out[hdrSize(opt):]
	cov := append(append([]byte(nil), payload...), ts...)
	out = append(out, ts...)
	switch f.CRC {
	case 32:
		out = binary.LittleEndian.AppendUint32(out, crc32c(cov))
	case 16:
		out = binary.LittleEndian.AppendUint16(out, crc16(cov))
	}
	return out
}

// lifecycleResult adds "stored" and "forwarded" to an accepted decode's
// expected result when a asks for them.
func lifecycleResult(res map[string]any, in []byte, frames []flat, a decodeArgs) {
	if !a.Strip && a.Forward == nil {
		return
	}
	var stored, forwarded []byte
	for _, e := range frames {
		if e.depth != 0 {
			continue
		}
		r := atRest(in, e)
		stored = append(stored, r...)
		if a.Forward != nil {
			forwarded = append(forwarded, resent(r, a.Forward)...)
		}
	}
	if a.Strip {
		res["stored"] = base64.StdEncoding.EncodeToString(stored)
	}
	if a.Forward != nil {
		res["forwarded"] = base64.StdEncoding.EncodeToString(forwarded)
	}
}

// ropes: inputs cut into views at every kind of field boundary and inside
// fields, empty views included (LT-CTX-02); the answer is the datagram's
// (LT-CTX-03).
func ropes(s *set) {
	ex := func(i int) *node { return examples[i].frame() }
	cases := []struct {
		name    string
		frames  []*node
		views   []int64
		comment string
	}{
		{"rope-ex06-cut-in-headers-payloads-crc", []*node{ex(5)}, []int64{2, 6, 10, 16, 20, 24},
			"EX-06 cut into 7 views: inside the PATH header, a NAME header, \"sensor\", the second NAME header, \"temp\" and the CRC"},
		{"rope-ex04-cut-in-every-field", []*node{ex(3)}, []int64{1, 3, 5, 9, 13, 18},
			"EX-04 cut between type and opt, inside the length, the payload, the trailer_ts (twice) and the CRC"},
		{"rope-ex02-empty-views", []*node{ex(1)}, []int64{0, 0, 2, 2, 5, 5},
			"EX-02 as views of 0, 0, 2, 0, 3, 0 and 0 bytes: empty views at the start, between fields and at the end"},
		{"rope-ts05-adc-every-3-bytes", []*node{ex(7)}, every(3, len(wire(ex(7)))),
			"the ADC record cut every 3 bytes: stamps and headers across views, resolved as in one buffer"},
		{"rope-examples-back-to-back-cut-in-frames", backToBack(), []int64{3, 7, 11, 17, 30, 33, 41, 52, 60},
			"the worked examples but the 100 KiB one, back to back, cut inside frames: the back-to-back cursor crosses views"},
		{"rope-ex07-payload-across-views", []*node{ex(6)}, []int64{3, 50000, 50001, 102405},
			"EX-07 (LL=1, 102400 payload bytes) with its length, its payload and its CRC cut across views"},
	}
	for _, c := range cases {
		a := dgram
		a.Views = c.views
		s.accept(c.name, in(wire(c.frames...)), a, flatten(c.frames...), meta{rules: rulesOf("LT-CTX-02", "LT-CTX-03"), comment: c.comment})
	}
	badCRC := xorAt(wire(ex(4)), 12, 0x01)
	for _, c := range []struct {
		name    string
		b       []byte
		views   []int64
		rules   []string
		comment string
	}{
		{"rope-ex05-crc-fail-across-views", badCRC, []int64{6, 11}, rulesOf("LT-CRC-09", "LT-CTX-03"), "EX-05 with a wrong CRC, payload and CRC across views: crc_fail as in one buffer"},
		{"rope-ex06-truncated-across-views", wire(ex(5))[:20], []int64{2, 10}, rulesOf("LT-TRUNC-03", "LT-CTX-03"), "EX-06 cut after 20 bytes, in three views: truncated as in one buffer"},
		{"rope-children-overrun-across-views", wire(rec(typePath, bitPL, &node{typ: typeName, payload: []byte("sensor"), lenAdj: 1})), []int64{5, 9}, rulesOf("LT-NEST-05", "LT-CTX-03"),
			"a NAME overrunning its PATH, cut across views: INVALID as in one buffer"},
	} {
		a := dgram
		a.Views = c.views
		s.reject(c.name, in(c.b), a, meta{rules: c.rules, comment: c.comment})
	}
}

// every lists the cuts every k bytes inside n bytes.
func every(k, n int) []int64 {
	var out []int64
	for i := k; i < n; i += k {
		out = append(out, int64(i))
	}
	return out
}

func backToBack() []*node {
	var all []*node
	for _, ex := range examples[:6] {
		all = append(all, ex.frame())
	}
	return all
}

// lifecycle: the at-rest bytes a recorder stores (strip) and the bytes a
// forwarder or a replay sends with a fresh trailer (forward).
func lifecycle(s *set) {
	ex := func(i int) *node { return examples[i].frame() }
	stripped := dgram
	stripped.Strip = true
	cases := []struct {
		name    string
		frames  []*node
		a       decodeArgs
		rules   []string
		comment string
	}{
		{"strip-ex04-stored", []*node{ex(3)}, stripped, rulesOf("LT-LIFE-01", "LT-LIFE-03", "LT-LIFE-05"),
			"EX-04 received and stripped: stored as 01 00 04 00 2a 00 00 00, TS and CR cleared with the trailer"},
		{"strip-adc-nested-trailers-kept", []*node{ex(7)}, stripped, rulesOf("LT-LIFE-06", "LT-LIFE-01"),
			"the ADC record stripped: only its own trailer goes, the samples' relative stamps are payload bytes and stay"},
		{"strip-examples-back-to-back", backToBack(), stripped, rulesOf("LT-LIFE-05", "LT-LIFE-01"),
			"the worked examples but the 100 KiB one, back to back, each stored at rest"},
		{"forward-ex04-fresh-ts-crc16", []*node{ex(3)}, withForward(dgram, fwd(u64p(t0+5000), 16)), rulesOf("LT-LIFE-04", "LT-TS-06", "LT-LIFE-06"),
			"EX-04 forwarded with the wire-time T0+5000 and a CRC-16: its stamp T0 and its CRC-32C replaced, the payload unchanged"},
		{"forward-ex05-crc16-no-ts", []*node{ex(4)}, withForward(dgram, fwd(nil, 16)), rulesOf("LT-LIFE-04"),
			"EX-05 forwarded with a CRC-16 and no stamp"},
		{"forward-adc-fresh-ts", []*node{ex(7)}, withForward(stream, fwd(u64p(t0+1_000_000), 32)), rulesOf("LT-LIFE-04", "LT-TS-06"),
			"the ADC record received on a stream and forwarded with the wire-time T0+1000000 and a CRC-32C: the samples' stamps now resolve against it"},
		{"replay-ex02-fresh-trailer", []*node{ex(1)}, withForward(dgram, fwd(u64p(t0), 32)), rulesOf("LT-LIFE-05", "LT-LIFE-04"),
			"EX-02, at rest, replayed with a fresh trailer: the stamp T0 and a CRC-32C over payload and stamp"},
		{"strip-and-forward-ex06", []*node{ex(5)}, withForward(stripped, fwd(u64p(t0+7), 16)), rulesOf("LT-LIFE-05", "LT-LIFE-04", "LT-LIFE-01"),
			"EX-06 stored at rest and forwarded with T0+7 and a CRC-16"},
	}
	for _, c := range cases {
		s.accept(c.name, in(wire(c.frames...)), c.a, flatten(c.frames...), meta{rules: c.rules, comment: c.comment})
	}
	badCRC := xorAt(wire(ex(4)), 12, 0x01)
	s.reject("strip-ex05-bad-crc-not-stored", in(badCRC), stripped, meta{rules: rulesOf("LT-CRC-09", "LT-LIFE-03"),
		comment: "EX-05 with a wrong CRC offered to a recorder: validated at ingress, crc_fail, nothing stored"})
	s.reject("forward-ex04-bad-ts-not-forwarded", in(xorAt(wire(ex(3)), 8, 0x01)), withForward(dgram, fwd(u64p(t0), 16)), meta{rules: rulesOf("LT-CRC-09", "LT-LIFE-03", "LT-CRC-15"),
		comment: "EX-04 with a corrupted trailer_ts offered to a forwarder: crc_fail, not re-sent under a fresh CRC"})
}

func withForward(a decodeArgs, f *forwardArg) decodeArgs { a.Forward = f; return a }
