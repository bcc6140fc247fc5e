package prove

import (
	"bufio"
	"bytes"
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

// Inputs identifies what a proof ran against, so that a recorded proof can
// be told apart from the suite it describes once either changes: each
// suite's set hash (manifestDir/<suite>/suite-set-hash.txt, which covers
// the index and every vector file) and a SHA-256 of the feature files
// below featuresDir (their slash paths and bytes, in path order).
func Inputs(manifestDir, featuresDir string) (map[string]string, error) {
	in := map[string]string{}
	for _, suite := range vectorset.Suites {
		h, err := setHash(filepath.Join(manifestDir, suite, "suite-set-hash.txt"))
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

// setHash reads the set-hash line of a suite-set-hash.txt.
func setHash(file string) (string, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "set-hash "); ok {
			return v, nil
		}
	}
	return "", fmt.Errorf("%s: no set-hash line", file)
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
