package lace

import (
	"strings"

	"github.com/threespec/conformance/impl/rules"
)

// Record links (Lace-010, "Record-link fields carry typed hash references").

// LinkSuffix ends the name of every record-link field.
const LinkSuffix = "+Link"

// Link is a well-formed record link: a field named +Link or ending with
// +Link whose value is `<link-data> <target-hash>`.
type Link struct {
	Field  int    // index of the occurrence in Record.Fields
	Name   string // the field name
	Data   string // the link data, exactly as written (never trimmed)
	Target string // the typed target hash text (B., P. or S.; any suffix)
}

// IsLinkName reports whether a field named name is a record-link field: it
// is +Link or ends with +Link (LACE-LINK-01).
//
// It enforces every rule and takes every default reading; callers
// that carry a rules.Checks use IsLinkNameWith.
func IsLinkName(name string) bool { return IsLinkNameWith(rules.Checks{}, name) }

// IsLinkNameWith is IsLinkName under the checks c.
func IsLinkNameWith(c rules.Checks, name string) bool {
	if !c.Enforced(RuleLinkName) {
		return name == LinkSuffix // fault: only the bare +Link taken for a link
	}
	return strings.HasSuffix(name, LinkSuffix)
}

// ParseLink splits a record-link value at its last ASCII space without
// trimming either part (LACE-LINK-08). It returns a *rules.Violation of
// LACE-LINK-02, -03 or -04 when the value is malformed; a malformed value is
// still a valid ordinary field (LACE-LINK-10) that link indexes ignore
// (LACE-LINK-11).
//
// It enforces every rule and takes every default reading; callers
// that carry a rules.Checks use ParseLinkWith.
func ParseLink(value string) (data, target string, err error) {
	return ParseLinkWith(rules.Checks{}, value)
}

// ParseLinkWith is ParseLink under the checks c.
func ParseLinkWith(c rules.Checks, value string) (data, target string, err error) {
	data, target, err = parseLink(c, value)
	if err != nil && !c.Enforced(RuleLinkIndexIgnore) {
		// Fault: an index that keeps malformed values, split at the last
		// space if there is one.
		i := strings.LastIndexByte(value, ' ')
		return value[:max(i, 0)], value[i+1:], nil
	}
	return data, target, err
}

func parseLink(c rules.Checks, value string) (data, target string, err error) {
	i := strings.LastIndexByte(value, ' ')
	if c.Mutated(MutLinkFirstSpace) {
		i = strings.IndexByte(value, ' ') // mutant: split at the first space
	}
	// The final separator before the target is one ASCII space (LACE-LINK-03).
	if i < 0 {
		if c.Enforced(RuleLinkSeparator) {
			return "", "", rules.Fail(RuleLinkSeparator, "", -1, "link value %s has no space before a target hash", quote(value))
		}
		i = -1
	}
	if i >= 0 {
		data = value[:i]
	}
	target = value[i+1:]
	if !c.Enforced(RuleLinkSeparator) {
		data = strings.TrimRight(data, " ") // fault: the separator taken as the last run of spaces
	}
	if !c.Enforced(RuleLinkSplit) {
		data, target = strings.TrimSpace(data), strings.TrimSpace(target) // fault: both parts trimmed
	}
	// Link data is non-empty (LACE-LINK-02); it may hold spaces (LACE-LINK-07).
	if data == "" && c.Enforced(RuleLinkData) {
		return "", "", rules.Fail(RuleLinkData, "", -1, "link value %s has empty link data", quote(value))
	}
	if !c.Enforced(RuleLinkDataSpaces) && strings.Contains(data, " ") {
		return "", "", FaultError("link data %s holds a space", quote(data))
	}
	// The target is typed record-hash text beginning B., P. or S.; its suffix
	// need not be H3 (LACE-LINK-04, LACE-LINK-05), and parsing a link does
	// not validate its payload, which the suffix's record definition defines
	// (LACE-LINK-06; the spec's examples, LACE-LINK-13, have payloads such as
	// EXAMPLE_SEAL_HASH). Reading LACE-READ-18 (readings.go): by default
	// T.<payload>.<suffix>; typed-prefix-only asks only the typed prefix,
	// h3-payload-checked a canonical digest after it for the suffix H3.
	_, _, suffix, ok := SplitTarget(target)
	if !ok && c.Takes(ReadLinkTarget, AltTypedPrefixOnly) && len(target) > 2 && TargetForm(target) != 0 {
		return data, target, nil
	}
	if !ok && c.Enforced(RuleLinkTarget) {
		return "", "", rules.Fail(RuleLinkTarget, "", -1, "link target %s is not typed record-hash text T.<payload>.<suffix> with T in B, P, S", quote(target))
	}
	switch {
	case ok && suffix != "H3" && !c.Enforced(RuleLinkAnySuffix):
		return "", "", FaultError("link target %s is not H3", quote(target)) // fault: H3 required
	case ok && suffix == "H3" && c.Takes(ReadLinkTarget, AltH3PayloadChecked):
		if _, err := ParseHashWith(c, target); err != nil {
			return "", "", rules.Fail(RuleLinkTarget, "", -1, "link target %s has the suffix H3 but no canonical H3 digest (reading %s %s): %v", quote(target), ReadLinkTarget, AltH3PayloadChecked, err)
		}
	case ok && suffix == "H3" && !c.Enforced(RuleLinkExamples):
		if _, err := ParseHashWith(c, target); err != nil {
			return "", "", FaultError("link target %s is no canonical H3 hash", quote(target)) // fault: payload validated
		}
	}
	return data, target, nil
}

// TargetForm is the form a target's type letter names: the first byte B, P
// or S followed by a dot, or 0.
func TargetForm(t string) Form {
	if len(t) < 2 || t[1] != '.' {
		return 0
	}
	return formOfLetter(t[0])
}

// SplitTarget splits typed record-hash text T.<payload>.<suffix>, where T is
// B, P or S and payload and suffix are non-empty; the suffix follows the last
// dot. It says nothing about whether the suffix names a supported record
// definition (only H3 is one here; see ParseHash).
func SplitTarget(t string) (f Form, payload, suffix string, ok bool) {
	if len(t) < 2 || t[1] != '.' || formOfLetter(t[0]) == 0 {
		return 0, "", "", false
	}
	rest := t[2:]
	j := strings.LastIndexByte(rest, '.')
	if j <= 0 || j == len(rest)-1 {
		return 0, "", "", false
	}
	return formOfLetter(t[0]), rest[:j], rest[j+1:], true
}

// Links returns r's well-formed record links in field order, ignoring
// malformed values (LACE-LINK-11).
//
// It enforces every rule and takes every default reading; callers
// that carry a rules.Checks use LinksWith.
func (r *Record) Links() []Link { return r.LinksWith(rules.Checks{}) }

// LinksWith is Links under the checks c.
func (r *Record) LinksWith(c rules.Checks) []Link {
	var ls []Link
	for i, f := range r.Fields {
		if !IsLinkNameWith(c, f.Name) {
			continue
		}
		if data, target, err := ParseLinkWith(c, f.Value); err == nil {
			ls = append(ls, Link{Field: i, Name: f.Name, Data: data, Target: target})
		}
	}
	return ls
}
