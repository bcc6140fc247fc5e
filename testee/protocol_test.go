package testee

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
)

// Requests.

func TestAppendRequest(t *testing.T) {
	tests := []struct {
		name string
		req  Request
		want string
	}{
		// docs/PROTOCOL.md, "The handshake".
		{"hello", HelloRequest(), `{"id":0,"op":"hello","args":{},"input":""}` + "\n"},
		// docs/PROTOCOL.md, "Persistent mode": the request example; its input
		// "8J+WpzogQi5r..." starts with the glyph U+1F5A7, ": " and "B.k".
		{"example", Request{ID: 7, Op: "lace.record", Args: json.RawMessage(`{"mark":"none"}`), Input: []byte("\U0001F5A7: B.k")},
			`{"id":7,"op":"lace.record","args":{"mark":"none"},"input":"8J+WpzogQi5r"}` + "\n"},
		// RFC 4648, section 10: padding.
		{"pad2", Request{ID: 1, Op: "x", Input: []byte("f")}, `{"id":1,"op":"x","args":{},"input":"Zg=="}` + "\n"},
		{"pad1", Request{ID: 1, Op: "x", Input: []byte("fo")}, `{"id":1,"op":"x","args":{},"input":"Zm8="}` + "\n"},
		{"pad0", Request{ID: 1, Op: "x", Input: []byte("foobar")}, `{"id":1,"op":"x","args":{},"input":"Zm9vYmFy"}` + "\n"},
		// The args are compacted so that the request stays on one line.
		{"compact", Request{ID: -5, Op: "x", Args: json.RawMessage("\n {\n \"a\" : [ 1 ,\n 2 ] ,\"s\": \"x y\"\n}\n")},
			`{"id":-5,"op":"x","args":{"a":[1,2],"s":"x y"},"input":""}` + "\n"},
		{"blank args", Request{ID: 2, Op: "x", Args: json.RawMessage(" ")}, `{"id":2,"op":"x","args":{},"input":""}` + "\n"},
		{"escaped op", Request{ID: 3, Op: "a\"b\n\u00e9"}, `{"id":3,"op":"a\"b\n` + "\u00e9" + `","args":{},"input":""}` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := AppendRequest([]byte("prefix"), tt.req)
			if err != nil || string(got) != "prefix"+tt.want {
				t.Fatalf("got %q, %v\nwant %q", got, err, tt.want)
			}
			back, err := ParseRequest(got[len("prefix") : len(got)-1])
			if err != nil || back.ID != tt.req.ID || back.Op != tt.req.Op || string(back.Input) != string(tt.req.Input) {
				t.Errorf("ParseRequest: %+v, %v", back, err)
			}
		})
	}
}

func TestAppendRequestInvalid(t *testing.T) {
	for _, req := range []Request{
		{Op: ""},
		{Op: "x", Args: json.RawMessage(`[]`)},
		{Op: "x", Args: json.RawMessage(`"{}"`)},
		{Op: "x", Args: json.RawMessage(`{`)},
		{Op: "x", Args: json.RawMessage(`{} {}`)},
		{Op: "x", Args: json.RawMessage(`{"a":1,}`)},
	} {
		if _, err := AppendRequest(nil, req); !errors.Is(err, ErrInvalidRequest) {
			t.Errorf("%q %q: got %v", req.Op, req.Args, err)
		}
	}
}

