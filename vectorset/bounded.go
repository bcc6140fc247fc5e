package vectorset

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/google/go-cmp/cmp"

	"github.com/threespec/conformance/internal/jsonscan"
)

// Judging is bounded by the answer's size (issue 30, item 1): a testee's
// result is read once, in place, in the shape of the vector's expected
// result (decodeGuided), and only what the expected result names is
// decoded; whatever else the answer holds (a list's extra elements, a
// structure where a string is expected) is decoded only within a fixed
// budget and otherwise passed over and counted. A difference is shown as
// go-cmp's field-by-field diff when both sides are small (within the
// budget below, where cmp's cost is a few milliseconds); otherwise it is
// summarised: the sizes and the first difference, by its path, with the
// two values there (and their own diff when they are small). Every reason
// is clipped to MaxReason bytes.

// MaxReason is the most bytes a Verdict's Reason holds; a longer one is
// clipped at a line break and says how much was left out.
const MaxReason = 4 << 10

// maxDiff is the longest go-cmp diff a reason shows; a longer one (a list
// padded with a thousand extra elements, say) is summarised instead.
const maxDiff = MaxReason - 100

// The judging budget: the most values (judgeNodes) and bytes of strings,
// numbers and member names (judgeBytes) that the two trees go-cmp compares
// may hold together, and that decodeGuided decodes where the vector
// expects nothing of that shape.
const (
	judgeNodes = 512
	judgeBytes = 16 << 10
)

// The summary shows go-cmp's diff of the two values at the first
// difference when they hold at most subNodes values and subBytes bytes
// (and the expected one is no matcher, which the summary's line says in
// full).
const (
	subNodes = 256
	subBytes = 2 << 10
)

// notAString is an object of the testee's where the vector expects a
// string through a matcher (DigestKey, HexDigestKey, AnyStringKey): it is
// shown as it is and is never equal to the matcher, also when the testee
// copied the matcher from the public index (issue 30, item 10).
type notAString map[string]any

// elided stands for a value of the testee's that was passed over, not
// decoded, because the budget was spent: a list, an object, a string or a
// number (kind: its first byte), with its count of elements or members
// and its length in bytes. It is never equal to anything.
type elided struct {
	kind  byte
	count int
	bytes int
}

// elidedRest ends a list whose remaining count elements were passed over.
type elidedRest struct{ count int }

// decoder reads a testee's result in place (b is one valid JSON value at
// the index given).
type decoder struct {
	b      []byte
	nodes  int  // values free may still decode
	bytes  int  // bytes of strings, numbers and names free may still copy
	elided bool // something was passed over
	// scanned counts the bytes passed over (skip, skipRest): at most the
	// answer's length, each byte once (TestJudgeScansOnce).
	scanned int
}

func newDecoder(b []byte) *decoder {
	return &decoder{b: b, nodes: judgeNodes, bytes: judgeBytes}
}

type matcherKind int

const (
	notMatcher matcherKind = iota
	base64Matcher
	hexMatcher
	anyStringMatcher
)

// kindOf tells which matcher an expected object is (the first of the
// three keys it holds), or notMatcher.
func kindOf(w map[string]any) matcherKind {
	switch {
	case w[DigestKey] != nil:
		return base64Matcher
	case w[HexDigestKey] != nil:
		return hexMatcher
	case w[AnyStringKey] != nil:
		return anyStringMatcher
	}
	return notMatcher
}

// object decodes the object at b[i] in the shape of w: only the members
// w names, each in the shape of w's; the last of repeated names wins.
func (d *decoder) object(w map[string]any, i int) (map[string]any, int) {
	b := d.b
	out := make(map[string]any, min(len(w), 64))
	i = jsonscan.SkipSpace(b, i+1)
	if b[i] == '}' {
		return out, i + 1
	}
	for {
		end := jsonscan.StringClose(b, i) + 1
		name, wv, ok := lookup(w, b[i:end])
		i = jsonscan.SkipSpace(b, jsonscan.SkipSpace(b, end)+1) // past ':'
		if ok {
			var v any
			v, i = d.guided(wv, i)
			out[name] = v
		} else {
			i = d.skip(i)
		}
		i = jsonscan.SkipSpace(b, i)
		if b[i] == '}' {
			return out, i + 1
		}
		i = jsonscan.SkipSpace(b, i+1) // past ','
	}
}

