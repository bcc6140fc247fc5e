package fault

import "testing"

func TestSetValue(t *testing.T) {
	var zero Set
	if zero.Off("X-1") || !zero.Empty() || zero.IDs() != nil {
		t.Fatal("the zero Set must switch off nothing")
	}
	ids := []string{"X-2", "X-1"}
	s := Of(ids...)
	ids[0] = "X-9" // Of must not keep the caller's slice
	if !s.Off("X-1") || !s.Off("X-2") || s.Off("X-9") || s.Empty() {
		t.Fatalf("Of(X-2, X-1): Off = %v %v %v", s.Off("X-1"), s.Off("X-2"), s.Off("X-9"))
	}
	if got := s.IDs(); len(got) != 2 || got[0] != "X-1" || got[1] != "X-2" {
		t.Fatalf("IDs = %v, want [X-1 X-2]", got)
	}
}
