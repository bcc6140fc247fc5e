// Package lace holds the steps of the Lace-010 features (features/lace),
// its steps.Wing. Inputs are written by the builders of build.go; every
// question goes to the implementation under test through World.Call:
// lace.record, lace.stream, lace.construct, lace.chunks and lace.directory
// (docs/PROTOCOL.md).
package lace

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cucumber/godog"
	"github.com/zeebo/blake3"

	"github.com/threespec/conformance/impl/lace/lacespec"
	"github.com/threespec/conformance/steps"
	"github.com/threespec/conformance/testee"
)

// Steps are the Lace steps; each scenario keeps its Lace state in its own
// scenario value.
var Steps = steps.Wing{Spec: lacespec.Spec, Register: register, Unreachable: unreachable}

// scenario is the Lace state of one scenario.
type scenario struct {
	w  *steps.World
	rv resolver

	input   []byte   // the record or stream the When steps send
	order   []string // named records in the order they were built
	omitted map[string]bool

	spec        *constructInput // the constructor specification
	constructed []byte          // the record lace.construct returned
}

// constructInput is the JSON input of lace.construct (docs/PROTOCOL.md).
type constructInput struct {
	Data   *string     `json:"data,omitempty"`
	Fields [][2]string `json:"fields,omitempty"`
	Secret *string     `json:"secret,omitempty"`
	Aux    *string     `json:"aux,omitempty"`
}

// quoted is a step argument in double quotes, with \" escapes.
const quoted = `"((?:[^"\\]|\\.)*)"`

var quotedList = regexp.MustCompile(quoted)

// listArgs reads `"a", "b" and "c"` into its strings.
func listArgs(s string) []string {
	var out []string
	for _, m := range quotedList.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return out
}

// Building inputs.

// named keeps a built record under name (when name is not empty) and makes
// it the input.
func (s *scenario) named(name string, b []byte) {
	s.input = b
	if name == "" {
		return
	}
	if _, dup := s.rv.records[name]; !dup {
		s.order = append(s.order, name)
	}
	s.rv.records[name] = newBuiltRecord(name, b)
}

func (s *scenario) theRecord(doc *godog.DocString) error { return s.theNamedRecord("", doc) }

func (s *scenario) theNamedRecord(name string, doc *godog.DocString) error {
	b, err := s.rv.build(doc.Content)
	if err != nil {
		return err
	}
	s.named(name, b)
	return nil
}

func (s *scenario) theBytes(text string) error {
	b, err := s.rv.build(text)
	if err != nil {
		return err
	}
	s.input = b
	return nil
}

func (s *scenario) appendBytes(text string) error {
	b, err := s.rv.build(text)
	if err != nil {
		return err
	}
	s.input = append(bytes.Clone(s.input), b...)
	return nil
}

func (s *scenario) blob(name, data string) error {
	d, err := s.rv.build(data)
	if err != nil {
		return err
	}
	s.named(name, blobRecord(d))
	return nil
}

func (s *scenario) plexFields(name, data string, lines []string) error {
	d, err := s.rv.build(data)
	if err != nil {
		return err
	}
	ls := make([][]byte, len(lines))
	for i, l := range lines {
		if ls[i], err = s.rv.build(l); err != nil {
			return err
		}
	}
	s.named(name, plexRecord(ls, d))
	return nil
}

// docLines splits a docstring into its lines; an empty docstring has none.
func docLines(doc *godog.DocString) []string {
	if doc.Content == "" {
		return nil
	}
	return strings.Split(doc.Content, "\n")
}

func (s *scenario) seal(name, plex string) error {
	p, ok := s.rv.records[plex]
	if !ok {
		return fmt.Errorf("no record named %q", plex)
	}
	b, err := sealRecord(p.bytes)
	if err != nil {
		return err
	}
	s.named(name, b)
	return nil
}

