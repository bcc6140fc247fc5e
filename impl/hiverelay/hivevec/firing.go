package hivevec

import (
	"context"
	"fmt"
	"slices"

	"github.com/threespec/conformance/impl/cenc"
	hr "github.com/threespec/conformance/impl/hiverelay"
	"github.com/threespec/conformance/impl/hiverelay/hivespec"
	"github.com/threespec/conformance/impl/manifest"
	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/impl/spec"
	"github.com/threespec/conformance/internal/fault"
	"github.com/threespec/conformance/internal/reading"
	"github.com/threespec/conformance/internal/vecgen"
	"github.com/threespec/conformance/reference"
	"github.com/threespec/conformance/testee"
)

// AnyCode stands, in Firing's answer, for a failing check whose code the
// spec does not name: section 4 or 5 says only that the input "fails
// closed" or "fails complete authority verification" (hr.SpecCode).
const AnyCode = "(any code: the spec names none)"

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

var firingSpecs = spec.MustSet(hivespec.Spec)

// Firing is the HiveRelay Generator.Firing (docs/VECTORS.md, "Check
// order"): every code that a decoder following the spec could report first
// on a negative's input. It runs the reference, then again with each
// failing check switched off (internal/fault, as the fault proof does),
// collecting the code of every check that fails, until the input is
// accepted or a framing check fails (one after which the bytes have no
// meaning, so that what fails after it is not a check a spec-following
// order reaches first). Each check gives BAD_ENCODING where the spec names
// it and AnyCode where it names no code (hr.SpecCode).
func Firing(v *vecgen.Vector, input []byte) ([]string, error) {
	var off []string
	var codes []string
	for range 64 {
		ref := reference.New(firingSpecs).WithChecks(rules.Checks{Faults: fault.Of(off...), Readings: reading.Of(v.Readings)})
		resp, err := ref.Do(context.Background(), testee.Request{Op: v.Op, Args: v.Args, Input: input})
		if err != nil {
			return nil, err
		}
		if resp.Outcome != testee.Rejected {
			break
		}
		id := rules.ID(resp.Rule)
		if slices.Contains(off, resp.Rule) {
			break // a check that cannot be switched off (subsumed): it stands
		}
		code := hr.SpecCode(id)
		if code == "" {
			code = AnyCode
		}
		if !slices.Contains(codes, code) {
			codes = append(codes, code)
		}
		if framing[id] {
			break
		}
		off = append(off, resp.Rule)
	}
	if len(codes) == 0 {
		return nil, fmt.Errorf("the reference accepts it")
	}
	return codes, nil
}
