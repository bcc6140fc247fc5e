package allspecs

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/threespec/conformance/impl/hiverelay"
	"github.com/threespec/conformance/impl/hiverelay/hivevec"
	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/internal/prove"
	"github.com/threespec/conformance/internal/vecgen"
	"github.com/threespec/conformance/steps"
	"github.com/threespec/conformance/vectorset"
)

// The figures of README.md and docs/*.md that the code can compute (rule,
// fault, mutant, reading, vector and scenario counts, set hashes) are
// checked here against the catalogs (Set), the recorded proof
// (manifest/proof.json), the committed indexes and manifests, the
// features and the HiveRelay authority the code builds. Each claim is
// found by a regular expression anchored on its sentence, over the file's
// text with every run of white space made one space; each group of the
// expression is one figure. A claim that is no longer found fails too:
// reword the expression with the sentence.
//
// TestDocFigures also sweeps the same files for a number followed, within
// two words, by rules, faults, vectors, readings, mutants, scenarios,
// positives, negatives, recipes, paths or operations: each must be inside
// a checked claim or listed in docUnchecked with the reason it is not a
// figure of the code. Generated files (features/RULES.md,
// docs/READINGS.md) are out of scope, and so is docs/MEASUREMENTS.md, the
// dated history of issue 14's measurements. Times and rates cannot be
// checked: the documents state them as measurements, with the machine
// and its load.

// docFigure is one claim of a document.
type docFigure struct {
	file string // relative to the repository root
	what string // what the figures count, for the failure message
	re   string // over the text with white space runs made one space
	// want gives the value of each group of re: an int (compared with the
	// group's digits, thousands separators removed, or its number word)
	// or a string (compared exactly).
	want func(f *docFacts) []any
	// ids, when set, compares the sorted set of rule IDs the first group
	// names with want's first value (a []string).
	ids bool
}

// ints is a want of ints.
func ints(v ...int) []any {
	out := make([]any, len(v))
	for i, n := range v {
		out[i] = n
	}
	return out
}

