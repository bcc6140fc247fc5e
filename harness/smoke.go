package harness

import (
	"cmp"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/threespec/conformance/impl/spec"
	"github.com/threespec/conformance/testee"
	"github.com/threespec/conformance/vectorset"
)

// SmokeConfig configures Smoke: a handful of requests that check a
// testee's adapter (its protocol plumbing), not its implementation.
type SmokeConfig struct {
	Specs  *spec.Set
	Suites []*Suite // the suites whose vectors the checks take
	Impl   testee.Implementation
	Policy Policy
	// InputPaths, when set, gives one input by path to a testee whose
	// hello claims testee.CapabilityInputPath (the by-path check).
	InputPaths *InputFiles
	// OneShot says Impl runs the testee once per request (conform smoke
	// --one-shot; docs/PROTOCOL.md, "One-shot mode"): no id is passed and
	// no input by path, and the failures point to a one-shot adapter's
	// problems (the input on standard input, the args in CONFORM_ARGS,
	// one answer and an exit status).
	OneShot bool
}

// SmokeStatus is the verdict of one smoke check.
type SmokeStatus string

// The verdicts of a smoke check.
const (
	SmokeOK   SmokeStatus = "ok"
	SmokeFail SmokeStatus = "FAIL"
	SmokeSkip SmokeStatus = "skip"
)

// SmokeResult is one smoke check: what it asked and, for a failure, the
// adapter problem it points to, on one line.
type SmokeResult struct {
	Check  string      `json:"check"`
	Status SmokeStatus `json:"status"`
	Detail string      `json:"detail"`
}

// SmokeUnknownOp is the operation the unknown-operation check asks: no
// spec defines it (an operation is <spec>.<name>).
const SmokeUnknownOp = "conform.smoke-unknown-operation"

// SmokeID is the id of the id-echo check's request: 2^53 - 1, the largest
// integer a JSON reader that reads numbers as doubles (JavaScript) keeps
// exactly, and beyond 32 bits.
const SmokeID = 1<<53 - 1

// smokeLarge is the least input size of the large-input check: beyond the
// 64 KiB line limit of Go's bufio.Scanner and of many line readers.
const smokeLarge = 1 << 20

