// Package libtracer holds the steps of the libtracer v1 wire format
// features (features/libtracer/), its steps.Wing. Given steps build bytes
// (or a frame tree to encode) with the helpers of bytes.go; When steps ask
// the testee through libtracer.decode and libtracer.encode; Then steps
// (then.go) read its answers. A scenario's state is a state, one per
// scenario.
package libtracer

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/cucumber/godog"

	"github.com/threespec/conformance/impl/libtracer/tracerspec"
	"github.com/threespec/conformance/steps"
	"github.com/threespec/conformance/testee"
)

// Steps are the libtracer steps; each scenario keeps its libtracer state in
// its own state.
var Steps = steps.Wing{Spec: tracerspec.Spec, Register: register, Unreachable: unreachable}

// state is one scenario's libtracer state.
type state struct {
	w *steps.World

	input    []byte          // the bytes the Given steps built
	received []byte          // the bytes of the last libtracer.decode
	tree     json.RawMessage // a frame tree to encode, from a Given table
	frames   []frame         // the frames of the last accepted decode
	first    []frame         // the frames of the scenario's first accepted decode
	encoded  []byte          // the bytes of the last accepted encode
	stripped []byte          // the at-rest bytes of the last strip

	// Both transports at once (LT-CTX-01..03).
	datagram       testee.Response
	datagramFrames []frame
	stream         testee.Response
}

// frame is one frame of the flat pre-order list libtracer.decode returns
// (docs/PROTOCOL.md, section libtracer.decode).
type frame struct {
	Depth    int     `json:"depth"`
	Offset   int64   `json:"offset"`
	Type     uint8   `json:"type"`
	Opt      uint8   `json:"opt"`
	Length   uint32  `json:"length"`
	Payload  *string `json:"payload,omitempty"`
	Children *int    `json:"children,omitempty"`
	TS       *struct {
		Form     string `json:"form"`
		Raw      string `json:"raw"`
		Resolved string `json:"resolved"`
	} `json:"ts,omitempty"`
	CRC *struct {
		Width int    `json:"width"`
		Value string `json:"value"`
	} `json:"crc,omitempty"`
	Error *struct {
		Rule   string `json:"rule"`
		Code   string `json:"code"`
		Offset int64  `json:"offset"`
		Detail string `json:"detail"`
	} `json:"error,omitempty"`
}

// Inputs.

func (s *state) givenBytes(text string) error {
	b, err := parseBytes(text)
	if err != nil {
		return err
	}
	s.input = append(s.input, b...)
	return nil
}

func (s *state) givenFrameCRC(text, crc, variant string) error {
	b, err := parseBytes(text)
	if err != nil {
		return err
	}
	m, err := model(crc)
	if err != nil {
		return err
	}
	v, err := parseVariant(m, variant)
	if err != nil {
		return err
	}
	f, err := appendCRC(b, v)
	if err != nil {
		return err
	}
	s.input = append(s.input, f...)
	return nil
}

var quoted = regexp.MustCompile(`"([^"]*)"`)

// givenPath builds PATH (0x06, PL=1) over NAME (0x02) children without
// trailers, as the worked example /sensor/temp.
func (s *state) givenPath(children, crc string) error {
	var content []byte
	if children != "no children" {
		for _, m := range quoted.FindAllStringSubmatch(children, -1) {
			name, err := seal(0x02, 0x00, []byte(m[1]), nil)
			if err != nil {
				return err
			}
			content = append(content, name...)
		}
	}
	opt := optPL
	if crc != "" {
		m, err := model(crc)
		if err != nil {
			return err
		}
		opt |= optCR
		if m.width == 16 {
			opt |= optCW
		}
	}
	f, err := seal(0x06, opt, content, nil)
	if err != nil {
		return err
	}
	s.input = append(s.input, f...)
	return nil
}

func (s *state) givenNest(n int, inner string) error {
	b, err := parseBytes(inner)
	if err != nil {
		return err
	}
	s.input = append(s.input, nest(n, b)...)
	return nil
}

