package reference_test

import (
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/threespec/conformance/impl/hiverelay/hivespec"
	"github.com/threespec/conformance/impl/lace/lacespec"
	"github.com/threespec/conformance/impl/libtracer/tracerspec"
	"github.com/threespec/conformance/internal/allspecs"
	"github.com/threespec/conformance/reference"
	"github.com/threespec/conformance/testee"
	"github.com/threespec/conformance/vectorset"
)

// protocolSections splits docs/PROTOCOL.md into the text documenting each
// operation: the section headed "### `op`" (hello: "## The handshake:
// `hello`"), and for the Lace operations also "### Lace arguments".
func protocolSections(t *testing.T) map[string]string {
	t.Helper()
	doc, err := os.ReadFile("../docs/PROTOCOL.md")
	if err != nil {
		t.Fatal(err)
	}
	heading := regexp.MustCompile("(?m)^(#{2,3}) (.*)$")
	op := regexp.MustCompile("`([a-z]+(?:\\.[a-z]+)?)`$")
	locs := heading.FindAllSubmatchIndex(doc, -1)
	out := map[string]string{}
	laceArgs := ""
	for i, l := range locs {
		end := len(doc)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		title, body := string(doc[l[4]:l[5]]), string(doc[l[1]:end])
		switch m := op.FindStringSubmatch(title); {
		case strings.HasPrefix(title, "Lace arguments"):
			laceArgs = body
		case m != nil && (m[1] == "hello" || strings.Contains(m[1], ".")):
			out[m[1]] = body
		}
	}
	if laceArgs == "" {
		t.Fatal(`docs/PROTOCOL.md has no section "### Lace arguments"`)
	}
	for name := range out {
		if strings.HasPrefix(name, "lace.") {
			out[name] += laceArgs
		}
	}
	return out
}

// memberPaths adds to out the path of every object member in v: "a.b" for
// member b of object a, "a[].b" for member b of each element of list a.
// Members of the objects named in maps (whose keys are data) and members
// whose name starts with "$" (the vector matchers) are not descended into.
func memberPaths(prefix string, v any, maps []string, out map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		if slices.Contains(maps, prefix) {
			return
		}
		for k, e := range x {
			if strings.HasPrefix(k, "$") {
				return
			}
			p := k
			if prefix != "" {
				p = prefix + "." + k
			}
			out[p] = true
			memberPaths(p, e, maps, out)
		}
	case []any:
		for _, e := range x {
			memberPaths(prefix+"[]", e, maps, out)
		}
	}
}

