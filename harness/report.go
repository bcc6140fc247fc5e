package harness

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"time"
)

// WriteJSON writes the report as one JSON document (docs/CONFORM.md, "JSON
// report"), indented, with a final LF: the bytes json.Encoder gives the
// whole report, written a vector at a time, so that writing a report of
// any size holds one vector's encoding, not the document's (issue 30,
// item 3: a report of 786 MB was built in memory first).
func WriteJSON(w io.Writer, r *Report) error {
	head := *r
	head.Vectors = nil
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(&head); err != nil {
		return err
	}
	const marker = "\n  \"vectors\": null,\n" // a member at the top: a string's LF is escaped
	doc := buf.Bytes()
	at := bytes.Index(doc, []byte(marker))
	if at < 0 {
		return fmt.Errorf("writing the JSON report: no vectors member in %.200q", doc)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.Write(doc[:at])
	if r.Vectors == nil {
		bw.WriteString("\n  \"vectors\": null,\n")
	} else {
		bw.WriteString("\n  \"vectors\": [")
		var vb bytes.Buffer
		venc := json.NewEncoder(&vb)
		venc.SetEscapeHTML(false)
		venc.SetIndent("    ", "  ")
		for i, v := range r.Vectors {
			vb.Reset()
			if err := venc.Encode(v); err != nil {
				return err
			}
			if i > 0 {
				bw.WriteByte(',')
			}
			bw.WriteString("\n    ")
			bw.Write(bytes.TrimSuffix(vb.Bytes(), []byte("\n")))
		}
		if len(r.Vectors) > 0 {
			bw.WriteString("\n  ")
		}
		bw.WriteString("],\n")
	}
	bw.Write(doc[at+len(marker):])
	return bw.Flush()
}

// JUnit XML (the schema CI systems read: testsuites > testsuite > testcase).

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Properties []junitProperty `xml:"properties>property"`
	Cases      []junitCase     `xml:"testcase"`
	SystemErr  string          `xml:"system-err,omitempty"` // the testee's standard error tail (persistent mode)
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitMessage `xml:"failure"`
	Error     *junitMessage `xml:"error"`
	Skipped   *junitMessage `xml:"skipped"`
	SystemOut string        `xml:"system-out,omitempty"`
	SystemErr string        `xml:"system-err,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",chardata"`
}

