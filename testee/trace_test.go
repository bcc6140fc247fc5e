package testee

import (
	"bytes"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"
)

// A trace line is the time, the process, the direction and the line, a
// long input or answer cut with its size said; a nil trace is silent.
func TestTraceLines(t *testing.T) {
	var b bytes.Buffer
	tr := NewTrace(&b)
	long := bytes.Repeat([]byte{0xfb}, 1000)
	tr.Request("pid 7", Request{ID: 3, Op: "x.op", Args: []byte(`{"a": 1}`), Input: long})
	tr.Request("pid 7", Request{ID: 4, Op: "x.op", Input: []byte("hi")})
	tr.Request("pid 7", Request{ID: 5, Op: "x.op", InputPath: "/tmp/in", InputSize: 9})
	tr.Answer("pid 7", append([]byte(`{"id":3,"ok":true,"result":{"s":"`+strings.Repeat("é", 600)), `"}}`...), 1500*time.Microsecond)
	tr.Failure("one-shot x.op", &Failure{Kind: Timeout, Detail: "no answer within 1s"}, time.Second)
	tr.Failure("pid 8", errors.New("plain"), 0)
	var nilTrace *Trace
	nilTrace.Request("pid 9", Request{ID: 1, Op: "x"})
	nilTrace.Answer("pid 9", []byte("{}"), 0)

	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	want := []string{
		`^\+\d+\.\d{3}s pid 7 > \{"id":3,"op":"x\.op","args":\{"a":1\},"input":"(\+/v7){16}\.\.\."\} \(input 1000 bytes, 1336 in base64\)$`,
		`^\+\d+\.\d{3}s pid 7 > \{"id":4,"op":"x\.op","args":\{\},"input":"aGk="\}$`,
		`^\+\d+\.\d{3}s pid 7 > \{"id":5,"op":"x\.op","args":\{\},"input_path":"/tmp/in"\} \(9 bytes by path\)$`,
		`^\+\d+\.\d{3}s pid 7 < \{"id":3,"ok":true,"result":\{"s":"(é)+\.\.\. \(1236 bytes\)  \(1\.5ms\)$`,
		`^\+\d+\.\d{3}s one-shot x\.op ! timeout: no answer within 1s  \(1s\)$`,
		`^\+\d+\.\d{3}s pid 8 ! plain  \(0s\)$`,
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), b.String())
	}
	for i, w := range want {
		if !regexp.MustCompile(w).MatchString(lines[i]) {
			t.Errorf("line %d:\n%s\ndoes not match %s", i+1, lines[i], w)
		}
	}
	if tr.Err() != nil {
		t.Error(tr.Err())
	}
}
