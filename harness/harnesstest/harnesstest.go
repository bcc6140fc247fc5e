// Package harnesstest holds what the tests of conform share: synthetic
// vector suites written to a temporary directory (with their manifests and
// set hashes, as vecgen writes them), and Main, a testee that misbehaves on
// the vectors whose input asks it to. Test binaries re-execute themselves
// as that testee.
package harnesstest

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/threespec/conformance/impl/manifest"
	"github.com/threespec/conformance/testee"
	"github.com/threespec/conformance/vectorset"
)

// Vector is a synthetic vector: Input is what Main reads as its directive.
type Vector struct {
	Name     string // the ID is <suite>/<positive|negative>/<Name>
	Op       string // default lace.record
	Args     string // default {}
	Input    string
	Expect   string // vectorset.Accept (default) or vectorset.Reject
	Code     string
	Result   string // expected result fields (JSON object), for Accept
	Rules    []string
	Level    string // default MUST
	Tags     []string
	Profiles []string
	// Recipe writes the input as a recipe of one hex part instead of a
	// file (a testee taking inputs by path gets it in the run's own
	// directory).
	Recipe bool
}

// Synthetic is what a synthetic suite stands in for, given by the tests
// (internal/allspecs.Synthetic): the suite's name, the operations the fake
// testee claims (the first is a vector's operation when it names none),
// and the rule a vector names when it names none. This package names no
// spec.
type Synthetic struct {
	Suite string
	Ops   []string
	Rule  string
}

