package lace

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/zeebo/blake3"

	"github.com/threespec/conformance/impl/b64a"
	"github.com/threespec/conformance/impl/mark"
)

// Lace input builders. The steps write record bytes themselves from text a
// spec author can read, and compute every hash, By and Mark the text leaves
// to them; they never call the reference's parser, encoder or constructor.
// The primitives are BLAKE3-256 (github.com/zeebo/blake3), B64A
// (impl/b64a) and, for Marks, the stand-in signing scheme mark.BIP340Standin.
//
// Text notation (docstrings, quoted step arguments and table cells):
//
//	\r \n \t \\ \" \< \{     CR, LF, TAB, backslash, quote, '<', '{'
//	\xHH                     the byte 0xHH (also bytes that are not UTF-8)
//	\u{HHHH}                 the UTF-8 encoding of U+HHHH
//	{N × unit}               unit repeated N times (unit: text and escapes)
//	<digest>                 B64A of the BLAKE3-256 digest of every byte after
//	                         this line's LF: in a glyph line, the record's own
//	                         canonical payload (the text holds one record, so
//	                         each record it nests runs to the end of the text)
//	<digest of "text">       B64A of the BLAKE3-256 digest of text
//	<name>                   B64A of the digest of the record named name
//	<By>, <other By>         By text (V.<b64a>.H3) of the stand-in key
//	                         (By-secret of 32 0x07 bytes) or of the other key
//	                         (32 0x08 bytes)
//	<Mark over X>            stand-in Mark by the stand-in key (auxRand32 of
//	<Mark by the other key over X>   32 0x01 bytes) over the digest of X: "the
//	                         Plex" or "the Blob" (the nearest glyph line of
//	                         that type below this line) or a record name
//
// A docstring's text is taken exactly: its lines are joined with LF and it
// has no final LF unless it ends with an empty line (or \n).

// piece is a run of literal bytes or one placeholder.
type piece struct {
	lit []byte
	ph  string // the placeholder's text between < and >; "" for literal bytes
}

var repeatPattern = regexp.MustCompile(`^\{([0-9]+) × ([^}]*)\}`)

// expandText reads the notation above into pieces.
func expandText(s string) ([]piece, error) {
	var out []piece
	var lit []byte
	flush := func() {
		if len(lit) > 0 {
			out = append(out, piece{lit: lit})
			lit = nil
		}
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\':
			b, n, err := unescape(s[i:])
			if err != nil {
				return nil, err
			}
			lit = append(lit, b...)
			i += n
		case c == '{':
			m := repeatPattern.FindStringSubmatch(s[i:])
			if m == nil {
				lit = append(lit, c)
				i++
				continue
			}
			n, err := strconv.Atoi(m[1])
			if err != nil {
				return nil, err
			}
			unit, err := expandText(m[2])
			if err != nil {
				return nil, err
			}
			var u []byte
			for _, p := range unit {
				if p.ph != "" {
					return nil, fmt.Errorf("a repeated unit cannot hold the placeholder <%s>", p.ph)
				}
				u = append(u, p.lit...)
			}
			if r := bytes.Repeat(u, n); lit == nil {
				lit = r // a large repeat is not copied again
			} else {
				lit = append(lit, r...)
			}
			i += len(m[0])
		case c == '<':
			j := strings.IndexByte(s[i:], '>')
			if j < 0 {
				return nil, fmt.Errorf("unclosed placeholder in %q (write \\< for a literal '<')", s)
			}
			flush()
			out = append(out, piece{ph: s[i+1 : i+j]})
			i += j + 1
		default:
			lit = append(lit, c)
			i++
		}
	}
	flush()
	return out, nil
}

// unescape reads one escape at the start of s and returns its bytes and its
// length in s.
func unescape(s string) ([]byte, int, error) {
	if len(s) < 2 {
		return nil, 0, errors.New("text ends with a lone backslash")
	}
	switch s[1] {
	case 'r':
		return []byte{'\r'}, 2, nil
	case 'n':
		return []byte{'\n'}, 2, nil
	case 't':
		return []byte{'\t'}, 2, nil
	case '\\', '"', '<', '{':
		return []byte{s[1]}, 2, nil
	case 'x':
		if len(s) < 4 {
			return nil, 0, fmt.Errorf("short \\x escape in %q", s)
		}
		v, err := strconv.ParseUint(s[2:4], 16, 8)
		if err != nil {
			return nil, 0, fmt.Errorf("bad \\x escape %q", s[:4])
		}
		return []byte{byte(v)}, 4, nil
	case 'u':
		end := strings.IndexByte(s, '}')
		if len(s) < 4 || s[2] != '{' || end < 0 {
			return nil, 0, fmt.Errorf("bad \\u{...} escape in %q", s)
		}
		v, err := strconv.ParseUint(s[3:end], 16, 32)
		if err != nil || !utf8.ValidRune(rune(v)) {
			return nil, 0, fmt.Errorf("bad \\u{...} escape %q", s[:end+1])
		}
		return utf8.AppendRune(nil, rune(v)), end + 1, nil
	}
	return nil, 0, fmt.Errorf("unknown escape \\%c", s[1])
}

