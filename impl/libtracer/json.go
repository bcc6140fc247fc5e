package libtracer

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/threespec/conformance/impl/rules"
)

// The frame tree as JSON, the form libtracer.decode returns and
// libtracer.encode takes in its nested form (docs/libtracer.md; the testee
// protocol sends it as a flat list, docs/PROTOCOL.md).
// A frame, its keys always in this order:
//
//	{"offset":0,"type":6,"opt":80,"length":18,"class":"core","name":"PATH",
//	 "children":[...],
//	 "ts":{"form":"abs","raw":"1777766400000000000","resolved":"1777766400000000000"},
//	 "crc":{"width":32,"value":"1a2b3c4d"}}
//
//   - "name" only for the four named types; "class" is sentinel, core,
//     reserved, unknown or user (ClassOf);
//   - "payload" (lower-case hex, "" when empty) for a frame kept as opaque
//     bytes, "children" (possibly []) for a walked one, never both;
//   - "ts" only with TS=1: "form" abs or rel, "raw" the received field as a
//     decimal string (u64, or signed i32), "resolved" the absolute
//     wire-time as a decimal string (strings, because a u64 does not fit a
//     JSON number in every language);
//   - "crc" only with CR=1: "width" 32 or 16, "value" the received field
//     as 8 or 4 hex digits;
//   - "error" only on a rejected top-level frame (then no payload,
//     children, ts or crc): {"rule","code","offset","detail"}.
//
// A Result is {"frames":[...]} with "error" added when framing broke.
// Writing is iterative, so a frame tree of any depth can be written with
// AppendJSON or (*Result).MarshalJSON called directly; json.Marshal re-scans
// what a MarshalJSON returns and stops at depth 10000.

// AppendJSON appends the JSON of the frames, as a JSON array, to dst.
func AppendJSON(dst []byte, frames []Frame) []byte {
	dst = append(dst, '[')
	pre := func(f *Frame, i int) error {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"offset":`...)
		dst = strconv.AppendInt(dst, f.Offset, 10)
		dst = append(dst, `,"type":`...)
		dst = strconv.AppendUint(dst, uint64(f.Type), 10)
		dst = append(dst, `,"opt":`...)
		dst = strconv.AppendUint(dst, uint64(f.Opt), 10)
		dst = append(dst, `,"length":`...)
		dst = strconv.AppendUint(dst, uint64(f.Length), 10)
		dst = append(dst, `,"class":"`...)
		dst = append(dst, ClassOf(f.Type).String()...)
		dst = append(dst, '"')
		if n := NameOf(f.Type); n != "" {
			dst = append(dst, `,"name":"`...)
			dst = append(dst, n...)
			dst = append(dst, '"')
		}
		switch {
		case f.Err != nil:
			dst = append(dst, `,"error":`...)
			dst = appendViolation(dst, f.Err)
		case f.Children != nil:
			dst = append(dst, `,"children":[`...)
		default:
			dst = append(dst, `,"payload":"`...)
			dst = hex.AppendEncode(dst, f.Payload)
			dst = append(dst, '"')
		}
		return nil
	}
	post := func(f *Frame) error {
		if f.Err != nil {
			dst = append(dst, '}')
			return nil
		}
		if f.Children != nil {
			dst = append(dst, ']')
		}
		if t := f.TS; t != nil {
			if t.Relative {
				dst = append(dst, `,"ts":{"form":"rel","raw":"`...)
				dst = strconv.AppendInt(dst, int64(t.Rel), 10)
			} else {
				dst = append(dst, `,"ts":{"form":"abs","raw":"`...)
				dst = strconv.AppendUint(dst, t.Abs, 10)
			}
			dst = append(dst, `","resolved":"`...)
			dst = strconv.AppendUint(dst, t.Resolved, 10)
			dst = append(dst, `"}`...)
		}
		if c := f.CRC; c != nil {
			if c.Width == 16 {
				dst = fmt.Appendf(dst, `,"crc":{"width":16,"value":"%04x"}`, c.Value)
			} else {
				dst = fmt.Appendf(dst, `,"crc":{"width":32,"value":"%08x"}`, c.Value)
			}
		}
		dst = append(dst, '}')
		return nil
	}
	_ = visitTree(frames, pre, post) // pre and post never fail
	return append(dst, ']')
}

func appendViolation(dst []byte, v *rules.Violation) []byte {
	detail, _ := json.Marshal(v.Detail)
	code, _ := json.Marshal(v.Code)
	return fmt.Appendf(dst, `{"rule":"%s","code":%s,"offset":%d,"detail":%s}`, v.Rule, code, v.Offset, detail)
}

