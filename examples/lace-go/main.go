// Command lace-go is a Lace-010 testee, written from the specification
// (specs/lace-010-records.txt), the testee protocol (docs/PROTOCOL.md)
// and the Lace contract (docs/contract-lace.md) alone. It imports nothing
// of the conformance module: besides the standard library only the
// libraries the contract names, github.com/zeebo/blake3 (BLAKE3-256),
// golang.org/x/text/unicode/norm (NFC; Unicode 17.0.0 when built with Go
// 1.27) and github.com/btcsuite/btcd/btcec/v2 (BIP-340 for the Mark
// stand-in).
//
// It implements lace.record, lace.stream, lace.construct, lace.chunks and
// lace.directory, claims the profile lace-mark-bip340-standin, and speaks
// both modes of the protocol:
//
//	lace-go           persistent: JSON Lines on standard input and output
//	lace-go OP        one-shot: the input on standard input, args in CONFORM_ARGS
//
// Run the Lace suite against it from the repository root:
//
//	(cd examples/lace-go && go build -o /tmp/lace-go .)
//	go run ./cmd/conform run --suite lace -- /tmp/lace-go
package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/btcsuite/btcd/btcec/v2"
	"github.com/btcsuite/btcd/btcec/v2/schnorr"
	"github.com/zeebo/blake3"
	"golang.org/x/text/unicode/norm"
)

// Limits of Lace-010 and of this testee (contract, "Wire values"; the
// bounds' caps and defaults are the ones PROTOCOL.md's caps table gives).
const (
	maxData         = 33554432 // Blob data, 32 MiB
	maxLine         = 128      // a complete <Name>: <value>, without LF
	maxFields       = 512      // application fields of a Plex
	glyph           = "🖧"
	capDepth        = 64
	capExpansion    = 1 << 20
	capBytes        = 1 << 30
	capListingBytes = 1 << 27 // bytes of paths and targets in a listing
)

// b64a is document 006's B64A: base64 bit packing over the ASCII-sorted
// alphabet, no padding (contract, "B64A").
var b64a = base64.NewEncoding("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~").WithPadding(base64.NoPadding)

// decodeB64A decodes canonical B64A text of exactly n bytes: the decoded
// bytes must re-encode to the text, which rejects nonzero pad bits.
func decodeB64A(s string, n int) ([]byte, bool) {
	if len(s) != b64a.EncodedLen(n) {
		return nil, false
	}
	b, err := b64a.DecodeString(s)
	if err != nil || len(b) != n || b64a.EncodeToString(b) != s {
		return nil, false
	}
	return b, true
}

// reject is a rejection: Lace names no codes, so the code is a word of
// this testee's own (contract, "Rejections").
type reject struct{ detail string }

func (e *reject) Error() string { return e.detail }

func rejectf(format string, args ...any) error { return &reject{fmt.Sprintf(format, args...)} }

// unsupported is an argument value this testee does not implement.
type unsupported struct{ detail string }

func (e *unsupported) Error() string { return e.detail }

// badRequest is a request built wrong (arguments or a construct input
// that do not decode).
type badRequest struct{ detail string }

func (e *badRequest) Error() string { return e.detail }

// Records.

type field struct{ name, value string }

type record struct {
	form       byte // 'B', 'P' or 'S'
	digest     [32]byte
	fields     []field // Plex and Seal
	data       []byte
	blob, plex [32]byte // the Blob (Plex, Seal) and the Plex (Seal) it embeds
	by         string   // By and Mark text (Seal)
	mark       string
	markStatus string
}

func hashText(form byte, d [32]byte) string {
	return string(form) + "." + b64a.EncodeToString(d[:]) + ".H3"
}

func (r *record) hashText() string { return hashText(r.form, r.digest) }

// parseHashText reads canonical H3 hash text T.<43 B64A>.H3.
func parseHashText(s string) (form byte, d [32]byte, ok bool) {
	if len(s) != 48 || s[1] != '.' || !strings.HasSuffix(s, ".H3") || strings.IndexByte("BPS", s[0]) < 0 {
		return 0, d, false
	}
	b, ok := decodeB64A(s[2:45], 32)
	if !ok {
		return 0, d, false
	}
	copy(d[:], b)
	return s[0], d, true
}

// checkText applies the text rules to a name or value: non-empty, no
// control bytes (CR included), strict UTF-8, NFC under Unicode 17.0.0.
func checkText(what, s string) error {
	if s == "" {
		return rejectf("empty %s", what)
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return rejectf("%s %q holds the control byte 0x%02X", what, s, s[i])
		}
	}
	if !utf8.ValidString(s) {
		return rejectf("%s %q is not UTF-8", what, s)
	}
	if !norm.NFC.IsNormalString(s) {
		return rejectf("%s %q is not NFC", what, s)
	}
	return nil
}

