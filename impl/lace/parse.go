package lace

import (
	"bytes"
	"fmt"

	"github.com/threespec/conformance/impl/mark"
	"github.com/threespec/conformance/impl/rules"
)

// Options configure a reader.
type Options struct {
	// Mark selects how Seal Marks are checked: mark.CheckBIP340Standin (also
	// the default, "") verifies each Mark with mark.BIP340Standin;
	// mark.CheckNone checks only that By and Mark are canonical text and
	// reports the Mark as not checked (Record.MarkStatus).
	Mark mark.Checking
}

// MarkStatus says what a reader established about a record's Mark.
type MarkStatus uint8

const (
	// MarkAbsent: the record is not a Seal and has no Mark.
	MarkAbsent MarkStatus = iota
	// MarkVerified: the Mark verified under By over the embedded Plex digest.
	MarkVerified
	// MarkNotChecked: By and Mark are canonical text, but the Mark was not
	// verified (mark checking "none"). Never report this as a pass.
	MarkNotChecked
	// MarkFailed: the Mark did not verify, yet the record was accepted
	// because LACE-SEAL-06/07 enforcement was switched off (fault injection only).
	MarkFailed
)

func (s MarkStatus) String() string {
	switch s {
	case MarkVerified:
		return "verified"
	case MarkNotChecked:
		return "not checked"
	case MarkFailed:
		return "failed"
	}
	return "absent"
}

// Field is one application field occurrence.
type Field struct {
	Name, Value string
}

// Record is a parsed and validated H3 record.
type Record struct {
	Form   Form
	Hash   Hash    // the record's own hash; Hash.String() is its hash text
	Fields []Field // application fields in record order (Plex, Seal); nil for a Blob
	Data   []byte  // Blob data; aliases the parsed input (never nil)

	// Plex and Blob are the hashes of the Plex and the Blob the record is or
	// holds: for a Blob, Blob == Hash; for a Plex, Plex == Hash and Blob is
	// the embedded Blob; for a Seal both are embedded. Zero where absent.
	Plex, Blob Hash

	By         [mark.KeySize]byte  // Seal only
	Mark       [mark.MarkSize]byte // Seal only
	MarkStatus MarkStatus

	Offset int // where the record starts in the parsed input
	Size   int // its length in bytes
}

// Parse parses in as exactly one complete stored record (a .lr file) and
// validates every rule of Lace-010: field lines, the form's structure, every
// glyph digest and, unless opt says otherwise, the Seal's Mark. Record.Data
// aliases in.
func Parse(in []byte, opt Options) (*Record, error) {
	p, err := newParser(in, opt)
	if err != nil {
		return nil, err
	}
	if len(in) == 0 {
		return nil, p.failHard(RuleGlyphLine, 0, "empty input: a stored record starts with a record glyph line")
	}
	r, err := p.record(0, false)
	if err != nil {
		return nil, err
	}
	// A complete stored record has no bytes after those its structure and
	// Data-Length consume (Lace-010 glyph section, LACE-GLYPH-08).
	if end := r.Offset + r.Size; end < len(in) {
		if err := p.fail(RuleGlyphTrailing, end, "%d trailing bytes after the complete record", len(in)-end); err != nil {
			return nil, err
		}
	}
	return r, nil
}

type parser struct {
	in    []byte
	check mark.Checking
}

func newParser(in []byte, opt Options) (*parser, error) {
	c, err := mark.ParseChecking(string(opt.Mark))
	if err != nil {
		return nil, err
	}
	return &parser{in: in, check: c}, nil
}

// fail reports a violation of id at byte off of the input, with its line.
func (p *parser) fail(id rules.ID, off int, format string, args ...any) error {
	if !rules.Enforced(id) {
		return nil
	}
	return rules.FailLine(id, "", p.lineAt(off), int64(off), format, args...)
}

// lineAt is the 1-based line of byte off (computed on error paths only).
func (p *parser) lineAt(off int) int {
	off = min(max(off, 0), len(p.in))
	return bytes.Count(p.in[:off], []byte{'\n'}) + 1
}

// truncated is the violation of a record cut short. It is made without
// rules.Fail: nothing can carry on past the end of the input. Stream readers
// drop the unfinished record when LACE-STREAM-03 is switched off.
func (p *parser) truncated(off int, format string, args ...any) error {
	return &rules.Violation{Rule: RuleStreamTruncated, Line: p.lineAt(off), Offset: int64(off),
		Detail: fmt.Sprintf(format, args...)}
}

// line is one field line: name in[start:sep], value in[val:end], LF at end.
type line struct {
	start, sep, val, end int
}