// Smoke checks the adapter of a testee with a few requests, in order:
// hello; for each operation it claims, the smallest input that must be
// accepted and the smallest that must be rejected (MUST-level, default
// readings); an unknown operation (answered unsupported); the smallest
// input of 1 MiB or more; an id beyond 32 bits echoed; and, when hello
// claims input-path, an input by path. Each failure says, on one line,
// which adapter problem it points to. After a failed hello nothing else is
// asked.
func Smoke(ctx context.Context, cfg SmokeConfig) []SmokeResult {
	var out []SmokeResult
	add := func(check string, st SmokeStatus, format string, args ...any) {
		out = append(out, SmokeResult{Check: check, Status: st, Detail: oneLine(fmt.Sprintf(format, args...))})
	}
	hello, err := testee.Handshake(ctx, cfg.Impl)
	if err != nil {
		add("hello", SmokeFail, "%s; the first request is {\"id\":0,\"op\":\"hello\",\"args\":{},\"input\":\"\"}: answer {\"id\":0,\"ok\":true,\"result\":{\"protocol\":1,\"ops\":[...],\"profiles\":[],\"limits\":{}}} (or {\"id\":0,\"unsupported\":true}) (PROTOCOL.md, \"The handshake\")", smokeFailure(err, 0, cfg.OneShot))
		return out
	}
	known := cfg.Specs.Ops()
	var ops, unknown []string
	for _, op := range known {
		if hello.Claims(op) {
			ops = append(ops, op)
		}
	}
	for _, op := range hello.Ops {
		if !slices.Contains(known, op) {
			unknown = append(unknown, op)
		}
	}
	switch {
	case len(ops) == 0:
		add("hello", SmokeFail, "claims no operation conform knows (ops %q): list the operations the implementation answers, by their names in PROTOCOL.md (%s, ...)", hello.Ops, strings.Join(known[:min(3, len(known))], ", "))
		return out
	case len(unknown) > 0:
		add("hello", SmokeFail, "claims operations no spec defines: %s (the operations are %s)", strings.Join(unknown, ", "), strings.Join(known, ", "))
	default:
		what := "answered unsupported: taken to claim every operation"
		if !hello.AllOps {
			what = fmt.Sprintf("%s; claims %s", cmp.Or(hello.Implementation, "(no name)"), plural(len(ops), "operation"))
		}
		add("hello", SmokeOK, "%s", what)
	}

	defaults := cfg.Specs.ReadingDefaults()
	s := &smoker{cfg: cfg, hello: hello, defaults: defaults, parts: vectorset.NewParts(partsLimit)}
	var first *smokeVector
	for _, op := range ops {
		for _, expect := range []string{vectorset.Accept, vectorset.Reject} {
			check := op + " " + map[string]string{vectorset.Accept: "accepts", vectorset.Reject: "rejects"}[expect]
			sv := s.pick(func(v *vectorset.Vector) bool {
				return v.Op == op && v.Expect == expect && (expect == vectorset.Accept || v.Level == "MUST")
			})
			if sv == nil {
				add(check, SmokeSkip, "no applicable vector")
				continue
			}
			if first == nil && expect == vectorset.Accept {
				first = sv
			}
			st, detail := s.ask(ctx, sv, 0, false)
			add(check, st, "%s", detail)
		}
	}

	// An operation no spec defines.
	resp, err := cfg.Impl.Do(ctx, testee.Request{ID: s.nextID(), Op: SmokeUnknownOp})
	switch {
	case err != nil:
		add("unknown operation", SmokeFail, "%s", smokeFailure(err, 0, cfg.OneShot))
	case resp.Outcome == testee.Unsupported:
		add("unknown operation", SmokeOK, "answered unsupported")
	case resp.Outcome == testee.Accepted:
		add("unknown operation", SmokeFail, "%s answered ok:true: the adapter answers without looking at \"op\"; answer {\"unsupported\":true} for an operation it does not implement (PROTOCOL.md)", SmokeUnknownOp)
	default:
		add("unknown operation", SmokeFail, "%s answered with a rejection (code %s): answer {\"unsupported\":true} for an operation it does not implement, so that its vectors are not applicable rather than failed (PROTOCOL.md)", SmokeUnknownOp, bound(resp.Code, maxName))
	}

	// A large input.
	if sv := s.pick(func(v *vectorset.Vector) bool { return v.Size >= smokeLarge }); sv == nil {
		add("large input", SmokeSkip, "no applicable vector of %d bytes or more", smokeLarge)
	} else {
		st, detail := s.ask(ctx, sv, 0, false)
		add("large input", st, "%s", detail)
	}

	// The id echoed, beyond 32 bits.
	switch {
	case cfg.OneShot:
		add("id echo", SmokeSkip, "one-shot mode passes no id")
	case first == nil:
		add("id echo", SmokeSkip, "no applicable vector")
	default:
		st, detail := s.ask(ctx, first, SmokeID, false)
		add("id echo", st, "%s", detail)
	}

	// An input by path.
	switch {
	case cfg.OneShot:
		add("input by path", SmokeSkip, "one-shot mode gives the input on standard input")
	case !hello.ClaimsCapability(testee.CapabilityInputPath):
		add("input by path", SmokeSkip, "hello claims no %s capability", testee.CapabilityInputPath)
	case cfg.InputPaths == nil:
		add("input by path", SmokeSkip, "inputs by path are switched off")
	case first == nil:
		add("input by path", SmokeSkip, "no applicable vector")
	default:
		st, detail := s.ask(ctx, first, 0, true)
		add("input by path", st, "%s", detail)
	}
	return out
}

type smoker struct {
	cfg      SmokeConfig
	hello    *testee.Hello
	defaults map[string]string
	parts    *vectorset.Parts
	id       int64
}

type smokeVector struct {
	suite *Suite
	v     *vectorset.Vector
}

func (s *smoker) nextID() int64 { s.id++; return s.id }