// checkField checks one field's name and value as a line <name>: <value>.
func checkField(name, value string) error {
	if strings.ContainsAny(name, ": \t") {
		return rejectf("field name %q holds ':', space or tab", name)
	}
	if err := checkText("name", name); err != nil {
		return err
	}
	if err := checkText("value", value); err != nil {
		return err
	}
	if n := len(name) + 2 + len(value); n > maxLine {
		return rejectf("field line %s: %.20q... is %d bytes, over %d", name, value, n, maxLine)
	}
	return nil
}

// reader parses records out of one input.
type reader struct {
	in   []byte
	mark string // "bip340-standin" or "none"
}

// line reads the field line at pos: its name and value, and the position
// after its LF. The separator is the first ": "; the value may begin with
// a space (contract: reading LACE-READ-01; LACE-FIELD-01, clarified).
func (p *reader) line(pos int) (name, value string, next int, err error) {
	i := bytes.IndexByte(p.in[pos:], '\n')
	if i < 0 {
		return "", "", 0, rejectf("input ends inside a line at byte %d", pos)
	}
	content := string(p.in[pos : pos+i])
	name, value, ok := strings.Cut(content, ": ")
	if !ok {
		return "", "", 0, rejectf("line %q has no \": \"", content)
	}
	if err := checkField(name, value); err != nil {
		return "", "", 0, err
	}
	return name, value, pos + i + 1, nil
}

// glyphLine reads a record glyph line at pos.
func (p *reader) glyphLine(pos int) (form byte, d [32]byte, next int, err error) {
	name, value, next, err := p.line(pos)
	if err != nil {
		return 0, d, 0, err
	}
	if name != glyph {
		return 0, d, 0, rejectf("expected a record glyph line, found %q", name)
	}
	form, d, ok := parseHashText(value)
	if !ok {
		return 0, d, 0, rejectf("%q is no canonical H3 hash text", value)
	}
	return form, d, next, nil
}

// record parses the complete record at pos and returns it and the position
// after it: the glyph names the form its payload is parsed as, and every
// digest is checked (the embedded ones inside the payload parsers).
func (p *reader) record(pos int) (*record, int, error) {
	if !bytes.HasPrefix(p.in[pos:], []byte(glyph+": ")) {
		return nil, 0, rejectf("byte %d does not start a record glyph line", pos)
	}
	form, d, start, err := p.glyphLine(pos)
	if err != nil {
		return nil, 0, err
	}
	r := &record{form: form, digest: d}
	var end int
	switch form {
	case 'B':
		r.data, end, err = p.blobBody(start)
		r.blob = d
	case 'P':
		end, err = p.plexBody(start, r)
		r.plex = d
	case 'S':
		end, err = p.sealBody(start, r)
	}
	if err != nil {
		return nil, 0, err
	}
	if blake3.Sum256(p.in[start:end]) != d {
		return nil, 0, rejectf("the record's hash %s does not match its payload", r.hashText())
	}
	if form == 'S' {
		if err := p.verifyMark(r); err != nil {
			return nil, 0, err
		}
	}
	return r, end, nil
}

// blobBody parses a Blob payload: Data-Length, a blank line, the data.
func (p *reader) blobBody(pos int) ([]byte, int, error) {
	name, value, next, err := p.line(pos)
	if err != nil {
		return nil, 0, err
	}
	if name != "Data-Length" {
		return nil, 0, rejectf("a Blob starts with %q, not Data-Length", name)
	}
	if len(value) > 1 && value[0] == '0' || strings.Trim(value, "0123456789") != "" {
		return nil, 0, rejectf("Data-Length %q is not canonical decimal", value)
	}
	if len(value) > len(strconv.Itoa(maxData)) {
		return nil, 0, rejectf("Data-Length %s is over 32 MiB", value)
	}
	n, _ := strconv.Atoi(value)
	if n > maxData {
		return nil, 0, rejectf("Data-Length %d is over 32 MiB", n)
	}
	if next >= len(p.in) || p.in[next] != '\n' {
		return nil, 0, rejectf("no blank line after Data-Length")
	}
	next++
	if len(p.in)-next < n {
		return nil, 0, rejectf("Data-Length is %d but %d bytes follow", n, len(p.in)-next)
	}
	return p.in[next : next+n], next + n, nil
}

