package rulesdoc

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/threespec/conformance/impl/spec"
	"github.com/threespec/conformance/internal/prove"
	"github.com/threespec/conformance/steps"
	"github.com/threespec/conformance/vectorset"
)

// File is the generated file, relative to the repository root.
const File = "features/RULES.md"

// ProofFile holds the recorded fault proof, relative to the repository root.
const ProofFile = "manifest/proof.json"

// Load reads the catalogs of specs, the features below root/features, the
// committed indexes below root/vectors and, when present, the recorded
// proof.
func Load(specs *spec.Set, root string) (Input, error) {
	in := Input{Specs: specs, Catalog: specs.Rules(), Readings: specs.Readings(), Mutants: specs.Mutants()}
	inv, err := steps.LoadInventory(specs, []string{filepath.Join(root, "features")})
	if err != nil {
		return in, err
	}
	// Paths in the list are relative to the repository root.
	for i := range inv.Rules {
		if rel, err := filepath.Rel(root, inv.Rules[i].URI); err == nil {
			inv.Rules[i].URI = filepath.ToSlash(rel)
		}
	}
	in.Inventory = inv
	for _, suite := range specs.Names() {
		ix, err := vectorset.Load(filepath.Join(root, "vectors"), suite)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return in, err
		}
		in.Indexes = append(in.Indexes, ix)
	}
	b, err := os.ReadFile(filepath.Join(root, ProofFile))
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return in, err
	default:
		var rec prove.Record
		if err := json.Unmarshal(b, &rec); err != nil {
			return in, err
		}
		if rec.Format != prove.RecordFormat {
			return in, fmt.Errorf("%s: format %q, want %q", ProofFile, rec.Format, prove.RecordFormat)
		}
		in.Proof = &rec
		if in.Inputs, err = prove.Inputs(specs.Names(), filepath.Join(root, "manifest"), filepath.Join(root, "features")); err != nil {
			return in, err
		}
	}
	return in, nil
}
