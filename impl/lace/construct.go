package lace

import (
	"slices"
	"strings"

	"github.com/threespec/conformance/impl/mark"
	"github.com/threespec/conformance/impl/rules"
)

// Spec is the input of the generic constructor (Lace-010, "Generic
// constructors select one record form"): data bytes, an ordered sequence of
// application field occurrences and optionally a By-secret.
type Spec struct {
	Data   []byte  // omitted data means empty bytes
	Fields []Field // in caller order; same-name order is kept
	Secret *[mark.KeySize]byte
	Aux    [mark.AuxSize]byte // auxRand32 for the Mark
	Scheme mark.Scheme        // nil means mark.BIP340Standin
}

// Construct builds the canonical record of s and returns its bytes and its
// parsed view (Record.Data aliases the returned bytes). The form follows the
// spec's table exactly:
//
//	empty specification               -> empty Blob
//	only data                         -> Blob
//	one or more fields                -> Plex
//	By-secret with no fields          -> error
//	By-secret plus one or more fields -> Seal over Plex
//
// Fields are validated by the same field-line rules as the parser, reserved
// names are rejected, and fields are sorted by name bytes, keeping caller
// order among same-name occurrences. Nothing is added to them.
//
// TRANSITIONAL (issue 16): it takes the process-global switches
// (rules.Current); callers that carry their own use ConstructWith.
func Construct(s Spec) ([]byte, *Record, error) { return ConstructWith(rules.Current(), s) }

// ConstructWith is Construct under the checks c: the rules it enforces and
// the mutants it carries (the zero Checks is the standard constructor).
func ConstructWith(c rules.Checks, s Spec) ([]byte, *Record, error) {
	if s.Data == nil && !c.Enforced(RuleCtorOmittedData) {
		return nil, nil, FaultError("no data given") // fault: omitted data refused
	}
	form, err := selectForm(c, s)
	if err != nil {
		return nil, nil, err
	}
	// Blob data does not exceed 32 MiB (LACE-BLOB-05).
	if len(s.Data) > maxData(c) && c.Enforced(RuleBlobMaxData) {
		return nil, nil, rules.Fail(RuleBlobMaxData, "", -1, "data is %d bytes, more than 32 MiB (%d bytes)", len(s.Data), MaxData)
	}
	var fields []Field
	if form != FormBlob {
		if fields, err = canonicalFields(c, s.Fields); err != nil {
			return nil, nil, err
		}
	}
	data := s.Data
	if data == nil {
		data = []byte{} // LACE-CTOR-06: omitted data means empty bytes
	}

	var by [mark.KeySize]byte
	var sign func([DigestSize]byte) ([mark.MarkSize]byte, error)
	scheme := s.Scheme
	if scheme == nil {
		scheme = mark.BIP340Standin
	}
	if form == FormSeal {
		// Derive By and the Mark from the By-secret (LACE-CTOR-10).
		if by, err = scheme.By(*s.Secret); err != nil {
			if c.Enforced(RuleCtorDeriveMark) {
				return nil, nil, rules.Fail(RuleCtorDeriveMark, "", -1, "By-secret: %v", err)
			}
			// Fault: a careless constructor signs with the unusable secret
			// anyway; the zero By and zero Mark make wrong bytes.
		}
		aux := s.Aux
		if !c.Enforced(RuleVecSealMark) {
			aux = [mark.AuxSize]byte{} // fault: the caller's auxRand32 ignored
		}
		sign = func(subject [DigestSize]byte) ([mark.MarkSize]byte, error) {
			m, err := scheme.Sign(*s.Secret, subject, aux)
			if err != nil && c.Enforced(RuleCtorDeriveMark) {
				return m, rules.Fail(RuleCtorDeriveMark, "", -1, "signing the Mark: %v", err)
			}
			return m, nil
		}
	}
	out, b, err := build(c, form, fields, data, by, [mark.MarkSize]byte{}, sign)
	if err != nil {
		return nil, nil, err
	}
	if !c.Enforced(RuleVecBlob) {
		out = append(out, '\n') // fault: a final LF written after the data
	}
	r := &Record{Form: form, Hash: b.hash, Fields: fields, Plex: b.plex, Blob: b.blob, By: by,
		Offset: 0, Size: len(out)}
	r.Data = out[b.dataAt : b.dataAt+len(data)]
	if form == FormSeal {
		r.Mark = b.mark
		r.MarkStatus = MarkFailed
		if scheme.Verify(by, b.subject, r.Mark) {
			r.MarkStatus = MarkVerified
		}
	}
	return out, r, nil
}

