package manifest

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/threespec/conformance/impl/cenc"
	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/internal/fault"
	"github.com/threespec/conformance/internal/reading"
)

// BLAKE2b-256 of the empty string and of "abc" (RFC 7693 test vectors for
// BLAKE2b-512 are for the 64-byte digest; these 32-byte digests are the
// published BLAKE2b-256 known answers).
const (
	blake2b256Empty = "0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8"
	blake2b256ABC   = "bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319"
)

// faults returns the Checks that switch off rule id, or switch on mutant id.
func faults(id rules.ID) rules.Checks { return rules.Checks{Faults: fault.Of(string(id))} }

func TestHashKnownAnswers(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"": blake2b256Empty, "abc": blake2b256ABC} {
		h := Hash([]byte(in))
		if got := hex.EncodeToString(h[:]); got != want {
			t.Errorf("Hash(%q) = %s, want %s", in, got, want)
		}
		// HR-MAN-13 is a construction rule: its fault gives another digest.
		if f := hash(faults(RuleVectorHash), []byte(in)); f == h {
			t.Errorf("Hash(%q) under the HR-MAN-13 fault is still BLAKE2b-256", in)
		}
	}
}

// rawRow writes one row by hand, independently of Encode.
func rawRow(path string, length uint64, hash []byte) []byte {
	b := binary.BigEndian.AppendUint16(nil, uint16(len(path)))
	b = append(b, path...)
	b = binary.BigEndian.AppendUint64(b, length)
	return append(b, hash...)
}

func rawManifest(count uint32, rows ...[]byte) []byte {
	b := binary.BigEndian.AppendUint32(nil, count)
	for _, r := range rows {
		b = append(b, r...)
	}
	return b
}

func row(path string) []byte {
	h := Hash([]byte(path))
	return rawRow(path, uint64(len(path)), h[:])
}

func TestKnownManifest(t *testing.T) {
	t.Parallel()
	// One row: path "a", the empty vector.
	want, _ := hex.DecodeString("00000001" + "0001" + "61" + "0000000000000000" + blake2b256Empty)
	got, err := Build(map[string][]byte{"a": {}})
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("Build = %x, %v\nwant %x", got, err, want)
	}
	entries, err := Parse(want)
	if err != nil || len(entries) != 1 || entries[0].Path != "a" || entries[0].Length != 0 || hex.EncodeToString(entries[0].Hash[:]) != blake2b256Empty {
		t.Fatalf("Parse = %+v, %v", entries, err)
	}
	// The empty manifest: count 0, no rows.
	if got, err := Build(nil); err != nil || !bytes.Equal(got, []byte{0, 0, 0, 0}) {
		t.Fatalf("Build(nil) = %x, %v", got, err)
	}
}

func TestBuildSortsByRawBytes(t *testing.T) {
	t.Parallel()
	files := map[string][]byte{
		"positive/b.bin": []byte("b"),
		"negative/z.bin": []byte("z"),
		"positive/B.bin": []byte("B"), // 'B' (0x42) sorts before 'b' (0x62)
		"positive/é.bin": []byte("e"), // 0xc3 sorts after every ASCII byte
		"registry/x":     nil,
	}
	m, err := Build(files)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := Parse(m)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, e := range entries {
		paths = append(paths, e.Path)
	}
	want := "negative/z.bin positive/B.bin positive/b.bin positive/é.bin registry/x"
	if got := strings.Join(paths, " "); got != want {
		t.Fatalf("order %q, want %q", got, want)
	}
	if d := Diff(entries, files); len(d) != 0 {
		t.Fatalf("Diff = %v", d)
	}
}

type rejectCase struct {
	name string
	in   []byte
	rule rules.ID
	off  int64
	alt  map[string]string // the readings' alternatives the case takes (nil: every default)
}

