package testee

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

var responseSeeds = []string{
	`{"id":7,"ok":true,"result":{"form":"plex","hash":"P.roNB...pqK.H3"}}`,
	`{"id":7,"ok":false,"code":"BAD_ENCODING","detail":"frontier entry 2: chain IDs not strictly sorted","rule":"HR-CKPT-03"}`,
	`{"id":7,"unsupported":true}`,
	` {"\u0069d" : 7, "ok":true ,"result":{"a":["}",{"b":"\""}]},"x":[1,2]} `,
	`{"id":7,"id":7,"ok":true,"result":{}}`,
	`{"id":7.0,"ok":true,"result":{}}`,
	`{"id":7,"unsupported":true,"ok":false}`,
	`{"id":7,"ok":false,"code":"","detail":null}`,
	`[1,2]`,
	``,
}

// FuzzParseResponse: no panic; the envelope scanner agrees with
// encoding/json on every member it looks at; a result reported checked is
// one JSON object in UTF-8; an accepted line re-encodes to
// a line that parses to the same response.
func FuzzParseResponse(f *testing.F) {
	for _, s := range responseSeeds {
		f.Add([]byte(s), int64(7))
	}
	f.Fuzz(func(t *testing.T, line []byte, id int64) {
		resp, err := ParseResponse(line, id)

		var oracle map[string]json.RawMessage
		jsonOK := utf8.Valid(line) && json.Unmarshal(line, &oracle) == nil && oracle != nil && isObject(line)
		if jsonOK {
			var ms members
			if err := scanObject(line, &ms); err != nil {
				t.Fatalf("scanObject rejects a JSON object: %v", err)
			}
			for _, name := range memberNames { // the last of duplicates counts in both
				got, ok := ms.get(name)
				want, wok := oracle[name]
				if ok != wok || ok && !bytes.Equal(got, want) {
					t.Fatalf("member %q: scanner %q (%v), encoding/json %q (%v)", name, got, ok, want, wok)
				}
			}
		}
		if err != nil {
			if f, ok := err.(*Failure); !ok || f.Kind == 0 || f.ID != id {
				t.Fatalf("error %v (%T) is not a proper *Failure", err, err)
			}
			return
		}
		if !jsonOK {
			t.Fatalf("accepted a line encoding/json rejects: %q", line)
		}
		if resp.ResultChecked() && !(utf8.Valid(resp.Result) && json.Valid(resp.Result) && isObject(resp.Result)) {
			t.Fatalf("result %q reported checked, and is not one JSON object in UTF-8", resp.Result)
		}
		resp = asRead(t, resp)
		out, err := AppendResponse(nil, resp)
		if err != nil {
			t.Fatalf("AppendResponse(%+v): %v", resp, err)
		}
		var w bytes.Buffer
		if _, err := WriteResponse(&w, nil, resp); err != nil || !bytes.Equal(w.Bytes(), out) {
			t.Fatalf("WriteResponse(%+v) wrote %q, %v; AppendResponse %q", resp, w.Bytes(), err, out)
		}
		back, err := ParseResponse(out[:len(out)-1], id)
		if err != nil {
			t.Fatalf("re-encoded %q: %v", out, err)
		}
		back = asRead(t, back)
		if resp.Outcome == Accepted {
			var c bytes.Buffer
			json.Compact(&c, resp.Result)
			resp.Result = c.Bytes()
		}
		if !reflect.DeepEqual(resp, back) {
			t.Fatalf("round trip: %+v became %+v", resp, back)
		}
	})
}

