// Command rulesdoc regenerates features/RULES.md from the rule catalogs, the
// Gherkin features, the vector indexes and, when present, the fault proof
// (manifest/proof.json), and docs/READINGS.md from the readings catalogs and
// the vector indexes. With -check it fails when a committed file is stale.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/threespec/conformance/impl/hiverelay/hivespec"
	"github.com/threespec/conformance/impl/lace/lacespec"
	"github.com/threespec/conformance/impl/libtracer/tracerspec"
	"github.com/threespec/conformance/impl/spec"
	"github.com/threespec/conformance/internal/rulesdoc"
)

func main() {
	root := flag.String("root", ".", "repository root")
	check := flag.Bool("check", false, "fail if features/RULES.md or docs/READINGS.md differs from a fresh generation")
	flag.Parse()
	in, err := rulesdoc.Load(spec.MustSet(lacespec.Spec, hivespec.Spec, tracerspec.Spec), *root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "rulesdoc:", err)
		os.Exit(1)
	}
	for _, f := range []struct {
		path string
		out  []byte
	}{{rulesdoc.File, rulesdoc.Render(in)}, {rulesdoc.ReadingsFile, rulesdoc.RenderReadings(in)}} {
		path := filepath.Join(*root, f.path)
		if *check {
			old, err := os.ReadFile(path)
			if err != nil || !bytes.Equal(old, f.out) {
				fmt.Fprintf(os.Stderr, "rulesdoc -check: %s is stale; run %s\n", f.path, rulesdoc.Command)
				os.Exit(1)
			}
			continue
		}
		if err := os.WriteFile(path, f.out, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "rulesdoc:", err)
			os.Exit(1)
		}
	}
}
