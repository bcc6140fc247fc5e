package lace

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/threespec/conformance/impl/rules"
)

// ruleTests names, for every rule of the catalog, the tests of this package
// or of ./convention that exercise it. A rule no byte input can test names
// no test but says why. TestEveryRuleHasATest keeps this map honest: every
// catalog rule has an entry and every named test exists.
var ruleTests = map[rules.ID][]string{
	RuleGlyphLine:        {"TestRejections"},
	RuleGlyphHashText:    {"TestRejections"},
	RuleGlyphDigestBytes: {"TestVectorBlob", "TestVectorPlex", "TestConstructFaults"},
	RuleGlyphDigestText:  {"TestRejections"},
	RuleGlyphTypeMatch:   {"TestRejections"},
	RuleGlyphDigestMatch: {"TestRejections", "TestRejectionList"},
	RuleGlyphEmbedded:    {"TestRejections", "TestRejectionList", "TestMaximumSizes"},
	RuleGlyphTrailing:    {"TestRejections", "TestRejectionList"},
	RuleGlyphLrSuffix:    {"not byte-testable: a file-naming convention for tools"},
	RuleGlyphLrValidate:  {"not byte-testable: readers are given bytes, never trusted names; Parse validates whatever it is given"},

	RuleStreamConcat:    {"TestStream", "TestStreamPrefixes"},
	RuleStreamValidate:  {"TestRejections"},
	RuleStreamTruncated: {"TestRejections", "TestStreamPrefixes"},
	RuleStreamGarbage:   {"TestRejections"},
	RuleStreamEmpty:     {"TestStream"},
	RuleStreamLrsSuffix: {"not byte-testable: a file-naming convention for tools"},

	RuleFieldSyntax:       {"TestRejections"},
	RuleFieldNameEmpty:    {"TestRejections", "TestConstructRejects"},
	RuleFieldNameChars:    {"TestRejections", "TestConstructRejects"},
	RuleFieldOneSpace:     {"TestRejections", "TestViolationPosition"},
	RuleFieldValueEmpty:   {"TestRejections", "TestConstructRejects"},
	RuleFieldUTF8:         {"TestRejections", "TestConstructRejects"},
	RuleFieldNFC:          {"TestRejections", "TestRejectionList", "TestConstructRejects"},
	RuleFieldUnicode17:    {"TestRejections", "TestAccepted"},
	RuleFieldLF:           {"TestRejections", "TestRejectionList", "TestConstructRejects"},
	RuleFieldControl:      {"TestRejections", "TestConstructRejects"},
	RuleFieldLineLength:   {"TestRejections", "TestExamples", "TestViolationPosition"},
	RuleFieldWhitespace:   {"TestAccepted", "TestConstructRejects", "TestConstructFaults"},
	RuleFieldStructural:   {"TestRejections"},
	RuleFieldLeadingSpace: {"TestAccepted", "TestConstructRejects", "TestDirectoryAccepted"},

	RuleBlobDataLengthLine: {"TestRejections"},
	RuleBlobBlankLine:      {"TestRejections"},
	RuleBlobDataLength:     {"TestRejections", "TestRejectionList"},
	RuleBlobExactData:      {"TestRejections", "TestStreamPrefixes", "TestMemoryBoundedByInput"},
	RuleBlobMaxData:        {"TestRejections", "TestRejectionList", "TestConstructRejects"},
	RuleBlobOpaque:         {"TestAccepted"},
	RuleBlobEmptyData:      {"TestAccepted", "TestConstructForms"},

	RulePlexStructure:      {"TestAccepted", "TestVectorPlex"},
	RulePlexMinFields:      {"TestRejections", "TestExamples"},
	RulePlexMaxFields:      {"TestRejections", "TestExamples", "TestConstructRejects"},
	RulePlexKindField:      {"TestAccepted"},
	RulePlexSortNames:      {"TestConstructOrder", "TestConstructFaults"},
	RulePlexSameName:       {"TestConstructOrder", "TestConstructFaults"},
	RulePlexCtorOrder:      {"TestConstructOrder", "TestExamples", "TestConstructFaults"},
	RulePlexOrder:          {"TestRejections", "TestExamples", "TestRejectionList"},
	RulePlexValuesUnsorted: {"TestExamples", "TestConstructFaults"},
	RulePlexReserved:       {"TestRejections", "TestRejectionList"},
	RulePlexReservedOnly:   {"TestAccepted"},
	RulePlexNoSchema:       {"TestConventionsLeaveRecordsGeneric"},

	RuleSealStructure:  {"TestSealAccepted", "TestVectorSeal"},
	RuleSealByFirst:    {"TestRejections", "TestRejectionList"},
	RuleSealByText:     {"TestRejections", "TestRejectionList"},
	RuleSealMarkSecond: {"TestRejections", "TestRejectionList"},
	RuleSealMarkText:   {"TestRejections", "TestRejectionList"},
	RuleSealSubject:    {"TestRejections", "TestRejectionList"},
	RuleSealVerify:     {"TestRejections", "TestVectorSeal", "TestExamples"},
	RuleSealNoBlob:     {"TestRejections", "TestExamples"},
	RuleSealNoEnvelope: {"TestRejections"},

	RuleCtorEmpty:       {"TestConstructForms", "TestConstructFaults"},
	RuleCtorDataOnly:    {"TestConstructForms", "TestConstructFaults"},
	RuleCtorFields:      {"TestConstructForms", "TestConstructFaults"},
	RuleCtorSecretOnly:  {"TestConstructForms", "TestConstructFaults"},
	RuleCtorSeal:        {"TestConstructForms", "TestConstructSeal", "TestConstructFaults"},
	RuleCtorOmittedData: {"TestConstructForms"},
	RuleCtorNoInvented:  {"TestConstructNoInvention", "TestConstructFaults"},
	RuleCtorValidate:    {"TestConstructRejects", "TestConstructFaults"},
	RuleCtorReserved:    {"TestConstructRejects", "TestConstructFaults"},
	RuleCtorDeriveMark:  {"TestConstructSeal"},

	RuleLinkName:          {"TestIsLinkName", "TestLinks"},
	RuleLinkData:          {"TestParseLink"},
	RuleLinkSeparator:     {"TestParseLink"},
	RuleLinkTarget:        {"TestParseLink"},
	RuleLinkAnySuffix:     {"TestParseLink"},
	RuleLinkSuffixDefines: {"TestParseLink", "TestFileRejections", "TestDirectoryRejections"},
	RuleLinkDataSpaces:    {"TestParseLink"},
	RuleLinkSplit:         {"TestParseLink", "TestDirectoryAccepted"},
	RuleLinkBudget:        {"TestDirectoryAccepted"},
	RuleLinkMalformedOK:   {"TestAccepted", "TestLinks"},
	RuleLinkIndexIgnore:   {"TestLinks"},
	RuleLinkUnsupported:   {"TestParseLink"},
	RuleLinkExamples:      {"TestParseLink"},
	RuleConvRecordValid:   {"TestFileRejections", "TestDirectoryRejections"},
	RuleConvRawFields:     {"TestFileRejections", "TestDirectoryRejections"},
	RuleConvNoNames:       {"TestConventionsLeaveRecordsGeneric"},
	RuleConvNoCtor:        {"TestConventionsLeaveRecordsGeneric"},
	RuleLinkNotAcquired:   {"TestConventionsLeaveRecordsGeneric"},

	RuleChunkPlex:            {"TestFileRejections"},
	RuleChunkEmptyData:       {"TestFileRejections"},
	RuleChunkKind:            {"TestFileRejections"},
	RuleChunkLinks:           {"TestFileRejections"},
	RuleChunkNoOther:         {"TestFileRejections"},
	RuleChunkTarget:          {"TestFileRejections"},
	RuleChunkNoSeal:          {"TestFileRejections"},
	RuleChunkFormat:          {"TestFileRejections"},
	RuleChunkOtherPlex:       {"TestFileRejections", "TestDirectoryRejections"},
	RuleChunkBareBlob:        {"TestFileAccepted"},
	RuleChunkEmptyFile:       {"TestFileAccepted"},
	RuleChunkRangeForm:       {"TestFileRejections"},
	RuleChunkDecimal:         {"TestFileRejections"},
	RuleChunkOverflow:        {"TestFileRejections"},
	RuleChunkPositive:        {"TestFileRejections"},
	RuleChunkStartZero:       {"TestFileRejections"},
	RuleChunkContiguous:      {"TestFileRejections"},
	RuleChunkChildLength:     {"TestFileRejections"},
	RuleChunkFinalEnd:        {"TestFileAccepted"},
	RuleChunkChildExists:     {"TestFileRejections", "TestStreamFileEmpty"},
	RuleChunkNoPartial:       {"TestFileRejections"},
	RuleChunkSharing:         {"TestFileAccepted"},
	RuleChunkFanout:          {"TestFileAccepted"},
	RuleChunkHashSignificant: {"TestFileAccepted"},

	RuleDirPlex:            {"TestDirectoryRejections"},
	RuleDirEmptyData:       {"TestDirectoryRejections"},
	RuleDirKind:            {"TestDirectoryRejections"},
	RuleDirOnlyFields:      {"TestDirectoryRejections"},
	RuleDirFileTarget:      {"TestDirectoryRejections"},
	RuleDirChildTarget:     {"TestDirectoryRejections"},
	RuleDirPageTarget:      {"TestDirectoryRejections"},
	RuleDirEmpty:           {"TestDirectoryAccepted"},
	RuleDirNameEmpty:       {"TestDirectoryRejections"},
	RuleDirNameNFC:         {"TestCheckName"},
	RuleDirNameDots:        {"TestDirectoryRejections", "TestCheckName"},
	RuleDirNameSlash:       {"TestDirectoryRejections", "TestCheckName"},
	RuleDirNameControl:     {"TestCheckName"},
	RuleDirNameExact:       {"TestDirectoryAccepted"},
	RuleDirNameBudget:      {"TestDirectoryAccepted"},
	RuleDirFileOrder:       {"TestDirectoryRejections"},
	RuleDirChildOrder:      {"TestDirectoryRejections"},
	RuleDirParsedNames:     {"TestDirectoryAccepted", "TestDirectoryRejections"},
	RuleDirPageOrdinal:     {"TestDirectoryRejections"},
	RuleDirUnion:           {"TestDirectoryAccepted"},
	RuleDirUnique:          {"TestDirectoryRejections"},
	RuleDirPagesUnordered:  {"TestDirectoryAccepted"},
	RuleDirExists:          {"TestDirectoryRejections", "TestStreamDirectoryEmpty"},
	RuleDirFormat:          {"TestDirectoryRejections"},
	RuleDirFamily:          {"TestDirectoryRejections"},
	RuleDirFanout:          {"TestDirectoryAccepted"},
	RuleDirReuse:           {"TestDirectoryAccepted"},
	RuleDirHashSignificant: {"TestDirectoryAccepted"},
	RuleDirDepth:           {"TestFileRejections", "TestDirectoryRejections"},
	RuleDirExpansion:       {"TestFileRejections", "TestDirectoryRejections"},
	RuleDirCycle:           {"TestFileRejections", "TestDirectoryRejections"},
	RuleDirBoundsGeneric:   {"TestConventionsLeaveRecordsGeneric"},

	RuleNestBlob:     {"TestAccepted"},
	RuleNestPlex:     {"TestRejections"},
	RuleNestSeal:     {"TestRejections"},
	RuleNestComplete: {"TestRejections", "TestMaximumSizes"},

	RuleSizeBlob:     {"TestMaximumSizes"},
	RuleSizePlex:     {"TestMaximumSizes"},
	RuleSizeSeal:     {"TestMaximumSizes"},
	RuleSizeNotProof: {"TestMaximumSizes"},

	RuleVecBlob:     {"TestVectorBlob", "TestVectorFilesMatchSpec"},
	RuleVecPlex:     {"TestVectorPlex", "TestVectorFilesMatchSpec"},
	RuleVecSeal:     {"TestVectorSeal", "TestVectorFilesMatchSpec"},
	RuleVecAppOrder: {"TestVectorPlex"},
	RuleVecSealMark: {"TestVectorSeal"},

	RuleExLineASCII:     {"TestExamples"},
	RuleExLineUTF8:      {"TestExamples"},
	RuleExOneField:      {"TestExamples"},
	RuleExMaxFields:     {"TestExamples"},
	RuleExRepeatedNames: {"TestExamples"},
	RuleExReversed:      {"TestExamples"},
	RuleExNoValueSort:   {"TestExamples"},
	RuleExGroupFirst:    {"TestExamples"},
	RuleExForeignMark:   {"TestExamples"},
	RuleExSealOverBlob:  {"TestExamples"},
}

func TestEveryRuleHasATest(t *testing.T) {
	t.Parallel()
	defined := map[string]bool{}
	for _, pattern := range []string{"*_test.go", filepath.Join("convention", "*_test.go")} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range regexp.MustCompile(`(?m)^func (Test\w+)\(`).FindAllSubmatch(src, -1) {
				defined[string(m[1])] = true
			}
		}
	}
	for _, r := range Catalog() {
		tests, ok := ruleTests[r.ID]
		if !ok || len(tests) == 0 {
			t.Errorf("%s has no entry in ruleTests", r.ID)
			continue
		}
		for _, name := range tests {
			if strings.HasPrefix(name, "not byte-testable: ") {
				if r.Level == rules.LevelMust && r.ID != RuleGlyphLrValidate {
					t.Errorf("%s is a MUST rule marked untestable", r.ID)
				}
				continue
			}
			if !defined[name] {
				t.Errorf("%s names %s, which is not a test", r.ID, name)
			}
		}
	}
	for id := range ruleTests {
		if _, ok := Lookup(id); !ok {
			t.Errorf("ruleTests names %s, which is not in the catalog", id)
		}
	}
}
