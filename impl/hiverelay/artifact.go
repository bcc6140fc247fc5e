package hiverelay

import (
	"bytes"
	_ "embed"
	"encoding/binary"
	"errors"

	"golang.org/x/crypto/blake2b"

	"github.com/threespec/conformance/impl/cenc"
	"github.com/threespec/conformance/impl/nfc17"
	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/specs"
)

// The format artifact of section 4.
const (
	FormatArtifactFile = "hiverelay-blind-client-composition-format-v1.cenc"
	FormatMagic        = "HRBCCF01"
	AuthorityVersion   = 1
	FormatMajor        = 1
	FormatMinor        = 0
	// MaxSectionLength bounds specLength and schemaCatalogLength: 1 MiB.
	MaxSectionLength = 1 << 20
	// formatHeader is magic, three u16be versions and two u64be lengths.
	formatHeader = 8 + 2 + 2 + 2 + 8 + 8
)

// Domain strings of the two authority hashes (sections 4 and 5).
const (
	FormatHashDomain    = "hiverelay.blind.client-composition-format-hash.v1"
	VectorSetHashDomain = "hiverelay.blind.client-composition-vector-set-hash.v1"
)

// SpecFile is the name of the specification whose exact bytes the format
// artifact embeds.
const SpecFile = "hiverelay-blind-client-composition-v1.spec.md"

// Spec returns the exact specification bytes the format artifact embeds
// (section 4, HR-FMT-17): the project's one copy,
// specs/hiverelay-blind-client-composition-v1.spec.md, 7985 bytes, SHA-256
// c8b2941c96eaf3704ca1671973cf7436b832c659dac41f14811a0fc926af7c43. The
// caller must not modify them.
func Spec() []byte { return specs.Text(SpecFile) }

// LossyFile is the lossy copy in specs/ of a whole format artifact, whose
// six declarations are still readable (specs/README.md).
const LossyFile = "hiverelay-blind-client-composition-v1.lossy.txt"

// FormatArtifact is a verified format artifact's content. Its byte slices
// alias the verified input.
type FormatArtifact struct {
	Spec          []byte
	SchemaCatalog []byte
	Entries       []CatalogEntry
}

// BuildFormatArtifact writes the format artifact of section 4 around spec and
// catalog, and refuses inputs that VerifyFormatArtifact would reject.
func BuildFormatArtifact(spec, catalog []byte) ([]byte, error) {
	return buildFormatArtifact(rules.Checks{}, spec, catalog)
}

func buildFormatArtifact(c rules.Checks, spec, catalog []byte) ([]byte, error) {
	out := rawArtifact(c, spec, catalog)
	if _, err := VerifyFormatArtifactWith(c, out); err != nil {
		return nil, err
	}
	return out, nil
}

func rawArtifact(c rules.Checks, spec, catalog []byte) []byte {
	e := cenc.NewEncoder(c, formatHeader+len(spec)+len(catalog))
	e.Raw([]byte(FormatMagic))
	e.U16(AuthorityVersion)
	e.U16(FormatMajor)
	e.U16(FormatMinor)
	// HR-FMT-01: specLength, then schemaCatalogLength (swapped under its
	// fault injection, as VerifyFormatArtifact then reads them).
	if e.Enforced(RuleFmtLayout) {
		e.U64(uint64(len(spec)))
		e.U64(uint64(len(catalog)))
	} else {
		e.U64(uint64(len(catalog)))
		e.U64(uint64(len(spec)))
	}
	e.Raw(spec)
	e.Raw(catalog)
	return e.Bytes()
}

var generatedArtifact = cached(func(c rules.Checks) ([]byte, error) {
	return rawArtifact(c, Spec(), schemaCatalog(c)), nil
})

// ReferenceFormatArtifact returns the authority's format artifact: the
// embedded spec and the generated schema catalog (tests check that it
// verifies). The caller must not modify it.
func ReferenceFormatArtifact() []byte { return referenceFormatArtifact(rules.Checks{}) }

// referenceFormatArtifact is ReferenceFormatArtifact generated under c.
func referenceFormatArtifact(c rules.Checks) []byte {
	b, _ := generatedArtifact(c)
	return b
}

// VerifyFormatArtifact checks every rule section 4 places on a format
// artifact and returns its content: magic and versions, nonzero lengths of at
// most 1 MiB that fit the input, spec bytes that are strict UTF-8 with LF
// only, no BOM or NUL and exactly one final LF, a catalog that decodes to the
// six entries, and no trailing bytes. It does not require the spec bytes to
// be this authority's own (compare FormatHash for that).
//
// It enforces every rule and takes every default reading; VerifyFormatArtifactWith
// carries a rules.Checks.
func VerifyFormatArtifact(b []byte) (FormatArtifact, error) {
	return VerifyFormatArtifactWith(rules.Checks{}, b)
}