// TestProtocolDocumentsEveryMember: every operation the committed vectors
// use, every argument they pass, and every result member their expected
// results or the reference's answers to them hold, is named (in backquotes,
// by its path) in that operation's section of docs/PROTOCOL.md; so are the
// members of the JSON inputs of lace.construct and hiverelay.authority, the
// frame members of libtracer.encode's input (by name), and the members of
// the reference's hello result. A testee can then be written from
// PROTOCOL.md alone.
func TestProtocolDocumentsEveryMember(t *testing.T) {
	sections := protocolSections(t)
	impl := reference.New(allspecs.Set())
	type need struct{ what, path string }
	needs := map[string]map[need]string{} // op -> member -> a vector that uses it
	add := func(op, what string, paths map[string]bool, by string) {
		if needs[op] == nil {
			needs[op] = map[need]string{}
		}
		for p := range paths {
			if _, ok := needs[op][need{what, p}]; !ok {
				needs[op][need{what, p}] = by
			}
		}
	}
	decode := func(b []byte) any {
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, suite := range []string{"lace", "hiverelay", "libtracer"} {
		ix, err := vectorset.Load("../vectors", suite)
		if err != nil {
			t.Fatal(err)
		}
		for i := range ix.Vectors {
			v := &ix.Vectors[i]
			add(v.Op, "operation", map[string]bool{"": true}, v.ID)
			args, results := map[string]bool{}, map[string]bool{}
			if len(v.Args) > 0 {
				memberPaths("", decode(v.Args), nil, args)
			}
			add(v.Op, "argument", args, v.ID)
			if len(v.Result) > 0 {
				memberPaths("", decode(v.Result), nil, results)
			}
			in, err := v.Input("../vectors", suite)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := impl.Do(t.Context(), testee.Request{Op: v.Op, Args: v.Args, Input: in})
			if err != nil {
				t.Fatal(err)
			}
			if resp.Outcome == testee.Accepted {
				memberPaths("", decode(resp.Result), nil, results)
			}
			add(v.Op, "result member", results, v.ID)
			inputs := map[string]bool{}
			switch v.Op {
			case lacespec.OpConstruct, hivespec.OpAuthority:
				if x, ok := decode(in).(map[string]any); ok {
					for k := range x {
						inputs[k] = true
					}
				}
			case tracerspec.OpEncode:
				if json.Valid(in) {
					all := map[string]bool{}
					memberPaths("", decode(in), nil, all)
					for p := range all {
						inputs[p[strings.LastIndexAny(p, ".]")+1:]] = true
					}
				}
			}
			add(v.Op, "input member", inputs, v.ID)
		}
	}
	resp, err := impl.Do(t.Context(), testee.Request{ID: 0, Op: testee.OpHello})
	if err != nil || resp.Outcome != testee.Accepted {
		t.Fatalf("hello: %v %v", resp.Outcome, err)
	}
	hello := map[string]bool{}
	memberPaths("", decode(resp.Result), []string{"limits"}, hello)
	add(testee.OpHello, "result member", hello, "the reference's hello")

	ops := make([]string, 0, len(needs))
	for op := range needs {
		ops = append(ops, op)
	}
	sort.Strings(ops)
	if len(ops) != 12 {
		t.Errorf("%d operations (hello and eleven expected): %v", len(ops), ops)
	}
	checked := 0
	for _, op := range ops {
		sec, ok := sections[op]
		if !ok {
			t.Errorf("operation %s (used by %s) has no section \"### `%s`\" in docs/PROTOCOL.md", op, needs[op][need{"operation", ""}], op)
			continue
		}
		for n, by := range needs[op] {
			if n.what == "operation" {
				continue
			}
			checked++
			if !strings.Contains(sec, "`"+n.path+"`") {
				t.Errorf("docs/PROTOCOL.md, section %s: %s `%s` (used by %s) is not documented", op, n.what, n.path, by)
			}
		}
	}
	t.Logf("%d operations, %d arguments and members checked", len(ops), checked)
}

// TestProtocolNamesHelloLimits: the hello example of docs/PROTOCOL.md ("The
// handshake") names only limits of the caps table ("Caps on the bounds a
// request raises", its `limits member` column), and every limit the
// reference's hello gives is named, in backquotes, in that section: one
// name for each limit across the document and the code.
func TestProtocolNamesHelloLimits(t *testing.T) {
	doc, err := os.ReadFile("../docs/PROTOCOL.md")
	if err != nil {
		t.Fatal(err)
	}
	_, caps, _ := strings.Cut(string(doc), "\n### Caps on the bounds a request raises\n")
	caps, _, _ = strings.Cut(caps, "\n### ")
	if caps == "" {
		t.Fatal(`docs/PROTOCOL.md has no section "### Caps on the bounds a request raises"`)
	}
	table := map[string]bool{}
	for _, m := range regexp.MustCompile("(?m)^\\| [^|]* \\| `([a-z]+\\.[a-z_]+)` \\|").FindAllStringSubmatch(caps, -1) {
		table[m[1]] = true
	}
	if len(table) < 6 {
		t.Fatalf("the caps table names %d limits: %v", len(table), table)
	}
	_, hello, _ := strings.Cut(string(doc), "The testee\nanswers with\n\n```json\n")
	hello, _, _ = strings.Cut(hello, "```")
	var example struct {
		Result struct {
			Limits map[string]json.RawMessage `json:"limits"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(hello), &example); err != nil || len(example.Result.Limits) == 0 {
		t.Fatalf("the hello example has no limits (%v):\n%s", err, hello)
	}
	for k := range example.Result.Limits {
		if !table[k] {
			t.Errorf("the hello example names the limit %s, which the caps table does not list", k)
		}
	}
	resp, err := reference.New(allspecs.Set()).Do(t.Context(), testee.Request{Op: testee.OpHello})
	if err != nil || resp.Outcome != testee.Accepted {
		t.Fatalf("hello: %v %v", resp.Outcome, err)
	}
	var ref struct {
		Limits map[string]json.RawMessage `json:"limits"`
	}
	if err := json.Unmarshal(resp.Result, &ref); err != nil {
		t.Fatal(err)
	}
	for k := range ref.Limits {
		if !strings.Contains(caps, "`"+k+"`") {
			t.Errorf("the reference's hello gives the limit %s, which docs/PROTOCOL.md's caps section does not name", k)
		}
	}
	for k := range table {
		if _, ok := ref.Limits[k]; !ok {
			t.Errorf("the caps table lists the limit %s, which the reference's hello does not give", k)
		}
	}
}