// givenValueOpt builds a VALUE (0x01) with the payload and opt given and
// the trailer opt asks for: trailer_ts T0 when absolute; +1000 ns when
// relative, inside a user record stamped T0 (a relative stamp needs a
// stamped ancestor, LT-TS-04); the CRC of the width CW selects.
func (s *state) givenValueOpt(payload, optHex string) error {
	p, err := parseBytes(payload)
	if err != nil {
		return err
	}
	o, err := strconv.ParseUint(optHex, 16, 8)
	if err != nil {
		return err
	}
	opt := byte(o)
	stamp := &trailerStamp{abs: t0}
	relative := opt&optTS != 0 && opt&optTF != 0
	if relative {
		stamp = &trailerStamp{rel: true, off: 1000}
	}
	f, err := seal(0x01, opt, p, stamp)
	if err != nil {
		return err
	}
	if relative {
		if f, err = seal(0x80, optPL|optTS, f, &trailerStamp{abs: t0}); err != nil {
			return err
		}
	}
	s.input = append(s.input, f...)
	return nil
}

// givenWrapped wraps the input in a user record (0x80, PL=1, TS=1) with an
// absolute trailer_ts, the anchor of relative stamps inside it.
func (s *state) givenWrapped(at string) error {
	t, err := parseTime(at)
	if err != nil {
		return err
	}
	opt := optPL | optTS
	if len(s.input) > 0xFFFF {
		opt |= optLL
	}
	f, err := seal(0x80, opt, s.input, &trailerStamp{abs: t})
	if err != nil {
		return err
	}
	s.input = f
	return nil
}

func (s *state) givenSetByte(off int, value string) error {
	if off >= len(s.input) {
		return fmt.Errorf("offset %d is beyond the %d input bytes", off, len(s.input))
	}
	v, err := strconv.ParseUint(value, 16, 8)
	if err != nil {
		return err
	}
	if s.input[off] == byte(v) {
		return fmt.Errorf("the byte at offset %d is already %02x: the scenario changes nothing", off, v)
	}
	s.input[off] = byte(v)
	return nil
}

func (s *state) givenXor(off int, mask byte) error {
	if off >= len(s.input) {
		return fmt.Errorf("offset %d is beyond the %d input bytes", off, len(s.input))
	}
	s.input[off] ^= mask
	return nil
}

func (s *state) givenCut(n int) error {
	if n >= len(s.input) {
		return fmt.Errorf("cutting after %d bytes leaves all %d input bytes", n, len(s.input))
	}
	s.input = s.input[:n]
	return nil
}

