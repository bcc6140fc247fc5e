package lacespec

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/threespec/conformance/impl/lace"
	"github.com/threespec/conformance/impl/lace/convention"
	"github.com/threespec/conformance/impl/mark"
	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/impl/spec"
	"github.com/threespec/conformance/internal/plainjson"
	"github.com/threespec/conformance/testee"
)

// options maps the mark argument to reader options; the real Lace 009
// is not available here, so "009" is unsupported.
func options(req testee.Request) (lace.Options, error) {
	var a Args
	if err := spec.DecodeArgs(req, &a); err != nil {
		return lace.Options{}, err
	}
	if a.Mark == Mark009 {
		return lace.Options{}, spec.Unsupported("mark %q: the real Lace 009 is not available to the reference", a.Mark)
	}
	c, err := mark.ParseChecking(a.Mark)
	if err != nil {
		return lace.Options{}, spec.Unsupported("%v", err)
	}
	return lace.Options{Mark: c}, nil
}

// RecordResult is the result of lace.record.
type RecordResult struct {
	Form   string     `json:"form"`
	Hash   string     `json:"hash"`
	Plex   string     `json:"plex,omitempty"` // the embedded Plex hash text (Seal)
	Blob   string     `json:"blob,omitempty"` // the embedded Blob hash text (Plex, Seal)
	Fields [][]string `json:"fields,omitempty"`
	Data   int        `json:"data_length"`
	By     string     `json:"by,omitempty"`
	Mark   string     `json:"mark,omitempty"`
	// MarkStatus is "verified" or "not-checked" for a Seal; absent otherwise.
	MarkStatus string `json:"mark_status,omitempty"`
	// Links are the well-formed record links among Fields, in field order;
	// MalformedLinks the record-link fields whose values are not well formed,
	// which link indexes ignore (LACE-LINK-10, LACE-LINK-11). Both are empty
	// lists for a Plex or Seal and absent for a Blob.
	Links          *[]Link          `json:"links,omitempty"`
	MalformedLinks *[]MalformedLink `json:"malformed_links,omitempty"`
}

// Link is one well-formed record link of a lace.record result: Field is
// the index of its occurrence in fields, Data its link data exactly as
// written and Target its typed target hash text (any suffix).
type Link struct {
	Field  int    `json:"field"`
	Name   string `json:"name"`
	Data   string `json:"data"`
	Target string `json:"target"`
}

// MalformedLink is a record-link field (named +Link or ending with +Link)
// whose value is not a well-formed link, with the rule it breaks
// (LACE-LINK-02, -03 or -04). The record stays valid (LACE-LINK-10).
type MalformedLink struct {
	Field int    `json:"field"`
	Name  string `json:"name"`
	Value string `json:"value"`
	Rule  string `json:"rule"`
}

func recordResult(c rules.Checks, r *lace.Record) RecordResult {
	res := RecordResult{Form: r.Form.String(), Hash: r.Hash.String(), Data: len(r.Data)}
	if r.Form == lace.FormSeal {
		res.Plex = r.Plex.String()
		res.By = mark.FormatBy(r.By)
		res.Mark = mark.FormatMark(r.Mark)
		res.MarkStatus = r.MarkStatus.String() // verified, not-checked; failed only under fault injection
	}
	if r.Form != lace.FormBlob {
		res.Blob = r.Blob.String()
		res.Fields = make([][]string, len(r.Fields))
		for i, f := range r.Fields {
			res.Fields[i] = []string{f.Name, f.Value}
		}
		links, malformed := recordLinks(c, r.Fields)
		res.Links, res.MalformedLinks = &links, &malformed
	}
	return res
}

// recordLinks splits the record-link fields of a record into well-formed
// links and malformed values, as a link index under c reads them. The lists
// are never nil, so that an empty list is reported as [] and not left out.
func recordLinks(c rules.Checks, fields []lace.Field) ([]Link, []MalformedLink) {
	links, malformed := []Link{}, []MalformedLink{}
	for i, f := range fields {
		if !lace.IsLinkNameWith(c, f.Name) {
			continue
		}
		data, target, err := lace.ParseLinkWith(c, f.Value)
		if err != nil {
			malformed = append(malformed, MalformedLink{Field: i, Name: f.Name, Value: f.Value, Rule: string(rules.RuleOf(err))})
			continue
		}
		links = append(links, Link{Field: i, Name: f.Name, Data: data, Target: target})
	}
	return links, malformed
}

func record(e spec.Env, req testee.Request) (any, error) {
	opt, err := options(req)
	if err != nil {
		return nil, err
	}
	r, err := lace.ParseWith(e.Checks, req.Input, opt)
	if err != nil {
		return nil, err
	}
	if !e.Checks.Enforced(lace.RuleConvRecordValid) {
		// Fault: a reader that holds every record to the convention its Kind
		// names, where Lace-010 keeps a convention-invalid record valid.
		if err := convention.CheckRecordWith(e.Checks, r); err != nil {
			return nil, err
		}
	}
	if err := genericFaults(e.Checks, []*lace.Record{r}); err != nil {
		return nil, err
	}
	return recordResult(e.Checks, r), nil
}