// chunkFanout builds a chunk node of n links to the same child, each range
// as long as the child's data (the child must be a Blob).
func (s *scenario) chunkFanout(name, child string, n int) error {
	c, ok := s.rv.records[child]
	if !ok {
		return fmt.Errorf("no record named %q", child)
	}
	size := blobDataLength(c.bytes)
	if size <= 0 {
		return fmt.Errorf("record %q is not a Blob with data", child)
	}
	var lines [][]byte
	for i := range n {
		lines = append(lines, fmt.Appendf(nil, "Chunk+Link: %d..%d %s", i*size, (i+1)*size, c.hashText()))
	}
	lines = append(lines, []byte("Kind: chunks"))
	s.named(name, plexRecord(lines, nil))
	return nil
}

// blobDataLength reads the data length of a Blob the steps built, or -1.
func blobDataLength(b []byte) int {
	_, rest, ok := bytes.Cut(b, []byte("\nData-Length: "))
	if !ok {
		return -1
	}
	digits, _, _ := bytes.Cut(rest, []byte{'\n'})
	n, err := strconv.Atoi(string(digits))
	if err != nil {
		return -1
	}
	return n
}

// directoryFanout builds a directory with n File+Link entries named
// prefix0000, prefix0001, ... (four digits keep byte order and number order
// the same) to one target, plus any further fields of a docstring.
func (s *scenario) directoryFanout(name string, n int, prefix, target string, doc *godog.DocString) error {
	t, ok := s.rv.records[target]
	if !ok {
		return fmt.Errorf("no record named %q", target)
	}
	var lines [][]byte
	for i := range n {
		lines = append(lines, fmt.Appendf(nil, "File+Link: %s%04d %s", prefix, i, t.hashText()))
	}
	lines = append(lines, []byte("Kind: directory"))
	if doc != nil {
		for _, l := range docLines(doc) {
			b, err := s.rv.build(l)
			if err != nil {
				return err
			}
			lines = append(lines, b)
		}
	}
	sortLines(lines)
	s.named(name, plexRecord(lines, nil))
	return nil
}

// directoryChain builds the directory name whose single child "d" has a
// single child "d", and so on, n links deep: the records name-n (an empty
// directory, the deepest) up to name-1, then name itself.
func (s *scenario) directoryChain(name string, n int) error {
	below := ""
	for i := n; i >= 0; i-- {
		lines := [][]byte{[]byte("Kind: directory")}
		if below != "" {
			lines = append([][]byte{fmt.Appendf(nil, "Child+Link: d %s", s.rv.records[below].hashText())}, lines...)
		}
		rec := name
		if i > 0 {
			rec = fmt.Sprintf("%s-%d", name, i)
		}
		s.named(rec, plexRecord(lines, nil))
		below = rec
	}
	return nil
}

// sortLines sorts field lines by name bytes, keeping the order of equal
// names (insertion sort: stable and short).
func sortLines(lines [][]byte) {
	name := func(l []byte) []byte { n, _, _ := bytes.Cut(l, []byte(": ")); return n }
	for i := 1; i < len(lines); i++ {
		for j := i; j > 0 && bytes.Compare(name(lines[j-1]), name(lines[j])) > 0; j-- {
			lines[j-1], lines[j] = lines[j], lines[j-1]
		}
	}
}

// fieldLineIs checks the test's own input: the first field line of the
// Plex under test (excluding LF) is n bytes. It guards boundary scenarios
// against miscounting.
func (s *scenario) fieldLineIs(n int) error {
	lines := bytes.Split(s.input, []byte{'\n'})
	if len(lines) < 2 {
		return fmt.Errorf("the input has no field line")
	}
	if got := len(lines[1]); got != n {
		return fmt.Errorf("the field line %q is %d bytes, not %d", steps.Truncate(string(lines[1]), 60), got, n)
	}
	return nil
}

// inputIs checks the size of the test's own input.
func (s *scenario) inputIs(n int) error {
	if len(s.input) != n {
		return fmt.Errorf("the record is %d bytes, not %d", len(s.input), n)
	}
	return nil
}

