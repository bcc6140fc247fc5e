package lacevec

import (
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/zeebo/blake3"

	"github.com/threespec/conformance/impl/lace"
	"github.com/threespec/conformance/impl/lace/lacespec"
	"github.com/threespec/conformance/impl/rules"
)

// Chunk sequences describe complete file bytes (Lace-010, LACE-CHUNK-01..24):
// lace.chunks vectors. Each input is a record stream whose first record is
// the root; the expected length and BLAKE3-256 are those of the bytes the
// generator assembles from its own file model.

// file is a file as the generator models it: a bare Blob (kids nil) or a
// chunk node whose ranges relocate its kids, in order.
type file struct {
	data []byte
	kids []*file
}

func blobFile(data string) *file { return &file{data: []byte(data)} }

func chunkFile(kids ...*file) *file { return &file{kids: kids} }

// bytes is the file's assembled content.
func (f *file) bytes() []byte {
	if f.kids == nil {
		return f.data
	}
	var out []byte
	for _, k := range f.kids {
		out = append(out, k.bytes()...)
	}
	return out
}

// link is a Chunk+Link line for the range start..end to target.
func chunkLink(start, end int, target string) string {
	return "Chunk+Link: " + strconv.Itoa(start) + ".." + strconv.Itoa(end) + " " + target
}

// rec is the file's record: the Blob, or the chunk node (a Plex with empty
// data, one Chunk+Link per kid in range order, and Kind: chunks).
func (f *file) rec() record {
	if f.kids == nil {
		return blobR(f.data)
	}
	var fields []string
	at := 0
	for _, k := range f.kids {
		n := len(k.bytes())
		fields = append(fields, chunkLink(at, at+n, k.rec().hash()))
		at += n
	}
	return plexR(nil, append(fields, "Kind: chunks")...)
}

func (f *file) subtrees() []tree {
	ts := make([]tree, len(f.kids))
	for i, k := range f.kids {
		ts[i] = k
	}
	return ts
}

// streamOf is the stream of root and then the other records, each once.
func streamOf(root record, others ...record) []byte {
	seen := map[string]bool{root.hash(): true}
	out := root.bytes()
	for _, r := range others {
		if !seen[r.hash()] {
			seen[r.hash()] = true
			out = append(out, r.bytes()...)
		}
	}
	return out
}

func chunksResult(f *file) map[string]any {
	b := f.bytes()
	d := blake3.Sum256(b)
	return map[string]any{"length": len(b), "blake3": hex.EncodeToString(d[:])}
}

func (g *gen) chunksOK(name string, f *file, in []byte, bounds string, rs []rules.ID, t []string, comment string) {
	if in == nil {
		in = treeStream(f)
	}
	g.add(vec{name: name, op: lacespec.OpChunks, in: in, bounds: bounds, ok: true, result: chunksResult(f), rules: rs, tags: t, comment: comment})
}

func (g *gen) chunksBad(name string, in []byte, bounds string, rs []rules.ID, t []string, comment string) {
	g.add(vec{name: name, op: lacespec.OpChunks, in: in, bounds: bounds, rules: rs, tags: t, comment: comment})
}

// padBits is canonical H3 hash text with one pad bit of its last digest
// character set: the same 32 bytes to a decoder that ignores pad bits, no
// canonical text to one that does not.
func padBits(h string) string { return h[:44] + nextChar(h[44]) + h[45:] }

// node is a chunk-node-like Plex with empty data and the given field lines.
func node(fields ...string) record { return plexR(nil, fields...) }

