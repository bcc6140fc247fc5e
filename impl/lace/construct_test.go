package lace

import (
	"bytes"
	"strings"
	"testing"

	"github.com/threespec/conformance/impl/mark"
	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/internal/fault"
)

// TestConstructForms walks the constructor's form-selection table
// (LACE-CTOR-01..06).
func TestConstructForms(t *testing.T) {
	t.Parallel()
	secret := testSecret
	cases := []struct {
		rule rules.ID
		spec Spec
		form Form
		want []byte // expected bytes, when independent of the Mark
	}{
		{RuleCtorEmpty, Spec{}, FormBlob, mk(blobT(""))},
		{RuleCtorEmpty, Spec{Data: []byte{}}, FormBlob, mk(blobT(""))},
		{RuleCtorDataOnly, Spec{Data: hello}, FormBlob, mk(blobT("hello"))},
		{RuleCtorFields, Spec{Data: hello, Fields: []Field{{"App", "x"}}}, FormPlex, mk(plexT("hello", "App: x"))},
		{RuleCtorOmittedData, Spec{Fields: []Field{{"App", "x"}}}, FormPlex, mk(plexT("", "App: x"))},
		{RuleCtorSeal, Spec{Fields: []Field{{"App", "x"}}, Secret: &secret, Aux: testAux}, FormSeal, nil},
	}
	for _, c := range cases {
		t.Run(string(c.rule), func(t *testing.T) {
			t.Parallel()
			out, r, err := Construct(c.spec)
			if err != nil {
				t.Fatal(err)
			}
			if r.Form != c.form {
				t.Fatalf("form %s, want %s", r.Form, c.form)
			}
			if c.want != nil && !bytes.Equal(out, c.want) {
				t.Fatalf("bytes\n%q\nwant\n%q", out, c.want)
			}
			p, err := Parse(out, Options{})
			if err != nil {
				t.Fatalf("constructed record does not parse: %v", err)
			}
			if p.Hash != r.Hash || p.Plex != r.Plex || p.Blob != r.Blob || !bytes.Equal(p.Data, r.Data) || p.MarkStatus != r.MarkStatus {
				t.Fatalf("constructed view %+v differs from parsed %+v", r, p)
			}
		})
	}
	t.Run(string(RuleCtorSecretOnly), func(t *testing.T) {
		t.Parallel()
		_, _, err := Construct(Spec{Data: hello, Secret: &secret})
		if ruleOf(err) != RuleCtorSecretOnly {
			t.Fatalf("got %v", err)
		}
	})
}

// TestConstructSeal checks By and the Mark are derived from the By-secret
// under the scheme (LACE-CTOR-10) and that the Mark is over the Plex digest.
func TestConstructSeal(t *testing.T) {
	t.Parallel()
	secret := testSecret
	out, r, err := Construct(Spec{Data: hello, Fields: []Field{{"App", "x"}}, Secret: &secret, Aux: testAux})
	if err != nil {
		t.Fatal(err)
	}
	by, m := standinMark(t, r.Plex.Digest)
	want := mk("@S\nBy: " + by + "\nMark: " + m + "\n" + plexT("hello", "App: x"))
	if !bytes.Equal(out, want) {
		t.Fatalf("Seal\n%s\nwant\n%s", out, want)
	}
	if r.MarkStatus != MarkVerified || mark.FormatMark(r.Mark) != m {
		t.Fatalf("mark %s %s", r.MarkStatus, mark.FormatMark(r.Mark))
	}
	zero := [32]byte{}
	if _, _, err := Construct(Spec{Fields: []Field{{"App", "x"}}, Secret: &zero}); ruleOf(err) != RuleCtorDeriveMark {
		t.Fatalf("zero By-secret: %v, want %s", err, RuleCtorDeriveMark)
	}
}

// TestConstructOrder checks the stable sort by name bytes (LACE-PLEX-05..07, -09).
func TestConstructOrder(t *testing.T) {
	t.Parallel()
	in := []Field{{"b", "1"}, {"A", "2"}, {"b", "0"}, {"A", "1"}, {"#K", "z"}, {"Ab", "0"}, {"é", "1"}, {"z", "9"}}
	_, r, err := Construct(Spec{Fields: in})
	if err != nil {
		t.Fatal(err)
	}
	want := []Field{{"#K", "z"}, {"A", "2"}, {"A", "1"}, {"Ab", "0"}, {"b", "1"}, {"b", "0"}, {"z", "9"}, {"é", "1"}}
	for i := range want {
		if r.Fields[i] != want[i] {
			t.Fatalf("fields %v, want %v", r.Fields, want)
		}
	}
	if in[0] != (Field{"b", "1"}) {
		t.Fatal("Construct sorted the caller's slice")
	}
}