// genericFaults are the faults of a reader that asks more of records than
// the generic rules do (fault injection only; nil in normal use): an
// application schema (LACE-PLEX-12), the convention names reserved
// (LACE-LINK-16), links resolved within the input (LACE-LINK-18), and a
// directory consumer's default bounds applied to the stream
// (LACE-DIR-32), each as c switches it on.
func genericFaults(c rules.Checks, recs []*lace.Record) error {
	schema, reserve := !c.Enforced(lace.RulePlexNoSchema), !c.Enforced(lace.RuleConvNoNames)
	acquire, bounds := !c.Enforced(lace.RuleLinkNotAcquired), !c.Enforced(lace.RuleDirBoundsGeneric)
	if !schema && !reserve && !acquire && !bounds {
		return nil
	}
	have := map[string]bool{}
	for _, r := range recs {
		have[r.Hash.String()] = true
	}
	for _, r := range recs {
		if r.Form == lace.FormBlob {
			continue
		}
		kinds := 0
		for _, f := range r.Fields {
			if f.Name == "Kind" || strings.HasPrefix(f.Name, "#") {
				kinds++
			}
			switch f.Name {
			case "Kind", "Chunk+Link", "File+Link", "Child+Link", "Page+Link":
				if reserve {
					return lace.FaultError("field name %s is reserved for its convention", f.Name)
				}
			}
			if acquire && lace.IsLinkNameWith(c, f.Name) {
				if _, target, err := lace.ParseLinkWith(c, f.Value); err == nil && !have[target] {
					return lace.FaultError("link target %s is not in the input", target)
				}
			}
		}
		if schema && kinds != 1 {
			return lace.FaultError("%d application-kind fields (Kind or #<application>), want exactly one", kinds)
		}
	}
	if bounds && len(recs) > 0 {
		for _, f := range recs[0].Fields {
			if f.Name == "Kind" && f.Value == "directory" {
				if _, err := convention.DirectoryWith(c, convention.NewStore(recs), recs[0], convention.Bounds{}); err != nil {
					if id := rules.RuleOf(err); id == lace.RuleDirDepth || id == lace.RuleDirExpansion {
						return err
					}
				}
			}
		}
	}
	return nil
}

func stream(e spec.Env, req testee.Request) (any, error) {
	opt, err := options(req)
	if err != nil {
		return nil, err
	}
	recs, err := lace.ParseStreamWith(e.Checks, req.Input, opt)
	if err != nil {
		return nil, err
	}
	if err := genericFaults(e.Checks, recs); err != nil {
		return nil, err
	}
	hashes := make([]string, len(recs))
	for i, r := range recs {
		hashes[i] = r.Hash.String()
	}
	return map[string]any{"hashes": hashes}, nil
}

// constructSpec is the JSON input of lace.construct.
type constructSpec struct {
	Data   *string     `json:"data"`
	Fields [][2]string `json:"fields"`
	Secret *string     `json:"secret"`
	Aux    *string     `json:"aux"`
}

func construct(e spec.Env, req testee.Request) (any, error) {
	// mark names the scheme a Seal's Mark is made under: the stand-in
	// (the default) is the only one the reference has. "none" names no
	// scheme to make a Mark with, and the real 009 is not available.
	var a Args
	if err := spec.DecodeArgs(req, &a); err != nil {
		return nil, err
	}
	switch a.Mark {
	case "", MarkBIP340Standin:
	case Mark009:
		return nil, spec.Unsupported("mark %q: the real Lace 009 is not available to the reference", a.Mark)
	default:
		return nil, spec.Unsupported("mark %q: lace.construct makes Marks under bip340-standin or 009", a.Mark)
	}
	in, err := constructInput(req.Input)
	if err != nil {
		return nil, err
	}
	out, rec, err := lace.ConstructWith(e.Checks, in)
	if err != nil {
		return nil, err
	}
	return map[string]any{
		"record": spec.BytesMember(out),
		"hash":   rec.Hash.String(),
		"form":   rec.Form.String(),
	}, nil
}

// constructInput decodes the JSON specification lace.construct reads
// (docs/PROTOCOL.md, "lace.construct") into a lace.Spec. A plain input
// that is only a payload, {"data":"BASE64"}, is decoded in place
// (internal/plainjson: the 32 MiB payload of lace/positive/construct-data-32mib
// without encoding/json's copy and checks of a 44.7 MiB string); any
// other input constructInputJSON decodes. The two agree on every input.
func constructInput(input []byte) (lace.Spec, error) {
	if data, ok := soleData(input); ok {
		return lace.Spec{Data: data}, nil
	}
	return constructInputJSON(input)
}

// soleData returns the payload of a plain input {"data":"BASE64"}, and
// false for any other input.
func soleData(input []byte) ([]byte, bool) {
	var data []byte
	ok := plainjson.Object(input, func(p *plainjson.Reader, name string) {
		if name != "data" {
			p.Fail()
			return
		}
		data = p.Base64()
	})
	return data, ok && data != nil
}