func parseRejectCases() []rejectCase {
	h := Hash(nil)
	okRow := row("a/b")
	return []rejectCase{
		{"empty input", nil, RuleTruncated, 0, nil},
		{"short count", []byte{0, 0, 1}, RuleTruncated, 0, nil},
		{"count larger than the rows present", rawManifest(2, okRow), RuleTruncated, 4, nil},
		{"huge count", rawManifest(0xffffffff, okRow), RuleTruncated, 4, nil},
		{"row cut in its hash", rawManifest(1, okRow[:len(okRow)-1]), RuleTruncated, int64(4 + len(okRow) - 32), nil},
		{"path length beyond input", rawManifest(1, []byte{0xff, 0xff, 'a'}), RuleTruncated, 4, nil},
		{"trailing byte", append(rawManifest(1, okRow), 0), RuleTrailing, int64(4 + len(okRow)), nil},
		{"trailing row", rawManifest(1, okRow, row("c")), RuleTrailing, int64(4 + len(okRow)), nil},
		{"unsorted", rawManifest(2, row("b"), row("a")), RuleUnsorted, int64(4 + len(row("b")) + 2), nil},
		{"unsorted by raw bytes, not case", rawManifest(2, row("b"), row("B")), RuleUnsorted, int64(4 + len(row("b")) + 2), nil},
		{"prefix sorts first", rawManifest(2, row("ab"), row("a")), RuleUnsorted, int64(4 + len(row("ab")) + 2), nil},
		{"duplicate", rawManifest(2, row("a"), row("a")), RuleDuplicate, int64(4 + len(row("a")) + 2), nil},
		{"absolute", rawManifest(1, row("/a")), RuleAbsolute, 6, nil},
		{"root only", rawManifest(1, row("/")), RuleAbsolute, 6, nil},
		{"dot component", rawManifest(1, row("a/./b")), RuleDotSegment, 8, nil},
		{"dot-dot component", rawManifest(1, row("../a")), RuleDotSegment, 6, nil},
		{"dot alone", rawManifest(1, row(".")), RuleDotSegment, 6, nil},
		{"trailing dot-dot", rawManifest(1, row("a/..")), RuleDotSegment, 8, nil},
		{"backslash", rawManifest(1, row(`a\b`)), RuleBackslash, 7, nil},
		{"empty path", rawManifest(1, rawRow("", 0, h[:])), RuleEmptySegment, 6, nil},
		{"doubled slash", rawManifest(1, row("a//b")), RuleEmptySegment, 8, nil},
		{"trailing slash", rawManifest(1, row("a/")), RuleEmptySegment, 8, nil},
		{"NUL, controls-rejected", rawManifest(1, row("a\x00b")), RuleControl, 7, ctl},
		{"newline, controls-rejected", rawManifest(1, row("a\nb")), RuleControl, 7, ctl},
		{"DEL, controls-rejected", rawManifest(1, row("a\x7f")), RuleControl, 7, ctl},
		{"leading dot, leading-dot-components", rawManifest(1, row("a/.b")), RuleDotSegment, 8, map[string]string{ReadDotComponents: AltLeadingDot}},
		{"overlong UTF-8", rawManifest(1, row("a\xc0\xaf")), RuleUTF8, 7, nil},
		{"surrogate", rawManifest(1, row("\xed\xa0\x80")), RuleUTF8, 6, nil},
		{"above U+10FFFF", rawManifest(1, row("\xf4\x90\x80\x80")), RuleUTF8, 6, nil},
		{"stray continuation", rawManifest(1, row("a\x80")), RuleUTF8, 7, nil},
		{"truncated sequence", rawManifest(1, row("a\xc3")), RuleUTF8, 7, nil},
		{"not NFC (decomposed é), nfc-required", rawManifest(1, row("e\u0301.bin")), RuleNFC, 6, map[string]string{ReadPathNFC: AltNFCRequired}},
	}
}

// ctl takes reading HR-READ-09's alternative controls-rejected.
var ctl = map[string]string{ReadPathControls: AltControlsRejected}

// The manifests the readings' alternatives reject are accepted under their
// defaults, and a path the empty-components default rejects is accepted
// under empty-components-allowed.
func TestReadingsDefaultsAccept(t *testing.T) {
	t.Parallel()
	h := Hash(nil)
	for name, tc := range map[string]struct {
		in  []byte
		alt map[string]string
	}{
		"NUL":                           {rawManifest(1, row("a\x00b")), nil},
		"tab":                           {rawManifest(1, row("a\tb")), nil},
		"DEL":                           {rawManifest(1, row("a\x7f")), nil},
		"not NFC":                       {rawManifest(1, row("e\u0301.bin")), nil},
		"leading dot":                   {rawManifest(1, row("a/.b")), nil},
		"doubled slash, empty allowed":  {rawManifest(1, row("a//b")), map[string]string{ReadPathEmpty: AltEmptyAllowed}},
		"trailing slash, empty allowed": {rawManifest(1, row("a/")), map[string]string{ReadPathEmpty: AltEmptyAllowed}},
		"empty path, empty allowed":     {rawManifest(1, rawRow("", 0, h[:])), map[string]string{ReadPathEmpty: AltEmptyAllowed}},
	} {
		if _, err := ParseWith(rules.Checks{Readings: reading.Of(tc.alt)}, tc.in); err != nil {
			t.Errorf("%s: Parse = %v, want acceptance", name, err)
		}
	}
}

func TestParseRejects(t *testing.T) {
	t.Parallel()
	for _, tc := range parseRejectCases() {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseWith(rules.Checks{Readings: reading.Of(tc.alt)}, tc.in)
			var v *rules.Violation
			if !errors.As(err, &v) || v.Rule != tc.rule || v.Code != cenc.Code || v.Offset != tc.off {
				t.Fatalf("Parse = %v, want %s [BAD_ENCODING] at byte %d", err, tc.rule, tc.off)
			}
			if !strings.Contains(v.Detail, "rows[") && !strings.HasPrefix(v.Detail, "count") && !strings.HasPrefix(v.Detail, "end") {
				t.Fatalf("detail %q names no field", v.Detail)
			}
			off := faults(tc.rule)
			off.Readings = reading.Of(tc.alt)
			if _, err := ParseWith(off, tc.in); rules.RuleOf(err) == tc.rule {
				t.Fatalf("still %s with the rule switched off: %v", tc.rule, err)
			}
		})
	}
}

