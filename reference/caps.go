package reference

import "github.com/threespec/conformance/impl/spec"

// The caps are the largest bounds a request may ask the reference for
// (spec.Caps). `hello` advertises them in its limits (docs/PROTOCOL.md,
// "Arguments"), and a request that asks for more is answered unsupported,
// naming the bound and its cap, before any work is done. With the caps the
// time and memory of any request are bounded by the caps and the size of
// its input: the Lace convention walks count every link use before they
// follow it (LACE-DIR-30) and a listing's bytes before they build it, and
// libtracer's work stack and payloads grow only with the input.

// DefaultCaps are the caps of New: every spec's caps at their defaults.
func DefaultCaps(specs *spec.Set) spec.Caps {
	c := spec.Caps{}
	for _, s := range specs.Specs() {
		for _, cp := range s.Caps {
			c[cp.Name] = cp.Default
		}
	}
	return c
}

// limits are the hello limits: every cap under its name, and each spec's
// further limits under the caps.
func (r *Reference) limits() map[string]any {
	m := map[string]any{}
	for name, v := range r.env.Caps {
		m[name] = v
	}
	for _, s := range r.specs.Specs() {
		if s.Limits != nil {
			for name, v := range s.Limits(r.env.Caps) {
				m[name] = v
			}
		}
	}
	return m
}
