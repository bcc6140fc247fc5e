package rules

import (
	"strings"
	"testing"
)

func TestNewCatalogGivesSpecAndIndexes(t *testing.T) {
	t.Parallel()
	c := NewCatalog(LibTracer,
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
		{"LT-A-01", true, Rule{ID: "LT-A-01", Spec: LibTracer, Section: "S1", Level: LevelMust, Text: "one."}},
		{"LT-A-02", true, Rule{ID: "LT-A-02", Spec: LibTracer, Section: "S2", Level: LevelShould, Text: "two.", Untestable: "binds senders"}},
		{"LT-A-03", true, Rule{ID: "LT-A-03", Spec: LibTracer, Section: "S1", Level: LevelMust, Text: "three.", Check: Rejecting, ProjectDefined: "the bound is ours"}},
		{"LT-A-04", false, Rule{}},
		{"", false, Rule{}},
	}
	for _, tt := range tests {
		got, ok := c.Lookup(tt.id)
		if ok != tt.ok || got != tt.want {
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
	lace := NewCatalog(Lace, Must("LACE-A-01", "S", "a."))
	hr := NewCatalog(HiveRelay, Must("HR-A-01", "S", "b."), Must("HR-A-02", "S", "c."))
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
		{"duplicate ID", func() { NewCatalog(Lace, Must("LACE-A-01", "S", "a."), Must("LACE-A-01", "S", "b.")) }, "LACE-A-01 listed twice"},
		{"duplicate across specs", func() {
			Join(NewCatalog(Lace, Must("X-01", "S", "a.")).Rules(), NewCatalog(HiveRelay, Must("X-01", "S", "b.")).Rules())
		}, "X-01 listed twice"},
		{"another spec's rule", func() {
			NewCatalog(Lace, NewCatalog(LibTracer, Must("LT-A-01", "S", "a.")).Rules()...)
		}, "LT-A-01 of libtracer listed in the catalog of lace"},
		{"unknown spec", func() { NewCatalog("lace2", Must("LACE-A-01", "S", "a.")) }, `unknown spec "lace2"`},
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
	tests := []struct {
		spec           Spec
		name, idPrefix string
	}{
		{Lace, "lace", "LACE-"},
		{HiveRelay, "hiverelay", "HR-"},
		{LibTracer, "libtracer", "LT-"},
		{"other", "other", ""},
	}
	for _, tt := range tests {
		if tt.spec.String() != tt.name || tt.spec.IDPrefix() != tt.idPrefix {
			t.Errorf("%q: String %q, IDPrefix %q; want %q, %q", string(tt.spec), tt.spec, tt.spec.IDPrefix(), tt.name, tt.idPrefix)
		}
	}
	if got := Specs(); len(got) != 3 || got[0] != Lace || got[1] != HiveRelay || got[2] != LibTracer {
		t.Errorf("Specs() = %v, want the report order lace, hiverelay, libtracer", got)
	}
	for c, want := range map[Check]string{Unclassified: "unclassified", Rejecting: "rejecting", Constructing: "constructing",
		General: "general", Outside: "outside", Permitting: "permitting", Nesting: "nesting", Check(99): "Check(99)"} {
		if c.String() != want {
			t.Errorf("Check(%d).String() = %q, want %q", uint8(c), c, want)
		}
	}
}
