package hivefuzz

import (
	"strings"
	"testing"

	hr "github.com/threespec/conformance/impl/hiverelay"
	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/internal/fuzzgen"
)

// TestRecordDefectsReachTheirRule checks that each single-defect record
// fails, under the clean reference, by a rule of the family the defect
// names (never by another record's or a primitive's rule that would hide
// it), or is accepted where the defect is a bound's valid side or a value
// the spec allows (section 3; HR-BLOB-08).
func TestRecordDefectsReachTheirRule(t *testing.T) {
	want := map[string]struct {
		rules  []string // allowed rule IDs or prefixes
		accept bool     // whether acceptance is allowed
	}{
		"read-cap expected hash zero":              {[]string{"HR-RCAP-06"}, false},
		"read-cap key zero or size class":          {[]string{"HR-RCAP-02", "HR-RCAP-03", "HR-RCAP-04", "HR-RCAP-05"}, false},
		"blind core key zero or head length":       {[]string{"HR-BCORE-"}, true},
		"write-cap key zero":                       {[]string{"HR-WCAP-"}, false},
		"blob nonce zero":                          {nil, true},
		"checkpoint key zero":                      {[]string{"HR-CKPT-06", "HR-CKPT-07", "HR-CKPT-08", "HR-CKPT-05"}, false},
		"checkpoint caps unsorted or duplicate":    {[]string{"HR-CKPT-10", "HR-CKPT-11"}, false},
		"checkpoint frontier 1024 or 1025":         {[]string{"HR-CKPT-02"}, true},
		"frame key zero":                           {[]string{"HR-FRAME-02", "HR-FRAME-05"}, false},
		"frame previous hash against its sequence": {[]string{"HR-FRAME-03", "HR-FRAME-04"}, false},
		"frame payloads at their bound":            {[]string{"HR-FRAME-06"}, true},
		"frame caps at their bound":                {[]string{"HR-FRAME-08"}, true},
		"frame caps unsorted or duplicate":         {[]string{"HR-FRAME-09", "HR-FRAME-10"}, false},
		"version":                                  {[]string{"HR-CENC-10"}, false},
		"optional tag":                             {[]string{"HR-CENC-09"}, false},
		"overlong compact uint":                    {[]string{"HR-CENC-07"}, false},
	}
	for _, d := range recordDefects {
		w, ok := want[d.name]
		if !ok {
			t.Errorf("defect %q has no expectation in this test", d.name)
			continue
		}
		for seed := range uint64(40) {
			r := fuzzgen.New(seed, 0)
			schema, class, b := d.build(r, cleanKeys(r))
			_, _, err := hr.Decode(schema, uint8(class), b)
			if err == nil {
				if !w.accept {
					t.Errorf("%s, seed %d: %s accepted", d.name, seed, schema)
				}
				continue
			}
			if !matches(string(rules.RuleOf(err)), w.rules) {
				t.Errorf("%s, seed %d: %s fails with %v, want one of %v", d.name, seed, schema, err, w.rules)
			}
		}
	}
}

// TestCatalogDefectsReachTheirRule checks that each catalog defect, in an
// artifact otherwise the authority's, fails by a catalog rule (section 4,
// HR-CAT-02..11), and that the artifact defects fail by their own rule.
func TestCatalogDefectsReachTheirRule(t *testing.T) {
	for seed := range uint64(200) {
		r := fuzzgen.New(seed, 1)
		c := defectArtifactCase(r)
		_, err := hr.VerifyFormatArtifact(c.Input)
		op := strings.Join(c.Operators, ", ")
		switch {
		case op == "catalog declaration length" && err == nil:
			// 65535 bytes, the bound's valid side (HR-CAT-06).
		case strings.HasPrefix(op, "catalog "):
			if !matches(string(rules.RuleOf(err)), []string{"HR-CAT-"}) {
				t.Errorf("seed %d, %s: %v, want a HR-CAT rule", seed, op, err)
			}
		case strings.HasPrefix(op, "magic "):
			if rules.RuleOf(err) != hr.RuleFmtMagic {
				t.Errorf("seed %d, %s: %v, want %s", seed, op, err, hr.RuleFmtMagic)
			}
		case strings.HasPrefix(op, "spec \""):
			if !matches(string(rules.RuleOf(err)), []string{"HR-FMT-09", "HR-FMT-10", "HR-FMT-11", "HR-FMT-12", "HR-FMT-13"}) {
				t.Errorf("seed %d, %s: %v, want a spec text rule", seed, op, err)
			}
		case strings.HasPrefix(op, "spec of 1048576 "):
			if err != nil {
				t.Errorf("seed %d, %s: %v, want accepted", seed, op, err)
			}
		case strings.HasPrefix(op, "spec of 1048577 "):
			if rules.RuleOf(err) != "HR-FMT-07" {
				t.Errorf("seed %d, %s: %v, want HR-FMT-07", seed, op, err)
			}
		default:
			t.Errorf("seed %d: unexpected operators %q", seed, op)
		}
	}
}

func matches(id string, allowed []string) bool {
	for _, a := range allowed {
		if id == a || strings.HasSuffix(a, "-") && strings.HasPrefix(id, a) {
			return true
		}
	}
	return false
}
