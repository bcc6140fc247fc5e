package hiverelay

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"strings"
)

// The value language of the HiveRelay steps. Byte strings are written as a
// sequence of terms joined by " + ":
//
//	01 fd 2c 01                     hex bytes
//	"text"                          the bytes of a Go-quoted string ("\n", "\xc0")
//	label "l"                       the 32 bytes Label32(l) of docs/hiverelay.md
//	300 bytes of label "l"          LabelBytes(l, 300)
//	300 bytes                       300 label-derived filler bytes
//	31 zero bytes                   zeros
//	1048575 times "x"               a repeated string
//	compact 300, u16be 1, u32be 7,  an integer in that encoding
//	u64be 7985
//	declaration "ReadCellCapV1"     the schema's canonical declaration text
//	the spec                        the exact spec bytes
//	the schema catalog              the reference catalog's bytes
//	the vector "positive/x.bin"     a committed vector
//	the published file "f"          a file of manifest/hiverelay/
//	zero, empty                     all-zero bytes of the field's size; nothing
//
// Integers are decimal, 0x-hex, or 2^N, 2^N-1, 2^N+1.

var (
	hexRun   = regexp.MustCompile(`^[0-9a-f]{2}(?: [0-9a-f]{2})*`)
	quotedRe = regexp.MustCompile(`^"((?:[^"\\]|\\.)*)"`)
	intExpr  = `(?:0x[0-9a-f]+|2\^\d+(?:[+-]\d+)?|\d+)`
	terms    = []struct {
		re *regexp.Regexp
		fn func(m []string, size int) ([]byte, error)
	}{
		{regexp.MustCompile(`^label ` + quotedRe.String()[1:]), func(m []string, _ int) ([]byte, error) {
			l, err := unquote(m[1])
			return label32(string(l)), err
		}},
		{regexp.MustCompile(`^(\d+) bytes of label ` + quotedRe.String()[1:]), func(m []string, _ int) ([]byte, error) {
			n, err1 := count(m[1], 1)
			l, err2 := unquote(m[2])
			if err := errors.Join(err1, err2); err != nil {
				return nil, err
			}
			return labelBytes(string(l), n), nil
		}},
		{regexp.MustCompile(`^(\d+) zero bytes`), func(m []string, _ int) ([]byte, error) {
			n, err := count(m[1], 1)
			return make([]byte, n), err
		}},
		{regexp.MustCompile(`^(\d+) bytes`), func(m []string, _ int) ([]byte, error) {
			n, err := count(m[1], 1)
			return labelBytes("steps/filler", n), err
		}},
		{regexp.MustCompile(`^(\d+) times ` + quotedRe.String()[1:]), func(m []string, _ int) ([]byte, error) {
			s, err := unquote(m[2])
			if err != nil {
				return nil, err
			}
			n, err := count(m[1], len(s))
			return bytes.Repeat(s, n), err
		}},
		{regexp.MustCompile(`^(compact|u16be|u32be|u64be) (` + intExpr + `)`), func(m []string, _ int) ([]byte, error) {
			v, err := parseUint(m[2])
			if err != nil {
				return nil, err
			}
			switch m[1] {
			case "compact":
				return compact(nil, v), nil
			case "u16be":
				return binary.BigEndian.AppendUint16(nil, uint16(v)), nil
			case "u32be":
				return binary.BigEndian.AppendUint32(nil, uint32(v)), nil
			}
			return binary.BigEndian.AppendUint64(nil, v), nil
		}},
		{regexp.MustCompile(`^declaration ` + quotedRe.String()[1:]), func(m []string, _ int) ([]byte, error) {
			return declaration(m[1])
		}},
		{regexp.MustCompile(`^the spec`), func([]string, int) ([]byte, error) { return specBytes() }},
		{regexp.MustCompile(`^the schema catalog`), func([]string, int) ([]byte, error) {
			c, err := catalog()
			if err != nil {
				return nil, err
			}
			return c.encode(), nil
		}},
		{regexp.MustCompile(`^the vector ` + quotedRe.String()[1:]), func(m []string, _ int) ([]byte, error) {
			return vectorFile(m[1])
		}},
		{regexp.MustCompile(`^the published file ` + quotedRe.String()[1:]), func(m []string, _ int) ([]byte, error) {
			return publishedFile(m[1])
		}},
		{regexp.MustCompile(`^zero`), func(_ []string, size int) ([]byte, error) {
			if size <= 0 {
				return nil, fmt.Errorf("zero needs a field of fixed size")
			}
			return make([]byte, size), nil
		}},
		{regexp.MustCompile(`^empty`), func([]string, int) ([]byte, error) { return []byte{}, nil }},
		{quotedRe, func(m []string, _ int) ([]byte, error) { return unquote(m[1]) }},
		{hexRun, func(m []string, _ int) ([]byte, error) { return parseHex(m[0]) }},
	}
	plus = regexp.MustCompile(`^\s*\+\s*`)
)