// FuzzParseRequest: no panic; what ParseRequest accepts, encoding/json reads
// the same way, and it re-encodes to a line that parses to the same request.
func FuzzParseRequest(f *testing.F) {
	for _, s := range []string{
		`{"id":0,"op":"hello","args":{},"input":""}`,
		`{"id":7,"op":"lace.record","args":{"mark":"none"},"input":"8J+WpzogQi5r"}`,
		`{"input":"Zg==","args":{ "a" : [1] },"op":"x\u0000","id":-1,"more":null}`,
		`{"id":1,"op":"x","args":{},"input":"Zh=="}`,
		`{"id":1,"op":"x","args":{},"input":"Zg\n=="}`,
	} {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"id":1,"op":"x","args":{},"input_path":"/a/b"}`))
	f.Add([]byte(`{"id":1,"op":"x","args":{"input":"QQ=="},"input":"QUJD","z":"\u0041"}`))
	f.Add([]byte(`{"id":1,"op":"x","args":{"a":{"b":1},"c":[{"b":2,"\u0062":3}]},"input":""}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		req, err := ParseRequest(line)
		// In place: the same request or the same error (and the id with it).
		inPlace, ierr := ParseRequestInPlace(append([]byte(nil), line...))
		if (err == nil) != (ierr == nil) || err != nil && err.Error() != ierr.Error() {
			t.Fatalf("%q: ParseRequest %v, ParseRequestInPlace %v", line, err, ierr)
		}
		if err != nil {
			var re *RequestError
			if !errors.As(err, &re) {
				t.Fatalf("%q: error %T, not a *RequestError", line, err)
			}
			return
		}
		if inPlace.ID != req.ID || inPlace.Op != req.Op || !bytes.Equal(inPlace.Input, req.Input) ||
			inPlace.InputPath != req.InputPath || !bytes.Equal(inPlace.Args, req.Args) {
			t.Fatalf("%q: ParseRequest %+v, ParseRequestInPlace %+v", line, req, inPlace)
		}
		// encoding/json, member by member (its struct decoding would match
		// names case-insensitively).
		var oracle map[string]json.RawMessage
		if err := json.Unmarshal(line, &oracle); err != nil {
			t.Fatalf("accepted %q, encoding/json: %v", line, err)
		}
		var id int64
		var op, path string
		var input []byte
		if req.InputPath != "" {
			if json.Unmarshal(oracle["input_path"], &path) != nil || path != req.InputPath || oracle["input"] != nil {
				t.Fatalf("%q: ParseRequest %+v, encoding/json %q", line, req, oracle)
			}
		} else if json.Unmarshal(oracle["input"], &input) != nil || !bytes.Equal(input, req.Input) || oracle["input_path"] != nil {
			t.Fatalf("%q: ParseRequest %+v, encoding/json %q", line, req, oracle)
		}
		if dup := tokenDuplicate(req.Args); dup != "" {
			t.Fatalf("%q: accepted, but args name %q twice", line, dup)
		}
		if json.Unmarshal(oracle["id"], &id) != nil || json.Unmarshal(oracle["op"], &op) != nil ||
			id != req.ID || op != req.Op || !bytes.Equal(oracle["args"], req.Args) {
			t.Fatalf("%q: ParseRequest %+v, encoding/json %q", line, req, oracle)
		}
		out, err := AppendRequest(nil, req)
		if err != nil {
			t.Fatalf("AppendRequest(%+v): %v", req, err)
		}
		back, err := ParseRequest(out[:len(out)-1])
		if err != nil {
			t.Fatalf("re-encoded %q: %v", out, err)
		}
		var c bytes.Buffer
		json.Compact(&c, req.Args)
		if back.ID != req.ID || back.Op != req.Op || !bytes.Equal(back.Input, req.Input) || back.InputPath != req.InputPath || !bytes.Equal(back.Args, c.Bytes()) {
			t.Fatalf("round trip: %+v became %+v", req, back)
		}
	})
}

// FuzzLineReader: for every input, cap and way of cutting the input into
// reads, the line reader gives the lines that splitting on LF gives, up to
// the first line longer than the cap.
func FuzzLineReader(f *testing.F) {
	f.Add([]byte("a\nbc\n\nd"), uint16(1), uint16(3))
	f.Add([]byte(strings.Repeat("x", 70000)+"\ny\n"), uint16(65535), uint16(0))
	f.Fuzz(func(t *testing.T, data []byte, chunk, max uint16) {
		n := int(chunk)%4096 + 1
		lim := int(max)
		if max == 0 {
			lim = 1 << 30
		}
		lr := newLineReader(&chunkReader{append([]byte(nil), data...), n}, lim)
		want, tail := splitLines(string(data))
		for i := 0; ; i++ {
			line, err := lr.readLine()
			switch {
			case i < len(want) && len(want[i]) > lim:
				if err != errLineTooLong {
					t.Fatalf("line %d of %d bytes, cap %d: %q, %v", i, len(want[i]), lim, line, err)
				}
				return
			case i < len(want):
				if err != nil || string(line) != want[i] {
					t.Fatalf("line %d: got %q, %v; want %q", i, line, err, want[i])
				}
			case tail > lim:
				if err != errLineTooLong {
					t.Fatalf("tail of %d bytes, cap %d: %v", tail, lim, err)
				}
				return
			default:
				if err != io.EOF || lr.pending() != tail {
					t.Fatalf("end: %q, %v, pending %d; want EOF, %d", line, err, lr.pending(), tail)
				}
				return
			}
		}
	})
}