func (s *scenario) stream(names []string) error {
	var b []byte
	for _, n := range names {
		r, ok := s.rv.records[n]
		if !ok {
			return fmt.Errorf("no record named %q", n)
		}
		b = append(b, r.bytes...)
	}
	s.input = b
	return nil
}

// conventionStream is the stream of a convention operation: the root first,
// then every other named record in the order built, except those left out.
func (s *scenario) conventionStream(root string) ([]byte, error) {
	r, ok := s.rv.records[root]
	if !ok {
		return nil, fmt.Errorf("no record named %q", root)
	}
	b := bytes.Clone(r.bytes)
	for _, n := range s.order {
		if n != root && !s.omitted[n] {
			b = append(b, s.rv.records[n].bytes...)
		}
	}
	return b, nil
}

// Constructor specifications.

func (s *scenario) specData(text string) error {
	if s.spec == nil {
		return fmt.Errorf("no constructor specification")
	}
	b, err := s.rv.build(text)
	if err != nil {
		return err
	}
	v := base64.StdEncoding.EncodeToString(b)
	s.spec.Data = &v
	return nil
}

func (s *scenario) specFields(t *godog.Table) error {
	rows, err := s.table(t, "name", "value")
	if err != nil {
		return err
	}
	for _, r := range rows {
		for _, c := range r {
			// lace.construct takes JSON strings, which cannot carry bytes
			// that are not UTF-8: json.Marshal would write U+FFFD instead.
			if !utf8.ValidString(c) {
				return fmt.Errorf("field text %q is not UTF-8: the lace.construct input (JSON) cannot carry it", c)
			}
		}
		s.spec.Fields = append(s.spec.Fields, [2]string{r[0], r[1]})
	}
	return nil
}

func (s *scenario) specBytes(set func(*string), h string) error {
	if s.spec == nil {
		return fmt.Errorf("no constructor specification")
	}
	c, err := hex.DecodeString(h)
	if err != nil {
		return err
	}
	v := base64.StdEncoding.EncodeToString(bytes.Repeat(c, 32))
	set(&v)
	return nil
}