// rowsFromTable reads a frame table: columns depth, type and opt (two
// hex digits), optional payload (bytes as parseBytes reads them; blank for
// none, "(empty)" for zero bytes), ts (T0, T0+N, a decimal u64, or +N/-N
// for a relative stamp) and resolved (the wanted wire-time, for the
// smallest variants).
func rowsFromTable(t *godog.Table) ([]tableRow, error) {
	if t == nil || len(t.Rows) < 2 {
		return nil, fmt.Errorf("the frame table needs a header row and at least one frame")
	}
	cols := map[string]int{}
	for i, c := range t.Rows[0].Cells {
		cols[strings.TrimSpace(c.Value)] = i
	}
	for _, need := range []string{"depth", "type", "opt"} {
		if _, ok := cols[need]; !ok {
			return nil, fmt.Errorf("the frame table has no %q column", need)
		}
	}
	for c := range cols {
		switch c {
		case "depth", "type", "opt", "payload", "ts", "resolved":
		default:
			return nil, fmt.Errorf("the frame table has an unknown column %q", c)
		}
	}
	var rows []tableRow
	for n, tr := range t.Rows[1:] {
		cell := func(name string) string {
			if i, ok := cols[name]; ok {
				return strings.TrimSpace(tr.Cells[i].Value)
			}
			return ""
		}
		var r tableRow
		var err error
		if r.depth, err = strconv.Atoi(cell("depth")); err != nil {
			return nil, fmt.Errorf("row %d: depth: %v", n+1, err)
		}
		typ, err1 := strconv.ParseUint(cell("type"), 16, 8)
		opt, err2 := strconv.ParseUint(cell("opt"), 16, 8)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("row %d: type and opt are two hex digits", n+1)
		}
		r.typ, r.opt = byte(typ), byte(opt)
		switch p := cell("payload"); p {
		case "":
		case "(empty)":
			r.payload = []byte{}
		default:
			if r.payload, err = parseBytes(p); err != nil {
				return nil, fmt.Errorf("row %d: %v", n+1, err)
			}
		}
		if ts := cell("ts"); ts != "" {
			st, err := parseStamp(ts)
			if err != nil {
				return nil, fmt.Errorf("row %d: %v", n+1, err)
			}
			r.stamp = &st
		}
		if rs := cell("resolved"); rs != "" {
			t, err := parseTime(rs)
			if err != nil {
				return nil, fmt.Errorf("row %d: %v", n+1, err)
			}
			r.resolved = &t
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// givenFrames writes the frames of the table, each with the trailer its opt
// asks for (trailer_ts from the ts column, the CRC computed).
func (s *state) givenFrames(t *godog.Table) error {
	rows, err := rowsFromTable(t)
	if err != nil {
		return err
	}
	b, _, err := buildFrames(rows, false)
	if err != nil {
		return err
	}
	s.input = append(s.input, b...)
	return nil
}

// flatJSON is a frame of the encode input: the flat list as
// libtracer.decode returns it (docs/libtracer.md).
type flatJSON struct {
	Depth    int     `json:"depth"`
	Offset   int     `json:"offset"`
	Type     uint8   `json:"type"`
	Opt      uint8   `json:"opt"`
	Length   int     `json:"length"`
	Payload  *string `json:"payload,omitempty"`
	Children *int    `json:"children,omitempty"`
	TS       *tsJSON `json:"ts,omitempty"`
}

type tsJSON struct {
	Form     string `json:"form"`
	Raw      string `json:"raw"`
	Resolved string `json:"resolved"`
}

// givenTreeToEncode turns the table into the flat frame list
// libtracer.encode takes; offsets and lengths are those of the table's
// frames written as given.
func (s *state) givenTreeToEncode(t *godog.Table) error {
	rows, err := rowsFromTable(t)
	if err != nil {
		return err
	}
	_, tree, err := buildFrames(rows, true)
	if err != nil {
		return err
	}
	list := make([]flatJSON, len(tree))
	for i, f := range tree {
		j := flatJSON{Depth: f.row.depth, Offset: f.offset, Type: f.row.typ, Opt: f.row.opt, Length: f.length}
		if f.children >= 0 {
			n := f.children
			j.Children = &n
		} else {
			p := fmt.Sprintf("%x", f.row.payload)
			j.Payload = &p
		}
		if st := f.row.stamp; st != nil {
			j.TS = &tsJSON{Form: "abs", Raw: strconv.FormatUint(st.abs, 10), Resolved: strconv.FormatUint(f.resolved, 10)}
			if st.rel {
				j.TS.Form, j.TS.Raw = "rel", strconv.FormatInt(int64(st.off), 10)
			}
		}
		list[i] = j
	}
	s.tree, err = json.Marshal(list)
	return err
}

// Receiving.

var receiveOpts = []struct {
	re    *regexp.Regexp
	apply func(a map[string]any, m []string) error
}{
	{regexp.MustCompile(`^ as a datagram`), func(a map[string]any, _ []string) error {
		a["transport"] = tracerspec.TransportDatagram
		return nil
	}},
	{regexp.MustCompile(`^ on a stream`), func(a map[string]any, _ []string) error {
		a["transport"] = tracerspec.TransportStream
		return nil
	}},
	{regexp.MustCompile(`^ (?:with|and) MAX_TLV_BYTES (\d+)`), func(a map[string]any, m []string) error {
		v, err := strconv.ParseInt(m[1], 10, 64)
		a["max_tlv_bytes"] = v
		return err
	}},
	{regexp.MustCompile(`^ (?:with|and) a work budget of (\d+)`), func(a map[string]any, m []string) error {
		v, err := strconv.ParseInt(m[1], 10, 64)
		a["work_budget"] = v
		return err
	}},
	{regexp.MustCompile(`^ (?:with|and) per-frame reports`), func(a map[string]any, _ []string) error {
		a["report"] = "frames"
		return nil
	}},
	// The in-memory walk and the lifecycle (docs/libtracer.md, "In the
	// testee protocol"): views, strip, forward.
	{regexp.MustCompile(`^ cut into views at (\d+(?:, \d+)*)`), func(a map[string]any, m []string) error {
		var cuts []int64
		for _, f := range strings.Split(m[1], ", ") {
			v, err := strconv.ParseInt(f, 10, 64)
			if err != nil {
				return err
			}
			cuts = append(cuts, v)
		}
		a["views"] = cuts
		return nil
	}},
	{regexp.MustCompile(`^ (?:with|and) its frames stored at rest`), func(a map[string]any, _ []string) error {
		a["strip"] = true
		return nil
	}},
	{regexp.MustCompile(`^ (?:with|and) its frames forwarded(?: stamped (\S+))?(?: with an? (CRC-32C|CRC-16-CCITT))?`), func(a map[string]any, m []string) error {
		f := map[string]any{"crc": map[string]int{"CRC-32C": 32, "CRC-16-CCITT": 16, "": 0}[m[2]]}
		if m[1] != "" {
			t, err := parseTime(m[1])
			if err != nil {
				return err
			}
			f["ts"] = strconv.FormatUint(t, 10)
		}
		a["forward"] = f
		return nil
	}},
}

// receiveArgs reads the words after "is received": " as a datagram" or
// " on a stream", then any of " with MAX_TLV_BYTES N", " with a work
// budget of N", " with per-frame reports" (later ones start with "and").
func receiveArgs(words string) (map[string]any, error) {
	a := map[string]any{"transport": tracerspec.TransportDatagram}
	rest := words
	for rest != "" {
		matched := false
		for _, o := range receiveOpts {
			if m := o.re.FindStringSubmatch(rest); m != nil {
				if err := o.apply(a, m); err != nil {
					return nil, err
				}
				rest, matched = rest[len(m[0]):], true
				break
			}
		}
		if !matched {
			return nil, fmt.Errorf("unknown receiver option %q", rest)
		}
	}
	return a, nil
}

// decode sends in to libtracer.decode and keeps the frames it accepts.
func (s *state) decode(in []byte, args map[string]any) error {
	s.received = append([]byte(nil), in...)
	s.frames = nil
	if err := s.w.Call(tracerspec.OpDecode, args, in); err != nil {
		return err
	}
	if s.w.Response().Outcome != testee.Accepted {
		return nil
	}
	var res struct {
		Frames []frame `json:"frames"`
	}
	if err := json.Unmarshal(s.w.Response().Result, &res); err != nil {
		return fmt.Errorf("libtracer.decode result is not {\"frames\":[...]}: %v", err)
	}
	if res.Frames == nil {
		return fmt.Errorf("libtracer.decode result has no frames list: %s", steps.Truncate(string(s.w.Response().Result), 200))
	}
	s.frames = res.Frames
	if s.first == nil {
		s.first = res.Frames
	}
	return nil
}

func (s *state) whenReceived(what, words string) error {
	args, err := receiveArgs(words)
	if err != nil {
		return err
	}
	in := s.input
	switch what {
	case "the encoded bytes":
		if s.encoded == nil {
			return fmt.Errorf("nothing was encoded before")
		}
		in = s.encoded
	case "the stripped bytes":
		if s.stripped == nil {
			return fmt.Errorf("nothing was stripped before")
		}
		in = s.stripped
	}
	return s.decode(in, args)
}

// whenReceivedBoth sends the input once as a datagram and once on a
// stream; the stream's answer is the last response.
func (s *state) whenReceivedBoth(words string) error {
	args, err := receiveArgs(words)
	if err != nil {
		return err
	}
	args["transport"] = tracerspec.TransportDatagram
	if err := s.decode(s.input, args); err != nil {
		return err
	}
	s.datagram, s.datagramFrames = s.w.Response(), s.frames
	args["transport"] = tracerspec.TransportStream
	if err := s.decode(s.input, args); err != nil {
		return err
	}
	s.stream = s.w.Response()
	return nil
}

// The trailer lifecycle.

// whenStripped makes the at-rest bytes of the one frame the testee last
// accepted: its header with TS and CR cleared, then its payload
// (§Append-only-at-egress, strip-only-at-ingress; docs/DECISIONS.md). The extent
// comes from the testee's own report of the frame.
func (s *state) whenStripped() error {
	if err := s.w.Accepted(); err != nil {
		return fmt.Errorf("only a received (validated) frame is stripped: %v", err)
	}
	var top []frame
	for _, f := range s.frames {
		if f.Depth == 0 {
			top = append(top, f)
		}
	}
	if len(top) != 1 {
		return fmt.Errorf("strip takes one frame, the testee reported %d", len(top))
	}
	f := top[0]
	end := int64(headerSize(f.Opt)) + int64(f.Length)
	if f.Offset != 0 || end > int64(len(s.received)) {
		return fmt.Errorf("the reported frame (offset %d, length %d) does not fit the %d bytes received", f.Offset, f.Length, len(s.received))
	}
	out := append([]byte(nil), s.received[:end]...)
	out[1] &^= optTS | optCR
	s.stripped, s.input = out, out
	return nil
}

// thenLifecycleBytes compares the "stored" or "forwarded" bytes of the
// last accepted decode with the given ones.
func (s *state) thenLifecycleBytes(which, text string) error {
	if err := s.w.Accepted(); err != nil {
		return err
	}
	want, err := parseBytes(text)
	if err != nil {
		return err
	}
	var res map[string]json.RawMessage
	var got []byte
	if err := json.Unmarshal(s.w.Response().Result, &res); err != nil || json.Unmarshal(res[which], &got) != nil {
		return fmt.Errorf("libtracer.decode result has no base64 %q: %s", which, steps.Truncate(string(s.w.Response().Result), 200))
	}
	if !bytes.Equal(got, want) {
		return fmt.Errorf("%s bytes %x, want %x", which, got, want)
	}
	return nil
}

// whenAttached appends a fresh trailer to the input, which must be at rest:
// an absolute trailer_ts and, when asked, a CRC over payload and stamp; the
// TS, TF, CR and CW bits are set to match.
func (s *state) whenAttached(at, crc string) error {
	t, err := parseTime(at)
	if err != nil {
		return err
	}
	typ, opt, length, h, err := header(s.input)
	if err != nil {
		return err
	}
	if opt&(optTS|optCR) != 0 || len(s.input) != h+int(length) {
		return fmt.Errorf("attach takes at-rest bytes; these are not: %x", s.input)
	}
	opt = opt&^(optTS|optTF|optCR|optCW) | optTS
	switch crc {
	case "CRC-32C":
		opt |= optCR
	case "CRC-16-CCITT":
		opt |= optCR | optCW
	}
	f, err := seal(typ, opt, s.input[h:], &trailerStamp{abs: t})
	if err != nil {
		return err
	}
	s.input = f
	return nil
}

// Encoding.

func (s *state) encode(tree []byte, mode string) error {
	s.encoded = nil
	if err := s.w.Call(tracerspec.OpEncode, map[string]any{"mode": mode}, tree); err != nil {
		return err
	}
	if s.w.Response().Outcome != testee.Accepted {
		return nil
	}
	var res struct {
		Bytes string `json:"bytes"`
	}
	if err := json.Unmarshal(s.w.Response().Result, &res); err != nil {
		return fmt.Errorf("libtracer.encode result is not {\"bytes\":base64}: %v", err)
	}
	b, err := base64.StdEncoding.DecodeString(res.Bytes)
	if err != nil {
		return fmt.Errorf("libtracer.encode bytes: %v", err)
	}
	s.encoded = b
	return nil
}

// treeToEncode is the Given tree, else the frames of the last accepted
// decode.
func (s *state) treeToEncode() ([]byte, error) {
	if s.tree != nil {
		return s.tree, nil
	}
	if s.frames == nil {
		return nil, fmt.Errorf("no frame tree: give one, or receive bytes the testee accepts")
	}
	return json.Marshal(s.frames)
}

func (s *state) whenEncoded(how string) error {
	tree, err := s.treeToEncode()
	if err != nil {
		return err
	}
	mode := tracerspec.ModeExact
	if how != "exactly" {
		mode = tracerspec.ModeSmallest
	}
	return s.encode(tree, mode)
}

// whenEncodedWithTrailer takes the one top-level frame of the last accepted
// decode (at rest), gives it a trailer (an absolute stamp and, if asked, a
// CRC) and has the testee encode it exactly.
func (s *state) whenEncodedWithTrailer(at, crc string) error {
	t, err := parseTime(at)
	if err != nil {
		return err
	}
	if s.frames == nil || len(s.frames) == 0 || s.frames[0].Depth != 0 {
		return fmt.Errorf("no received frame to attach a trailer to")
	}
	var list []map[string]any
	raw, _ := json.Marshal(s.frames)
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&list); err != nil {
		return err
	}
	for _, f := range list[1:] {
		if d, _ := f["depth"].(json.Number).Int64(); d == 0 {
			return fmt.Errorf("attach takes one frame, the testee reported several")
		}
	}
	top := list[0]
	opt := s.frames[0].Opt&^(optTS|optTF|optCR|optCW) | optTS
	switch crc {
	case "CRC-32C":
		opt |= optCR
	case "CRC-16-CCITT":
		opt |= optCR | optCW
	}
	top["opt"] = opt
	v := strconv.FormatUint(t, 10)
	top["ts"] = map[string]string{"form": "abs", "raw": v, "resolved": v}
	delete(top, "crc")
	tree, err := json.Marshal(list)
	if err != nil {
		return err
	}
	return s.encode(tree, tracerspec.ModeExact)
}