// FuzzParseHello: no panic; an accepted hello result has protocol 1 and
// non-nil ops, profiles and limits.
func FuzzParseHello(f *testing.F) {
	f.Add([]byte(helloExample(f)))
	f.Add([]byte(`{"protocol":1,"ops":[],"profiles":[],"limits":{}}`))
	f.Add([]byte(`{"protocol":1,"ops":null,"profiles":[],"limits":{}}`))
	f.Fuzz(func(t *testing.T, result []byte) {
		h, err := ParseHello(result)
		if err != nil {
			return
		}
		if h.Protocol != 1 || h.Ops == nil || h.Profiles == nil || h.Limits == nil || h.AllOps {
			t.Fatalf("%q: accepted as %+v", result, h)
		}
	})
}

// FuzzValidJSON: validJSON's cuts never change the verdict: with strings
// cut from any length, it is json.Valid on any bytes.
func FuzzValidJSON(f *testing.F) {
	for _, s := range append(responseSeeds, `"a"`, `{"a":"b" "c"}`, `["x","\u0000"]`, `["\"","\\"]`, `{"k":"a`+"\x01"+`b"}`, `["`+"\xff"+`"]`, `"" ""`, `{"":1}`) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		want := json.Valid(b)
		for _, min := range []int{0, 1, 3} {
			if got := validJSONCut(b, min, false); got != want {
				t.Fatalf("%q: validJSONCut(%d) %v, json.Valid %v", b, min, got, want)
			}
			if got := validJSONCut(b, min, true); utf8.Valid(b) && got != want {
				t.Fatalf("%q (UTF-8): validJSONCut(%d) %v, json.Valid %v", b, min, got, want)
			}
		}
	})
}

// validJSON on lines long enough to be cut, against json.Valid.
func TestValidJSONLong(t *testing.T) {
	long := strings.Repeat("QUJD", cutStringBytes/4+1)
	for _, s := range []string{
		`{"id":1,"ok":true,"result":{"record":"` + long + `"}}`,
		`{"id":1,"ok":true,"result":{"record":"` + long + `","b":"` + long + `"}}`,
		`{"id":1,"ok":true,"result":{"record":"` + long + `"}} x`,
		`{"id":1,"ok":true,"result":{"record":"` + long + `"}`,
		`{"id":1,"ok":true,"result":{"record":"` + long,
		`{"id":1,"ok":true,"result":{"record":"` + long + "\x1f" + `"}}`,
		`{"id":1,"ok":true,"result":{"record":"` + long + `\n"}}`,
		`{"id":1,"ok":true,"result":{"record":"` + long + `\x"}}`,
		`{"id":1,"ok":true,"result":{"record":"` + long + "\xff" + `"}}`,
		`{"id":1,"ok":true,"result":{"record":"` + long + "\u00e9" + `"}}`,
		`{"` + long + `":1}`,
		`{"` + long + `" 1}`,
		`["` + long + `" "` + long + `"]`,
		`["` + long + `",]`,
		`"` + long + `"`,
		`[1,` + strings.Repeat(" ", cutStringBytes) + `2]`,
	} {
		if got, want := validJSON([]byte(s), false), json.Valid([]byte(s)); got != want {
			t.Errorf("%.60q...%.20q: validJSON %v, json.Valid %v", s, s[len(s)-20:], got, want)
		}
		if got, want := validJSON([]byte(s), true), json.Valid([]byte(s)); utf8.ValidString(s) && got != want {
			t.Errorf("%.60q...%.20q (UTF-8): validJSON %v, json.Valid %v", s, s[len(s)-20:], got, want)
		}
	}
}

// tokenDuplicate returns a member name that appears twice in one object of
// the JSON value b, found by encoding/json's tokens (an oracle for
// CheckArgs), or "".
func tokenDuplicate(b []byte) string {
	dec := json.NewDecoder(bytes.NewReader(b))
	type frame struct {
		names  map[string]bool
		object bool
		key    bool // the next token of an object is a name
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return ""
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.key {
			if name, ok := tok.(string); ok {
				if top.names[name] {
					return name
				}
				top.names[name] = true
				top.key = false
				continue
			}
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{names: map[string]bool{}, object: true, key: true})
			continue
		case json.Delim('['):
			stack = append(stack, &frame{})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 && stack[len(stack)-1].object {
			stack[len(stack)-1].key = true // a value ended: a name comes next
		}
	}
}
