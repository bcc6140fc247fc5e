package convention

import (
	"testing"

	"github.com/threespec/conformance/impl/lace"
	"github.com/threespec/conformance/impl/rules"
)

// The conventions leave the record layer generic (Lace-010, "Plex records
// attach generic fields to a Blob", "Record-link fields carry typed hash
// references", "Directory links name files, children and continuation
// pages"): no application schema (LACE-PLEX-12), no reserved names
// (LACE-LINK-16), no constructor rule changed (LACE-LINK-17), no link
// acquired (LACE-LINK-18), and no record limit changed by a consumer's
// bounds (LACE-DIR-32).
func TestConventionsLeaveRecordsGeneric(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	readme := w.blob("# readme\n")
	absent := "B." + "A" + readme[3:] // a well-formed H3 Blob hash no record has
	for _, tc := range []struct {
		name  string
		rule  rules.ID
		lines []string
		data  string
	}{
		{"Kind twice", lace.RulePlexNoSchema, []string{"Kind: chunks", "Kind: directory"}, ""},
		{"two #-kinds", lace.RulePlexNoSchema, []string{"#Dots: game", "#Dots: match"}, "x"},
		{"no kind field", lace.RulePlexNoSchema, []string{"Name: note"}, "x"},
		{"Kind: chunks with data", lace.RuleConvNoNames, []string{"Kind: chunks"}, "data"},
		{"File+Link in no directory", lace.RuleConvNoNames, []string{"File+Link: a " + readme, "Name: note"}, ""},
		{"Page+Link with a word for an ordinal", lace.RuleConvNoNames, []string{"Page+Link: first " + readme}, ""},
		{"a link to an absent record", lace.RuleLinkNotAcquired, []string{"+Link: evidence " + absent, "Chunk+Link: 0..3 " + absent}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b, _, err := lace.Construct(lace.Spec{Data: []byte(tc.data), Fields: fields(t, tc.lines...)})
			if err != nil {
				t.Fatalf("%s: constructing: %v", tc.rule, err)
			}
			if _, err := lace.Parse(b, lace.Options{}); err != nil {
				t.Errorf("%s: the record is refused: %v", tc.rule, err)
			}
			if _, err := lace.ParseStream(b, lace.Options{}); err != nil {
				t.Errorf("%s: the one-record stream is refused: %v", tc.rule, err)
			}
		})
	}

	// LACE-LINK-17: File+Link and Child+Link occurrences keep caller
	// order in the constructor, though the directory convention sorts them
	// by name (the record is convention-invalid, and valid).
	_, r, err := lace.Construct(lace.Spec{Fields: fields(t, "File+Link: z.txt "+readme, "File+Link: a.txt "+readme, "Kind: directory")})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Fields[0].Value; got != "z.txt "+readme {
		t.Errorf("LACE-LINK-17: the constructor reordered File+Link occurrences: first is %q", got)
	}
	if err := CheckRecord(r); rules.RuleOf(err) != lace.RuleDirFileOrder {
		t.Errorf("the unsorted directory is convention-invalid by LACE-DIR-16, got %v", err)
	}

	// LACE-DIR-32: a chain of children one link deeper than the default
	// depth bound is refused by a directory consumer, and is a valid stream.
	build := func(lines ...string) ([]byte, string) {
		b, r, err := lace.Construct(lace.Spec{Fields: fields(t, lines...)})
		if err != nil {
			t.Fatal(err)
		}
		return b, r.Hash.String()
	}
	stream, h := build("Kind: directory")
	for range DefaultMaxDepth + 1 {
		var b []byte
		b, h = build("Child+Link: d "+h, "Kind: directory")
		stream = append(b, stream...) // the root comes first
	}
	if _, err := StreamDirectory(stream, lace.Options{}, Bounds{}); rules.RuleOf(err) != lace.RuleDirDepth {
		t.Errorf("a chain %d links deep: directory consumer gives %v, want LACE-DIR-29", DefaultMaxDepth+1, err)
	}
	recs, err := lace.ParseStream(stream, lace.Options{})
	if err != nil || len(recs) != DefaultMaxDepth+2 {
		t.Errorf("LACE-DIR-32: the chain's stream gives %d records, %v", len(recs), err)
	}
}