// parseBytes reads a byte-string expression; size is the field's size,
// for "zero".
func parseBytes(expr string, size int) ([]byte, error) {
	rest := strings.TrimSpace(expr)
	out := []byte{}
	for first := true; rest != "" || first; first = false {
		if !first {
			m := plus.FindString(rest)
			if m == "" {
				return nil, fmt.Errorf("cannot read %q in the byte string %q", rest, expr)
			}
			rest = rest[len(m):]
		}
		matched := false
		for _, t := range terms {
			m := t.re.FindStringSubmatch(rest)
			if m == nil {
				continue
			}
			b, err := t.fn(m, size)
			if err != nil {
				return nil, fmt.Errorf("%q: %w", m[0], err)
			}
			out = append(out, b...)
			rest = strings.TrimSpace(rest[len(m[0]):])
			matched = true
			break
		}
		if !matched {
			return nil, fmt.Errorf("cannot read %q in the byte string %q", rest, expr)
		}
	}
	return out, nil
}

// maxBytes bounds what one term of the value language may build (16 MiB;
// the largest input of the features is a 1 MiB blob or spec).
const maxBytes = 1 << 24

// count reads a repeat count of a term whose unit is unit bytes.
func count(s string, unit int) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || unit > 0 && n > maxBytes/unit {
		return 0, fmt.Errorf("%s is not a count of at most %d bytes", s, maxBytes)
	}
	return n, nil
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// parseHex reads hex bytes separated by spaces.
func parseHex(s string) ([]byte, error) {
	return hex.DecodeString(strings.ReplaceAll(s, " ", ""))
}

// unquote reads the inside of a Go-quoted string ("\n", "\xc0", "\u0301").
// Raw LF, CR and tab (a Gherkin table cell turns \n into LF) stand for
// themselves.
func unquote(s string) ([]byte, error) {
	s = strings.NewReplacer("\n", `\n`, "\r", `\r`, "\t", `\t`).Replace(s)
	u, err := strconv.Unquote(`"` + s + `"`)
	if err != nil {
		return nil, fmt.Errorf("bad string %q: %v", s, err)
	}
	return []byte(u), nil
}

var intRe = regexp.MustCompile(`^` + intExpr + `$`)

// parseUint reads an unsigned integer: decimal, 0x-hex, 2^N, 2^N-1, 2^N+1.
func parseUint(s string) (uint64, error) {
	s = strings.TrimSpace(s)
	if !intRe.MatchString(s) {
		return 0, fmt.Errorf("%q is not an integer", s)
	}
	v := new(big.Int)
	switch {
	case strings.HasPrefix(s, "0x"):
		v.SetString(s[2:], 16)
	case strings.HasPrefix(s, "2^"):
		exp := s[2:]
		delta := int64(0)
		if i := strings.IndexAny(exp, "+-"); i >= 0 {
			d, _ := strconv.ParseInt(exp[i:], 10, 64)
			exp, delta = exp[:i], d
		}
		e, _ := strconv.Atoi(exp)
		v.Lsh(big.NewInt(1), uint(e))
		v.Add(v, big.NewInt(delta))
	default:
		v.SetString(s, 10)
	}
	if v.Sign() < 0 || !v.IsUint64() {
		return 0, fmt.Errorf("%s does not fit 64 bits", s)
	}
	return v.Uint64(), nil
}

// set gives a field a value written in the value language: an integer for
// u8..u64 (it must fit), a byte string for fixed and bounded fields (a fixed
// field keeps its declared size), absent or present (or a value, which makes
// it present) for an optional, empty for an array.
func (n *node) setValue(text string) error {
	text = strings.TrimSpace(text)
	switch n.kind {
	case u8, u16, u32, u64:
		v, err := parseUint(text)
		if err != nil {
			return err
		}
		if bits := map[fieldKind]uint{u8: 8, u16: 16, u32: 32}[n.kind]; bits > 0 && v>>bits != 0 {
			return fmt.Errorf("%s: %d does not fit %d bits", n.name, v, bits)
		}
		n.num, n.set = v, true
		return nil
	case fixed, bounded:
		b, err := parseBytes(text, len(n.data))
		if err != nil {
			return err
		}
		if n.size > 0 && len(b) != n.size {
			return fmt.Errorf("%s is %d bytes, the value %q is %d", n.name, n.size, text, len(b))
		}
		n.data = b
		return nil
	case optional:
		switch text {
		case "absent":
			n.on = false
			return nil
		case "present":
			n.on = true
			return nil
		}
		n.on = true
		return n.val.setValue(text)
	case array:
		if text == "empty" {
			n.items = nil
			return nil
		}
	}
	return fmt.Errorf("%s cannot be set to %q", n.name, text)
}