// table reads a table with the given header into rows of built cell texts.
// A cell may be written in double quotes, so that leading and trailing
// spaces survive; the text notation applies inside.
func (s *scenario) table(t *godog.Table, header ...string) ([][]string, error) {
	if t == nil || len(t.Rows) == 0 {
		return nil, fmt.Errorf("the table has no header row")
	}
	cols := map[string]int{}
	for i, c := range t.Rows[0].Cells {
		cols[c.Value] = i
	}
	idx := make([]int, len(header))
	for i, h := range header {
		j, ok := cols[h]
		if !ok {
			return nil, fmt.Errorf("the table has no column %q", h)
		}
		idx[i] = j
	}
	var rows [][]string
	for _, r := range t.Rows[1:] {
		row := make([]string, len(header))
		for i, j := range idx {
			v := r.Cells[j].Value
			if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
				v = v[1 : len(v)-1]
			}
			b, err := s.rv.build(v)
			if err != nil {
				return nil, err
			}
			row[i] = string(b)
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// Questions.

// call sends op, keeping the constructed record of lace.construct.
func (s *scenario) call(op string, args any, input []byte) error {
	return s.w.Call(op, args, input)
}

func (s *scenario) construct() error {
	if s.spec == nil {
		return fmt.Errorf("no constructor specification")
	}
	in, err := json.Marshal(s.spec)
	if err != nil {
		return err
	}
	if err := s.call(lacespec.OpConstruct, nil, in); err != nil {
		return err
	}
	if s.w.Response().Outcome == testee.Accepted {
		var res struct {
			Record string `json:"record"`
		}
		if err := s.w.Result(&res); err != nil {
			return err
		}
		b, err := base64.StdEncoding.DecodeString(res.Record)
		if err != nil {
			return fmt.Errorf("constructed record is not base64: %v", err)
		}
		s.constructed = b
	}
	return nil
}

var boundPattern = regexp.MustCompile(`^(max_depth|max_expansion|max_bytes) (\d+)$`)

// convention sends lace.chunks or lace.directory over the convention stream
// of root. with holds arguments: `mark checking "none"` and bounds such as
// `max_depth 2`, joined with " and ".
func (s *scenario) convention(op, root, with string) error {
	in, err := s.conventionStream(root)
	if err != nil {
		return err
	}
	args := map[string]any{}
	if with != "" {
		for _, part := range strings.Split(with, " and ") {
			if m := boundPattern.FindStringSubmatch(part); m != nil {
				n, _ := strconv.ParseInt(m[2], 10, 64)
				args[m[1]] = n
				continue
			}
			if v, ok := strings.CutPrefix(part, "mark checking "); ok {
				args["mark"] = strings.Trim(v, `"`)
				continue
			}
			return fmt.Errorf("unknown argument %q (bounds: max_depth N, max_expansion N, max_bytes N; mark checking \"M\")", part)
		}
	}
	return s.call(op, args, in)
}

// Results.

// resultKey decodes the accepted result and returns its field key. A field
// the protocol requires is an error when absent; an optional one skips the
// step (the implementation does not report it).
func (s *scenario) resultKey(key string, optional bool) (json.RawMessage, error) {
	var res map[string]json.RawMessage
	if err := s.w.Result(&res); err != nil {
		return nil, err
	}
	v, ok := res[key]
	switch {
	case ok:
		return v, nil
	case optional:
		return nil, fmt.Errorf("%w: the implementation does not report the optional result field %q", godog.ErrSkip, key)
	}
	return nil, fmt.Errorf("the result has no %q: %s", key, s.w.Describe())
}

func (s *scenario) optional(key string) (json.RawMessage, error) { return s.resultKey(key, true) }
func (s *scenario) required(key string) (json.RawMessage, error) { return s.resultKey(key, false) }

func (s *scenario) resultField(key, want string) error {
	raw, err := s.required(key)
	if err != nil {
		return err
	}
	var got string
	if err := json.Unmarshal(raw, &got); err != nil || got != want {
		return fmt.Errorf("%s is %s, want %q (%s)", key, raw, want, s.w.Describe())
	}
	return nil
}

// resultText compares an optional text field with built text.
func (s *scenario) resultText(key, text string) error {
	want, err := s.rv.build(text)
	if err != nil {
		return err
	}
	raw, err := s.optional(key)
	if err != nil {
		return err
	}
	var got string
	if err := json.Unmarshal(raw, &got); err != nil || got != string(want) {
		return fmt.Errorf("%s is %s, want %q", key, raw, want)
	}
	return nil
}

func (s *scenario) resultNumber(key string, want int) error {
	raw, err := s.optional(key)
	if err != nil {
		return err
	}
	var got int
	if err := json.Unmarshal(raw, &got); err != nil || got != want {
		return fmt.Errorf("%s is %s, want %d", key, raw, want)
	}
	return nil
}

func (s *scenario) acceptedAs(form, hash string) error {
	if err := s.resultField("form", form); err != nil {
		return err
	}
	if hash == "" {
		return nil
	}
	want, err := s.rv.build(hash)
	if err != nil {
		return err
	}
	return s.resultField("hash", string(want))
}

// glyphHash is the hash text the first line of a record states.
func (s *scenario) glyphHash(b []byte) string {
	line, _, _ := bytes.Cut(b, []byte{'\n'})
	h, _ := strings.CutPrefix(string(line), glyphPrefix)
	return h
}

// markStatus checks what the implementation says of a Seal's Mark. Under
// mark checking "none" an implementation must never claim "verified"; one
// that reports no status claims nothing.
func (s *scenario) markStatus(want string) error {
	var res map[string]json.RawMessage
	if err := s.w.Result(&res); err != nil {
		return err
	}
	raw, ok := res["mark_status"]
	if !ok {
		if want == "verified" {
			return fmt.Errorf("%w: the implementation does not report mark_status", godog.ErrSkip)
		}
		return nil
	}
	var got string
	if err := json.Unmarshal(raw, &got); err != nil || got != want {
		return fmt.Errorf("mark_status is %s, want %q", raw, want)
	}
	return nil
}

func (s *scenario) fieldsAre(t *godog.Table) error {
	want, err := s.table(t, "name", "value")
	if err != nil {
		return err
	}
	raw, err := s.optional("fields")
	if err != nil {
		return err
	}
	var got [][]string
	if err := json.Unmarshal(raw, &got); err != nil {
		return fmt.Errorf("fields: %v", err)
	}
	return compareRows("fields", got, want)
}

func compareRows(what string, got, want [][]string) error {
	if len(got) == len(want) {
		same := true
		for i := range got {
			if strings.Join(got[i], "\x00") != strings.Join(want[i], "\x00") {
				same = false
			}
		}
		if same {
			return nil
		}
	}
	return fmt.Errorf("%s are\n%s\nwant\n%s", what, rowsText(got), rowsText(want))
}

func rowsText(rows [][]string) string {
	var b strings.Builder
	for _, r := range rows {
		for i, c := range r {
			if i > 0 {
				b.WriteString(" | ")
			}
			b.WriteString(strconv.Quote(c))
		}
		b.WriteByte('\n')
	}
	if len(rows) == 0 {
		b.WriteString("(none)\n")
	}
	return b.String()
}

type linkResult struct {
	Name   string `json:"name"`
	Data   string `json:"data"`
	Target string `json:"target"`
	Value  string `json:"value"`
	Rule   string `json:"rule"`
}

func (s *scenario) linksAre(t *godog.Table) error {
	var want [][]string
	if t != nil {
		var err error
		if want, err = s.table(t, "name", "link data", "target"); err != nil {
			return err
		}
	}
	links, err := s.linkList("links")
	if err != nil {
		return err
	}
	got := make([][]string, len(links))
	for i, l := range links {
		got[i] = []string{l.Name, l.Data, l.Target}
	}
	return compareRows("record links", got, want)
}

// malformedLink checks that a record-link field is reported as no link, and
// (where the run checks rules) with the rule its value breaks. The expected
// rule is recorded for the traceability test like a rejection's.
func (s *scenario) malformedLink(field, id string) error {
	if !s.w.RuleID(id) {
		return fmt.Errorf("%q is not a rule ID", id)
	}
	line, err := s.rv.build(field)
	if err != nil {
		return err
	}
	name, value, _ := strings.Cut(string(line), ": ")
	bad, err := s.linkList("malformed_links")
	if err != nil {
		return err
	}
	links, err := s.linkList("links")
	if err != nil {
		return err
	}
	for _, l := range links {
		if l.Name == name && l.Data+" "+l.Target == value {
			return fmt.Errorf("%q is reported as a record link (data %q, target %q)", line, l.Data, l.Target)
		}
	}
	for _, b := range bad {
		if b.Name == name && b.Value == value {
			if !s.w.RuleReported(id, b.Rule) {
				return fmt.Errorf("%q is malformed by rule %q, want %s", line, b.Rule, id)
			}
			return nil
		}
	}
	return fmt.Errorf("%q is not among the malformed record links %+v", line, bad)
}

// linkList reads the optional links or malformed_links of a lace.record result.
func (s *scenario) linkList(key string) ([]linkResult, error) {
	raw, err := s.optional(key)
	if err != nil {
		return nil, err
	}
	var ls []linkResult
	if err := json.Unmarshal(raw, &ls); err != nil {
		return nil, fmt.Errorf("%s: %v", key, err)
	}
	return ls, nil
}

func (s *scenario) hashesAre(names []string) error {
	want := []string{}
	for _, n := range names {
		r, ok := s.rv.records[n]
		if !ok {
			return fmt.Errorf("no record named %q", n)
		}
		want = append(want, r.hashText())
	}
	raw, err := s.required("hashes")
	if err != nil {
		return err
	}
	var got []string
	if err := json.Unmarshal(raw, &got); err != nil {
		return fmt.Errorf("hashes: %v", err)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") || len(got) != len(want) {
		return fmt.Errorf("the stream's hashes are %q, want %q", got, want)
	}
	return nil
}

func (s *scenario) constructedIs(doc *godog.DocString) error {
	want, err := s.rv.build(doc.Content)
	if err != nil {
		return err
	}
	return s.constructedBytes(want)
}

func (s *scenario) constructedIsNamed(name string) error {
	r, ok := s.rv.records[name]
	if !ok {
		return fmt.Errorf("no record named %q", name)
	}
	return s.constructedBytes(r.bytes)
}

// constructedBytes compares the constructed record with want, and its
// reported hash with the hash want's glyph line states.
func (s *scenario) constructedBytes(want []byte) error {
	if err := s.w.Accepted(); err != nil {
		return err
	}
	if !bytes.Equal(s.constructed, want) {
		return fmt.Errorf("the constructed record is\n%q\nwant\n%q", s.constructed, want)
	}
	return s.resultField("hash", s.glyphHash(want))
}

func (s *scenario) constructs(form, hash string) error {
	if err := s.w.Accepted(); err != nil {
		return err
	}
	if got := s.glyphHash(s.constructed); !strings.HasPrefix(got, strings.ToUpper(form[:1])+".") {
		return fmt.Errorf("the constructed record's glyph states %q, not a %s", got, form)
	}
	if hash == "" {
		return s.resultField("hash", s.glyphHash(s.constructed))
	}
	want, err := s.rv.build(hash)
	if err != nil {
		return err
	}
	if err := s.resultField("hash", string(want)); err != nil {
		return err
	}
	if got := s.glyphHash(s.constructed); got != string(want) {
		return fmt.Errorf("the constructed record's glyph line states %q, want %q", got, want)
	}
	return nil
}

func (s *scenario) fileIs(text string) error {
	want, err := s.rv.build(text)
	if err != nil {
		return err
	}
	var res struct {
		Length *uint64 `json:"length"`
		BLAKE3 string  `json:"blake3"`
	}
	if err := s.w.Result(&res); err != nil {
		return err
	}
	sum := blake3.Sum256(want)
	if res.Length == nil || *res.Length != uint64(len(want)) || res.BLAKE3 != hex.EncodeToString(sum[:]) {
		return fmt.Errorf("the assembled file is %s, want %d bytes with BLAKE3 %x (%q)",
			s.w.Response().Result, len(want), sum, steps.Truncate(string(want), 80))
	}
	return nil
}

type dirEntry struct {
	Path   string `json:"path"`
	Target string `json:"target"`
	Kind   string `json:"kind"`
}

func (s *scenario) entries() ([]dirEntry, error) {
	raw, err := s.required("entries")
	if err != nil {
		return nil, err
	}
	var es []dirEntry
	if err := json.Unmarshal(raw, &es); err != nil {
		return nil, fmt.Errorf("entries: %v", err)
	}
	return es, nil
}

// listingIs compares the listing with a table of path and target (and kind,
// "file" or "dir", when the table has that column and the implementation
// reports it).
func (s *scenario) listingIs(t *godog.Table) error {
	var want [][]string
	withKind := false
	if t != nil {
		for _, c := range t.Rows[0].Cells {
			withKind = withKind || c.Value == "kind"
		}
		cols := []string{"path", "target"}
		if withKind {
			cols = append(cols, "kind")
		}
		var err error
		if want, err = s.table(t, cols...); err != nil {
			return err
		}
	}
	es, err := s.entries()
	if err != nil {
		return err
	}
	got := make([][]string, len(es))
	for i, e := range es {
		got[i] = []string{e.Path, e.Target}
		if withKind {
			if e.Kind == "" {
				return fmt.Errorf("%w: the implementation does not report entry kinds", godog.ErrSkip)
			}
			got[i] = append(got[i], e.Kind)
		}
	}
	return compareRows("listing entries", got, want)
}

func (s *scenario) listingCount(n int) error {
	es, err := s.entries()
	if err != nil {
		return err
	}
	if len(es) != n {
		return fmt.Errorf("the listing has %d entries, want %d", len(es), n)
	}
	return nil
}
