package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"

	"github.com/threespec/conformance/harness"
	"github.com/threespec/conformance/harness/site"
)

const siteHead = `usage: conform site [flags] CLAIM...
  Builds a static results site of conformance claims (conform run --claim)
  in DIR (-o): an implementation x rule matrix per spec with filters, each
  cell drilling down to its vectors, a page per implementation, an SVG badge
  per implementation and spec, the claims' JSON beside them. It opens from
  file:// (DIR/index.html) with no server and no network. --format markdown
  prints a summary instead, for a CI step summary. Exit status: 0 built,
  2 usage or setup error (a claim that does not read).
`

// siteCmd is `conform site`.
func siteCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("conform site", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "the site's `directory` (made when missing; files of the same names are replaced)")
	format := fs.String("format", "html", "html (the site, in -o DIR) or markdown (a summary on standard output, or in -o FILE)")
	title := fs.String("title", "", "the title of every page (default \"Conformance results\")")
	vectors := fs.String("vectors", "vectors", "vectors directory: the comments and expectations of the vectors every claim passed are taken from it, for the suites whose set hashes are the claims'")
	manifest := fs.String("manifest", "", "manifest directory (default: manifest/ beside the vectors directory)")
	fs.Usage = harness.Usage(fs, siteHead)
	// Flags may come after the claims too (conform site A.json B.json -o DIR).
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			return harness.HelpStatus(err)
		}
		if fs.NArg() == 0 {
			break
		}
		files, args = append(files, fs.Arg(0)), fs.Args()[1:]
	}
	fail := func(err error) int { fmt.Fprintln(stderr, "conform site:", err); return harness.ExitSetup }
	if len(files) == 0 {
		return fail(errors.New("no claims: conform site [flags] CLAIM... -o DIR"))
	}
	var ins []site.Input
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err != nil {
			return fail(err)
		}
		c, err := harness.ReadClaim(bytes.NewReader(raw))
		if err != nil {
			return fail(fmt.Errorf("%s: %w", file, err))
		}
		ins = append(ins, site.Input{File: file, Raw: raw, Claim: c})
	}
	opt := site.Options{Title: *title, Vectors: vectorInfo(ins, *vectors, *manifest)}
	switch *format {
	case "markdown":
		w := stdout
		if *out != "" {
			f, err := os.Create(*out)
			if err != nil {
				return fail(err)
			}
			defer f.Close()
			w = f
		}
		if err := site.Markdown(w, ins, opt); err != nil {
			return fail(err)
		}
		return 0
	case "html":
		if *out == "" {
			return fail(errors.New("-o DIR: where to build the site"))
		}
		if err := site.Build(*out, ins, opt); err != nil {
			return fail(err)
		}
		fmt.Fprintf(stdout, "conform site: %d claims in %s (open %s)\n", len(ins), *out, fileURL(*out))
		return 0
	}
	return fail(fmt.Errorf("--format %q: html or markdown", *format))
}

// vectorInfo describes the vectors of the suites at hand whose set hash
// is one the claims name (nil when there are none: the site then shows
// what the claims carry).
func vectorInfo(ins []site.Input, vectorsDir, manifestDir string) map[string]site.VectorInfo {
	if _, err := os.Stat(vectorsDir); err != nil {
		return nil
	}
	if manifestDir == "" {
		manifestDir = harness.DefaultManifestDir(vectorsDir)
	}
	wanted := map[string]bool{}
	for _, in := range ins {
		for name, h := range in.Claim.Header.SetHashes {
			wanted[name+" "+h] = true
		}
	}
	suites, err := harness.LoadSuites(specs.SuiteDefs(), vectorsDir, manifestDir, nil)
	if err != nil {
		return nil
	}
	out := map[string]site.VectorInfo{}
	for _, s := range suites {
		if !wanted[s.Name+" "+s.SetHash] {
			continue
		}
		for i := range s.Index.Vectors {
			v := &s.Index.Vectors[i]
			out[v.ID] = site.VectorInfo{Comment: v.Comment, Expected: harness.ExpectedText(v)}
		}
	}
	return out
}

// fileURL is the file:// URL of the site's index page.
func fileURL(dir string) string {
	abs, err := filepath.Abs(filepath.Join(dir, "index.html"))
	if err != nil {
		return filepath.Join(dir, "index.html")
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}
