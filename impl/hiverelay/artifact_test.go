package hiverelay

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"strings"
	"testing"

	"golang.org/x/crypto/blake2b"

	"github.com/threespec/conformance/impl/cenc"
	"github.com/threespec/conformance/impl/rules"
)

const (
	specPath   = "../../specs/hiverelay-blind-client-composition-v1.spec.md"
	specSHA256 = "c8b2941c96eaf3704ca1671973cf7436b832c659dac41f14811a0fc926af7c43"
	specLength = 7985
)

// The artifact embeds the exact file specs/README.md describes, and that file
// is the one in the tree (go test ./specs checks it against its upstream).
func TestSpecCopy(t *testing.T) {
	t.Parallel()
	s := Spec()
	sum := sha256.Sum256(s)
	if len(s) != specLength || hex.EncodeToString(sum[:]) != specSHA256 {
		t.Fatalf("spec copy: %d bytes, sha256 %x; want %d bytes, sha256 %s", len(s), sum, specLength, specSHA256)
	}
	disk, err := os.ReadFile(specPath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(disk, s) {
		t.Fatalf("the embedded spec differs from %s", specPath)
	}
}

// art hand-builds a format artifact from its section 4 fields.
func art(magic string, av, major, minor uint16, specLen, catLen uint64, rest ...[]byte) []byte {
	u16 := func(v uint16) []byte { return []byte{byte(v >> 8), byte(v)} }
	return cat([]byte(magic), u16(av), u16(major), u16(minor), u64be(specLen), u64be(catLen), cat(rest...))
}

func artOf(spec []byte, rest ...[]byte) []byte {
	return art(FormatMagic, 1, 1, 0, uint64(len(spec)), uint64(len(SchemaCatalog())), spec, SchemaCatalog(), cat(rest...))
}

func TestReferenceFormatArtifactLayout(t *testing.T) {
	t.Parallel()
	a := ReferenceFormatArtifact()
	want := cat([]byte("HRBCCF01"), []byte{0, 1, 0, 1, 0, 0}, u64be(specLength), u64be(1469), Spec(), SchemaCatalog())
	if !bytes.Equal(a, want) {
		t.Fatalf("reference artifact (%d bytes) differs from the section 4 layout (%d bytes)", len(a), len(want))
	}
	if len(a) != 30+specLength+1469 {
		t.Fatalf("artifact length %d", len(a))
	}
	fa, err := VerifyFormatArtifact(a)
	if err != nil || !bytes.Equal(fa.Spec, Spec()) || !bytes.Equal(fa.SchemaCatalog, SchemaCatalog()) || len(fa.Entries) != 6 {
		t.Fatalf("VerifyFormatArtifact: %v", err)
	}
}

// The two hash formulas, computed here over one concatenated buffer, with
// the domain strings taken from the spec text itself.
func TestAuthorityHashes(t *testing.T) {
	t.Parallel()
	for _, d := range []string{FormatHashDomain, VectorSetHashDomain} {
		if !bytes.Contains(Spec(), []byte(`ASCII("`+d+`")`)) {
			t.Fatalf("domain %q is not the spec's", d)
		}
	}
	formula := func(domain string, b []byte) [32]byte {
		return blake2b.Sum256(cat([]byte(domain), u64be(uint64(len(b))), b))
	}
	for _, b := range [][]byte{nil, []byte("x"), ReferenceFormatArtifact()} {
		if FormatHash(b) != formula(FormatHashDomain, b) {
			t.Fatalf("FormatHash of %d bytes", len(b))
		}
		if VectorSetHash(b) != formula(VectorSetHashDomain, b) {
			t.Fatalf("VectorSetHash of %d bytes", len(b))
		}
	}
	if FormatHash(nil) == VectorSetHash(nil) {
		t.Fatal("the two domains must separate the hashes")
	}
}

func TestVerifyFormatArtifactAccepts(t *testing.T) {
	t.Parallel()
	for _, spec := range [][]byte{
		[]byte("\n"),
		[]byte("x\n"),
		[]byte("é ü 🖧\n"),
		[]byte("a\n\nb\n"),
		cat(fillN('a', MaxSectionLength-1), b1('\n')), // exactly 1 MiB
	} {
		a := artOf(spec)
		if _, err := VerifyFormatArtifact(a); err != nil {
			t.Errorf("spec of %d bytes: %v", len(spec), err)
		}
		if b, err := BuildFormatArtifact(spec, SchemaCatalog()); err != nil || !bytes.Equal(b, a) {
			t.Errorf("BuildFormatArtifact(%d bytes): %v", len(spec), err)
		}
	}
}

func artifactRejectCases() []rejectCase {
	spec := []byte("spec\n")
	catalog := SchemaCatalog()
	n := uint64(len(catalog))
	catAt := int64(formatHeader + len(spec))
	badCatalog := bytes.Clone(catalog)
	badCatalog[1] = 1 // first entry's category
	ok := func(s []byte) []byte { return artOf(s) }
	return []rejectCase{
		{"empty", "", 0, nil, cenc.RuleTruncated, 0, "magic"},
		{"header cut in a length", "", 0, ok(spec)[:20], cenc.RuleTruncated, 14, "specLength"},
		{"magic HRBCCF02", "", 0, art("HRBCCF02", 1, 1, 0, 5, n, spec, catalog), RuleFmtMagic, 0, "magic"},
		{"magic lower case", "", 0, art("hrbccf01", 1, 1, 0, 5, n, spec, catalog), RuleFmtMagic, 0, "magic"},
		{"authorityVersion 2", "", 0, art(FormatMagic, 2, 1, 0, 5, n, spec, catalog), RuleFmtAuthority, 8, "authorityVersion"},
		{"authorityVersion 0", "", 0, art(FormatMagic, 0, 1, 0, 5, n, spec, catalog), RuleFmtAuthority, 8, "authorityVersion"},
		{"formatMajor 2", "", 0, art(FormatMagic, 1, 2, 0, 5, n, spec, catalog), RuleFmtMajor, 10, "formatMajor"},
		{"formatMinor 1", "", 0, art(FormatMagic, 1, 1, 1, 5, n, spec, catalog), RuleFmtMinor, 12, "formatMinor"},
		{"specLength 0", "", 0, art(FormatMagic, 1, 1, 0, 0, n, catalog), RuleFmtSpecEmpty, 14, "specLength"},
		{"specLength 1 MiB + 1", "", 0, art(FormatMagic, 1, 1, 0, MaxSectionLength+1, n, spec, catalog), RuleFmtSpecMax, 14, "specLength"},
		{"specLength 2^64-1", "", 0, art(FormatMagic, 1, 1, 0, ^uint64(0), n, spec, catalog), RuleFmtSpecMax, 14, "specLength"},
		{"schemaCatalogLength 0", "", 0, art(FormatMagic, 1, 1, 0, 5, 0, spec), RuleFmtCatalogEmpty, 22, "schemaCatalogLength"},
		{"schemaCatalogLength 1 MiB + 1", "", 0, art(FormatMagic, 1, 1, 0, 5, MaxSectionLength+1, spec, catalog), RuleFmtCatalogMax, 22, "schemaCatalogLength"},
		{"specLength beyond input", "", 0, art(FormatMagic, 1, 1, 0, 1000, 1, spec), cenc.RuleTruncated, formatHeader, "specBytes"},
		{"catalog beyond input", "", 0, ok(spec)[:len(ok(spec))-1], cenc.RuleTruncated, catAt, "schemaCatalogBytes"},
		{"CR LF", "", 0, ok([]byte("a\r\n")), RuleFmtSpecCR, formatHeader + 1, "specBytes"},
		{"NUL", "", 0, ok([]byte("a\x00b\n")), RuleFmtSpecNUL, formatHeader + 1, "specBytes"},
		{"BOM at start", "", 0, ok([]byte("\ufeffspec\n")), RuleFmtSpecBOM, formatHeader, "specBytes"},
		{"overlong UTF-8", "", 0, ok([]byte("a\xc0\xafb\n")), RuleFmtSpecUTF8, formatHeader + 1, "specBytes"},
		{"surrogate", "", 0, ok([]byte("\xed\xa0\x80\n")), RuleFmtSpecUTF8, formatHeader, "specBytes"},
		{"Latin-1 byte", "", 0, ok([]byte("caf\xe9\n")), RuleFmtSpecUTF8, formatHeader + 3, "specBytes"},
		{"no final LF", "", 0, ok([]byte("spec")), RuleFmtSpecFinalLF, formatHeader + 3, "specBytes"},
		{"two final LFs", "", 0, ok([]byte("spec\n\n")), RuleFmtSpecFinalLF, formatHeader + 5, "specBytes"},
		{"lone LF twice", "", 0, ok([]byte("\n\n")), RuleFmtSpecFinalLF, formatHeader + 1, "specBytes"},
		{"catalog with category 1", "", 0, art(FormatMagic, 1, 1, 0, 5, n, spec, badCatalog), RuleCatalogCategory, catAt + 1, "schemaCatalogBytes.entries[0].category"},
		{"catalog of five entries", "", 0, art(FormatMagic, 1, 1, 0, 5, 1, spec, b1(5)), RuleCatalogEntryCount, catAt, "schemaCatalogBytes.entries"},
		{"trailing byte", "", 0, artOf(spec, b1(0)), RuleFmtTrailing, catAt + int64(n), "end"},
	}
}

func TestVerifyFormatArtifactRejects(t *testing.T) {
	t.Parallel()
	for _, tc := range artifactRejectCases() {
		t.Run(tc.name, func(t *testing.T) {
			_, err := VerifyFormatArtifact(tc.in)
			wantViolation(t, err, tc.rule, tc.off, tc.field)
			_, err = VerifyFormatArtifactWith(faults(tc.rule), tc.in)
			if rules.RuleOf(err) == tc.rule {
				t.Fatalf("still %s with the rule switched off", tc.rule)
			}
		})
	}
}

func TestBuildFormatArtifactRefuses(t *testing.T) {
	t.Parallel()
	if _, err := BuildFormatArtifact(nil, SchemaCatalog()); rules.RuleOf(err) != RuleFmtSpecEmpty {
		t.Fatalf("empty spec: %v", err)
	}
	if _, err := BuildFormatArtifact([]byte("a\r\n"), SchemaCatalog()); rules.RuleOf(err) != RuleFmtSpecCR {
		t.Fatalf("CR spec: %v", err)
	}
	if _, err := BuildFormatArtifact(Spec(), []byte{0}); rules.RuleOf(err) != RuleCatalogEntryCount {
		t.Fatalf("empty catalog: %v", err)
	}
	if !strings.HasSuffix(string(Spec()), "component.\n") {
		t.Fatal("the spec ends with one LF after its last sentence")
	}
}

// HiveRelay's exact spec is 7,985 bytes, LF only, one final LF (its format
// artifact depends on every byte).
func TestHiveRelayExactBytes(t *testing.T) {
	b := Spec()
	if len(b) != 7985 || bytes.IndexByte(b, '\r') >= 0 || !bytes.HasSuffix(b, []byte("\n")) || bytes.HasSuffix(b, []byte("\n\n")) {
		t.Fatalf("HiveRelay spec: %d bytes, CR %v, final LF %v", len(b), bytes.IndexByte(b, '\r') >= 0, bytes.HasSuffix(b, []byte("\n")))
	}
}

// The readings of section 4 (docs/READINGS.md), each alternative taken
// through rules.Checks: HR-READ-01 (any-conforming-artifact or
// exact-authority-bytes), HR-READ-04 (closed-and-sorted or
// derived-from-declaration) and HR-READ-19 (leading-bom-only or
// feff-anywhere).
func TestFormatReadings(t *testing.T) {
	t.Parallel()
	feff := artOf([]byte("sp\ufeffec\n"))
	single := artOf([]byte("\n"))
	entries := SchemaCatalogEntries()
	entries[0].Dependencies = append([]string(nil), Schemas[1:]...)
	catalog, err := EncodeSchemaCatalog(entries)
	if err != nil {
		t.Fatal(err)
	}
	fiveDeps := art(FormatMagic, 1, 1, 0, uint64(len(Spec())), uint64(len(catalog)), Spec(), catalog)
	for _, tc := range []struct {
		name string
		in   []byte
		c    rules.Checks
		want rules.ID // "" when accepted
	}{
		{"U+FEFF inside, default", feff, rules.Checks{}, ""},
		{"U+FEFF inside, " + AltFEFFAnywhere, feff, takes(ReadBOMAnywhere, AltFEFFAnywhere), RuleFmtSpecBOM},
		{"a spec of one LF, default", single, rules.Checks{}, ""},
		{"a spec of one LF, " + AltExactAuthorityBytes, single, takes(ReadSpecText, AltExactAuthorityBytes), RuleFmtSpecExact},
		{"the reference artifact, " + AltExactAuthorityBytes, ReferenceFormatArtifact(), takes(ReadSpecText, AltExactAuthorityBytes), ""},
		{"five dependencies, default", fiveDeps, rules.Checks{}, ""},
		{"five dependencies, " + AltExactAuthorityBytes, fiveDeps, takes(ReadSpecText, AltExactAuthorityBytes), RuleFmtSpecExact},
		{"five dependencies, " + AltDepsFromDeclaration, fiveDeps, takes(ReadCatalogDeps, AltDepsFromDeclaration), RuleCatalogDepsClosed},
		{"the reference artifact, " + AltDepsFromDeclaration, ReferenceFormatArtifact(), takes(ReadCatalogDeps, AltDepsFromDeclaration), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := VerifyFormatArtifactWith(tc.c, tc.in)
			if rules.RuleOf(err) != tc.want || (tc.want == "" && err != nil) {
				t.Fatalf("VerifyFormatArtifactWith = %v, want rule %q", err, tc.want)
			}
		})
	}
}
