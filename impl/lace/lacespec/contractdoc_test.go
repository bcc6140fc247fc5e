package lacespec

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/zeebo/blake3"

	"github.com/threespec/conformance/impl/b64a"
	"github.com/threespec/conformance/impl/lace"
	"github.com/threespec/conformance/vectorset"
)

// TestContractDoc keeps docs/contract-lace.md true where the code can say
// it: every vector it names is a Lace vector, with the outcome and bound
// the page gives; its BLAKE3 known answers compute; its stand-in known
// answer is the constructed record the vector expects; every Lace reading
// has its row; and its mark_status values are the reference's.
func TestContractDoc(t *testing.T) {
	b, err := os.ReadFile("../../../docs/contract-lace.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	idx, err := vectorset.Load("../../../vectors", "lace")
	if err != nil {
		t.Fatal(err)
	}
	vecs := map[string]*vectorset.Vector{}
	for i := range idx.Vectors {
		v := &idx.Vectors[i]
		vecs[v.ID[strings.LastIndexByte(v.ID, '/')+1:]] = v
	}

	named := regexp.MustCompile("`((?:blob|plex|seal|chunks|dir|stream|construct|record|glyph)-[a-z0-9-]*[a-z0-9])`( \\((accept|reject)\\))?")
	n := 0
	for _, m := range named.FindAllStringSubmatch(doc, -1) {
		n++
		v, ok := vecs[m[1]]
		switch {
		case !ok:
			t.Errorf("the page names %s, which is no Lace vector", m[1])
		case m[3] != "" && string(v.Expect) != m[3]:
			t.Errorf("the page says %s is %sed; the vector expects %s", m[1], m[3], v.Expect)
		}
	}
	if n < 30 {
		t.Errorf("found %d vector names on the page: is the pattern stale?", n)
	}

	// The bound rows: | `at` (accept), `over` (reject) | `max_x` A, O | ...
	rows := regexp.MustCompile("(?m)^ *\\| `([a-z0-9-]+)` \\(accept\\), `([a-z0-9-]+)` \\(reject\\) \\| `(max_[a-z]+)` ([0-9]+), ([0-9]+) \\|")
	bounds := rows.FindAllStringSubmatch(doc, -1)
	if len(bounds) != 2 {
		t.Errorf("%d bound rows, want the two of lace.directory", len(bounds))
	}
	for _, m := range bounds {
		for i, id := range []string{m[1], m[2]} {
			v, ok := vecs[id]
			if !ok {
				continue // reported above
			}
			d := json.NewDecoder(strings.NewReader(string(v.Args)))
			d.UseNumber()
			var a map[string]any
			if err := d.Decode(&a); err != nil {
				t.Fatal(err)
			}
			if got, want := a[m[3]], m[4+i]; got == nil || got.(json.Number).String() != want {
				t.Errorf("the page gives %s %s for %s; its args are %s", m[3], want, id, v.Args)
			}
		}
	}

	// BLAKE3 known answers: every hex digest and hash text of the table.
	blob := "Data-Length: 5\n\nhello"
	plex := "App: chat\nApp: archive\nGroup: room7\nName: note\nTAI: tomorrow\n🖧: B.kQIYZC1_~Q_ji4~Twe2_7m9Zn2scg_Cu9zNTkbk9zq8.H3\n" + blob
	for _, c := range []struct{ form, payload string }{{"", ""}, {"B", blob}, {"P", plex}} {
		d := blake3.Sum256([]byte(c.payload))
		if !strings.Contains(doc, "`"+hex.EncodeToString(d[:])+"`") {
			t.Errorf("the page does not give BLAKE3-256 of %q as %x", c.payload, d)
		}
		if text := c.form + "." + b64a.Encode(d[:]) + ".H3"; c.form != "" && !strings.Contains(doc, "`"+text+"`") {
			t.Errorf("the page does not give the hash text %s", text)
		}
	}

	// The stand-in known answer is the record the vector expects.
	v := vecs["construct-seed-seal-standin"]
	if v == nil {
		t.Fatal("no vector construct-seed-seal-standin")
	}
	var res struct {
		Record string `json:"record"`
	}
	if err := json.Unmarshal(v.Result, &res); err != nil {
		t.Fatal(err)
	}
	rec, err := base64.StdEncoding.DecodeString(res.Record)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(doc, "```text\n"+string(rec)+"\n```") {
		t.Errorf("the page's stand-in known answer is not the record of %s:\n%s", v.ID, rec)
	}

	for _, r := range lace.Readings() {
		if !strings.Contains(doc, "\n| "+string(r.ID)+" | ") {
			t.Errorf("the readings table has no row for %s", r.ID)
		}
	}
	for _, s := range []lace.MarkStatus{lace.MarkVerified, lace.MarkNotChecked} {
		if !strings.Contains(doc, "`"+s.String()+"`") {
			t.Errorf("the page does not name mark_status %s", strconv.Quote(s.String()))
		}
	}
}
