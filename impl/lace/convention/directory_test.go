package convention

import (
	"strings"
	"testing"

	"github.com/zeebo/blake3"

	"github.com/threespec/conformance/impl/b64a"
	"github.com/threespec/conformance/impl/lace"
	"github.com/threespec/conformance/impl/nfc17"
	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/internal/fault"
)

// Lace-010, "Directory links name files, children and continuation pages".

func TestDirectoryAccepted(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	idx, logo, css := w.blob("<html>"), w.blob("png"), w.blob("body{}")
	assets := w.dir("File+Link: logo.png " + logo)
	page := w.dir("File+Link: style.css " + css)
	chunked := w.chunks("0..3 "+logo, "3..9 "+css)
	sameBytes := w.dir("File+Link: index.html "+idx, "File+Link: logo.png "+logo, "File+Link: style.css "+css)
	pagedBytes := w.dir("File+Link: index.html "+idx, "Page+Link: 0 "+w.dir("File+Link: logo.png "+logo, "Page+Link: 0 "+w.dir("File+Link: style.css "+css)))
	f := func(path, target string) Entry { return Entry{Path: path, Target: target} }
	d := func(path, target string) Entry { return Entry{Path: path, Target: target, Dir: true} }
	long := strings.Repeat("n", 68)

	cases := []struct {
		name string
		root string
		want []Entry
	}{
		{"empty directory (" + string(lace.RuleDirEmpty) + ")", w.dir(), nil},
		{"the spec's example", w.dir("Child+Link: assets "+assets, "File+Link: index.html "+idx, "Page+Link: 0 "+page),
			[]Entry{d("assets", assets), f("assets/logo.png", logo), f("index.html", idx), f("style.css", css)}},
		{"names keep leading and trailing spaces (" + string(lace.RuleDirNameExact) + ")", w.dir("File+Link:  a "+idx, "File+Link: a  "+logo),
			[]Entry{f(" a", idx), f("a ", logo)}},
		{"parsed names order, not values (" + string(lace.RuleDirParsedNames) + ")", w.dir("File+Link: a "+idx, "File+Link: a B "+logo),
			[]Entry{f("a", idx), f("a B", logo)}},
		{"no order between pages (" + string(lace.RuleDirPagesUnordered) + ")", w.dir("File+Link: z "+idx, "Page+Link: 0 "+w.dir("File+Link: a "+logo)),
			[]Entry{f("a", logo), f("z", idx)}},
		{"pages of pages (" + string(lace.RuleDirFanout) + ")", pagedBytes,
			[]Entry{f("index.html", idx), f("logo.png", logo), f("style.css", css)}},
		{"a child reused under two names (" + string(lace.RuleDirReuse) + ")", w.dir("Child+Link: a "+assets, "Child+Link: b "+assets),
			[]Entry{d("a", assets), f("a/logo.png", logo), d("b", assets), f("b/logo.png", logo)}},
		{"one file under two names", w.dir("File+Link: a "+idx, "File+Link: b "+idx), []Entry{f("a", idx), f("b", idx)}},
		{"a chunked file", w.dir("File+Link: big " + chunked), []Entry{f("big", chunked)}},
		{"non-ASCII NFC names", w.dir("File+Link: café " + idx), []Entry{f("café", idx)}},
		{"68-byte filename (" + string(lace.RuleDirNameBudget) + ")", w.dir("File+Link: " + long + " " + idx), []Entry{f(long, idx)}},
		{"67-byte directory name", w.dir("Child+Link: " + long[:67] + " " + w.dir()), []Entry{d(long[:67], w.dir())}},
		{"same files, one record", sameBytes, []Entry{f("index.html", idx), f("logo.png", logo), f("style.css", css)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, err := Directory(w.store, w.rec(c.root), Bounds{})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(c.want) {
				t.Fatalf("entries %+v, want %+v", got, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Fatalf("entry %d = %+v, want %+v", i, got[i], c.want[i])
				}
			}
			if s, err := StreamDirectory(w.stream(c.root), lace.Options{}, Bounds{}); err != nil || len(s) != len(got) {
				t.Fatalf("StreamDirectory: %v, %d entries", err, len(s))
			}
		})
	}
	// LACE-DIR-28: page layout is hash-significant.
	if sameBytes == pagedBytes {
		t.Fatal("two page layouts have the same hash")
	}
	// LACE-DIR-15: 69 filename bytes or 68 directory-name bytes exceed the
	// 128-byte line, so no valid record carries them.
	for _, l := range []string{"File+Link: " + long + "n " + idx, "Child+Link: " + long + " " + assets} {
		if _, _, err := lace.Construct(lace.Spec{Fields: fields(t, "Kind: directory", l)}); rules.RuleOf(err) != lace.RuleFieldLineLength {
			t.Errorf("%d-byte line: %v, want %s", len(l), err, lace.RuleFieldLineLength)
		}
	}
}

