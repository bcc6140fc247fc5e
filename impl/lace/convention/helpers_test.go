package convention

import (
	"strings"
	"testing"

	"github.com/threespec/conformance/impl/b64a"
	"github.com/threespec/conformance/impl/lace"
)

// world builds records with the reference constructor (checked against the
// spec's known answers in package lace) and keeps them by hash text.
type world struct {
	t     testing.TB
	store Store
	order []*lace.Record
}

func newWorld(t testing.TB) *world { return &world{t: t, store: Store{}} }

func (w *world) add(spec lace.Spec) *lace.Record {
	w.t.Helper()
	_, r, err := lace.Construct(spec)
	if err != nil {
		w.t.Fatal(err)
	}
	w.store[r.Hash.String()] = r
	w.order = append(w.order, r)
	return r
}

// blob makes a Blob and returns its hash text.
func (w *world) blob(data string) string {
	return w.add(lace.Spec{Data: []byte(data)}).Hash.String()
}

// plex makes a Plex with empty data from "Name: value" lines.
func (w *world) plex(lines ...string) string { return w.plexRecord(lines...).Hash.String() }

func (w *world) plexRecord(lines ...string) *lace.Record {
	w.t.Helper()
	return w.add(lace.Spec{Fields: fields(w.t, lines...)})
}

func (w *world) rec(h string) *lace.Record {
	w.t.Helper()
	r, ok := w.store[h]
	if !ok {
		w.t.Fatalf("no record %s", h)
	}
	return r
}

func fields(t testing.TB, lines ...string) []lace.Field {
	fs := make([]lace.Field, len(lines))
	for i, l := range lines {
		n, v, ok := strings.Cut(l, ": ")
		if !ok {
			t.Fatalf("bad field line %q", l)
		}
		fs[i] = lace.Field{Name: n, Value: v}
	}
	return fs
}

// chunks makes a chunk node from "start..end hash" link values.
func (w *world) chunks(links ...string) string {
	lines := []string{"Kind: chunks"}
	for _, l := range links {
		lines = append(lines, "Chunk+Link: "+l)
	}
	return w.plex(lines...)
}

// dir makes a directory record from its link lines (Kind added).
func (w *world) dir(lines ...string) string {
	return w.plex(append([]string{"Kind: directory"}, lines...)...)
}

// absent is canonical H3 hash text of a record that is not in any store.
func absent(form byte) string {
	return string(form) + "." + b64a.Encode([]byte("not a record in this test world!")) + ".H3"
}

// stream concatenates the world's records with root first.
func (w *world) stream(root string) []byte {
	out := lace.Encode(w.rec(root))
	for _, r := range w.order {
		if r.Hash.String() != root {
			out = append(out, lace.Encode(r)...)
		}
	}
	return out
}