// pick returns the smallest vector (a committed file before a recipe,
// then a non-empty input before an empty one, then by size and ID) that applies to the testee, of the default
// readings, and that ok accepts; nil when there is none.
func (s *smoker) pick(ok func(*vectorset.Vector) bool) *smokeVector {
	var best *smokeVector
	less := func(a, b *vectorset.Vector) bool {
		ra, rb := a.Recipe != nil, b.Recipe != nil
		if ra != rb {
			return !ra
		}
		// An empty input shows nothing of how the input is decoded.
		if ea, eb := a.Size == 0, b.Size == 0; ea != eb {
			return !ea
		}
		if a.Size != b.Size {
			return a.Size < b.Size
		}
		return a.ID < b.ID
	}
	for _, su := range s.cfg.Suites {
		for i := range su.Index.Vectors {
			v := &su.Index.Vectors[i]
			if !ok(v) || v.Branch(nil, s.defaults) != "" || s.cfg.Policy.NotApplicable(s.cfg.Specs, s.hello, v) != "" {
				continue
			}
			if best == nil || less(v, best.v) {
				best = &smokeVector{su, v}
			}
		}
	}
	return best
}

// ask sends one vector (with id, or the next one when id is 0; by path
// when byPath) and judges the answer as an adapter check.
func (s *smoker) ask(ctx context.Context, sv *smokeVector, id int64, byPath bool) (SmokeStatus, string) {
	v := sv.v
	if id == 0 {
		id = s.nextID()
	}
	req := testee.Request{ID: id, Op: v.Op, Args: v.Args, AnswerSize: v.AnswerSize()}
	what := fmt.Sprintf("%s (%d bytes", v.ID, v.Size)
	var err error
	if byPath {
		s.cfg.InputPaths.Expect(v)
		defer s.cfg.InputPaths.Release(v)
		req.InputPath, req.InputSize, err = s.cfg.InputPaths.Path(sv.suite, v)
		what += ", by path"
	} else {
		req.Input, err = s.parts.Input(v, sv.suite.VectorsDir, sv.suite.Name)
	}
	what += ")"
	if err != nil {
		return SmokeFail, fmt.Sprintf("%s: conform could not build the request: %v", what, err)
	}
	resp, err := s.cfg.Impl.Do(ctx, req)
	if err != nil {
		return SmokeFail, what + ": " + smokeFailure(err, v.Size, s.cfg.OneShot)
	}
	if resp.Outcome == testee.Unsupported {
		return SmokeFail, fmt.Sprintf("%s: answered unsupported for an operation hello claims: the adapter does not hand %s to the implementation", what, v.Op)
	}
	vd := vectorset.Judge(v, resp, false)
	if vd.Pass {
		return SmokeOK, what + ": " + shapes(resp)
	}
	reason := firstLine(vd.Reason)
	pathHint := ""
	if byPath {
		pathHint = "; given \"input_path\", read the file it names (an absolute path; no \"input\" is sent)"
	}
	switch {
	case v.Expect == vectorset.Accept && resp.Outcome == testee.Rejected:
		if byPath {
			return SmokeFail, fmt.Sprintf("%s, which must be accepted, was rejected (%s)%s", what, gotText(resp), pathHint)
		}
		if s.cfg.OneShot {
			return SmokeFail, fmt.Sprintf("%s, which must be accepted, was rejected (%s): the adapter hands the implementation other bytes or args than the request's: read standard input to its end as raw bytes (no base64, no text decoding) and pass the JSON object in CONFORM_ARGS as the args", what, gotText(resp))
		}
		return SmokeFail, fmt.Sprintf("%s, which must be accepted, was rejected (%s): the adapter hands the implementation other bytes or args than the request's: decode \"input\" as standard base64 with padding (RFC 4648 section 4) and pass \"args\" as they are", what, gotText(resp))
	case v.Expect == vectorset.Reject && resp.Outcome == testee.Accepted:
		return SmokeFail, fmt.Sprintf("%s, which must be rejected, was accepted: the adapter answers ok:true without the implementation's verdict, or hands it other bytes%s", what, pathHint)
	case resp.Outcome == testee.Rejected:
		return SmokeFail, fmt.Sprintf("%s was rejected, but %s: the adapter must pass the implementation's code on as \"code\"", what, reason)
	}
	return SmokeFail, fmt.Sprintf("%s was accepted, but the result differs (%s): check how the adapter writes the result's members (PROTOCOL.md, the table of %s)%s", what, reason, v.Op, pathHint)
}

