package libtracer

// Then steps of the libtracer features: they read the testee's answers to
// libtracer.decode (the flat frame list) and libtracer.encode (the bytes).

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/cucumber/godog"

	"github.com/threespec/conformance/steps"
)

// frame returns frame n (1-based, pre-order) of the last accepted decode.
func (s *state) frame(n int) (*frame, error) {
	if err := s.w.Accepted(); err != nil {
		return nil, err
	}
	if n < 1 || n > len(s.frames) {
		return nil, fmt.Errorf("frame %d: the testee reported %d frames", n, len(s.frames))
	}
	return &s.frames[n-1], nil
}

func hexByte(s string) (uint8, error) {
	v, err := strconv.ParseUint(strings.TrimPrefix(s, "0x"), 16, 8)
	return uint8(v), err
}

// thenTree compares the testee's frames with the table, row for row, in
// the columns the table has: depth, offset, type, opt (hex), length,
// payload (bytes; "(empty)" for none; blank when the frame has no payload
// field), children (blank when it has none), ts ("abs T" or "rel +N"),
// resolved, crc ("CRC-32C hex" or "CRC-16-CCITT hex"), error ("RULE
// code"). A blank cell means the field is absent.
func (s *state) thenTree(t *godog.Table) error {
	if err := s.w.Accepted(); err != nil {
		return err
	}
	if t == nil || len(t.Rows) < 2 {
		return fmt.Errorf("the frame tree table needs a header row and rows")
	}
	var cols []string
	for _, c := range t.Rows[0].Cells {
		name := strings.TrimSpace(c.Value)
		switch name {
		case "depth", "offset", "type", "opt", "length", "payload", "children", "ts", "resolved", "crc", "error":
		default:
			return fmt.Errorf("the frame tree table has an unknown column %q", name)
		}
		cols = append(cols, name)
	}
	if got, want := len(s.frames), len(t.Rows)-1; got != want {
		return fmt.Errorf("the testee reported %d frames, the table lists %d: %s", got, want, s.w.Describe())
	}
	var errs []string
	for i, row := range t.Rows[1:] {
		f := &s.frames[i]
		for k, name := range cols {
			want := strings.TrimSpace(row.Cells[k].Value)
			if msg := s.checkCell(f, name, want); msg != "" {
				errs = append(errs, fmt.Sprintf("frame %d %s: %s", i+1, name, msg))
			}
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("the frame tree differs:\n  %s\n(%s)", strings.Join(errs, "\n  "), s.w.Describe())
	}
	return nil
}

// checkCell compares one field of f with a table cell; it returns "" when
// they agree.
func (s *state) checkCell(f *frame, name, want string) string {
	num := func(got int64) string {
		w, err := strconv.ParseInt(want, 10, 64)
		if err != nil {
			return fmt.Sprintf("cell %q is not a number", want)
		}
		if got != w {
			return fmt.Sprintf("got %d, want %d", got, w)
		}
		return ""
	}
	hexb := func(got uint8) string {
		w, err := hexByte(want)
		if err != nil {
			return fmt.Sprintf("cell %q is not two hex digits", want)
		}
		if got != w {
			return fmt.Sprintf("got %02x, want %02x", got, w)
		}
		return ""
	}
	switch name {
	case "depth":
		return num(int64(f.Depth))
	case "offset":
		return num(f.Offset)
	case "length":
		return num(int64(f.Length))
	case "type":
		return hexb(f.Type)
	case "opt":
		return hexb(f.Opt)
	case "payload":
		switch {
		case want == "":
			if f.Payload != nil {
				return fmt.Sprintf("got payload %q, want none", steps.Truncate(*f.Payload, 80))
			}
			return ""
		case f.Payload == nil:
			return fmt.Sprintf("no payload field, want %q", want)
		case want == "(empty)":
			want = ""
		}
		w, err := parseBytes(want)
		if err != nil {
			return err.Error()
		}
		if got := strings.ToLower(*f.Payload); got != hex.EncodeToString(w) {
			return fmt.Sprintf("got %q, want %q", steps.Truncate(got, 80), steps.Truncate(hex.EncodeToString(w), 80))
		}
		return ""
	case "children":
		if msg, done := presence(want, f.Children != nil, intOrNone(f.Children)); done {
			return msg
		}
		return num(int64(*f.Children))
	case "ts":
		if msg, done := presence(want, f.TS != nil, f.TS); done {
			return msg
		}
		form, raw, _ := strings.Cut(want, " ")
		switch form {
		case "abs":
			t, err := parseTime(raw)
			if err != nil {
				return err.Error()
			}
			raw = strconv.FormatUint(t, 10)
		case "rel":
			v, err := strconv.ParseInt(raw, 10, 32)
			if err != nil {
				return fmt.Sprintf("cell %q: rel wants a signed i32", want)
			}
			raw = strconv.FormatInt(v, 10)
		default:
			return fmt.Sprintf("cell %q: want abs T or rel +N", want)
		}
		if f.TS.Form != form || f.TS.Raw != raw {
			return fmt.Sprintf("got %s %s, want %s %s", f.TS.Form, f.TS.Raw, form, raw)
		}
		return ""
	case "resolved":
		if msg, done := presence(want, f.TS != nil, f.TS); done {
			return msg
		}
		t, err := parseTime(want)
		if err != nil {
			return err.Error()
		}
		if f.TS.Resolved != strconv.FormatUint(t, 10) {
			return fmt.Sprintf("got %s, want %d (%s)", f.TS.Resolved, t, want)
		}
		return ""
	case "crc":
		if msg, done := presence(want, f.CRC != nil, f.CRC); done {
			return msg
		}
		name, value, _ := strings.Cut(want, " ")
		width := map[string]int{"CRC-32C": 32, "CRC-16-CCITT": 16}[name]
		if width == 0 {
			return fmt.Sprintf("cell %q: want CRC-32C or CRC-16-CCITT and the hex value", want)
		}
		if f.CRC.Width != width || !strings.EqualFold(f.CRC.Value, value) {
			return fmt.Sprintf("got width %d value %s, want %s", f.CRC.Width, f.CRC.Value, want)
		}
		return ""
	case "error":
		if msg, done := presence(want, f.Error != nil, f.Error); done {
			return msg
		}
		rule, code, _ := strings.Cut(want, " ")
		reported := s.w.RuleReported(rule, f.Error.Rule)
		if f.Error.Code != code || !reported {
			return fmt.Sprintf("got rule %s code %s (%s), want %s", f.Error.Rule, f.Error.Code, f.Error.Detail, want)
		}
		return ""
	}
	return fmt.Sprintf("unknown column %q", name)
}

// presence compares what a blank cell says (the field is absent) with
// whether it is present; done is false when both are there and the values
// are left to compare.
func presence(want string, present bool, got any) (msg string, done bool) {
	switch {
	case want != "" && present:
		return "", false
	case want == "" && !present:
		return "", true
	case present:
		return fmt.Sprintf("got %v, want none", got), true
	}
	return fmt.Sprintf("none, want %q", want), true
}

func intOrNone(p *int) string {
	if p == nil {
		return "none"
	}
	return strconv.Itoa(*p)
}

func (s *state) thenFrameCount(n int) error {
	if err := s.w.Accepted(); err != nil {
		return err
	}
	if len(s.frames) != n {
		return fmt.Errorf("the testee reported %d frames, want %d", len(s.frames), n)
	}
	return nil
}

func (s *state) thenTopCount(n int) error {
	if err := s.w.Accepted(); err != nil {
		return err
	}
	got := 0
	for _, f := range s.frames {
		if f.Depth == 0 {
			got++
		}
	}
	if got != n {
		return fmt.Errorf("the testee reported %d top-level frames, want %d", got, n)
	}
	return nil
}

func (s *state) thenResolved(n int, want string) error {
	f, err := s.frame(n)
	if err != nil {
		return err
	}
	t, err := parseTime(want)
	if err != nil {
		return err
	}
	if f.TS == nil {
		return fmt.Errorf("frame %d has no trailer_ts (%s)", n, s.w.Describe())
	}
	if f.TS.Resolved != strconv.FormatUint(t, 10) {
		return fmt.Errorf("frame %d resolves to %s, want %d (%s)", n, f.TS.Resolved, t, want)
	}
	return nil
}

func (s *state) thenCRC(n int, name, value string) error {
	f, err := s.frame(n)
	if err != nil {
		return err
	}
	if msg := s.checkCell(f, "crc", name+" "+value); msg != "" {
		return fmt.Errorf("frame %d crc: %s", n, msg)
	}
	return nil
}

func (s *state) thenPayload(n int, want string) error {
	f, err := s.frame(n)
	if err != nil {
		return err
	}
	if want == "" {
		want = "(empty)"
	}
	if msg := s.checkCell(f, "payload", want); msg != "" {
		return fmt.Errorf("frame %d payload: %s", n, msg)
	}
	return nil
}

// thenFrameRejected checks the error of a top-level frame in a per-frame
// report, and records the expected rule like "it is rejected by rule".
func (s *state) thenFrameRejected(n int, rule, code string) error {
	if !s.w.RuleID(rule) {
		return fmt.Errorf("%q is not a rule ID", rule)
	}
	f, err := s.frame(n)
	if err != nil {
		return err
	}
	if f.Error == nil {
		return fmt.Errorf("frame %d is not rejected (%s)", n, s.w.Describe())
	}
	if msg := s.checkCell(f, "error", rule+" "+code); msg != "" {
		return fmt.Errorf("frame %d: %s", n, msg)
	}
	return nil
}

// size is the number of bytes frame i (0-based) takes, from the offsets the
// testee reported: up to its next sibling, else to the end of its parent's
// payload, else (a last top-level frame) to the end of the bytes received.
func (s *state) size(i int) int64 {
	f := s.frames[i]
	for j := i + 1; j < len(s.frames); j++ {
		if s.frames[j].Depth == f.Depth {
			return s.frames[j].Offset - f.Offset
		}
		if s.frames[j].Depth < f.Depth {
			break
		}
	}
	for p := i - 1; p >= 0; p-- {
		if s.frames[p].Depth == f.Depth-1 {
			pf := s.frames[p]
			return pf.Offset + int64(headerSize(pf.Opt)) + int64(pf.Length) - f.Offset
		}
	}
	return int64(len(s.received)) - f.Offset
}

func (s *state) thenFrameSize(n, size int, overhead string) error {
	if _, err := s.frame(n); err != nil {
		return err
	}
	return s.checkSize(n-1, size, overhead)
}

func (s *state) checkSize(i, size int, overhead string) error {
	got := s.size(i)
	if got != int64(size) {
		return fmt.Errorf("frame %d takes %d bytes, want %d (%s)", i+1, got, size, s.w.Describe())
	}
	if overhead != "" {
		o, _ := strconv.Atoi(overhead)
		if g := got - int64(s.frames[i].Length); g != int64(o) {
			return fmt.Errorf("frame %d has an overhead of %d bytes, want %d", i+1, g, o)
		}
	}
	return nil
}

// value returns the index of the one VALUE (type 0x01) frame.
func (s *state) value() (int, error) {
	if err := s.w.Accepted(); err != nil {
		return 0, err
	}
	idx := -1
	for i, f := range s.frames {
		if f.Type == 0x01 {
			if idx >= 0 {
				return 0, fmt.Errorf("the testee reported several VALUE frames")
			}
			idx = i
		}
	}
	if idx < 0 {
		return 0, fmt.Errorf("the testee reported no VALUE frame (%s)", s.w.Describe())
	}
	return idx, nil
}

func (s *state) thenValueSize(size, overhead int) error {
	i, err := s.value()
	if err != nil {
		return err
	}
	return s.checkSize(i, size, strconv.Itoa(overhead))
}

// thenValueTrailer checks the trailer of the VALUE that "a VALUE ... with
// opt" built: an absolute stamp is T0, a relative one +1000 resolving to
// T0+1000.
func (s *state) thenValueTrailer(ts, crc string) error {
	i, err := s.value()
	if err != nil {
		return err
	}
	f := &s.frames[i]
	var msgs []string
	check := func(col, want string) {
		if m := s.checkCell(f, col, want); m != "" {
			msgs = append(msgs, col+": "+m)
		}
	}
	switch ts {
	case "no trailer_ts":
		check("ts", "")
	case "an absolute trailer_ts":
		check("ts", "abs T0")
		check("resolved", "T0")
	case "a relative trailer_ts":
		check("ts", "rel +1000")
		check("resolved", "T0+1000")
	}
	switch {
	case crc == "no CRC":
		check("crc", "")
	case f.CRC == nil:
		msgs = append(msgs, "crc: none, want "+strings.TrimPrefix(crc, "a "))
	case crc == "a CRC-32C" && f.CRC.Width != 32, crc == "a CRC-16-CCITT" && f.CRC.Width != 16:
		msgs = append(msgs, fmt.Sprintf("crc: width %d, want %s", f.CRC.Width, strings.TrimPrefix(crc, "a ")))
	}
	if len(msgs) > 0 {
		return fmt.Errorf("VALUE frame: %s (%s)", strings.Join(msgs, "; "), s.w.Describe())
	}
	return nil
}

func (s *state) thenBytes(text string) error {
	want, err := parseBytes(text)
	if err != nil {
		return err
	}
	return s.compareEncoded(want)
}

func (s *state) thenBytesReceived() error { return s.compareEncoded(s.received) }

func (s *state) compareEncoded(want []byte) error {
	if err := s.w.Accepted(); err != nil {
		return err
	}
	if s.encoded == nil {
		return fmt.Errorf("no bytes were encoded (%s)", s.w.Describe())
	}
	if !bytes.Equal(s.encoded, want) {
		return fmt.Errorf("encoded %d bytes %s\n          want %d bytes %s", len(s.encoded), steps.Truncate(hex.EncodeToString(s.encoded), 200), len(want), steps.Truncate(hex.EncodeToString(want), 200))
	}
	return nil
}

// thenPayloadUnchanged compares the last accepted decode with the first:
// the same frames at the same offsets with the same payload bytes; the
// top-level frame's opt and trailer may differ (they are what strip and
// attach change), nothing inside it may.
func (s *state) thenPayloadUnchanged() error {
	return s.compareWithFirst(func(a, b frame) bool {
		same := a.Depth == b.Depth && a.Offset == b.Offset && a.Type == b.Type && a.Length == b.Length &&
			strEq(a.Payload, b.Payload) && intEq(a.Children, b.Children)
		if a.Depth > 0 {
			same = same && a.Opt == b.Opt && (a.TS == nil) == (b.TS == nil) &&
				(a.TS == nil || a.TS.Raw == b.TS.Raw) && reflect.DeepEqual(a.CRC, b.CRC)
		}
		return same
	})
}

// thenSameContent compares the last accepted decode with the first in what
// a re-encoding in other variants keeps: the tree's shape, the types, the
// opaque payloads, which frames are stamped and their resolved wire-times,
// which carry a CRC. Option bits, lengths, offsets and raw stamps may
// differ.
func (s *state) thenSameContent() error {
	return s.compareWithFirst(func(a, b frame) bool {
		return a.Depth == b.Depth && a.Type == b.Type && strEq(a.Payload, b.Payload) && intEq(a.Children, b.Children) &&
			(a.TS == nil) == (b.TS == nil) && (a.TS == nil || a.TS.Resolved == b.TS.Resolved) && (a.CRC == nil) == (b.CRC == nil)
	})
}

// compareWithFirst holds each frame of the last accepted decode to the same
// frame of the scenario's first accepted decode.
func (s *state) compareWithFirst(same func(first, now frame) bool) error {
	if err := s.w.Accepted(); err != nil {
		return err
	}
	if len(s.frames) != len(s.first) {
		return fmt.Errorf("%d frames now, %d at the first reception", len(s.frames), len(s.first))
	}
	for i := range s.frames {
		if a, b := s.first[i], s.frames[i]; !same(a, b) {
			return fmt.Errorf("frame %d differs from the first reception: %s, then %s", i+1, show(a), show(b))
		}
	}
	return nil
}

func strEq(a, b *string) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }
func intEq(a, b *int) bool    { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

func show(f frame) string {
	return fmt.Sprintf("{depth %d offset %d type %02x opt %02x length %d payload %s children %s}",
		f.Depth, f.Offset, f.Type, f.Opt, f.Length, steps.Truncate(strOrNone(f.Payload), 40), intOrNone(f.Children))
}

func strOrNone(p *string) string {
	if p == nil {
		return "none"
	}
	return *p
}

// thenTransportsAgree compares the datagram's and the stream's answers to
// the same bytes: the same outcome, code, rule and frames.
func (s *state) thenTransportsAgree() error {
	d, st := s.datagram, s.stream
	if !s.w.Sent() || d.ID == 0 || st.ID == 0 {
		return fmt.Errorf("the input was not received both as a datagram and on a stream")
	}
	if d.Outcome != st.Outcome || d.Code != st.Code || d.Rule != st.Rule || !reflect.DeepEqual(s.datagramFrames, s.frames) {
		return fmt.Errorf("the transports disagree:\n  datagram: %v %s %s %s\n  stream:   %v %s %s %s",
			d.Outcome, d.Code, d.Rule, steps.Truncate(string(d.Result), 300), st.Outcome, st.Code, st.Rule, steps.Truncate(string(st.Result), 300))
	}
	return nil
}

// thenRejectedInEitherOrder: the input fails two checks the spec orders in
// no way (docs/VECTORS.md, "Check order"), so a receiver may report
// either's code first. The rule is held to the first code's (where the run
// checks rule IDs, the reference's order gives it); the other code passes
// whatever rule comes with it.
func (s *state) thenRejectedInEitherOrder(rule, code, other string) error {
	if !s.w.RuleID(rule) {
		return fmt.Errorf("%q is not a rule ID", rule)
	}
	if err := s.w.Rejected(); err != nil {
		return err
	}
	switch resp := s.w.Response(); resp.Code {
	case code:
		if !s.w.RuleReported(rule, resp.Rule) {
			return fmt.Errorf("expected rejection by rule %s, got %s", rule, s.w.Describe())
		}
		return nil
	case other:
		return nil
	}
	return fmt.Errorf("expected code %q or %q, got %s", code, other, s.w.Describe())
}

// thenFrameRejectedInEitherOrder is thenRejectedInEitherOrder for one
// frame of a per-frame report.
func (s *state) thenFrameRejectedInEitherOrder(n int, rule, code, other string) error {
	f, err := s.frame(n)
	if err != nil {
		return err
	}
	if f.Error != nil && f.Error.Code == other {
		return nil
	}
	return s.thenFrameRejected(n, rule, code)
}