func (l line) next() int { return l.end + 1 }

func (p *parser) name(l line) []byte  { return p.in[l.start:l.sep] }
func (p *parser) value(l line) []byte { return p.in[l.val:l.end] }

// readLine reads and checks the field line at pos (LACE-FIELD-01..14).
func (p *parser) readLine(pos int, what string) (line, error) {
	in := p.in
	i := bytes.IndexByte(in[pos:], '\n')
	if i < 0 {
		return line{}, p.truncated(pos, "input ends inside the %s line (no LF)", what)
	}
	l := line{start: pos, end: pos + i}
	content := in[l.start:l.end]

	// Fast path: printable ASCII with one ": " separator and a clean name.
	if s := bytes.Index(content, []byte(": ")); s > 0 && s+2 < len(content) && len(content) <= MaxLine {
		clean := true
		for j, c := range content {
			if c < 0x20 || c >= 0x7f || (j < s && (c == ' ' || c == ':')) {
				clean = false
				break
			}
		}
		if clean {
			l.sep, l.val = pos+s, pos+s+2
			return l, nil
		}
	}
	return l, p.checkLine(&l, what)
}

// checkLine is the slow path of readLine: it finds the separator and reports
// every violation in rule order.
func (p *parser) checkLine(l *line, what string) error {
	content := p.in[l.start:l.end]
	at := func(base int) reporter {
		return func(id rules.ID, off int, format string, args ...any) error {
			return p.fail(id, base+off, what+" line: "+format, args...)
		}
	}
	// Lines end with LF only; CR and CRLF are invalid (LACE-FIELD-09).
	if j := bytes.IndexByte(content, '\r'); j >= 0 {
		msg := "line contains CR"
		if j == len(content)-1 {
			msg = "line ends with CRLF"
		}
		if err := p.fail(RuleFieldLF, l.start+j, "%s line: %s (lines end with LF only)", what, msg); err != nil {
			return err
		}
	}
	// <Name>: <value>: the separator is the first ": "; what follows it,
	// spaces included, is the value (LACE-FIELD-01, -04, -14).
	if s := bytes.Index(content, []byte(": ")); s >= 0 {
		l.sep, l.val = l.start+s, l.start+s+2
	} else if c := bytes.IndexByte(content, ':'); c >= 0 {
		if err := p.fail(RuleFieldOneSpace, l.start+c+1, "%s line %s: ':' is not followed by exactly one space", what, quote(string(content))); err != nil {
			return err
		}
		l.sep, l.val = l.start+c, l.start+c+1
	} else {
		if err := p.fail(RuleFieldSyntax, l.start, "%s line %s has no \": \" separator", what, quote(string(content))); err != nil {
			return err
		}
		l.sep, l.val = l.end, l.end
	}
	if err := checkName(p.name(*l), at(l.start)); err != nil {
		return err
	}
	if err := checkValue(p.value(*l), at(l.val)); err != nil {
		return err
	}
	return checkLength(len(content), at(l.start))
}

// Record parsing.

// body is what a form's payload parser found.
type body struct {
	form       Form
	fields     []line // application field lines (Plex, Seal)
	by         [mark.KeySize]byte
	mark       [mark.MarkSize]byte
	plex, blob Hash // embedded record hashes, as their glyphs state (verified)
	dataStart  int
	end        int
}

