package jsonscan

import "testing"

// stringCloseBytewise is StringClose as a byte-at-a-time walk: a backslash
// escapes the byte after it, the first quote not escaped ends the string.
func stringCloseBytewise(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j
		}
	}
	return -1
}

func TestStringClose(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
	}{
		{`""`, 1}, {`"a\"b"`, 5}, {`"\\"x"`, 3}, {`"\\\"x"`, 6}, {`"\`, -1}, {`"abc`, -1},
		{`"\\\\\\\\"`, 9}, {`""""`, 1},
	} {
		if got := StringClose([]byte(c.in), 0); got != c.want {
			t.Errorf("StringClose(%q) = %d, want %d", c.in, got, c.want)
		}
	}
}

// FuzzStringClose: StringClose ends every string where the bytewise walk
// does, from any quote of any bytes (testee runs it on lines not yet
// validated).
func FuzzStringClose(f *testing.F) {
	for _, s := range []string{`""`, `"a\"b"`, `"\\"x"`, `"\\\"x"`, `"\`, `"abc`, `"\\\\\\\\"`, `x"\"\\"y"`, `""""`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for i, c := range b {
			if c != '"' {
				continue
			}
			if got, want := StringClose(b, i), stringCloseBytewise(b, i); got != want {
				t.Fatalf("%q from %d: StringClose %d, bytewise %d", b, i, got, want)
			}
		}
	})
}

func TestSkipSpace(t *testing.T) {
	for _, c := range []struct {
		in      string
		i, want int
	}{{"", 0, 0}, {" \t\r\n{", 0, 4}, {"a  b", 1, 3}, {"   ", 1, 3}, {"\v", 0, 0}} {
		if got := SkipSpace([]byte(c.in), c.i); got != c.want {
			t.Errorf("SkipSpace(%q, %d) = %d, want %d", c.in, c.i, got, c.want)
		}
	}
}
