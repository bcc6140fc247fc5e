// Package example is an implementer's conformance test in Go: the vector
// sets run inside go test, in process, against a testee.Implementation.
// Here the project's reference implementation stands in for yours.
//
//	go get github.com/threespec/conformance
//	go test -run TestConformance            # every vector, a subtest each
//	go test -run 'TestConformance/LT-OPT-02/'  # one rule's vectors
package example

import (
	"testing"

	"github.com/threespec/conformance/conformtest"
	"github.com/threespec/conformance/reference"
)

func TestConformance(t *testing.T) {
	// Your implementation: Do answers hello (the operations and profiles
	// it claims) and every operation of docs/PROTOCOL.md it implements.
	impl := reference.New(conformtest.Specs)
	conformtest.Run(t, impl, conformtest.Options{
		// Suites: []string{"libtracer"},             // what you implement
		// ExpectFail: "expected-failures.txt",       // your known gaps
		Jobs: 2, // Do is called from 2 goroutines at once
	})
}
