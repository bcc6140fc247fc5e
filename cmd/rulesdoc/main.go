// Command rulesdoc regenerates features/RULES.md from the rule catalogs, the
// Gherkin features, the vector indexes and, when present, the fault proof
// (manifest/proof.json). With -check it fails when the committed file is stale.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/threespec/conformance/internal/rulesdoc"
)

func main() {
	root := flag.String("root", ".", "repository root")
	check := flag.Bool("check", false, "fail if features/RULES.md differs from a fresh generation")
	flag.Parse()
	in, err := rulesdoc.Load(*root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "rulesdoc:", err)
		os.Exit(1)
	}
	out := rulesdoc.Render(in)
	path := filepath.Join(*root, rulesdoc.File)
	if *check {
		old, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(old, out) {
			fmt.Fprintf(os.Stderr, "rulesdoc -check: %s is stale; run %s\n", rulesdoc.File, rulesdoc.Command)
			os.Exit(1)
		}
		return
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "rulesdoc:", err)
		os.Exit(1)
	}
}
