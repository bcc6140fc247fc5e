// Package plainjson decodes plain JSON objects in place: the inputs of
// operations whose members hold bytes as standard base64 strings
// (lace.construct and hiverelay.authority, docs/PROTOCOL.md), up to
// 44.7 MiB of them. encoding/json validates such an input, then decodes
// it, copying and checking every string byte by byte; a plain input, as
// json.Marshal writes one, is decoded here in one pass instead, its base64
// straight from the input. Plain means: no white space but after the
// object, no escape in any string, member names the caller knows, none
// twice, and every base64 string canonical without CR or LF. Anything
// else the caller leaves to encoding/json, which gives the same values
// for plain input (the callers' tests compare them).
package plainjson

import (
	"bytes"
	"encoding/base64"
	"unicode/utf8"
)

// Reader reads plain JSON from b at i; ok turns false at the first
// byte that is not what it expects, and stays false.
type Reader struct {
	b  []byte
	i  int
	ok bool
}

// byte1 reads c.
func (p *Reader) byte1(c byte) {
	if p.ok && p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return
	}
	p.ok = false
}

// Fail marks the input as not plain: the caller decodes it otherwise.
func (p *Reader) Fail() { p.ok = false }

// peek reports whether the next byte is c.
func (p *Reader) peek(c byte) bool { return p.ok && p.i < len(p.b) && p.b[p.i] == c }

// str reads a string without escapes or control characters, in UTF-8,
// and returns its bytes (what encoding/json decodes it to).
func (p *Reader) str() []byte {
	s := p.quoted()
	if !p.ok {
		return nil
	}
	for _, c := range s {
		if c < 0x20 || c == '\\' {
			p.ok = false
			return nil
		}
	}
	if !utf8.Valid(s) {
		p.ok = false
		return nil
	}
	p.i += len(s) + 1
	return s
}

// quoted returns the bytes from an opening quote at i to the next quote,
// leaving i on the first of them; ok turns false when either is missing.
func (p *Reader) quoted() []byte {
	p.byte1('"')
	if !p.ok {
		return nil
	}
	n := bytes.IndexByte(p.b[p.i:], '"')
	if n < 0 {
		p.ok = false
		return nil
	}
	return p.b[p.i : p.i+n]
}

// Base64 reads a string of canonical standard base64 and returns its
// bytes, never nil (as encoding/json decodes a []byte). The decoder
// rejects every byte outside the alphabet but CR and LF, which it skips
// and which are refused here first: so none of JSON's escapes either.
func (p *Reader) Base64() []byte {
	s := p.quoted()
	if !p.ok {
		return nil
	}
	if bytes.IndexByte(s, '\r') >= 0 || bytes.IndexByte(s, '\n') >= 0 {
		p.ok = false
		return nil
	}
	// As base64.StdEncoding.DecodeString allocates and decodes.
	out := make([]byte, base64.StdEncoding.DecodedLen(len(s)))
	m, err := base64.StdEncoding.Decode(out, s)
	if err != nil {
		p.ok = false
		return nil
	}
	p.i += len(s) + 1
	return out[:m]
}

// Object reads an object, calling member for each member after its name
// and colon, with the name; member reads the value. A name seen twice
// makes the object not plain.
func (p *Reader) Object(member func(name string)) {
	p.byte1('{')
	if p.peek('}') {
		p.i++
		return
	}
	var seen map[string]bool
	for p.ok {
		name := string(p.str())
		if !p.ok || seen[name] {
			p.ok = false
			return
		}
		if seen == nil {
			seen = map[string]bool{}
		}
		seen[name] = true
		p.byte1(':')
		member(name)
		if !p.peek(',') {
			break
		}
		p.i++
	}
	p.byte1('}')
}

// Object reads b as one plain object (JSON white space after it
// allowed) with member as in Reader.Object, and reports whether it was one
// and member accepted each name (member calls Fail for a name it does not
// know).
func Object(b []byte, member func(p *Reader, name string)) bool {
	p := &Reader{b: b, ok: true}
	p.Object(func(name string) { member(p, name) })
	return p.ok && len(bytes.TrimLeft(b[p.i:], " \t\r\n")) == 0
}
