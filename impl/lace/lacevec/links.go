package lacevec

import (
	"strings"

	"github.com/threespec/conformance/impl/rules"
)

// The optional lace.record result fields (docs/PROTOCOL.md, "Optional Lace
// result fields") that some positives list: the application fields, and
// the record links among them, as the generator reads them from its own
// model by the rules of Lace-010, "Record-link fields carry typed hash
// references". A testee that leaves a field out is not judged on it.

// linkOf splits a record-link value at its last ASCII space, trimming
// nothing, and says whether it is a well-formed link: non-empty link data,
// a separating space, and a target T.<payload>.<suffix> with T in B, P, S,
// the suffix after the last dot, payload and suffix non-empty, any suffix.
func linkOf(value string) (data, target string, ok bool) {
	i := strings.LastIndexByte(value, ' ')
	if i <= 0 {
		return "", "", false
	}
	data, target = value[:i], value[i+1:]
	if len(target) < 2 || target[1] != '.' || !strings.ContainsRune("BPS", rune(target[0])) {
		return "", "", false
	}
	rest := target[2:]
	j := strings.LastIndexByte(rest, '.')
	if j <= 0 || j == len(rest)-1 {
		return "", "", false
	}
	return data, target, true
}

// withFields adds fields, links and malformed_links to res for the Plex or
// Seal model r.
func withFields(res map[string]any, r record) map[string]any {
	fields := make([][]string, len(r.fields))
	links, malformed := []map[string]any{}, []map[string]any{}
	for i, l := range r.fields {
		name, value, _ := strings.Cut(l, ": ")
		fields[i] = []string{name, value}
		if !strings.HasSuffix(name, "+Link") {
			continue
		}
		if data, target, ok := linkOf(value); ok {
			links = append(links, map[string]any{"field": i, "name": name, "data": data, "target": target})
		} else {
			malformed = append(malformed, map[string]any{"field": i, "name": name, "value": value})
		}
	}
	res["fields"] = fields
	res["links"] = links
	res["malformed_links"] = malformed
	return res
}

// acceptFields is accept with the fields and links in the expected result.
func (g *gen) acceptFields(name string, r record, rs []rules.ID, t []string, comment string) {
	g.accept(name, r, rs, t, comment)
	v := &g.vecs[len(g.vecs)-1]
	v.result = withFields(v.result, r)
}