// VerifyFormatArtifactWith is VerifyFormatArtifact under c.
func VerifyFormatArtifactWith(c rules.Checks, b []byte) (FormatArtifact, error) {
	var out FormatArtifact
	d := cenc.NewDecoder(c, b)
	magic, err := d.Raw("magic", uint64(len(FormatMagic)))
	if err != nil {
		return out, err
	}
	if string(magic) != FormatMagic && d.Rejects(RuleFmtMagic) {
		// Section 4, HR-FMT-02.
		return out, d.Fail(RuleFmtMagic, 0, "magic", "%q is not %q", magic, FormatMagic)
	}
	versions := [3]struct {
		field string
		want  uint16
		rule  rules.ID
	}{
		{"authorityVersion", AuthorityVersion, RuleFmtAuthority}, // HR-FMT-03
		{"formatMajor", FormatMajor, RuleFmtMajor},               // HR-FMT-04
		{"formatMinor", FormatMinor, RuleFmtMinor},               // HR-FMT-05
	}
	for _, v := range versions {
		at := d.Offset()
		got, err := d.U16(v.field)
		if err != nil {
			return out, err
		}
		if got != v.want && d.Rejects(v.rule) {
			return out, d.Fail(v.rule, at, v.field, "%d, want %d", got, v.want)
		}
	}
	// Section 4, HR-FMT-01: specLength, then schemaCatalogLength. Under its
	// fault injection the two are read the other way round.
	lengths := [2]struct {
		field           string
		empty, tooLarge rules.ID
	}{{"specLength", RuleFmtSpecEmpty, RuleFmtSpecMax}, {"schemaCatalogLength", RuleFmtCatalogEmpty, RuleFmtCatalogMax}}
	if !d.Enforced(RuleFmtLayout) {
		lengths[0], lengths[1] = lengths[1], lengths[0]
	}
	var n [2]uint64
	for i, l := range lengths {
		if n[i], err = sectionLength(&d, l.field, l.empty, l.tooLarge); err != nil {
			return out, err
		}
	}
	specLen, catLen := n[0], n[1]
	if !d.Enforced(RuleFmtLayout) {
		specLen, catLen = n[1], n[0]
	}
	specAt := d.Offset()
	// Section 2, HR-CENC-11: the lengths must fit the input.
	if out.Spec, err = d.Raw("specBytes", specLen); err != nil {
		return out, err
	}
	catAt := d.Offset()
	if out.SchemaCatalog, err = d.Raw("schemaCatalogBytes", catLen); err != nil {
		return out, err
	}
	if err := checkSpecText(&d, specAt, out.Spec); err != nil {
		return out, err
	}
	// Section 4, HR-FMT-15: the catalog decodes canonically to the six entries.
	if out.Entries, err = decodeAll(c, out.SchemaCatalog, decodeCatalog); err != nil {
		return out, within(err, int64(catAt), "schemaCatalogBytes.")
	}
	// Section 4, HR-FMT-16: trailing bytes fail closed.
	if err := d.End(RuleFmtTrailing); err != nil {
		return out, err
	}
	// Reading HR-READ-01: under exact-authority-bytes only this
	// authority's spec file and catalog are a format artifact (HR-FMT-17),
	// checked after every structural rule.
	if c.Takes(ReadSpecText, AltExactAuthorityBytes) && c.Enforced(RuleFmtSpecExact) {
		if err := exactAuthority(c, out, specAt, catAt); err != nil {
			return out, err
		}
	}
	return out, nil
}

// exactAuthority fails unless the artifact's spec bytes are this spec file
// and its catalog the authority's own (reading HR-READ-01,
// exact-authority-bytes).
func exactAuthority(c rules.Checks, fa FormatArtifact, specAt, catAt int) error {
	for _, part := range []struct {
		name      string
		got, want []byte
		at        int
	}{{"specBytes", fa.Spec, Spec(), specAt}, {"schemaCatalogBytes", fa.SchemaCatalog, schemaCatalog(c), catAt}} {
		if !bytes.Equal(part.got, part.want) {
			i := firstDifference(part.got, part.want)
			return rules.Fail(RuleFmtSpecExact, cenc.Code, int64(part.at+i), "%s: %d bytes that are not the authority's %d (first difference at byte %d; reading %s %s)",
				part.name, len(part.got), len(part.want), i, ReadSpecText, AltExactAuthorityBytes)
		}
	}
	return nil
}

// firstDifference is the first index at which a and b differ (the shorter
// length when one is a prefix of the other).
func firstDifference(a, b []byte) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}

// sectionLength reads a u64be section length that must be 1..1 MiB.
func sectionLength(d *cenc.Decoder, field string, emptyRule, maxRule rules.ID) (uint64, error) {
	at := d.Offset()
	n, err := d.U64(field)
	if err != nil {
		return 0, err
	}
	switch {
	case n == 0 && d.Rejects(emptyRule):
		err = d.Fail(emptyRule, at, field, "is zero; it must be nonzero")
	case n > MaxSectionLength && d.Rejects(maxRule):
		err = d.Fail(maxRule, at, field, "%d exceeds 1 MiB (%d)", n, MaxSectionLength)
	}
	return n, err
}