// WriteSuite writes a suite of the given vectors below root: root/vectors
// with the index and input files, root/manifest/<suite> with the suite
// manifest and set-hash file. Vectors that name no operation
// or rule take syn's. It returns the vectors directory.
func WriteSuite(root string, syn Synthetic, vecs []Vector) (string, error) {
	suite := syn.Suite
	vdir := filepath.Join(root, "vectors")
	ix := vectorset.Index{Format: vectorset.Format, Suite: suite, GeneratedBy: "harnesstest"}
	tree := map[string][]byte{}
	for _, v := range vecs {
		pol := "positive"
		if v.Expect == vectorset.Reject {
			pol = "negative"
		}
		file := pol + "/" + v.Name + ".bin"
		var recipe *vectorset.Recipe
		if v.Recipe {
			file, recipe = "", &vectorset.Recipe{Parts: []vectorset.Part{{Hex: hex.EncodeToString([]byte(v.Input))}}}
		} else {
			tree[file] = []byte(v.Input)
		}
		e := vectorset.Vector{
			ID: suite + "/" + pol + "/" + v.Name, File: file, Recipe: recipe, Size: int64(len(v.Input)),
			BLAKE2b: vectorset.Hash([]byte(v.Input)), Op: or(v.Op, syn.Ops[0]),
			Args: json.RawMessage(or(v.Args, "{}")), Expect: or(v.Expect, vectorset.Accept), Code: v.Code,
			Rules: v.Rules, Level: or(v.Level, "MUST"), Tags: v.Tags, Profiles: v.Profiles,
			Comment: "synthetic: " + v.Input,
		}
		if len(e.Rules) == 0 {
			e.Rules = []string{syn.Rule}
		}
		if v.Result != "" {
			e.Result = json.RawMessage(v.Result)
		}
		ix.Vectors = append(ix.Vectors, e)
	}
	index, err := ix.Write()
	if err != nil {
		return "", err
	}
	tree["index.json"] = index
	for p, b := range tree {
		full := filepath.Join(vdir, filepath.FromSlash(p))
		if p == "index.json" {
			full = vectorset.IndexPath(vdir, suite)
		} else {
			dir, name, _ := strings.Cut(p, "/")
			full = filepath.Join(vdir, dir, suite, name)
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(full, b, 0o644); err != nil {
			return "", err
		}
	}
	m, err := manifest.Build(tree)
	if err != nil {
		return "", err
	}
	mdir := filepath.Join(root, "manifest", suite)
	if err := os.MkdirAll(mdir, 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(mdir, "suite-manifest.bin"), m, 0o644); err != nil {
		return "", err
	}
	txt := vectorset.NewSetHashFile(suite, m, len(tree)).Text("test")
	return vdir, os.WriteFile(filepath.Join(mdir, "suite-set-hash.txt"), txt, 0o644)
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// LeakReport is what Main's -leak testee writes on standard error as its
// input ends.
const LeakReport = "==4242==ERROR: LeakSanitizer: detected memory leaks\nSUMMARY: AddressSanitizer: 24 byte(s) leaked in 1 allocation(s).\n"

// Main is a testee driven by its inputs, in persistent mode, or in one-shot
// mode when args end with an operation. Options come first:
//
//	-nohello          answer hello with unsupported
//	-badhello         answer hello with a result that is not a hello result
//	-profiles a,b     the profiles hello claims (default none)
//	-ops a,b          the operations hello claims (default lace.record,lace.stream)
//	-pidfile FILE     write the process ID to FILE at start
//	-hangfile FILE    create FILE when a hang directive starts
//	-inputpath        claim the capability input-path (and read inputs by path)
//	-leak             once the input ends, write LeakReport on stderr and exit 3
//	-always DIRECTIVE answer every request but hello by DIRECTIVE, whatever
//	                  its input (for inputs conform generates: conform fuzz)
//
// Every other request is answered after its input, a directive:
//
//	ok:{...}          ok:true with that result object
//	reject:CODE       ok:false with that code
//	unsupported       unsupported:true
//	hang              never answer
//	crash             write half an answer, a line to stderr, and exit 3
//	exit              exit 0 without answering
//	invalid           answer a line that is not JSON
//	wrongid           answer with the next request's id (out of order)
//	flood             write 64 MiB without a newline
//	stderr:N          write N bytes to stderr, then answer ok:true {}
//	long:N            answer a rejection whose code, rule and detail are N bytes each
//	sleep:MS          sleep MS milliseconds, then answer ok:true {}
//	badexit           (one-shot) answer ok:true but exit 5
//
// It returns the exit status.
func Main(syn Synthetic, args []string) int {
	ops, profiles := slices.Clone(syn.Ops), []string{}
	hello := "ok"
	var caps []string
	leak := false
	always := ""
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		switch args[0] {
		case "-leak":
			// As a sanitizer does: a report on standard error once the
			// input ends, and exit status 3.
			leak = true
		case "-inputpath":
			caps = append(caps, testee.CapabilityInputPath)
		case "-nohello":
			hello = "unsupported"
		case "-badhello":
			hello = "bad"
		case "-profiles", "-ops", "-pidfile", "-hangfile", "-always":
			if len(args) < 2 {
				return 2
			}
			switch args[0] {
			case "-profiles":
				profiles = strings.Split(args[1], ",")
			case "-ops":
				ops = strings.Split(args[1], ",")
			case "-pidfile":
				os.WriteFile(args[1], []byte(strconv.Itoa(os.Getpid())), 0o644)
			case "-hangfile":
				hangFile = args[1]
			case "-always":
				always = args[1]
			}
			args = args[1:]
		}
		args = args[1:]
	}
	helloLine := func(id int64) string {
		switch hello {
		case "unsupported":
			return fmt.Sprintf(`{"id":%d,"unsupported":true}`, id)
		case "bad":
			return fmt.Sprintf(`{"id":%d,"ok":true,"result":{"protocol":2}}`, id)
		}
		m := map[string]any{"protocol": 1, "implementation": "harnesstest", "ops": ops, "profiles": profiles, "limits": map[string]any{}}
		if len(caps) > 0 {
			m["capabilities"] = caps
		}
		h, _ := json.Marshal(m)
		return fmt.Sprintf(`{"id":%d,"ok":true,"result":%s}`, id, h)
	}
	if len(args) == 1 {
		return oneShot(args[0], helloLine, always)
	}
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			if leak {
				fmt.Fprint(os.Stderr, LeakReport)
				return 3
			}
			return 0
		}
		req, err := testee.ParseRequest(bytes.TrimSuffix(line, []byte("\n")))
		if err != nil {
			fmt.Fprintln(os.Stderr, "harnesstest: bad request:", err)
			return 1
		}
		if req.Op == testee.OpHello {
			fmt.Println(helloLine(req.ID))
			continue
		}
		if req.InputPath != "" {
			if req.Input, err = os.ReadFile(req.InputPath); err != nil {
				fmt.Fprintln(os.Stderr, "harnesstest:", err)
				return 1
			}
		}
		if always != "" {
			req.Input = []byte(always)
		}
		if code := act(req.ID, string(req.Input), os.Stdout); code >= 0 {
			return code
		}
	}
}

