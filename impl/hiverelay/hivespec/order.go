package hivespec

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/threespec/conformance/impl/cenc"
	hr "github.com/threespec/conformance/impl/hiverelay"
	"github.com/threespec/conformance/impl/manifest"
	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/impl/spec"
	"github.com/threespec/conformance/internal/fault"
	"github.com/threespec/conformance/internal/reading"
	"github.com/threespec/conformance/testee"
)

// framing are the checks after which a decoder cannot read on: a count,
// length or form that is wrong leaves the bytes after it without a
// meaning, so a check that fails there only because this one was skipped
// is not one that a spec-following order reaches first.
var framing = map[rules.ID]bool{
	cenc.RuleCompactOverlong: true, cenc.RuleCompactSafe: true, cenc.RuleOptionalTag: true,
	cenc.RuleTruncated: true, cenc.RuleTrailing: true,
	hr.RuleCkptFrontierCount: true, hr.RuleCkptCapsCount: true,
	hr.RuleFramePayloadCount: true, hr.RuleFramePayloadLength: true, hr.RuleFrameCapsCount: true,
	hr.RuleCoreHeadLength:  true,
	hr.RuleBlobClassSelect: true, hr.RuleBlobWrongClass: true, hr.RuleBlobShort: true, hr.RuleBlobLong: true,
	hr.RuleCatalogEntryCount: true, hr.RuleCatalogDeclLength: true, hr.RuleCatalogDepsClosed: true,
	hr.RuleFmtSpecEmpty: true, hr.RuleFmtSpecMax: true, hr.RuleFmtCatalogEmpty: true, hr.RuleFmtCatalogMax: true,
	hr.RuleFmtTrailing:     true,
	manifest.RuleTruncated: true, manifest.RuleTrailing: true,
}

// Set here, not in Spec's literal: checkOrder runs Spec's handlers, which
// the literal would then refer to while it is built.
func init() { Spec.CheckOrder = checkOrder }

// checkOrder is the HiveRelay Spec's CheckOrder (docs/VECTORS.md, "Check
// order"): every code that a decoder following the spec could report first
// on a request the reference rejects. It runs the reference's handler of
// the operation, then again with each failing check switched off
// (internal/fault, as the fault proof does), collecting the code of every
// check that fails, until the input is accepted or a framing check fails
// (one after which the bytes have no meaning, so that what fails after it
// is not a check a spec-following order reaches first). Each check gives
// BAD_ENCODING where the spec names it and spec.AnyCode where it names no
// code (hr.SpecCode).
func checkOrder(op string, args json.RawMessage, input []byte, readings map[string]string) ([]string, error) {
	var handle spec.Handler
	for _, o := range Spec.Ops {
		if o.Name == op {
			handle = o.Handle
		}
	}
	if handle == nil {
		return nil, fmt.Errorf("no operation %s", op)
	}
	caps := spec.Caps{}
	for _, c := range Spec.Caps {
		caps[c.Name] = c.Default
	}
	var off []string
	var codes []string
	for range 64 {
		env := spec.Env{Caps: caps, Checks: rules.Checks{Faults: fault.Of(off...), Readings: reading.Of(readings)}}
		_, err := handle(env, testee.Request{Op: op, Args: args, Input: input})
		if err == nil {
			break
		}
		id := rules.RuleOf(err)
		if id == "" {
			return nil, err // unsupported, or a request built wrong
		}
		if slices.Contains(off, string(id)) {
			break // a check that cannot be switched off (subsumed): it stands
		}
		code := hr.SpecCode(id)
		if code == "" {
			code = spec.AnyCode
		}
		if !slices.Contains(codes, code) {
			codes = append(codes, code)
		}
		if framing[id] {
			break
		}
		off = append(off, string(id))
	}
	if len(codes) == 0 {
		return nil, fmt.Errorf("the reference accepts it")
	}
	return codes, nil
}
