package fault

import "testing"

func TestSetAndRestore(t *testing.T) {
	if Off("X-1") {
		t.Fatal("no fault set, but X-1 reported off")
	}
	restore := Set("X-1", "X-2")
	if !Off("X-1") || !Off("X-2") || Off("X-3") {
		t.Fatalf("after Set(X-1, X-2): Off = %v %v %v", Off("X-1"), Off("X-2"), Off("X-3"))
	}
	inner := Set("X-3")
	if Off("X-1") || !Off("X-3") {
		t.Fatal("Set must replace the earlier set")
	}
	inner()
	if !Off("X-1") || Off("X-3") {
		t.Fatal("restore must bring back the earlier set")
	}
	restore()
	if Off("X-1") || len(Active()) != 0 {
		t.Fatal("restore must switch every rule back on")
	}
}
