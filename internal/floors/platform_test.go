package floors

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The platform split (issue 31): conform builds and runs on Linux, macOS
// and Windows, so code that exists on some of them only must sit in files
// that build on those only: a //go:build line (unix, linux, darwin,
// windows) or a file name that implies one (_linux.go, _windows.go; note
// that _unix.go implies nothing). .ci/run cross-compiles and vets for
// windows/amd64 and darwin/arm64, which catches most of it; this test
// names the rule and catches what compiles everywhere but means one
// platform (a Setpgid field of a SysProcAttr built by reflection-free
// code still needs the right file), and it reads the test files too.

// platformOnly lists what exists on some platforms only: a package's
// identifier (any of the package when name is ""), or a field of
// syscall.SysProcAttr (field), and the platforms a file using it must not
// build on.
var platformOnly = []struct {
	pkg, name string
	field     bool
	notOn     []string
}{
	{pkg: "syscall", name: "Kill", notOn: notUnix},
	{pkg: "syscall", name: "Setpgid", notOn: notUnix},
	{pkg: "syscall", name: "Getpgid", notOn: notUnix},
	{pkg: "syscall", name: "Getpgrp", notOn: notUnix},
	{pkg: "syscall", name: "Setsid", notOn: notUnix},
	{pkg: "syscall", name: "Wait4", notOn: notUnix},
	{pkg: "syscall", name: "WaitStatus", notOn: notUnix},
	{pkg: "syscall", name: "Flock", notOn: notUnix},
	{pkg: "syscall", name: "Mmap", notOn: notUnix},
	{pkg: "syscall", name: "Munmap", notOn: notUnix},
	{pkg: "syscall", name: "Getrusage", notOn: notUnix},
	{pkg: "syscall", name: "CloseOnExec", notOn: notUnix},
	{pkg: "syscall", name: "Setpgid", field: true, notOn: notUnix},
	{pkg: "syscall", name: "Setsid", field: true, notOn: notUnix},
	{pkg: "syscall", name: "Pgid", field: true, notOn: notUnix},
	{pkg: "syscall", name: "Pdeathsig", field: true, notOn: []string{"windows", "darwin"}},
	{pkg: "syscall", name: "CreationFlags", field: true, notOn: notWindows},
	{pkg: "syscall", name: "HideWindow", field: true, notOn: notWindows},
	{pkg: "golang.org/x/sys/unix", notOn: notUnix},
	{pkg: "golang.org/x/sys/unix", name: "Prctl", notOn: []string{"windows", "darwin"}},
	{pkg: "golang.org/x/sys/windows", notOn: notWindows},
}

var (
	notUnix    = []string{"windows"}
	notWindows = []string{"linux", "darwin"}
)

// archOf is the architecture each platform is checked with, as .ci/run
// cross-compiles it.
var archOf = map[string]string{"linux": "amd64", "darwin": "arm64", "windows": "amd64"}

// platformProblems lists the uses in file (read through open) of
// platformOnly entries on a platform the file builds on.
func platformProblems(file string, open func(string) (io.ReadCloser, error)) ([]string, error) {
	rc, err := open(file)
	if err != nil {
		return nil, err
	}
	src, err := io.ReadAll(rc)
	rc.Close()
	if err != nil {
		return nil, err
	}
	f, err := parser.ParseFile(token.NewFileSet(), file, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	local := map[string]string{} // the name a file gives an import, to its path
	imported := map[string]bool{}
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		name := p[strings.LastIndexByte(p, '/')+1:]
		if im.Name != nil {
			name = im.Name.Name
		}
		local[name], imported[p] = p, true
	}
	type use struct{ pkg, name string }
	uses := map[use]bool{}
	fields := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if id, ok := n.X.(*ast.Ident); ok && local[id.Name] != "" {
				uses[use{local[id.Name], n.Sel.Name}] = true
			}
		case *ast.CompositeLit:
			if sel, ok := n.Type.(*ast.SelectorExpr); ok && sel.Sel.Name == "SysProcAttr" {
				for _, e := range n.Elts {
					if kv, ok := e.(*ast.KeyValueExpr); ok {
						if id, ok := kv.Key.(*ast.Ident); ok {
							fields[id.Name] = true
						}
					}
				}
			}
		}
		return true
	})
	var problems []string
	for _, r := range platformOnly {
		what, used := "", false
		switch {
		case r.field:
			what, used = "SysProcAttr."+r.name, fields[r.name] && imported[r.pkg]
		case r.name == "":
			what, used = r.pkg, imported[r.pkg]
		default:
			what, used = r.pkg+"."+r.name, uses[use{r.pkg, r.name}]
		}
		if !used {
			continue
		}
		for _, goos := range r.notOn {
			ctx := build.Default
			ctx.GOOS, ctx.GOARCH, ctx.CgoEnabled = goos, archOf[goos], false
			ctx.OpenFile = open
			ok, err := ctx.MatchFile(filepath.Dir(file), filepath.Base(file))
			if err != nil {
				return nil, err
			}
			if ok {
				problems = append(problems, fmt.Sprintf("%s uses %s but builds on %s", file, what, goos))
			}
		}
	}
	return problems, nil
}

