package steps

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/threespec/conformance/impl/spec"
)

var readingTag = regexp.MustCompile(`@reading:[^\s]+`)

// FeatureAlternatives returns, for every non-default alternative a
// scenario of the feature files below roots shows (a tag
// @reading:ID=ALT), the files holding it, keyed "ID=ALT". A @reading tag
// that names no reading of specs, or no alternative of it, is an error.
// The features test and the fault proof run those scenarios against the
// reference taking that alternative.
func FeatureAlternatives(specs *spec.Set, roots []string) (map[string][]string, error) {
	alts := map[string][]string{}
	var bad []string
	for _, root := range roots {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".feature") {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, tag := range readingTag.FindAllString(string(b), -1) {
				id, alt, ok := ReadingTag(specs, tag)
				if !ok {
					bad = append(bad, path+": "+tag)
					continue
				}
				if k := id + "=" + alt; strings.Contains(tag, "=") && !slices.Contains(alts[k], path) {
					alts[k] = append(alts[k], path)
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if len(bad) > 0 {
		return nil, fmt.Errorf("@reading tags that name no reading of the catalog, or no alternative of it: %s", strings.Join(bad, ", "))
	}
	return alts, nil
}
