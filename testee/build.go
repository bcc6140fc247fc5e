package testee

import (
	"runtime/debug"
	"sync"
)

// Build says which build of a Go program is running (conform, or a Go
// testee such as conform serve): from its build information
// (runtime/debug.ReadBuildInfo), "(devel)" or "unknown" where the build
// recorded nothing (go run records no VCS revision).
type Build struct {
	Module   string `json:"module"`
	Version  string `json:"version"`
	Revision string `json:"revision,omitempty"`      // vcs.revision
	Time     string `json:"revision_time,omitempty"` // vcs.time
	Modified bool   `json:"modified,omitempty"`      // vcs.modified: built from a tree with changes
	Go       string `json:"go"`
}

// String is the build on one line.
func (b Build) String() string {
	s := b.Module + " " + b.Version
	if b.Revision != "" {
		s += ", revision " + b.Revision
		if b.Time != "" {
			s += " of " + b.Time
		}
		if b.Modified {
			s += " (modified)"
		}
	} else {
		s += ", no VCS revision recorded"
	}
	return s + ", " + b.Go
}

var readBuild = sync.OnceValue(func() Build {
	b := Build{Module: "unknown", Version: "unknown", Go: "unknown"}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return b
	}
	b.Go = info.GoVersion
	if info.Main.Path != "" {
		b.Module, b.Version = info.Main.Path, info.Main.Version
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Revision = s.Value
		case "vcs.time":
			b.Time = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		}
	}
	return b
})

// ReadBuild returns the build of the running program.
func ReadBuild() Build { return readBuild() }
