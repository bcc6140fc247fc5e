package lace

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/threespec/conformance/impl/b64a"
	"github.com/threespec/conformance/impl/mark"
	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/internal/fault"
	"github.com/threespec/conformance/internal/reading"
)

// secondSpace takes LACE-READ-01's alternative second-space-rejected.
var secondSpace = rules.Checks{Readings: reading.Of(map[string]string{ReadValueLeadingSpace: AltSecondSpaceRejected})}

// TestReadingSecondSpaceRejected: under LACE-READ-01's alternative a space
// after the separating space breaks LACE-FIELD-04, on field lines and
// structural lines alike; by default it begins the value (docs/READINGS.md).
func TestReadingSecondSpaceRejected(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name        string
		in          []byte
		std, reader rules.ID // the rule each rejects by; "" for accepted
	}{
		{"one space", mk(plexT("", "Name: x")), "", ""},
		{"two spaces in a field line", mk(plexT("", "Name:  x")), "", RuleFieldOneSpace},
		{"two spaces after Data-Length", mk("@B\nData-Length:  5\n\nhello"), RuleBlobDataLength, RuleFieldOneSpace},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			for _, k := range []struct {
				ck   rules.Checks
				want rules.ID
			}{{rules.Checks{}, c.std}, {secondSpace, c.reader}} {
				if _, err := ParseWith(k.ck, c.in, Options{}); ruleOf(err) != k.want {
					t.Errorf("readings %v: %v, want rule %q", k.ck.Readings.Map(), err, k.want)
				}
			}
		})
	}
}

// TestChecksAreCarried runs parses and constructions under different Checks
// at the same time, each many times over: every one must see only its own
// faults and readings. A reader or constructor that took them from shared
// state (a process-global set, or one the last caller left behind) would
// see another's.
func TestChecksAreCarried(t *testing.T) {
	t.Parallel()
	off := func(id rules.ID) rules.Checks { return rules.Checks{Faults: fault.Of(string(id))} }
	crlf := mk(plexT("hello", "App: x\r"))
	twoSpaces := mk(plexT("", "Name:  x"))
	zeros := mk("@B\nData-Length: 05\n\nhello")
	parse := func(ck rules.Checks, in []byte, want rules.ID, value string) func() error {
		return func() error {
			r, err := ParseWith(ck, in, Options{})
			switch {
			case ruleOf(err) != want:
				return fmt.Errorf("%v, want rule %q", err, want)
			case want == "" && len(r.Fields) > 0 && r.Fields[0].Value != value:
				return fmt.Errorf("value %q, want %q", r.Fields[0].Value, value)
			}
			return nil
		}
	}
	construct := func(ck rules.Checks, first string) func() error {
		return func() error {
			_, r, err := ConstructWith(ck, Spec{Fields: []Field{{"Mode", "public"}, {"Label", "x"}}})
			if err != nil {
				return err
			}
			if r.Fields[0].Name != first {
				return fmt.Errorf("fields %v, want %s first", r.Fields, first)
			}
			return nil
		}
	}
	cases := []struct {
		name string
		run  func() error
	}{
		{"CRLF, standard", parse(rules.Checks{}, crlf, RuleFieldLF, "")},
		{"CRLF, " + string(MutCRLFAccepted), parse(off(MutCRLFAccepted), crlf, "", "x")},
		{"two spaces, standard", parse(rules.Checks{}, twoSpaces, "", " x")},
		{"two spaces, " + AltSecondSpaceRejected, parse(secondSpace, twoSpaces, RuleFieldOneSpace, "")},
		{"leading zero, standard", parse(rules.Checks{}, zeros, RuleBlobDataLength, "")},
		{"leading zero, " + string(MutDataLengthZeros), parse(off(MutDataLengthZeros), zeros, "", "")},
		{"construct, standard", construct(rules.Checks{}, "Label")},
		{"construct, " + string(RulePlexSortNames) + " off", construct(off(RulePlexSortNames), "Mode")},
	}
	start := make(chan struct{})
	var wg sync.WaitGroup
	for _, c := range cases {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			for range 200 {
				if err := c.run(); err != nil {
					t.Errorf("%s: %v", c.name, err)
					return
				}
			}
		}()
	}
	close(start)
	wg.Wait()
}