// MarshalJSON writes the frame as documented above.
func (f Frame) MarshalJSON() ([]byte, error) {
	b := AppendJSON(nil, []Frame{f})
	return b[1 : len(b)-1], nil
}

// MarshalJSON writes {"frames":[...]} and, when framing broke, "error".
func (r *Result) MarshalJSON() ([]byte, error) {
	b := append([]byte(`{"frames":`), AppendJSON(nil, r.Frames)...)
	if r.Err != nil {
		b = append(b, `,"error":`...)
		b = appendViolation(b, r.Err)
	}
	return append(b, '}'), nil
}

// frameJSON is the JSON form as read; outputs-only keys are ignored.
type frameJSON struct {
	Offset   int64       `json:"offset"`
	Type     *uint8      `json:"type"`
	Opt      uint8       `json:"opt"`
	Length   uint32      `json:"length"`
	Payload  *string     `json:"payload"`
	Children []frameJSON `json:"children"`
	TS       *struct {
		Form     string     `json:"form"`
		Raw      jsonNumber `json:"raw"`
		Resolved jsonNumber `json:"resolved"`
	} `json:"ts"`
}

// jsonNumber is a decimal integer given as a JSON string or number.
type jsonNumber string

func (n *jsonNumber) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*n = jsonNumber(s)
		return nil
	}
	*n = jsonNumber(b)
	return nil
}

// ParseFramesJSON reads a JSON array of frames (or one frame object) in
// the form above, the input of libtracer.encode. It takes type, opt,
// payload or children, and ts (raw for EncodeExact, resolved for Encode;
// either may be left out, the other then stands for it when the form is
// abs); it ignores offset, length, class, name, crc and error. Nesting is
// bounded by encoding/json's depth limit (10000).
func ParseFramesJSON(data []byte) ([]Frame, error) {
	var list []frameJSON
	d := bytes.TrimSpace(data)
	if len(d) > 0 && d[0] == '{' {
		var one frameJSON
		if err := json.Unmarshal(d, &one); err != nil {
			return nil, err
		}
		list = []frameJSON{one}
	} else if err := json.Unmarshal(d, &list); err != nil {
		return nil, err
	}
	return convertJSON(list)
}

// convertJSON turns read frames into Frames; it recurses once per level,
// which encoding/json has already bounded.
func convertJSON(list []frameJSON) ([]Frame, error) {
	out := make([]Frame, len(list))
	for i, j := range list {
		f := &out[i]
		if j.Type == nil {
			return nil, fmt.Errorf("libtracer json: frame %d has no type", i)
		}
		f.Offset, f.Type, f.Opt, f.Length = j.Offset, *j.Type, Opt(j.Opt), j.Length
		switch {
		case j.Children != nil && j.Payload != nil:
			return nil, fmt.Errorf("libtracer json: frame %d has both payload and children", i)
		case j.Children != nil:
			c, err := convertJSON(j.Children)
			if err != nil {
				return nil, err
			}
			f.Children = c
		case j.Payload != nil:
			p, err := hex.DecodeString(*j.Payload)
			if err != nil {
				return nil, fmt.Errorf("libtracer json: frame %d payload: %v", i, err)
			}
			f.Payload = p
		default:
			f.Payload = []byte{}
		}
		if j.TS != nil {
			t, err := convertTS(j.TS.Form, string(j.TS.Raw), string(j.TS.Resolved), f.Opt)
			if err != nil {
				return nil, fmt.Errorf("libtracer json: frame %d ts: %v", i, err)
			}
			f.TS = t
		}
	}
	return out, nil
}

func convertTS(form, raw, resolved string, o Opt) (*Timestamp, error) {
	t := &Timestamp{Relative: form == "rel" || (form == "" && o.Has(OptTF))}
	if form != "" && form != "abs" && form != "rel" {
		return nil, fmt.Errorf("form %q is neither abs nor rel", form)
	}
	if raw == "" && !t.Relative {
		raw = resolved
	}
	if resolved == "" && !t.Relative {
		resolved = raw
	}
	var err error
	if raw != "" {
		if t.Relative {
			var r int64
			r, err = strconv.ParseInt(raw, 10, 32)
			t.Rel = int32(r)
		} else {
			t.Abs, err = strconv.ParseUint(raw, 10, 64)
		}
		if err != nil {
			return nil, err
		}
	}
	if resolved != "" {
		if t.Resolved, err = strconv.ParseUint(resolved, 10, 64); err != nil {
			return nil, err
		}
	}
	return t, nil
}
