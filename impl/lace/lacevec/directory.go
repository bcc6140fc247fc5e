package lacevec

import (
	"sort"
	"strconv"
	"strings"

	"github.com/threespec/conformance/impl/lace"
	"github.com/threespec/conformance/impl/lace/lacespec"
	"github.com/threespec/conformance/impl/rules"
)

// Directory links name files, children and continuation pages (Lace-010,
// LACE-DIR-01..31): lace.directory vectors. The expected listing is computed
// from the generator's own directory model: one entry per file and per child
// directory at every placement, its path the name components joined with /,
// sorted by path bytes (docs/PROTOCOL.md).

// dir is a directory root or page as the generator models it.
type dir struct {
	files    []dirFile
	children []dirChild
	pages    []*dir
}

type dirFile struct {
	name string
	f    *file
}

type dirChild struct {
	name string
	d    *dir
}

// rec is the directory record: Child+Link, File+Link, Kind and Page+Link
// fields in that (bytewise) order, links in the model's order.
func (d *dir) rec() record {
	var fields []string
	for _, c := range d.children {
		fields = append(fields, "Child+Link: "+c.name+" "+c.d.rec().hash())
	}
	for _, f := range d.files {
		fields = append(fields, "File+Link: "+f.name+" "+f.f.rec().hash())
	}
	fields = append(fields, "Kind: directory")
	for i, p := range d.pages {
		fields = append(fields, "Page+Link: "+strconv.Itoa(i)+" "+p.rec().hash())
	}
	return plexR(nil, fields...)
}

func (d *dir) subtrees() []tree {
	var ts []tree
	for _, c := range d.children {
		ts = append(ts, c.d)
	}
	for _, f := range d.files {
		ts = append(ts, f.f)
	}
	for _, p := range d.pages {
		ts = append(ts, p)
	}
	return ts
}

type entry struct {
	Path   string `json:"path"`
	Target string `json:"target"`
}

// entries lists the logical directory of d below prefix: its files and
// children and those of its pages (which add no path component); a child
// starts a new logical directory at prefix + name + "/".
func (d *dir) entries(prefix string) []entry {
	var out []entry
	for _, f := range d.files {
		out = append(out, entry{prefix + f.name, f.f.rec().hash()})
	}
	for _, c := range d.children {
		out = append(out, entry{prefix + c.name, c.d.rec().hash()})
		out = append(out, c.d.entries(prefix+c.name+"/")...)
	}
	for _, p := range d.pages {
		out = append(out, p.entries(prefix)...)
	}
	return out
}

func dirResult(d *dir) map[string]any {
	es := d.entries("")
	sort.Slice(es, func(i, j int) bool { return es[i].Path < es[j].Path })
	if es == nil {
		es = []entry{}
	}
	return map[string]any{"entries": es}
}

func (g *gen) dirOK(name string, d *dir, bounds string, rs []rules.ID, t []string, comment string) {
	g.add(vec{name: name, op: lacespec.OpDirectory, in: treeStream(d), bounds: bounds, ok: true, result: dirResult(d), rules: rs, tags: t, comment: comment})
}

func (g *gen) dirBad(name string, in []byte, bounds string, rs []rules.ID, t []string, comment string) {
	g.add(vec{name: name, op: lacespec.OpDirectory, in: in, bounds: bounds, rules: rs, tags: t, comment: comment})
}

