package testee

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// readAll reads every line from lr; it returns the lines, the final error
// and the pending count at that point.
func readAll(lr *lineReader) (lines []string, err error, pending int) {
	for {
		line, err := lr.readLine()
		if err != nil {
			return lines, err, lr.pending()
		}
		lines = append(lines, string(line))
	}
}

// splitLines is the reference: the LF-terminated lines of s and the length
// of an unterminated tail.
func splitLines(s string) (lines []string, tail int) {
	parts := strings.Split(s, "\n")
	return parts[:len(parts)-1], len(parts[len(parts)-1])
}

// chunkReader returns its input in reads of at most n bytes.
type chunkReader struct {
	b []byte
	n int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.b) == 0 {
		return 0, io.EOF
	}
	k := copy(p[:min(len(p), c.n)], c.b)
	c.b = c.b[k:]
	return k, nil
}

func TestLineReader(t *testing.T) {
	long := strings.Repeat("L", 3*readBufSize+11)
	inputs := []string{
		"",
		"\n",
		"a\n",
		"a\nbc\n\n",
		"a\nunterminated",
		long + "\nshort\n" + long + "\n",
		"short\n" + long,
		strings.Repeat("x", readBufSize-1) + "\n" + strings.Repeat("y", readBufSize) + "\n" + strings.Repeat("z", readBufSize+1) + "\n",
	}
	readers := map[string]func(string) io.Reader{
		"whole":    func(s string) io.Reader { return strings.NewReader(s) },
		"one byte": func(s string) io.Reader { return iotest.OneByteReader(strings.NewReader(s)) },
		"half":     func(s string) io.Reader { return iotest.HalfReader(strings.NewReader(s)) },
		"data+err": func(s string) io.Reader { return iotest.DataErrReader(strings.NewReader(s)) },
		"chunks":   func(s string) io.Reader { return &chunkReader{[]byte(s), 70001} },
	}
	for name, mk := range readers {
		for _, in := range inputs {
			want, tail := splitLines(in)
			lines, err, pending := readAll(newLineReader(mk(in), 1<<30))
			if err != io.EOF || pending != tail || strings.Join(lines, "|") != strings.Join(want, "|") {
				t.Errorf("%s, input of %d bytes: %d lines, %v, pending %d; want %d lines, pending %d", name, len(in), len(lines), err, pending, len(want), tail)
			}
		}
	}
}

// TestLineReaderCap: a line of exactly max bytes passes; one more is too long.
func TestLineReaderCap(t *testing.T) {
	for _, max := range []int{0, 1, 10, readBufSize - 1, readBufSize, readBufSize + 1, 2*readBufSize + 3} {
		for _, n := range []int{max, max + 1} {
			in := "ok\n" + strings.Repeat("a", n) + "\nnext\n"
			for _, r := range []io.Reader{strings.NewReader(in), &chunkReader{[]byte(in), 1000}} {
				lr := newLineReader(r, max)
				var lines []string
				var err error
				for {
					var line []byte
					if line, err = lr.readLine(); err != nil {
						break
					}
					lines = append(lines, string(line))
				}
				switch {
				case max < 2: // even "ok" is too long
					if err != errLineTooLong || len(lines) != 0 {
						t.Errorf("max %d: %d lines, %v", max, len(lines), err)
					}
				case n == max:
					if err != io.EOF || len(lines) != 3 || len(lines[1]) != n || lines[2] != "next" {
						t.Errorf("max %d, line %d: %d lines, %v", max, n, len(lines), err)
					}
				default:
					if err != errLineTooLong || len(lines) != 1 {
						t.Errorf("max %d, line %d: %d lines, %v", max, n, len(lines), err)
					}
				}
			}
		}
	}
}

// endless is a reader of endless bytes without a newline.
type endless struct{ n int64 }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	e.n += int64(len(p))
	return len(p), nil
}

// TestLineReaderFlood: an endless line is cut at the cap, having read and
// kept no more than the cap and a read buffer.
func TestLineReaderFlood(t *testing.T) {
	const max = 1 << 20
	src := &endless{}
	lr := newLineReader(src, max)
	if _, err := lr.readLine(); err != errLineTooLong {
		t.Fatal(err)
	}
	if src.n > max+readBufSize || cap(lr.long) > max {
		t.Errorf("read %d bytes, kept %d, for a cap of %d", src.n, cap(lr.long), max)
	}
	if allocs := testing.AllocsPerRun(5, func() {
		lr := newLineReader(&endless{}, max)
		lr.readLine()
	}); allocs > 30 {
		t.Errorf("%v allocations", allocs)
	}
}

