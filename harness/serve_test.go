package harness

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/threespec/conformance/internal/allspecs"
	"github.com/threespec/conformance/reference"
	"github.com/threespec/conformance/testee"
)

// want is an expected answer: its id and shape (and code for rejections).
type want struct {
	id      int64
	outcome testee.Outcome
	code    string
}

func TestServeNeverGivesUp(t *testing.T) {
	rcap, err := os.ReadFile("../vectors/positive/hiverelay/read-cell-cap-v1.bin")
	if err != nil {
		t.Fatal(err)
	}
	b64 := base64.StdEncoding.EncodeToString
	long := `{"id":11,"op":"hello","args":{},"input":"` + strings.Repeat("A", 4000) + `"}`
	cases := []struct {
		name string
		line string
		want want
	}{
		{"not JSON", `not json`, want{UnknownID, testee.Rejected, BadRequest}},
		{"empty line", ``, want{UnknownID, testee.Rejected, BadRequest}},
		{"JSON array", `[1,2]`, want{UnknownID, testee.Rejected, BadRequest}},
		{"members missing, id readable", `{"id":5,"op":"hello"}`, want{5, testee.Rejected, BadRequest}},
		{"id not an integer", `{"id":7.5,"op":"hello","args":{},"input":""}`, want{UnknownID, testee.Rejected, BadRequest}},
		{"input not base64", `{"id":10,"op":"hello","args":{},"input":"!!"}`, want{10, testee.Rejected, BadRequest}},
		{"args not an object", `{"id":12,"op":"hello","args":[],"input":""}`, want{12, testee.Rejected, BadRequest}},
		{"a name twice in args", `{"id":16,"op":"libtracer.decode","args":{"report":"verdict","report":"frames"},"input":"AQAA"}`, want{16, testee.Rejected, BadRequest}},
		{"unknown op", `{"id":6,"op":"nosuch.op","args":{},"input":""}`, want{6, testee.Unsupported, ""}},
		{"request built wrong for the op", `{"id":8,"op":"lace.construct","args":{},"input":"` + b64([]byte("not json")) + `"}`, want{8, testee.Rejected, BadRequest}},
		{"line over the cap", long, want{UnknownID, testee.Rejected, BadRequest}},
		{"a good request after all that", `{"id":13,"op":"hiverelay.decode","args":{"schema":"ReadCellCapV1"},"input":"` + b64(rcap) + `"}`, want{13, testee.Accepted, ""}},
		{"rejection", `{"id":14,"op":"hiverelay.decode","args":{"schema":"ReadCellCapV1"},"input":"` + b64(rcap[:10]) + `"}`, want{14, testee.Rejected, "BAD_ENCODING"}},
		{"final line without LF", `{"id":15,"op":"hello","args":{},"input":""}`, want{15, testee.Accepted, ""}},
	}
	var in strings.Builder
	for i, c := range cases {
		in.WriteString(c.line)
		if i < len(cases)-1 {
			in.WriteString("\n")
		}
	}
	var out bytes.Buffer
	maxLine := 0 // every line fits but the long one
	for _, c := range cases {
		if c.line != long {
			maxLine = max(maxLine, len(c.line))
		}
	}
	if len(long) <= maxLine {
		t.Fatal("the long line must be longer than the cap")
	}
	if err := Serve(context.Background(), strings.NewReader(in.String()), &out, reference.New(allspecs.Set()), maxLine); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != len(cases) {
		t.Fatalf("%d answers to %d lines:\n%s", len(lines), len(cases), out.String())
	}
	for i, c := range cases {
		resp, err := testee.ParseResponse([]byte(lines[i]), c.want.id)
		if err != nil {
			t.Errorf("%s: %v: %s", c.name, err, lines[i])
			continue
		}
		if resp.Outcome != c.want.outcome || resp.Code != c.want.code {
			t.Errorf("%s: got %v %q, want %v %q: %s", c.name, resp.Outcome, resp.Code, c.want.outcome, c.want.code, lines[i])
		}
	}
	// The accepted decode re-encodes the positive vector byte for byte
	// (HiveRelay BCC v1, section 5).
	var res struct{ Reencoded []byte }
	r, _ := testee.ParseResponse([]byte(lines[11]), 13)
	if err := json.Unmarshal(r.Result, &res); err != nil || !bytes.Equal(res.Reencoded, rcap) {
		t.Errorf("reencoded differs from the input (%v)", err)
	}
}

