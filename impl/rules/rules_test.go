package rules

import (
	"fmt"
	"testing"

	"github.com/threespec/conformance/internal/fault"
	"github.com/threespec/conformance/internal/reading"
)

func TestViolationError(t *testing.T) {
	tests := []struct {
		v    Violation
		want string
	}{
		{Violation{Rule: "LACE-FIELD-03", Offset: 57, Line: 3, Detail: "field name contains a space"},
			"LACE-FIELD-03 at line 3, byte 57: field name contains a space"},
		{Violation{Rule: "HR-CENC-02", Code: "BAD_ENCODING", Offset: 9, Detail: "overlong compact uint"},
			"HR-CENC-02 [BAD_ENCODING] at byte 9: overlong compact uint"},
		{Violation{Rule: "LT-OPT-01", Code: "INVALID", Offset: -1, Detail: "reserved bit 7 set"},
			"LT-OPT-01 [INVALID]: reserved bit 7 set"},
		{Violation{Rule: "LACE-X", Line: 2, Offset: -1, Detail: "d"}, "LACE-X at line 2: d"},
	}
	for _, tt := range tests {
		if got := tt.v.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}

func TestFailAndFault(t *testing.T) {
	err := Fail("T-1", "C", 4, "bad %d", 7)
	if RuleOf(err) != "T-1" || CodeOf(err) != "C" {
		t.Fatalf("Fail gave %v", err)
	}
	wrapped := fmt.Errorf("context: %w", err)
	if RuleOf(wrapped) != "T-1" {
		t.Fatal("RuleOf must see through wrapping")
	}
	if RuleOf(fmt.Errorf("plain")) != "" {
		t.Fatal("a plain error carries no rule")
	}
	// Fail is pure: a fault is the caller's Checks, not Fail's business.
	c := Checks{Faults: fault.Of("T-1")}
	if v, ok := FailLine("T-1", "", 3, 9, "bad").(*Violation); !ok || v.Line != 3 || v.Offset != 9 {
		t.Fatalf("FailLine = %v, want a *Violation at line 3, byte 9", v)
	}
	if c.Enforced("T-1") || !c.Enforced("T-2") || !c.Mutated("T-1") || c.Mutated("T-2") || !c.Faulty() {
		t.Fatal("Enforced, Mutated and Faulty must follow the Checks' fault set")
	}
	var zero Checks
	if !zero.Enforced("T-1") || zero.Mutated("T-1") || zero.Faulty() || zero.Takes("R-1", "alt") {
		t.Fatal("the zero Checks enforces every rule, carries no mutant and takes every default")
	}
	r := Checks{Readings: reading.Of(map[string]string{"R-1": "alt"})}
	if !r.Takes("R-1", "alt") || r.Takes("R-1", "other") || r.Takes("R-2", "alt") || r.Takes("R-1", "") {
		t.Fatal("Takes must follow the Checks' readings")
	}
}

func TestNotes(t *testing.T) {
	base := Rule{ID: "X-A-01", Text: "t"}
	a := base.Clarified("c")
	b := a.Precedence("p")
	if len(base.Notes) != 0 || len(a.Notes) != 1 || len(b.Notes) != 2 {
		t.Fatalf("notes: base %v, a %v, b %v", base.Notes, a.Notes, b.Notes)
	}
	c := a.Precedence("q") // a shared backing array must not let b and c share a note
	if b.Notes[1].Text != "p" || c.Notes[1].Text != "q" || a.Notes[0].Kind != NoteClarified || c.Notes[1].Kind != NotePrecedence {
		t.Fatalf("notes: b %v, c %v", b.Notes, c.Notes)
	}
	NewCatalog("x", b) // valid notes pass
	for _, bad := range []Note{{Kind: "other", Text: "t"}, {Kind: NoteClarified}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("a catalog took note %+v", bad)
				}
			}()
			NewCatalog("x", Rule{ID: "X-A-02", Notes: []Note{bad}})
		}()
	}
}

func TestConventionMustBeUntestable(t *testing.T) {
	if got := Convention("X-A-01", "s", "By convention, x.").Level.String(); got != "CONVENTION" {
		t.Errorf("level %q", got)
	}
	NewCatalog("x", Untestable(Convention("X-A-01", "s", "By convention, x."), "binds names"))
	defer func() {
		if recover() == nil {
			t.Error("a catalog took a convention that does not say why it is untestable")
		}
	}()
	NewCatalog("x", Convention("X-A-02", "s", "By convention, y."))
}
