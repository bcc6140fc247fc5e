package convention

import (
	"strconv"
	"strings"
	"testing"

	"github.com/zeebo/blake3"

	"github.com/threespec/conformance/impl/b64a"
	"github.com/threespec/conformance/impl/lace"
	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/internal/fault"
	"github.com/threespec/conformance/internal/reading"
)

// Lace-010, "Chunk sequences describe complete file bytes".

func TestFileAccepted(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	hel, lo, abc, ab := w.blob("hel"), w.blob("lo"), w.blob("abc"), w.blob("ab")
	remaining := w.chunks("0..2 "+lo, "2..5 "+abc)
	many := make([]string, 511)
	for i := range many {
		many[i] = strconv.Itoa(2*i) + ".." + strconv.Itoa(2*i+2) + " " + ab
	}
	cases := []struct {
		name, root, want string
	}{
		{"bare Blob (" + string(lace.RuleChunkBareBlob) + ")", w.blob("hello"), "hello"},
		{"empty file is an empty Blob (" + string(lace.RuleChunkEmptyFile) + ")", w.blob(""), ""},
		{"the spec's example shape", w.chunks("0..3 "+hel, "3..8 "+remaining), "helloabc"},
		{"repeated child at separate ranges (" + string(lace.RuleChunkSharing) + ")", w.chunks("0..2 "+ab, "2..4 "+ab), "abab"},
		{"shared chunk node", w.chunks("0..5 "+remaining, "5..10 "+remaining), "loabcloabc"},
		{"511 links (" + string(lace.RuleChunkFanout) + ")", w.chunks(many...), strings.Repeat("ab", 511)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := w.rec(c.root)
			got, err := File(w.store, r, Bounds{})
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.want {
				t.Fatalf("assembled %q, want %q", got, c.want)
			}
			if n, err := FileLength(w.store, r, Bounds{}); err != nil || n != uint64(len(c.want)) {
				t.Fatalf("FileLength = %d, %v", n, err)
			}
			n, sum, err := FileDigest(w.store, r, Bounds{})
			if err != nil || n != uint64(len(c.want)) || sum != blake3.Sum256([]byte(c.want)) {
				t.Fatalf("FileDigest = %d, %x, %v", n, sum, err)
			}
			n, sum, err = StreamFile(w.stream(c.root), lace.Options{}, Bounds{})
			if err != nil || n != uint64(len(c.want)) || sum != blake3.Sum256([]byte(c.want)) {
				t.Fatalf("StreamFile = %d, %v", n, err)
			}
		})
	}
	// LACE-CHUNK-24: equal bytes, different trees, different records.
	if a, b := w.chunks("0..8 "+w.blob("helloabc")), w.chunks("0..3 "+hel, "3..8 "+remaining); a == b {
		t.Fatal("different chunk trees have the same hash")
	}
}

type convCase struct {
	name string
	root string
	res  Resolver // nil: the world's store
	b    Bounds
	rule rules.ID
}

