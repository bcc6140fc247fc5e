package prove

import (
	"context"
	"strings"
	"testing"
)

// TestProverSeesAFault injects a real rule's fault (HiveRelay ReadCellCapV1's
// size class 1..5, HR-RCAP-02) and a fault that switches off nothing: the
// first must be caught by vectors, the second must survive. This checks the
// prover, not the suite's coverage (that is the proof itself).
func TestProverSeesAFault(t *testing.T) {
	ctx := context.Background()
	p, err := New(ctx, Options{VectorsDir: "../../vectors", FeaturePaths: []string{"../../features"}, AllowMissingSuites: true})
	if err != nil {
		t.Fatal(err)
	}
	if p.Vectors() == 0 {
		t.Fatal("no vectors loaded")
	}
	out, err := p.Run(ctx, []Target{{ID: "HR-RCAP-02"}, {ID: "NO-SUCH-RULE-01"}})
	if err != nil {
		t.Fatal(err)
	}
	if !out[0].Caught() {
		t.Errorf("switching off HR-RCAP-02 was not caught")
	}
	for _, id := range out[0].Vectors {
		if !strings.HasPrefix(id, "hiverelay/") {
			t.Errorf("a HiveRelay fault failed vector %s", id)
		}
	}
	if out[1].Caught() {
		t.Errorf("a fault that switches off nothing was caught by %v %v", out[1].Vectors, out[1].Scenarios)
	}
}
