package steps

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/impl/spec"
)

func TestFeatureAlternatives(t *testing.T) {
	set, err := spec.NewSet(&spec.Spec{Name: "x", Prefix: "X", Rules: []rules.Rule{{ID: "X-A-01", Spec: "x"}},
		Readings: []rules.Reading{{ID: "X-READ-01", Spec: "x", Default: "a", Alternatives: []rules.Alternative{{Name: "a"}, {Name: "b"}}}}})
	if err != nil {
		t.Fatal(err)
	}
	write := func(dir, text string) string {
		t.Helper()
		p := filepath.Join(dir, "x", "f.feature")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	dir := t.TempDir()
	p := write(dir, "@reading:X-READ-01\nScenario: d\n@reading:X-READ-01=b\nScenario: e\n@reading:X-READ-01=b\nScenario: f\n")
	alts, err := FeatureAlternatives(set, []string{dir})
	if err != nil || len(alts) != 1 || len(alts["X-READ-01=b"]) != 1 || alts["X-READ-01=b"][0] != p {
		t.Errorf("alternatives %v, %v; want X-READ-01=b in %s once (the default's tag is not an alternative)", alts, err, p)
	}
	bad := t.TempDir()
	write(bad, "@reading:X-READ-01=c\nScenario: g\n")
	if _, err := FeatureAlternatives(set, []string{bad}); err == nil || !strings.Contains(err.Error(), "X-READ-01=c") {
		t.Errorf("an unknown alternative: %v", err)
	}
}