// The checker itself, on small files: what it must find and what it must
// let through.
func TestPlatformSplitChecker(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string // substrings of the problems, in order; none: clean
	}{
		{"shared.go", "package p\nimport \"syscall\"\nfunc f() { syscall.Kill(1, 9) }\n",
			[]string{"uses syscall.Kill but builds on windows"}},
		{"kill_unix.go", "package p\nimport \"syscall\"\nfunc f() { syscall.Kill(1, 9) }\n", // _unix implies nothing
			[]string{"uses syscall.Kill but builds on windows"}},
		{"kill_unix.go", "//go:build unix\n\npackage p\nimport \"syscall\"\nfunc f() { syscall.Kill(1, 9) }\n", nil},
		{"kill_linux.go", "package p\nimport \"syscall\"\nfunc f() { syscall.Kill(1, 9) }\n", nil},
		{"kill.go", "//go:build linux || darwin\n\npackage p\nimport \"syscall\"\nfunc f() { syscall.Kill(1, 9) }\n", nil},
		{"kill.go", "//go:build !plan9\n\npackage p\nimport \"syscall\"\nfunc f() { syscall.Kill(1, 9) }\n",
			[]string{"builds on windows"}},
		{"attr.go", "package p\nimport \"syscall\"\nvar a = &syscall.SysProcAttr{Setpgid: true}\n",
			[]string{"uses SysProcAttr.Setpgid but builds on windows"}},
		{"attr_windows.go", "package p\nimport \"syscall\"\nvar a = &syscall.SysProcAttr{CreationFlags: 4}\n", nil},
		{"attr.go", "package p\nimport \"syscall\"\nvar a = &syscall.SysProcAttr{CreationFlags: 4}\n",
			[]string{"builds on linux", "builds on darwin"}},
		{"x.go", "package p\nimport sys \"golang.org/x/sys/unix\"\nvar _ = sys.Getpid\n",
			[]string{"uses golang.org/x/sys/unix but builds on windows"}},
		{"x.go", "//go:build unix\n\npackage p\nimport \"golang.org/x/sys/unix\"\nvar _ = unix.Prctl\n",
			[]string{"uses golang.org/x/sys/unix.Prctl but builds on darwin"}},
		{"w.go", "package p\nimport \"golang.org/x/sys/windows\"\nvar _ = windows.CloseHandle\n",
			[]string{"builds on linux", "builds on darwin"}},
		{"sig.go", "package p\nimport \"syscall\"\nvar _ = syscall.SIGTERM\n", nil}, // on every platform
	}
	for i, c := range cases {
		t.Run(fmt.Sprintf("%d %s", i, c.name), func(t *testing.T) {
			file := filepath.Join("p", c.name)
			open := func(p string) (io.ReadCloser, error) {
				if p != file {
					return nil, os.ErrNotExist
				}
				return io.NopCloser(strings.NewReader(c.src)), nil
			}
			got, err := platformProblems(file, open)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(c.want) {
				t.Fatalf("problems %q, want %d like %q", got, len(c.want), c.want)
			}
			for j, w := range c.want {
				if !strings.Contains(got[j], w) {
					t.Errorf("problem %q, want one saying %q", got[j], w)
				}
			}
		})
	}
}

// Every Go file of the module, tests included, keeps the platform split.
func TestPlatformSplit(t *testing.T) {
	open := func(p string) (io.ReadCloser, error) { return os.Open(p) }
	n := 0
	err := WalkAllGoFiles("../..", func(pkg, file string) error {
		n++
		problems, err := platformProblems(file, open)
		for _, p := range problems {
			t.Error(p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Fatalf("only %d Go files found", n)
	}
}
