package rules

import (
	"reflect"
	"strings"
	"testing"
)

func TestNewCatalogGivesSpecAndIndexes(t *testing.T) {
	t.Parallel()
	c := NewCatalog("libtracer",
		Must("LT-A-01", "S1", "one."),
		Untestable(Should("LT-A-02", "S2", "two."), "binds senders"),
		Must("LT-A-03", "S1", "three.").Checked(Rejecting).Defined("the bound is ours"),
	)
	if c.Len() != 3 {
		t.Fatalf("Len = %d, want 3", c.Len())
	}
	tests := []struct {
		id   ID
		ok   bool
		want Rule
	}{
		{"LT-A-01", true, Rule{ID: "LT-A-01", Spec: "libtracer", Section: "S1", Level: LevelMust, Text: "one."}},
		{"LT-A-02", true, Rule{ID: "LT-A-02", Spec: "libtracer", Section: "S2", Level: LevelShould, Text: "two.", Untestable: "binds senders"}},
		{"LT-A-03", true, Rule{ID: "LT-A-03", Spec: "libtracer", Section: "S1", Level: LevelMust, Text: "three.", Check: Rejecting, ProjectDefined: "the bound is ours"}},
		{"LT-A-04", false, Rule{}},
		{"", false, Rule{}},
	}
	for _, tt := range tests {
		got, ok := c.Lookup(tt.id)
		if ok != tt.ok || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Lookup(%q) = %+v, %v; want %+v, %v", tt.id, got, ok, tt.want, tt.ok)
		}
	}
	rs := c.Rules()
	if len(rs) != 3 || rs[0].ID != "LT-A-01" || rs[2].ID != "LT-A-03" {
		t.Fatalf("Rules() = %+v, not in catalog order", rs)
	}
	rs[0].Text = "changed"
	if r, _ := c.Lookup("LT-A-01"); r.Text != "one." {
		t.Error("Rules() must return the caller's copy")
	}
}

func TestJoinKeepsEachSpec(t *testing.T) {
	t.Parallel()
	lace := NewCatalog("lace", Must("LACE-A-01", "S", "a."))
	hr := NewCatalog("hiverelay", Must("HR-A-01", "S", "b."), Must("HR-A-02", "S", "c."))
	all := Join(lace.Rules(), hr.Rules())
	var ids []string
	for _, r := range all.Rules() {
		ids = append(ids, string(r.ID)+"/"+r.Spec.String())
	}
	if got, want := strings.Join(ids, " "), "LACE-A-01/lace HR-A-01/hiverelay HR-A-02/hiverelay"; got != want {
		t.Errorf("Join = %s, want %s", got, want)
	}
	if r, ok := all.Lookup("HR-A-02"); !ok || r.Text != "c." {
		t.Errorf("Lookup(HR-A-02) = %+v, %v", r, ok)
	}
}

// A catalog whose source lists an ID twice, or a rule of another spec, is
// refused when its package is initialized.
func TestCatalogMistakesPanic(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		build func()
		want  string
	}{
		{"duplicate ID", func() { NewCatalog("lace", Must("LACE-A-01", "S", "a."), Must("LACE-A-01", "S", "b.")) }, "LACE-A-01 listed twice"},
		{"duplicate across specs", func() {
			Join(NewCatalog("lace", Must("X-01", "S", "a.")).Rules(), NewCatalog("hiverelay", Must("X-01", "S", "b.")).Rules())
		}, "X-01 listed twice"},
		{"another spec's rule", func() {
			NewCatalog("lace", NewCatalog("libtracer", Must("LT-A-01", "S", "a.")).Rules()...)
		}, "LT-A-01 of libtracer listed in the catalog of lace"},
		{"no spec", func() { NewCatalog("", Must("LACE-A-01", "S", "a.")) }, `catalog of no spec`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				msg, _ := recover().(string)
				if !strings.Contains(msg, tt.want) {
					t.Errorf("panic %q, want one saying %q", msg, tt.want)
				}
			}()
			tt.build()
		})
	}
}

func TestSpecAndCheckNames(t *testing.T) {
	t.Parallel()
	if s := SpecName("other"); s.String() != "other" {
		t.Errorf("SpecName(%q).String() = %q", string(s), s)
	}
	for c, want := range map[Check]string{Unclassified: "unclassified", Rejecting: "rejecting", Constructing: "constructing",
		General: "general", Outside: "outside", Permitting: "permitting", Nesting: "nesting", Check(99): "Check(99)"} {
		if c.String() != want {
			t.Errorf("Check(%d).String() = %q, want %q", uint8(c), c, want)
		}
	}
}