func directoryCases(t testing.TB) []convCase {
	w := newWorld(t)
	file := w.blob("x")
	sub := w.dir("File+Link: a " + file)
	sealed := w.add(lace.Spec{Fields: fields(t, "Kind: directory"), Secret: &[32]byte{31: 9}}).Hash.String()
	withData := w.add(lace.Spec{Data: []byte("x"), Fields: fields(t, "Kind: directory")}).Hash.String()
	chunkNode := w.chunks("0..1 " + file)
	h4 := strings.TrimSuffix(file, "H3") + "H4"
	deep := w.dir("Child+Link: a " + w.dir("Child+Link: b "+w.dir("Child+Link: c "+w.dir())))
	// Pages that lead back to themselves through a resolver.
	loopTarget := absent('P')
	loop := newWorld(t)
	node := loop.plexRecord("Kind: directory", "Page+Link: 0 "+loopTarget)
	loop.store[loopTarget] = node

	return withStore(w.store, []convCase{
		{"root is a Blob", file, nil, Bounds{}, lace.RuleDirPlex},
		{"root is a Seal", sealed, nil, Bounds{}, lace.RuleDirPlex},
		{"directory with data", withData, nil, Bounds{}, lace.RuleDirEmptyData},
		{"no Kind", w.plex("File+Link: a " + file), nil, Bounds{}, lace.RuleDirKind},
		{"Kind twice", w.dir("Kind: directory"), nil, Bounds{}, lace.RuleDirKind},
		{"Kind: chunks", w.plex("Kind: chunks"), nil, Bounds{}, lace.RuleDirKind},
		{"another field", w.dir("Name: x"), nil, Bounds{}, lace.RuleDirOnlyFields},
		{"a +Link field", w.dir("+Link: a " + file), nil, Bounds{}, lace.RuleDirOnlyFields},
		{"non-canonical File target", w.dir("File+Link: a B.abc.H3"), nil, Bounds{}, lace.RuleDirFileTarget},
		{"non-canonical Child target", w.dir("Child+Link: a P.abc.H3"), nil, Bounds{}, lace.RuleDirChildTarget},
		{"non-canonical Page target", w.dir("Page+Link: 0 P.abc.H3"), nil, Bounds{}, lace.RuleDirPageTarget},
		{"empty name", w.dir("File+Link:  " + file), nil, Bounds{}, lace.RuleDirNameEmpty},
		{"name .", w.dir("File+Link: . " + file), nil, Bounds{}, lace.RuleDirNameDots},
		{"name ..", w.dir("Child+Link: .. " + sub), nil, Bounds{}, lace.RuleDirNameDots},
		{"name with /", w.dir("File+Link: a/b " + file), nil, Bounds{}, lace.RuleDirNameSlash},
		{"File+Link names decrease", w.dir("File+Link: b "+file, "File+Link: a "+file), nil, Bounds{}, lace.RuleDirFileOrder},
		{"parsed names decrease though values increase", w.dir("File+Link: a B "+file, "File+Link: a "+file), nil, Bounds{}, lace.RuleDirFileOrder},
		{"Child+Link names decrease", w.dir("Child+Link: b "+sub, "Child+Link: a "+sub), nil, Bounds{}, lace.RuleDirChildOrder},
		{"first page ordinal 1", w.dir("Page+Link: 1 " + sub), nil, Bounds{}, lace.RuleDirPageOrdinal},
		{"page ordinal 00", w.dir("Page+Link: 00 " + sub), nil, Bounds{}, lace.RuleDirPageOrdinal},
		{"page ordinals 0, 2", w.dir("Page+Link: 0 "+w.dir(), "Page+Link: 2 "+w.dir("File+Link: b "+file)), nil, Bounds{}, lace.RuleDirPageOrdinal},
		{"file and child with one name", w.dir("Child+Link: a "+sub, "File+Link: a "+file), nil, Bounds{}, lace.RuleDirUnique},
		{"same name and target twice", w.dir("File+Link: a "+file, "File+Link: a "+file), nil, Bounds{}, lace.RuleDirUnique},
		{"a name repeated on a page", w.dir("File+Link: a "+file, "Page+Link: 0 "+sub), nil, Bounds{}, lace.RuleDirUnique},
		{"missing file", w.dir("File+Link: a " + absent('B')), nil, Bounds{}, lace.RuleDirExists},
		{"missing child", w.dir("Child+Link: a " + absent('P')), nil, Bounds{}, lace.RuleDirExists},
		{"missing page", w.dir("Page+Link: 0 " + absent('P')), nil, Bounds{}, lace.RuleDirExists},
		{"missing file deep in a child", w.dir("Child+Link: c " + w.dir("File+Link: a "+absent('B'))), nil, Bounds{}, lace.RuleDirExists},
		{"H4 file target", w.dir("File+Link: a " + h4), nil, Bounds{}, lace.RuleDirFormat},
		{"H4 page target", w.dir("Page+Link: 0 P.x.H4"), nil, Bounds{}, lace.RuleDirFormat},
		{"File+Link to a Seal", w.dir("File+Link: a " + sealed), nil, Bounds{}, lace.RuleDirFamily},
		{"Child+Link to a Blob", w.dir("Child+Link: a " + file), nil, Bounds{}, lace.RuleDirFamily},
		{"Page+Link to a Blob", w.dir("Page+Link: 0 " + file), nil, Bounds{}, lace.RuleDirFamily},
		{"Child+Link to a chunk node", w.dir("Child+Link: a " + chunkNode), nil, Bounds{}, lace.RuleDirKind},
		{"File+Link to a directory", w.dir("File+Link: a " + sub), nil, Bounds{}, lace.RuleChunkKind},
		{"File+Link to a bad chunk tree", w.dir("File+Link: a " + w.chunks("0..2 "+file)), nil, Bounds{}, lace.RuleChunkChildLength},
		{"malformed File+Link", w.dir("File+Link: nospace"), nil, Bounds{}, lace.RuleConvRawFields},
		{"malformed Page+Link", w.dir("Page+Link: 0"), nil, Bounds{}, lace.RuleConvRawFields},
		{"too deep", deep, nil, Bounds{MaxDepth: 2}, lace.RuleDirDepth},
		{"too many uses", w.dir("Child+Link: a "+sub, "Child+Link: b "+sub), nil, Bounds{MaxExpansion: 3}, lace.RuleDirExpansion},
		{"page cycle", node.Hash.String(), loop.store, Bounds{}, lace.RuleDirCycle},
	})
}