// shapes says in a word or two how resp answered.
func shapes(resp testee.Response) string {
	switch resp.Outcome {
	case testee.Accepted:
		return "accepted, the result as expected"
	case testee.Rejected:
		return "rejected (code " + bound(resp.Code, maxName) + ")"
	}
	return resp.Outcome.String()
}

// smokeFailure explains a testee failure as the adapter problem it points
// to; size is the request's input size (0 for none), oneShot the mode.
func smokeFailure(err error, size int64, oneShot bool) string {
	var f *testee.Failure
	if !errors.As(err, &f) {
		return err.Error()
	}
	hints := persistentHints
	if oneShot {
		hints = oneShotHints
	}
	why, ok := hints[f.Kind]
	if !ok {
		why = "testee failure (" + f.Kind.String() + ")"
	}
	// A request line over 64 KiB (persistent mode sends the input in it).
	if n := base64.StdEncoding.EncodedLen(int(size)); !oneShot && n > 64<<10 && (f.Kind == testee.Timeout || f.Kind == testee.Exited) {
		why += fmt.Sprintf("; the request line is over %d bytes: a line reader with a small limit (Go's bufio.Scanner stops at 64 KiB unless given a Buffer) fails on it", n)
	}
	if detail := bound(f.Detail, maxDetail); detail != "" {
		why += " (" + detail + ")"
	}
	if tail := strings.TrimSpace(lastLines(string(f.Stderr), 1)); tail != "" && (f.Kind == testee.Exited || f.Kind == testee.StartFailed || f.Kind == testee.BadExit) {
		why += "; its stderr ends: " + bound(tail, maxDetail)
	}
	return why
}

// persistentHints name the adapter problem each kind of testee failure
// points to in persistent mode (docs/PROTOCOL.md).
var persistentHints = map[testee.Kind]string{
	testee.Timeout:     "no answer in time: flush standard output after each answer line, and answer every request with exactly one line",
	testee.Exited:      "the adapter exited or closed its standard output before answering: read standard input line by line until it ends, and answer each line",
	testee.InvalidJSON: "the answer is not one JSON object on one line: write nothing but answers to standard output (log to standard error)",
	testee.BadShape:    "the answer has none of the three shapes ({\"id\":N,\"ok\":true,\"result\":{...}}, {\"id\":N,\"ok\":false,\"code\":\"...\"}, {\"id\":N,\"unsupported\":true})",
	testee.WrongID:     "the answer does not carry the request's id: echo each request's \"id\" as it came (an integer, up to 2^53 - 1 and beyond 32 bits)",
	testee.Flood:       "the answer is longer than the read cap: end each answer with a line feed",
	testee.StartFailed: "the adapter does not start",
	testee.BadHello:    "the answer to hello is not a hello result",
}

// oneShotHints are persistentHints for a testee run once per request
// (docs/PROTOCOL.md, "One-shot mode").
var oneShotHints = map[testee.Kind]string{
	testee.Timeout:     "no answer in time: write the one answer object to standard output and exit (reading standard input to its end first, or not at all)",
	testee.Exited:      "the testee exited without writing an answer to standard output",
	testee.InvalidJSON: "standard output is not one JSON object: write nothing but the answer there (log to standard error)",
	testee.BadShape:    "the answer has none of the three shapes ({\"ok\":true,\"result\":{...}}, {\"ok\":false,\"code\":\"...\"}, {\"unsupported\":true})",
	testee.BadExit:     "the exit status does not match the answer: 0 after ok:true or unsupported:true, 1 after ok:false",
	testee.Flood:       "the answer is longer than the read cap",
	testee.StartFailed: "the testee does not start (it is run as TESTEE ARGS... OP, hello included)",
	testee.BadHello:    "the answer to TESTEE ARGS... hello is not a hello result",
}

// SmokeFailed counts the failed checks.
func SmokeFailed(rs []SmokeResult) int {
	n := 0
	for _, r := range rs {
		if r.Status == SmokeFail {
			n++
		}
	}
	return n
}
