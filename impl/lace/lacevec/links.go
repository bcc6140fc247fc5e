package lacevec

import (
	"strings"

	"github.com/threespec/conformance/impl/lace"
	"github.com/threespec/conformance/impl/rules"
)

// The optional lace.record result fields (docs/PROTOCOL.md, "Optional Lace
// result fields") that some positives list: the application fields, and
// the record links among them, as the generator reads them from its own
// model by the rules of Lace-010, "Record-link fields carry typed hash
// references". A testee that leaves a field out is not judged on it.

// linkOf splits a record-link value at its last ASCII space, trimming
// nothing, and says whether it is a well-formed link: non-empty link data,
// a separating space, and a target as the grammar (an alternative of
// LACE-READ-18) has it: by default T.<payload>.<suffix> with T in B, P, S,
// the suffix after the last dot, payload and suffix non-empty, any suffix;
// under typed-prefix-only any target T.<more>; under h3-payload-checked
// the default, with 43 canonical B64A characters as the payload of a
// target whose suffix is H3.
func linkOf(value, grammar string) (data, target string, ok bool) {
	i := strings.LastIndexByte(value, ' ')
	if i <= 0 {
		return "", "", false
	}
	data, target = value[:i], value[i+1:]
	if len(target) < 2 || target[1] != '.' || !strings.ContainsRune("BPS", rune(target[0])) {
		return "", "", false
	}
	if grammar == lace.AltTypedPrefixOnly {
		return data, target, len(target) > 2
	}
	rest := target[2:]
	j := strings.LastIndexByte(rest, '.')
	if j <= 0 || j == len(rest)-1 {
		return "", "", false
	}
	if grammar == lace.AltH3PayloadChecked && rest[j+1:] == "H3" && !canonicalDigest(rest[:j]) {
		return "", "", false
	}
	return data, target, true
}

// canonicalDigest reports whether s is the one B64A spelling of 32 bytes:
// it decodes, strictly, to 32 bytes that encode back to s.
func canonicalDigest(s string) bool {
	d, err := b64a.Strict().DecodeString(s)
	return err == nil && len(d) == 32 && b64a.EncodeToString(d) == s
}

// withFields adds fields, links and malformed_links to res for the Plex or
// Seal model r, its links read by LACE-READ-18's default.
func withFields(res map[string]any, r record) map[string]any {
	return withFieldsUnder(res, r, "")
}

// withFieldsUnder is withFields with the links read by the grammar given
// (an alternative of LACE-READ-18; "" for the default).
func withFieldsUnder(res map[string]any, r record, grammar string) map[string]any {
	fields := make([][]string, len(r.fields))
	links, malformed := []map[string]any{}, []map[string]any{}
	for i, l := range r.fields {
		name, value, _ := strings.Cut(l, ": ")
		fields[i] = []string{name, value}
		if !strings.HasSuffix(name, "+Link") {
			continue
		}
		if data, target, ok := linkOf(value, grammar); ok {
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

// linkExamples is the Plex of the spec's two example link lines (Lace-010,
// "Record-link fields"), whose targets are symbolic hashes.
func linkExamples() record {
	return plexR(nil, "+Link: evidence S.EXAMPLE_SEAL_HASH.H3", "Chunk+Link: 0..33554432 B.EXAMPLE_BLOB_HASH.H3")
}

// malformedLinks is a Plex of link values malformed under LACE-READ-18's
// default: no space, empty link data, type Q, no payload, no suffix.
func malformedLinks() record {
	return helloPlex("+Link: nospace", "A+Link:  B.x.H3", "B+Link: name Q.x.H3", "C+Link: name B.", "D+Link: name B.x")
}

// acceptFields is accept with the fields and links in the expected result.
func (g *gen) acceptFields(name string, r record, rs []rules.ID, t []string, comment string) {
	g.accept(name, r, rs, t, comment)
	v := &g.vecs[len(g.vecs)-1]
	v.result = withFields(v.result, r)
}
