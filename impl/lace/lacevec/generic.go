package lacevec

import (
	"github.com/threespec/conformance/impl/lace"
	"github.com/threespec/conformance/impl/lace/convention"
)

// The record layer stays generic whatever the conventions say (Lace-010,
// "Applications define their schemas", "They reserve no names, change no
// generic constructor or record-validation rule", "Lace does not
// automatically acquire links", "those bounds do not change the generic H3
// record limits"): LACE-PLEX-12, LACE-LINK-16..18, LACE-DIR-32.
func genericVectors(g *gen) {
	target := seedBlobHash
	absent := "B.A" + target[3:] // well-formed H3 text no record of these vectors has

	// No application schema (LACE-PLEX-12).
	g.accept("plex-no-schema-kind-repeated", helloPlex("Kind: chunks", "Kind: directory"), ids(lace.RulePlexNoSchema, lace.RuleConvNoNames), nil,
		"Kind twice, with the two convention values: no singleton is a record rule, the record is valid")
	g.accept("plex-no-schema-app-kind-repeated", helloPlex("#Dots: game", "#Dots: match", "Name: note"), ids(lace.RulePlexNoSchema, lace.RulePlexSameName), nil,
		"the #<application> kind convention with two occurrences: applications define singletons, not the record layer")
	g.accept("plex-no-schema-no-kind", helloPlex("Name: note"), ids(lace.RulePlexNoSchema), nil,
		"no Kind and no #<application> field: no field is required by the record layer")

	// The conventions reserve no names (LACE-LINK-16).
	g.accept("plex-convention-names-ordinary", helloPlex("Child+Link: x", "Chunk+Link: 9..1 "+target, "File+Link: a "+target, "Kind: notes", "Page+Link: first "+target),
		ids(lace.RuleConvNoNames, lace.RuleConvRecordValid), nil,
		"the five convention names in a Plex with data, with values no convention accepts: ordinary application fields")

	// They change no generic constructor rule (LACE-LINK-17).
	g.constructOK("construct-convention-links-caller-order", ctor(nil,
		field{"File+Link", "z.txt " + target}, field{"Kind", "directory"}, field{"File+Link", "a.txt " + target},
		field{"Child+Link", "y " + target}, field{"Child+Link", "b " + target}),
		ids(lace.RuleConvNoCtor, lace.RulePlexCtorOrder), nil,
		"File+Link and Child+Link runs keep caller order (z.txt before a.txt, y before b): the directory convention's name order is no constructor rule")

	// Lace acquires no links (LACE-LINK-18).
	withAbsent := helloPlex("+Link: evidence "+absent, "Chunk+Link: 0..5 "+absent)
	g.accept("plex-link-targets-absent", withAbsent, ids(lace.RuleLinkNotAcquired), nil,
		"well-formed links to a record the input does not hold: validating a record resolves no link")
	g.streamOK("stream-link-targets-absent", []record{withAbsent, seedBlob()}, ids(lace.RuleLinkNotAcquired, lace.RuleStreamValidate),
		"a stream whose Plex links to a record the stream does not hold: a stream reader resolves no link")

	// A consumer's bounds change no record limit (LACE-DIR-32): a chain of
	// child directories one link deeper than the default depth bound.
	chain := &dir{}
	for range convention.DefaultMaxDepth + 1 {
		chain = &dir{children: []dirChild{{"d", chain}}}
	}
	g.streamOK("stream-directory-deeper-than-default-bound", records(chain), ids(lace.RuleDirBoundsGeneric, lace.RuleStreamConcat),
		"a directory chain 65 links deep, past a consumer's default depth bound (64): its records form a valid stream all the same")
}
