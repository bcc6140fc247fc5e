package testee

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
)

func TestServe(t *testing.T) {
	in := `{"id":0,"op":"hello","args":{},"input":""}` + "\n" +
		`{"id":1,"op":"test.reject","args":{},"input":""}` + "\n" +
		`{"id":2,"op":"lace.record","args":{"mark":"none"},"input":"8J+WpzogQi5r"}` + "\n" +
		`{"id":-9,"op":"test.echo","args":{"a":[1]},"input":"Zm9v"}` + "\n"
	want := `{"id":0,"ok":true,"result":` + echoHello + `}` + "\n" +
		`{"id":1,"ok":false,"code":"TEST_REJECT","detail":"rejected as asked","rule":"TEST-REJ-01"}` + "\n" +
		`{"id":2,"unsupported":true}` + "\n"
	var out bytes.Buffer
	if err := Serve(context.Background(), strings.NewReader(in), &out, echoImpl{}, 0); err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(out.String(), "\n")
	if len(lines) != 5 || strings.Join(lines[:3], "") != want {
		t.Fatalf("got %q", out.String())
	}
	resp, err := ParseResponse([]byte(strings.TrimSuffix(lines[3], "\n")), -9)
	if err != nil {
		t.Fatal(err)
	}
	if e := decodeEcho(t, resp); e.Op != "test.echo" || string(e.Args) != `{"a":[1]}` || string(e.Input) != "foo" {
		t.Errorf("echo %+v", e)
	}
}

type failingImpl struct{}

func (failingImpl) Do(context.Context, Request) (Response, error) {
	return Response{}, errors.New("internal error")
}
func (failingImpl) Close() error { return nil }

type badResponseImpl struct{}

func (badResponseImpl) Do(context.Context, Request) (Response, error) {
	return Response{Outcome: Rejected}, nil
}
func (badResponseImpl) Close() error { return nil }

func TestServeErrors(t *testing.T) {
	good := `{"id":0,"op":"test.reject","args":{},"input":""}` + "\n"
	answered := `{"id":0,"ok":false,"code":"TEST_REJECT","detail":"rejected as asked","rule":"TEST-REJ-01"}` + "\n"
	tests := []struct {
		name, in string
		impl     Implementation
		maxLine  int
		err      string
	}{
		{"bad line", good + `{"id":1}` + "\n", echoImpl{}, 0, `request line 2: missing "op"`},
		{"unterminated", good + `{"id":1,"op":"x","args":{},"input":""}`, echoImpl{}, 0, "request line 2: input ends inside the line"},
		{"too long", good + strings.Repeat(" ", 100) + "\n", echoImpl{}, 60, "request line 2: longer than 60 bytes"},
		{"impl error", good, failingImpl{}, 0, "request 0 (test.reject): internal error"},
		{"bad response", good, badResponseImpl{}, 0, "response 0: rejected without a code"},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		err := Serve(context.Background(), strings.NewReader(tt.in), &out, tt.impl, tt.maxLine)
		if err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%s: got %v, want %q", tt.name, err, tt.err)
		}
		if _, ok := tt.impl.(echoImpl); ok && out.String() != answered {
			t.Errorf("%s: wrote %q", tt.name, out.String())
		}
	}
}