func TestParseRequestInvalid(t *testing.T) {
	tests := []struct{ line, want string }{
		{``, "empty line"},
		{`[]`, "not a JSON object"},
		{`{"id":1,"op":"x","args":{},"input":""`, "not valid JSON"},
		{`{"op":"x","args":{},"input":""}`, `missing "id"`},
		{`{"id":1.5,"op":"x","args":{},"input":""}`, `"id": not an integer literal`},
		{`{"id":1,"args":{},"input":""}`, `missing "op"`},
		{`{"id":1,"op":"","args":{},"input":""}`, `"op" is "", not a non-empty string`},
		{`{"id":1,"op":7,"args":{},"input":""}`, `"op" is 7`},
		{`{"id":1,"op":"x","input":""}`, `missing "args"`},
		{`{"id":1,"op":"x","args":null,"input":""}`, `"args" is null, not an object`},
		{`{"id":1,"op":"x","args":{}}`, `missing "input"`},
		{`{"id":1,"op":"x","args":{},"input":null}`, `"input": not a string`},
		{`{"id":1,"op":"x","args":{},"input":"Zg="}`, `"input": illegal base64 data`},
		{`{"id":1,"op":"x","args":{},"input":"Zh=="}`, `"input": illegal base64 data`}, // pad bits not zero
		{`{"id":1,"op":"x","args":{},"input":"Zg\n=="}`, `"input": line break at character 2`},
		{`{"id":1,"op":"x","args":{},"input":"Z-=="}`, `"input": illegal base64 data`}, // URL alphabet
		{`{"id":1,"id":1,"op":"x","args":{},"input":""}`, `member "id" appears more than once`},
		// A name repeated inside args is refused as a repeated top-level
		// member is, at any depth (issue 30: it was decoded as its last value).
		{`{"id":1,"op":"x","args":{"report":"verdict","report":"frames"},"input":""}`, `"args": member "report" appears more than once`},
		{`{"id":1,"op":"x","args":{"forward":{"ts":"1","crc":32,"ts":"2"}},"input":""}`, `"args": member "ts" appears more than once`},
		{`{"id":1,"op":"x","args":{"a":"x","\u0061":"y"},"input":""}`, `"args": member "a" appears more than once`},
		{`{"id":1,"op":"x","args":{"l":[{"k":1},{"k":2,"k":3}]},"input_path":"/x"}`, `"args": member "k" appears more than once`},
		{"{\"id\":1,\"op\":\"\xff\",\"args\":{},\"input\":\"\"}", "not UTF-8 at byte 14"},
	}
	for _, tt := range tests {
		_, err := ParseRequest([]byte(tt.line))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: got %v, want %q", tt.line, err, tt.want)
		}
	}
}

// CheckArgs refuses what ParseRequest refuses in args, and accepts the
// same name in different objects.
func TestCheckArgs(t *testing.T) {
	for _, c := range []struct{ args, want string }{
		{`{}`, ""},
		{` {"a":1,"b":{"a":2},"c":[{"a":3},{"a":4}]} `, ""},
		{`{"a":{"b":1},"c":{"b":1}}`, ""},
		{`{"a":1,"a":1}`, `member "a" appears more than once`},
		{`{"a":{"b":[{"c":1,"c":2}]}}`, `member "c" appears more than once`},
		{`{"\u00e9":1,"é":2}`, `member "é" appears more than once`},
		{`[]`, "not a JSON object"},
		{`null`, "not a JSON object"},
		{`{`, "not valid JSON"},
		{"{\"a\":\"\xff\"}", "not valid JSON in UTF-8"},
	} {
		err := CheckArgs([]byte(c.args))
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: %v, want %q", c.args, err, c.want)
		}
		if dup := tokenDuplicate([]byte(c.args)); (dup != "") != strings.Contains(c.want, "appears more than once") {
			t.Errorf("%s: the fuzz oracle finds %q", c.args, dup)
		}
	}
}

// testArgs is an argument struct of the shape the wings' are (each wing's
// Spec package declares its own).
type testArgs struct {
	Name  string `json:"name,omitempty"`
	Limit *int64 `json:"limit,omitempty"`
}