func chunkVectors(g *gen) {
	abc, defgh := blobFile("abc"), blobFile("defgh")
	two := chunkFile(abc, defgh)
	nested := chunkFile(two, blobFile("ij"))
	b := tags("boundary")

	g.chunksOK("chunks-bare-blob-file", blobFile("hello"), nil, "", ids(lace.RuleChunkBareBlob), nil, "a file that is a bare Blob: its data")
	g.chunksOK("chunks-empty-file", blobFile(""), nil, "", ids(lace.RuleChunkEmptyFile), nil, "an empty file is an empty Blob: length 0")
	g.chunksOK("chunks-two-blobs", two, nil, "",
		ids(lace.RuleChunkPlex, lace.RuleChunkKind, lace.RuleChunkLinks, lace.RuleChunkRangeForm, lace.RuleChunkDecimal, lace.RuleChunkStartZero, lace.RuleChunkContiguous, lace.RuleChunkChildLength, lace.RuleChunkFinalEnd),
		nil, "a chunk node of 0..3 abc and 3..8 defgh: the file abcdefgh")
	g.chunksOK("chunks-nested-node", nested, nil, "", ids(lace.RuleChunkTarget, lace.RuleChunkChildLength, lace.RuleChunkFinalEnd), nil,
		"a chunk node whose first range 0..8 is another chunk node: the child is relocated whole")
	g.chunksOK("chunks-three-levels", chunkFile(nested, chunkFile(blobFile("k")), two), nil, "", ids(lace.RuleChunkTarget, lace.RuleChunkFanout), nil,
		"three levels of chunk nodes, one with a single link")
	g.chunksOK("chunks-shared-child", chunkFile(abc, abc, abc), nil, "", ids(lace.RuleChunkSharing), nil,
		"one Blob at three separate ranges: abcabcabc")
	g.chunksOK("chunks-shared-subtree", chunkFile(two, two), nil, "", ids(lace.RuleChunkSharing), nil,
		"one chunk node at two ranges")
	x := blobFile("x")
	wide := make([]*file, 511)
	for i := range wide {
		wide[i] = x
	}
	g.chunksOK("chunks-511-links", chunkFile(wide...), nil, "", ids(lace.RuleChunkFanout, lace.RulePlexMaxFields), b,
		"a chunk node with 511 Chunk+Link occurrences and its Kind: 512 fields, the most a node holds")
	rs := records(nested)
	rev := []record{rs[0]}
	for i := len(rs) - 1; i > 0; i-- {
		rev = append(rev, rs[i])
	}
	g.chunksOK("chunks-records-in-reverse-order", nested, streamOf(rev[0], rev[1:]...), "", ids(lace.RuleChunkChildExists), nil,
		"the root first, the other records in reverse order: only the root's place is fixed")
	g.chunksOK("chunks-unreferenced-record", two, concat(treeStream(two), []byte(seedSealText)), "", ids(lace.RuleChunkChildExists), nil,
		"a stream holding a record the file does not reference (the canonical Seal): it is validated and ignored")
	other := chunkFile(blobFile("abcd"), blobFile("efgh"))
	g.chunksOK("chunks-same-bytes-other-tree", other, nil, "", ids(lace.RuleChunkHashSignificant), nil,
		"abcdefgh as 0..4 abcd and 4..8 efgh: the same bytes as chunks-two-blobs under another root hash ("+other.rec().hash()+" vs "+two.rec().hash()+")")

	// Bounds, on both sides (the default bounds are the testee's own).
	d, n, size := depth(nested), uses(nested), len(nested.bytes())
	g.chunksOK("chunks-at-max-depth", nested, nil, `"max_depth":`+strconv.Itoa(d), ids(lace.RuleDirDepth), b,
		"max_depth "+strconv.Itoa(d)+": the deepest Blob is "+strconv.Itoa(d)+" links from the root")
	g.chunksBad("chunks-over-max-depth", treeStream(nested), `"max_depth":`+strconv.Itoa(d-1), ids(lace.RuleDirDepth), b,
		"max_depth "+strconv.Itoa(d-1)+": the deepest Blob is "+strconv.Itoa(d)+" links from the root")
	g.chunksOK("chunks-at-max-expansion", nested, nil, `"max_expansion":`+strconv.Itoa(n), ids(lace.RuleDirExpansion), b,
		"max_expansion "+strconv.Itoa(n)+": the file takes exactly that many link uses")
	g.chunksBad("chunks-over-max-expansion", treeStream(nested), `"max_expansion":`+strconv.Itoa(n-1), ids(lace.RuleDirExpansion), b,
		"max_expansion "+strconv.Itoa(n-1)+": one fewer than the file's link uses")
	shared := chunkFile(two, two, two)
	g.chunksBad("chunks-over-max-expansion-by-repeats", treeStream(shared), `"max_expansion":`+strconv.Itoa(uses(shared)-1), ids(lace.RuleDirExpansion), b,
		"max_expansion "+strconv.Itoa(uses(shared)-1)+": three uses of one subtree count "+strconv.Itoa(uses(shared))+" link uses, though only 4 records are distinct")
	g.chunksOK("chunks-at-max-bytes", nested, nil, `"max_bytes":`+strconv.Itoa(size), ids(lace.RuleDirExpansion), b,
		"max_bytes "+strconv.Itoa(size)+": the file assembles exactly that many bytes")
	g.chunksBad("chunks-over-max-bytes", treeStream(nested), `"max_bytes":`+strconv.Itoa(size-1), ids(lace.RuleDirExpansion), b,
		"max_bytes "+strconv.Itoa(size-1)+": the file assembles one byte more")

	chunkNegatives(g, abc, defgh, two)
}

