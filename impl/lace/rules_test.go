package lace

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/threespec/conformance/impl/rules"

	"github.com/threespec/conformance/specs"
)

var idPattern = regexp.MustCompile(`^LACE-(GLYPH|STREAM|FIELD|BLOB|PLEX|SEAL|CTOR|LINK|CHUNK|DIR|NEST|SIZE|VEC|EX)-\d\d$`)

// TestCatalog checks that every rule constant declared in rules.go is in the
// catalog exactly once, well formed, and numbered without gaps per area.
func TestCatalog(t *testing.T) {
	t.Parallel()
	declared := declaredIDs(t, "rules.go")
	seen := map[rules.ID]bool{}
	next := map[string]int{}
	for _, r := range Catalog() {
		if seen[r.ID] {
			t.Errorf("%s listed twice", r.ID)
		}
		seen[r.ID] = true
		if !declared[r.ID] {
			t.Errorf("%s is in the catalog but not declared as a constant", r.ID)
		}
		if !idPattern.MatchString(string(r.ID)) {
			t.Errorf("%s does not match %s", r.ID, idPattern)
			continue
		}
		parts := strings.Split(string(r.ID), "-")
		next[parts[1]]++
		if want := next[parts[1]]; parts[2] != twoDigits(want) {
			t.Errorf("%s out of order: want %s-%s", r.ID, parts[1], twoDigits(want))
		}
		if r.Spec != "lace" || r.Section == "" || r.Text == "" {
			t.Errorf("%s: incomplete entry %+v", r.ID, r)
		}
		if !strings.HasSuffix(r.Text, ".") && !strings.HasSuffix(r.Text, ")") {
			t.Errorf("%s: text is not one sentence: %q", r.ID, r.Text)
		}
	}
	for id := range declared {
		if !seen[id] {
			t.Errorf("%s is declared but not in the catalog", id)
		}
	}
}

// declaredIDs returns the values of the rules.ID constants declared in file.
func declaredIDs(t *testing.T, file string) map[rules.ID]bool {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	declared := map[rules.ID]bool{}
	for _, m := range regexp.MustCompile(`rules\.ID = "([^"]+)"`).FindAllSubmatch(src, -1) {
		declared[rules.ID(m[1])] = true
	}
	return declared
}

func twoDigits(n int) string { return string([]byte{byte('0' + n/10), byte('0' + n%10)}) }

// TestCatalogSectionsFollowSpec checks that every section the catalog cites
// is a heading of the spec and that the catalog follows the spec's order.
func TestCatalogSectionsFollowSpec(t *testing.T) {
	t.Parallel()
	spec := specs.Text(TextFile)
	last := -1
	for _, r := range Catalog() {
		i := bytes.Index(spec, []byte("\n"+r.Section+"\n"))
		if i < 0 {
			t.Fatalf("%s: section %q is not a heading of the spec", r.ID, r.Section)
		}
		if i < last {
			t.Errorf("%s: section %q comes before the previous rule's section in the spec", r.ID, r.Section)
		}
		last = i
	}
}

// TestLookup checks Lookup against the catalog.
func TestLookup(t *testing.T) {
	t.Parallel()
	r, ok := Lookup(RuleFieldLineLength)
	if !ok || r.Level != rules.LevelMust || !strings.Contains(r.Text, "128") {
		t.Fatalf("Lookup(%s) = %+v, %v", RuleFieldLineLength, r, ok)
	}
	if r, _ := Lookup(RulePlexKindField); r.Level != rules.LevelShould {
		t.Errorf("%s is a SHOULD-level convention", RulePlexKindField)
	}
	if _, ok := Lookup("LACE-NONE-01"); ok {
		t.Error("Lookup found an unknown rule")
	}
}