func chunkCases(t testing.TB) []convCase {
	w := newWorld(t)
	abc, ab := w.blob("abc"), w.blob("ab")
	sealed := w.add(lace.Spec{Fields: fields(t, "Kind: chunks", "Chunk+Link: 0..3 "+abc), Secret: &[32]byte{31: 9}}).Hash.String()
	withData := w.add(lace.Spec{Data: []byte("x"), Fields: fields(t, "Kind: chunks", "Chunk+Link: 0..3 "+abc)}).Hash.String()
	dir := w.dir("File+Link: a " + abc)
	deep := w.chunks("0..3 " + w.chunks("0..3 "+w.chunks("0..3 "+abc)))
	// A resolver in which a chunk node leads back to itself.
	loopTarget := absent('P')
	loop := newWorld(t)
	node := loop.plexRecord("Kind: chunks", "Chunk+Link: 0..3 "+loopTarget)
	loop.store[loopTarget] = node

	return withStore(w.store, []convCase{
		{"root is a Seal", sealed, nil, Bounds{}, lace.RuleChunkPlex},
		{"node with data", withData, nil, Bounds{}, lace.RuleChunkEmptyData},
		{"no Kind", w.plex("Chunk+Link: 0..3 " + abc), nil, Bounds{}, lace.RuleChunkKind},
		{"Kind twice", w.plex("Chunk+Link: 0..3 "+abc, "Kind: chunks", "Kind: chunks"), nil, Bounds{}, lace.RuleChunkKind},
		{"Kind: directory", w.plex("Chunk+Link: 0..3 "+abc, "Kind: directory"), nil, Bounds{}, lace.RuleChunkKind},
		{"no Chunk+Link", w.plex("Kind: chunks"), nil, Bounds{}, lace.RuleChunkLinks},
		{"another field", w.plex("Chunk+Link: 0..3 "+abc, "Kind: chunks", "Name: x"), nil, Bounds{}, lace.RuleChunkNoOther},
		{"+Link field", w.plex("+Link: x "+abc, "Chunk+Link: 0..3 "+abc, "Kind: chunks"), nil, Bounds{}, lace.RuleChunkNoOther},
		{"non-canonical H3 target", w.chunks("0..3 B.abc.H3"), nil, Bounds{}, lace.RuleChunkTarget},
		{"Seal target", w.chunks("0..3 " + sealed), nil, Bounds{}, lace.RuleChunkNoSeal},
		{"H4 target", w.chunks("0..3 " + strings.TrimSuffix(abc, "H3") + "H4"), nil, Bounds{}, lace.RuleChunkFormat},
		{"H4 target not in the store", w.chunks("0..3 B.x.H4"), nil, Bounds{}, lace.RuleChunkFormat},
		{"directory Plex child", w.chunks("0..3 " + dir), nil, Bounds{}, lace.RuleChunkKind},
		{"range 0-3", w.chunks("0-3 " + abc), nil, Bounds{}, lace.RuleChunkRangeForm},
		{"range 0..3..5", w.chunks("0..3..5 " + abc), nil, Bounds{}, lace.RuleChunkRangeForm},
		{"leading zero", w.chunks("00..3 " + abc), nil, Bounds{}, lace.RuleChunkDecimal},
		{"sign", w.chunks("0..+3 " + abc), nil, Bounds{}, lace.RuleChunkDecimal},
		{"space in range", w.chunks("0.. 3 " + abc), nil, Bounds{}, lace.RuleChunkDecimal},
		{"empty endpoint", w.chunks("..3 " + abc), nil, Bounds{}, lace.RuleChunkDecimal},
		{"u64 overflow", w.chunks("0..18446744073709551616 " + abc), nil, Bounds{}, lace.RuleChunkOverflow},
		{"empty range", w.chunks("0..0 " + w.blob("")), nil, Bounds{}, lace.RuleChunkPositive},
		{"reversed range", w.chunks("3..0 " + abc), nil, Bounds{}, lace.RuleChunkPositive},
		{"first range not at zero", w.chunks("1..4 " + abc), nil, Bounds{}, lace.RuleChunkStartZero},
		{"gap", w.chunks("0..2 "+ab, "3..5 "+ab), nil, Bounds{}, lace.RuleChunkContiguous},
		{"overlap", w.chunks("0..2 "+ab, "1..3 "+ab), nil, Bounds{}, lace.RuleChunkContiguous},
		{"range longer than its child", w.chunks("0..4 " + abc), nil, Bounds{}, lace.RuleChunkChildLength},
		{"range shorter than its child (no slices)", w.chunks("0..2 " + abc), nil, Bounds{}, lace.RuleChunkChildLength},
		{"u64 max range", w.chunks("0..18446744073709551615 " + abc), nil, Bounds{}, lace.RuleChunkChildLength},
		{"missing child", w.chunks("0..3 " + absent('B')), nil, Bounds{}, lace.RuleChunkChildExists},
		{"malformed Chunk+Link", w.plex("Chunk+Link: 0..3 "+abc, "Chunk+Link: 3..6", "Kind: chunks"), nil, Bounds{}, lace.RuleConvRawFields},
		{"too deep", deep, nil, Bounds{MaxDepth: 2}, lace.RuleDirDepth},
		{"too many uses", w.chunks("0..2 "+ab, "2..4 "+ab, "4..6 "+ab), nil, Bounds{MaxExpansion: 2}, lace.RuleDirExpansion},
		{"too many bytes", w.chunks("0..2 "+ab, "2..4 "+ab), nil, Bounds{MaxBytes: 3}, lace.RuleDirExpansion},
		{"cycle", node.Hash.String(), loop.store, Bounds{}, lace.RuleDirCycle},
	})
}

// withStore gives every case without a resolver of its own the store s.
func withStore(s Store, cases []convCase) []convCase {
	for i := range cases {
		if cases[i].res == nil {
			cases[i].res = s
		}
	}
	return cases
}

// rootOf returns the case's root record, checking that it is a valid H3
// record: a convention-invalid record stays valid (LACE-LINK-14).
func rootOf(t *testing.T, c convCase) *lace.Record {
	t.Helper()
	r, ok := c.res.Resolve(c.root)
	if !ok {
		t.Fatalf("root %s not in the resolver", c.root)
	}
	if _, err := lace.Parse(lace.Encode(r), lace.Options{}); err != nil {
		t.Fatalf("root is not a valid H3 record: %v", err)
	}
	return r
}

