package lacevec

import (
	"encoding/json"

	"github.com/threespec/conformance/impl/lace"
	"github.com/threespec/conformance/internal/vecgen"
	"github.com/threespec/conformance/vectorset"
)

// readingUses ties the Lace vectors to the readings of lace.Readings
// (docs/READINGS.md), and gives every alternative its branch vectors: the
// expectation an implementation taking it must meet, computed here from
// the generator's own models. Lace names no error codes, so no reading
// changes a rejection's code.
func readingUses() []vecgen.ReadingUse {
	p := func(names ...string) []string { return vecgen.Prefixed("lace/positive/", names) }
	n := func(names ...string) []string { return vecgen.Prefixed("lace/negative/", names) }
	reject := func(of string, alt string, rule string, comment string) vecgen.Branch {
		return vecgen.Branch{Of: of, Alternative: alt, Expect: vectorset.Reject, Rules: []string{rule}, Comment: comment}
	}
	accept := func(of string, alt string, result map[string]any, comment string) vecgen.Branch {
		b, err := json.Marshal(result)
		if err != nil {
			panic(err) // maps of strings, numbers and lists
		}
		return vecgen.Branch{Of: of, Alternative: alt, Expect: vectorset.Accept, Result: b, Comment: comment}
	}
	return vecgen.WithAffected([]vecgen.ReadingUse{
		{Reading: lace.ReadValueLeadingSpace, Vectors: append(p("plex-value-leading-space", "construct-value-spaces-kept"), n("blob-data-length-two-spaces")...),
			Branches: []vecgen.Branch{reject("lace/positive/plex-value-leading-space", lace.AltSecondSpaceRejected, "LACE-FIELD-04",
				"Name:  x breaks \"exactly one ASCII space follows :\"")}},
		{Reading: lace.ReadPadBits, Vectors: n("glyph-digest-pad-bits", "seal-by-pad-bits", "seal-mark-pad-bits", "chunks-target-pad-bits",
			"dir-child-target-pad-bits", "dir-file-target-pad-bits", "dir-page-target-pad-bits"),
			Branches: []vecgen.Branch{
				accept("lace/negative/glyph-digest-pad-bits", lace.AltPadBitsIgnored, recordResult(seedBlob()),
					"the digest text decodes to the canonical Blob's digest, so it is that Blob"),
				accept("lace/negative/chunks-target-pad-bits", lace.AltPadBitsIgnored, chunksResult(blobFile("abc")),
					"the target decodes to the Blob abc's digest, so the file is abc"),
			}},
		{Reading: lace.ReadBoundMeasure, Vectors: append(p("chunks-at-max-bytes", "chunks-at-max-depth", "chunks-at-max-expansion", "dir-at-max-depth", "dir-at-max-expansion"),
			n("chunks-over-max-bytes", "chunks-over-max-depth", "chunks-over-max-expansion", "chunks-over-max-expansion-by-repeats", "dir-over-max-depth",
				"dir-over-max-expansion", "dir-over-max-expansion-by-reuse")...),
			Branches: []vecgen.Branch{
				reject("lace/positive/chunks-at-max-depth", lace.AltRecordsOnPath, "LACE-DIR-29", "the deepest Blob, 2 links below the root, is the third record on its path: over max_depth 2"),
				reject("lace/positive/dir-at-max-depth", lace.AltRecordsOnPath, "LACE-DIR-29", "the deepest entry is one record deeper than the links that reach it: over max_depth"),
				reject("lace/positive/chunks-at-max-expansion", lace.AltRecordsOnPath, "LACE-DIR-30", "the root is one more record entered: 5 against max_expansion 4"),
				reject("lace/positive/dir-at-max-expansion", lace.AltRecordsOnPath, "LACE-DIR-30", "the root is one more record entered: 7 against max_expansion 6"),
			}},
		{Reading: lace.ReadLinkTarget, Vectors: p("plex-link-spec-examples", "plex-link-malformed-values", "plex-link-field-names"),
			Branches: []vecgen.Branch{
				accept("lace/positive/plex-link-spec-examples", lace.AltH3PayloadChecked, withFieldsUnder(recordResult(linkExamples()), linkExamples(), lace.AltH3PayloadChecked),
					"EXAMPLE_SEAL_HASH and EXAMPLE_BLOB_HASH are no canonical H3 digests: both examples are malformed links of a valid record"),
				accept("lace/positive/plex-link-malformed-values", lace.AltTypedPrefixOnly, withFieldsUnder(recordResult(malformedLinks()), malformedLinks(), lace.AltTypedPrefixOnly),
					"name B.x begins with B. and holds more: a link (name B. and the others stay malformed)"),
			}},
	}, affected)
}

// affected lists, by reading, the vectors its branches change besides
// those named above.
var affected = [][2]string{
	{"LACE-READ-01", "lace/positive/plex-value-leading-space--one-more-data-byte"},
	{"LACE-READ-01", "lace/positive/plex-value-leading-space--duplicate-field-1"},
	{"LACE-READ-01", "lace/positive/plex-link-malformed-values--one-more-data-byte"},
	{"LACE-READ-01", "lace/positive/plex-link-malformed-values--duplicate-field-1"},
	{"LACE-READ-01", "lace/positive/plex-link-malformed-values"},
	{"LACE-READ-01", "lace/positive/dir-names-with-spaces"},
}
