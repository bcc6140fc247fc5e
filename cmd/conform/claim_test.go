package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/threespec/conformance/harness"
	"github.com/threespec/conformance/vectorset"
)

// writeClaim runs the hiverelay suite against conform serve with args and
// writes its claim to a file it returns; the run must pass, or with
// serveArgs (a fault) end with conformance failures.
func writeClaim(t *testing.T, serveArgs ...string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "claim.json")
	args := append([]string{"run", "-q", "--vectors", "../../vectors", "--suite", "hiverelay", "--claim", file, "--"}, serveArgv(serveArgs...)...)
	if code, out, errOut := conform(t, args...); code != 0 && (len(serveArgs) == 0 || code != harness.ExitFail) {
		t.Fatalf("conform run --claim: exit %d\n%s\n%s", code, out, errOut)
	}
	return file
}

// conform verify holds on the testee a claim was made of, and does not,
// naming the vectors, on a changed one; it refuses a claim of other set
// hashes, naming both, and a claim whose outcomes were changed after it
// was written (issue 32).
func TestClaimVerify(t *testing.T) {
	file := writeClaim(t)
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	claim, err := harness.ReadClaim(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	ixBytes, err := os.ReadFile("../../vectors/hiverelay.index.json")
	if err != nil {
		t.Fatal(err)
	}
	ix, err := vectorset.Parse(ixBytes, "hiverelay")
	if err != nil {
		t.Fatal(err)
	}
	n := len(ix.Vectors)
	if len(claim.Vectors) != n || claim.Header.SetHashes["hiverelay"] == "" || claim.Header.Implementation == nil ||
		claim.Header.Implementation.Data["unicode"] != "17.0.0" || strings.Join(claim.Header.Args, " ") != "--suite=hiverelay --vectors=../../vectors" {
		t.Fatalf("claim: %d vectors, header %+v", len(claim.Vectors), claim.Header)
	}
	verify := func(claimFile string, serveArgs ...string) (int, string, string) {
		return conform(t, append([]string{"verify", "-q", claimFile, "--"}, serveArgv(serveArgs...)...)...)
	}

	code, out, errOut := verify(file)
	if code != 0 || !strings.Contains(out, fmt.Sprintf("HOLDS: every one of the %d vectors", n)) {
		t.Errorf("verify against the same testee: exit %d\n%s%s", code, out, errOut)
	}

	code, out, _ = verify(file, "--fault", "HR-RCAP-03")
	if code != harness.ExitFail || !strings.Contains(out, "DOES NOT HOLD: ") ||
		!strings.Contains(out, "  hiverelay/negative/read-cell-cap-zero-relay-public-key: claimed pass, now fail (acceptance: ") {
		t.Errorf("verify against a testee with a fault: exit %d\n%s", code, out)
	}

	// Other set hashes: refused before the testee starts, naming both.
	other := filepath.Join(t.TempDir(), "other.json")
	here := claim.Header.SetHashes["hiverelay"]
	os.WriteFile(other, bytes.ReplaceAll(b, []byte(here), []byte(strings.Repeat("0", 64))), 0o644)
	code, _, errOut = verify(other)
	if code != harness.ExitSetup || !strings.Contains(errOut, "refused") || !strings.Contains(errOut, "hiverelay "+strings.Repeat("0", 64)) || !strings.Contains(errOut, "hiverelay "+here) {
		t.Errorf("verify of a claim of other set hashes: exit %d\n%s", code, errOut)
	}

	// An outcome changed by hand no longer gives the header's digest.
	edited := filepath.Join(t.TempDir(), "edited.json")
	os.WriteFile(edited, bytes.Replace(b, []byte(`"status":"pass"`), []byte(`"status":"fail"`), 1), 0o644)
	if code, _, errOut := verify(edited); code != harness.ExitSetup || !strings.Contains(errOut, "changed after it was written") {
		t.Errorf("verify of an edited claim: exit %d\n%s", code, errOut)
	}
}

// Claims of two implementations make one site (the reference and the
// reference with a rule switched off: its failing rule's cell links to
// the failing vector), and one Markdown summary.
func TestSiteOfTwoClaims(t *testing.T) {
	good, bad := writeClaim(t), writeClaim(t, "--fault", "HR-RCAP-03")
	dir := filepath.Join(t.TempDir(), "site")
	if code, out, errOut := conform(t, "site", good, bad, "-o", dir, "--vectors", "../../vectors"); code != 0 || !strings.Contains(out, "2 claims in "+dir) {
		t.Fatalf("conform site: exit %d\n%s%s", code, out, errOut)
	}
	matrix, err := os.ReadFile(filepath.Join(dir, "spec-hiverelay.html"))
	if err != nil {
		t.Fatal(err)
	}
	row := regexpFind(t, `<tr id="r-HR-RCAP-03"[^\n]*</tr>`, string(matrix))
	if !strings.Contains(row, `data-fail="threespec-reference-with-fault-hr-rcap-03-devel"`) ||
		!regexp.MustCompile(`<td class="cell v-fail" data-impl="threespec-reference-with-fault-hr-rcap-03-devel" title="[^"]*\b[1-9][0-9]* fail\b[^"]*"><a href="impl-threespec-reference-with-fault-hr-rcap-03-devel.html#s-HR-RCAP-03">FAIL</a></td>`).MatchString(row) {
		t.Errorf("the row of HR-RCAP-03:\n%s", row)
	}
	impl, _ := os.ReadFile(filepath.Join(dir, "impl-threespec-reference-with-fault-hr-rcap-03-devel.html"))
	if !strings.Contains(string(impl), `<section id="s-HR-RCAP-03" class="rule">`) || !strings.Contains(string(impl), "hiverelay/negative/read-cell-cap-zero-relay-public-key") {
		t.Error("the faulty implementation's page lacks the failing vector of HR-RCAP-03")
	}
	code, out, errOut := conform(t, "site", "--format", "markdown", good, bad)
	if code != 0 || strings.Count(out, "| hiverelay |") != 2 || !strings.Contains(out, "| threespec reference with fault HR-RCAP-03 (devel) | hiverelay |") {
		t.Errorf("conform site --format markdown: exit %d\n%s%s", code, out, errOut)
	}
}

func regexpFind(t *testing.T, re, s string) string {
	t.Helper()
	m := regexp.MustCompile(re).FindString(s)
	if m == "" {
		t.Fatalf("no match of %s", re)
	}
	return m
}
