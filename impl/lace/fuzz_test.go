package lace

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/threespec/conformance/impl/mark"
	"github.com/threespec/conformance/impl/rules"
)

// Fuzz targets: no panic, every rejection a positioned *rules.Violation of a
// catalog rule, and Encode(Parse(x)) == x for every accepted x.

func seeds(f *testing.F) {
	for _, n := range []string{"blob", "plex", "seal"} {
		f.Add(vector(f, n))
	}
	f.Add(mk(plexT("", "Name:  x", "+Link: a "+vecBlobHash)))
	f.Add(mk(sealOver(f, mk(plexT("hi", "App: x")))))
	for _, c := range negativeCases(f) {
		if len(c.in) < 4096 {
			f.Add(c.in)
		}
	}
}

func checkViolation(t *testing.T, in []byte, err error) {
	var v *rules.Violation
	if !errors.As(err, &v) {
		t.Fatalf("error %v is not a *rules.Violation", err)
	}
	if _, ok := Lookup(v.Rule); !ok {
		t.Fatalf("rule %s is not in the catalog", v.Rule)
	}
	if v.Offset < 0 || v.Offset > int64(len(in)) || v.Line < 1 {
		t.Fatalf("violation has no position in the input: %v", err)
	}
}

func FuzzParse(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, in []byte) {
		r, err := Parse(in, Options{Mark: mark.CheckNone})
		if err != nil {
			checkViolation(t, in, err)
			return
		}
		if out := Encode(r); !bytes.Equal(out, in) {
			t.Fatalf("Encode(Parse(x)) != x:\n%q\n%q", out, in)
		}
	})
}

func FuzzParseStream(f *testing.F) {
	seeds(f)
	s, _ := testStream(f)
	f.Add(s)
	f.Fuzz(func(t *testing.T, in []byte) {
		recs, err := ParseStream(in, Options{Mark: mark.CheckNone})
		if err != nil {
			checkViolation(t, in, err)
			return
		}
		if out := EncodeStream(recs); !bytes.Equal(out, in) {
			t.Fatalf("EncodeStream(ParseStream(x)) != x")
		}
	})
}

// FuzzConstruct builds records from arbitrary fields ("name=value" lines):
// whatever Construct accepts must parse back to the same bytes and fields.
func FuzzConstruct(f *testing.F) {
	f.Add([]byte("hello"), "TAI=tomorrow\nApp=chat\nName=note\nGroup=room7\nApp=archive", false)
	f.Add([]byte{}, "Label=second\nMode= public\nLabel=first", true)
	f.Add([]byte("x"), "By=x", false)
	f.Fuzz(func(t *testing.T, data []byte, text string, seal bool) {
		var fields []Field
		if text != "" {
			for _, l := range strings.Split(text, "\n") {
				n, v, _ := strings.Cut(l, "=")
				fields = append(fields, Field{n, v})
			}
		}
		spec := Spec{Data: data, Fields: fields}
		if seal {
			secret := testSecret
			spec.Secret, spec.Aux = &secret, testAux
		}
		out, r, err := Construct(spec)
		if err != nil {
			if rules.RuleOf(err) == "" {
				t.Fatalf("error without a rule: %v", err)
			}
			return
		}
		p, err := Parse(out, Options{})
		if err != nil {
			t.Fatalf("constructed record does not parse: %v\n%q", err, out)
		}
		if !bytes.Equal(Encode(p), out) || p.Hash != r.Hash || len(p.Fields) != len(fields) {
			t.Fatal("constructed record does not round-trip")
		}
	})
}

func FuzzParseLink(f *testing.F) {
	f.Add("evidence S.EXAMPLE_SEAL_HASH.H3")
	f.Add("name  " + vecBlobHash)
	f.Add(" B.x.H3")
	f.Fuzz(func(t *testing.T, value string) {
		data, target, err := ParseLink(value)
		if err != nil {
			return
		}
		if data == "" || data+" "+target != value || strings.Contains(target, " ") {
			t.Fatalf("ParseLink(%q) = %q, %q", value, data, target)
		}
		if _, _, _, ok := SplitTarget(target); !ok {
			t.Fatalf("accepted target %q does not split", target)
		}
	})
}
