package prove

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/threespec/conformance/vectorset"
)

// FeaturesInput is the key of the features' digest in Record.Inputs.
const FeaturesInput = "features"

// Inputs identifies what a proof ran against (the named suites), so that a recorded proof can
// be told apart from the suite it describes once either changes: each
// suite's set hash (of manifestDir/<suite>/suite-manifest.bin, which
// covers the index and every vector file) and a SHA-256 of the feature files
// below featuresDir (their slash paths and bytes, in path order).
func Inputs(suites []string, manifestDir, featuresDir string) (map[string]string, error) {
	in := map[string]string{}
	for _, suite := range suites {
		h, err := setHash(filepath.Join(manifestDir, suite, "suite-manifest.bin"))
		if err != nil {
			return nil, fmt.Errorf("prove: inputs: %w", err)
		}
		in[suite] = h
	}
	h, err := featuresDigest(featuresDir)
	if err != nil {
		return nil, fmt.Errorf("prove: inputs: %w", err)
	}
	in[FeaturesInput] = h
	return in, nil
}

// setHash is the suite set hash of a suite-manifest.bin (vectorset.SetHash,
// the value suite-set-hash.txt states and vecgen -check verifies).
func setHash(file string) (string, error) {
	m, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	h := vectorset.SetHash(m)
	return hex.EncodeToString(h[:]), nil
}

// featuresDigest hashes every .feature file below dir.
func featuresDigest(dir string) (string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".feature") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		return "", err
	}
	if len(files) == 0 {
		return "", fmt.Errorf("no feature files below %s", dir)
	}
	sort.Strings(files)
	h := sha256.New()
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		rel, _ := filepath.Rel(dir, f)
		fmt.Fprintf(h, "%s\x00%d\x00", filepath.ToSlash(rel), len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
