package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/threespec/conformance/harness"
	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/vectorset"
)

const showHead = `usage: conform show [flags] ID
  Prints one vector: its request, expectation, rules with their texts,
  comment, and a hex dump of its input with the byte its comment names
  marked. --write FILE writes its exact input bytes (a recipe expanded).
  ID is a vector ID or a glob (as conform run --id) that matches one.
`

// markedOffset finds the byte a comment names ("... the frame at byte 12
// ...").
var markedOffset = regexp.MustCompile(`\bat byte (\d+)\b`)

// showCmd is `conform show`.
func showCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("conform show", flag.ContinueOnError)
	fs.SetOutput(stderr)
	vectors := fs.String("vectors", "vectors", "vectors directory holding <suite>.index.json")
	manifest := fs.String("manifest", "", "manifest directory (default: manifest/ beside the vectors directory)")
	write := fs.String("write", "", "write the vector's exact input bytes to `file` (- for standard output)")
	dump := fs.Int("dump", 512, "bytes of the input the hex dump shows at most (around the marked byte)")
	fs.Usage = harness.Usage(fs, showHead)
	if err := fs.Parse(args); err != nil {
		return harness.HelpStatus(err)
	}
	fail := func(err error) int { fmt.Fprintln(stderr, "conform show:", err); return harness.ExitSetup }
	if fs.NArg() != 1 {
		return fail(fmt.Errorf("want one vector ID, got %q", fs.Args()))
	}
	id := fs.Arg(0)
	sel := harness.Selection{IDs: []string{id}}
	if err := sel.Check(); err != nil {
		return fail(err)
	}
	if *manifest == "" {
		*manifest = harness.DefaultManifestDir(*vectors)
	}
	var names []string
	if suite, _, ok := strings.Cut(id, "/"); ok && !strings.ContainsAny(suite, "*?[") {
		names = []string{suite}
	}
	suites, err := harness.LoadSuites(specs.SuiteDefs(), *vectors, *manifest, names)
	if err != nil {
		return fail(err)
	}
	var found []*vectorset.Vector
	var in *harness.Suite
	for _, s := range suites {
		for i := range s.Index.Vectors {
			if v := &s.Index.Vectors[i]; sel.Match(s.Name, v) {
				found, in = append(found, v), s
			}
		}
	}
	switch {
	case len(found) == 0:
		return fail(sel.NoMatch(suites, *vectors))
	case len(found) > 1:
		ids := make([]string, 0, len(found))
		for _, v := range found {
			ids = append(ids, v.ID)
		}
		if len(ids) > 10 {
			ids = append(ids[:10], fmt.Sprintf("... (%d in all)", len(found)))
		}
		return fail(fmt.Errorf("%q matches %d vectors, not one: %s", id, len(found), strings.Join(ids, ", ")))
	}
	v := found[0]
	input, err := v.Input(in.VectorsDir, in.Name)
	if err != nil {
		return fail(err)
	}
	if got := vectorset.Hash(input); got != v.BLAKE2b {
		return fail(fmt.Errorf("%s: the input's BLAKE2b is %s, the index says %s", v.ID, got, v.BLAKE2b))
	}
	if *write != "" {
		if err := writeInput(*write, input, stdout); err != nil {
			return fail(err)
		}
		if *write == "-" {
			return 0
		}
	}
	showVector(stdout, in, v, input, *dump)
	if *write != "" {
		fmt.Fprintf(stdout, "written:  %d bytes to %s (BLAKE2b %s)\n", len(input), *write, v.BLAKE2b)
	}
	return 0
}

// writeInput writes the input to file, or to w for "-".
func writeInput(file string, input []byte, w io.Writer) error {
	if file == "-" {
		_, err := w.Write(input)
		return err
	}
	return os.WriteFile(file, input, 0o644)
}

