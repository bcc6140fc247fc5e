package hiverelay

import (
	"bytes"
	"encoding/hex"
	"os"
	"strings"
	"testing"

	hr "github.com/threespec/conformance/impl/hiverelay"
	"github.com/threespec/conformance/steps"
)

// The compact-uint forms of HiveRelay BCC v1, section 2, at every boundary.
func TestCompact(t *testing.T) {
	for _, tc := range []struct {
		v    uint64
		want string
	}{
		{0, "00"},
		{252, "fc"},
		{253, "fdfd00"},
		{0xffff, "fdffff"},
		{0x10000, "fe00000100"},
		{0xffffffff, "feffffffff"},
		{1 << 32, "ff0000000001000000"},
		{1<<53 - 1, "ffffffffffffff1f00"},
	} {
		if got := hex.EncodeToString(compact(nil, tc.v)); got != tc.want {
			t.Errorf("compact %d = %s, want %s", tc.v, got, tc.want)
		}
	}
}

func TestParseUint(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want uint64
		ok   bool
	}{
		{"0", 0, true},
		{"1048577", 1048577, true},
		{"0xffff", 0xffff, true},
		{"2^53", 1 << 53, true},
		{"2^53-1", 1<<53 - 1, true},
		{"2^53+1", 1<<53 + 1, true},
		{"2^64-1", 1<<64 - 1, true},
		{"2^64", 0, false},
		{"-1", 0, false},
		{"x", 0, false},
	} {
		got, err := parseUint(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("%q = %d, %v", tc.in, got, err)
		}
	}
}

func TestParseBytes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		size int
		want string // hex; "" with ok false for an error
		ok   bool
	}{
		{"01 fd 2c 01", 0, "01fd2c01", true},
		{`"ab\n" + 00`, 0, "61620a00", true},
		{`3 times "\xff"`, 0, "ffffff", true},
		{"2 zero bytes + 01", 0, "000001", true},
		{"compact 300 + u16be 1 + u32be 7", 0, "fd2c01000100000007", true},
		{"u64be 7985", 0, "0000000000001f31", true},
		{"zero", 3, "000000", true},
		{"empty", 0, "", true},
		{"zero", 0, "", false},
		{"01 02 +", 0, "", false},
		{"01 nonsense", 0, "", false},
		{`"unterminated`, 0, "", false},
	} {
		got, err := parseBytes(tc.in, tc.size)
		if (err == nil) != tc.ok || err == nil && hex.EncodeToString(got) != tc.want {
			t.Errorf("%q = %x, %v; want %s", tc.in, got, err, tc.want)
		}
	}
	// Labels are BLAKE2b-256 of the prefixed label (docs/hiverelay.md);
	// LabelBytes starts with BLAKE2b-256(label || U64BE(0)), not with Label32.
	l, err := parseBytes(`label "x" + 40 bytes of label "x"`, 0)
	if err != nil || len(l) != 72 || bytes.Equal(l[:32], l[32:64]) {
		t.Fatalf("labels: %x, %v", l, err)
	}
}

// The steps' default records are the documented positive vectors, byte for
// byte, and their lengths are the ones docs/hiverelay.md derives.
func TestRecordsAreThePositiveVectors(t *testing.T) {
	for _, tc := range []struct {
		value  *node
		vector string
		length int
	}{
		{readCap("ReadCellCapV1", "read-cell-cap", 2, true), "positive/read-cell-cap-v1.bin", 131},
		{writeCap(), "positive/write-cell-cap-v1.bin", 199},
		{blob(1), "positive/cell-blob-v1-class-1.bin", 4096},
		{checkpoint(), "positive/opaque-chain-checkpoint-v1.bin", 513},
		{genesisFrame(), "positive/opaque-chain-frame-v1-genesis.bin", 576},
		{successorFrame(), "positive/opaque-chain-frame-v1-successor.bin", 916},
		{blindCore(), "positive/blind-core-read-cap-v1.bin", 384},
	} {
		b := tc.value.encode()
		want, err := vectorFile(tc.vector)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) != tc.length || !bytes.Equal(b, want) {
			t.Errorf("%s: built %d bytes, %v", tc.vector, len(b), same(b, want, tc.vector))
		}
	}
}

