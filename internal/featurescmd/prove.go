package featurescmd

import (
	"context"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path"
	"strings"
	"time"

	"github.com/threespec/conformance/harness"
	"github.com/threespec/conformance/internal/prove"
)

// proveCmd is `conform prove`: for every rule and named mutant, switch it on
// in the reference (internal/fault), run the vectors and the features, and
// report which faults are caught and which survive.
func proveCmd(w Wings, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("conform prove", flag.ContinueOnError)
	fs.SetOutput(stderr)
	vectors := fs.String("vectors", "vectors", "vectors directory")
	features := fs.String("features", "features", "features directory")
	mode := fs.String("with-features", "when-needed", "when the features run: never, when-needed (for faults no vector catches) or always (the full matrix)")
	write := fs.String("write", "", "write the proof record to this file (manifest/proof.json feeds features/RULES.md)")
	spec := fs.String("spec", "", "only this spec's faults ("+strings.Join(w.Specs.Names(), ", ")+")")
	id := fs.String("id", "", "only faults whose ID matches this glob")
	quiet := fs.Bool("q", false, "no line per fault")
	verdict := fs.Bool("verdict-only", false, "run a fault's vectors over 1 MiB only when the smaller ones catch nothing (same verdicts, incomplete lists of catching vectors; cannot -write)")
	fs.Usage = harness.Usage(fs, "usage: conform prove [flags]\n"+
		"  Switches off one rule (or switches on one named mutant) at a time in the\n"+
		"  reference and runs the suite against it. Exit status 1 when a fault survives.\n")
	if err := fs.Parse(args); err != nil {
		return harness.HelpStatus(err)
	}
	fm, ok := map[string]prove.FeaturesMode{"never": prove.FeaturesNever, "when-needed": prove.FeaturesWhenNeeded, "always": prove.FeaturesAlways}[*mode]
	if !ok || fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	targets, untestable := prove.Targets(w.Specs)
	var selected []prove.Target
	for _, t := range targets {
		if *spec != "" && t.Spec != *spec {
			continue
		}
		if *id != "" {
			if m, err := path.Match(*id, t.ID); err != nil || !m {
				continue
			}
		}
		selected = append(selected, t)
	}
	if len(selected) == 0 {
		fmt.Fprintln(stderr, "conform prove: no fault selected")
		return 2
	}
	if *write != "" && (*spec != "" || *id != "" || *verdict) {
		// The record feeds features/RULES.md, which presents it as the whole proof.
		fmt.Fprintln(stderr, "conform prove: -write records the whole proof: it cannot be combined with -spec, -id or -verdict-only")
		return 2
	}
	opt := prove.Options{Specs: w.Specs, Steps: w.Steps, VectorsDir: *vectors, FeaturePaths: []string{*features}, Features: fm, VerdictOnly: *verdict}
	if !*quiet {
		opt.Progress = stderr
	}
	var inputs map[string]string
	if *write != "" {
		// What the proof runs against, taken before it starts.
		var err error
		if inputs, err = prove.Inputs(w.Specs.Names(), harness.DefaultManifestDir(*vectors), *features); err != nil {
			fmt.Fprintln(stderr, "conform prove:", err)
			return 2
		}
	}
	start := time.Now()
	ctx := context.Background()
	p, err := prove.New(ctx, opt)
	if err != nil {
		fmt.Fprintln(stderr, "conform prove:", err)
		return 2
	}
	out, err := p.Run(ctx, selected)
	if err != nil {
		fmt.Fprintln(stderr, "conform prove:", err)
		return 2
	}
	fmt.Fprintf(stdout, "conform prove: %d faults against %d vectors (features: %s)\n", len(out), p.Vectors(), *mode)
	survived := prove.Summary(stdout, out, untestable, time.Since(start))
	if *write != "" {
		after, err := prove.Inputs(w.Specs.Names(), harness.DefaultManifestDir(*vectors), *features)
		if err == nil && !maps.Equal(inputs, after) {
			err = fmt.Errorf("the vectors or features changed while the proof ran; not writing %s", *write)
		}
		var rec *prove.Record
		if err == nil {
			rec, err = prove.NewRecord(out, untestable, fm, inputs)
		}
		var b []byte
		if err == nil {
			b, err = rec.Marshal()
		}
		if err == nil {
			err = os.WriteFile(*write, b, 0o644)
		}
		if err != nil {
			fmt.Fprintln(stderr, "conform prove:", err)
			return 2
		}
	}
	if survived > 0 {
		return 1
	}
	return 0
}