var docFigures = []docFigure{
	// README.md
	{"README.md", "specifications", `A conformance test suite and vector generator, in Go, for (\w+) specifications`,
		func(f *docFacts) []any { return ints(len(Set().Specs())) }, false},
	{"README.md", "the HiveRelay authority tree's paths", `authority tree \(its (\d+) paths\)`,
		func(f *docFacts) []any { return ints(len(f.hrInventoryPaths)) }, false},
	{"README.md", "the published clientCompositionFormatHash", "\\| HiveRelay `clientCompositionFormatHash` \\| `([0-9a-f]{64})` \\|",
		func(f *docFacts) []any { return []any{hex.EncodeToString(f.hrMeta.FormatHash[:])} }, false},
	{"README.md", "the published clientCompositionVectorSetHash", "\\| HiveRelay `clientCompositionVectorSetHash` \\| `([0-9a-f]{64})` \\|",
		func(f *docFacts) []any { return []any{hex.EncodeToString(f.hrMeta.VectorSetHash[:])} }, false},

	// docs/CONFORM.md
	{"docs/CONFORM.md", "the JavaScript example's expected failures: libtracer vectors testing LT-OPT-02 alone", `so the run passes with (\d+) expected failures`,
		func(f *docFacts) []any { return ints(f.suite["libtracer"].onlyRule("LT-OPT-02")) }, false},
	{"docs/CONFORM.md", "libtracer vectors a testee declaring no reading is judged by (every one but the branch vectors)", `closes the gap: (\d+) of (\d+) pass`,
		func(f *docFacts) []any { n := f.suite["libtracer"].defaults(); return ints(n, n) }, false},
	{"docs/CONFORM.md", "libtracer vectors testing LT-OPT-02 alone", `fails the (\d+) vectors that test LT-OPT-02 alone`,
		func(f *docFacts) []any { return ints(f.suite["libtracer"].onlyRule("LT-OPT-02")) }, false},
	{"docs/CONFORM.md", "rows of the HiveRelay vector manifest, inventory files", `the (\d+)-row vector manifest and the (\d+) inventory files`,
		func(f *docFacts) []any { return ints(int(f.hrMeta.VectorManifestEntries), len(f.hrInventoryPaths)) }, false},
	{"docs/CONFORM.md", "vectors a declared HR-READ-03 alternative changes", "`readings: declared HR-READ-03=zero-previous-hash-rejected: (\\d+) vectors changed`",
		func(f *docFacts) []any {
			return ints(f.suite["hiverelay"].changedBy("HR-READ-03", "zero-previous-hash-rejected"))
		}, false},
	// The example report: one vector of the hiverelay suite.
	{"docs/CONFORM.md", "the example report's selection", `conform run: (\d+) vectors? against conform serve --fault HR-RCAP-03`,
		func(f *docFacts) []any { return ints(len(f.suite["hiverelay"].named(exampleVector))) }, false},
	{"docs/CONFORM.md", "operations the reference claims", `testee: threespec reference with fault HR-RCAP-03 \S+ \(Go [0-9.]+\); claims (\d+) operations`,
		func(f *docFacts) []any { return ints(f.ops("")) }, false},
	{"docs/CONFORM.md", "the hiverelay suite's set hash, selection, vectors and files", `hiverelay set hash ([0-9a-f]{64}) \((\d+) of (\d+) vectors selected; (\d+) files verified against manifest/hiverelay/suite-manifest.bin\)`,
		func(f *docFacts) []any {
			s := f.suite["hiverelay"]
			return []any{s.setHash, len(s.named(exampleVector)), len(s.ix.Vectors), s.files}
		}, false},
	{"docs/CONFORM.md", "the format hash and the format artifact's length", `authority clientCompositionFormatHash ([0-9a-f]{64}) \((\d+) bytes\)`,
		func(f *docFacts) []any {
			return []any{hex.EncodeToString(f.hrMeta.FormatHash[:]), int(f.hrMeta.FormatArtifactLength)}
		}, false},
	{"docs/CONFORM.md", "the vector set hash and the vector manifest's length", `clientCompositionVectorSetHash ([0-9a-f]{64}) \((\d+) bytes\)`,
		func(f *docFacts) []any {
			return []any{hex.EncodeToString(f.hrMeta.VectorSetHash[:]), int(f.hrMeta.VectorManifestLength)}
		}, false},
	{"docs/CONFORM.md", "MUST rules the example's vector tests", `MUST rules: (\d+) rules tested HR-CENC-16`,
		func(f *docFacts) []any { return ints(f.mustRules(f.suite["hiverelay"].named(exampleVector))) }, false},
	{"docs/CONFORM.md", "the example report's totals", `(\d+) vectors? in \d+ms, (\d+) run at \d+ vectors/s: 0 passed, 1 failed`,
		func(f *docFacts) []any {
			n := len(f.suite["hiverelay"].named(exampleVector))
			return ints(n, n)
		}, false},

	// The wine check (Windows and macOS).
	{"docs/CONFORM.md", "the whole set under wine: passed, not applicable, other readings' branches", "the whole committed set, persistent, `-j 2`, by path \\| ([\\d,]+) passed, 0 failed, 0 testee failures, (\\d+) not applicable \\(need `lace-009`\\), (\\d+) of other readings' branches",
		func(f *docFacts) []any { return f.applicable() }, false},
	{"docs/CONFORM.md", "the hiverelay suite under wine: vectors, passed, other readings' branches", "the hiverelay suite \\((\\d+) vectors, `-j 2`\\) \\| (\\d+) passed, (\\d+) of other readings' branches",
		func(f *docFacts) []any {
			s := f.suite["hiverelay"]
			return ints(len(s.ix.Vectors), s.defaults(), s.count(isBranch))
		}, false},
	{"docs/CONFORM.md", "the hiverelay scenarios under wine", `--godog.tags=@hiverelay -- conform.exe serve. \(with .conform-features.exe. beside it\) \| ([\d,]+) scenarios passed`,
		func(f *docFacts) []any { return ints(f.spec["hiverelay"].scenarios) }, false},
	{"docs/CONFORM.md", "the Lace operations examples/lace-go implements", `implements the (\w+) Lace operations`,
		func(f *docFacts) []any { return ints(f.ops("lace")) }, false},

	// docs/PROTOCOL.md
	{"docs/PROTOCOL.md", "the operations of the protocol (hello aside)", `## Operations (\w+) operations, one section each below`,
		func(f *docFacts) []any { return ints(f.ops("")) }, false},

	// docs/DECISIONS.md
	{"docs/DECISIONS.md", "the HiveRelay inventory's paths", `The HiveRelay vector set is exactly the (\d+) paths`,
		func(f *docFacts) []any { return ints(len(f.hrInventoryPaths)) }, false},
	{"docs/DECISIONS.md", "the HiveRelay spec file's length and SHA-256", `\(([\d,]+) bytes, SHA-256 .([0-9a-f]{64}).\)`,
		func(f *docFacts) []any { return []any{len(f.hrSpec), f.hrSpecSHA256} }, false},

	// docs/PROOF.md
	{"docs/PROOF.md", "named mutants", `and the same for (\d+) named mutants`,
		func(f *docFacts) []any { return ints(len(Set().Mutants())) }, false},
	{"docs/PROOF.md", "vectors the proof runs, those needing lace-009, branch vectors among them", "over the ([\\d,]+) vectors that apply to the reference \\(every vector but the (\\d+) that need `lace-009`; the (\\d+) branch vectors among them run against the reference taking their alternatives",
		func(f *docFacts) []any {
			a := f.applicable() // every vector but lace-009's and the branches, lace-009's, the branches
			return []any{a[0].(int) + a[2].(int), a[1], a[2]}
		}, false},
	{"README.md", "the named mutants on the project's site", `every one of the (\d+) named mutants`,
		func(f *docFacts) []any { return ints(len(Set().Mutants())) }, false},
	{"docs/PROOF.md", "lace: rule faults caught, mutants caught, untestable", `\| lace \| (\d+) / (\d+) \| (\d+) / (\d+) \| (\d+) \|`,
		func(f *docFacts) []any { return f.proofRow("lace") }, false},
	{"docs/PROOF.md", "hiverelay: rule faults caught, mutants caught, untestable", `\| hiverelay \| (\d+) / (\d+) \| (\d+) / (\d+) \| (\d+) \|`,
		func(f *docFacts) []any { return f.proofRow("hiverelay") }, false},
	{"docs/PROOF.md", "libtracer: rule faults caught, mutants caught, untestable", `\| libtracer \| (\d+) / (\d+) \| (\d+) / (\d+) \| (\d+) \|`,
		func(f *docFacts) []any { return f.proofRow("libtracer") }, false},
	{"docs/PROOF.md", "all: rule faults caught, mutants caught, untestable", `\| \*\*all\*\* \| \*\*(\d+) / (\d+)\*\* \| \*\*(\d+) / (\d+)\*\* \| \*\*(\d+)\*\* \|`,
		func(f *docFacts) []any { return f.proofRow("") }, false},
	{"docs/PROOF.md", "faults, caught by a vector, caught by a scenario", `Every one of the (\d+) faults is caught by the vector sets alone, and every one by the features alone as well \(.-with-features always.: (\d+) caught by at least one vector, (\d+) by at least one scenario\)`,
		func(f *docFacts) []any { return ints(len(f.proof.Faults), f.caughtBy(true, ""), f.caughtBy(false, "")) }, false},
	{"docs/PROOF.md", "untestable rules", `The (\d+) untestable rules`,
		func(f *docFacts) []any { return ints(len(f.proof.Untestable)) }, false},
	{"docs/PROOF.md", "the untestable rules listed", `The \d+ untestable rules (.*?) both checks are unit-tested`,
		func(f *docFacts) []any { return []any{f.untestableIDs()} }, true},

	// docs/hiverelay.md
	{"docs/hiverelay.md", "the HiveRelay spec file's length and SHA-256", `The spec is .specs/hiverelay-blind-client-composition-v1.spec.md. \(([\d,]+) bytes, SHA-256 .([0-9a-f]{64}).\)`,
		func(f *docFacts) []any { return []any{len(f.hrSpec), f.hrSpecSHA256} }, false},
	{"docs/hiverelay.md", "the inventory vectors impl/hiverelay holds", `the format artifact, the two hashes, the (\d+) vectors, vector-set and authority verification`,
		func(f *docFacts) []any { return ints(len(f.hrInventoryPaths)) }, false},
	{"docs/hiverelay.md", "the schema catalog's length", `\| schema catalog length \| ([\d,]+) bytes \|`,
		func(f *docFacts) []any { return ints(f.hrCatalogLen) }, false},
	{"docs/hiverelay.md", "the format artifact's length and parts", `\| format artifact length \| ([\d,]+) bytes \(30 header \+ ([\d,]+) spec \+ ([\d,]+) catalog\) \|`,
		func(f *docFacts) []any {
			return ints(int(f.hrMeta.FormatArtifactLength), len(f.hrSpec), f.hrCatalogLen)
		}, false},
	{"docs/hiverelay.md", "the format hash", "\\| `clientCompositionFormatHash` \\| `([0-9a-f]{64})` \\|",
		func(f *docFacts) []any { return []any{hex.EncodeToString(f.hrMeta.FormatHash[:])} }, false},
	{"docs/hiverelay.md", "the vector manifest's length and rows", `\| vector manifest length \| ([\d,]+) bytes, (\d+) rows \|`,
		func(f *docFacts) []any {
			return ints(int(f.hrMeta.VectorManifestLength), int(f.hrMeta.VectorManifestEntries))
		}, false},
	{"docs/hiverelay.md", "the vector set hash", "\\| `clientCompositionVectorSetHash` \\| `([0-9a-f]{64})` \\|",
		func(f *docFacts) []any { return []any{hex.EncodeToString(f.hrMeta.VectorSetHash[:])} }, false},
	{"docs/hiverelay.md", "the metadata artifact's hashes", `"clientCompositionFormatHash":"([0-9a-f]{64})","clientCompositionVectorSetHash":"([0-9a-f]{64})"`,
		func(f *docFacts) []any {
			return []any{hex.EncodeToString(f.hrMeta.FormatHash[:]), hex.EncodeToString(f.hrMeta.VectorSetHash[:])}
		}, false},
	{"docs/hiverelay.md", "the inventory's paths", `## The vector set \(§5\) Exactly the (\d+) paths`,
		func(f *docFacts) []any { return ints(len(f.hrInventoryPaths)) }, false},
	{"docs/hiverelay.md", "hiverelay: rule faults caught, mutants caught, untestable", `least one vector: (\d+) of (\d+) rule faults and (\d+) of (\d+) named mutants, with (\d+) rules untestable`,
		func(f *docFacts) []any { return f.proofRow("hiverelay") }, false},
	{"docs/hiverelay.md", "wrong-class blob negatives (MUT-HR-BLOB-CLASS-FROM-LENGTH)", `the (\d+) wrong-class negatives`,
		func(f *docFacts) []any { return ints(f.suite["hiverelay"].matching(wrongClass)) }, false},
	{"docs/hiverelay.md", "the proof's hiverelay faults and the vectors it runs", `(\d+) faults against the (\d+) hiverelay vectors that apply \(the suite's (\d+) but`,
		func(f *docFacts) []any {
			s := f.suite["hiverelay"]
			return ints(f.faults("hiverelay"), s.defaults(), len(s.ix.Vectors))
		}, false},
	{"docs/hiverelay.md", "hiverelay faults the features catch", `the features alone catch all (\d+) faults as well`,
		func(f *docFacts) []any { return ints(f.caughtBy(false, "hiverelay")) }, false},
	{"docs/hiverelay.md", "hiverelay.authority vectors (proof time)", "most of it is the (\\d+) `hiverelay.authority` vectors",
		func(f *docFacts) []any { return ints(f.suite["hiverelay"].op("hiverelay.authority")) }, false},
	{"docs/hiverelay.md", "MB of hiverelay.authority inputs (conform run)", `sends the testee (\d+) MB of authority inputs`,
		func(f *docFacts) []any { return ints(f.suite["hiverelay"].opMB("hiverelay.authority")) }, false},
	{"docs/hiverelay.md", "the inventory's decode vectors", `the (\d+) decode vectors of the closed inventory`,
		func(f *docFacts) []any { return ints(f.hrDecodeVectors) }, false},
	{"docs/hiverelay.md", "the inventory paths the authority files cover", `cover exactly the (\d+) inventory paths`,
		func(f *docFacts) []any { return ints(len(f.hrInventoryPaths)) }, false},
	{"docs/hiverelay.md", "the inventory files the generator's encoder reproduces", `it reproduces all (\d+) inventory files`,
		func(f *docFacts) []any { return ints(len(f.hrInventoryPaths)) }, false},
	{"docs/hiverelay.md", "hiverelay positives, negatives, recipes", `default generation: (\d+) positives, (\d+) negatives, (\d+) of them recipes`,
		func(f *docFacts) []any {
			s := f.suite["hiverelay"]
			return ints(s.count(func(v *vectorset.Vector) bool { return v.Expect == "accept" }),
				s.count(func(v *vectorset.Vector) bool { return v.Expect == "reject" }),
				s.count(func(v *vectorset.Vector) bool { return v.Recipe != nil }))
		}, false},
	{"docs/hiverelay.md", "wrong-class blob negatives (boundaries)", `decoded with each other class \((\d+) negatives`,
		func(f *docFacts) []any { return ints(f.suite["hiverelay"].matching(wrongClass)) }, false},
	{"docs/hiverelay.md", "vectors the reference classifies", `Two families are classified by the reference \((\d+) vectors`,
		func(f *docFacts) []any {
			return ints(f.suite["hiverelay"].count(func(v *vectorset.Vector) bool {
				return strings.Contains(v.Comment, "(classified by the reference:")
			}))
		}, false},
	{"docs/hiverelay.md", "negatives of a -large generation", `positives \(([\d,]+) negatives in all;`,
		func(f *docFacts) []any { return ints(f.hrLargeNegatives) }, false},
	{"docs/hiverelay.md", "hiverelay.authority vectors, all recipes", "\\*`hiverelay.authority`\\* \\((\\d+) vectors, all recipes\\)",
		func(f *docFacts) []any {
			s := f.suite["hiverelay"]
			n := s.op("hiverelay.authority")
			if s.count(func(v *vectorset.Vector) bool { return v.Op == "hiverelay.authority" && v.Recipe == nil }) > 0 {
				n = -1 // not all recipes
			}
			return ints(n)
		}, false},
	{"docs/hiverelay.md", "MB of hiverelay.authority inputs", `expanded, each is about [\d.]+ MB, (\d+) MB in all`,
		func(f *docFacts) []any { return ints(f.suite["hiverelay"].opMB("hiverelay.authority")) }, false},
	{"docs/hiverelay.md", "hiverelay feature files", `and their steps (\w+) feature files, one per section or codec`,
		func(f *docFacts) []any { return ints(f.spec["hiverelay"].featureFiles) }, false},
	{"docs/hiverelay.md", "hiverelay feature rules", `hold one .Rule:. per catalog rule, (\d+) in all`,
		func(f *docFacts) []any { return ints(f.spec["hiverelay"].featureRules) }, false},

	// docs/lace.md
	{"docs/lace.md", "lace rules, MUST, SHOULD", `## The rule catalog (\d+) rules, (\d+) MUST, (\d+) SHOULD and (\d+) conventions`,
		func(f *docFacts) []any { s := f.spec["lace"]; return ints(s.rules, s.must, s.should, s.convention) }, false},
	{"docs/lace.md", "the lace recipes (the 32 MiB inputs)", `Most of it is the (\w+) 32 MiB recipes`,
		func(f *docFacts) []any { return ints(f.suite["lace"].tagged("recipe")) }, false},
	{"docs/lace.md", "lace mutations: fewest and most per positive, vectors, positives, rejected", `at most 45, (\d+) to (\d+) in practice, ([\d,]+) over (\d+) positives, ([\d,]+) of them rejected`,
		func(f *docFacts) []any { return f.suite["lace"].mutations() }, false},
	{"docs/lace.md", "lace: rule faults caught, mutants caught, untestable", `least one vector: (\d+) of (\d+) rule faults and (\d+) of (\d+) mutants; (\d+) rules are marked untestable`,
		func(f *docFacts) []any { return f.proofRow("lace") }, false},
	{"docs/lace.md", "lace faults the features catch", `catch every one of those faults too \((\d+)/(\d+) and (\d+)/(\d+) in the recorded proof`,
		func(f *docFacts) []any {
			r := f.proofRow("lace")
			return []any{f.caughtBy(false, "lace", false), r[1], f.caughtBy(false, "lace", true), r[3]}
		}, false},
	{"docs/lace.md", "lace vectors that need lace-009 (the engine skips)", `the engine skips those (\w+) vectors' reference check`,
		func(f *docFacts) []any { return ints(f.suite["lace"].profile("lace-009")) }, false},
	{"docs/lace.md", "lace feature rules", `with a .Rule:. for each of the (\d+) catalog rules`,
		func(f *docFacts) []any { return ints(f.spec["lace"].featureRules) }, false},
	{"docs/lace.md", "lace feature files", `\(.01-glyph.feature. … .(\d+)-examples.feature.\)`,
		func(f *docFacts) []any { return ints(f.spec["lace"].featureFiles) }, false},

	// docs/libtracer.md
	{"docs/libtracer.md", "libtracer feature files", `in (\w+) feature files by spec section`,
		func(f *docFacts) []any { return ints(f.spec["libtracer"].featureFiles) }, false},

	// docs/contract-lace.md
	{"docs/contract-lace.md", "lace vectors that need lace-009", `The (\w+) vectors that need it are not applicable`,
		func(f *docFacts) []any { return ints(f.suite["lace"].profile("lace-009")) }, false},
	{"docs/contract-lace.md", "the Lace operations the example testee implements", `It implements the (\w+) operations in both modes`,
		func(f *docFacts) []any { return ints(f.ops("lace")) }, false},
	{"docs/contract-lace.md", "lace vectors that need lace-009 (the example testee)", "all but the (\\w+) that need `lace-009`",
		func(f *docFacts) []any { return ints(f.suite["lace"].profile("lace-009")) }, false},

	// docs/VECTORS.md
	{"docs/VECTORS.md", "the HiveRelay inventory's paths", `closes its vector set to exactly (\d+) paths`,
		func(f *docFacts) []any { return ints(len(f.hrInventoryPaths)) }, false},
	{"docs/VECTORS.md", "the vector manifest's rows", `the strict manifest of exactly the (\d+) inventory paths`,
		func(f *docFacts) []any { return ints(int(f.hrMeta.VectorManifestEntries)) }, false},
	{"docs/VECTORS.md", "the inventory files in the suite tree", `The (\d+) inventory files are part`,
		func(f *docFacts) []any { return ints(len(f.hrInventoryPaths)) }, false},
	{"docs/VECTORS.md", "the inventory files vector-manifest.bin covers", `.vector-manifest.bin. only the (\d+)\.`,
		func(f *docFacts) []any { return ints(int(f.hrMeta.VectorManifestEntries)) }, false},
	{"docs/VECTORS.md", "the paths of the exported authority tree", `exactly the (\d+) relative paths`,
		func(f *docFacts) []any { return ints(len(f.hrInventoryPaths)) }, false},
}

