package lace

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// The canonical vector of Lace-010 ("A canonical vector covers all three
// record forms"), written with placeholders: the builder must reproduce the
// spec's hashes byte for byte.
const vectorPlexText = `🖧: P.<digest>.H3
App: chat
App: archive
Group: room7
Name: note
TAI: tomorrow
🖧: B.<digest>.H3
Data-Length: 5

hello`

func TestBuildCanonicalVector(t *testing.T) {
	rv := resolver{records: map[string]*builtRecord{}}
	b, err := rv.build(vectorPlexText)
	if err != nil {
		t.Fatal(err)
	}
	const plexHash = "P.roNBC0l3CG4ezmPY5F3H_pLBDBecaAYZRbOJ1aT7pqK.H3"
	const blobHash = "B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3"
	want := strings.NewReplacer("P.<digest>.H3", plexHash, "B.<digest>.H3", blobHash).Replace(vectorPlexText)
	if string(b) != want {
		t.Fatalf("built\n%s\nwant\n%s", b, want)
	}
	if r := newBuiltRecord("p", b); r.hashText() != plexHash {
		t.Fatalf("record hash %s", r.hashText())
	}
	// The parts builder writes the same bytes.
	lines := [][]byte{[]byte("App: chat"), []byte("App: archive"), []byte("Group: room7"), []byte("Name: note"), []byte("TAI: tomorrow")}
	if p := plexRecord(lines, []byte("hello")); !bytes.Equal(p, b) {
		t.Fatalf("plexRecord\n%s", p)
	}
	if blob := blobRecord([]byte("hello")); newBuiltRecord("b", blob).hashText() != blobHash {
		t.Fatalf("blobRecord\n%s", blob)
	}
}

func TestExpandText(t *testing.T) {
	rv := resolver{records: map[string]*builtRecord{"a": newBuiltRecord("a", blobRecord([]byte("abc")))}}
	for _, c := range []struct{ in, want string }{
		{`a\rb\nc\td\\e\"f\<g\{h`, "a\rb\nc\td\\e\"f<g{h"},
		{`\x00\x7f\xff`, "\x00\x7f\xff"},
		{`e\u{301} \u{1F5A7}`, "e\u0301 🖧"},
		{`X: {3 × ab}c`, "X: abababc"},
		{`X: {2 × \x41}`, "X: AA"},
		{`{x}`, "{x}"},
		{`B.<a>.H3`, newBuiltRecord("a", blobRecord([]byte("abc"))).hashText()},
	} {
		got, err := rv.build(c.in)
		if err != nil || string(got) != c.want {
			t.Errorf("build(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{`\q`, `\x4`, `\u{110000}`, `<nobody>`, `a<b`, `\`} {
		if _, err := rv.build(bad); err == nil {
			t.Errorf("build(%q) succeeded", bad)
		}
	}
}

// A Seal written with placeholders carries a Mark over the digest its
// embedded Plex glyph states, and the Seal's own digest covers that Mark.
func TestBuildSealPlaceholders(t *testing.T) {
	rv := resolver{records: map[string]*builtRecord{}}
	text := "🖧: S.<digest>.H3\nBy: <By>\nMark: <Mark over the Plex>\n" + vectorPlexText
	b, err := rv.build(text)
	if err != nil {
		t.Fatal(err)
	}
	plex, err := rv.build(vectorPlexText)
	if err != nil {
		t.Fatal(err)
	}
	seal, err := sealRecord(plex)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, seal) {
		t.Fatalf("placeholders\n%s\nsealRecord\n%s", b, seal)
	}
}

var bigRepeat = regexp.MustCompile(`\{[0-9]{5,}`)

// FuzzBuildText: the text notation never panics, and text without escapes,
// repeats or placeholders is its own bytes.
func FuzzBuildText(f *testing.F) {
	for _, s := range []string{vectorPlexText, `a\x00{3 × b}<digest>`, `\u{1F5A7}`, `<Mark over the Plex>`, `{0 × }`, `<digest of "x">`} {
		f.Add(s)
	}
	rv := resolver{records: map[string]*builtRecord{"a": newBuiltRecord("a", blobRecord([]byte("abc")))}}
	f.Fuzz(func(t *testing.T, s string) {
		if bigRepeat.MatchString(s) {
			return // keep repeats small
		}
		got, err := rv.build(s)
		if !strings.ContainsAny(s, `\<{`) && (err != nil || string(got) != s) {
			t.Fatalf("build(%q) = %q, %v", s, got, err)
		}
	})
}
