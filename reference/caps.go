package reference

import (
	"github.com/threespec/conformance/impl/lace"
	"github.com/threespec/conformance/impl/lace/convention"
	"github.com/threespec/conformance/impl/libtracer"
)

// Caps are the largest bounds a request may ask the reference for. `hello`
// advertises them in its limits (docs/PROTOCOL.md, "Arguments"), and a
// request that asks for more is answered unsupported, naming the bound and
// its cap, before any work is done. A bound a request leaves out takes its
// default, which is never above the cap. With the caps the time and memory
// of any request are bounded by the caps and the size of its input: the
// convention walks count every link use before they follow it (LACE-DIR-30)
// and a listing's bytes before they build it, and libtracer's work stack and
// payloads grow only with the input.
type Caps struct {
	// LaceMaxDepth caps max_depth of lace.chunks and lace.directory
	// (hello limits lace.max_depth); it is also their default.
	LaceMaxDepth int64
	// LaceMaxExpansion caps max_expansion (lace.max_expansion); also the default.
	LaceMaxExpansion int64
	// LaceMaxBytes caps max_bytes of lace.chunks (lace.max_assembled_bytes);
	// also the default.
	LaceMaxBytes int64
	// LaceMaxListingBytes is the largest lace.directory listing the reference
	// builds, in bytes of paths and targets (lace.max_listing_bytes); no
	// request raises it, a larger listing is answered unsupported.
	LaceMaxListingBytes int64
	// LibtracerMaxTLVBytes caps max_tlv_bytes of libtracer.decode
	// (libtracer.max_tlv_bytes); the default is libtracer.DefaultMaxTLVBytes.
	LibtracerMaxTLVBytes int64
	// LibtracerWorkBudget caps work_budget (libtracer.work_budget); the
	// default is libtracer.DefaultMaxOpenLevels.
	LibtracerWorkBudget int64
}

// DefaultCaps are the caps of New.
func DefaultCaps() Caps {
	return Caps{
		LaceMaxDepth:         convention.DefaultMaxDepth,
		LaceMaxExpansion:     convention.DefaultMaxExpansion,
		LaceMaxBytes:         convention.DefaultMaxBytes,
		LaceMaxListingBytes:  convention.DefaultMaxListingBytes,
		LibtracerMaxTLVBytes: libtracer.MaxLen32, // the largest length the format has (LT-LEN-02)
		LibtracerWorkBudget:  1 << 20,
	}
}

// limits are the hello limits of caps c: every cap under its name, and
// the defaults that differ from their caps.
func (c Caps) limits() map[string]any {
	return map[string]any{
		"lace.max_blob_data":              lace.MaxData,
		"lace.max_depth":                  c.LaceMaxDepth,
		"lace.max_expansion":              c.LaceMaxExpansion,
		"lace.max_assembled_bytes":        c.LaceMaxBytes,
		"lace.max_listing_bytes":          c.LaceMaxListingBytes,
		"libtracer.max_tlv_bytes":         c.LibtracerMaxTLVBytes,
		"libtracer.work_budget":           c.LibtracerWorkBudget,
		"libtracer.default_max_tlv_bytes": min(c.LibtracerMaxTLVBytes, libtracer.DefaultMaxTLVBytes),
		"libtracer.default_work_budget":   min(c.LibtracerWorkBudget, libtracer.DefaultMaxOpenLevels),
	}
}

// bound checks one bound argument v (nil: absent) against its cap and the
// floor 1: it returns the value to use (def when absent) or an unsupported
// error naming the bound, its cap and the hello limit that advertises it.
func bound(name string, v *int64, def, cap int64, limit string) (int64, error) {
	if v == nil {
		return min(def, cap), nil
	}
	switch {
	case *v < 1:
		return 0, unsupported("%s %d: bounds below 1 are not supported", name, *v)
	case *v > cap:
		return 0, unsupported("%s %d is above this testee's cap %d (hello limits %s)", name, *v, cap, limit)
	}
	return *v, nil
}