// exampleVector is the vector of docs/CONFORM.md's example report.
const exampleVector = "read-cell-cap-zero-relay-public-key"

// wrongClass names the CellBlobV1 inventory blobs decoded with another
// class.
var wrongClass = regexp.MustCompile(`^hiverelay/negative/cell-blob-v1-class-[1-5]-decoded-as-class-[1-5]$`)

// docUnchecked lists the swept figures that are not figures of the code,
// by file and the text the sweep found, with the reason.
var docUnchecked = []struct{ file, text, why string }{
	{"docs/CONFORM.md", `"FAIL: 1 vector taking`, "the wording of a report line"},
	{"docs/CONFORM.md", "`MUST rules: 13 rules", "the shape of a report line of a run that stopped, not of a particular selection"},
	{"docs/CONFORM.md", "Exit status 1 when a fault", "an exit status"},
	{"docs/CONFORM.md", "exits 1 with one vector", "an exit status"},
	{"docs/PROOF.md", "424 faults then", "the count when that time was measured (dated)"},
	{"docs/PROOF.md", "for the 434 faults. The per-fault", "the faults of the fuzz pass measured (dated; docs/fuzz-faults.json)"},
	{"docs/CONFORM.md", "3,173 vectors/s", "a rate measured with conform fuzz's (dated)"},
	{"docs/CONFORM.md", "2,407 vectors/s", "a rate measured with conform fuzz's (dated)"},
	{"docs/CONFORM.md", "77 rules cited", "the distinct rules the reference cited in a measured fuzz run (dated)"},
	{"docs/CONFORM.md", "84 rules cited", "the distinct rules the reference cited in a measured fuzz run (dated)"},
	{"docs/CONFORM.md", "18 rules cited", "the distinct rules the reference cited in a measured fuzz run (dated)"},
	{"docs/CONFORM.md", "4,910 vectors/s", "a rate measured of conform run beside conform fuzz's (dated)"},
	{"docs/PROOF.md", "every one of the 434 faults within 60 s", "a measurement of conform fuzz --faults (docs/fuzz-faults.json), not computed by the code"},
	{"docs/PROOF.md", "18 Lace faults were missed", "a measurement of an earlier conform fuzz --faults pass (8 s, before the Lace generator's single-defect records), not computed by the code"},
	{"docs/text.md", "Part 1 rule", "a part of Unicode's NormalizationTest.txt"},
	{"docs/CONFORM.md", "359 vectors/s", "a rate measured under wine"},
	{"docs/CONFORM.md", "(16 vectors/s", "a rate measured under wine"},
	{"docs/CONFORM.md", "5,033 vectors/s", "a rate measured of conformtest (In process, from Go)"},
	{"docs/CONFORM.md", "4,189 vectors/s", "a rate measured of conform run beside conformtest's (In process, from Go)"},
	{"docs/DECISIONS.md", "5,000 vectors", "a quality bar, not a count"},
	{"docs/DECISIONS.md", "20,000 small vectors", "the size of the synthetic set the bar is measured on (harness benchmarks, docs/MEASUREMENTS.md)"},
	{"docs/PROTOCOL.md", "128 MiB of paths", "a cap in bytes"},
	{"docs/text.md", "all 4 signing vectors", "BIP-340's test data (impl/mark/testdata), held by TestBIP340Vectors"},
	{"docs/CLAIM.md", "DOES NOT HOLD: 227 of 3632 vectors", "quoted output of one conform verify run against MUT-LT-CRC-OVER-HEADER (cmd/conform's TestClaimVerify checks what verify names)"},
	{"docs/CONFORM.md", "DOES NOT HOLD: 227 of 3632 vectors", "quoted output of one conform verify run against MUT-LT-CRC-OVER-HEADER (cmd/conform's TestClaimVerify checks what verify names)"},
	{"docs/text.md", "exactly 15 vectors", "BIP-340's test data (impl/mark/testdata), held by TestBIP340Vectors's guard"},
}