// lookup finds the member of w that the name literal lit names.
func lookup(w map[string]any, lit []byte) (string, any, bool) {
	c := lit[1 : len(lit)-1]
	if bytes.IndexByte(c, '\\') < 0 && utf8.Valid(c) {
		v, ok := w[string(c)] // no copy for the lookup
		if !ok {
			return "", nil, false
		}
		return string(c), v, true
	}
	name := unquote(lit)
	v, ok := w[name]
	return name, v, ok
}

// guided decodes the value at b[i] in the shape of the expected value w,
// as the tests' oracle matched(w, v) (tree_test.go) reduces encoding/json's
// whole tree v of it: members w does not list are dropped; a value a
// matcher stands for becomes what the matcher compares equal to; lists
// keep their length, their elements past w's decoded freely (within the
// budget).
func (d *decoder) guided(w any, i int) (any, int) {
	b := d.b
	switch w := w.(type) {
	case map[string]any:
		if k := kindOf(w); k != notMatcher {
			return d.matcher(k, w, i)
		}
		if b[i] != '{' {
			return d.free(i)
		}
		return d.object(w, i)
	case []any:
		if b[i] != '[' {
			return d.free(i)
		}
		return d.list(i, min(len(w), 1024), func(k, i int) (any, int) {
			if k < len(w) {
				return d.guided(w[k], i)
			}
			return d.free(i)
		}, len(w))
	}
	switch b[i] {
	case '{', '[':
		return d.free(i)
	}
	return scalar(b, i)
}

// list decodes the list at b[i], its k-th element by elem (reserving room
// for size); once the budget is spent, the elements from the kept-th on
// are passed over and counted, in an elidedRest that ends the list.
func (d *decoder) list(i, size int, elem func(k, i int) (any, int), kept int) ([]any, int) {
	b := d.b
	out := make([]any, 0, size)
	i = jsonscan.SkipSpace(b, i+1)
	if b[i] == ']' {
		return out, i + 1
	}
	for {
		if len(out) >= kept && d.nodes <= 0 {
			end, n := d.skipRest(i, ']')
			d.elided = true
			return append(out, elidedRest{n}), end
		}
		var v any
		v, i = elem(len(out), i)
		out = append(out, v)
		i = jsonscan.SkipSpace(b, i)
		if b[i] == ']' {
			return out, i + 1
		}
		i = jsonscan.SkipSpace(b, i+1)
	}
}

// matcher decodes the value at b[i] where the expected matcher w stands:
// a string becomes what w compares equal to when it matches (w itself, or
// the digest form of the bytes it encodes), or stays as it is; anything
// else stays as it is, an object as a notAString.
func (d *decoder) matcher(k matcherKind, w map[string]any, i int) (any, int) {
	b := d.b
	if b[i] == '"' {
		end := jsonscan.StringClose(b, i) + 1
		switch k {
		case anyStringMatcher:
			return w, end
		case base64Matcher:
			return digestOf(stringAt(b[i:end])), end
		default:
			return hexDigestOf(stringAt(b[i:end])), end
		}
	}
	v, end := d.free(i)
	if m, ok := v.(map[string]any); ok {
		return notAString(m), end
	}
	return v, end
}

// stringAt is the string literal lit as treeValue decodes it: a long one
// stays in place.
func stringAt(lit []byte) any {
	if len(lit) > longStringBytes {
		return longString(lit[:len(lit):len(lit)])
	}
	return unquote(lit)
}

// scalar decodes the string, number, true, false or null at b[i].
func scalar(b []byte, i int) (any, int) {
	switch b[i] {
	case '"':
		end := jsonscan.StringClose(b, i) + 1
		return stringAt(b[i:end]), end
	case 't':
		return true, i + len("true")
	case 'f':
		return false, i + len("false")
	case 'n':
		return nil, i + len("null")
	}
	j := i
	for j < len(b) && !isDelim(b[j]) {
		j++
	}
	return json.Number(b[i:j]), j
}

