package lacevec

import (
	"github.com/threespec/conformance/impl/lace"
	"github.com/threespec/conformance/impl/lace/lacespec"
	"github.com/threespec/conformance/impl/rules"
)

// Record streams concatenate complete records (Lace-010, LACE-STREAM-01..06):
// lace.stream vectors (.lrs).

func (g *gen) streamOK(name string, rs []record, rules []rules.ID, comment string) {
	var in [][]byte
	var hashes []string
	for _, r := range rs {
		in = append(in, r.bytes())
		hashes = append(hashes, r.hash())
	}
	g.add(vec{name: name, op: lacespec.OpStream, in: concat(in...), ok: true, result: streamResult(hashes...), rules: rules, comment: comment})
}

func (g *gen) streamBad(name string, in []byte, rules []rules.ID, t []string, comment string) {
	g.add(vec{name: name, op: lacespec.OpStream, in: in, rules: rules, tags: t, comment: comment})
}

// cut is a named position inside a record.
type cut struct {
	name string // for the vector name
	what string // for the comment
	at   int
}

// sealCuts are the structural boundaries of a Seal over a Plex of n fields
// over a Blob with data: inside and after each kind of line, inside the data.
func sealCuts(b []byte, nFields int) []cut {
	var ends []int // offsets just after each LF of the header lines
	for i, c := range b {
		if c == '\n' {
			ends = append(ends, i+1)
		}
		if len(ends) == 3+nFields+4 {
			break // glyph, By, Mark, Plex glyph, fields, Blob glyph, Data-Length, blank
		}
	}
	mid := func(k int) int { // middle of line k (0-based)
		start := 0
		if k > 0 {
			start = ends[k-1]
		}
		return (start + ends[k]) / 2
	}
	f := 4 // first field line
	last := f + nFields - 1
	return []cut{
		{"inside-glyph-character", "inside the glyph character", 2},
		{"after-glyph-prefix", "after '🖧: '", len(glyphPrefix)},
		{"inside-glyph-hash-text", "inside its glyph's hash text", mid(0)},
		{"after-glyph-line", "after its glyph line", ends[0]},
		{"inside-by-line", "inside its By line", mid(1)},
		{"after-by-line", "after its By line", ends[1]},
		{"inside-mark-line", "inside its Mark line", mid(2)},
		{"after-mark-line", "after its Mark line", ends[2]},
		{"after-plex-glyph-line", "after its Plex glyph line", ends[3]},
		{"inside-first-field-line", "inside its first field line", mid(f)},
		{"after-first-field-line", "after its first field line", ends[f]},
		{"after-last-field-line", "after its last field line", ends[last]},
		{"inside-blob-glyph-line", "inside its Blob glyph line", mid(last + 1)},
		{"after-blob-glyph-line", "after its Blob glyph line", ends[last+1]},
		{"inside-data-length-line", "inside its Data-Length line", mid(last + 2)},
		{"after-data-length-line", "after its Data-Length line", ends[last+2]},
		{"after-blank-line", "after its blank line, before the data", ends[last+3]},
		{"inside-data", "inside its data", ends[last+3] + 2},
	}
}

func streamVectors(g *gen) {
	g.streamOK("stream-empty", nil, ids(lace.RuleStreamEmpty), "an empty stream holds no records")
	g.streamOK("stream-seed-blob-plex-seal", []record{seedBlob(), seedPlex(), seedSeal()},
		ids(lace.RuleStreamConcat, lace.RuleStreamValidate, lace.RuleVecBlob, lace.RuleVecPlex, lace.RuleVecSeal),
		"the three canonical records concatenated, with no separator (the Seal's Mark is not verified)")
	g.streamOK("stream-one-record", []record{seedPlex()}, ids(lace.RuleStreamLrsSuffix, lace.RuleStreamConcat),
		"a .lr file is a one-record stream")
	g.streamOK("stream-repeated-record", []record{seedBlob(), seedBlob()}, ids(lace.RuleStreamConcat),
		"the same record twice: each is listed")
	g.streamOK("stream-blob-data-is-a-record", []record{blobR([]byte(seedSealText)), seedBlob()}, ids(lace.RuleStreamConcat, lace.RuleBlobOpaque, lace.RuleNestBlob),
		"a Blob whose data is a complete Seal, then a Blob: Data-Length delimits, the data is never read as records")
	g.streamOK("stream-empty-blobs-around-plex", []record{blobR(nil), plexR(nil, "App: chat"), blobR(nil)}, ids(lace.RuleStreamConcat, lace.RuleBlobEmptyData),
		"records of empty data: each next record starts right after the blank line")

	// Truncated inside the last record, at each structural boundary.
	last := signer7.seal(seedPlex()).bytes()
	for _, c := range sealCuts(last, len(seedFields)) {
		rs := ids(lace.RuleStreamTruncated)
		if c.at > len(last)-len(hello)-1 {
			rs = ids(lace.RuleBlobExactData, lace.RuleStreamTruncated) // too few data bytes: the more specific rule
		}
		g.streamBad("stream-truncated-"+c.name, concat([]byte(seedBlobText), last[:c.at]), rs, tags("boundary"),
			"the canonical Blob, then a Seal cut "+c.what+": the stream ends inside a record")
	}

	for _, c := range []struct {
		name, tail string
		comment    string
	}{
		{"stream-garbage-lf", "\n", "a LF: records have no separator or trailer"},
		{"stream-garbage-text", "hello", "the bytes hello, which begin no record"},
		{"stream-garbage-nul", "\x00", "a NUL byte"},
		{"stream-garbage-bom-before-record", "\ufeff" + seedPlexText, "a byte-order mark and the canonical Plex"},
		{"stream-garbage-space-before-record", " " + seedPlexText, "a space and the canonical Plex"},
	} {
		g.streamBad(c.name, []byte(seedBlobText+c.tail), ids(lace.RuleStreamGarbage), nil, "the canonical Blob, then "+c.comment)
	}
	g.streamBad("stream-partial-glyph-at-end", []byte(seedBlobText+glyph), ids(lace.RuleStreamTruncated), tags("boundary"),
		"the canonical Blob, then the four bytes of the glyph alone: the stream ends inside a record glyph line")
	g.streamBad("stream-second-record-digest-mismatch", []byte(seedBlobText+seedPlexText[:len(seedPlexText)-1]+"p"), ids(lace.RuleGlyphEmbedded, lace.RuleStreamValidate), nil,
		"the canonical Blob, then the canonical Plex with its last data byte changed: every record is validated")
	g.streamBad("stream-second-record-data-length-01", concat([]byte(seedBlobText), blobDL([]byte("h"), "Data-Length: 01").bytes()), ids(lace.RuleBlobDataLength, lace.RuleStreamValidate), nil,
		"the canonical Blob, then a Blob with Data-Length: 01")
	g.streamBad("stream-leading-garbage", []byte("x"+seedBlobText), ids(lace.RuleGlyphLine, lace.RuleStreamGarbage), nil,
		"a byte x before the first record: a stream starts with a record or is empty")
}