func TestServeOneShot(t *testing.T) {
	rcap, err := os.ReadFile("../vectors/positive/hiverelay/read-cell-cap-v1.bin")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, op, args string
		input          []byte
		max            int
		exit           int
		want           want
	}{
		{"accept", "hiverelay.decode", `{"schema":"ReadCellCapV1"}`, rcap, 0, 0, want{0, testee.Accepted, ""}},
		{"reject", "hiverelay.decode", `{"schema":"ReadCellCapV1"}`, rcap[:3], 0, 1, want{0, testee.Rejected, "BAD_ENCODING"}},
		{"unsupported op", "nosuch.op", ``, nil, 0, 0, want{0, testee.Unsupported, ""}},
		{"args absent", "hello", ``, nil, 0, 0, want{0, testee.Accepted, ""}},
		{"args not JSON", "hello", `{`, nil, 0, 1, want{0, testee.Rejected, BadRequest}},
		{"args not an object", "hello", `[1]`, nil, 0, 1, want{0, testee.Rejected, BadRequest}},
		{"args null", "hello", `null`, nil, 0, 1, want{0, testee.Rejected, BadRequest}},
		{"a name twice in args", "libtracer.decode", `{"report":"verdict","report":"frames"}`, []byte{1, 0, 0}, 0, 1, want{0, testee.Rejected, BadRequest}},
		{"input over the cap", "hiverelay.decode", `{"schema":"ReadCellCapV1"}`, rcap, 16, 1, want{0, testee.Rejected, BadRequest}},
		{"construct input not JSON", "lace.construct", `{}`, []byte("{"), 0, 1, want{0, testee.Rejected, BadRequest}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			exit, err := ServeOneShot(context.Background(), c.op, bytes.NewReader(c.input), c.args, &out, reference.New(allspecs.Set()), c.max)
			if err != nil {
				t.Fatal(err)
			}
			if exit != c.exit {
				t.Errorf("exit %d, want %d", exit, c.exit)
			}
			if !strings.HasSuffix(out.String(), "}\n") || strings.Count(out.String(), "\n") != 1 {
				t.Errorf("not one line: %q", out.String())
			}
			resp, err := testee.ParseResponse(bytes.TrimSuffix(out.Bytes(), []byte("\n")), c.want.id)
			if err != nil {
				t.Fatal(err)
			}
			if resp.Outcome != c.want.outcome || resp.Code != c.want.code {
				t.Errorf("got %v %q, want %v %q: %s", resp.Outcome, resp.Code, c.want.outcome, c.want.code, out.String())
			}
		})
	}
}