// free decodes the value at b[i], where the vector expects nothing of its
// shape (it differs whatever it holds), as treeValue does while the budget
// lasts; past it, a value is passed over and counted (elided). No byte is
// passed over twice: a container is not measured before it is decoded,
// and one the budget ends in is passed over from where it ended.
func (d *decoder) free(i int) (any, int) {
	b := d.b
	if c := b[i]; c != '{' && c != '[' {
		end := d.skip(i) // a scalar: its own bytes
		if d.nodes <= 0 || d.bytes < end-i {
			d.elided = true
			return elided{kind: c, count: 1, bytes: end - i}, end
		}
		d.nodes--
		d.bytes -= end - i
		return scalar(b, i)
	}
	if d.nodes <= 0 {
		end, n := d.skipRest(jsonscan.SkipSpace(b, i+1), b[i]+2) // '{'+2 is '}', '['+2 is ']'
		d.elided = true
		return elided{kind: b[i], count: n, bytes: end - i}, end
	}
	d.nodes--
	if b[i] == '[' {
		return d.list(i, 0, func(_, i int) (any, int) { return d.free(i) }, 0)
	}
	start := i
	m := map[string]any{}
	i = jsonscan.SkipSpace(b, i+1)
	if b[i] == '}' {
		return m, i + 1
	}
	for members := 0; ; members++ {
		nameEnd := jsonscan.StringClose(b, i) + 1
		if d.nodes <= 0 || d.bytes < nameEnd-i {
			end, n := d.skipRest(i, '}')
			d.elided = true
			return elided{kind: '{', count: members + n, bytes: end - start}, end
		}
		d.bytes -= nameEnd - i
		name := unquote(b[i:nameEnd])
		i = jsonscan.SkipSpace(b, jsonscan.SkipSpace(b, nameEnd)+1)
		var v any
		v, i = d.free(i)
		m[name] = v
		i = jsonscan.SkipSpace(b, i)
		if b[i] == '}' {
			return m, i + 1
		}
		i = jsonscan.SkipSpace(b, i+1)
	}
}

// skip passes over the value at b[i] (skipValue), counting the bytes.
func (d *decoder) skip(i int) int {
	end := skipValue(d.b, i)
	d.scanned += end - i
	return end
}

// skipRest passes over the rest of a list or object from b[i]
// (skipElements), counting the bytes.
func (d *decoder) skipRest(i int, closing byte) (end, n int) {
	end, n = skipElements(d.b, i, closing)
	d.scanned += end - i
	return end, n
}

// skipValue returns the index just past the value at b[i] of valid JSON b.
func skipValue(b []byte, i int) int {
	switch b[i] {
	case '"':
		return jsonscan.StringClose(b, i) + 1
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				j = jsonscan.StringClose(b, j)
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return len(b)
	}
	j := i
	for j < len(b) && !isDelim(b[j]) {
		j++
	}
	return j
}

// skipElements passes over the elements (or members) of a list (or
// object) from b[i], the first byte of one of them or of its closing
// byte, to just past the closing byte; it returns that index and how many
// it passed.
func skipElements(b []byte, i int, closing byte) (int, int) {
	n := 0
	for {
		i = jsonscan.SkipSpace(b, i)
		if b[i] == closing {
			return i + 1, n
		}
		if b[i] == ',' {
			i++
			continue
		}
		if closing == '}' {
			i = jsonscan.SkipSpace(b, jsonscan.StringClose(b, i)+1) + 1 // the name and ':'
			i = jsonscan.SkipSpace(b, i)
		}
		i = skipValue(b, i)
		n++
	}
}

// treeSize counts the values of a decoded tree (and the lines of its
// strings, each a value to go-cmp) and the bytes of its strings, numbers
// and member names; over is set when it holds a value that was passed
// over.
type treeSize struct {
	nodes, bytes int
	over         bool
}

func (s *treeSize) add(v any) {
	s.nodes++
	switch v := v.(type) {
	case string:
		s.bytes += len(v)
		s.nodes += strings.Count(v, "\n") // go-cmp diffs a text line by line
	case longString:
		s.bytes += len(v)
	case json.Number:
		s.bytes += len(v)
	case map[string]any:
		for k, x := range v {
			s.bytes += len(k)
			s.add(x)
		}
	case notAString:
		s.add(map[string]any(v))
	case []any:
		for _, x := range v {
			s.add(x)
		}
	case elided, elidedRest:
		s.over = true
	}
}

func (s treeSize) small() bool { return !s.over && s.nodes <= judgeNodes && s.bytes <= judgeBytes }

func sizeOf(vs ...any) treeSize {
	var s treeSize
	for _, v := range vs {
		s.add(v)
	}
	return s
}