// docSweep finds a number followed, within two words, by a noun the code
// counts.
var docSweep = regexp.MustCompile(`(?:^|[^\w.,/-])(\d{1,3}(?:,\d{3})+|\d+)(?:\s+|-)(?:(?:[A-Za-z][\w-]*|` + "`[^`\\s]+`" + `)\s+){0,2}?(?:rules?|rule faults?|faults?|vectors?|readings?|mutants?|scenarios?|feature files|untestable|positives|negatives|recipes|operations|inventory files|paths)\b`)

// docFiles are the files checked: README.md and docs/*.md but the
// generated docs/READINGS.md and the dated docs/MEASUREMENTS.md.
func docFiles(t *testing.T, root string) []string {
	t.Helper()
	files := []string{"README.md"}
	md, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range md {
		switch name := filepath.Base(p); name {
		case "READINGS.md", "MEASUREMENTS.md":
		default:
			files = append(files, "docs/"+name)
		}
	}
	return files
}

var spaces = regexp.MustCompile(`\s+`)

func TestDocFigures(t *testing.T) {
	root := filepath.Join("..", "..")
	f := loadDocFacts(t, root)
	text := map[string]string{}
	for _, name := range docFiles(t, root) {
		b, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		text[name] = spaces.ReplaceAllString(string(b), " ")
	}
	covered := map[string][][]int{} // file: spans of the claims found
	claims := append(slices.Clone(docFigures), laceAreaFigures(f)...)
	for _, c := range claims {
		doc, ok := text[c.file]
		if !ok {
			t.Errorf("%s: not among the checked files (%s)", c.file, c.what)
			continue
		}
		re := regexp.MustCompile(c.re)
		found := re.FindAllStringSubmatchIndex(doc, -1)
		if len(found) == 0 {
			t.Errorf("%s: the claim of %s is gone (no match of %s): reword the expression with the sentence, and check its figures", c.file, c.what, c.re)
			continue
		}
		want := c.want(f)
		t.Logf("%s: %s: %v (%d found)", c.file, c.what, want, len(found))
		for _, m := range found {
			covered[c.file] = append(covered[c.file], m[:2])
			if len(m)/2-1 != len(want) {
				t.Fatalf("%s: %s: %d groups, %d values", c.file, c.what, len(m)/2-1, len(want))
			}
			for i, w := range want {
				got := doc[m[2+2*i]:m[3+2*i]]
				if c.ids {
					if ids := strings.Join(ruleIDs(got), " "); ids != strings.Join(w.([]string), " ") {
						t.Errorf("%s: %s: the text names %s; the code has %s", c.file, c.what, ids, strings.Join(w.([]string), " "))
					}
					continue
				}
				if !figureIs(got, w) {
					t.Errorf("%s: %s: the text says %s where the code gives %v (in %q)", c.file, c.what, got, w, excerpt(doc, m[0], m[1]))
				}
			}
		}
	}

	// The sweep: every count-like figure is checked above or listed.
	used := map[int]bool{}
	for _, name := range docFiles(t, root) {
		doc := text[name]
	figures:
		for _, m := range docSweep.FindAllStringSubmatchIndex(doc, -1) {
			at, end := m[2], m[1]
			for _, span := range covered[name] {
				if at >= span[0] && at < span[1] {
					continue figures
				}
			}
			for i, u := range docUnchecked {
				if u.file == name && strings.Contains(doc[max(0, at-40):min(len(doc), end+40)], u.text) {
					used[i] = true
					continue figures
				}
			}
			t.Errorf("%s: %q is a figure no claim of TestDocFigures checks: add its claim to docFigures (or, if the code cannot compute it, to docUnchecked with the reason)", name, excerpt(doc, at, end))
		}
	}
	for i, u := range docUnchecked {
		if !used[i] {
			t.Errorf("docUnchecked: %s: %q is no longer found: remove it", u.file, u.text)
		}
	}
}