// checkSpecText checks the spec bytes (section 4, HR-FMT-10..14); at is
// their offset in the artifact.
func checkSpecText(d *cenc.Decoder, at int, spec []byte) error {
	// HR-FMT-10 (LF only) and HR-FMT-12 (no NUL): the first CR or NUL byte
	// fails, by its rule.
	cr, nul := -1, -1
	if d.Rejects(RuleFmtSpecCR) {
		cr = bytes.IndexByte(spec, '\r')
	}
	if d.Rejects(RuleFmtSpecNUL) {
		nul = bytes.IndexByte(spec, 0)
	}
	switch {
	case cr >= 0 && (nul < 0 || cr < nul):
		return d.Fail(RuleFmtSpecCR, at+cr, "specBytes", "CR byte; spec bytes use LF only")
	case nul >= 0:
		return d.Fail(RuleFmtSpecNUL, at+nul, "specBytes", "NUL byte")
	}
	if e := nfc17.CheckUTF8(spec); e != nil && d.Rejects(RuleFmtSpecUTF8) {
		// HR-FMT-13: strict UTF-8.
		return d.Fail(RuleFmtSpecUTF8, at+e.Offset, "specBytes", "%s", e.Reason)
	}
	// HR-FMT-11: no byte order mark, which is U+FEFF at the start of the
	// text; reading HR-READ-19: under feff-anywhere, U+FEFF anywhere.
	bomEnd := min(3, len(spec))
	if d.Mutated(MutSpecBOMAnywhere) || d.Checks().Takes(ReadBOMAnywhere, AltFEFFAnywhere) {
		bomEnd = len(spec)
	}
	if i := bytes.Index(spec[:bomEnd], []byte("\ufeff")); i >= 0 && d.Rejects(RuleFmtSpecBOM) {
		return d.Fail(RuleFmtSpecBOM, at+i, "specBytes", "byte order mark U+FEFF")
	}
	n := len(spec)
	switch {
	case !d.Rejects(RuleFmtSpecFinalLF):
		// Fault: the final LF is not checked.
	case n == 0:
		// Reached only when HR-FMT-06 is switched off by fault injection:
		// empty spec bytes have no final LF, so HR-FMT-14 rejects them (the
		// subsumption that makes HR-FMT-06 untestable).
		return d.Fail(RuleFmtSpecFinalLF, at, "specBytes", "empty; it must end with exactly one LF")
	case spec[n-1] != '\n':
		// HR-FMT-14: exactly one final LF.
		return d.Fail(RuleFmtSpecFinalLF, at+n-1, "specBytes", "does not end with LF")
	case n >= 2 && spec[n-2] == '\n' && !d.Mutated(MutSpecFinalLFLastByte):
		return d.Fail(RuleFmtSpecFinalLF, at+n-1, "specBytes", "ends with more than one LF")
	}
	return nil
}

// within moves a violation found in a part of a larger input to that input's
// frame: its offset is shifted by base and its detail prefixed.
func within(err error, base int64, prefix string) error {
	var v *rules.Violation
	if errors.As(err, &v) {
		w := *v
		if w.Offset >= 0 {
			w.Offset += base
		}
		w.Detail = prefix + w.Detail
		return &w
	}
	return err
}

// domainHash is BLAKE2b-256(ASCII(domain) || U64BE(len(b)) || b), the shape of
// both authority hashes (under c, whose mutant may leave the length out).
func domainHash(c rules.Checks, domain string, b []byte) [32]byte {
	h, _ := blake2b.New256(nil)
	h.Write([]byte(domain))
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(b)))
	if !c.Mutated(MutHashWithoutLength) {
		h.Write(n[:])
	}
	h.Write(b)
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// FormatHash returns clientCompositionFormatHash of a complete format
// artifact (section 4, HR-FMT-18), enforcing every rule (FormatHashWith
// carries a rules.Checks).
func FormatHash(artifact []byte) [32]byte { return FormatHashWith(rules.Checks{}, artifact) }

// FormatHashWith is FormatHash under c.
func FormatHashWith(c rules.Checks, artifact []byte) [32]byte {
	if !c.Enforced(RuleFmtHash) {
		// Fault: the other hash's domain string.
		return domainHash(c, VectorSetHashDomain, artifact)
	}
	return domainHash(c, FormatHashDomain, artifact)
}

// VectorSetHash returns clientCompositionVectorSetHash of a complete vector
// manifest (section 5, HR-VEC-09), enforcing every rule
// (VectorSetHashWith carries a rules.Checks).
func VectorSetHash(manifest []byte) [32]byte { return VectorSetHashWith(rules.Checks{}, manifest) }

// VectorSetHashWith is VectorSetHash under c.
func VectorSetHashWith(c rules.Checks, manifest []byte) [32]byte {
	if !c.Enforced(RuleVecSetHash) {
		// Fault: the other hash's domain string.
		return domainHash(c, FormatHashDomain, manifest)
	}
	return domainHash(c, VectorSetHashDomain, manifest)
}