var reserved = map[string]bool{"Data-Length": true, "By": true, "Mark": true, glyph: true, "⋯" + glyph: true}

// plexBody parses a Plex payload into r: 1..512 sorted fields, then one
// embedded Blob whose digest must match.
func (p *reader) plexBody(pos int, r *record) (int, error) {
	for {
		name, value, next, err := p.line(pos)
		if err != nil {
			return 0, err
		}
		if name == glyph {
			break // the embedded record's glyph line
		}
		if reserved[name] {
			return 0, rejectf("the reserved name %q as an application field", name)
		}
		if len(r.fields) == maxFields {
			return 0, rejectf("more than %d fields", maxFields)
		}
		if k := len(r.fields); k > 0 && r.fields[k-1].name > name {
			return 0, rejectf("field %q sorts before the preceding %q", name, r.fields[k-1].name)
		}
		r.fields = append(r.fields, field{name, value})
		pos = next
	}
	if len(r.fields) == 0 {
		return 0, rejectf("a Plex without fields")
	}
	form, d, start, err := p.glyphLine(pos)
	if err != nil {
		return 0, err
	}
	if form != 'B' {
		return 0, rejectf("a Plex embeds a %c record, not a Blob", form)
	}
	data, end, err := p.blobBody(start)
	if err != nil {
		return 0, err
	}
	if blake3.Sum256(p.in[start:end]) != d {
		return 0, rejectf("the embedded Blob's hash does not match its payload")
	}
	r.data, r.blob = data, d
	return end, nil
}

// envelopeLine reads the Seal envelope line at pos, which must be named
// want and hold canonical text.
func (p *reader) envelopeLine(pos int, want string, canonical func(string) bool) (string, int, error) {
	name, value, next, err := p.line(pos)
	switch {
	case err != nil:
		return "", 0, err
	case name != want:
		return "", 0, rejectf("the Seal envelope has %q where %s belongs", name, want)
	case !canonical(value):
		return "", 0, rejectf("%s %q is not canonical text", want, value)
	}
	return value, next, nil
}

// sealBody parses a Seal payload into r: By, Mark, then one embedded Plex
// whose digest must match.
func (p *reader) sealBody(pos int, r *record) (int, error) {
	by, next, err := p.envelopeLine(pos, "By", func(v string) bool { // V.<43 B64A>.H3
		_, ok := decodeB64A(strings.TrimSuffix(strings.TrimPrefix(v, "V."), ".H3"), 32)
		return ok && len(v) == 48 && v[:2] == "V." && v[45:] == ".H3"
	})
	if err != nil {
		return 0, err
	}
	mark, next, err := p.envelopeLine(next, "Mark", func(v string) bool { _, ok := decodeB64A(v, 64); return ok })
	if err != nil {
		return 0, err
	}
	form, d, start, err := p.glyphLine(next)
	if err != nil {
		return 0, err
	}
	if form != 'P' {
		return 0, rejectf("a Seal embeds a %c record, not a Plex", form)
	}
	end, err := p.plexBody(start, r)
	if err != nil {
		return 0, err
	}
	if blake3.Sum256(p.in[start:end]) != d {
		return 0, rejectf("the embedded Plex's hash does not match its payload")
	}
	r.plex, r.by, r.mark = d, by, mark
	return end, nil
}

// verifyMark checks a Seal's Mark: BIP-340 Verify(By, the 32 bytes of the
// embedded Plex digest, Mark) under bip340-standin, nothing under none
// (contract, "By and Mark").
func (p *reader) verifyMark(r *record) error {
	if p.mark == "none" {
		r.markStatus = "not-checked"
		return nil
	}
	by, _ := decodeB64A(r.by[2:45], 32)
	mark, _ := decodeB64A(r.mark, 64)
	pub, err := schnorr.ParsePubKey(by)
	if err != nil {
		return rejectf("By is no BIP-340 public key: %v", err)
	}
	sig, err := schnorr.ParseSignature(mark)
	if err != nil {
		return rejectf("Mark is no BIP-340 signature: %v", err)
	}
	if !sig.Verify(r.plex[:], pub) {
		return rejectf("the Mark does not verify under By over the embedded Plex digest")
	}
	r.markStatus = "verified"
	return nil
}

// stream parses a record stream: records back to back, none included.
func (p *reader) stream() ([]*record, error) {
	var recs []*record
	for pos := 0; pos < len(p.in); {
		r, end, err := p.record(pos)
		if err != nil {
			return nil, err
		}
		recs = append(recs, r)
		pos = end
	}
	return recs, nil
}