// diffText is go-cmp's difference of two small trees.
func diffText(want, got any) string {
	return cmp.Diff(want, got, cmp.Comparer(numbersEqual))
}

// summary describes how want and sub (the testee's result as guided
// decoded it) differ when they are too large to show in full: their
// sizes, then the first difference (members in name order, elements in
// order), with go-cmp's diff of the two values there when they are small.
func summary(want, sub map[string]any, answer int) string {
	var path, notes []string
	w, h, missing, found := firstDiff(want, sub, true, &path, &notes)
	var b strings.Builder
	fmt.Fprintf(&b, "too large to show in full (the expected result holds %s, the testee's result is %d bytes); the first difference:\n",
		plural(sizeOf(want).nodes-1, "%d value", "s"), answer)
	for _, note := range notes {
		fmt.Fprintf(&b, "  %s\n", note)
	}
	if !found {
		b.WriteString("  (none found: the trees differ in a way the summary does not show)\n")
		return b.String()
	}
	at := pathText(path)
	switch {
	case missing:
		fmt.Fprintf(&b, "  at %s: expected %s, got nothing (the member is missing)\n", at, describe(w))
	default:
		fmt.Fprintf(&b, "  at %s: expected %s, got %s\n", at, describe(w), describe(h))
		if s := stringDifference(w, h); s != "" {
			fmt.Fprintf(&b, "  %s\n", s)
		}
		if sz := sizeOf(w, h); isContainer(w) && isContainer(h) && !sz.over && sz.nodes <= subNodes && sz.bytes <= subBytes {
			for _, line := range strings.Split(strings.TrimRight(diffText(w, materialize(h)), "\n"), "\n") {
				b.WriteString("  " + line + "\n")
			}
		}
	}
	return b.String()
}

// isContainer reports whether v is a list or an object (a matcher is
// not: it stands for a string).
func isContainer(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		return kindOf(v) == notMatcher
	case []any, notAString:
		return true
	}
	return false
}

// firstDiff finds the first place where the testee's value h differs from
// the expected w, walking both in step (members in name order, elements
// in order; a matcher is one value), and returns the two values there;
// path gets the steps to it. missing: h lacks a member w has. At the top
// (top), w is the result object itself, never a matcher.
//
// notes gets a line for each list on the way whose length differs (the
// first difference may be found inside it, before its end).
func firstDiff(w, h any, top bool, path, notes *[]string) (wv, hv any, missing, found bool) {
	switch w := w.(type) {
	case map[string]any:
		hm, ok := h.(map[string]any)
		if !ok || !top && kindOf(w) != notMatcher {
			break
		}
		keys := make([]string, 0, len(w))
		for k := range w {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			*path = append(*path, memberStep(k))
			x, ok := hm[k]
			if !ok {
				return w[k], nil, true, true
			}
			if wv, hv, missing, found := firstDiff(w[k], x, false, path, notes); found {
				return wv, hv, missing, true
			}
			*path = (*path)[:len(*path)-1]
		}
		if len(hm) != len(w) {
			return w, h, false, true // not reached: sub holds w's members only
		}
		return nil, nil, false, false
	case []any:
		hl, ok := h.([]any)
		if !ok {
			break
		}
		if n := listLen(hl); n != len(w) {
			*notes = append(*notes, fmt.Sprintf("at %s: expected %s, got %s", pathText(*path), describe(w), describe(h)))
		}
		for i := 0; i < len(w) && i < len(hl); i++ {
			if _, rest := hl[i].(elidedRest); rest {
				break
			}
			*path = append(*path, "["+strconv.Itoa(i)+"]")
			if wv, hv, missing, found := firstDiff(w[i], hl[i], false, path, notes); found {
				return wv, hv, missing, true
			}
			*path = (*path)[:len(*path)-1]
		}
		if len(w) != listLen(hl) {
			*notes = (*notes)[:len(*notes)-1] // said at the difference itself
			return w, h, false, true
		}
		return nil, nil, false, false
	}
	if equalTree(w, h) {
		return nil, nil, false, false
	}
	return w, h, false, true
}

func memberStep(k string) string {
	ident := k != ""
	for i, c := range k {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
			ident = false
			break
		}
	}
	if ident {
		return "." + k
	}
	return "[" + quoteClip(k, 64) + "]"
}