func directoryVectors(g *gen) {
	b := tags("boundary")
	readme, logo, empty := blobFile("# readme\n"), blobFile("\x89PNG"), blobFile("")
	chunked := chunkFile(blobFile("abc"), blobFile("defgh"))
	docs := &dir{files: []dirFile{{"readme.md", readme}}}
	assets := &dir{}

	g.dirOK("dir-empty", &dir{}, "", ids(lace.RuleDirEmpty, lace.RuleDirKind), nil, "an empty directory: only Kind: directory, no entries")
	g.dirOK("dir-files-and-children", &dir{
		files:    []dirFile{{"chunked.bin", chunked}, {"empty", empty}, {"index.html", readme}, {"logo.png", logo}},
		children: []dirChild{{"assets", assets}, {"docs", docs}},
	}, "", ids(lace.RuleDirUnion, lace.RuleDirFileTarget, lace.RuleDirChildTarget, lace.RuleDirFileOrder, lace.RuleDirChildOrder, lace.RuleChunkBareBlob, lace.RuleChunkEmptyFile), nil,
		"files (a chunked file, an empty Blob, bare Blobs) and children (one empty): every file and child at its path")
	g.dirOK("dir-pages", &dir{
		files: []dirFile{{"m", logo}},
		pages: []*dir{
			{files: []dirFile{{"a", readme}, {"z", empty}}},
			{files: []dirFile{{"b", readme}}, children: []dirChild{{"c", assets}}},
		},
	}, "", ids(lace.RuleDirPageTarget, lace.RuleDirPageOrdinal, lace.RuleDirUnion, lace.RuleDirPagesUnordered), nil,
		"a root with pages 0 and 1: pages add no path component and need no name order between them")
	g.dirOK("dir-pages-of-pages", &dir{pages: []*dir{{files: []dirFile{{"one", readme}}, pages: []*dir{{files: []dirFile{{"two", logo}}}}}}},
		"", ids(lace.RuleDirFanout, lace.RuleDirUnion), nil, "a page that references a further page: the first record's capacity does not bound the directory")
	deep := &dir{files: []dirFile{{"leaf", readme}}}
	g.dirOK("dir-nested-children", &dir{children: []dirChild{{"a", &dir{children: []dirChild{{"b", &dir{children: []dirChild{{"c", deep}}}}}}}}}, "",
		ids(lace.RuleDirUnion, lace.RuleDirChildTarget), nil, "children three levels deep: a/b/c/leaf")
	shared := &dir{files: []dirFile{{"f", readme}}, children: []dirChild{{"sub", docs}}}
	g.dirOK("dir-reused-child-subtree", &dir{children: []dirChild{{"x", shared}, {"y", shared}}}, "", ids(lace.RuleDirReuse), nil,
		"one child subtree under the names x and y: expanded at each placement")
	g.dirOK("dir-same-file-two-names", &dir{files: []dirFile{{"one", readme}, {"two", readme}}}, "", ids(lace.RuleDirUnique, lace.RuleChunkSharing), nil,
		"one Blob under two names: names are unique, targets need not be")
	g.dirOK("dir-names-with-spaces", &dir{files: []dirFile{{" lead", readme}, {"in side", logo}, {"trail ", empty}}, children: []dirChild{{" sp ", docs}}}, "",
		ids(lace.RuleDirNameExact, lace.RuleFieldLeadingSpace, lace.RuleLinkSplit), tags("decision"),
		"names ' lead', 'in side', 'trail ' and ' sp ': leading and trailing spaces are kept, never trimmed")
	g.dirOK("dir-non-ascii-names", &dir{files: []dirFile{{"café", readme}, {"日本", logo}}}, "", ids(lace.RuleDirNameNFC, lace.RuleDirNameExact), nil,
		"NFC names café and 日本")
	g.dirOK("dir-name-budget", &dir{files: []dirFile{{strings.Repeat("f", 68), readme}}, children: []dirChild{{strings.Repeat("d", 67), assets}}}, "",
		ids(lace.RuleDirNameBudget, lace.RuleLinkBudget), b, "a 68-byte filename and a 67-byte directory name: 128-byte lines")
	g.dirOK("dir-names-parsed-not-values", &dir{files: []dirFile{{"a", readme}, {"a ", logo}}}, "", ids(lace.RuleDirParsedNames, lace.RuleDirFileOrder), nil,
		"File+Link names a then 'a ': in name order, though the complete values 'a B.…' and 'a  B.…' are not")
	flat := &dir{files: []dirFile{{"a", readme}, {"b", logo}}}
	paged := &dir{files: []dirFile{{"b", logo}}, pages: []*dir{{files: []dirFile{{"a", readme}}}}}
	g.dirOK("dir-layout-flat", flat, "", ids(lace.RuleDirHashSignificant), nil, "files a and b in the root (root "+flat.rec().hash()+")")
	g.dirOK("dir-layout-paged", paged, "", ids(lace.RuleDirHashSignificant), nil,
		"the same files a and b, a on a page: the same listing as dir-layout-flat under another root hash ("+paged.rec().hash()+")")

	// Bounds, on both sides.
	deep3 := &dir{children: []dirChild{{"a", &dir{files: []dirFile{{"f", chunked}}}}}, pages: []*dir{{files: []dirFile{{"g", readme}}}}}
	d, n := depth(deep3), uses(deep3)
	g.dirOK("dir-at-max-depth", deep3, `"max_depth":`+strconv.Itoa(d), ids(lace.RuleDirDepth), b,
		"max_depth "+strconv.Itoa(d)+": the chunked file's Blobs are "+strconv.Itoa(d)+" links from the root")
	g.dirBad("dir-over-max-depth", treeStream(deep3), `"max_depth":`+strconv.Itoa(d-1), ids(lace.RuleDirDepth), b,
		"max_depth "+strconv.Itoa(d-1)+": the chunked file's Blobs are "+strconv.Itoa(d)+" links from the root")
	g.dirOK("dir-at-max-expansion", deep3, `"max_expansion":`+strconv.Itoa(n), ids(lace.RuleDirExpansion), b,
		"max_expansion "+strconv.Itoa(n)+": the listing takes exactly that many link uses")
	g.dirBad("dir-over-max-expansion", treeStream(deep3), `"max_expansion":`+strconv.Itoa(n-1), ids(lace.RuleDirExpansion), b,
		"max_expansion "+strconv.Itoa(n-1)+": one fewer than the listing's link uses")
	reused := &dir{children: []dirChild{{"x", shared}, {"y", shared}}}
	g.dirBad("dir-over-max-expansion-by-reuse", treeStream(reused), `"max_expansion":`+strconv.Itoa(uses(reused)-1), ids(lace.RuleDirExpansion), b,
		"max_expansion "+strconv.Itoa(uses(reused)-1)+": a subtree reused under two names counts each use")

	directoryNegatives(g, readme, docs)
}

