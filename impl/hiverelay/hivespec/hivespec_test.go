package hivespec

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// committedTree reads the committed hiverelay files the authority covers,
// by suite-tree path.
func committedTree(t *testing.T) map[string][]byte {
	t.Helper()
	tree := map[string][]byte{}
	for _, d := range []string{"positive", "negative", "registry"} {
		paths, err := filepath.Glob(filepath.Join("../../../vectors", d, "hiverelay", "*"))
		if err != nil || len(paths) == 0 {
			t.Fatalf("vectors/%s/hiverelay: %v", d, err)
		}
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			tree[d+"/"+filepath.Base(p)] = b
		}
	}
	return tree
}

// The committed authority verifies and gives the hashes the metadata
// artifact publishes; a changed inventory file does not verify.
func TestVerifyAuthority(t *testing.T) {
	const dir = "../../../manifest/hiverelay"
	tree := committedTree(t)
	a, err := VerifyAuthority(dir, tree)
	if err != nil {
		t.Fatal(err)
	}
	meta, err := os.ReadFile(filepath.Join(dir, "hiverelay-blind-client-composition-metadata-v1.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != 2 || a[0].Name != "clientCompositionFormatHash" || a[1].Name != "clientCompositionVectorSetHash" {
		t.Fatalf("authority %+v: want the format hash, then the vector set hash", a)
	}
	for _, h := range a {
		if !strings.Contains(string(meta), fmt.Sprintf("%q:%q", h.Name, h.Hex)) || !strings.Contains(string(meta), fmt.Sprintf("%q:%d", h.LengthName, h.Length)) {
			t.Errorf("%+v is not what the metadata artifact publishes", h)
		}
	}

	bad := maps.Clone(tree)
	p := "positive/read-cell-cap-v1.bin"
	bad[p] = append(bytes.Clone(bad[p]), 0)
	if _, err := VerifyAuthority(dir, bad); err == nil {
		t.Errorf("a changed %s verified", p)
	}
	if _, err := VerifyAuthority(t.TempDir(), tree); err == nil {
		t.Error("a directory without the authority files verified")
	}
}