func TestLineReaderReleasesLongLines(t *testing.T) {
	in := strings.Repeat("a", 2*keepLong) + "\nb\n"
	lr := newLineReader(strings.NewReader(in), 1<<30)
	if line, err := lr.readLine(); err != nil || len(line) != 2*keepLong {
		t.Fatal(err)
	}
	if line, err := lr.readLine(); err != nil || string(line) != "b" || lr.long != nil {
		t.Errorf("%q %v, long kept: %d", line, err, cap(lr.long))
	}
}

func TestLineReaderError(t *testing.T) {
	boom := errors.New("boom")
	lr := newLineReader(io.MultiReader(strings.NewReader("a\nbc"), iotest.ErrReader(boom)), 100)
	lines, err, pending := readAll(lr)
	if err != boom || len(lines) != 1 || pending != 2 {
		t.Errorf("%q %v %d", lines, err, pending)
	}
}

func TestTail(t *testing.T) {
	tests := []struct {
		max    int
		writes []string
	}{
		{10, nil},
		{10, []string{"abc"}},
		{10, []string{"abc", "defghij"}},
		{10, []string{"abc", "defghijk"}},
		{10, []string{"abcdefghijklmnop"}},
		{10, []string{"abcdefgh", "ijklmnopqrstuvwxyz0123"}},
		{10, []string{"abcdefgh", "ij", "k", "lmn", "opqrstu", "v", "wxyz", "0"}},
		{10, []string{"0123456789", "abcdefghi"}},
		{1, []string{"ab", "c"}},
		{0, []string{"abc"}},
	}
	for _, tt := range tests {
		tl := newTail(tt.max)
		all := ""
		for _, w := range tt.writes {
			if n, err := tl.Write([]byte(w)); n != len(w) || err != nil {
				t.Fatalf("Write: %d %v", n, err)
			}
			all += w
			want := all[max(0, len(all)-tt.max):]
			if got := string(tl.Bytes()); got != want {
				t.Errorf("max %d after %q: got %q, want %q", tt.max, tt.writes, got, want)
			}
		}
		if tl.Total() != int64(len(all)) {
			t.Errorf("Total %d, want %d", tl.Total(), len(all))
		}
	}
	big := newTail(DefaultStderrTail)
	for range 1000 {
		big.Write(bytes.Repeat([]byte("0123456789abcde\n"), 100))
	}
	if b := big.Bytes(); len(b) != DefaultStderrTail || !bytes.HasSuffix(b, []byte("abcde\n")) {
		t.Errorf("big tail of %d bytes", len(b))
	}
}

// A line expected to be n bytes long that outgrows the read buffer is
// gathered in one buffer of about n bytes (no doubling); a longer line than
// expected is still read whole, and the cap still holds.
func TestLineReaderExpect(t *testing.T) {
	const n = 5*readBufSize + 17
	line := strings.Repeat("e", n)
	cases := []struct {
		name          string
		expect, max   int
		wantCap       int // 0: any
		wantTooLong   bool
		wantAllocsMax float64
	}{
		{"expected exactly", n, 1 << 30, n + readBufSize, false, 1},
		{"expected more", 2 * n, 1 << 30, 2*n + readBufSize, false, 1},
		{"expected less", n / 2, 1 << 30, 0, false, 2},
		{"expected nothing", 0, 1 << 30, 0, false, 4},
		{"expected more than the cap", 2 * n, n + 5, n + 5, false, 1},
		{"longer than the cap", n, n - 1, 0, true, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []byte
			var err error
			read := func(in []byte) func() {
				return func() {
					lr := newLineReader(&chunkReader{in, 7000}, c.max)
					lr.expect = c.expect
					got, err = lr.readLine()
				}
			}
			base := testing.AllocsPerRun(3, read([]byte("short\n")))
			allocs := testing.AllocsPerRun(3, read([]byte(line+"\nnext\n"))) - base
			if c.wantTooLong {
				if err != errLineTooLong {
					t.Fatalf("error %v, want errLineTooLong", err)
				}
				return
			}
			if err != nil || string(got) != line {
				t.Fatalf("read %d bytes, %v; want the line of %d", len(got), err, n)
			}
			if c.wantCap != 0 && cap(got) != c.wantCap {
				t.Errorf("gathered in a buffer of %d bytes, want %d", cap(got), c.wantCap)
			}
			if allocs > c.wantAllocsMax {
				t.Errorf("%.0f allocations for the long line, want at most %.0f", allocs, c.wantAllocsMax)
			}
		})
	}
}