// TestConstructRejects checks the constructor validates like the parser
// (LACE-CTOR-08, -09) and keeps the limits.
func TestConstructRejects(t *testing.T) {
	t.Parallel()
	many := make([]Field, 513)
	for i := range many {
		many[i] = Field{"F", "x"}
	}
	cases := []struct {
		name   string
		fields []Field
		data   []byte
		rule   rules.ID
	}{
		{"empty name", []Field{{"", "x"}}, nil, RuleFieldNameEmpty},
		{"space in name", []Field{{"A b", "x"}}, nil, RuleFieldNameChars},
		{"colon in name", []Field{{"A:", "x"}}, nil, RuleFieldNameChars},
		{"tab in name", []Field{{"A\tb", "x"}}, nil, RuleFieldNameChars},
		{"empty value", []Field{{"A", ""}}, nil, RuleFieldValueEmpty},
		{"LF in value", []Field{{"A", "x\ny"}}, nil, RuleFieldControl},
		{"CR in value", []Field{{"A", "x\r"}}, nil, RuleFieldLF},
		{"NUL in name", []Field{{"A\x00", "x"}}, nil, RuleFieldControl},
		{"invalid UTF-8", []Field{{"A", "\xff"}}, nil, RuleFieldUTF8},
		{"non-NFC", []Field{{"A", "e\u0301"}}, nil, RuleFieldNFC},
		{"129-byte line", []Field{{"X", strings.Repeat("a", 126)}}, nil, RuleFieldLineLength},
		{"reserved Data-Length", []Field{{"Data-Length", "5"}}, nil, RuleCtorReserved},
		{"reserved By", []Field{{"By", "V.x.H3"}}, nil, RuleCtorReserved},
		{"reserved Mark", []Field{{"Mark", "x"}}, nil, RuleCtorReserved},
		{"reserved 🖧", []Field{{"🖧", "x"}}, nil, RuleCtorReserved},
		{"reserved ⋯🖧", []Field{{"⋯🖧", "x"}}, nil, RuleCtorReserved},
		{"513 fields", many, nil, RulePlexMaxFields},
		{"data over 32 MiB", nil, make([]byte, MaxData+1), RuleBlobMaxData},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, _, err := Construct(Spec{Data: c.data, Fields: c.fields})
			if ruleOf(err) != c.rule {
				t.Fatalf("got %v, want %s", err, c.rule)
			}
		})
	}
	// Whitespace is data: leading and trailing spaces are kept (LACE-FIELD-12, -14).
	out, _, err := Construct(Spec{Fields: []Field{{"Name", " x "}}})
	if err != nil || !bytes.Equal(out, mk(plexT("", "Name:  x "))) {
		t.Fatalf("spaces not kept: %v\n%q", err, out)
	}
}

// TestConstructFaults switches off each construction rule: the constructor
// must then give different bytes (or refuse), so the suite can catch it.
func TestConstructFaults(t *testing.T) {
	t.Parallel()
	secret := testSecret
	fields := []Field{{"Label", "second"}, {"Mode", " public"}, {"Label", "first"}, {"App", "x"}}
	cases := []struct {
		rule rules.ID
		spec Spec
	}{
		{RuleCtorEmpty, Spec{}},
		{RuleCtorDataOnly, Spec{Data: hello}},
		{RuleCtorFields, Spec{Fields: fields}},
		{RuleCtorSecretOnly, Spec{Data: hello, Secret: &secret}},
		{RuleCtorSeal, Spec{Fields: fields, Secret: &secret}},
		{RuleCtorNoInvented, Spec{Fields: fields}},
		{RuleCtorValidate, Spec{Fields: []Field{{"A b", "x"}}}},
		{RuleCtorReserved, Spec{Fields: []Field{{"By", "x"}}}},
		{RulePlexSortNames, Spec{Fields: fields}},
		{RulePlexSameName, Spec{Fields: fields}},
		{RulePlexCtorOrder, Spec{Fields: fields}},
		{RulePlexValuesUnsorted, Spec{Fields: fields}},
		{RuleFieldWhitespace, Spec{Fields: fields}},
		{RuleGlyphDigestBytes, Spec{Data: hello}},
		{RuleCtorDeriveMark, Spec{Fields: fields, Secret: &[32]byte{}}}, // a secret the scheme refuses
	}
	for _, c := range cases {
		t.Run(string(c.rule), func(t *testing.T) {
			t.Parallel()
			good, _, goodErr := ConstructWith(rules.Checks{}, c.spec)
			bad, badRec, badErr := ConstructWith(rules.Checks{Faults: fault.Of(string(c.rule))}, c.spec)
			if (goodErr == nil) == (badErr == nil) && bytes.Equal(good, bad) {
				t.Fatalf("switching off %s changed nothing (error %v)", c.rule, goodErr)
			}
			if badErr == nil && (badRec == nil || len(bad) == 0) {
				t.Fatalf("switching off %s gave no error and no record: a fault gives wrong bytes", c.rule)
			}
		})
	}
}

// TestConstructNoInvention checks the constructor adds nothing (LACE-CTOR-07).
func TestConstructNoInvention(t *testing.T) {
	t.Parallel()
	_, r, err := Construct(Spec{Fields: []Field{{"App", "x"}}})
	if err != nil || len(r.Fields) != 1 || r.Fields[0] != (Field{"App", "x"}) {
		t.Fatalf("fields %v, %v", r.Fields, err)
	}
}