// showVector prints v of suite s with its input.
func showVector(w io.Writer, s *harness.Suite, v *vectorset.Vector, input []byte, dump int) {
	where := "recipe (conform show --write FILE writes it)"
	if v.Recipe == nil {
		if p, err := vectorset.TreePath(s.VectorsDir, s.Name, v.File); err == nil {
			where = p
		}
	}
	args := "{}"
	var compact bytes.Buffer
	if len(v.Args) > 0 && json.Compact(&compact, v.Args) == nil {
		args = compact.String()
	}
	fmt.Fprintf(w, "vector:   %s\nrequest:  %s %s\ninput:    %s (%d bytes, BLAKE2b %s)\n", v.ID, v.Op, args, where, len(input), v.BLAKE2b)
	expect := v.Expect
	if v.Code != "" {
		expect += " with code " + v.Code
	}
	if len(v.AcceptableCodes) > 0 {
		expect += " (also acceptable: " + strings.Join(v.AcceptableCodes, ", ") + ")"
	}
	fmt.Fprintf(w, "expect:   %s (%s)\n", expect, v.Level)
	for _, id := range v.Rules {
		text := "(no catalog names it)"
		if r, ok := specs.Rule(rules.ID(id)); ok {
			text = r.Text
			if r.ProjectDefined != "" {
				text += " (project-defined)"
			}
		}
		fmt.Fprintf(w, "rule:     %s %s\n", id, text)
		if r, ok := specs.Rule(rules.ID(id)); ok {
			for _, n := range r.Notes {
				fmt.Fprintf(w, "          %s: %s\n", n.Kind, n.Text)
			}
		}
	}
	if len(v.Tags) > 0 {
		fmt.Fprintf(w, "tags:     %s\n", strings.Join(v.Tags, ", "))
	}
	if len(v.Profiles) > 0 {
		fmt.Fprintf(w, "profiles: %s\n", strings.Join(v.Profiles, ", "))
	}
	if len(v.Readings) > 0 {
		ids := make([]string, 0, len(v.Readings))
		for id, alt := range v.Readings {
			ids = append(ids, id+"="+alt)
		}
		sort.Strings(ids)
		fmt.Fprintf(w, "readings: %s\n", strings.Join(ids, ", "))
	}
	if v.Comment != "" {
		fmt.Fprintf(w, "comment:  %s\n", v.Comment)
	}
	mark := -1
	if m := markedOffset.FindStringSubmatch(v.Comment); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil && n < len(input) {
			mark = n
		}
	}
	hexDump(w, input, mark, dump)
}

// hexDump writes up to limit bytes of b, 16 a line with their offsets, the
// window centred on mark when mark >= 0; the byte at mark is bracketed.
func hexDump(w io.Writer, b []byte, mark, limit int) {
	start, end := 0, len(b)
	if limit > 0 && len(b) > limit {
		if mark >= 0 {
			start = max(0, min(mark-limit/2, len(b)-limit)) &^ 15
		}
		end = min(len(b), start+limit)
	}
	if start > 0 {
		fmt.Fprintf(w, "          ... %d bytes before\n", start)
	}
	for off := start; off < end; off += 16 {
		line := b[off:min(off+16, end)]
		var hx strings.Builder
		for i, c := range line {
			sep := " "
			if off+i == mark {
				sep = "["
			} else if off+i == mark+1 && i > 0 {
				sep = "]"
			}
			hx.WriteString(sep)
			hx.WriteString(hex.EncodeToString([]byte{c}))
		}
		if off+len(line) == mark+1 {
			hx.WriteString("]")
		}
		text := make([]byte, len(line))
		for i, c := range line {
			text[i] = '.'
			if c >= 0x20 && c < 0x7f {
				text[i] = c
			}
		}
		fmt.Fprintf(w, "%08x %-49s |%s|\n", off, hx.String(), text)
	}
	if end < len(b) {
		fmt.Fprintf(w, "          ... %d bytes after\n", len(b)-end)
	}
	if mark >= 0 {
		fmt.Fprintf(w, "marked:   the byte at offset %d (0x%x), which the comment names\n", mark, mark)
	}
}