func TestParseAcceptsOrdinaryNames(t *testing.T) {
	t.Parallel()
	for _, p := range []string{"a", ".hidden", "a..b", "...", "a/.b/c..", "é/ü.bin", "x y", "positive/read-cell-cap-v1.bin"} {
		if err := CheckPath(p); err != nil {
			t.Errorf("CheckPath(%q) = %v", p, err)
		}
		if _, err := Parse(rawManifest(1, row(p))); err != nil {
			t.Errorf("Parse(%q) = %v", p, err)
		}
	}
}

func TestEncodeRefusesInvalidEntries(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		entries []Entry
		rule    rules.ID
	}{
		{[]Entry{{Path: "b"}, {Path: "a"}}, RuleUnsorted},
		{[]Entry{{Path: "a"}, {Path: "a"}}, RuleDuplicate},
		{[]Entry{{Path: "../x"}}, RuleDotSegment},
		{[]Entry{{Path: strings.Repeat("a", MaxPathLength+1)}}, RuleFraming},
	} {
		if _, err := Encode(tc.entries); rules.RuleOf(err) != tc.rule {
			t.Errorf("Encode(%.20v) = %v, want %s", tc.entries, err, tc.rule)
		}
		if _, err := encode(faults(tc.rule), tc.entries); rules.RuleOf(err) == tc.rule {
			t.Errorf("Encode(%.20v) with %s switched off = %v", tc.entries, tc.rule, err)
		}
	}
	if _, err := Build(map[string][]byte{"/abs": nil}); rules.RuleOf(err) != RuleAbsolute {
		t.Errorf("Build with an absolute path = %v", err)
	}
}

func TestMaxPathLength(t *testing.T) {
	t.Parallel()
	p := strings.Repeat("a", MaxPathLength)
	m, err := Build(map[string][]byte{p: []byte("x")})
	if err != nil {
		t.Fatal(err)
	}
	if e, err := Parse(m); err != nil || e[0].Path != p {
		t.Fatal(err)
	}
}

func TestDiff(t *testing.T) {
	t.Parallel()
	entries := []Entry{EntryFor("a", []byte("1")), EntryFor("b", []byte("2")), EntryFor("c", []byte("3"))}
	files := map[string][]byte{
		"a": []byte("1"),
		"b": []byte("X"), // same length, other bytes
		"d": []byte("4"),
		"0": nil,
	}
	got := Diff(entries, files)
	want := []Mismatch{{"b", Substituted, 1}, {"c", Missing, 2}, {"0", Extra, -1}, {"d", Extra, -1}}
	if len(got) != len(want) {
		t.Fatalf("Diff = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("Diff = %v, want %v", got, want)
		}
	}
	files["b"] = []byte("22") // other length
	if d := Diff(entries[1:2], files); len(d) != 4 || d[0].Kind != Substituted || d[1].Path != "0" || d[2].Path != "a" {
		t.Fatalf("length change: %v", d)
	}
	if Missing.String() != "missing" || MismatchKind(9).String() != "MismatchKind(9)" {
		t.Fatal("MismatchKind.String")
	}
	m, _ := Encode(entries)
	for i := range entries {
		off := RowOffset(entries, i)
		if p := string(m[off+2 : off+3]); p != entries[i].Path {
			t.Fatalf("RowOffset(%d) = %d points at %q", i, off, p)
		}
	}
}

// Under fault injection the parser carries on without panicking.
func TestFaultsCarryOn(t *testing.T) {
	t.Parallel()
	in := rawManifest(3, row("/b"), row("a\\..//"), row("a"))
	for _, r := range Rules() {
		c := faults(r.ID)
		ParseWith(c, in)
		ParseWith(c, in[:len(in)-5])
		ParseWith(c, rawManifest(0xffffffff))
	}
	if e, err := ParseWith(faults(RuleTruncated), rawManifest(0xffffffff, row("a"))); err != nil || len(e) != 1 {
		t.Fatalf("tolerated truncation: %v %v", e, err)
	}
}

// Every rejecting rule of the framing has a case; HR-MAN-01 (framing) and
// HR-MAN-13 (row hash) are construction rules, checked by the known answers.
func TestEveryRejectingRuleIsTested(t *testing.T) {
	t.Parallel()
	tested := map[rules.ID]bool{}
	for _, c := range parseRejectCases() {
		tested[c.rule] = true
	}
	for _, r := range Rules() {
		if r.ID != RuleFraming && r.ID != RuleVectorHash && !tested[r.ID] {
			t.Errorf("%s has no rejection case", r.ID)
		}
	}
}