// padBitsIgnored takes LACE-READ-05's alternative pad-bits-ignored.
var padBitsIgnored = rules.Checks{Readings: reading.Of(map[string]string{ReadPadBits: AltPadBitsIgnored})}

// withPadBit sets the lowest bit of the B64A character at i of s: in the
// last character of a 32- or 64-byte value's text, a pad bit.
func withPadBit(s string, i int) string {
	k := strings.IndexByte(b64a.Alphabet, s[i])
	return s[:i] + string(b64a.Alphabet[k|1]) + s[i+1:]
}

// TestReadingPadBitsIgnored: under LACE-READ-05's alternative, digest, By
// and Mark text with nonzero pad bits decode to the bytes they spell and
// the record is valid, its hash the canonical text; by default each is not
// canonical (docs/READINGS.md).
func TestReadingPadBitsIgnored(t *testing.T) {
	t.Parallel()
	blob := string(vector(t, "blob"))
	glyphEnd := strings.IndexByte(blob, '\n')
	seal := string(vector(t, "seal"))
	by := strings.Index(seal, "\nBy: ") + len("\nBy: ")
	markAt := strings.Index(seal, "\nMark: ") + len("\nMark: ")
	reseal := func(s string) []byte { // the Seal's digest recomputed over its changed payload
		i := strings.IndexByte(s, '\n')
		return mk("@S\n" + s[i+1:])
	}
	for _, c := range []struct {
		name string
		in   []byte
		std  rules.ID
		hash string
	}{
		{"digest", []byte(withPadBit(blob, glyphEnd-4)), RuleGlyphDigestText, vecBlobHash},
		{"By", reseal(withPadBit(seal, by+len("V.")+42)), RuleSealByText, ""},
		{"Mark", reseal(withPadBit(seal, markAt+85)), RuleSealMarkText, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if _, err := ParseWith(rules.Checks{}, c.in, Options{Mark: mark.CheckNone}); ruleOf(err) != c.std {
				t.Errorf("default: %v, want rule %s", err, c.std)
			}
			r, err := ParseWith(padBitsIgnored, c.in, Options{Mark: mark.CheckNone})
			if err != nil {
				t.Fatalf("%s: %v", AltPadBitsIgnored, err)
			}
			if c.hash != "" && r.Hash.String() != c.hash {
				t.Errorf("%s: hash %s, want the canonical %s", AltPadBitsIgnored, r.Hash, c.hash)
			}
		})
	}
}

// TestReadingLinkTarget: LACE-READ-18's three grammars of a link target on
// the spec's examples and the targets the alternatives tell apart.
func TestReadingLinkTarget(t *testing.T) {
	t.Parallel()
	under := func(alt string) rules.Checks {
		return rules.Checks{Readings: reading.Of(map[string]string{ReadLinkTarget: alt})}
	}
	canonical := "B." + b64a.Encode(make([]byte, 32)) + ".H3"
	for _, c := range []struct {
		value                string
		std, prefix, checked bool
	}{
		{"evidence S.EXAMPLE_SEAL_HASH.H3", true, true, false},
		{"0..33554432 B.EXAMPLE_BLOB_HASH.H3", true, true, false},
		{"name " + canonical, true, true, true},
		{"name B.x", false, true, false},
		{"name B.", false, false, false},
		{"name Q.x.H3", false, false, false},
		{"old B.abc.H9", true, true, true},
	} {
		for _, k := range []struct {
			ck   rules.Checks
			want bool
		}{{rules.Checks{}, c.std}, {under(AltTypedPrefixOnly), c.prefix}, {under(AltH3PayloadChecked), c.checked}} {
			_, _, err := ParseLinkWith(k.ck, c.value)
			if (err == nil) != k.want {
				t.Errorf("%q under %v: %v, want well-formed %v", c.value, k.ck.Readings.Map(), err, k.want)
			} else if err != nil && ruleOf(err) != RuleLinkTarget {
				t.Errorf("%q under %v: rule %s, want %s", c.value, k.ck.Readings.Map(), ruleOf(err), RuleLinkTarget)
			}
		}
	}
}
