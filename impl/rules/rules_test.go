package rules

import (
	"fmt"
	"testing"

	"github.com/threespec/conformance/internal/fault"
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
	restore := fault.SetGlobal("T-1")
	defer restore()
	if err := Fail("T-1", "C", 4, "bad"); err != nil {
		t.Fatalf("Fail under fault = %v, want nil", err)
	}
	if err := FailLine("T-1", "", 1, 0, "bad"); err != nil {
		t.Fatalf("FailLine under fault = %v, want nil", err)
	}
	if Enforced("T-1") || !Enforced("T-2") {
		t.Fatal("Enforced must follow the fault set")
	}
	if Fail("T-2", "", -1, "x") == nil {
		t.Fatal("other rules stay enforced")
	}
}