func chunkNegatives(g *gen, abc, defgh, two *file) {
	a, d := abc.rec(), defgh.rec()
	ah, dh := a.hash(), d.hash()
	bad := func(name string, root record, extra []record, r rules.ID, comment string, more ...rules.ID) {
		g.chunksBad(name, streamOf(root, extra...), "", append(ids(r), more...), nil, comment)
	}
	okLinks := []string{chunkLink(0, 3, ah), chunkLink(3, 8, dh)}
	withKind := func(ls ...string) []string { return append(ls, "Kind: chunks") }

	// Shapes (LACE-CHUNK-01..05, -09).
	bad("chunks-root-seal", signer7.seal(two.rec()), []record{a, d}, lace.RuleChunkPlex, "the root is a Seal over a chunk node: a chunk node is a Plex")
	bad("chunks-root-plex-with-data", plexR([]byte("x"), withKind(okLinks...)...), []record{a, d}, lace.RuleChunkEmptyData, "a chunk node whose Blob data is x, not empty")
	bad("chunks-kind-wrong", node(append(okLinks, "Kind: chunk")...), []record{a, d}, lace.RuleChunkKind, "Kind: chunk instead of Kind: chunks")
	bad("chunks-kind-missing", node(okLinks...), []record{a, d}, lace.RuleChunkKind, "Chunk+Link fields and no Kind")
	bad("chunks-kind-twice", node(append(okLinks, "Kind: chunks", "Kind: chunks")...), []record{a, d}, lace.RuleChunkKind, "two Kind: chunks fields: exactly one")
	bad("chunks-no-links", node("Kind: chunks"), nil, lace.RuleChunkLinks, "Kind: chunks and no Chunk+Link")
	bad("chunks-extra-field", node(append(withKind(okLinks...), "Name: x")...), []record{a, d}, lace.RuleChunkNoOther, "a chunk node with a Name field besides Kind and Chunk+Link")
	dirRec := node("Kind: directory")
	bad("chunks-child-directory", node(withKind(chunkLink(0, 3, ah), chunkLink(3, 4, dirRec.hash()))...), []record{a, dirRec}, lace.RuleChunkKind,
		"a Chunk+Link to an empty directory Plex: a child Plex must be a chunk node", lace.RuleChunkOtherPlex)
	appRec := node("App: chat")
	bad("chunks-child-other-plex", node(withKind(chunkLink(0, 3, ah), chunkLink(3, 4, appRec.hash()))...), []record{a, appRec}, lace.RuleChunkKind,
		"a Chunk+Link to a Plex with an App field and no Kind", lace.RuleChunkOtherPlex)

	withData := plexR([]byte("d"), "App: chat")
	bad("chunks-child-plex-with-data", node(withKind(chunkLink(0, 3, ah), chunkLink(3, 4, withData.hash()))...), []record{a, withData}, lace.RuleChunkEmptyData,
		"a Chunk+Link 3..4 to an application Plex whose one data byte d would fit the range: a child Plex must be a chunk node", lace.RuleChunkOtherPlex)

	// Targets (LACE-CHUNK-06..08).
	sealRec := signer7.seal(node(withKind(chunkLink(0, 3, ah))...))
	bad("chunks-child-seal", node(withKind(chunkLink(0, 3, sealRec.hash()))...), []record{sealRec, a}, lace.RuleChunkNoSeal, "a Chunk+Link to a Seal (present in the stream)")
	bad("chunks-target-not-canonical", node(withKind(chunkLink(0, 3, "B.abc.H3"))...), []record{a}, lace.RuleChunkTarget, "a Chunk+Link target B.abc.H3: H3 text with a 3-character digest")
	g.chunksBad("chunks-target-pad-bits", streamOf(node(withKind(chunkLink(0, 3, padBits(ah)))...), a), "", ids(lace.RuleChunkTarget), nil,
		"a Chunk+Link target whose last digest character has a pad bit set, the Blob abc present: non-canonical text names no record")
	g.chunksBad("chunks-target-non-h3", streamOf(node(withKind(chunkLink(0, 3, strings.TrimSuffix(ah, "H3")+"H9"))...), a), "",
		ids(lace.RuleChunkFormat, lace.RuleChunkTarget), nil, "a Chunk+Link target with suffix .H9: an unsupported format is invalid, not missing")

	// Ranges (LACE-CHUNK-12..19).
	for _, c := range []textCase{
		{"chunks-range-dash", "0-3", lace.RuleChunkRangeForm, "link data 0-3 is not start..end"},
		{"chunks-range-three-dots-twice", "0..3..3", lace.RuleChunkRangeForm, "link data 0..3..3 has two .."},
		{"chunks-range-no-dots", "03", lace.RuleChunkRangeForm, "link data 03 has no .."},
		{"chunks-range-leading-zero-start", "00..3", lace.RuleChunkDecimal, "the endpoint 00 has a leading zero"},
		{"chunks-range-leading-zero-end", "0..03", lace.RuleChunkDecimal, "the endpoint 03 has a leading zero"},
		{"chunks-range-plus-sign", "+0..3", lace.RuleChunkDecimal, "the endpoint +0 has a sign"},
		{"chunks-range-empty-start", "..3", lace.RuleChunkDecimal, "an empty start endpoint"},
		{"chunks-range-leading-space", " 0..3", lace.RuleChunkDecimal, "link data ' 0..3': the space belongs to the start endpoint"},
		{"chunks-range-overflow", "0..18446744073709551616", lace.RuleChunkOverflow, "the end 18446744073709551616 is u64::MAX + 1"},
		{"chunks-range-overflow-wraps", "0..18446744073709551619", lace.RuleChunkOverflow, "the end u64::MAX + 4, which wraps around to 3, the length of the child abc"},
		{"chunks-range-u64-max", "0..18446744073709551615", lace.RuleChunkChildLength, "the end u64::MAX is in range, but the range is not its 3-byte child's length"},
		{"chunks-range-end-2-53-minus-1", "0..9007199254740991", lace.RuleChunkChildLength, "the end 2^53-1, the largest integer below which a float64 holds every one, is in range, but the range is not its 3-byte child's length"},
		{"chunks-range-end-2-53", "0..9007199254740992", lace.RuleChunkChildLength, "the end 2^53 is in range, but the range is not its 3-byte child's length"},
		{"chunks-range-end-2-53-plus-1", "0..9007199254740993", lace.RuleChunkChildLength, "the end 2^53+1, which a float64 rounds to 2^53, is in range, but the range is not its 3-byte child's length"},
		{"chunks-range-empty", "0..0", lace.RuleChunkPositive, "the range 0..0 is empty: ranges are positive"},
		{"chunks-range-reversed", "3..0", lace.RuleChunkPositive, "the range 3..0 is reversed"},
		{"chunks-range-not-from-zero", "1..4", lace.RuleChunkStartZero, "the first range 1..4 does not start at zero"},
		{"chunks-range-too-long", "0..4", lace.RuleChunkChildLength, "0..4 for the 3-byte Blob abc"},
		{"chunks-range-slice", "0..2", lace.RuleChunkChildLength, "0..2 for the 3-byte Blob abc: a range relocates the whole child, never a slice"},
	} {
		g.chunksBad(c.name, streamOf(node(withKind("Chunk+Link: "+c.text+" "+ah)...), a), "", ids(c.rule), tags("boundary"), c.comment)
	}
	bad("chunks-range-gap", node(withKind(chunkLink(0, 3, ah), chunkLink(4, 9, dh))...), []record{a, d}, lace.RuleChunkContiguous, "0..3 then 4..9: a gap")
	bad("chunks-range-overlap", node(withKind(chunkLink(0, 3, ah), chunkLink(2, 7, dh))...), []record{a, d}, lace.RuleChunkContiguous, "0..3 then 2..7: an overlap")
	bad("chunks-ranges-out-of-order", node(withKind(chunkLink(3, 8, dh), chunkLink(0, 3, ah))...), []record{a, d}, lace.RuleChunkStartZero,
		"3..8 then 0..3: ranges are contiguous in occurrence order")
	tr := two.rec()
	bad("chunks-child-node-length-mismatch", node(withKind(chunkLink(0, 9, tr.hash()))...), []record{tr, a, d}, lace.RuleChunkChildLength,
		"0..9 for a chunk node that describes 8 bytes")
	empty := blobR(nil)
	bad("chunks-empty-blob-child", node(withKind(chunkLink(0, 3, ah), chunkLink(3, 4, empty.hash()))...), []record{a, empty}, lace.RuleChunkChildLength,
		"3..4 for the empty Blob, whose length is 0 (and 3..3 would not be positive)")

	// Missing children (LACE-CHUNK-20, -21).
	bad("chunks-missing-child", node(withKind(okLinks...)...), []record{a}, lace.RuleChunkChildExists,
		"the second child is not in the stream: no partial file abc is produced", lace.RuleChunkNoPartial)
	bad("chunks-missing-nested-child", node(withKind(chunkLink(0, 8, tr.hash()))...), []record{tr, d}, lace.RuleChunkChildExists,
		"a grandchild (abc) is missing below a present chunk node", lace.RuleChunkNoPartial)
	g.chunksBad("chunks-empty-stream", []byte{}, "", ids(lace.RuleChunkChildExists), nil, "an empty stream has no root")

	// Malformed convention links (LACE-LINK-15).
	for _, c := range []textCase{
		{"chunks-link-no-target", "0..3", lace.RuleLinkSeparator, "Chunk+Link: 0..3 has no space and no target"},
		{"chunks-link-empty-data", " " + ah, lace.RuleLinkData, "Chunk+Link with empty link data before its target"},
		{"chunks-link-bad-type", "0..3 Q." + ah[2:], lace.RuleLinkTarget, "a Chunk+Link target typed Q."},
	} {
		bad(c.name, node(withKind("Chunk+Link: "+c.text)...), []record{a}, lace.RuleConvRawFields, c.comment+": a malformed link the convention consumer must reject", c.rule)
	}
	// The stream itself must be valid (LACE-STREAM-02).
	g.chunksBad("chunks-invalid-record-in-stream", concat(treeStream(two), []byte(seedBlobText+"x")), "", ids(lace.RuleStreamGarbage, lace.RuleStreamValidate), nil,
		"a valid file followed by the canonical Blob and a stray byte: the stream is invalid, so is the file")

	// A convention-invalid record is still a valid record (LACE-LINK-14).
	g.accept("chunk-node-convention-invalid", node(withKind("Chunk+Link: 1..4 "+ah)...), ids(lace.RuleConvRecordValid), nil,
		"a chunk node whose first range starts at 1 is convention-invalid but a valid H3 Plex")
}
