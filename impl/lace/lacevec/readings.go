package lacevec

import (
	"github.com/threespec/conformance/impl/lace"
	"github.com/threespec/conformance/internal/vecgen"
	"github.com/threespec/conformance/vectorset"
)

// readingUses ties the Lace vectors to the readings of lace.Readings
// (docs/READINGS.md). Lace names no error codes, so no reading changes a
// rejection's code; the reference takes no other branch of a Lace reading.
func readingUses() []vecgen.ReadingUse {
	p := func(names ...string) []string { return vecgen.Prefixed("lace/positive/", names) }
	n := func(names ...string) []string { return vecgen.Prefixed("lace/negative/", names) }
	return vecgen.WithAffected([]vecgen.ReadingUse{
		{Reading: lace.ReadValueLeadingSpace, Vectors: append(p("plex-value-leading-space", "construct-value-spaces-kept"), n("blob-data-length-two-spaces")...),
			Branches: []vecgen.Branch{{Of: "lace/positive/plex-value-leading-space", Alternative: lace.AltSecondSpaceRejected,
				Expect: vectorset.Reject, Rules: []string{"LACE-FIELD-04"}, Comment: "Name:  x breaks \"exactly one ASCII space follows :\""}}},
		{Reading: lace.ReadPadBits, Vectors: n("glyph-digest-pad-bits", "seal-by-pad-bits", "seal-mark-pad-bits", "chunks-target-pad-bits",
			"dir-child-target-pad-bits", "dir-file-target-pad-bits", "dir-page-target-pad-bits")},
		{Reading: lace.ReadBoundMeasure, Vectors: append(p("chunks-at-max-bytes", "chunks-at-max-depth", "chunks-at-max-expansion", "dir-at-max-depth", "dir-at-max-expansion"),
			n("chunks-over-max-bytes", "chunks-over-max-depth", "chunks-over-max-expansion", "chunks-over-max-expansion-by-repeats", "dir-over-max-depth",
				"dir-over-max-expansion", "dir-over-max-expansion-by-reuse")...)},
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
