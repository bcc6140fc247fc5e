package vecgen

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
)

// ownedDirs are the directories (repository-relative) whose every file
// belongs to the generated suites; files there that a generation does not
// produce are stale and removed by Write, reported by Diff.
func ownedDirs(suites []SuiteSummary) []string {
	var dirs []string
	for _, s := range suites {
		for _, d := range []string{"positive", "negative", "registry"} {
			dirs = append(dirs, path.Join("vectors", d, s.Name))
		}
		dirs = append(dirs, path.Join("manifest", s.Name))
	}
	return dirs
}

// existing lists the files under root that the generated suites own.
func existing(root string, out *Output) (map[string]bool, error) {
	have := map[string]bool{}
	for _, d := range ownedDirs(out.Summary) {
		err := filepath.WalkDir(filepath.Join(root, filepath.FromSlash(d)), func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				if os.IsNotExist(err) {
					return nil
				}
				return err
			}
			if !e.IsDir() {
				rel, err := filepath.Rel(root, p)
				if err != nil {
					return err
				}
				have[filepath.ToSlash(rel)] = true
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	for _, s := range out.Summary {
		p := path.Join("vectors", s.Name+".index.json")
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(p))); err == nil {
			have[p] = true
		}
	}
	return have, nil
}

// Write writes every generated file below root and removes stale files from
// the directories the suites own.
func Write(root string, out *Output) error {
	have, err := existing(root, out)
	if err != nil {
		return err
	}
	for p := range have {
		if _, keep := out.Files[p]; !keep {
			if err := os.Remove(filepath.Join(root, filepath.FromSlash(p))); err != nil {
				return err
			}
		}
	}
	for _, p := range sortedKeys(out.Files) {
		full := filepath.Join(root, filepath.FromSlash(p))
		if old, err := os.ReadFile(full); err == nil && bytes.Equal(old, out.Files[p]) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(full, out.Files[p], 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Diff compares the tree below root with a generation: it lists, sorted,
// every owned path that is missing, stale (not generated) or different.
func Diff(root string, out *Output) ([]string, error) {
	have, err := existing(root, out)
	if err != nil {
		return nil, err
	}
	var diffs []string
	for _, p := range sortedKeys(out.Files) {
		if !have[p] {
			diffs = append(diffs, "missing:   "+p)
			continue
		}
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			return nil, err
		}
		if !bytes.Equal(b, out.Files[p]) {
			diffs = append(diffs, "different: "+p)
		}
	}
	for p := range have {
		if _, ok := out.Files[p]; !ok {
			diffs = append(diffs, "stale:     "+p)
		}
	}
	sort.Slice(diffs, func(i, j int) bool { return diffs[i][11:] < diffs[j][11:] })
	return diffs, nil
}

// Check regenerates into a temporary directory and compares it with the tree
// below root (vecgen -check).
func Check(root string, out *Output) ([]string, error) {
	tmp, err := os.MkdirTemp("", "vecgen-check-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	if err := Write(tmp, out); err != nil {
		return nil, fmt.Errorf("writing the fresh generation: %w", err)
	}
	fresh, err := existing(tmp, out)
	if err != nil {
		return nil, err
	}
	written := &Output{Files: map[string][]byte{}, Summary: out.Summary}
	for p := range fresh {
		if written.Files[p], err = os.ReadFile(filepath.Join(tmp, filepath.FromSlash(p))); err != nil {
			return nil, err
		}
	}
	if len(written.Files) != len(out.Files) {
		return nil, fmt.Errorf("the fresh generation wrote %d files, want %d", len(written.Files), len(out.Files))
	}
	return Diff(root, written)
}

func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