func TestAuthorityFiles(t *testing.T) {
	c, err := catalog()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(c.encode()); n != 1469 {
		t.Errorf("catalog %d bytes, want 1469", n)
	}
	a, err := referenceArtifact()
	if err != nil {
		t.Fatal(err)
	}
	art := a.encode()
	if len(art) != 9484 || domainHash(formatHashDomain, art) != "5c30092c817079e041a715ff6c6a03044c1f90adfb6b934d85975c69319a7165" {
		t.Errorf("artifact %d bytes, format hash %s", len(art), domainHash(formatHashDomain, art))
	}
	files, err := vectorFiles()
	if err != nil {
		t.Fatal(err)
	}
	m := manifest(files).encode()
	if len(files) != 18 || len(m) != 1506 || domainHash(vectorSetHashDomain, m) != "fd0639c088f1c420a7768940bd1e82b85e4831d2a0508a468e611be1ad9e54ca" {
		t.Errorf("%d files, manifest %d bytes, vector set hash %s", len(files), len(m), domainHash(vectorSetHashDomain, m))
	}
}

func TestPaths(t *testing.T) {
	v := successorFrame()
	for _, p := range []string{"sequence", "previous frame hash", "checkpoint.coveredFrontier[2].chainId", "nextReadCellCaps[1].sizeClass"} {
		if _, err := v.resolve(p); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	for _, p := range []string{"nosuch", "nextReadCellCaps[2]", "sequence.x", "nextReadCellCaps[x]"} {
		if _, err := v.resolve(p); err == nil {
			t.Errorf("%s resolves", p)
		}
	}
	f, _ := v.resolve("sequence")
	if err := f.setValue("2^64"); err == nil {
		t.Error("a u64 took 2^64")
	}
	k, _ := v.resolve("chainId")
	if err := k.setValue("31 zero bytes"); err == nil {
		t.Error("a 32-byte key took 31 bytes")
	}
}

// The value language never panics, whatever the step text.
func FuzzParseBytes(f *testing.F) {
	for _, s := range []string{"01 02", `"a\n" + 3 times "b"`, `label "x"`, "2 bytes of label \"y\"", "compact 2^53", "zero", `the vector "positive/read-cell-cap-v1.bin"`} {
		f.Add(s, 4)
	}
	f.Fuzz(func(t *testing.T, s string, size int) {
		if size < 0 || size > 1<<16 {
			return
		}
		if len(s) > 64 {
			return // bounds the repeat counts a term may ask for
		}
		parseBytes(s, size)
	})
}

// Outside a checkout the steps read built-in copies: for every file of the
// tree they read, the copy is the committed file byte for byte.
func TestBuiltInCopiesAreTheTree(t *testing.T) {
	rels := []string{"specs/" + hr.SpecFile}
	for _, name := range schemas {
		rels = append(rels, "impl/hiverelay/data/declarations/"+name+".decl")
	}
	for name := range hr.AuthorityFiles() {
		rels = append(rels, "manifest/hiverelay/"+name)
	}
	for _, p := range hr.InventoryPaths() {
		kind, name, _ := strings.Cut(p, "/")
		rels = append(rels, "vectors/"+kind+"/hiverelay/"+name)
	}
	if len(rels) < 25 {
		t.Fatalf("only %d files", len(rels))
	}
	for _, rel := range rels {
		want, err := os.ReadFile(steps.FromRoot(rel))
		if err != nil {
			t.Fatal(err)
		}
		got, ok := builtIn(rel)
		if !ok || !bytes.Equal(got, want) {
			t.Errorf("%s: the built-in copy (%d bytes, %v) is not the committed file (%d bytes)", rel, len(got), ok, len(want))
		}
	}
	if _, ok := builtIn("vectors/negative/lace/x.lr"); ok {
		t.Error("a built-in copy of a file the steps do not read")
	}
}