// The stand-in keys and auxRand32 of the steps' Seals. The By-secret is the
// one the spec's canonical Seal uses under 009; under the stand-in it gives
// another By.
var (
	standinSecret = [mark.KeySize]byte{7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7}
	otherSecret   = [mark.KeySize]byte{8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8}
	standinAux    = [mark.AuxSize]byte{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}
)

// byText is the By text V.<b64a>.H3 of the stand-in key of secret.
func byText(secret [mark.KeySize]byte) (string, error) {
	by, err := mark.BIP340Standin.By(secret)
	if err != nil {
		return "", err
	}
	return "V." + b64a.Encode(by[:]) + ".H3", nil
}

// markText is the stand-in Mark by secret over subject, as B64A text.
func markText(secret [mark.KeySize]byte, subject [32]byte) (string, error) {
	m, err := mark.BIP340Standin.Sign(secret, subject, standinAux)
	if err != nil {
		return "", err
	}
	return b64a.Encode(m[:]), nil
}

// glyphPrefix starts every record glyph line.
const glyphPrefix = "🖧: "

// builtRecord is a record the steps built and named.
type builtRecord struct {
	name   string
	bytes  []byte
	letter byte     // the type letter its glyph line states ('?' if none)
	digest [32]byte // BLAKE3-256 of every byte after its first line's LF
}

// hashText is the record's H3 hash text, with the type its glyph states.
func (r *builtRecord) hashText() string {
	return string(r.letter) + "." + b64a.Encode(r.digest[:]) + ".H3"
}

func newBuiltRecord(name string, b []byte) *builtRecord {
	r := &builtRecord{name: name, bytes: b, letter: '?'}
	if rest, ok := bytes.CutPrefix(b, []byte(glyphPrefix)); ok && len(rest) > 0 {
		r.letter = rest[0]
	}
	payload := b[len(b):]
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		payload = b[i+1:]
	}
	r.digest = blake3.Sum256(payload)
	return r
}

// resolver resolves placeholders against the scenario's named records.
type resolver struct {
	records map[string]*builtRecord
}

// build turns text in the notation above into bytes, resolving placeholders
// line by line from the last line up, so that every digest covers bytes
// already final.
func (rv resolver) build(text string) ([]byte, error) {
	ps, err := expandText(text)
	if err != nil {
		return nil, err
	}
	// Split the pieces into lines at LF bytes.
	lines := [][]piece{nil}
	for _, p := range ps {
		if p.ph != "" {
			lines[len(lines)-1] = append(lines[len(lines)-1], p)
			continue
		}
		rest := p.lit
		for {
			i := bytes.IndexByte(rest, '\n')
			if i < 0 {
				break
			}
			if i > 0 {
				lines[len(lines)-1] = append(lines[len(lines)-1], piece{lit: rest[:i]})
			}
			lines = append(lines, nil)
			rest = rest[i+1:]
		}
		if len(rest) > 0 {
			lines[len(lines)-1] = append(lines[len(lines)-1], piece{lit: rest})
		}
	}
	done := make([][]byte, len(lines))
	for i := len(lines) - 1; i >= 0; i-- {
		if len(lines[i]) == 1 && lines[i][0].ph == "" {
			done[i] = lines[i][0].lit // no copy: data may be 32 MiB
			continue
		}
		var line []byte
		for _, p := range lines[i] {
			if p.ph == "" {
				line = append(line, p.lit...)
				continue
			}
			v, err := rv.placeholder(p.ph, done[i+1:])
			if err != nil {
				return nil, err
			}
			line = append(line, v...)
		}
		done[i] = line
	}
	if len(done) == 1 {
		return done[0], nil
	}
	return bytes.Join(done, []byte{'\n'}), nil
}

