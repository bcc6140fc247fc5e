// Package hivevec generates the HiveRelay vector suite: the 18 files of the
// specification's closed inventory (HiveRelay BCC v1, section 5) and the
// project's further conformance vectors, plus the authority files
// (format artifact, schema catalog, vector manifest, metadata).
package hivevec

import (
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"github.com/threespec/conformance/impl/hiverelay"
	"github.com/threespec/conformance/internal/vecgen"
	"github.com/threespec/conformance/testee"
	"github.com/threespec/conformance/vectorset"
)

// Suite is the HiveRelay suite generator.
var Suite = vecgen.Suite{Name: "hiverelay", Generate: generate, Extra: extra}

func generate(opt vecgen.Options) ([]vecgen.Vector, error) {
	var out []vecgen.Vector
	for _, v := range hiverelay.Vectors() {
		if v.Kind == hiverelay.Registry {
			continue
		}
		out = append(out, inventoryVector(v))
	}
	return out, nil
}

// inventoryVector turns one positive or negative of the closed inventory into
// a suite vector under the same tree path.
func inventoryVector(v hiverelay.Vector) vecgen.Vector {
	polarity, file, _ := strings.Cut(v.Path, "/")
	name := strings.TrimSuffix(file, path.Ext(file))
	args, _ := json.Marshal(testee.HiveRelayDecodeArgs{Schema: v.Schema, Class: int(v.Class)})
	g := vecgen.Vector{Data: v.Bytes}
	g.ID = "hiverelay/" + polarity + "/" + name
	g.File = v.Path
	g.Op = testee.OpHiveRelayDecode
	g.Args = args
	g.Rules = []string{string(v.Rule)}
	g.Tags = []string{"authority-inventory"}
	g.Comment = v.Comment
	if v.Kind == hiverelay.Positive {
		g.Expect = vectorset.Accept
		g.Result, _ = json.Marshal(map[string]any{"reencoded": vectorset.BytesMatcher(v.Bytes)})
	} else {
		g.Expect = vectorset.Reject
		g.Code = "BAD_ENCODING"
	}
	return g
}

// extra returns the registry vector (a tree file, not a decode vector) and
// the four authority files published in manifest/hiverelay/.
func extra() (tree, manifestFiles map[string][]byte, err error) {
	tree = map[string][]byte{}
	for _, v := range hiverelay.Vectors() {
		if v.Kind == hiverelay.Registry {
			tree[v.Path] = v.Bytes
		}
	}
	if len(tree) != 1 {
		return nil, nil, fmt.Errorf("the inventory has %d registry files, want 1", len(tree))
	}
	return tree, hiverelay.AuthorityFiles(), nil
}