func TestArgs(t *testing.T) {
	i64 := func(v int64) *int64 { return &v }
	tests := []struct {
		args testArgs
		want string
	}{
		{testArgs{}, `{}`},
		{testArgs{Name: "none"}, `{"name":"none"}`},
		{testArgs{Name: "x", Limit: i64(0)}, `{"name":"x","limit":0}`},
		{testArgs{Limit: i64(1 << 20)}, `{"limit":1048576}`},
	}
	for _, tt := range tests {
		got, err := MarshalArgs(tt.args)
		if err != nil || string(got) != tt.want {
			t.Errorf("%+v: got %s, %v; want %s", tt.args, got, err, tt.want)
			continue
		}
		// And back, through a request line.
		line, _ := AppendRequest(nil, Request{Op: "x", Args: got})
		req, err := ParseRequest(line[:len(line)-1])
		if err != nil {
			t.Fatal(err)
		}
		var back testArgs
		if err := req.DecodeArgs(&back); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(tt.args, back) {
			t.Errorf("round trip: got %+v, want %+v", back, tt.args)
		}
	}
	if _, err := MarshalArgs([]int{1}); !errors.Is(err, ErrInvalidRequest) {
		t.Errorf("MarshalArgs(list): %v", err)
	}
	if err := (Request{}).DecodeArgs(&testArgs{}); err != nil {
		t.Errorf("DecodeArgs(nil): %v", err)
	}
}

// Responses.

