package main

import (
	"path/filepath"
	"testing"
)

// -j is capped at the vectors selected (and refused above harness.MaxJobs,
// TestUsageErrors): before, -j 10000000 made ten million adapters for one
// vector, 3.4 GB (issue 30).
func TestJobsCappedAtSelection(t *testing.T) {
	for _, c := range []struct {
		j, id string
		want  int
	}{
		{"1024", "libtracer/positive/combo-path-ll0-cw0-tf0-ts0-cr0", 1},
		{"1024", "libtracer/positive/combo-path-ll0-cw0-tf0-ts0-cr*", 3},
		{"2", "libtracer/positive/combo-path-ll0-cw0-tf0-ts0-cr*", 2},
	} {
		jsonFile := filepath.Join(t.TempDir(), "report.json")
		code, out, errOut := conform(t, append([]string{"run", "--vectors", "../../vectors", "-q", "-j", c.j, "--id", c.id, "--json", jsonFile, "--"}, serveArgv()...)...)
		if code != 0 {
			t.Fatalf("-j %s --id %s: exit %d\n%s%s", c.j, c.id, code, out, errOut)
		}
		rep := readReport(t, jsonFile)
		if rep.Testee.Jobs != c.want {
			t.Errorf("-j %s --id %s: jobs %d, want %d", c.j, c.id, rep.Testee.Jobs, c.want)
		}
	}
}