// selectForm applies the constructor table. Under fault injection a switched
// off row selects the form a careless constructor would.
func selectForm(c rules.Checks, s Spec) (Form, error) {
	hasFields, hasSecret := len(s.Fields) > 0, s.Secret != nil
	switch {
	case !hasFields && !hasSecret && len(s.Data) == 0:
		// Empty specification -> empty Blob (LACE-CTOR-01).
		if !c.Enforced(RuleCtorEmpty) {
			return 0, &rules.Violation{Rule: RuleCtorEmpty, Offset: -1, Detail: "fault: empty specification refused"}
		}
		return FormBlob, nil
	case !hasFields && !hasSecret:
		// Only data -> Blob (LACE-CTOR-02).
		if !c.Enforced(RuleCtorDataOnly) {
			return 0, &rules.Violation{Rule: RuleCtorDataOnly, Offset: -1, Detail: "fault: data without fields refused"}
		}
		return FormBlob, nil
	case !hasFields && hasSecret:
		// By-secret with no fields -> error (LACE-CTOR-04); a careless
		// constructor drops the secret and makes a Blob.
		if c.Enforced(RuleCtorSecretOnly) {
			return 0, rules.Fail(RuleCtorSecretOnly, "", -1, "a By-secret needs one or more fields: a Seal wraps a Plex, never a bare Blob")
		}
		return FormBlob, nil
	case !hasSecret:
		// One or more fields -> Plex (LACE-CTOR-03).
		if !c.Enforced(RuleCtorFields) {
			return FormBlob, nil
		}
		return FormPlex, nil
	default:
		// By-secret plus fields -> Seal over Plex (LACE-CTOR-05).
		if !c.Enforced(RuleCtorSeal) {
			return FormPlex, nil
		}
		return FormSeal, nil
	}
}

// canonicalFields validates the caller's fields and returns them in canonical
// order, leaving the caller's slice untouched.
func canonicalFields(c rules.Checks, in []Field) ([]Field, error) {
	fields := slices.Clone(in)
	if !c.Enforced(RuleFieldWhitespace) {
		// Fault: trim values, as a careless constructor would.
		for i := range fields {
			fields[i].Value = strings.TrimSpace(fields[i].Value)
		}
	}
	if !c.Enforced(RuleCtorNoInvented) {
		// Fault: manufacture a version field.
		fields = append(fields, Field{Name: "Version", Value: "1"})
	}
	// N is in 1..512 (LACE-PLEX-03).
	if len(fields) > MaxFields && c.Enforced(RulePlexMaxFields) {
		return nil, rules.Fail(RulePlexMaxFields, "", -1, "%d fields, more than %d", len(fields), MaxFields)
	}
	for i, f := range fields {
		if err := checkField(c, i, f); err != nil {
			return nil, err
		}
	}
	sortFields(c, fields)
	return fields, nil
}

// checkField validates one field occurrence by the parser's field-line rules
// (LACE-CTOR-08) and rejects reserved names (LACE-CTOR-09).
func checkField(c rules.Checks, i int, f Field) error {
	if !c.Enforced(RuleCtorValidate) {
		return nil
	}
	rep := func(id rules.ID, at int, format string, args ...any) error {
		return rules.Fail(id, "", -1, "field %d (%s: %s): "+format, append([]any{i, quote(f.Name), quote(f.Value)}, args...)...)
	}
	if err := checkName(c, []byte(f.Name), rep); err != nil {
		return err
	}
	if IsReservedName(f.Name) && c.Enforced(RuleCtorReserved) {
		return rules.Fail(RuleCtorReserved, "", -1, "field %d uses the reserved name %s", i, quote(f.Name))
	}
	if err := checkValue(c, []byte(f.Value), rep); err != nil {
		return err
	}
	return checkLength(c, []byte(f.Name), len(f.Name)+2+len(f.Value), rep)
}

// sortFields sorts by name bytes, keeping caller order among same names
// (LACE-PLEX-05, LACE-PLEX-06, LACE-PLEX-07); values take no part
// (LACE-PLEX-09). Each switched-off rule gives the wrong order it names.
func sortFields(c rules.Checks, fields []Field) {
	switch {
	case !c.Enforced(RulePlexSortNames):
		return // fault: caller order kept
	case !c.Enforced(RuleExNoValueSort):
		// Fault: complete lines sorted, as text.
		slices.SortStableFunc(fields, func(a, b Field) int {
			return strings.Compare(a.Name+": "+a.Value, b.Name+": "+b.Value)
		})
		return
	case c.Mutated(MutOrderCaseFold):
		slices.SortStableFunc(fields, func(a, b Field) int { return compareFold([]byte(a.Name), []byte(b.Name)) })
		return
	case !c.Enforced(RulePlexValuesUnsorted):
		// Fault: values take part in the order.
		slices.SortStableFunc(fields, func(a, b Field) int {
			if c := strings.Compare(a.Name, b.Name); c != 0 {
				return c
			}
			return strings.Compare(a.Value, b.Value)
		})
		return
	}
	slices.SortStableFunc(fields, func(a, b Field) int { return strings.Compare(a.Name, b.Name) })
	if !c.Enforced(RuleConvNoCtor) {
		// Fault: a constructor that applies the directory convention's
		// order (LACE-DIR-16/17) to File+Link and Child+Link runs, sorting
		// them by their link data, where the conventions change no generic
		// constructor rule (LACE-LINK-17).
		slices.SortStableFunc(fields, func(a, b Field) int {
			if c := strings.Compare(a.Name, b.Name); c != 0 || a.Name != "File+Link" && a.Name != "Child+Link" {
				return c
			}
			return strings.Compare(a.Value, b.Value)
		})
	}
	if !c.Enforced(RulePlexCtorOrder) || !c.Enforced(RulePlexSameName) {
		// Fault: same-name runs come out reversed.
		for i := 0; i < len(fields); {
			j := i + 1
			for j < len(fields) && fields[j].Name == fields[i].Name {
				j++
			}
			slices.Reverse(fields[i:j])
			i = j
		}
	}
}
