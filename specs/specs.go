// Package specs holds the project's byte-identical copies of the
// specifications it tests, embedded so that every test, generator and
// artifact reads the same bytes from the tree itself (README.md says what
// each file is). It names none of them: each wing knows its own file
// (impl/spec.Spec.TextFile), and SHA256SUMS records the digest of every
// copy taken when it was copied in.
package specs

import (
	"bufio"
	"bytes"
	"embed"
	"fmt"
	"sort"
	"strings"
	"sync"
)

//go:embed *.txt *.spec.md SHA256SUMS
var tree embed.FS

// File is one specification copy: its name in this directory, its bytes and
// the SHA-256 (hex) recorded for it when it was copied in.
type File struct {
	Name   string
	Bytes  []byte
	SHA256 string
}

var (
	loadOnce sync.Once
	files    []File
	byName   map[string]int
	loadErr  error
)

// load reads SHA256SUMS (sha256sum's format: the digest, two spaces, the
// name) and every copy it lists.
func load() {
	sums, err := tree.ReadFile("SHA256SUMS")
	if err != nil {
		loadErr = err
		return
	}
	byName = map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(sums))
	for sc.Scan() {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok || len(sum) != 64 {
			loadErr = fmt.Errorf("specs: SHA256SUMS: %q is not <sha256>  <name>", sc.Text())
			return
		}
		b, err := tree.ReadFile(name)
		if err != nil {
			loadErr = fmt.Errorf("specs: SHA256SUMS lists %s: %w", name, err)
			return
		}
		files = append(files, File{Name: name, Bytes: b, SHA256: sum})
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Name < files[j].Name })
	for i, f := range files {
		byName[f.Name] = i
	}
}

// Files lists every copy with its recorded SHA-256 digest, in name order.
// It panics when SHA256SUMS is malformed or names a file the tree lacks,
// which the package's test rules out.
func Files() []File {
	loadOnce.Do(load)
	if loadErr != nil {
		panic(loadErr)
	}
	return files
}

// Text returns the bytes of the copy named name (a name SHA256SUMS lists),
// nil when there is none. The caller must not modify them.
func Text(name string) []byte {
	Files()
	if i, ok := byName[name]; ok {
		return files[i].Bytes
	}
	return nil
}