// record parses the record at start. continuation says the record follows
// another one in a stream.
func (p *parser) record(start int, continuation bool) (*Record, error) {
	in := p.in
	// Every stored record starts with a record glyph line (LACE-GLYPH-01).
	if !bytes.HasPrefix(in[start:], []byte(glyphPrefix)) {
		if bytes.HasPrefix([]byte(glyphPrefix), in[start:]) {
			return nil, p.truncated(start, "input ends inside a record glyph line")
		}
		if continuation {
			// Lace-010 record streams: reject a stream that continues with
			// bytes that do not form a record (LACE-STREAM-04).
			return nil, p.failHard(RuleStreamGarbage, start, "stream continues with bytes that do not begin a record glyph line \"🖧: \"")
		}
		return nil, p.failHard(RuleGlyphLine, start, "record does not start with a record glyph line \"🖧: \"")
	}
	h, pos, err := p.glyph(start, "record glyph")
	if err != nil {
		return nil, err
	}
	b, err := p.body(h.Form, pos)
	if err != nil {
		// The glyph type must match the parsed form (LACE-GLYPH-05): when the
		// payload is a valid record of another form, that is the violation.
		alt := p.otherForm(h.Form, pos)
		if alt == nil {
			return nil, err
		}
		if err := p.fail(RuleGlyphTypeMatch, start+len(glyphPrefix), "glyph type %c does not match the parsed form %s", h.Form.Letter(), alt.form); err != nil {
			return nil, err
		}
		b = alt
	}
	r := &Record{Form: b.form, Hash: h, Data: in[b.dataStart:b.end:b.end], Plex: b.plex, Blob: b.blob,
		By: b.by, Mark: b.mark, Offset: start, Size: b.end - start}
	switch b.form {
	case FormBlob:
		r.Blob = h
	case FormPlex:
		r.Plex = h
	}
	r.Fields = p.fields(b.fields)

	// The record's digest matches its canonical payload (LACE-GLYPH-06).
	// Embedded digests were checked, innermost first, by body.
	outer := digest(in[pos:b.end])
	if outer != h.Digest {
		if err := p.fail(RuleGlyphDigestMatch, start+len(glyphPrefix), "record hash %s does not match its payload (digest %s)", h, Hash{h.Form, outer}); err != nil {
			return nil, err
		}
	}
	if b.form == FormSeal {
		if err := p.verifyMark(r, outer); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// failHard is fail for a violation after which no record can be parsed: when
// the rule is switched off it still stops, with a plain error.
func (p *parser) failHard(id rules.ID, off int, format string, args ...any) error {
	if err := p.fail(id, off, format, args...); err != nil {
		return err
	}
	return fmt.Errorf("lace: no record at byte %d (%s not enforced)", off, id)
}

// glyph reads a record glyph line at pos and returns its hash and the
// position after its LF.
func (p *parser) glyph(pos int, what string) (Hash, int, error) {
	l, err := p.readLine(pos, what)
	if err != nil {
		return Hash{}, 0, err
	}
	if string(p.name(l)) != Glyph {
		if err := p.fail(RuleGlyphLine, pos, "%s line expected, found field %s", what, quote(string(p.name(l)))); err != nil {
			return Hash{}, 0, err
		}
	}
	h, id, detail := parseHash(string(p.value(l)))
	if id != "" {
		if err := p.fail(id, l.val, "%s line: %s", what, detail); err != nil {
			return Hash{}, 0, err
		}
		// Carry on with what can be read: a form from the type letter.
		if len(p.value(l)) > 0 {
			h.Form = formOfLetter(p.value(l)[0])
		}
		if h.Form == 0 {
			h.Form = FormBlob
		}
	}
	return h, l.next(), nil
}

func (p *parser) body(f Form, pos int) (*body, error) {
	switch f {
	case FormPlex:
		return p.plexBody(pos)
	case FormSeal:
		return p.sealBody(pos)
	}
	return p.blobBody(pos)
}

// otherForm returns the payload at pos parsed as a form other than f, or nil
// when it is no valid payload of another form.
func (p *parser) otherForm(f Form, pos int) *body {
	for _, g := range []Form{FormBlob, FormPlex, FormSeal} {
		if g == f {
			continue
		}
		if b, err := p.body(g, pos); err == nil {
			return b
		}
	}
	return nil
}

// blobBody parses a Blob payload: the Data-Length line, one blank LF line and
// exactly <len> data bytes (Lace-010, "Blob records carry opaque bytes").
func (p *parser) blobBody(pos int) (*body, error) {
	in := p.in
	l, err := p.readLine(pos, "Data-Length")
	if err != nil {
		return nil, err
	}
	if name := p.name(l); string(name) != nameDataLength {
		if err := p.fail(RuleBlobDataLengthLine, pos, "Blob payload starts with field %s, not Data-Length", quote(string(name))); err != nil {
			return nil, err
		}
	}
	n, err := p.dataLength(l)
	if err != nil {
		return nil, err
	}
	// One blank LF line (LACE-BLOB-02); CRLF is invalid (LACE-FIELD-09).
	pos = l.next()
	switch {
	case pos >= len(in):
		return nil, p.truncated(pos, "input ends before the blank line after Data-Length")
	case in[pos] == '\r':
		if err := p.fail(RuleFieldLF, pos, "blank line after Data-Length is CRLF (lines end with LF only)"); err != nil {
			return nil, err
		}
		pos++
		if pos < len(in) && in[pos] == '\n' {
			pos++
		}
	case in[pos] != '\n':
		if err := p.fail(RuleBlobBlankLine, pos, "Data-Length line is not followed by a blank LF line"); err != nil {
			return nil, err
		}
	default:
		pos++
	}
	// Readers consume exactly <len> data bytes (LACE-BLOB-04).
	if rest := len(in) - pos; n > rest {
		if err := p.fail(RuleBlobExactData, pos, "Data-Length is %d but only %d data bytes follow", n, rest); err != nil {
			return nil, err
		}
		n = rest
	}
	return &body{form: FormBlob, dataStart: pos, end: pos + n}, nil
}

// dataLength parses the Data-Length value: canonical decimal (LACE-BLOB-03)
// of at most 32 MiB (LACE-BLOB-05).
func (p *parser) dataLength(l line) (int, error) {
	v := p.value(l)
	canonical := len(v) > 0 && (len(v) == 1 || v[0] != '0')
	n := 0
	for _, c := range v {
		if c < '0' || c > '9' {
			canonical = false
			n = 0
			break
		}
		if n <= MaxData {
			n = n*10 + int(c-'0')
		}
	}
	if !canonical {
		if err := p.fail(RuleBlobDataLength, l.val, "Data-Length %s is not canonical decimal (digits, no leading zero except 0)", quote(string(v))); err != nil {
			return 0, err
		}
	}
	if n > MaxData {
		if err := p.fail(RuleBlobMaxData, l.val, "Data-Length %s exceeds 32 MiB (%d bytes)", quote(string(v)), MaxData); err != nil {
			return 0, err
		}
	}
	return n, nil
}

// plexBody parses a Plex payload: 1..512 sorted application field lines and
// one embedded Blob (Lace-010, "Plex records attach generic fields to a Blob").
func (p *parser) plexBody(pos int) (*body, error) {
	var fields []line
	count := 0
	var prev []byte
	for {
		l, err := p.readLine(pos, "field")
		if err != nil {
			return nil, err
		}
		name := p.name(l)
		if string(name) == Glyph {
			break // the embedded record's glyph line
		}
		count++
		if count == MaxFields+1 {
			// N is in 1..512 (LACE-PLEX-03).
			if err := p.fail(RulePlexMaxFields, pos, "Plex has more than %d application fields", MaxFields); err != nil {
				return nil, err
			}
		}
		// Reserved names are invalid as application fields (LACE-PLEX-10).
		if isReservedBytes(name) {
			if err := p.fail(RulePlexReserved, pos, "application field uses the reserved name %s", quote(string(name))); err != nil {
				return nil, err
			}
		}
		// A parser rejects a decrease in adjacent field-name bytes (LACE-PLEX-08).
		if prev != nil && bytes.Compare(prev, name) > 0 {
			if err := p.fail(RulePlexOrder, pos, "field name %s sorts before the preceding %s (bytewise ascending order)", quote(string(name)), quote(string(prev))); err != nil {
				return nil, err
			}
		}
		prev = name
		fields = append(fields, l)
		pos = l.next()
	}
	// N is in 1..512 (LACE-PLEX-02).
	if count == 0 {
		if err := p.fail(RulePlexMinFields, pos, "Plex has no application fields: its glyph is followed immediately by the embedded record"); err != nil {
			return nil, err
		}
	}
	h, next, err := p.glyph(pos, "embedded record glyph")
	if err != nil {
		return nil, err
	}
	// A Plex directly embeds exactly one Blob (LACE-NEST-02).
	if h.Form != FormBlob {
		if err := p.fail(RuleNestPlex, pos, "Plex embeds a %s, not a Blob", h.Form); err != nil {
			return nil, err
		}
	}
	b, err := p.blobBody(next)
	if err != nil {
		return nil, err
	}
	if err := p.embeddedDigest(h, pos, next, b.end, "Blob"); err != nil {
		return nil, err
	}
	b.form, b.fields, b.blob = FormPlex, fields, h
	return b, nil
}

// sealBody parses a Seal payload: By, Mark and one embedded Plex
// (Lace-010, "Seal records carry one Mark over one Plex").
func (p *parser) sealBody(pos int) (*body, error) {
	var by [mark.KeySize]byte
	var mk [mark.MarkSize]byte
envelope:
	for i := 0; ; i++ {
		l, err := p.readLine(pos, "Seal envelope")
		if err != nil {
			return nil, err
		}
		name := string(p.name(l))
		if name == Glyph {
			switch i {
			case 0: // By appears first (LACE-SEAL-02)
				if err := p.fail(RuleSealByFirst, pos, "Seal has no By line before its embedded record"); err != nil {
					return nil, err
				}
			case 1: // Mark appears second (LACE-SEAL-04)
				if err := p.fail(RuleSealMarkSecond, pos, "Seal has no Mark line before its embedded record"); err != nil {
					return nil, err
				}
			}
			break envelope
		}
		switch {
		case i == 0 && name != nameBy:
			if err := p.fail(RuleSealByFirst, pos, "Seal starts with %s, not By", quote(name)); err != nil {
				return nil, err
			}
		case i == 1 && name != nameMark:
			if err := p.fail(RuleSealMarkSecond, pos, "second Seal line is %s, not Mark", quote(name)); err != nil {
				return nil, err
			}
		case i >= 2:
			// No additional envelope fields (LACE-SEAL-09).
			if err := p.fail(RuleSealNoEnvelope, pos, "Seal has an additional envelope field %s", quote(name)); err != nil {
				return nil, err
			}
		}
		switch name {
		case nameBy: // canonical V.<b64a>.H3 (LACE-SEAL-03)
			v, err := mark.ParseBy(string(p.value(l)))
			if err != nil {
				if err := p.fail(RuleSealByText, l.val, "By: %v", err); err != nil {
					return nil, err
				}
			}
			by = v
		case nameMark: // one canonical 009 Mark (LACE-SEAL-05)
			v, err := mark.ParseMark(string(p.value(l)))
			if err != nil {
				if err := p.fail(RuleSealMarkText, l.val, "Mark: %v", err); err != nil {
					return nil, err
				}
			}
			mk = v
		}
		pos = l.next()
	}
	h, next, err := p.glyph(pos, "embedded record glyph")
	if err != nil {
		return nil, err
	}
	var b *body
	switch h.Form {
	case FormBlob:
		// A Seal cannot wrap a bare Blob (LACE-SEAL-08).
		if err := p.fail(RuleSealNoBlob, pos, "Seal wraps a bare Blob; it must wrap a Plex"); err != nil {
			return nil, err
		}
		b, err = p.blobBody(next)
		if err != nil {
			return nil, err
		}
		b.blob = h
	case FormSeal:
		// A Seal directly embeds one Plex (LACE-NEST-03).
		if err := p.fail(RuleNestSeal, pos, "Seal embeds a Seal; it must embed a Plex"); err != nil {
			return nil, err
		}
		fallthrough
	default:
		b, err = p.plexBody(next)
		if err != nil {
			return nil, err
		}
		b.plex = h
	}
	if err := p.embeddedDigest(h, pos, next, b.end, h.Form.String()); err != nil {
		return nil, err
	}
	b.form, b.by, b.mark = FormSeal, by, mk
	return b, nil
}

// embeddedDigest checks an embedded record's glyph digest against its payload
// in[payload:end] (LACE-GLYPH-07).
func (p *parser) embeddedDigest(h Hash, glyphPos, payload, end int, what string) error {
	if d := digest(p.in[payload:end]); d != h.Digest {
		return p.fail(RuleGlyphEmbedded, glyphPos+len(glyphPrefix), "embedded %s hash %s does not match its payload (digest %s)", what, h, Hash{h.Form, d})
	}
	return nil
}

// verifyMark verifies a Seal's Mark under By over the embedded Plex digest
// (LACE-SEAL-06, LACE-SEAL-07) unless mark checking is "none".
func (p *parser) verifyMark(r *Record, sealDigest [DigestSize]byte) error {
	if p.check == mark.CheckNone {
		r.MarkStatus = MarkNotChecked
		return nil
	}
	scheme := mark.BIP340Standin
	if scheme.Verify(r.By, r.Plex.Digest, r.Mark) {
		r.MarkStatus = MarkVerified
		return nil
	}
	r.MarkStatus = MarkFailed
	off := r.Offset + GlyphLineLen
	// A Mark that verifies over the Blob or the Seal digest was made over the
	// wrong subject (LACE-SEAL-06).
	for _, s := range []struct {
		name string
		d    [DigestSize]byte
	}{{"embedded Blob", r.Blob.Digest}, {"Seal", sealDigest}} {
		if scheme.Verify(r.By, s.d, r.Mark) {
			return p.fail(RuleSealSubject, off, "Mark was made over the %s digest, not the embedded Plex digest", s.name)
		}
	}
	return p.fail(RuleSealVerify, off, "Mark does not verify under By over the embedded Plex digest (%s)", scheme.Name())
}

// fields turns field lines into Fields with one string allocation.
func (p *parser) fields(ls []line) []Field {
	if len(ls) == 0 {
		return nil
	}
	base := ls[0].start
	text := string(p.in[base:ls[len(ls)-1].end])
	fs := make([]Field, len(ls))
	for i, l := range ls {
		fs[i] = Field{Name: text[l.start-base : l.sep-base], Value: text[l.val-base : l.end-base]}
	}
	return fs
}
