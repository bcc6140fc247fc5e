//go:build !unix

package testee

// ownResource reports whether err says that this process ran out of a
// resource of its own; without the Unix error numbers, it never does.
func ownResource(err error) (hint string, ok bool) { return "", false }
