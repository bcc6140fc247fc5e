package lace

import (
	"fmt"
	"sync"
	"testing"

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
