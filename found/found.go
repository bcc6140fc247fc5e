// Package found holds the found corpus (issue 27): inputs `conform fuzz`
// found an implementation to disagree on with the reference, one JSON file
// each (vectorset.FoundEntry) under found/<suite>/, with their provenance.
// vecgen makes every entry a vector of its suite's found family
// (<suite>/<polarity>/found-<name>), checked against the reference like
// every other vector, so that a case found once is in the fixed set from
// then on, as Go keeps testdata/fuzz. See README.md.
package found

import (
	"embed"
	"errors"
	"io/fs"
	"path"
	"sort"
	"strings"
)

//go:embed */*.json
var corpus embed.FS

// Entry is one file of the corpus: its name (without .json) and bytes.
type Entry struct {
	Name  string
	Bytes []byte
}

// Of returns the corpus of a suite, sorted by name.
func Of(suite string) ([]Entry, error) {
	des, err := fs.ReadDir(corpus, suite)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	var out []Entry
	for _, d := range des {
		name, ok := strings.CutSuffix(d.Name(), ".json")
		if !ok || d.IsDir() {
			continue
		}
		b, err := corpus.ReadFile(path.Join(suite, d.Name()))
		if err != nil {
			return nil, err
		}
		out = append(out, Entry{Name: name, Bytes: b})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}
