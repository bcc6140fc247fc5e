package lace

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/threespec/conformance/impl/mark"
	"github.com/threespec/conformance/impl/nfc17"
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

// String is the status as lace.record reports it (mark_status in
// docs/PROTOCOL.md): one spelling on the wire and in the docs.
func (s MarkStatus) String() string {
	switch s {
	case MarkVerified:
		return "verified"
	case MarkNotChecked:
		return "not-checked"
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
//
// It enforces every rule and takes every default reading; callers
// that carry a rules.Checks use ParseWith.
func Parse(in []byte, opt Options) (*Record, error) { return ParseWith(rules.Checks{}, in, opt) }

// ParseWith is Parse under the checks c: the rules it enforces, the mutants
// it carries and the readings it takes (the zero Checks is the standard
// reader).
func ParseWith(c rules.Checks, in []byte, opt Options) (*Record, error) {
	p, err := newParser(c, in, opt)
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
		if end == len(in)-1 && in[end] == '\n' && p.c.Mutated(MutTrailingLF) {
			return r, nil // mutant: a text file's final newline is tolerated
		}
		if p.c.Enforced(RuleGlyphTrailing) {
			return nil, p.fail(RuleGlyphTrailing, end, "%d trailing bytes after the complete record", len(in)-end)
		}
	}
	return r, nil
}

type parser struct {
	in    []byte
	c     rules.Checks // what the parse enforces, carries and takes
	check mark.Checking
	cont  bool // the record being read follows another one in a stream
}

func newParser(c rules.Checks, in []byte, opt Options) (*parser, error) {
	check, err := mark.ParseChecking(string(opt.Mark))
	if err != nil {
		return nil, err
	}
	return &parser{in: in, c: c, check: check}, nil
}

// fail is the violation of id at byte off of the input, with its line.
// Callers ask p.c.Enforced(id) first: under a fault they carry on as if the
// check had passed.
func (p *parser) fail(id rules.ID, off int, format string, args ...any) error {
	return rules.FailLine(id, "", p.lineAt(off), int64(off), format, args...)
}

// lineAt is the 1-based line of byte off (computed on error paths only).
func (p *parser) lineAt(off int) int {
	off = min(max(off, 0), len(p.in))
	return bytes.Count(p.in[:off], []byte{'\n'}) + 1
}

// truncated is the violation of a record cut short. It is made whatever
// the checks (and without rules.Fail): nothing can carry on past the end of
// the input. Stream readers drop the unfinished record when LACE-STREAM-03
// is switched off.
func (p *parser) truncated(off int, format string, args ...any) error {
	return &rules.Violation{Rule: RuleStreamTruncated, Line: p.lineAt(off), Offset: int64(off),
		Detail: fmt.Sprintf(format, args...)}
}

// line is one field line: name in[start:sep], value in[val:end], its LF at
// lf (end == lf unless a fault-injected reader drops bytes before the LF).
type line struct {
	start, sep, val, end, lf int
}

func (l line) next() int { return l.lf + 1 }

// What a line is, for messages and for the rules of structural lines
// (LACE-FIELD-13).
const (
	lineField       = "field"
	lineGlyph       = "record glyph"
	lineEmbedGlyph  = "embedded record glyph"
	lineDataLength  = "Data-Length"
	lineSealEnvelop = "Seal envelope"
)

func (p *parser) name(l line) []byte  { return p.in[l.start:l.sep] }
func (p *parser) value(l line) []byte { return p.in[l.val:l.end] }

// readLine reads and checks the field line at pos (LACE-FIELD-01..14).
func (p *parser) readLine(pos int, what string) (line, error) {
	in := p.in
	i := bytes.IndexByte(in[pos:], '\n')
	if i < 0 {
		return line{}, p.truncated(pos, "input ends inside the %s line (no LF)", what)
	}
	l := line{start: pos, end: pos + i, lf: pos + i}
	content := in[l.start:l.end]

	// Fast path: printable ASCII with one ": " separator and a clean name.
	// (Fault injection: a value starting with a space, LACE-FIELD-14, and a
	// line of exactly 128 bytes, LACE-EX-01, take the slow path.)
	if s := bytes.Index(content, []byte(": ")); s > 0 && s+2 < len(content) &&
		(len(content) < MaxLine || len(content) == MaxLine && p.c.Enforced(RuleExLineASCII)) &&
		(content[s+2] != ' ' || p.c.Enforced(RuleFieldLeadingSpace) && !p.c.Takes(ReadValueLeadingSpace, AltSecondSpaceRejected)) {
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
	if len(content) > 0 && content[len(content)-1] == '\r' && p.c.Mutated(MutCRLFAccepted) {
		// Mutant: the CR of a CRLF line ending is stripped.
		l.end--
		content = content[:len(content)-1]
	}
	if what != lineField && !p.c.Enforced(RuleFieldStructural) {
		// Fault: structural lines read by their own code, without the
		// field-line rules, their values trimmed of trailing blanks.
		if s := bytes.Index(content, []byte(": ")); s >= 0 {
			l.sep, l.val = l.start+s, l.start+s+2
			l.end = l.val + len(bytes.TrimRight(content[s+2:], " \t\r\x00"))
			return nil
		}
	}
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
		if p.c.Enforced(RuleFieldLF) {
			return p.fail(RuleFieldLF, l.start+j, "%s line: %s (lines end with LF only)", what, msg)
		}
	}
	// <Name>: <value>: the separator is the first ": "; what follows it,
	// spaces included, is the value (LACE-FIELD-01, -04, -14).
	if s := bytes.Index(content, []byte(": ")); s >= 0 {
		l.sep, l.val = l.start+s, l.start+s+2
	} else if c := bytes.IndexByte(content, ':'); c >= 0 {
		if p.c.Enforced(RuleFieldOneSpace) {
			return p.fail(RuleFieldOneSpace, l.start+c+1, "%s line %s: ':' is not followed by exactly one space", what, quote(string(content)))
		}
		l.sep, l.val = l.start+c, l.start+c+1
	} else if sp := bytes.IndexByte(content, ' '); sp > 0 && !p.c.Enforced(RuleFieldSyntax) {
		// Fault: a line without ':' is split at its first space.
		l.sep, l.val = l.start+sp, l.start+sp+1
	} else {
		if p.c.Enforced(RuleFieldSyntax) {
			return p.fail(RuleFieldSyntax, l.start, "%s line %s has no \": \" separator", what, quote(string(content)))
		}
		l.sep, l.val = l.end, l.end
	}
	if err := checkName(p.c, p.name(*l), at(l.start)); err != nil {
		return err
	}
	if l.val < l.end && p.in[l.val] == ' ' && !p.c.Enforced(RuleFieldLeadingSpace) {
		// Fault: "exactly one space follows ':'" read as forbidding a value
		// that starts with a space.
		return FaultError("%s line %s: more than one space after ':'", what, quote(string(content)))
	}
	if l.val < l.end && p.in[l.val] == ' ' && p.c.Takes(ReadValueLeadingSpace, AltSecondSpaceRejected) {
		// Reading LACE-READ-01 second-space-rejected (readings.go).
		if p.c.Enforced(RuleFieldOneSpace) {
			return p.fail(RuleFieldOneSpace, l.val, "%s line %s: more than one space after ':' (reading %s %s)", what, quote(string(content)), ReadValueLeadingSpace, AltSecondSpaceRejected)
		}
	}
	if err := checkValue(p.c, p.value(*l), at(l.val)); err != nil {
		return err
	}
	n := len(content)
	if n > MaxLine && !p.c.Enforced(RuleExLineUTF8) {
		n = utf8.RuneCount(content) // fault: the limit counted in characters
	}
	return checkLength(p.c, p.name(*l), n, at(l.start))
}

// Record parsing.

// body is what a form's payload parser found.
type body struct {
	form       Form
	fields     []line // application field lines (Plex, Seal)
	by         [mark.KeySize]byte
	mark       [mark.MarkSize]byte
	plex, blob Hash // embedded record hashes, as their glyphs state (verified)
	// embedAt and embedNext delimit the glyph line of the directly embedded
	// record (Plex, Seal), for the digests fault injection computes wrong.
	embedAt, embedNext int
	dataStart          int
	end                int
}

// record parses the record at start. continuation says the record follows
// another one in a stream.
func (p *parser) record(start int, continuation bool) (*Record, error) {
	in := p.in
	p.cont = continuation
	// Every stored record starts with a record glyph line (LACE-GLYPH-01).
	if !bytes.HasPrefix(in[start:], []byte(glyphPrefix)) {
		switch {
		case bytes.HasPrefix([]byte(glyphPrefix), in[start:]):
			return nil, p.truncated(start, "input ends inside a record glyph line")
		case continuation:
			// Lace-010 record streams: reject a stream that continues with
			// bytes that do not form a record (LACE-STREAM-04).
			return nil, p.failHard(RuleStreamGarbage, start, "stream continues with bytes that do not begin a record glyph line \"🖧: \"")
		case p.c.Enforced(RuleGlyphLine):
			return nil, p.failHard(RuleGlyphLine, start, "record does not start with a record glyph line \"🖧: \"")
		}
		// Fault: a reader that never looks at the glyph takes the first
		// line's value as the hash text.
	}
	h, pos, err := p.glyph(start, lineGlyph)
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
		if p.c.Enforced(RuleGlyphTypeMatch) {
			return nil, p.fail(RuleGlyphTypeMatch, start+len(glyphPrefix), "glyph type %c does not match the parsed form %s", h.Form.Letter(), alt.form)
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
	outer := p.payloadDigest(b.form, pos, b.embedAt, b.embedNext, b.end)
	if outer != h.Digest && !p.trusting() && p.c.Enforced(RuleGlyphDigestMatch) {
		return nil, p.fail(RuleGlyphDigestMatch, start+len(glyphPrefix), "record hash %s does not match its payload (digest %s)", h, Hash{h.Form, outer})
	}
	if b.form == FormSeal {
		if err := p.verifyMark(r, outer); err != nil {
			return nil, err
		}
	}
	if r.Size > MaxData {
		if err := sizeFault(p.c, r); err != nil {
			return nil, err
		}
	}
	if b.form != FormBlob && !p.c.Enforced(RuleLinkMalformedOK) {
		// Fault: a reader that rejects a record whose record-link value is
		// malformed.
		for _, f := range r.Fields {
			if IsLinkNameWith(p.c, f.Name) {
				if _, _, err := ParseLinkWith(p.c, f.Value); err != nil {
					return nil, FaultError("record-link field %s: %v", quote(f.Name+": "+f.Value), err)
				}
			}
		}
	}
	return r, nil
}

// trusting reports whether the reader skips digest checks, which only fault
// injection makes it do: a reader that trusts .lr bytes as canonical
// (LACE-GLYPH-10 switched off), or a stream reader that only delimits the
// records after the first (LACE-STREAM-02 switched off).
func (p *parser) trusting() bool {
	return !p.c.Enforced(RuleGlyphLrValidate) || p.cont && !p.c.Enforced(RuleStreamValidate)
}

// sizeFault is the rejection of a large record by a reader that checks a
// precomputed maximum record size, and computed it wrong (fault injection of
// LACE-SIZE-01, -02, -03 only; a conforming reader checks structure and the
// data limit, never the record size).
func sizeFault(c rules.Checks, r *Record) error {
	var limit int
	switch {
	case r.Form == FormBlob && !c.Enforced(RuleSizeBlob):
		limit = MaxData // the data limit taken for the whole record
	case r.Form == FormPlex && !c.Enforced(RuleSizePlex):
		limit = MaxPlexRecord - MaxFields // field lines counted without their LF
	case r.Form == FormSeal && !c.Enforced(RuleSizeSeal):
		limit = MaxSealRecord - GlyphLineLen // the Seal's own glyph line forgotten
	default:
		return nil
	}
	if r.Size > limit {
		return FaultError("%s record of %d bytes is over the maximum of %d", r.Form, r.Size, limit)
	}
	return nil
}

// payloadDigest is the digest of a record's payload in[from:end] (every byte
// after its glyph line's LF, LACE-GLYPH-03); the directly embedded record's
// glyph line is in[embedAt:embedNext] (Plex, Seal). Under fault injection it
// is computed over the wrong bytes, as the builder's fillGlyph does too.
func (p *parser) payloadDigest(f Form, from, embedAt, embedNext, end int) [DigestSize]byte {
	in := p.in
	switch {
	case p.c.Mutated(MutHashFromGlyphLF):
		return digest(in[from-1 : end])
	case f == FormPlex && !p.c.Enforced(RuleVecPlex):
		// Fault: the Plex digest leaves out its embedded Blob's glyph line.
		return digestOf(in[from:embedAt], in[embedNext:end])
	case f == FormSeal && !p.c.Enforced(RuleVecSeal):
		// Fault: the Seal digest covers only its embedded Plex.
		return digest(in[embedAt:end])
	}
	return digest(in[from:end])
}

// failHard is fail for a violation after which no record can be parsed: when
// the rule is switched off it still stops, with a plain error.
func (p *parser) failHard(id rules.ID, off int, format string, args ...any) error {
	if p.c.Enforced(id) {
		return p.fail(id, off, format, args...)
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
	if string(p.name(l)) != Glyph && p.c.Enforced(RuleGlyphLine) {
		return Hash{}, 0, p.fail(RuleGlyphLine, pos, "%s line expected, found field %s", what, quote(string(p.name(l))))
	}
	h, id, detail := parseHash(p.c, string(p.value(l)))
	if id != "" {
		if p.c.Enforced(id) {
			return Hash{}, 0, p.fail(id, l.val, "%s line: %s", what, detail)
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
		return p.plexBody(pos, false)
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
	l, err := p.readLine(pos, lineDataLength)
	if err != nil {
		return nil, err
	}
	if name := p.name(l); string(name) != nameDataLength && p.c.Enforced(RuleBlobDataLengthLine) {
		return nil, p.fail(RuleBlobDataLengthLine, pos, "Blob payload starts with field %s, not Data-Length", quote(string(name)))
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
	case in[pos] == '\r' && pos+1 < len(in) && in[pos+1] == '\n' && p.c.Mutated(MutCRLFAccepted):
		pos += 2 // mutant: the CR of a CRLF blank line is stripped
	case in[pos] == '\r':
		if p.c.Enforced(RuleFieldLF) {
			return nil, p.fail(RuleFieldLF, pos, "blank line after Data-Length is CRLF (lines end with LF only)")
		}
		pos++
		if pos < len(in) && in[pos] == '\n' {
			pos++
		}
	case in[pos] != '\n':
		if p.c.Enforced(RuleBlobBlankLine) {
			return nil, p.fail(RuleBlobBlankLine, pos, "Data-Length line is not followed by a blank LF line")
		}
	default:
		pos++
	}
	// Readers consume exactly <len> data bytes (LACE-BLOB-04); a record that
	// fits the maximum size is still validated (LACE-SIZE-04, whose fault
	// switches this check off too).
	if rest := len(in) - pos; n > rest {
		if p.c.Enforced(RuleSizeNotProof) && p.c.Enforced(RuleBlobExactData) {
			return nil, p.fail(RuleBlobExactData, pos, "Data-Length is %d but only %d data bytes follow", n, rest)
		}
		n = rest
	}
	if err := p.dataFaults(in[pos : pos+n]); err != nil {
		return nil, err
	}
	return &body{form: FormBlob, dataStart: pos, end: pos + n}, nil
}

// dataFaults are the mistakes fault injection can make a reader commit on
// Blob data, which a conforming reader never looks into: rejecting empty
// data (LACE-BLOB-07), applying the text rules to it (LACE-BLOB-06) or
// parsing a record-like start of it as a record (LACE-NEST-01). Each costs
// one check of the fault set per Blob.
func (p *parser) dataFaults(data []byte) error {
	if len(data) == 0 && !p.c.Enforced(RuleBlobEmptyData) {
		return FaultError("Blob has no data")
	}
	if !p.c.Enforced(RuleBlobOpaque) {
		for i, c := range data {
			if c < 0x20 || c == 0x7f {
				return FaultError("Blob data holds the control byte 0x%02X at %d", c, i)
			}
		}
		if e := nfc17.CheckUTF8(data); e != nil {
			return FaultError("Blob data is not UTF-8: %s", e.Reason)
		}
	}
	if bytes.HasPrefix(data, []byte(glyphPrefix)) && !p.c.Enforced(RuleNestBlob) {
		if _, err := ParseWith(p.c, data, Options{Mark: p.check}); err != nil {
			return FaultError("Blob data read as a record: %v", err)
		}
	}
	return nil
}

// dataLength parses the Data-Length value: canonical decimal (LACE-BLOB-03)
// of at most 32 MiB (LACE-BLOB-05).
func (p *parser) dataLength(l line) (int, error) {
	v := p.value(l)
	if len(v) > 1 && v[0] == '0' && p.c.Mutated(MutDataLengthZeros) {
		v = bytes.TrimLeft(v, "0") // mutant: parsed as an integer, leading zeros and all
		if len(v) == 0 {
			v = []byte{'0'}
		}
	}
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
	if !canonical && p.c.Enforced(RuleBlobDataLength) {
		return 0, p.fail(RuleBlobDataLength, l.val, "Data-Length %s is not canonical decimal (digits, no leading zero except 0)", quote(string(v)))
	}
	if n > maxData(p.c) && p.c.Enforced(RuleBlobMaxData) {
		return 0, p.fail(RuleBlobMaxData, l.val, "Data-Length %s exceeds 32 MiB (%d bytes)", quote(string(v)), MaxData)
	}
	return n, nil
}

// maxData is the Blob data limit the reader and the constructor apply:
// MaxData, or one more under the mutant MUT-LACE-BLOB-LIMIT-PLUS-1.
func maxData(c rules.Checks) int {
	if c.Mutated(MutBlobLimitPlus1) {
		return MaxData + 1
	}
	return MaxData
}

// plexQuirks are the field-order and field-count mistakes fault injection
// can make a reader commit, read from the fault set once per Plex.
type plexQuirks struct {
	noOrder       bool // inside a Seal, the order is not checked (LACE-EX-08)
	inverted      bool // the order comparison is the wrong way round (LACE-EX-06)
	wholeLines    bool // complete lines are compared, not names (LACE-VEC-04)
	noRepeats     bool // a repeated name is rejected (LACE-EX-05)
	foldCase      bool // names compared case-insensitively (mutant)
	reservedFold  bool // reserved names matched case-insensitively (LACE-PLEX-11)
	blankLines    bool // blank lines before the embedded Blob skipped (LACE-PLEX-01)
	maxFields     int  // the field limit (511 under LACE-EX-04's fault)
	minFieldsFail int  // a count taken for too few: 1 under LACE-EX-03's fault, else -1
}

func newPlexQuirks(c rules.Checks, inSeal bool) plexQuirks {
	q := plexQuirks{
		noOrder:       inSeal && !c.Enforced(RuleExGroupFirst),
		inverted:      !c.Enforced(RuleExReversed),
		wholeLines:    !c.Enforced(RuleVecAppOrder),
		noRepeats:     !c.Enforced(RuleExRepeatedNames),
		foldCase:      c.Mutated(MutOrderCaseFold),
		reservedFold:  !c.Enforced(RulePlexReservedOnly),
		blankLines:    !c.Enforced(RulePlexStructure),
		maxFields:     MaxFields,
		minFieldsFail: -1,
	}
	if !c.Enforced(RuleExMaxFields) {
		q.maxFields = MaxFields - 1
	}
	if !c.Enforced(RuleExOneField) {
		q.minFieldsFail = 1
	}
	return q
}

// decreases reports whether the field line cur may not follow prev (the
// names pn and cn): a decrease in name bytes (LACE-PLEX-08), or under fault
// injection what the faulty comparison takes for one.
func (q *plexQuirks) decreases(prev, cur line, pn, cn []byte, in []byte) bool {
	switch {
	case q.noOrder:
		return false
	case q.noRepeats && bytes.Equal(pn, cn):
		return true
	case q.wholeLines:
		return bytes.Compare(in[prev.start:prev.end], in[cur.start:cur.end]) > 0
	case q.foldCase:
		return compareFold(pn, cn) > 0
	case q.inverted:
		return bytes.Compare(pn, cn) < 0
	}
	return bytes.Compare(pn, cn) > 0
}

// plexBody parses a Plex payload: 1..512 sorted application field lines and
// one embedded Blob (Lace-010, "Plex records attach generic fields to a Blob").
// inSeal says the Plex is the one a Seal embeds.
func (p *parser) plexBody(pos int, inSeal bool) (*body, error) {
	q := newPlexQuirks(p.c, inSeal)
	fields := make([]line, 0, 8) // one allocation for the usual few fields
	count := 0
	var prev line
	for {
		for q.blankLines && pos < len(p.in) && p.in[pos] == '\n' {
			pos++ // fault: blank lines between the fields and the Blob skipped
		}
		l, err := p.readLine(pos, lineField)
		if err != nil {
			return nil, err
		}
		name := p.name(l)
		if string(name) == Glyph {
			break // the embedded record's glyph line
		}
		count++
		if count == q.maxFields+1 {
			// N is in 1..512 (LACE-PLEX-03).
			if q.maxFields != MaxFields {
				return nil, FaultError("Plex has more than %d application fields", q.maxFields)
			}
			if p.c.Enforced(RulePlexMaxFields) {
				return nil, p.fail(RulePlexMaxFields, pos, "Plex has more than %d application fields", MaxFields)
			}
		}
		// Reserved names are invalid as application fields (LACE-PLEX-10).
		if isReservedBytes(name) {
			if p.c.Enforced(RulePlexReserved) {
				return nil, p.fail(RulePlexReserved, pos, "application field uses the reserved name %s", quote(string(name)))
			}
		} else if q.reservedFold && isReservedFold(name) {
			return nil, FaultError("application field name %s taken for a reserved name", quote(string(name)))
		}
		// A parser rejects a decrease in adjacent field-name bytes (LACE-PLEX-08).
		if len(fields) > 0 && q.decreases(prev, l, p.name(prev), name, p.in) {
			if q.inverted || q.wholeLines || q.noRepeats || q.foldCase {
				return nil, FaultError("field %s out of order after %s", quote(string(p.in[l.start:l.end])), quote(string(p.in[prev.start:prev.end])))
			}
			if p.c.Enforced(RulePlexOrder) {
				return nil, p.fail(RulePlexOrder, pos, "field name %s sorts before the preceding %s (bytewise ascending order)", quote(string(name)), quote(string(p.name(prev))))
			}
		}
		prev = l
		fields = append(fields, l)
		pos = l.next()
	}
	// N is in 1..512 (LACE-PLEX-02).
	if count == 0 && p.c.Enforced(RulePlexMinFields) {
		return nil, p.fail(RulePlexMinFields, pos, "Plex has no application fields: its glyph is followed immediately by the embedded record")
	}
	if count == q.minFieldsFail {
		return nil, FaultError("Plex has only %d application field", count)
	}
	glyphAt := pos
	h, next, err := p.glyph(pos, lineEmbedGlyph)
	if err != nil {
		return nil, err
	}
	var b *body
	if h.Form == FormBlob {
		b, err = p.blobBody(next)
	} else {
		// A Plex directly embeds exactly one Blob (LACE-NEST-02).
		if p.c.Enforced(RuleNestPlex) {
			return nil, p.fail(RuleNestPlex, pos, "Plex embeds a %s, not a Blob", h.Form)
		}
		// Fault: a generic reader parses whatever record is embedded.
		b, err = p.body(h.Form, next)
	}
	if err != nil {
		return nil, err
	}
	if err := p.embeddedDigest(h, glyphAt, next, b, "Blob"); err != nil {
		return nil, err
	}
	if h.Form == FormBlob {
		b.blob = h
	}
	b.form, b.fields, b.embedAt, b.embedNext = FormPlex, fields, glyphAt, next
	return b, nil
}

// compareFold compares a and b with ASCII letters folded to lower case (the
// mutant MUT-LACE-ORDER-CASE-INSENSITIVE).
func compareFold(a, b []byte) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		x, y := lowerASCII(a[i]), lowerASCII(b[i])
		if x != y {
			return int(x) - int(y)
		}
	}
	return len(a) - len(b)
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// isReservedFold matches the reserved names case-insensitively, as a reader
// ignoring LACE-PLEX-11 (the list is exact) would.
func isReservedFold(name []byte) bool {
	for _, r := range []string{nameDataLength, nameBy, nameMark} {
		if bytes.EqualFold(name, []byte(r)) {
			return true
		}
	}
	return false
}

// sealBody parses a Seal payload: By, Mark and one embedded Plex
// (Lace-010, "Seal records carry one Mark over one Plex").
func (p *parser) sealBody(pos int) (*body, error) {
	var by [mark.KeySize]byte
	var mk [mark.MarkSize]byte
	first, second := nameBy, nameMark
	anyOrder := p.c.Mutated(MutEnvelopeAnyOrder)
envelope:
	for i := 0; ; i++ {
		for pos < len(p.in) && p.in[pos] == '\n' && !p.c.Enforced(RuleSealStructure) {
			pos++ // fault: blank lines in the envelope skipped
		}
		l, err := p.readLine(pos, lineSealEnvelop)
		if err != nil {
			return nil, err
		}
		name := string(p.name(l))
		if name == Glyph {
			switch i {
			case 0: // By appears first (LACE-SEAL-02)
				if p.c.Enforced(RuleSealByFirst) {
					return nil, p.fail(RuleSealByFirst, pos, "Seal has no By line before its embedded record")
				}
			case 1: // Mark appears second (LACE-SEAL-04)
				if p.c.Enforced(RuleSealMarkSecond) {
					return nil, p.fail(RuleSealMarkSecond, pos, "Seal has no Mark line before its embedded record")
				}
			}
			break envelope
		}
		if i == 0 && anyOrder && name == nameMark {
			first, second = nameMark, nameBy // mutant: Mark may come first
		}
		switch {
		case i == 0 && name != first:
			if p.c.Enforced(RuleSealByFirst) {
				return nil, p.fail(RuleSealByFirst, pos, "Seal starts with %s, not By", quote(name))
			}
		case i == 1 && name != second:
			if p.c.Enforced(RuleSealMarkSecond) {
				return nil, p.fail(RuleSealMarkSecond, pos, "second Seal line is %s, not Mark", quote(name))
			}
		case i >= 2:
			// No additional envelope fields (LACE-SEAL-09).
			if p.c.Enforced(RuleSealNoEnvelope) {
				return nil, p.fail(RuleSealNoEnvelope, pos, "Seal has an additional envelope field %s", quote(name))
			}
		}
		switch name {
		case nameBy: // canonical V.<b64a>.H3 (LACE-SEAL-03)
			text := string(p.value(l))
			v, err := mark.ParseBy(text)
			if err != nil && p.c.Takes(ReadPadBits, AltPadBitsIgnored) {
				// Reading LACE-READ-05 pad-bits-ignored (readings.go).
				v, err = mark.ParseBy(withoutPadBits(text, len(text)-len(mark.BySuffix)-1, mark.KeySize))
			}
			if err != nil && p.c.Enforced(RuleSealByText) {
				return nil, p.fail(RuleSealByText, l.val, "By: %v", err)
			}
			by = v
		case nameMark: // one canonical 009 Mark (LACE-SEAL-05)
			text := string(p.value(l))
			v, err := mark.ParseMark(text)
			if err != nil && p.c.Takes(ReadPadBits, AltPadBitsIgnored) {
				// Reading LACE-READ-05 pad-bits-ignored (readings.go).
				v, err = mark.ParseMark(withoutPadBits(text, len(text)-1, mark.MarkSize))
			}
			if err != nil && p.c.Enforced(RuleSealMarkText) {
				return nil, p.fail(RuleSealMarkText, l.val, "Mark: %v", err)
			}
			mk = v
		}
		pos = l.next()
	}
	glyphAt := pos
	h, next, err := p.glyph(pos, lineEmbedGlyph)
	if err != nil {
		return nil, err
	}
	var b *body
	switch h.Form {
	case FormBlob:
		// A Seal cannot wrap a bare Blob (LACE-SEAL-08; LACE-EX-10, the
		// worked example, switches the check off too).
		if p.c.Enforced(RuleExSealOverBlob) && p.c.Enforced(RuleSealNoBlob) {
			return nil, p.fail(RuleSealNoBlob, pos, "Seal wraps a bare Blob; it must wrap a Plex")
		}
		b, err = p.blobBody(next)
		if err != nil {
			return nil, err
		}
		b.blob = h
	case FormSeal:
		// A Seal directly embeds one Plex (LACE-NEST-03).
		if p.c.Enforced(RuleNestSeal) {
			return nil, p.fail(RuleNestSeal, pos, "Seal embeds a Seal; it must embed a Plex")
		}
		// Fault: a generic reader parses the embedded Seal as a Seal.
		b, err = p.sealBody(next)
		if err != nil {
			return nil, err
		}
	default:
		b, err = p.plexBody(next, true)
		if err != nil {
			return nil, err
		}
		b.plex = h
	}
	if err := p.embeddedDigest(h, glyphAt, next, b, h.Form.String()); err != nil {
		return nil, err
	}
	b.form, b.by, b.mark, b.embedAt, b.embedNext = FormSeal, by, mk, glyphAt, next
	return b, nil
}

// embeddedDigest checks the glyph digest of the embedded record b, whose
// glyph line starts at glyphAt and whose payload at payload
// (LACE-GLYPH-07). LACE-NEST-04, that canonical nesting validates every
// embedded record, is realized by this check: its fault switches it off.
func (p *parser) embeddedDigest(h Hash, glyphAt, payload int, b *body, what string) error {
	d := p.payloadDigest(h.Form, payload, b.embedAt, b.embedNext, b.end)
	if d == h.Digest || p.trusting() || !p.c.Enforced(RuleNestComplete) || !p.c.Enforced(RuleGlyphEmbedded) {
		return nil
	}
	return p.fail(RuleGlyphEmbedded, glyphAt+len(glyphPrefix), "embedded %s hash %s does not match its payload (digest %s)", what, h, Hash{h.Form, d})
}

// verifyMark verifies a Seal's Mark under By over the embedded Plex digest
// (LACE-SEAL-06, LACE-SEAL-07) unless mark checking is "none".
func (p *parser) verifyMark(r *Record, sealDigest [DigestSize]byte) error {
	if p.check == mark.CheckNone {
		r.MarkStatus = MarkNotChecked
		return nil
	}
	scheme := mark.BIP340Standin
	subject := r.Plex.Digest
	if p.c.Mutated(MutMarkOverBlob) {
		subject = r.Blob.Digest // mutant: the Blob's digest taken for the subject
	}
	if scheme.Verify(r.By, subject, r.Mark) {
		r.MarkStatus = MarkVerified
		return nil
	}
	r.MarkStatus = MarkFailed
	if !p.c.Enforced(RuleExForeignMark) && mark.WellFormed(r.By, r.Mark) {
		return nil // fault: a Mark of the right form under a valid key taken as enough
	}
	off := r.Offset + GlyphLineLen
	// A Mark that verifies over the Blob or the Seal digest was made over the
	// wrong subject (LACE-SEAL-06).
	for _, s := range []struct {
		name string
		d    [DigestSize]byte
	}{{"embedded Blob", r.Blob.Digest}, {"Seal", sealDigest}} {
		if scheme.Verify(r.By, s.d, r.Mark) {
			if !p.c.Enforced(RuleSealSubject) {
				return nil
			}
			return p.fail(RuleSealSubject, off, "Mark was made over the %s digest, not the embedded Plex digest", s.name)
		}
	}
	if !p.c.Enforced(RuleSealVerify) {
		return nil
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
	if p.c.Mutated(MutValuesTrimmed) {
		for i := range fs {
			fs[i].Value = strings.TrimSpace(fs[i].Value) // mutant: values trimmed
		}
	}
	return fs
}