func TestFileRejections(t *testing.T) {
	t.Parallel()
	for _, c := range chunkCases(t) {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			root := rootOf(t, c)
			got, err := File(c.res, root, c.b)
			if rules.RuleOf(err) != c.rule || got != nil {
				t.Fatalf("File: %v (%d bytes), want %s and no bytes", err, len(got), c.rule)
			}
			if _, _, err := FileDigest(c.res, root, c.b); rules.RuleOf(err) != c.rule {
				t.Fatalf("FileDigest: %v, want %s", err, c.rule)
			}
		})
	}
}

// TestFileRejectionsUnderFault switches off each case's rule: no panic, and
// the rule is not reported again.
func TestFileRejectionsUnderFault(t *testing.T) {
	t.Parallel()
	for _, c := range chunkCases(t) {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			off := rules.Checks{Faults: fault.Of(string(c.rule))}
			root := rootOf(t, c)
			_, err := FileWith(off, c.res, root, c.b)
			if rules.RuleOf(err) == c.rule {
				t.Fatalf("rule %s switched off but still reported: %v", c.rule, err)
			}
			if _, _, err := FileDigestWith(off, c.res, root, c.b); rules.RuleOf(err) == c.rule {
				t.Fatalf("FileDigest: rule %s switched off but still reported: %v", c.rule, err)
			}
		})
	}
}

func TestStreamFileEmpty(t *testing.T) {
	t.Parallel()
	if _, _, err := StreamFile(nil, lace.Options{}, Bounds{}); rules.RuleOf(err) != lace.RuleChunkChildExists {
		t.Fatalf("empty stream: %v", err)
	}
	if _, _, err := StreamFile([]byte("x"), lace.Options{}, Bounds{}); rules.RuleOf(err) != lace.RuleGlyphLine {
		t.Fatalf("invalid stream: %v", err)
	}
}

// TestReadingsOfConsumers: the consumers under the alternatives of
// LACE-READ-05 (a target's pad bits ignored: it names the record it
// decodes to) and LACE-READ-17 (the root is one record on the path and one
// record entered), each against the default on the same records.
func TestReadingsOfConsumers(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	abc := w.blob("abc")
	last := len(abc) - 4 // the digest's last character
	k := strings.IndexByte(b64a.Alphabet, abc[last])
	padded := w.chunks("0..3 " + abc[:last] + string(b64a.Alphabet[k|1]) + abc[last+1:])
	deep := w.chunks("0..3 " + w.chunks("0..3 "+abc)) // abc 2 links below the root
	uses := w.chunks("0..3 "+abc, "3..6 "+abc)        // 2 link uses
	under := func(id, alt string) rules.Checks {
		return rules.Checks{Readings: reading.Of(map[string]string{id: alt})}
	}
	padOK, onPath := under(lace.ReadPadBits, lace.AltPadBitsIgnored), under(lace.ReadBoundMeasure, lace.AltRecordsOnPath)
	for _, c := range []struct {
		name     string
		root     string
		b        Bounds
		ck       rules.Checks
		std, alt rules.ID // "" for the file accepted
	}{
		{"target with pad bits", padded, Bounds{}, padOK, lace.RuleChunkTarget, ""},
		{"depth 2 at max_depth 2", deep, Bounds{MaxDepth: 2}, onPath, "", lace.RuleDirDepth},
		{"depth 2 at max_depth 3", deep, Bounds{MaxDepth: 3}, onPath, "", ""},
		{"2 uses at max_expansion 2", uses, Bounds{MaxExpansion: 2}, onPath, "", lace.RuleDirExpansion},
		{"2 uses at max_expansion 3", uses, Bounds{MaxExpansion: 3}, onPath, "", ""},
	} {
		for _, k := range []struct {
			ck   rules.Checks
			want rules.ID
		}{{rules.Checks{}, c.std}, {c.ck, c.alt}} {
			got, err := FileWith(k.ck, w.store, w.rec(c.root), c.b)
			if rules.RuleOf(err) != k.want || (err == nil) != (got != nil) {
				t.Errorf("%s under %v: %v (%q), want rule %q", c.name, k.ck.Readings.Map(), err, got, k.want)
			}
		}
	}
	// Directories count alike: a file one link below the root.
	root := w.dir("File+Link: f " + abc)
	if _, err := DirectoryWith(onPath, w.store, w.rec(root), Bounds{MaxDepth: 1}); rules.RuleOf(err) != lace.RuleDirDepth {
		t.Errorf("directory under %s at max_depth 1: %v, want %s", lace.AltRecordsOnPath, err, lace.RuleDirDepth)
	}
	if _, err := DirectoryWith(rules.Checks{}, w.store, w.rec(root), Bounds{MaxDepth: 1}); err != nil {
		t.Errorf("directory by default at max_depth 1: %v", err)
	}
}