func TestParseResponse(t *testing.T) {
	tests := []struct {
		name string
		line string
		want Response
	}{
		// docs/PROTOCOL.md, "Persistent mode": the three response examples.
		{"ok", `{"id":7,"ok":true,"result":{"form":"plex","hash":"P.roNB...pqK.H3"}}`,
			Response{ID: 7, Outcome: Accepted, Result: json.RawMessage(`{"form":"plex","hash":"P.roNB...pqK.H3"}`)}},
		{"rejected", `{"id":7,"ok":false,"code":"BAD_ENCODING","detail":"frontier entry 2: chain IDs not strictly sorted","rule":"HR-CKPT-03"}`,
			Response{ID: 7, Outcome: Rejected, Code: "BAD_ENCODING", Detail: "frontier entry 2: chain IDs not strictly sorted", Rule: "HR-CKPT-03"}},
		{"unsupported", `{"id":7,"unsupported":true}`, Response{ID: 7, Outcome: Unsupported}},

		{"whitespace", " {\t\"id\" : 7 ,\"ok\" : true , \"result\" : { } } \r", Response{ID: 7, Outcome: Accepted, Result: json.RawMessage(`{ }`)}},
		{"member order", `{"result":{"a":[{"id":1}]},"ok":true,"id":7}`, Response{ID: 7, Outcome: Accepted, Result: json.RawMessage(`{"a":[{"id":1}]}`)}},
		{"unknown members", `{"id":7,"extra":[1,{"id":8,"ok":false}],"ok":true,"result":{},"x":"}"}`, Response{ID: 7, Outcome: Accepted, Result: json.RawMessage(`{}`)}},
		{"escaped name", `{"\u0069d":7,"o\u006b":true,"result":{}}`, Response{ID: 7, Outcome: Accepted, Result: json.RawMessage(`{}`)}},
		{"escaped strings", `{"id":7,"ok":false,"code":"tr::frame::crc_fail","detail":"line\n\"two\" \u00e9\ud83d\udda7"}`,
			Response{ID: 7, Outcome: Rejected, Code: "tr::frame::crc_fail", Detail: "line\n\"two\" \u00e9\U0001F5A7"}},
		{"no detail", `{"id":7,"ok":false,"code":"x"}`, Response{ID: 7, Outcome: Rejected, Code: "x"}},
		{"unsupported detail", `{"id":7,"unsupported":true,"detail":"mark 009 not implemented"}`, Response{ID: 7, Outcome: Unsupported, Detail: "mark 009 not implemented"}},
		{"unsupported false", `{"id":7,"unsupported":false,"ok":true,"result":{}}`, Response{ID: 7, Outcome: Accepted, Result: json.RawMessage(`{}`)}},
		{"code beside ok", `{"id":7,"ok":true,"result":{},"code":5,"rule":null}`, Response{ID: 7, Outcome: Accepted, Result: json.RawMessage(`{}`)}},
		{"result beside rejection", `{"id":7,"ok":false,"code":"c","result":[]}`, Response{ID: 7, Outcome: Rejected, Code: "c"}},
		{"duplicate unknown", `{"id":7,"x":1,"x":2,"unsupported":true}`, Response{ID: 7, Outcome: Unsupported}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseResponse([]byte(tt.line), 7)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(tt.want, asRead(t, got)) {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestParseResponseFailures(t *testing.T) {
	tests := []struct {
		line   string
		kind   Kind
		detail string
	}{
		{``, InvalidJSON, "empty line, not a JSON object"},
		{"  \r", InvalidJSON, "empty line"},
		{`[{"id":7}]`, InvalidJSON, "not a JSON object"},
		{`"ok"`, InvalidJSON, "not a JSON object"},
		{`null`, InvalidJSON, "not a JSON object"},
		{`{"id":7,"ok":true,"result":{}} {}`, InvalidJSON, "not valid JSON"},
		{`{"id":7,"ok":true,"result":{}}x`, InvalidJSON, "not valid JSON"},
		{`{"id":7,"ok":true,"result":{}`, InvalidJSON, "not valid JSON"},
		{`{'id':7}`, InvalidJSON, "not valid JSON"},
		{"{\"id\":7,\"ok\":false,\"code\":\"\xff\"}", InvalidJSON, "not UTF-8 at byte 27"},
		{"{\"id\":7,\"ok\":false,\"code\":\"\xed\xa0\x80\"}", InvalidJSON, "not UTF-8 at byte 27"}, // a surrogate
		{`{"id":8,"ok":true,"result":{}}`, WrongID, "answer carries id 8 (out of order)"},
		{`{"id":6,"ok":true,"result":{}}`, WrongID, "answer carries id 6, an earlier request's"},
		{`{"ok":true,"result":{}}`, WrongID, `missing "id"`},
		{`{"id":"7","ok":true,"result":{}}`, WrongID, `"id" is "\"7\"": not a number`},
		{`{"id":null,"ok":true,"result":{}}`, WrongID, "not a number"},
		{`{"id":7.0,"ok":true,"result":{}}`, WrongID, "not an integer literal"},
		{`{"id":7e0,"ok":true,"result":{}}`, WrongID, "not an integer literal"},
		{`{"id":99999999999999999999,"ok":true,"result":{}}`, WrongID, "out of range"},
		{`{"id":7,"id":7,"ok":true,"result":{}}`, BadShape, `member "id" appears more than once`},
		{`{"id":7,"ok":true,"\u006fk":true,"result":{}}`, BadShape, `member "ok" appears more than once`},
		{`{"id":7}`, BadShape, `missing "ok"`},
		{`{"id":7,"ok":1,"result":{}}`, BadShape, `"ok" is "1", not a bool`},
		{`{"id":7,"ok":"true","result":{}}`, BadShape, "not a bool"},
		{`{"id":7,"ok":null}`, BadShape, "not a bool"},
		{`{"id":7,"ok":true}`, BadShape, `ok:true without "result"`},
		{`{"id":7,"ok":true,"result":null}`, BadShape, `"result" is "null", not an object`},
		{`{"id":7,"ok":true,"result":[]}`, BadShape, "not an object"},
		{`{"id":7,"ok":true,"result":"{}"}`, BadShape, "not an object"},
		{`{"id":7,"ok":false}`, BadShape, `ok:false without "code"`},
		{`{"id":7,"ok":false,"code":""}`, BadShape, "not a non-empty string"},
		{`{"id":7,"ok":false,"code":null}`, BadShape, "not a non-empty string"},
		{`{"id":7,"ok":false,"code":["x"]}`, BadShape, "not a non-empty string"},
		{`{"id":7,"ok":false,"code":"X","rule":7}`, BadShape, `"rule" is "7", not a string`},
		{`{"id":7,"ok":false,"code":"X","detail":null}`, BadShape, `"detail" is "null", not a string`},
		{`{"id":7,"unsupported":true,"ok":true,"result":{}}`, BadShape, `"unsupported":true beside "ok"`},
		{`{"id":7,"unsupported":true,"ok":false}`, BadShape, `beside "ok"`},
		{`{"id":7,"unsupported":"yes"}`, BadShape, `"unsupported" is "\"yes\"", not a bool`},
		{`{"id":7,"unsupported":1}`, BadShape, "not a bool"},
		{`{"id":7,"unsupported":false}`, BadShape, `missing "ok"`},
	}
	for _, tt := range tests {
		_, err := ParseResponse([]byte(tt.line), 7)
		var f *Failure
		if !errors.As(err, &f) || f.Kind != tt.kind || f.ID != 7 || !strings.Contains(f.Detail, tt.detail) {
			t.Errorf("%q: got %v, want %v with %q", tt.line, err, tt.kind, tt.detail)
		}
	}
}

// TestParseResponseOneShot: in one-shot mode the id may be omitted, and
// its value is not checked; it must still be an integer when present.
func TestParseResponseOneShot(t *testing.T) {
	for _, line := range []string{`{"ok":true,"result":{}}`, `{"id":0,"ok":true,"result":{}}`, `{"id":-3,"ok":true,"result":{}}`} {
		if resp, err := parseResponse([]byte(line), 9, false); err != nil || resp.ID != 9 {
			t.Errorf("%s: %+v %v", line, resp, err)
		}
	}
	_, err := parseResponse([]byte(`{"id":"x","ok":true,"result":{}}`), 9, false)
	if f, ok := err.(*Failure); !ok || f.Kind != WrongID {
		t.Errorf("string id: %v", err)
	}
}

func TestAppendResponse(t *testing.T) {
	tests := []struct {
		resp Response
		want string
	}{
		// docs/PROTOCOL.md, "Persistent mode": the three response examples.
		{Response{ID: 7, Outcome: Accepted, Result: json.RawMessage(`{"form":"plex","hash":"P.roNB...pqK.H3"}`)},
			`{"id":7,"ok":true,"result":{"form":"plex","hash":"P.roNB...pqK.H3"}}`},
		{Response{ID: 7, Outcome: Rejected, Code: "BAD_ENCODING", Detail: "frontier entry 2: chain IDs not strictly sorted", Rule: "HR-CKPT-03"},
			`{"id":7,"ok":false,"code":"BAD_ENCODING","detail":"frontier entry 2: chain IDs not strictly sorted","rule":"HR-CKPT-03"}`},
		{Response{ID: 7, Outcome: Unsupported}, `{"id":7,"unsupported":true}`},

		{Response{ID: 1, Outcome: Accepted, Result: json.RawMessage("{\n \"a\": [1, 2]\n}")}, `{"id":1,"ok":true,"result":{"a":[1,2]}}`},
		{Response{ID: 1, Outcome: Accepted, Result: json.RawMessage("{\"a\":\"x y\",\t\"b\" :[1 ,2]}")}, `{"id":1,"ok":true,"result":{"a":"x y","b":[1,2]}}`},
		{Response{ID: 1, Outcome: Accepted, Result: json.RawMessage(`{"a":"QUJD","b":[1,{"c":null}]}`)}, `{"id":1,"ok":true,"result":{"a":"QUJD","b":[1,{"c":null}]}}`},
		{Response{ID: 1, Outcome: Rejected, Code: "X"}, `{"id":1,"ok":false,"code":"X","detail":""}`},
		{Response{ID: 1, Outcome: Unsupported, Detail: "no\n009"}, `{"id":1,"unsupported":true,"detail":"no\n009"}`},
	}
	scratch := []byte("left over from an earlier line")
	for _, tt := range tests {
		got, err := AppendResponse(nil, tt.resp)
		if err != nil || string(got) != tt.want+"\n" {
			t.Errorf("got %q, %v\nwant %q", got, err, tt.want)
			continue
		}
		var w bytes.Buffer
		if scratch, err = WriteResponse(&w, scratch, tt.resp); err != nil || w.String() != tt.want+"\n" {
			t.Errorf("WriteResponse wrote %q, %v\nwant %q", w.String(), err, tt.want)
		}
		back, err := ParseResponse(got[:len(got)-1], tt.resp.ID)
		if err != nil {
			t.Fatal(err)
		}
		back = asRead(t, back)
		if tt.resp.Outcome == Accepted {
			back.Result = tt.resp.Result // compacted; compared above
		}
		if !reflect.DeepEqual(tt.resp, back) {
			t.Errorf("round trip: got %+v, want %+v", back, tt.resp)
		}
	}
	for _, r := range []Response{
		{Outcome: Accepted},
		{Outcome: Accepted, Result: json.RawMessage(`[]`)},
		{Outcome: Accepted, Result: json.RawMessage(`{`)},
		{Outcome: Accepted, Result: json.RawMessage(`{"a":}`)},
		{Outcome: Accepted, Result: json.RawMessage(`{"a":1}}`)},
		{Outcome: Accepted, Result: json.RawMessage(`{"a":1} {}`)},
		{Outcome: Rejected},
		{},
	} {
		if _, err := AppendResponse(nil, r); !errors.Is(err, ErrMalformedResponse) {
			t.Errorf("%+v: error %v, want ErrMalformedResponse", r, err)
		}
		var w bytes.Buffer
		if _, err := WriteResponse(&w, nil, r); !errors.Is(err, ErrMalformedResponse) || w.Len() != 0 {
			t.Errorf("WriteResponse(%+v): error %v, wrote %q; want ErrMalformedResponse and nothing", r, err, w.String())
		}
	}
	// A writer's error is the writer's, not a malformed response.
	for _, r := range []Response{tests[0].resp, tests[1].resp} {
		if _, err := WriteResponse(failingWriter{}, nil, r); err != errWriterFails {
			t.Errorf("WriteResponse(%+v) to a failing writer: %v, want its error", r, err)
		}
	}
}

var errWriterFails = errors.New("the writer fails")

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errWriterFails }

// Hello.

// helloExample is the hello result of docs/PROTOCOL.md, "The handshake":
// the result member of the first JSON block after "The testee answers
// with", read from the document itself.
func helloExample(t testing.TB) json.RawMessage {
	t.Helper()
	doc, err := os.ReadFile("../docs/PROTOCOL.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(doc), "The testee\nanswers with\n\n```json\n")
	block, _, ok2 := strings.Cut(after, "```")
	if !ok || !ok2 {
		t.Fatal(`docs/PROTOCOL.md has no JSON block after "The testee answers with"`)
	}
	var resp struct {
		ID     *int            `json:"id"`
		OK     bool            `json:"ok"`
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal([]byte(block), &resp); err != nil || resp.ID == nil || *resp.ID != 0 || !resp.OK {
		t.Fatalf("the hello example of docs/PROTOCOL.md is no answer to request 0 (%v):\n%s", err, block)
	}
	return resp.Result
}

func TestParseHello(t *testing.T) {
	h, err := ParseHello(helloExample(t))
	if err != nil {
		t.Fatal(err)
	}
	want := &Hello{
		Protocol:       1,
		Implementation: "my-lace 0.3.1 (Rust 1.80)",
		Info: &ImplementationInfo{Name: "my-lace", Version: "0.3.1", Language: "Rust 1.80", Source: "https://example.org/my-lace",
			Data: map[string]string{"unicode": "17.0.0"}},
		Ops:      []string{"lace.record", "lace.stream", "lace.construct", "lace.chunks"},
		Profiles: []string{"lace-mark-bip340-standin"},
		Limits: map[string]json.RawMessage{"lace.max_depth": json.RawMessage("64"), "lace.max_expansion": json.RawMessage("1048576"),
			"lace.max_assembled_bytes": json.RawMessage("1073741824")},
	}
	if !reflect.DeepEqual(want, h) {
		t.Errorf("got %+v\nwant %+v", h, want)
	}
	if !h.Claims("lace.stream") || h.Claims("lace.directory") || h.Claims("hiverelay.decode") ||
		!h.ClaimsProfile("lace-mark-bip340-standin") || h.ClaimsProfile("lace-009") ||
		!h.Applies("lace.record", nil) || !h.Applies("lace.record", []string{"lace-mark-bip340-standin"}) ||
		h.Applies("lace.record", []string{"lace-mark-bip340-standin", "lace-009"}) || h.Applies("lace.directory", nil) {
		t.Errorf("claims of %+v", h)
	}
	if _, err := ParseHello(json.RawMessage(`{"protocol":1,"ops":[],"profiles":[],"limits":{}}`)); err != nil {
		t.Errorf("minimal hello: %v", err)
	}
	for _, tt := range []struct{ impl, text, version, unicode string }{
		{`"my-lace 0.3.1"`, "my-lace 0.3.1", "", ""},
		{`{"name":"my-lace"}`, "my-lace", "", ""},
		{`{"name":"my-lace","version":"0.3.1","language":"Rust 1.80","source":"https://example.org/my-lace","homepage":"https://example.org","data":{"unicode":"17.0.0"},"more":[1]}`, "my-lace 0.3.1 (Rust 1.80)", "0.3.1", "17.0.0"},
	} {
		h, err := ParseHello(json.RawMessage(`{"protocol":1,"implementation":` + tt.impl + `,"ops":[],"profiles":[],"limits":{}}`))
		if err != nil {
			t.Errorf("implementation %s: %v", tt.impl, err)
			continue
		}
		var version, unicode string
		if h.Info != nil {
			version, unicode = h.Info.Version, h.Info.Data["unicode"]
		}
		if h.Implementation != tt.text || version != tt.version || unicode != tt.unicode || (h.Info == nil) != (tt.impl[0] == '"') {
			t.Errorf("implementation %s: text %q, info %+v", tt.impl, h.Implementation, h.Info)
		}
	}

	for _, tt := range []struct{ result, want string }{
		{`[]`, "not an object"},
		{`{"ops":[],"profiles":[],"limits":{}}`, `without "protocol"`},
		{`{"protocol":2,"ops":[],"profiles":[],"limits":{}}`, `"protocol" is "2"; this conform speaks protocol 1`},
		{`{"protocol":"1","ops":[],"profiles":[],"limits":{}}`, `"protocol" is "\"1\""`},
		{`{"protocol":1.0,"ops":[],"profiles":[],"limits":{}}`, `"protocol" is "1.0"`},
		{`{"protocol":1,"profiles":[],"limits":{}}`, `without "ops"`},
		{`{"protocol":1,"ops":null,"profiles":[],"limits":{}}`, `without "ops"`},
		{`{"protocol":1,"ops":"lace.record","profiles":[],"limits":{}}`, "cannot unmarshal"},
		{`{"protocol":1,"ops":[1],"profiles":[],"limits":{}}`, "cannot unmarshal"},
		{`{"protocol":1,"ops":[],"limits":{}}`, `without "profiles"`},
		{`{"protocol":1,"ops":[],"profiles":[]}`, `without "limits"`},
		{`{"protocol":1,"ops":[],"profiles":[],"limits":[]}`, "cannot unmarshal"},
		{`{"protocol":1,"implementation":5,"ops":[],"profiles":[],"limits":{}}`, "neither a string nor an implementation block"},
		{`{"protocol":1,"implementation":{},"ops":[],"profiles":[],"limits":{}}`, `has no "name"`},
		{`{"protocol":1,"implementation":{"name":""},"ops":[],"profiles":[],"limits":{}}`, `has no "name"`},
		{`{"protocol":1,"implementation":{"name":"x","version":3},"ops":[],"profiles":[],"limits":{}}`, "cannot unmarshal"},
		{`{"protocol":1,"implementation":{"name":"x","data":{"unicode":17}},"ops":[],"profiles":[],"limits":{}}`, "cannot unmarshal"},
	} {
		if _, err := ParseHello(json.RawMessage(tt.result)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want %q", tt.result, err, tt.want)
		}
	}
}

// fakeImpl answers every request with resp and err, recording the requests.
type fakeImpl struct {
	resp Response
	err  error
	reqs []Request
}

func (f *fakeImpl) Do(_ context.Context, req Request) (Response, error) {
	f.reqs = append(f.reqs, req)
	return f.resp, f.err
}

func (f *fakeImpl) Close() error { return nil }

func TestHandshake(t *testing.T) {
	// A testee that answers hello with unsupported claims every op and no profile.
	f := &fakeImpl{resp: Response{Outcome: Unsupported}}
	h, err := Handshake(context.Background(), f)
	if err != nil || !h.AllOps || !h.Claims("libtracer.encode") || !h.Claims("anything") || h.ClaimsProfile("lace-009") ||
		!h.Applies("lace.record", nil) || h.Applies("lace.record", []string{"lace-009"}) {
		t.Errorf("unsupported hello: %+v, %v", h, err)
	}
	line, _ := AppendRequest(nil, f.reqs[0])
	if string(line) != `{"id":0,"op":"hello","args":{},"input":""}`+"\n" {
		t.Errorf("hello request %q", line)
	}

	f = &fakeImpl{resp: Response{Outcome: Accepted, Result: helloExample(t)}}
	if h, err := Handshake(context.Background(), f); err != nil || h.Implementation != "my-lace 0.3.1 (Rust 1.80)" || h.AllOps {
		t.Errorf("hello: %+v, %v", h, err)
	}

	for _, tt := range []struct {
		resp Response
		want string
	}{
		{Response{Outcome: Rejected, Code: "NO", Detail: "go away"}, "hello rejected: NO: go away"},
		{Response{Outcome: Accepted, Result: json.RawMessage(`{"protocol":2,"ops":[],"profiles":[],"limits":{}}`)}, "speaks protocol 1"},
	} {
		_, err := Handshake(context.Background(), &fakeImpl{resp: tt.resp})
		var f *Failure
		if !errors.As(err, &f) || f.Kind != BadHello || f.Op != OpHello || !strings.Contains(f.Detail, tt.want) {
			t.Errorf("got %v, want bad-hello %q", err, tt.want)
		}
	}
	// A testee failure passes through unchanged.
	fail := &Failure{Kind: Timeout, Op: OpHello}
	if _, err := Handshake(context.Background(), &fakeImpl{err: fail}); err != fail {
		t.Errorf("got %v", err)
	}
}

// Failures.

func TestFailureError(t *testing.T) {
	tests := []struct {
		f    Failure
		want string
	}{
		{Failure{Kind: WrongID, ID: 7, Op: "lace.record", Detail: "answer carries id 8 (out of order)"},
			"testee failure (wrong-id) on request 7 lace.record: answer carries id 8 (out of order)"},
		{Failure{Kind: Timeout, ID: 0, Op: "hello", Detail: "no answer within 10s", Stderr: []byte("not shown")},
			"testee failure (timeout) on request 0 hello: no answer within 10s"},
		{Failure{Kind: InvalidJSON, ID: 3, Detail: "not valid JSON"}, "testee failure (invalid-json): not valid JSON"},
		{Failure{Kind: Kind(200)}, "testee failure (Kind(200))"},
	}
	for _, tt := range tests {
		if got := tt.f.Error(); got != tt.want {
			t.Errorf("got %q\nwant %q", got, tt.want)
		}
	}
	inner := context.Canceled
	if err := error(&Failure{Kind: Canceled, Err: inner}); !errors.Is(err, context.Canceled) {
		t.Error("Unwrap")
	}
	var names []string
	for k := Timeout; k <= Closed; k++ {
		names = append(names, k.String())
	}
	want := "timeout exited invalid-json bad-shape wrong-id flood start-failed bad-exit bad-hello canceled closed"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("kinds %q", got)
	}
	if Accepted.String() != "accepted" || Rejected.String() != "rejected" || Unsupported.String() != "unsupported" || Outcome(0).String() != "Outcome(0)" {
		t.Error("Outcome.String")
	}
}

// asRead checks that a response read from a line reports its result checked
// exactly when it is accepted, and returns it as a Response literal without
// that record, to compare with one.
func asRead(t testing.TB, r Response) Response {
	t.Helper()
	if r.ResultChecked() != (r.Outcome == Accepted) {
		t.Errorf("%+v: ResultChecked %v", r, r.ResultChecked())
	}
	built := r
	built.checked = nil
	if built.ResultChecked() {
		t.Errorf("%+v: a built response reports its result checked", built)
	}
	return built
}