// Record links.

func isLinkName(name string) bool { return strings.HasSuffix(name, "+Link") }

// parseLink splits a link value at its last space, trimming nothing.
func parseLink(value string) (data, target, rule string) {
	i := strings.LastIndexByte(value, ' ')
	if i < 0 {
		return "", "", "LACE-LINK-03"
	}
	data, target = value[:i], value[i+1:]
	if data == "" {
		return "", "", "LACE-LINK-02"
	}
	if len(target) < 2 || target[1] != '.' || strings.IndexByte("BPS", target[0]) < 0 {
		return "", "", "LACE-LINK-04"
	}
	if j := strings.LastIndexByte(target[2:], '.'); j <= 0 || j == len(target[2:])-1 {
		return "", "", "LACE-LINK-04"
	}
	return data, target, ""
}

// The operations.

type args struct {
	Mark         *string      `json:"mark"`
	MaxDepth     *json.Number `json:"max_depth"`
	MaxExpansion *json.Number `json:"max_expansion"`
	MaxBytes     *json.Number `json:"max_bytes"`
}

func decodeArgs(raw json.RawMessage) (args, error) {
	var a args
	if len(raw) == 0 {
		return a, nil
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if err := d.Decode(&a); err != nil {
		return a, &badRequest{"args: " + err.Error()}
	}
	return a, nil
}

// markMode is the mark argument of the readers: bip340-standin (also
// when absent) or none; 009 and anything else are not implemented here.
func (a args) markMode() (string, error) {
	if a.Mark == nil || *a.Mark == "bip340-standin" {
		return "bip340-standin", nil
	}
	if *a.Mark == "none" {
		return "none", nil
	}
	return "", &unsupported{fmt.Sprintf("mark %q is not implemented (bip340-standin and none are)", *a.Mark)}
}

// bound reads a bound argument: absent is the default; below 1 or above
// the cap cannot be honoured.
func bound(name string, v *json.Number, def int64) (int64, error) {
	if v == nil {
		return def, nil
	}
	n, err := strconv.ParseInt(v.String(), 10, 64)
	if err != nil || n < 1 || n > def {
		return 0, &unsupported{fmt.Sprintf("%s %s is outside 1..%d, this testee's cap", name, v, def)}
	}
	return n, nil
}

type link struct {
	Field  int    `json:"field"`
	Name   string `json:"name"`
	Data   string `json:"data"`
	Target string `json:"target"`
}

type malformedLink struct {
	Field int    `json:"field"`
	Name  string `json:"name"`
	Value string `json:"value"`
	Rule  string `json:"rule"`
}

type recordResult struct {
	Form           string           `json:"form"`
	Hash           string           `json:"hash"`
	DataLength     int              `json:"data_length"`
	Plex           string           `json:"plex,omitempty"`
	Blob           string           `json:"blob,omitempty"`
	Fields         [][2]string      `json:"fields,omitempty"`
	By             string           `json:"by,omitempty"`
	Mark           string           `json:"mark,omitempty"`
	MarkStatus     string           `json:"mark_status,omitempty"`
	Links          *[]link          `json:"links,omitempty"`
	MalformedLinks *[]malformedLink `json:"malformed_links,omitempty"`
}

var formNames = map[byte]string{'B': "blob", 'P': "plex", 'S': "seal"}

func opRecord(a args, in []byte) (any, error) {
	mode, err := a.markMode()
	if err != nil {
		return nil, err
	}
	if len(in) == 0 {
		return nil, rejectf("empty input is no record")
	}
	p := &reader{in: in, mark: mode}
	r, end, err := p.record(0)
	if err != nil {
		return nil, err
	}
	if end != len(in) {
		return nil, rejectf("%d bytes after the record", len(in)-end)
	}
	res := recordResult{Form: formNames[r.form], Hash: r.hashText(), DataLength: len(r.data)}
	if r.form == 'B' {
		return res, nil
	}
	res.Blob = hashText('B', r.blob)
	if r.form == 'S' {
		res.Plex, res.By, res.Mark, res.MarkStatus = hashText('P', r.plex), r.by, r.mark, r.markStatus
	}
	links, malformed := []link{}, []malformedLink{}
	for i, f := range r.fields {
		res.Fields = append(res.Fields, [2]string{f.name, f.value})
		if !isLinkName(f.name) {
			continue
		}
		if data, target, rule := parseLink(f.value); rule != "" {
			malformed = append(malformed, malformedLink{i, f.name, f.value, rule})
		} else {
			links = append(links, link{i, f.name, data, target})
		}
	}
	res.Links, res.MalformedLinks = &links, &malformed
	return res, nil
}

func opStream(a args, in []byte) (any, error) {
	mode, err := a.markMode()
	if err != nil {
		return nil, err
	}
	recs, err := (&reader{in: in, mark: mode}).stream()
	if err != nil {
		return nil, err
	}
	hashes := make([]string, len(recs))
	for i, r := range recs {
		hashes[i] = r.hashText()
	}
	return map[string]any{"hashes": hashes}, nil
}

// construct input: every member optional (PROTOCOL.md, lace.construct).
type spec struct {
	Data   *string     `json:"data"`
	Fields [][2]string `json:"fields"`
	Secret *string     `json:"secret"`
	Aux    *string     `json:"aux"`
}

func opConstruct(a args, in []byte) (any, error) {
	if a.Mark != nil && *a.Mark != "bip340-standin" {
		return nil, &unsupported{fmt.Sprintf("lace.construct signs under bip340-standin only, not %q", *a.Mark)}
	}
	var s spec
	if err := json.Unmarshal(in, &s); err != nil {
		return nil, &badRequest{"the input is not the JSON specification: " + err.Error()}
	}
	b64 := func(what string, v *string, n int) ([]byte, error) {
		if v == nil {
			return nil, nil
		}
		b, err := base64.StdEncoding.DecodeString(*v)
		if err != nil || n > 0 && len(b) != n {
			return nil, &badRequest{fmt.Sprintf("%s is not base64 of %d bytes", what, n)}
		}
		return b, nil
	}
	data, err := b64("data", s.Data, 0)
	if err != nil {
		return nil, err
	}
	secret, err := b64("secret", s.Secret, 32)
	if err != nil {
		return nil, err
	}
	aux, err := b64("aux", s.Aux, 32)
	if err != nil {
		return nil, err
	}
	if len(data) > maxData {
		return nil, rejectf("%d data bytes, over 32 MiB", len(data))
	}
	if secret != nil && len(s.Fields) == 0 {
		return nil, rejectf("a By-secret with no fields")
	}
	if len(s.Fields) > maxFields {
		return nil, rejectf("%d fields, over %d", len(s.Fields), maxFields)
	}
	fields := slices.Clone(s.Fields)
	for _, f := range fields {
		if reserved[f[0]] {
			return nil, rejectf("the reserved name %q", f[0])
		}
		if err := checkField(f[0], f[1]); err != nil {
			return nil, err
		}
	}
	slices.SortStableFunc(fields, func(x, y [2]string) int { return strings.Compare(x[0], y[0]) })

	out := []byte("Data-Length: " + strconv.Itoa(len(data)) + "\n\n")
	out = append(out, data...)
	form := byte('B')
	if len(fields) > 0 {
		var payload []byte
		for _, f := range fields {
			payload = append(payload, f[0]+": "+f[1]+"\n"...)
		}
		out, form = append(payload, withGlyph('B', out)...), 'P'
	}
	if secret != nil {
		var d btcec.ModNScalar
		if overflow := d.SetByteSlice(secret); overflow || d.IsZero() {
			return nil, rejectf("the By-secret is not in 1..n-1")
		}
		key := btcec.PrivKeyFromScalar(&d)
		var a32 [32]byte
		copy(a32[:], aux)       // absent: zeros
		m := blake3.Sum256(out) // the Plex digest: the Mark subject
		sig, err := schnorr.Sign(key, m[:], schnorr.CustomNonce(a32))
		if err != nil {
			return nil, rejectf("signing: %v", err)
		}
		env := "By: V." + b64a.EncodeToString(schnorr.SerializePubKey(key.PubKey())) + ".H3\nMark: " + b64a.EncodeToString(sig.Serialize()) + "\n"
		out, form = append([]byte(env), withGlyph('P', out)...), 'S'
	}
	rec := withGlyph(form, out)
	return map[string]any{"record": rec, "hash": hashText(form, blake3.Sum256(out)), "form": formNames[form]}, nil
}

// withGlyph prefixes a payload with its record glyph line.
func withGlyph(form byte, payload []byte) []byte {
	return append([]byte(glyph+": "+hashText(form, blake3.Sum256(payload))+"\n"), payload...)
}

// The conventions: a walk over a stream's records (contract, "Convention
// consumers"). Every link followed is one use and one level.

type walker struct {
	recs              map[string]*record
	maxDepth, maxUses int64
	uses              int64
	listed            int64
}

func newWalker(a args, in []byte, chunks bool) (*walker, *record, int64, error) {
	mode, err := a.markMode()
	if err != nil {
		return nil, nil, 0, err
	}
	w := &walker{recs: map[string]*record{}}
	if w.maxDepth, err = bound("max_depth", a.MaxDepth, capDepth); err != nil {
		return nil, nil, 0, err
	}
	if w.maxUses, err = bound("max_expansion", a.MaxExpansion, capExpansion); err != nil {
		return nil, nil, 0, err
	}
	maxBytes := int64(0)
	if chunks {
		if maxBytes, err = bound("max_bytes", a.MaxBytes, capBytes); err != nil {
			return nil, nil, 0, err
		}
	}
	recs, err := (&reader{in: in, mark: mode}).stream()
	if err != nil {
		return nil, nil, 0, err
	}
	if len(recs) == 0 {
		return nil, nil, 0, rejectf("an empty stream has no root")
	}
	for _, r := range recs {
		w.recs[r.hashText()] = r
	}
	return w, recs[0], maxBytes, nil
}

// enter follows one link to target, reached at depth: it counts the use,
// checks both bounds, and finds the record.
func (w *walker) enter(target string, depth int64) (*record, error) {
	if depth > w.maxDepth {
		return nil, rejectf("%s is %d links from the root, beyond max_depth %d", target, depth, w.maxDepth)
	}
	if w.uses++; w.uses > w.maxUses {
		return nil, rejectf("more than max_expansion %d link uses", w.maxUses)
	}
	r, ok := w.recs[target]
	if !ok {
		return nil, rejectf("%s is not in the stream", target)
	}
	return r, nil
}

// convLink parses a convention link and checks its target: canonical H3
// hash text of one of the forms allowed.
func convLink(f field, allowed string) (data, target string, err error) {
	data, target, rule := parseLink(f.value)
	if rule != "" {
		return "", "", rejectf("%s: %q is no well-formed link (%s)", f.name, f.value, rule)
	}
	form, _, ok := parseHashText(target)
	if !ok {
		return "", "", rejectf("%s: target %q is no canonical H3 hash text", f.name, target)
	}
	if strings.IndexByte(allowed, form) < 0 {
		return "", "", rejectf("%s: target %s is of the wrong family", f.name, target)
	}
	return data, target, nil
}

// shape checks a convention record: a Plex, empty data, exactly one Kind
// of the given value, and no fields but Kind and the allowed ones.
func shape(r *record, kind string, allowed ...string) error {
	if r.form != 'P' {
		return rejectf("%s is not a Plex", r.hashText())
	}
	if len(r.data) != 0 {
		return rejectf("%s has data", r.hashText())
	}
	kinds := 0
	for _, f := range r.fields {
		switch {
		case f.name == "Kind":
			if f.value != kind {
				return rejectf("%s has Kind %q, not %q", r.hashText(), f.value, kind)
			}
			kinds++
		case !slices.Contains(allowed, f.name):
			return rejectf("%s has the field %s", r.hashText(), f.name)
		}
	}
	if kinds != 1 {
		return rejectf("%s has %d Kind fields", r.hashText(), kinds)
	}
	return nil
}

// canonicalU64 parses canonical unsigned decimal text in 0..2^64-1.
func canonicalU64(s string) (uint64, bool) {
	if s == "" || len(s) > 1 && s[0] == '0' || strings.Trim(s, "0123456789") != "" {
		return 0, false
	}
	v, err := strconv.ParseUint(s, 10, 64)
	return v, err == nil
}

// fileLength validates the file r (a Blob, or a chunk node and all below
// it) reached at depth, and returns its length.
func (w *walker) fileLength(r *record, depth int64) (uint64, error) {
	if r.form == 'B' {
		return uint64(len(r.data)), nil
	}
	if err := shape(r, "chunks", "Chunk+Link"); err != nil {
		return 0, err
	}
	var end uint64
	links := 0
	for _, f := range r.fields {
		if f.name != "Chunk+Link" {
			continue
		}
		data, target, err := convLink(f, "BP")
		if err != nil {
			return 0, err
		}
		a, b, ok := strings.Cut(data, "..")
		if !ok || strings.Contains(b, "..") {
			return 0, rejectf("range %q is not start..end", data)
		}
		start, ok1 := canonicalU64(a)
		stop, ok2 := canonicalU64(b)
		switch {
		case !ok1 || !ok2:
			return 0, rejectf("range %q: endpoints are not canonical u64 decimals", data)
		case start >= stop:
			return 0, rejectf("range %q is not positive", data)
		case start != end:
			return 0, rejectf("range %q does not start at %d", data, end)
		}
		child, err := w.enter(target, depth+1)
		if err != nil {
			return 0, err
		}
		n, err := w.fileLength(child, depth+1)
		if err != nil {
			return 0, err
		}
		if n != stop-start {
			return 0, rejectf("range %q for a child of %d bytes", data, n)
		}
		end, links = stop, links+1
	}
	if links == 0 {
		return 0, rejectf("chunk node %s has no Chunk+Link", r.hashText())
	}
	return end, nil
}

// emit writes the bytes of a validated file.
func (w *walker) emit(r *record, out io.Writer) {
	if r.form == 'B' {
		out.Write(r.data)
		return
	}
	for _, f := range r.fields {
		if f.name == "Chunk+Link" {
			_, target, _ := parseLink(f.value)
			w.emit(w.recs[target], out)
		}
	}
}

func opChunks(a args, in []byte) (any, error) {
	w, root, maxBytes, err := newWalker(a, in, true)
	if err != nil {
		return nil, err
	}
	n, err := w.fileLength(root, 0)
	if err != nil {
		return nil, err
	}
	if n > uint64(maxBytes) {
		return nil, rejectf("the file is %d bytes, over max_bytes %d", n, maxBytes)
	}
	h := blake3.New()
	w.emit(root, h)
	return map[string]any{"length": n, "blake3": hex.EncodeToString(h.Sum(nil))}, nil
}

type entry struct {
	Path   string `json:"path"`
	Target string `json:"target"`
	Kind   string `json:"kind"`
}

// directory lists the logical directory whose first record is r, reached
// at depth, below prefix; names holds the names of the whole logical
// directory (its pages included).
func (w *walker) directory(r *record, depth int64, prefix string, names map[string]bool, out *[]entry) error {
	if err := shape(r, "directory", "File+Link", "Child+Link", "Page+Link"); err != nil {
		return err
	}
	last := map[string]string{} // the last name of each kind in this record
	pages := 0
	for _, f := range r.fields {
		switch f.name {
		case "File+Link", "Child+Link":
			allowed := "BP"
			if f.name == "Child+Link" {
				allowed = "P"
			}
			name, target, err := convLink(f, allowed)
			if err != nil {
				return err
			}
			if err := checkName(name); err != nil {
				return err
			}
			if prev, ok := last[f.name]; ok && prev > name {
				return rejectf("%s %q sorts before %q", f.name, name, prev)
			}
			last[f.name] = name
			if names[name] {
				return rejectf("the name %q is used twice in one directory", name)
			}
			names[name] = true
			child, err := w.enter(target, depth+1)
			if err != nil {
				return err
			}
			if w.listed += int64(len(prefix) + len(name) + len(target)); w.listed > capListingBytes {
				return &unsupported{fmt.Sprintf("the listing is over %d bytes of paths and targets (hello limits lace.max_listing_bytes)", capListingBytes)}
			}
			if f.name == "File+Link" {
				*out = append(*out, entry{prefix + name, target, "file"})
				if _, err := w.fileLength(child, depth+1); err != nil {
					return err
				}
			} else {
				*out = append(*out, entry{prefix + name, target, "dir"})
				if err := w.directory(child, depth+1, prefix+name+"/", map[string]bool{}, out); err != nil {
					return err
				}
			}
		case "Page+Link":
			ordinal, target, err := convLink(f, "P")
			if err != nil {
				return err
			}
			if v, ok := canonicalU64(ordinal); !ok || v != uint64(pages) {
				return rejectf("Page+Link ordinal %q, want %d", ordinal, pages)
			}
			pages++
			page, err := w.enter(target, depth+1)
			if err != nil {
				return err
			}
			if err := w.directory(page, depth+1, prefix, names, out); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkName checks a name component (the link data of a File+Link or
// Child+Link), which is kept byte for byte.
func checkName(name string) error {
	switch {
	case name == "." || name == "..":
		return rejectf("the name %q", name)
	case strings.Contains(name, "/"):
		return rejectf("the name %q holds '/'", name)
	}
	return checkText("name", name)
}

func opDirectory(a args, in []byte) (any, error) {
	w, root, _, err := newWalker(a, in, false)
	if err != nil {
		return nil, err
	}
	entries := []entry{}
	if err := w.directory(root, 0, "", map[string]bool{}, &entries); err != nil {
		return nil, err
	}
	slices.SortFunc(entries, func(x, y entry) int { return strings.Compare(x.Path, y.Path) })
	return map[string]any{"entries": entries}, nil
}

// The protocol.

var ops = map[string]func(args, []byte) (any, error){
	"lace.record":    opRecord,
	"lace.stream":    opStream,
	"lace.construct": opConstruct,
	"lace.chunks":    opChunks,
	"lace.directory": opDirectory,
}

func hello() map[string]any {
	names := make([]string, 0, len(ops))
	for op := range ops {
		names = append(names, op)
	}
	slices.Sort(names)
	return map[string]any{
		"protocol": 1,
		"implementation": map[string]any{"name": "lace-go example", "version": "1", "language": "Go " + strings.TrimPrefix(runtime.Version(), "go"),
			"source": "examples/lace-go", "data": map[string]string{"unicode": norm.Version}},
		"ops":      names,
		"profiles": []string{"lace-mark-bip340-standin"},
		"limits": map[string]int64{"lace.max_depth": capDepth, "lace.max_expansion": capExpansion,
			"lace.max_assembled_bytes": capBytes, "lace.max_listing_bytes": capListingBytes},
		"capabilities": []string{"input-path"},
	}
}

// answer is one response, without its id.
func answer(op string, rawArgs json.RawMessage, in []byte) map[string]any {
	if op == "hello" {
		return map[string]any{"ok": true, "result": hello()}
	}
	f, ok := ops[op]
	if !ok {
		return map[string]any{"unsupported": true, "detail": "operation " + op + " is not implemented"}
	}
	a, err := decodeArgs(rawArgs)
	var result any
	if err == nil {
		result, err = f(a, in)
	}
	var rej *reject
	var uns *unsupported
	var bad *badRequest
	switch {
	case err == nil:
		return map[string]any{"ok": true, "result": result}
	case errors.As(err, &rej):
		return map[string]any{"ok": false, "code": "REJECTED", "detail": rej.detail}
	case errors.As(err, &uns):
		return map[string]any{"unsupported": true, "detail": uns.detail}
	case errors.As(err, &bad):
		return map[string]any{"ok": false, "code": "BAD_REQUEST", "detail": bad.detail}
	}
	return map[string]any{"ok": false, "code": "ERROR", "detail": err.Error()}
}

type request struct {
	ID        *int64          `json:"id"`
	Op        string          `json:"op"`
	Args      json.RawMessage `json:"args"`
	Input     *string         `json:"input"`
	InputPath *string         `json:"input_path"`
}

// serve answers one request line.
func serve(line []byte) map[string]any {
	var req request
	if err := json.Unmarshal(line, &req); err != nil || req.ID == nil {
		return map[string]any{"id": -1, "ok": false, "code": "BAD_REQUEST", "detail": "not a request line"}
	}
	var in []byte
	var err error
	switch {
	case req.InputPath != nil:
		in, err = os.ReadFile(*req.InputPath)
	case req.Input != nil:
		in, err = base64.StdEncoding.DecodeString(*req.Input)
	default:
		err = errors.New("no input")
	}
	resp := map[string]any{"ok": false, "code": "BAD_REQUEST", "detail": fmt.Sprint(err)}
	if err == nil {
		resp = answer(req.Op, req.Args, in)
	}
	resp["id"] = *req.ID
	return resp
}

func main() {
	if norm.Version != "17.0.0" {
		fmt.Fprintf(os.Stderr, "lace-go: NFC tables are Unicode %s, not 17.0.0: build with Go 1.27 or later\n", norm.Version)
		os.Exit(2)
	}
	out := bufio.NewWriterSize(os.Stdout, 1<<16)
	if len(os.Args) > 1 { // one-shot: OP as argument, the input on standard input
		in, err := io.ReadAll(os.Stdin)
		resp := map[string]any{"ok": false, "code": "BAD_REQUEST", "detail": fmt.Sprint(err)}
		if err == nil {
			resp = answer(os.Args[1], json.RawMessage(os.Getenv("CONFORM_ARGS")), in)
		}
		json.NewEncoder(out).Encode(resp)
		out.Flush()
		if resp["ok"] == false {
			os.Exit(1)
		}
		return
	}
	lines := bufio.NewReaderSize(os.Stdin, 1<<16)
	for {
		line, err := lines.ReadBytes('\n') // no line limit: base64 inputs reach 45 MiB
		if len(bytes.TrimSpace(line)) > 0 {
			json.NewEncoder(out).Encode(serve(line)) // one line, LF-terminated
			out.Flush()
		}
		if err != nil {
			return // standard input closed
		}
	}
}
