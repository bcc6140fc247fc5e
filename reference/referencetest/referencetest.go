// Package referencetest helps the tests of a spec's wing ask the reference
// of that spec alone.
package referencetest

import (
	"testing"

	"github.com/threespec/conformance/impl/spec"
	"github.com/threespec/conformance/reference"
	"github.com/threespec/conformance/testee"
)

// Do sends one request to the standard reference of s and returns the
// response; a request built wrong fails t.
func Do(t testing.TB, s *spec.Spec, op, args string, input []byte) testee.Response {
	t.Helper()
	resp, err := reference.For(s).Ask(op, args, input)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}