// laceAreaFigures checks docs/lace.md's table of the catalog's areas: one
// row per area with its rule count.
func laceAreaFigures(f *docFacts) []docFigure {
	var out []docFigure
	for _, area := range f.spec["lace"].areaOrder {
		n := f.spec["lace"].areas[area]
		out = append(out, docFigure{"docs/lace.md", "lace rules of area " + area, `\| ` + area + ` \| [^|]+ \| (\d+) \|`,
			func(*docFacts) []any { return ints(n) }, false})
	}
	return out
}

// figureIs reports whether the text of a figure states want.
func figureIs(got string, want any) bool {
	switch w := want.(type) {
	case int:
		if n, ok := numberWords[strings.ToLower(got)]; ok {
			return n == w
		}
		n, err := strconv.Atoi(strings.ReplaceAll(got, ",", ""))
		return err == nil && n == w
	case string:
		return got == w
	}
	return false
}

var numberWords = map[string]int{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
	"eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
	"sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20}

func excerpt(doc string, from, to int) string {
	from, to = max(0, from-30), min(len(doc), to+30)
	return doc[from:to]
}

// ruleIDs returns the sorted rule IDs named in s.
func ruleIDs(s string) []string {
	var prefixes []string
	for _, p := range Set().Prefixes() {
		prefixes = append(prefixes, regexp.QuoteMeta(p))
	}
	ids := regexp.MustCompile(`\b(?:`+strings.Join(prefixes, "|")+`)-[A-Z0-9]+-[0-9]{2}\b`).FindAllString(s, -1)
	sort.Strings(ids)
	return slices.Compact(ids)
}

// docFacts is what the code computes of the figures the documents state.
type docFacts struct {
	spec  map[string]*specFacts
	suite map[string]*suiteFacts
	proof *prove.Record

	hrMeta           hiverelay.Metadata
	hrSpec           []byte
	hrSpecSHA256     string
	hrInventoryPaths []string
	hrDecodeVectors  int // inventory vectors but the registry file
	hrCatalogLen     int // the registry vector: the catalog the artifact embeds
	hrLargeNegatives int // negatives of a -large generation of the hiverelay suite
}

// specFacts counts one spec's catalog and features.
type specFacts struct {
	rules, must, should, convention, untestable int
	areas                                       map[string]int // rules by the AREA of <PREFIX>-<AREA>-<nn>
	areaOrder                                   []string
	featureRules, featureFiles                  int
	scenarios                                   int // as godog runs them: an outline once per example row
}

// suiteFacts is one suite's committed index and manifest.
type suiteFacts struct {
	ix      *vectorset.Index
	setHash string // of manifest/<suite>/suite-manifest.bin
	files   int    // its rows
}

func loadDocFacts(t *testing.T, root string) *docFacts {
	t.Helper()
	set := Set()
	f := &docFacts{spec: map[string]*specFacts{}, suite: map[string]*suiteFacts{}}
	for _, s := range set.Specs() {
		sf := &specFacts{areas: map[string]int{}}
		for _, r := range s.Rules {
			sf.rules++
			switch r.Level {
			case rules.LevelShould:
				sf.should++
			case rules.LevelConvention:
				sf.convention++
			default:
				sf.must++
			}
			if r.Untestable != "" {
				sf.untestable++
			}
			area := strings.Split(string(r.ID), "-")[1]
			if sf.areas[area] == 0 {
				sf.areaOrder = append(sf.areaOrder, area)
			}
			sf.areas[area]++
		}
		f.spec[string(s.Name)] = sf

		name := string(s.Name)
		ix, err := vectorset.Load(filepath.Join(root, "vectors"), name)
		if err != nil {
			t.Fatal(err)
		}
		m, err := os.ReadFile(filepath.Join(root, "manifest", name, "suite-manifest.bin"))
		if err != nil {
			t.Fatal(err)
		}
		if len(m) < 4 {
			t.Fatalf("%s: suite manifest of %d bytes", name, len(m))
		}
		h := vectorset.SetHash(m)
		f.suite[name] = &suiteFacts{ix: ix, setHash: hex.EncodeToString(h[:]), files: int(binary.BigEndian.Uint32(m))}
	}

	inv, err := steps.LoadInventory(set, []string{filepath.Join(root, "features")})
	if err != nil {
		t.Fatal(err)
	}
	uris := map[string]map[string]bool{}
	for _, r := range inv.Rules {
		if uris[r.Spec] == nil {
			uris[r.Spec] = map[string]bool{}
		}
		uris[r.Spec][r.URI] = true
		if sf := f.spec[r.Spec]; sf != nil {
			sf.featureRules++
			for _, sc := range r.Scenarios {
				sf.scenarios += max(sc.Examples, 1)
			}
		}
	}
	for name, u := range uris {
		if sf := f.spec[name]; sf != nil {
			sf.featureFiles = len(u)
		}
	}

	b, err := os.ReadFile(filepath.Join(root, "manifest", "proof.json"))
	if err != nil {
		t.Fatal(err)
	}
	f.proof = new(prove.Record)
	if err := json.Unmarshal(b, f.proof); err != nil {
		t.Fatal(err)
	}

	f.hrMeta = hiverelay.ReferenceMetadata()
	f.hrSpec = hiverelay.Spec()
	sum := sha256.Sum256(f.hrSpec)
	f.hrSpecSHA256 = hex.EncodeToString(sum[:])
	f.hrInventoryPaths = hiverelay.InventoryPaths()
	for _, v := range hiverelay.Vectors() {
		if v.Kind == hiverelay.Registry {
			f.hrCatalogLen = len(v.Bytes)
		} else {
			f.hrDecodeVectors++
		}
	}
	large, err := vecgen.Generate([]vecgen.Generator{hivevec.Generator}, vecgen.Options{Large: true})
	if err != nil {
		t.Fatal(err)
	}
	f.hrLargeNegatives = large.Summary[0].Negative
	return f
}

// specOf returns the spec a rule or mutant ID of the proof record is of.
func specOf(id string) string {
	s, ok := Set().ByPrefix(strings.TrimPrefix(id, "MUT-"))
	if !ok {
		return ""
	}
	return string(s.Name)
}

// proofRow gives, for spec (every spec when ""), the rule faults the
// record shows caught, the rules that have a fault (the catalog's testable
// rules), the mutants caught, the catalog's mutants, and the untestable
// rules.
func (f *docFacts) proofRow(spec string) []any {
	var caught, testable, mutCaught, mutants, untestable int
	for id, e := range f.proof.Faults {
		if spec != "" && specOf(id) != spec || len(e.Vectors)+len(e.Scenarios) == 0 {
			continue
		}
		if strings.HasPrefix(id, "MUT-") {
			mutCaught++
		} else {
			caught++
		}
	}
	for name, sf := range f.spec {
		if spec == "" || name == spec {
			testable += sf.rules - sf.untestable
			untestable += sf.untestable
		}
	}
	for _, m := range Set().Mutants() {
		if spec == "" || string(m.Spec) == spec {
			mutants++
		}
	}
	return ints(caught, testable, mutCaught, mutants, untestable)
}

// applicable counts the vectors that apply to the reference (every vector
// but those that need lace-009 and the branch vectors of readings it does
// not take), those that need lace-009 and the branch vectors.
func (f *docFacts) applicable() []any {
	var apply, l009, branch int
	for _, s := range f.suite {
		apply += s.count(func(v *vectorset.Vector) bool { return !isBranch(v) && !slices.Contains(v.Profiles, "lace-009") })
		l009 += s.count(func(v *vectorset.Vector) bool { return slices.Contains(v.Profiles, "lace-009") })
		branch += s.count(isBranch)
	}
	return ints(apply, l009, branch)
}

// ops counts the operations of spec (every spec when ""), hello aside:
// what the reference claims.
func (f *docFacts) ops(spec string) int {
	var n int
	for _, s := range Set().Specs() {
		if spec == "" || string(s.Name) == spec {
			n += len(s.OpNames())
		}
	}
	return n
}

// faults counts the record's faults of spec.
func (f *docFacts) faults(spec string) int {
	var n int
	for id := range f.proof.Faults {
		if specOf(id) == spec {
			n++
		}
	}
	return n
}

// caughtBy counts the record's faults of spec (every spec when "") that
// vectors (or scenarios) catch; kind, when given, keeps only the mutants
// (true) or the rule faults (false).
func (f *docFacts) caughtBy(vectors bool, spec string, kind ...bool) int {
	var n int
	for id, e := range f.proof.Faults {
		if spec != "" && specOf(id) != spec {
			continue
		}
		if len(kind) > 0 && strings.HasPrefix(id, "MUT-") != kind[0] {
			continue
		}
		if vectors && len(e.Vectors) > 0 || !vectors && len(e.Scenarios) > 0 {
			n++
		}
	}
	return n
}

// untestableIDs returns the record's untestable rules, sorted.
func (f *docFacts) untestableIDs() []string {
	var ids []string
	for id := range f.proof.Untestable {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// mustRules counts the MUST rules the vectors test.
func (f *docFacts) mustRules(vs []*vectorset.Vector) int {
	seen := map[string]bool{}
	for _, v := range vs {
		for _, id := range v.Rules {
			if r, ok := Set().Rule(rules.ID(id)); ok && r.Level == rules.LevelMust {
				seen[id] = true
			}
		}
	}
	return len(seen)
}

func isBranch(v *vectorset.Vector) bool { return slices.Contains(v.Tags, "reading-branch") }

func (s *suiteFacts) count(keep func(*vectorset.Vector) bool) int {
	var n int
	for i := range s.ix.Vectors {
		if keep(&s.ix.Vectors[i]) {
			n++
		}
	}
	return n
}

// defaults counts the vectors that are no reading's branch: those a
// testee declaring no reading is judged by (when it claims their
// operations and profiles).
func (s *suiteFacts) defaults() int {
	return s.count(func(v *vectorset.Vector) bool { return !isBranch(v) })
}

// onlyRule counts the vectors that test rule alone.
func (s *suiteFacts) onlyRule(rule string) int {
	return s.count(func(v *vectorset.Vector) bool { return len(v.Rules) == 1 && v.Rules[0] == rule })
}

func (s *suiteFacts) tagged(tag string) int {
	return s.count(func(v *vectorset.Vector) bool { return slices.Contains(v.Tags, tag) })
}

func (s *suiteFacts) profile(p string) int {
	return s.count(func(v *vectorset.Vector) bool { return slices.Contains(v.Profiles, p) })
}

func (s *suiteFacts) op(op string) int {
	return s.count(func(v *vectorset.Vector) bool { return v.Op == op })
}

// opMB is the size of op's inputs, in MB (10^6 bytes), rounded.
func (s *suiteFacts) opMB(op string) int {
	var n int64
	for _, v := range s.ix.Vectors {
		if v.Op == op {
			n += v.Size
		}
	}
	return int((n + 500_000) / 1_000_000)
}

func (s *suiteFacts) matching(re *regexp.Regexp) int {
	return s.count(func(v *vectorset.Vector) bool { return re.MatchString(v.ID) })
}

// named returns the vectors called name.
func (s *suiteFacts) named(name string) []*vectorset.Vector {
	var out []*vectorset.Vector
	for i := range s.ix.Vectors {
		if s.ix.Vectors[i].Name() == name {
			out = append(out, &s.ix.Vectors[i])
		}
	}
	return out
}

// changedBy counts the vectors a testee declaring alternative alt of
// reading changes: the branch vectors then judged and the default vectors
// they set aside.
func (s *suiteFacts) changedBy(reading, alt string) int {
	aside := map[string]bool{}
	var judged int
	for _, v := range s.ix.Vectors {
		if isBranch(&v) && v.Readings[reading] == alt {
			judged++
			aside[v.DerivedFrom] = true
		}
	}
	return judged + len(aside)
}

// mutations gives the mutation family of the lace suite's positives (no
// reading's branch): the fewest and the most of one positive, the
// vectors, the positives, the rejected.
func (s *suiteFacts) mutations() []any {
	per := map[string]int{}
	var n, rejected int
	for _, v := range s.ix.Vectors {
		if !slices.Contains(v.Tags, "mutation") || isBranch(&v) {
			continue
		}
		per[v.DerivedFrom]++
		n++
		if v.Expect == "reject" {
			rejected++
		}
	}
	lo, hi := -1, 0
	for _, k := range per {
		if lo < 0 || k < lo {
			lo = k
		}
		hi = max(hi, k)
	}
	return ints(lo, hi, n, len(per), rejected)
}
