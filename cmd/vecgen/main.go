// Command vecgen writes the project's vector sets: vectors/positive/<suite>/,
// vectors/negative/<suite>/, vectors/<suite>.index.json and manifest/
// (docs/VECTORS.md). Every vector is checked against the reference
// implementation as it is generated. With -check it regenerates into a
// temporary directory and fails, listing the differing paths, when the
// committed tree differs.
//
// Usage:
//
//	go run ./cmd/vecgen [-root DIR] [-check] [-large] [-export-hiverelay DIR] [-q]
//	go run ./cmd/vecgen [-root DIR] -diff REV     what changed in the sets since commit REV
//	go run ./cmd/vecgen [-root DIR] -changelog    write vectors/CHANGELOG.md from the history
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/threespec/conformance/impl/hiverelay"
	"github.com/threespec/conformance/impl/hiverelay/hivevec"
	"github.com/threespec/conformance/impl/lace/lacevec"
	"github.com/threespec/conformance/impl/libtracer/tracervec"
	"github.com/threespec/conformance/internal/vecgen"
)

// suites are the wings' generators, each holding its spec, in report
// order: the one list of them in vecgen.
var suites = []vecgen.Generator{lacevec.Generator, hivevec.Generator, tracervec.Generator}

func main() {
	root := flag.String("root", ".", "repository root to write vectors/ and manifest/ into")
	check := flag.Bool("check", false, "regenerate into a temporary directory and fail if the committed tree differs")
	large := flag.Bool("large", false, "also emit the larger optional mutation families")
	export := flag.String("export-hiverelay", "", "also write the HiveRelay authority tree (exactly the 18 inventory paths) into this directory")
	quiet := flag.Bool("q", false, "no progress lines")
	diffRev := flag.String("diff", "", "list, per suite, the vector IDs added, removed, renamed and changed between commit `REV` and the tree below -root, with both set hashes (generates nothing)")
	strict := flag.Bool("strict", false, "with -diff: exit 1 when the diff breaks the ID policy (an ID naming other bytes or another expectation, a rename without its alias)")
	changelog := flag.Bool("changelog", false, "write "+vecgen.ChangelogFile+" from the repository's history (generates nothing)")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "vecgen: unexpected arguments %q\n", flag.Args())
		os.Exit(2)
	}
	var names []string
	for _, s := range suites {
		names = append(names, s.Name())
	}
	switch {
	case *diffRev != "":
		diffs, err := vecgen.DiffTrees(vecgen.GitTree{Root: *root, Rev: *diffRev}, vecgen.DirTree(*root), names)
		if err == nil {
			err = vecgen.WriteDiff(os.Stdout, *diffRev, "now", diffs, 0)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "vecgen -diff:", err)
			os.Exit(1)
		}
		var breaks []string
		for _, d := range diffs {
			breaks = append(breaks, d.PolicyBreaks()...)
		}
		if *strict && len(breaks) > 0 {
			fmt.Fprintf(os.Stderr, "vecgen -diff -strict: %d breaks of the ID policy (docs/VECTORS.md, \"IDs and releases\"):\n  %s\n", len(breaks), strings.Join(breaks, "\n  "))
			os.Exit(1)
		}
		return
	case *changelog:
		var b bytes.Buffer
		err := vecgen.Changelog(&b, *root, names)
		if err == nil {
			err = os.WriteFile(filepath.Join(*root, filepath.FromSlash(vecgen.ChangelogFile)), b.Bytes(), 0o644)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "vecgen -changelog:", err)
			os.Exit(1)
		}
		return
	}
	var progress io.Writer = os.Stderr
	if *quiet {
		progress = nil
	}
	start := time.Now()
	out, err := vecgen.Generate(suites, vecgen.Options{Large: *large, Progress: progress})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if *check {
		diffs, err := vecgen.Check(*root, out)
		if err != nil {
			fmt.Fprintln(os.Stderr, "vecgen -check:", err)
			os.Exit(1)
		}
		if len(diffs) > 0 {
			fmt.Fprintf(os.Stderr, "vecgen -check: the committed vectors differ from a fresh generation (%d paths); run go run ./cmd/vecgen:\n", len(diffs))
			for _, d := range diffs {
				fmt.Fprintln(os.Stderr, "  "+d)
			}
			os.Exit(1)
		}
	} else if err := vecgen.Write(*root, out); err != nil {
		fmt.Fprintln(os.Stderr, "vecgen:", err)
		os.Exit(1)
	}
	if *export != "" {
		if err := exportHiveRelay(*export); err != nil {
			fmt.Fprintln(os.Stderr, "vecgen -export-hiverelay:", err)
			os.Exit(1)
		}
	}
	summary(os.Stdout, out, *check, time.Since(start))
}

func summary(w io.Writer, out *vecgen.Output, check bool, d time.Duration) {
	verb := "wrote"
	if check {
		verb = "checked"
	}
	fmt.Fprintf(w, "vecgen: %s %d files in %.2fs\n", verb, len(out.Files), d.Seconds())
	fmt.Fprintf(w, "%-10s %8s %8s %7s %6s  %s\n", "suite", "positive", "negative", "recipes", "rules", "set hash")
	for _, s := range out.Summary {
		fmt.Fprintf(w, "%-10s %8d %8d %7d %6d  %s\n", s.Name, s.Positive, s.Negative, s.Recipes, len(s.Rules), s.SetHash)
	}
	m := hiverelay.ReferenceMetadata()
	fmt.Fprintf(w, "hiverelay authority: clientCompositionFormatHash %x\n", m.FormatHash)
	fmt.Fprintf(w, "                     clientCompositionVectorSetHash %x\n", m.VectorSetHash)
}

// exportHiveRelay writes the 18 inventory files under dir with exactly the
// specification's relative paths.
func exportHiveRelay(dir string) error {
	for p, b := range hiverelay.VectorFiles() {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(full, b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
