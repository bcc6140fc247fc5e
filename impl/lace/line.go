package lace

import (
	"bytes"
	"strconv"
	"unicode/utf8"

	"github.com/threespec/conformance/impl/nfc17"
	"github.com/threespec/conformance/impl/rules"
)

// Field-line text rules shared by the parser and the constructor
// (Lace-010, "Shared field-line rules keep bytes canonical").
//
// Each check asks its checks c whether a rule is enforced and reports the
// violation through a reporter; where fault injection switches the rule
// off, the check carries on as if it had passed.

// reporter turns a violation at byte at of the checked text into an error.
type reporter func(id rules.ID, at int, format string, args ...any) error

// Reserved field names (Lace-010, "Plex records attach generic fields to a
// Blob"): Data-Length, By, Mark and 🖧 are structural, ⋯🖧 is reserved.
const (
	nameDataLength = "Data-Length"
	nameBy         = "By"
	nameMark       = "Mark"
)

// IsReservedName reports whether name is one of the five names reserved from
// application use: Data-Length, By, Mark, 🖧 and ⋯🖧 (LACE-PLEX-10). The list
// is exact: case variants and longer names are ordinary (LACE-PLEX-11).
func IsReservedName(name string) bool {
	switch name {
	case nameDataLength, nameBy, nameMark, Glyph, ReservedGlyph:
		return true
	}
	return false
}

func isReservedBytes(name []byte) bool {
	switch string(name) { // no allocation: the compiler compares in place
	case nameDataLength, nameBy, nameMark, Glyph, ReservedGlyph:
		return true
	}
	return false
}

// checkName checks a field name: non-empty (LACE-FIELD-02), no ':', space or
// tab (LACE-FIELD-03), then the text rules.
func checkName(c rules.Checks, name []byte, rep reporter) error {
	if len(name) == 0 && c.Enforced(RuleFieldNameEmpty) {
		return rep(RuleFieldNameEmpty, 0, "empty field name")
	}
	if i := bytes.IndexAny(name, ": \t"); i >= 0 && c.Enforced(RuleFieldNameChars) {
		return rep(RuleFieldNameChars, i, "field name %s contains %s", quote(string(name)), byteName(name[i]))
	}
	return checkText(c, name, "field name", rep)
}

// checkValue checks a field value: non-empty (LACE-FIELD-05), then the text
// rules. Spaces are data and never trimmed (LACE-FIELD-12).
func checkValue(c rules.Checks, value []byte, rep reporter) error {
	if len(value) == 0 && c.Enforced(RuleFieldValueEmpty) {
		return rep(RuleFieldValueEmpty, 0, "empty field value")
	}
	return checkText(c, value, "field value", rep)
}

// checkText checks name or value bytes: no CR (LACE-FIELD-09), no other
// control bytes (LACE-FIELD-10), strict UTF-8 (LACE-FIELD-06) and NFC under
// Unicode 17.0.0 (LACE-FIELD-07, LACE-FIELD-08).
func checkText(c rules.Checks, b []byte, what string, rep reporter) error {
	ascii := true
	reportedCR, reportedCtl := false, false
	for i, ch := range b {
		switch {
		case ch == '\r':
			if !reportedCR {
				reportedCR = true
				if c.Enforced(RuleFieldLF) {
					return rep(RuleFieldLF, i, "%s contains CR (lines end with LF only)", what)
				}
			}
		case ch < 0x20 || ch == 0x7f:
			if !reportedCtl {
				reportedCtl = true
				if c.Enforced(RuleFieldControl) {
					return rep(RuleFieldControl, i, "%s contains control byte 0x%02X", what, ch)
				}
			}
		case ch >= 0x80:
			ascii = false
		}
	}
	if ascii {
		return nil // ASCII is strict UTF-8 and NFC
	}
	if e := nfc17.CheckUTF8(b); e != nil {
		if c.Enforced(RuleFieldUTF8) {
			return rep(RuleFieldUTF8, e.Offset, "%s is not UTF-8: %s", what, e.Reason)
		}
		return nil // NFC is undefined for invalid UTF-8
	}
	if what == "field value" && c.Mutated(MutNFCNamesOnly) {
		return nil // mutant: values are not checked for NFC
	}
	if !nfc17.IsNFC(b) && (c.Enforced(RuleFieldUnicode17) || !isNFCUnicode15(b)) && c.Enforced(RuleFieldNFC) {
		return rep(RuleFieldNFC, 0, "%s %s is not NFC under Unicode %s", what, quote(string(b)), nfc17.UnicodeVersion)
	}
	return nil
}

// checkLength checks the complete `<Name>: <value>` length n of a line
// whose name is name (LACE-FIELD-11, which record-link fields share,
// LACE-LINK-09).
func checkLength(c rules.Checks, name []byte, n int, rep reporter) error {
	switch {
	case n == MaxLine && !c.Enforced(RuleExLineASCII):
		return FaultError("field line is %d bytes, the limit taken as exclusive", n)
	case n <= MaxLine:
		return nil
	case n == MaxLine+1 && c.Mutated(MutLineLimit129):
		return nil // mutant: the limit is off by one
	case IsLinkNameWith(c, string(name)) && !c.Enforced(RuleLinkBudget):
		return nil // fault: record-link lines exempt from the line budget
	case c.Enforced(RuleFieldLineLength):
		return rep(RuleFieldLineLength, MaxLine, "field line is %d bytes, more than %d (excluding LF)", n, MaxLine)
	}
	return nil
}

// isNFCUnicode15 judges NFC as a normalizer built with Unicode 15.0 tables
// would (fault injection of LACE-FIELD-08 only): to it the characters of the
// scripts Unicode 16.0 added are unassigned, so they neither compose nor
// decompose. They are replaced by U+FFFD, a starter that takes part in no
// composition, before the Unicode 17.0.0 check. (Unicode 17.0 added no
// composition, docs/text.md; the blocks are those new in 16.0 that hold
// letters or marks.)
func isNFCUnicode15(b []byte) bool {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if addedInUnicode16(r) {
			out = utf8.AppendRune(out, utf8.RuneError)
		} else {
			out = append(out, b[i:i+n]...)
		}
		i += n
	}
	return nfc17.IsNFC(out)
}

// addedInUnicode16 reports whether r is in a block first allocated in
// Unicode 16.0.
func addedInUnicode16(r rune) bool {
	for _, b := range [...][2]rune{
		{0x105C0, 0x105FF}, // Todhri
		{0x10D40, 0x10D8F}, // Garay
		{0x11380, 0x113FF}, // Tulu-Tigalari
		{0x116D0, 0x116FF}, // Myanmar Extended-C
		{0x11BC0, 0x11BFF}, // Sunuwar
		{0x13460, 0x143FF}, // Egyptian Hieroglyphs Extended-A
		{0x16100, 0x1613F}, // Gurung Khema
		{0x16D40, 0x16D7F}, // Kirat Rai
		{0x1CC00, 0x1CEBF}, // Symbols for Legacy Computing Supplement
		{0x1E5D0, 0x1E5FF}, // Ol Onal
	} {
		if b[0] <= r && r <= b[1] {
			return true
		}
	}
	return false
}

// quote renders s for a detail message, shortened to keep messages readable.
func quote(s string) string {
	const max = 80
	if len(s) > max {
		return strconv.Quote(s[:max]) + "..."
	}
	return strconv.Quote(s)
}

func byteName(c byte) string {
	switch c {
	case ' ':
		return "a space"
	case '\t':
		return "a tab"
	case ':':
		return "':'"
	}
	return strconv.QuoteRune(rune(c))
}