// WriteJUnit writes the report as JUnit XML: one testsuite per vector suite
// (its properties name the set hash and the hashes of the suite's
// authority, where it has one), one testcase per selected vector (classname suite.op, name the
// vector ID). Failures and unexpected passes are <failure>; errors and
// vectors not run are <error>; vectors that do not apply and expected
// failures are <skipped> with the reason; a SHOULD-level failure is a
// passing testcase whose system-out starts with "WARNING".
func WriteJUnit(w io.Writer, r *Report) error {
	out := junitSuites{Name: "conform", Time: fmt.Sprintf("%.3f", r.Seconds)}
	idx := map[string]int{}
	for _, s := range r.Suites {
		js := junitSuite{Name: s.Name, Properties: []junitProperty{{"set-hash", s.SetHash}}}
		for _, h := range s.Authority {
			js.Properties = append(js.Properties, junitProperty{h.Name, h.Hex})
		}
		js.Properties = append(js.Properties, junitProperty{"testee", ShellJoin(r.Testee.Command)}, junitProperty{"mode", r.Testee.Mode})
		js.Properties = append(js.Properties, timeProperties(r)...)
		js.Properties = append(js.Properties, headerProperties(r.Header)...)
		js.Properties = append(js.Properties, junitProperty{"readings", declaredText(r)},
			junitProperty{"undeclared-readings", fmt.Sprint(r.Counts.Readings)},
			junitProperty{"passed-other-reason", fmt.Sprint(r.Counts.PassedOther)})
		if len(r.Testee.Exit) > 0 {
			var exits []string
			for _, e := range r.Testee.Exit {
				exits = append(exits, e.String())
			}
			js.Properties = append(js.Properties, junitProperty{"testee-exit", strings.Join(exits, "; ")})
		}
		js.SystemErr = r.Testee.StderrTail
		idx[s.Name] = len(out.Suites)
		out.Suites = append(out.Suites, js)
	}
	for _, v := range r.Vectors {
		c := junitCase{Name: v.ID, Classname: v.Suite + "." + v.Op, Time: fmt.Sprintf("%.3f", v.Millis/1000)}
		detail := caseDetail(v)
		switch v.Status {
		case Fail, XPass:
			typ := "conformance"
			if v.Failure != nil {
				typ = "testee-failure/" + v.Failure.Kind
			}
			c.Failure = &junitMessage{Message: firstLine(v.Reason), Type: typ, Text: detail}
		case Error, NotRun:
			c.Error = &junitMessage{Message: firstLine(v.Reason), Type: string(v.Status), Text: detail}
		case Reading:
			// Counted apart from MUST failures: the suite property
			// undeclared-readings, and the failure's type, say so.
			c.Failure = &junitMessage{Message: firstLine(v.Reason), Type: "undeclared-reading", Text: detail}
		case OtherReading:
			c.Skipped = &junitMessage{Message: "other reading: " + v.Reason}
		case NotApplicable:
			c.Skipped = &junitMessage{Message: "not applicable: " + v.Reason}
		case XFail:
			c.Skipped = &junitMessage{Message: "expected failure: " + v.ExpectedFailure, Text: detail}
		case Warn:
			c.SystemOut = "WARNING (SHOULD-level failure)\n" + detail
		case Pass, PassOther:
			if v.Status == PassOther {
				c.SystemOut = "PASSED, OTHER REASON: " + v.OtherReason + "\n"
			}
			if v.NotPreferred != "" {
				c.SystemOut += v.NotPreferred + "\n"
			}
		}
		if v.Failure != nil && v.Failure.Stderr != "" {
			c.SystemErr = v.Failure.Stderr
		}
		js := &out.Suites[idx[v.Suite]]
		js.Tests++
		switch {
		case c.Failure != nil:
			js.Failures++
		case c.Error != nil:
			js.Errors++
		case c.Skipped != nil:
			js.Skipped++
		}
		js.Cases = append(js.Cases, c)
	}
	for _, s := range out.Suites {
		out.Tests += s.Tests
		out.Failures += s.Failures
		out.Errors += s.Errors
		out.Skipped += s.Skipped
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// headerProperties are the JUnit properties of the run's Header (nil
// without one): conform's build, the implementation, what the testee
// declared, start, end and the results digest.
func headerProperties(h *Header) []junitProperty {
	if h == nil {
		return nil
	}
	ps := []junitProperty{
		{"conform-module", h.Conform.Module}, {"conform-version", h.Conform.Version},
		{"conform-revision", h.Conform.Revision}, {"conform-go", h.Conform.Go},
	}
	if h.Conform.Modified {
		ps = append(ps, junitProperty{"conform-modified", "true"})
	}
	if i := h.Implementation; i != nil {
		ps = append(ps, junitProperty{"implementation", implementationText(i)}, junitProperty{"implementation-name", i.Name},
			junitProperty{"implementation-version", i.Version})
	}
	ps = append(ps, junitProperty{"ops", strings.Join(h.Ops, ",")}, junitProperty{"capabilities", strings.Join(h.Capabilities, ",")},
		junitProperty{"profiles", strings.Join(h.Profiles, ",")}, junitProperty{"set-hashes", setHashesText(h.SetHashes)},
		junitProperty{"args", ShellJoin(h.Args)},
		junitProperty{"started", h.Started.Format(time.RFC3339Nano)}, junitProperty{"ended", h.Ended.Format(time.RFC3339Nano)},
		junitProperty{"results-digest", h.ResultsDigest})
	return ps
}

// caseDetail is the body of a failing testcase: the same lines as the human
// report's.
func caseDetail(v *VectorResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "vector:   %s %s %s (%d bytes)\nrules:    %s (%s)\n", v.Op, v.Args, v.Input, v.Size, citeRules(v), v.Level)
	if v.Decision != "" {
		fmt.Fprintf(&b, "decision: %s\n", v.Decision)
	}
	fmt.Fprintf(&b, "expected: %s\n", v.Expected)
	if v.Got != "" {
		fmt.Fprintf(&b, "got:      %s\n", v.Got)
	}
	if v.Reason != "" && v.Reason != v.Got {
		fmt.Fprintf(&b, "why:      %s\n", v.Reason)
	}
	if v.Show != "" {
		fmt.Fprintf(&b, "show:     %s\n", v.Show)
	}
	if v.Rerun != "" {
		fmt.Fprintf(&b, "rerun:    %s\n", v.Rerun)
	}
	return b.String()
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