// constructInputJSON decodes any input of lace.construct with
// encoding/json: a specification that is not a JSON object of the
// protocol's members, or whose data, secret or aux is not canonical
// base64 of the right length, is a request built wrong.
func constructInputJSON(input []byte) (lace.Spec, error) {
	var in constructSpec
	if err := json.Unmarshal(input, &in); err != nil {
		return lace.Spec{}, fmt.Errorf("%w: lace.construct input is not the JSON specification: %v", testee.ErrInvalidRequest, err)
	}
	var ls lace.Spec
	b64 := func(what string, s *string) ([]byte, error) {
		if s == nil {
			return nil, nil
		}
		b, err := base64.StdEncoding.DecodeString(*s)
		if err != nil {
			return nil, fmt.Errorf("%w: lace.construct %s: %v", testee.ErrInvalidRequest, what, err)
		}
		return b, nil
	}
	var err error
	if ls.Data, err = b64("data", in.Data); err != nil {
		return ls, err
	}
	for _, f := range in.Fields {
		ls.Fields = append(ls.Fields, lace.Field{Name: f[0], Value: f[1]})
	}
	secret, err := b64("secret", in.Secret)
	if err != nil {
		return ls, err
	}
	if in.Secret != nil {
		if len(secret) != mark.KeySize {
			return ls, fmt.Errorf("%w: lace.construct secret is %d bytes, want %d", testee.ErrInvalidRequest, len(secret), mark.KeySize)
		}
		ls.Secret = (*[mark.KeySize]byte)(secret)
	}
	aux, err := b64("aux", in.Aux)
	if err != nil {
		return ls, err
	}
	if in.Aux != nil && len(aux) != mark.AuxSize {
		return ls, fmt.Errorf("%w: lace.construct aux is %d bytes, want %d", testee.ErrInvalidRequest, len(aux), mark.AuxSize)
	}
	copy(ls.Aux[:], aux)
	return ls, nil
}

// bounds maps the bounds arguments to convention bounds under caps c:
// a bound below 1 or above its cap cannot be honoured and is unsupported
// (docs/PROTOCOL.md, "Arguments"); an absent one takes its cap.
func bounds(c spec.Caps, req testee.Request) (lace.Options, convention.Bounds, error) {
	var a BoundedArgs
	if err := spec.DecodeArgs(req, &a); err != nil {
		return lace.Options{}, convention.Bounds{}, err
	}
	opt, err := options(req)
	if err != nil {
		return opt, convention.Bounds{}, err
	}
	depth, err := c.Bound("max_depth", a.MaxDepth, c[LimitMaxDepth], LimitMaxDepth)
	if err != nil {
		return opt, convention.Bounds{}, err
	}
	expansion, err := c.Bound("max_expansion", a.MaxExpansion, c[LimitMaxExpansion], LimitMaxExpansion)
	if err != nil {
		return opt, convention.Bounds{}, err
	}
	bytes, err := c.Bound("max_bytes", a.MaxBytes, c[LimitMaxAssembledBytes], LimitMaxAssembledBytes)
	if err != nil {
		return opt, convention.Bounds{}, err
	}
	return opt, convention.Bounds{
		MaxDepth:        int(depth),
		MaxExpansion:    int(expansion),
		MaxBytes:        uint64(bytes),
		MaxListingBytes: uint64(max(c[LimitMaxListingBytes], 1)),
	}, nil
}

func chunks(e spec.Env, req testee.Request) (any, error) {
	c := e.Caps
	opt, b, err := bounds(c, req)
	if err != nil {
		return nil, err
	}
	n, digest, err := convention.StreamFileWith(e.Checks, req.Input, opt, b)
	if err != nil {
		return nil, err
	}
	return map[string]any{"length": n, "blake3": hex.EncodeToString(digest[:])}, nil
}

// DirEntry is one entry of the lace.directory result: every file and every
// child directory of the logical tree.
type DirEntry struct {
	Path   string `json:"path"`
	Target string `json:"target"`
	Kind   string `json:"kind"` // "file" or "dir"
}

func directory(e spec.Env, req testee.Request) (any, error) {
	c := e.Caps
	opt, b, err := bounds(c, req)
	if err != nil {
		return nil, err
	}
	entries, err := convention.StreamDirectoryWith(e.Checks, req.Input, opt, b)
	var big *convention.ListingTooLarge
	if errors.As(err, &big) {
		return nil, spec.Unsupported("%v (hello limits lace.max_listing_bytes)", err)
	}
	if err != nil {
		return nil, err
	}
	out := make([]DirEntry, len(entries))
	for i, e := range entries {
		kind := "file"
		if e.Dir {
			kind = "dir"
		}
		out[i] = DirEntry{Path: e.Path, Target: e.Target, Kind: kind}
	}
	return map[string]any{"entries": out}, nil
}
