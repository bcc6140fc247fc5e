package harness

import (
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"golang.org/x/crypto/blake2b"

	"github.com/threespec/conformance/testee"
)

// Header pins a run (issue 32): what was run (the suites' set hashes, the
// flags that chose and judged the vectors), by which conform (its module
// version and VCS revision), against which implementation (hello's
// implementation block, the command, what it declared), when, and what
// came of it (ResultsDigest). Every report opens with it: the JSON
// report's "header", the human report's first lines, JUnit properties; a
// conformance claim (Claim) carries it.
type Header struct {
	// SetHashes are the selected suites' set hashes, by suite name.
	SetHashes map[string]string `json:"set_hashes"`
	Conform   testee.Build      `json:"conform"`
	// Args are the flags of the run that choose and judge its vectors
	// (selection, policy, mode, timeouts, expected failures), as given;
	// conform verify runs them again. The report flags are left out.
	Args []string `json:"args,omitempty"`
	// Command is the testee's command line; Mode "persistent" or "one-shot".
	Command []string `json:"command"`
	Mode    string   `json:"mode,omitempty"`
	// Implementation is hello's implementation block, or a block holding
	// only the name when hello gave free text; nil when it gave nothing.
	Implementation *testee.ImplementationInfo `json:"implementation,omitempty"`
	// Ops, Capabilities, Profiles and Readings are what hello declared
	// (Ops nil when it answered hello unsupported: every operation).
	Ops          []string          `json:"ops"`
	Capabilities []string          `json:"capabilities"`
	Profiles     []string          `json:"profiles"`
	Readings     map[string]string `json:"readings"`
	Policy       Policy            `json:"policy"`
	Started      time.Time         `json:"started"`
	Ended        time.Time         `json:"ended"`
	// ResultsDigest is BLAKE2b-256, in hex, over one line per selected
	// vector in report order, "ID TAB status TAB answer digest LF"
	// (VectorResult.AnswerDigest, empty when nothing was answered).
	ResultsDigest string `json:"results_digest"`
}

// ConformBuild returns the build of the running conform.
func ConformBuild() testee.Build { return testee.ReadBuild() }

// answerDigest is the digest of an answer: BLAKE2b-256, in hex, over its
// outcome, code and rule (each ending in LF) and its result's JSON text
// without the white space between tokens. The detail is left out (free
// text: a testee may put a temporary path in it); the result is hashed in
// the member order the testee sent, so that the digest costs one pass and
// no memory of its own over a result of any size.
func answerDigest(resp testee.Response) string {
	h, _ := blake2b.New256(nil)
	io.WriteString(h, resp.Outcome.String()+"\n"+resp.Code+"\n"+resp.Rule+"\n")
	if resp.Outcome == testee.Accepted {
		compactInto(h, resp.Result)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// compactInto writes the JSON text b to w without the white space outside
// its strings (what json.Compact gives), a block at a time.
func compactInto(w io.Writer, b []byte) {
	var buf [4096]byte
	n := 0
	inString, escaped := false, false
	for _, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			continue
		}
		buf[n] = c
		if n++; n == len(buf) {
			w.Write(buf[:n])
			n = 0
		}
	}
	w.Write(buf[:n])
}

// ResultsDigest is the digest of a run's outcomes (Header.ResultsDigest).
func ResultsDigest(vs []*VectorResult) string {
	h, _ := blake2b.New256(nil)
	for _, v := range vs {
		fmt.Fprintf(h, "%s\t%s\t%s\n", v.ID, v.Status, v.AnswerDigest)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// header builds the report's Header once the run ended.
func (r *Report) header(args []string, ended time.Time) *Header {
	h := &Header{
		SetHashes: map[string]string{}, Conform: ConformBuild(), Args: args,
		Command: r.Testee.Command, Mode: r.Testee.Mode, Implementation: r.Testee.Info,
		Ops: r.Testee.Ops, Capabilities: r.Testee.Capabilities, Profiles: r.Testee.Profiles, Readings: r.Testee.Readings,
		Policy: r.Policy, Started: r.Started, Ended: ended.UTC(), ResultsDigest: ResultsDigest(r.Vectors),
	}
	if h.Implementation == nil && r.Testee.Implementation != "" {
		h.Implementation = &testee.ImplementationInfo{Name: r.Testee.Implementation}
	}
	for _, s := range r.Suites {
		h.SetHashes[s.Name] = s.SetHash
	}
	return h
}

// setHashesText renders set hashes as "lace SETHASH, hiverelay SETHASH" in
// name order.
func setHashesText(m map[string]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, k+" "+m[k])
	}
	return strings.Join(parts, ", ")
}

// implementationText renders an implementation block on one line, with
// its source, homepage and data versions.
func implementationText(i *testee.ImplementationInfo) string {
	if i == nil {
		return "(hello names none)"
	}
	if x := implementationExtras(i); x != "" {
		return i.String() + "; " + x
	}
	return i.String()
}

// implementationExtras is what an implementation block says beyond its
// one-line name (ImplementationInfo.String): source, homepage, data
// versions; "" when it says nothing more.
func implementationExtras(i *testee.ImplementationInfo) string {
	var parts []string
	if i.Source != "" {
		parts = append(parts, "source "+i.Source)
	}
	if i.Homepage != "" {
		parts = append(parts, "homepage "+i.Homepage)
	}
	if len(i.Data) > 0 {
		var ds []string
		for _, k := range slices.Sorted(maps.Keys(i.Data)) {
			ds = append(ds, k+" "+i.Data[k])
		}
		parts = append(parts, "data "+strings.Join(ds, ", "))
	}
	return strings.Join(parts, "; ")
}