// hangFile is created when a hang directive starts (-hangfile).
var hangFile string

// act answers one directive on w; it returns an exit status to exit with,
// or -1 to go on.
func act(id int64, in string, w io.Writer) int {
	answer := func(s string) { fmt.Fprintf(w, "%s\n", s) }
	verb, arg, _ := strings.Cut(in, ":")
	switch verb {
	case "ok":
		answer(fmt.Sprintf(`{"id":%d,"ok":true,"result":%s}`, id, or(arg, "{}")))
	case "reject":
		answer(fmt.Sprintf(`{"id":%d,"ok":false,"code":%q,"detail":"rejected as asked"}`, id, arg))
	case "unsupported":
		answer(fmt.Sprintf(`{"id":%d,"unsupported":true,"detail":"asked to be unsupported"}`, id))
	case "hang":
		if hangFile != "" {
			os.WriteFile(hangFile, nil, 0o644)
		}
		time.Sleep(time.Hour)
	case "crash":
		fmt.Fprintf(w, `{"id":%d,"ok":tr`, id)
		fmt.Fprintln(os.Stderr, "harnesstest: crashing on purpose")
		return 3
	case "exit":
		return 0
	case "invalid":
		answer("this is not JSON")
	case "wrongid":
		answer(fmt.Sprintf(`{"id":%d,"ok":true,"result":{}}`, id+1))
	case "flood":
		chunk := bytes.Repeat([]byte("x"), 1<<20)
		for range 64 {
			if _, err := w.Write(chunk); err != nil {
				return 1
			}
		}
		answer("")
	case "stderr":
		n, _ := strconv.Atoi(arg)
		os.Stderr.Write(bytes.Repeat([]byte("e"), n))
		fmt.Fprintln(os.Stderr, "\nharnesstest: wrote to stderr as asked")
		answer(fmt.Sprintf(`{"id":%d,"ok":true,"result":{}}`, id))
	case "long":
		n, _ := strconv.Atoi(arg)
		long := strings.Repeat("L", n)
		answer(fmt.Sprintf(`{"id":%d,"ok":false,"code":%q,"rule":%q,"detail":%q}`, id, long, long, long))
	case "sleep":
		ms, _ := strconv.Atoi(arg)
		time.Sleep(time.Duration(ms) * time.Millisecond)
		answer(fmt.Sprintf(`{"id":%d,"ok":true,"result":{}}`, id))
	case "badexit":
		answer(fmt.Sprintf(`{"id":%d,"ok":true,"result":{}}`, id))
		return 5
	default:
		answer(fmt.Sprintf(`{"id":%d,"ok":false,"code":"UNKNOWN_DIRECTIVE","detail":%q}`, id, in))
	}
	return -1
}

// oneShot answers one request in one-shot mode.
func oneShot(op string, helloLine func(int64) string, always string) int {
	in, err := io.ReadAll(os.Stdin)
	if err != nil {
		return 2
	}
	if always != "" {
		in = []byte(always)
	}
	if op == testee.OpHello {
		fmt.Println(helloLine(0))
		return 0
	}
	var out bytes.Buffer
	code := act(0, string(in), &out)
	os.Stdout.Write(out.Bytes())
	if code >= 0 {
		return code
	}
	if bytes.Contains(out.Bytes(), []byte(`"ok":false`)) {
		return 1
	}
	return 0
}
