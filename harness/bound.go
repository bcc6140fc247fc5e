package harness

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/threespec/conformance/testee"
	"github.com/threespec/conformance/vectorset"
)

// What a report keeps of a testee's text is bounded where it is stored
// (issue 30, item 3): a testee that answers every vector with a 10 MiB
// detail made a run of 75 vectors hold 6.97 GB and write two 786 MB
// reports. Each string that comes from a testee is cut to one of these
// lengths as it enters a VectorResult, a TesteeFailure or the TesteeInfo,
// so that a report holds at most a few KiB per vector whatever the testee
// sent; what was cut says how long it was.
const (
	maxName    = 200                 // a code, a rule, an operation, profile or capability, the implementation's name
	maxDetail  = 300                 // a detail or a result on one line (got, the reason a vector did not apply), a note
	maxFailure = 1 << 10             // a testee failure's detail (conform's words around an excerpt)
	maxReason  = vectorset.MaxReason // why a vector failed (a difference)
	maxStderr  = 4 << 10             // the tail of standard error kept with one vector's testee failure
	maxTail    = 64 << 10            // the tail of standard error the run keeps (of each process, under a line naming it)
	maxList    = 256                 // entries of a list from hello (ops, profiles, capabilities, limits)
)

// bound returns s cut to at most n bytes at a character boundary, with
// the length it had when it was cut.
func bound(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return cut(s, n) + fmt.Sprintf("... (%d bytes)", len(s))
}

// boundLine is bound(oneLine(s), n), without collapsing all of a long s.
func boundLine(s string, n int) string {
	t := oneLine(cut(s, 4*n))
	if len(t) <= n && len(s) <= 4*n {
		return t
	}
	return cut(t, n) + fmt.Sprintf("... (%d bytes)", len(s))
}

// cut returns the first bytes of s, at most n, ending at a character
// boundary.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// boundTail returns the last n bytes of s at most, from the start of a
// line where one starts in them, after a line saying how much was left
// out.
func boundTail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	t := s[len(s)-n:]
	if i := strings.IndexByte(t, '\n'); i >= 0 && i < len(t)-1 {
		t = t[i+1:]
	}
	for len(t) > 0 && !utf8.RuneStart(t[0]) {
		t = t[1:]
	}
	return fmt.Sprintf("... (%d earlier bytes)\n", len(s)-len(t)) + t
}

// boundList bounds each entry of l and their number.
func boundList(l []string) []string {
	if l == nil {
		return nil
	}
	out := make([]string, 0, min(len(l), maxList+1))
	for i, s := range l {
		if i == maxList {
			out = append(out, fmt.Sprintf("... (%d more)", len(l)-maxList))
			break
		}
		out = append(out, bound(s, maxName))
	}
	return out
}

// boundHello stores what a hello claims, bounded, in the report's
// TesteeInfo (the hello itself, which decides what applies, is kept as
// it came).
func boundHello(info *TesteeInfo, h *testee.Hello) {
	info.Implementation, info.HelloAnswered = bound(h.Implementation, maxName), !h.AllOps
	if i := h.Info; i != nil {
		b := &testee.ImplementationInfo{Name: bound(i.Name, maxName), Version: bound(i.Version, maxName), Language: bound(i.Language, maxName),
			Source: bound(i.Source, maxName), Homepage: bound(i.Homepage, maxName)}
		for k, v := range i.Data {
			if len(b.Data) == maxList {
				break
			}
			if b.Data == nil {
				b.Data = map[string]string{}
			}
			b.Data[bound(k, maxName)] = bound(v, maxName)
		}
		info.Info = b
	}
	info.Ops, info.Profiles, info.Capabilities = boundList(h.Ops), boundList(h.Profiles), boundList(h.Capabilities)
	if h.Limits != nil {
		info.Limits = map[string]json.RawMessage{}
		n := 0
		for k, v := range h.Limits {
			if n++; n > maxList {
				info.Limits["..."] = json.RawMessage(fmt.Sprintf(`"%d more limits"`, len(h.Limits)-maxList))
				break
			}
			if len(v) > maxName {
				v, _ = json.Marshal(bound(string(v), maxName))
			}
			info.Limits[bound(k, maxName)] = v
		}
	}
	if h.Readings != nil {
		info.Readings = map[string]string{}
		n := 0
		for k, v := range h.Readings {
			if n++; n > maxList {
				break
			}
			info.Readings[bound(k, maxName)] = bound(v, maxName)
		}
	}
}
