package steps

import (
	"os"
	"path/filepath"
	"sync"

	"github.com/threespec/conformance/internal/floors"
)

var rootOnce struct {
	sync.Once
	dir        string
	inCheckout bool
}

// RepoRoot is the repository root: the nearest directory at or above the
// working directory whose go.mod declares this module (floors.ModuleRoot).
// The steps read the committed files they need (vectors, the spec copy)
// below it, so that the features run the same from `go test ./steps`
// (working directory steps/) and from `conform features` (any directory
// of the checkout). Outside a checkout it is the working directory.
func RepoRoot() string {
	rootOnce.Do(func() {
		wd, err := os.Getwd()
		if err != nil {
			rootOnce.dir = "."
			return
		}
		rootOnce.dir, rootOnce.inCheckout = floors.ModuleRoot(wd)
		if !rootOnce.inCheckout {
			rootOnce.dir = wd
		}
	})
	return rootOnce.dir
}

// InCheckout reports whether the working directory is inside a checkout
// of the module (RepoRoot found its go.mod).
func InCheckout() bool {
	RepoRoot()
	return rootOnce.inCheckout
}

// FromRoot joins a slash-separated path relative to the repository root.
func FromRoot(rel string) string { return filepath.Join(RepoRoot(), filepath.FromSlash(rel)) }