func directoryNegatives(g *gen, readme *file, docs *dir) {
	r := readme.rec()
	rh := r.hash()
	dr := docs.rec()
	dh := dr.hash()
	emptyDir := node("Kind: directory")
	bad := func(name string, root record, extra []record, id rules.ID, comment string, more ...rules.ID) {
		g.dirBad(name, streamOf(root, extra...), "", append(ids(id), more...), nil, comment)
	}
	fileLink := func(name, target string) string { return "File+Link: " + name + " " + target }
	childLink := func(name, target string) string { return "Child+Link: " + name + " " + target }
	kind := "Kind: directory"

	// Shapes (LACE-DIR-01..04).
	bad("dir-root-blob", seedBlob(), nil, lace.RuleDirPlex, "the root is a Blob: a directory is a Plex")
	bad("dir-root-seal", signer7.seal(node(fileLink("a", rh), kind)), []record{r}, lace.RuleDirPlex, "the root is a Seal over a directory Plex")
	bad("dir-data-not-empty", plexR([]byte("x"), fileLink("a", rh), kind), []record{r}, lace.RuleDirEmptyData, "a directory Plex whose Blob data is x")
	bad("dir-kind-wrong", node(fileLink("a", rh), "Kind: dir"), []record{r}, lace.RuleDirKind, "Kind: dir instead of Kind: directory")
	bad("dir-kind-missing", node(fileLink("a", rh)), []record{r}, lace.RuleDirKind, "a File+Link and no Kind")
	bad("dir-kind-twice", node(kind, kind), nil, lace.RuleDirKind, "two Kind: directory fields")
	chunkRec := chunkFile(blobFile("abc")).rec()
	bad("dir-child-is-chunk-node", node(childLink("c", chunkRec.hash()), kind), []record{chunkRec, blobFile("abc").rec()}, lace.RuleDirKind,
		"a Child+Link to a chunk node: a child is a directory")
	bad("dir-extra-field", node(kind, "Name: x"), nil, lace.RuleDirOnlyFields, "a directory with a Name field")
	bad("dir-child-extra-field", node(childLink("c", node(kind, "Name: x").hash()), kind), []record{node(kind, "Name: x")}, lace.RuleDirOnlyFields,
		"a child directory with a Name field: every child validates")

	// Target text, format and family (LACE-DIR-05..07, -24, -25).
	bad("dir-file-target-not-canonical", node(fileLink("a", "B.abc.H3"), kind), nil, lace.RuleDirFileTarget, "a File+Link target B.abc.H3")
	bad("dir-child-target-not-canonical", node(childLink("c", "P.abc.H3"), kind), nil, lace.RuleDirChildTarget, "a Child+Link target P.abc.H3")
	bad("dir-page-target-not-canonical", node(kind, "Page+Link: 0 P.abc.H3"), nil, lace.RuleDirPageTarget, "a Page+Link target P.abc.H3")
	p0 := node(fileLink("a", rh), kind)
	bad("dir-file-target-pad-bits", node(fileLink("a", padBits(rh)), kind), []record{r}, lace.RuleDirFileTarget,
		"a File+Link target whose last digest character has a pad bit set, its Blob present")
	bad("dir-child-target-pad-bits", node(childLink("c", padBits(emptyDir.hash())), kind), []record{emptyDir}, lace.RuleDirChildTarget,
		"a Child+Link target whose last digest character has a pad bit set, its directory present")
	bad("dir-page-target-pad-bits", node(kind, "Page+Link: 0 "+padBits(p0.hash())), []record{p0, r}, lace.RuleDirPageTarget,
		"a Page+Link target whose last digest character has a pad bit set, its page present")
	h9 := func(h string) string { return strings.TrimSuffix(h, "H3") + "H9" }
	for _, c := range []struct {
		name, line string
	}{
		{"dir-file-target-non-h3", fileLink("a", h9(rh))},
		{"dir-child-target-non-h3", childLink("c", h9(emptyDir.hash()))},
		{"dir-page-target-non-h3", "Page+Link: 0 " + h9(emptyDir.hash())},
	} {
		fields := []string{c.line, kind}
		if strings.HasPrefix(c.line, "Page") {
			fields = []string{kind, c.line}
		}
		g.dirBad(c.name, streamOf(node(fields...), r, emptyDir), "", ids(lace.RuleDirFormat), nil,
			"a target with suffix .H9 (its record present as H3): an unsupported format is invalid, not missing")
	}
	sealRec := signer7.seal(node(kind))
	bad("dir-file-target-seal", node(fileLink("a", sealRec.hash()), kind), []record{sealRec}, lace.RuleDirFamily, "a File+Link to a Seal")
	bad("dir-child-target-blob", node(childLink("c", rh), kind), []record{r}, lace.RuleDirFamily, "a Child+Link to a Blob")
	bad("dir-child-target-seal", node(childLink("c", sealRec.hash()), kind), []record{sealRec}, lace.RuleDirFamily, "a Child+Link to a Seal")
	bad("dir-page-target-blob", node(kind, "Page+Link: 0 "+rh), []record{r}, lace.RuleDirFamily, "a Page+Link to a Blob")
	bad("dir-file-is-directory", node(fileLink("a", emptyDir.hash()), kind), []record{emptyDir}, lace.RuleChunkKind,
		"a File+Link to a directory Plex: a file is a Blob or a chunk node", lace.RuleDirFileTarget)
	badChunk := node("Chunk+Link: 1..4 "+blobFile("abc").rec().hash(), "Kind: chunks")
	bad("dir-file-chunk-node-invalid", node(fileLink("a", badChunk.hash()), kind), []record{badChunk, blobFile("abc").rec()}, lace.RuleChunkStartZero,
		"a file whose chunk node's first range starts at 1: every file validates")

	// Names (LACE-DIR-09, -11, -12, -15).
	bad("dir-name-empty", node("File+Link:  "+rh, kind), []record{r}, lace.RuleDirNameEmpty, "File+Link with an empty name before its target")
	bad("dir-name-dot", node(fileLink(".", rh), kind), []record{r}, lace.RuleDirNameDots, "a file named .")
	bad("dir-name-dotdot", node(fileLink("..", rh), kind), []record{r}, lace.RuleDirNameDots, "a file named ..")
	bad("dir-child-name-dot", node(childLink(".", dh), kind), []record{dr, r}, lace.RuleDirNameDots, "a child named .")
	bad("dir-name-slash", node(fileLink("a/b", rh), kind), []record{r}, lace.RuleDirNameSlash, "a file named a/b")
	bad("dir-child-name-slash", node(childLink("/", dh), kind), []record{dr, r}, lace.RuleDirNameSlash, "a child named /")
	g.dirBad("dir-file-name-69-bytes", concat(node(fileLink(strings.Repeat("f", 69), rh), kind).bytes(), r.bytes()), "",
		ids(lace.RuleFieldLineLength, lace.RuleDirNameBudget), tags("boundary"), "a 69-byte filename makes a 129-byte File+Link line: the root is no valid record")
	g.dirBad("dir-child-name-68-bytes", concat(node(childLink(strings.Repeat("d", 68), dh), kind).bytes(), dr.bytes(), r.bytes()), "",
		ids(lace.RuleFieldLineLength, lace.RuleDirNameBudget), tags("boundary"), "a 68-byte directory name makes a 129-byte Child+Link line")

	// Order within a record (LACE-DIR-16..18).
	l := blobFile("logo").rec()
	bad("dir-files-out-of-order", node(fileLink("b", rh), fileLink("a", l.hash()), kind), []record{r, l}, lace.RuleDirFileOrder, "File+Link b before a")
	bad("dir-children-out-of-order", node(childLink("y", dh), childLink("x", emptyDir.hash()), kind), []record{dr, r, emptyDir}, lace.RuleDirChildOrder, "Child+Link y before x")
	bad("dir-names-decrease-values-ascend", node(fileLink("a ", rh), fileLink("a", l.hash()), kind), []record{r, l}, lace.RuleDirFileOrder,
		"names 'a ' then a decrease although the complete values 'a  B.…' then 'a B.…' ascend: names are compared", lace.RuleDirParsedNames)

	// Page ordinals (LACE-DIR-19).
	p1 := node(fileLink("b", rh), kind)
	for _, c := range []struct {
		name    string
		pages   []string
		comment string
	}{
		{"dir-page-ordinal-starts-at-1", []string{"1 " + p0.hash()}, "the first Page+Link has ordinal 1"},
		{"dir-page-ordinal-leading-zero", []string{"00 " + p0.hash()}, "the ordinal 00 is not canonical decimal"},
		{"dir-page-ordinal-skips", []string{"0 " + p0.hash(), "2 " + p1.hash()}, "ordinals 0 then 2"},
		{"dir-page-ordinal-repeated", []string{"0 " + p0.hash(), "0 " + p1.hash()}, "ordinals 0 then 0"},
	} {
		fields := []string{kind}
		for _, p := range c.pages {
			fields = append(fields, "Page+Link: "+p)
		}
		bad(c.name, node(fields...), []record{p0, p1, r}, lace.RuleDirPageOrdinal, c.comment+": ordinals count 0, 1, ...")
	}

	// Uniqueness across the logical directory (LACE-DIR-21).
	bad("dir-duplicate-file-name", node(fileLink("a", rh), fileLink("a", l.hash()), kind), []record{r, l}, lace.RuleDirUnique, "two files named a")
	bad("dir-duplicate-same-target", node(fileLink("a", rh), fileLink("a", rh), kind), []record{r}, lace.RuleDirUnique, "the same file a declared twice with the same target")
	bad("dir-file-and-child-same-name", node(childLink("a", dh), fileLink("a", rh), kind), []record{dr, r}, lace.RuleDirUnique, "a file and a child both named a")
	bad("dir-duplicate-across-pages", node(fileLink("a", rh), kind, "Page+Link: 0 "+p0.hash()), []record{p0, r}, lace.RuleDirUnique, "a in the root and a on its page")
	bad("dir-duplicate-across-two-pages", node(kind, "Page+Link: 0 "+p0.hash(), "Page+Link: 1 "+p0.hash()), []record{p0, r}, lace.RuleDirUnique,
		"the same page twice: its names appear twice in one logical directory")

	// Missing records (LACE-DIR-23).
	bad("dir-missing-file", node(fileLink("a", rh), kind), nil, lace.RuleDirExists, "a File+Link whose Blob is not in the stream")
	bad("dir-missing-child", node(childLink("c", dh), kind), []record{r}, lace.RuleDirExists, "a Child+Link whose directory is not in the stream")
	bad("dir-missing-page", node(kind, "Page+Link: 0 "+p0.hash()), []record{r}, lace.RuleDirExists, "a Page+Link whose page is not in the stream")
	bad("dir-missing-file-of-child", node(childLink("c", dh), kind), []record{dr}, lace.RuleDirExists, "the child is present, its file is not")
	g.dirBad("dir-empty-stream", []byte{}, "", ids(lace.RuleDirExists), nil, "an empty stream has no root")

	// Malformed convention links (LACE-LINK-15).
	bad("dir-page-link-no-target", node(kind, "Page+Link: 0"), nil, lace.RuleConvRawFields, "Page+Link: 0 has no target", lace.RuleLinkSeparator)
	bad("dir-file-link-bad-target", node(fileLink("a", "notahash"), kind), nil, lace.RuleConvRawFields, "File+Link: a notahash: the target is no typed hash", lace.RuleLinkTarget)
	g.dirBad("dir-invalid-record-in-stream", concat(treeStream(docs), []byte("\n")), "", ids(lace.RuleStreamGarbage, lace.RuleStreamValidate), nil,
		"a valid directory stream followed by a LF: the stream is invalid, so is the directory")
}
