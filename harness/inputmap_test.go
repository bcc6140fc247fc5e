//go:build unix

package harness

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/threespec/conformance/testee"
	"github.com/threespec/conformance/vectorset"
)

// sumImpl answers every request with its input's length and BLAKE2b; before,
// when set, runs first (the test's way to change the file under a mapping),
// and it writes into the input, which a testee may do to bytes it is given.
type sumImpl struct{ before func() }

func (s sumImpl) Do(_ context.Context, req testee.Request) (testee.Response, error) {
	if s.before != nil {
		s.before()
	}
	sum := vectorset.Hash(req.Input)
	if len(req.Input) > 0 {
		req.Input[0] ^= 0xff
	}
	return testee.Response{Outcome: testee.Accepted, Result: fmt.Appendf(nil, `{"n":%d,"sum":%q}`, len(req.Input), sum)}, nil
}

func (sumImpl) Close() error { return nil }

// An input file of mapMin bytes or more is mapped: the testee gets exactly
// its bytes, may write into them without changing the file, and a file cut
// short while it is mapped is answered BAD_REQUEST instead of crashing the
// testee; one below mapMin, or over the cap, takes readInputFile's way.
func TestServeMappedInput(t *testing.T) {
	dir := t.TempDir()
	big := bytes.Repeat([]byte("0123456789abcdef"), (mapMin+3<<12)/16)
	file := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	serve := func(impl testee.Implementation, path string, maxInput int) testee.Response {
		t.Helper()
		line := fmt.Sprintf(`{"id":3,"op":"lace.record","args":{},"input_path":%q}`, path)
		var out bytes.Buffer
		if err := Serve(context.Background(), strings.NewReader(line), &out, impl, max(maxInput, len(line))); err != nil {
			t.Fatal(err)
		}
		resp, err := testee.ParseResponse(bytes.TrimSuffix(out.Bytes(), []byte("\n")), 3)
		if err != nil {
			t.Fatalf("%v: %s", err, out.Bytes())
		}
		return resp
	}
	for _, c := range []struct {
		name string
		b    []byte
	}{{"mapped", big}, {"read", big[:mapMin-1]}} {
		t.Run(c.name, func(t *testing.T) {
			p := file(c.name, c.b)
			resp := serve(sumImpl{}, p, 2*len(big))
			want := fmt.Sprintf(`{"n":%d,"sum":%q}`, len(c.b), vectorset.Hash(c.b))
			if resp.Outcome != testee.Accepted || string(resp.Result) != want {
				t.Fatalf("answered %v %s %s; want %s", resp.Outcome, resp.Detail, resp.Result, want)
			}
			if got, err := os.ReadFile(p); err != nil || !bytes.Equal(got, c.b) {
				t.Errorf("the testee's write into its input reached the file (%v)", err)
			}
		})
	}
	t.Run("over the cap", func(t *testing.T) {
		resp := serve(sumImpl{}, file("over", big), len(big)-1)
		if resp.Code != BadRequest || !strings.Contains(resp.Detail, "longer than the read cap") {
			t.Errorf("answered %v %q %q; want BAD_REQUEST naming the cap", resp.Outcome, resp.Code, resp.Detail)
		}
	})
	t.Run("cut short while mapped", func(t *testing.T) {
		p := file("cut", big)
		cut := func() {
			if err := os.Truncate(p, 0); err != nil {
				t.Error(err)
			}
		}
		resp := serve(sumImpl{before: cut}, p, 2*len(big))
		if resp.Outcome != testee.Rejected || resp.Code != BadRequest || !strings.Contains(resp.Detail, "the file changed while it was read") {
			t.Errorf("answered %v %q %q; want BAD_REQUEST saying the file changed", resp.Outcome, resp.Code, resp.Detail)
		}
	})
}
