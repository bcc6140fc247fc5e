// Command treecheck reads NUL-separated file paths on standard input (as
// `git ls-files -z` writes them) and fails, naming each, when any of them is a
// compiled executable or object (ELF, Mach-O, PE). .ci/run runs it over the
// tracked files: nothing built belongs in git.
package main

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/threespec/conformance/internal/treecheck"
)

func main() {
	paths, err := io.ReadAll(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "treecheck:", err)
		os.Exit(2)
	}
	bad, n := 0, 0
	head := make([]byte, 4096)
	for _, p := range bytes.Split(paths, []byte{0}) {
		if len(p) == 0 {
			continue
		}
		n++
		f, err := os.Open(string(p))
		if err != nil {
			fmt.Fprintln(os.Stderr, "treecheck:", err)
			os.Exit(2)
		}
		k, _ := io.ReadFull(f, head)
		f.Close()
		if format, ok := treecheck.Executable(head[:k]); ok {
			fmt.Fprintf(os.Stderr, "treecheck: %s is a compiled %s executable; build outputs do not belong in git (remove it and list it in .gitignore)\n", p, format)
			bad++
		}
	}
	if bad > 0 {
		os.Exit(1)
	}
	fmt.Printf("treecheck: %d tracked files, no compiled executable\n", n)
}