func TestDirectoryRejections(t *testing.T) {
	t.Parallel()
	for _, c := range directoryCases(t) {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, err := Directory(c.res, rootOf(t, c), c.b)
			if rules.RuleOf(err) != c.rule || got != nil {
				t.Fatalf("got %v (%d entries), want %s and no entries", err, len(got), c.rule)
			}
		})
	}
}

func TestDirectoryRejectionsUnderFault(t *testing.T) {
	t.Parallel()
	for _, c := range directoryCases(t) {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			off := rules.Checks{Faults: fault.Of(string(c.rule))}
			if _, err := DirectoryWith(off, c.res, rootOf(t, c), c.b); rules.RuleOf(err) == c.rule {
				t.Fatalf("rule %s switched off but still reported: %v", c.rule, err)
			}
		})
	}
}

// TestCheckName covers the name rules no valid record can break: a field
// value is already UTF-8 NFC without control bytes (LACE-DIR-10, -13).
func TestCheckName(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]rules.ID{
		"ok": "", " a ": "", "e\u0301": lace.RuleDirNameNFC, "\xff": lace.RuleDirNameNFC,
		"a\x01": lace.RuleDirNameControl, "a\x7f": lace.RuleDirNameControl, "a\tb": lace.RuleDirNameControl,
		".": lace.RuleDirNameDots, "..": lace.RuleDirNameDots, "...": "", ".a": "", "a/": lace.RuleDirNameSlash,
	} {
		if got := rules.RuleOf(checkName(rules.Checks{}, "test", name)); got != want {
			t.Errorf("checkName(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestStreamDirectoryEmpty(t *testing.T) {
	t.Parallel()
	if _, err := StreamDirectory(nil, lace.Options{}, Bounds{}); rules.RuleOf(err) != lace.RuleDirExists {
		t.Fatalf("empty stream: %v", err)
	}
}

// TestNameRulesSubsumed shows why LACE-DIR-10 and LACE-DIR-13 are marked
// untestable: a directory name is the part of a field value before its last
// space, so a name that is not UTF-8 NFC, or holds a control byte, lies in a
// value the field-line rules reject first. A stream holding such a
// directory is rejected by the same rule with the two name checks switched
// off; and names that field values allow are NFC and control-free, even
// where a combining mark or a jamo follows the separator space.
func TestNameRulesSubsumed(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	file := w.blob("x")
	for _, c := range []struct {
		name string
		want rules.ID
	}{
		{"e\u0301", lace.RuleFieldNFC},
		{"\u212b", lace.RuleFieldNFC},
		{"\u1100\u1161", lace.RuleFieldNFC},
		{"\xff", lace.RuleFieldUTF8},
		{"a\xc0\xaf", lace.RuleFieldUTF8},
		{"a\xed\xa0\x80", lace.RuleFieldUTF8},
		{"\x00", lace.RuleFieldControl},
		{"a\x01", lace.RuleFieldControl},
		{"a\tb", lace.RuleFieldControl},
		{"a\x7f", lace.RuleFieldControl},
		{"a\rb", lace.RuleFieldLF},
		{"a\x1f", lace.RuleFieldControl},
	} {
		stream := append(rawDirectory("File+Link: "+c.name+" "+file), lace.Encode(w.rec(file))...)
		for _, off := range [][]string{nil, {string(lace.RuleDirNameNFC), string(lace.RuleDirNameControl)}} {
			_, err := StreamDirectoryWith(rules.Checks{Faults: fault.Of(off...)}, stream, lace.Options{}, Bounds{})
			if got := rules.RuleOf(err); got != c.want {
				t.Errorf("name %q, switched off %v: %v, want %s", c.name, off, err, c.want)
			}
		}
	}
	for _, name := range []string{"e", "e \u0301", "\u1100 \u1161", " a ", "caf\u00e9", "\u00e9 \u0301x"} {
		value := name + " " + file
		if !nfc17.IsNFCString(value) {
			t.Fatalf("test value %q is not NFC", value)
		}
		got, _, err := lace.ParseLink(value)
		if err != nil || got != name {
			t.Fatalf("ParseLink(%q) = %q, %v", value, got, err)
		}
		if err := checkName(rules.Checks{}, "test", got); err != nil {
			t.Errorf("name %q of the NFC value %q: %v", got, value, err)
		}
	}
}

// rawDirectory is a directory Plex over the empty Blob with the given field
// line before its Kind, written byte for byte (the constructor would refuse
// the lines these tests need).
func rawDirectory(line string) []byte {
	glyph := func(form string, payload []byte) []byte {
		d := blake3.Sum256(payload)
		return append([]byte(lace.Glyph+": "+form+"."+b64a.Encode(d[:])+".H3\n"), payload...)
	}
	blob := glyph("B", []byte("Data-Length: 0\n\n"))
	return glyph("P", append([]byte(line+"\nKind: directory\n"), blob...))
}

// TestCheckRecord: a record alone, judged by the convention its Kind names,
// without the records it links to (missing targets are no violation).
func TestCheckRecord(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	abc := absent('B')
	for _, tt := range []struct {
		name  string
		lines []string
		want  rules.ID
	}{
		{"no convention", []string{"App: chat"}, ""},
		{"chunk node, children absent", []string{"Chunk+Link: 0..3 " + abc, "Chunk+Link: 3..5 " + absent('P'), "Kind: chunks"}, ""},
		{"chunk range from 1", []string{"Chunk+Link: 1..3 " + abc, "Kind: chunks"}, lace.RuleChunkStartZero},
		{"chunk range gap", []string{"Chunk+Link: 0..3 " + abc, "Chunk+Link: 4..5 " + abc, "Kind: chunks"}, lace.RuleChunkContiguous},
		{"chunk target a Seal", []string{"Chunk+Link: 0..3 " + absent('S'), "Kind: chunks"}, lace.RuleChunkNoSeal},
		{"directory, entries absent", []string{"Child+Link: c " + absent('P'), "File+Link: a " + abc, "Kind: directory", "Page+Link: 0 " + absent('P')}, ""},
		{"directory files out of order", []string{"File+Link: b " + abc, "File+Link: a " + abc, "Kind: directory"}, lace.RuleDirFileOrder},
		{"directory name ..", []string{"File+Link: .. " + abc, "Kind: directory"}, lace.RuleDirNameDots},
		{"directory ordinal 1", []string{"Kind: directory", "Page+Link: 1 " + absent('P')}, lace.RuleDirPageOrdinal},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := w.plexRecord(tt.lines...)
			if got := rules.RuleOf(CheckRecord(r)); got != tt.want {
				t.Fatalf("CheckRecord: %v, want %q", CheckRecord(r), tt.want)
			}
		})
	}
}