func pathText(path []string) string {
	if len(path) == 0 {
		return "the result"
	}
	return strings.Join(path, "")
}

// listLen is the length of a decoded list, elements passed over included.
func listLen(l []any) int {
	if n := len(l); n > 0 {
		if r, ok := l[n-1].(elidedRest); ok {
			return n - 1 + r.count
		}
	}
	return len(l)
}

// describe says what a value is, in a few words and at most a short
// excerpt of it (quoted, control characters escaped).
func describe(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(v)
	case json.Number:
		if len(v) > 40 {
			return fmt.Sprintf("the number %s... (%d characters)", v[:40], len(v))
		}
		return "the number " + string(v)
	case string:
		return describeString(v)
	case longString:
		return describeString(v.text())
	case notAString:
		return plural(len(v), "an object of %d member", "s") + " where a string is expected"
	case map[string]any:
		return describeObject(v)
	case []any:
		return plural(listLen(v), "a list of %d value", "s")
	case elided:
		var what string
		switch v.kind {
		case '{':
			what = plural(v.count, "an object of %d member", "s")
		case '[':
			what = plural(v.count, "a list of %d value", "s")
		case '"':
			what = "a string"
		default:
			what = "a value"
		}
		return fmt.Sprintf("%s (%d bytes, not read: over the judging budget)", what, v.bytes)
	}
	return fmt.Sprintf("%T", v)
}

func plural(n int, format, suffix string) string {
	s := fmt.Sprintf(format, n)
	if n != 1 {
		s += suffix
	}
	return s
}

func describeString(s string) string {
	if len(s) > 64 {
		return fmt.Sprintf("the string %s... (%d bytes)", quoteClip(s, 64), len(s))
	}
	return "the string " + strconv.Quote(s)
}

// describeObject names a matcher (the vector's) or a digest form (what the
// testee's string was reduced to) by what it stands for.
func describeObject(m map[string]any) string {
	for _, f := range []struct{ digest, length, what string }{{DigestKey, DigestLengthKey, "base64"}, {HexDigestKey, HexLengthKey, "lower-case hex"}} {
		if d, ok := m[f.digest].(string); ok {
			return fmt.Sprintf("%s of %v bytes with BLAKE2b-256 %s", f.what, m[f.length], quoteClip(d, 64))
		}
	}
	if m[AnyStringKey] != nil {
		return "any string"
	}
	return plural(len(m), "an object of %d member", "s")
}

// stringDifference says from which byte two strings differ, with an
// excerpt of each from there; "" unless w and h are both strings.
func stringDifference(w, h any) string {
	a, ok1 := textOf(w)
	b, ok2 := textOf(h)
	if !ok1 || !ok2 {
		return ""
	}
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(i-16, 0)
	for from > 0 && !utf8.RuneStart(a[from]) {
		from--
	}
	dots := ""
	if from > 0 {
		dots = "..."
	}
	return fmt.Sprintf("the strings differ from byte %d: expected %s%s, got %s%s", i, dots, quoteClip(a[from:], 48), dots, quoteClip(b[from:], 48))
}

func textOf(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case longString:
		return v.text(), true
	}
	return "", false
}

// text is the string's text: its bytes where they stand when it has no
// escape and is valid UTF-8 (no copy of a 100 MiB string to describe it;
// the answer's bytes do not change while it is judged), else unquoted.
func (l longString) text() string {
	if c, ok := l.content(); ok {
		return unsafe.String(unsafe.SliceData(c), len(c))
	}
	return l.String()
}

// quoteClip quotes at most n bytes of s (cut at a character boundary),
// with every control character escaped.
func quoteClip(s string, n int) string {
	return strconv.Quote(clipText(s, n))
}

// clipText returns at most n bytes of s, cut at a character boundary.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// clipReason bounds a reason to MaxReason bytes, cut after a whole line
// where there is one, saying how much was left out.
func clipReason(s string) string {
	if len(s) <= MaxReason {
		return s
	}
	cut := clipText(s, MaxReason-100)
	if i := strings.LastIndexByte(cut, '\n'); i > 0 {
		cut = cut[:i+1]
	} else {
		cut += "\n"
	}
	rest := s[len(cut):]
	return cut + fmt.Sprintf("... (%d more lines, %d more bytes, not shown)", strings.Count(rest, "\n")+1, len(rest))
}