// FuzzServe: whatever arrives, Serve answers every line with one valid
// response line, in order, and never stops early; a line that is no
// request (ParseRequest fails, or it is over the cap) is answered with a
// BAD_REQUEST that names its line. Inputs by path read a fake file system:
// /fuzz/a holds 3 bytes, /fuzz/big is over the cap, nothing else exists.
func FuzzServe(f *testing.F) {
	f.Add([]byte(`{"id":1,"op":"hello","args":{},"input":""}` + "\nnot json\n{\"id\":2}"))
	f.Add([]byte("\n\n\n"))
	f.Add([]byte(`{"id":3,"op":"hiverelay.decode","args":{"schema":"CellBlobV1","class":1},"input":"AQ=="}`))
	f.Add([]byte(`{"id":4,"op":"lace.record","args":{"mark":"none"},"input":"8J+WpzogQi5r"}`))
	f.Add([]byte(`{"id":5,"op":"lace.record","args":{},"input_path":"/fuzz/a"}` + "\n" + `{"id":6,"op":"lace.record","args":{},"input_path":"/fuzz/big"}`))
	f.Add([]byte(`{"id":7,"op":"lace.record","args":{},"input_path":"/fuzz/a","input":""}` + "\n" + `{"id":8,"op":"x","args":{},"input_path":"rel"}`))
	f.Add([]byte(`{"id":9,"op":"lace.record","args":{},"input":"QUJD` + strings.Repeat("QUFB", 80) + `"}`))
	old := openInput
	defer func() { openInput = old }()
	openInput = func(path string, max int) ([]byte, func(), error) {
		switch path {
		case "/fuzz/a":
			return []byte("abc"), func() {}, nil
		case "/fuzz/big":
			return nil, nil, errors.New("over the cap")
		}
		return nil, nil, os.ErrNotExist
	}
	const maxLine = 256
	f.Fuzz(func(t *testing.T, in []byte) {
		var out bytes.Buffer
		if err := Serve(context.Background(), bytes.NewReader(in), &out, reference.New(allspecs.Set()), maxLine); err != nil {
			t.Fatal(err)
		}
		reqs := bytes.Split(bytes.TrimSuffix(in, []byte("\n")), []byte("\n"))
		if len(in) == 0 {
			reqs = nil
		}
		lines := bytes.Split(bytes.TrimSuffix(out.Bytes(), []byte("\n")), []byte("\n"))
		if len(reqs) == 0 {
			if out.Len() != 0 {
				t.Fatalf("answers without a request: %q", out.String())
			}
			return
		}
		if len(lines) != len(reqs) {
			t.Fatalf("%d answers to %d lines", len(lines), len(reqs))
		}
		for i, l := range lines {
			var v struct{ ID *int64 }
			if err := json.Unmarshal(l, &v); err != nil || v.ID == nil {
				t.Fatalf("answer %q: %v", l, err)
			}
			resp, err := testee.ParseResponse(l, *v.ID)
			if err != nil {
				t.Fatalf("answer %q: %v", l, err)
			}
			if _, perr := testee.ParseRequest(reqs[i]); perr != nil || len(reqs[i]) > maxLine {
				tag := fmt.Sprintf("request line %d", i+1)
				if resp.Outcome != testee.Rejected || resp.Code != BadRequest || !strings.HasPrefix(resp.Detail, tag) {
					t.Fatalf("line %d %q is no request (%v), answered %q", i+1, reqs[i], perr, l)
				}
			}
		}
	})
}

// readInputFile reads exactly the file's bytes, at most the cap, into one
// buffer of the file's size and a byte more (a regular file is not read
// into a second, doubled buffer at its end).
func TestReadInputFile(t *testing.T) {
	dir := t.TempDir()
	file := func(name string, n int) string {
		p := dir + "/" + name
		if err := os.WriteFile(p, bytes.Repeat([]byte{'x'}, n), 0o400); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := []struct {
		name    string
		path    string
		max     int
		wantLen int
		wantErr string
	}{
		{"empty", file("empty", 0), 16, 0, ""},
		{"small", file("small", 5), 16, 5, ""},
		{"exactly the cap", file("cap", 16), 16, 16, ""},
		{"one byte over the cap", file("over", 17), 16, 0, "17 bytes, longer than the read cap of 16 bytes"},
		{"one MiB", file("mib", 1<<20), 2 << 20, 1 << 20, ""},
		// Only regular files are read (issue 30): a device or a FIFO is
		// refused before it is read (serve_unix_test.go).
		{"a device", "/dev/zero", 1000, 0, "/dev/zero: not a regular file (a character device)"},
		{"a directory", dir, 1000, 0, "not a regular file (a directory)"},
		{"missing", dir + "/nothing", 16, 0, "no such file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, err := readInputFile(c.path, c.max)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("error %v, want one saying %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(b) != c.wantLen || bytes.ContainsFunc(b, func(r rune) bool { return r != 'x' }) {
				t.Fatalf("read %d bytes, want %d of the file's", len(b), c.wantLen)
			}
			if fi, _ := os.Stat(c.path); fi.Mode().IsRegular() && cap(b) > len(b)+1 {
				t.Errorf("buffer capacity %d for a %d-byte file: read into more than one buffer of its size", cap(b), len(b))
			}
		})
	}
}