var markPlaceholder = regexp.MustCompile(`^Mark (by the other key )?over (.+)$`)

// placeholder resolves one placeholder; below are the finished lines after
// the placeholder's line.
func (rv resolver) placeholder(ph string, below [][]byte) (string, error) {
	switch {
	case ph == "digest":
		d := blake3.Sum256(bytes.Join(below, []byte{'\n'}))
		return b64a.Encode(d[:]), nil
	case strings.HasPrefix(ph, `digest of "`) && strings.HasSuffix(ph, `"`) && len(ph) > len(`digest of ""`)-1:
		b, err := rv.build(ph[len(`digest of "`) : len(ph)-1])
		if err != nil {
			return "", err
		}
		d := blake3.Sum256(b)
		return b64a.Encode(d[:]), nil
	case ph == "By":
		return byText(standinSecret)
	case ph == "other By":
		return byText(otherSecret)
	}
	if m := markPlaceholder.FindStringSubmatch(ph); m != nil {
		secret := standinSecret
		if m[1] != "" {
			secret = otherSecret
		}
		subject, err := rv.subject(m[2], below)
		if err != nil {
			return "", fmt.Errorf("<%s>: %w", ph, err)
		}
		return markText(secret, subject)
	}
	if r, ok := rv.records[ph]; ok {
		return b64a.Encode(r.digest[:]), nil
	}
	return "", fmt.Errorf("unknown placeholder <%s>: no record of that name has been built (write \\< for a literal '<')", ph)
}

// subject finds a Mark's subject: the digest in the nearest glyph line of a
// type below, or a named record's digest.
func (rv resolver) subject(what string, below [][]byte) ([32]byte, error) {
	var letter byte
	switch what {
	case "the Plex":
		letter = 'P'
	case "the Blob":
		letter = 'B'
	default:
		if r, ok := rv.records[what]; ok {
			return r.digest, nil
		}
		return [32]byte{}, fmt.Errorf("no record named %q", what)
	}
	var d [32]byte
	for _, l := range below {
		rest, ok := bytes.CutPrefix(l, []byte(glyphPrefix+string(letter)+"."))
		if !ok {
			continue
		}
		text, _, _ := bytes.Cut(rest, []byte("."))
		if err := b64a.DecodeInto(d[:], string(text)); err != nil {
			return d, fmt.Errorf("the glyph line %q below holds no digest: %v", l, err)
		}
		return d, nil
	}
	return d, fmt.Errorf("no %c glyph line below", letter)
}

// Records written from parts.

// glyphLine is the record glyph line of a record of type letter whose
// canonical payload is payload.
func glyphLine(letter byte, payload []byte) []byte {
	d := blake3.Sum256(payload)
	return []byte(glyphPrefix + string(letter) + "." + b64a.Encode(d[:]) + ".H3\n")
}

// glyphLineLen is the length of an H3 glyph line: "🖧: ", 48 bytes of hash
// text and LF.
const glyphLineLen = len(glyphPrefix) + 48 + 1

// record writes the record of type letter whose payload is the
// concatenation of parts, allocating its bytes once (records may be 32 MiB).
func record(letter byte, parts ...[]byte) []byte {
	n := glyphLineLen
	for _, p := range parts {
		n += len(p)
	}
	out := make([]byte, glyphLineLen, n)
	for _, p := range parts {
		out = append(out, p...)
	}
	copy(out, glyphLine(letter, out[glyphLineLen:]))
	return out
}

// blobRecord writes the Blob of data.
func blobRecord(data []byte) []byte {
	return record('B', []byte("Data-Length: "+strconv.Itoa(len(data))+"\n\n"), data)
}

// plexRecord writes a Plex of the given field lines (in the order given,
// without LF) over the Blob of data.
func plexRecord(lines [][]byte, data []byte) []byte {
	var fields []byte
	for _, l := range lines {
		fields = append(fields, l...)
		fields = append(fields, '\n')
	}
	return record('P', fields, blobRecord(data))
}

// sealRecord wraps plex (a complete Plex record) in a Seal by the stand-in
// key with its Mark over the Plex's glyph digest.
func sealRecord(plex []byte) ([]byte, error) {
	r := newBuiltRecord("", plex)
	by, err := byText(standinSecret)
	if err != nil {
		return nil, err
	}
	mk, err := markText(standinSecret, r.digest)
	if err != nil {
		return nil, err
	}
	return record('S', []byte("By: "+by+"\nMark: "+mk+"\n"), plex), nil
}
