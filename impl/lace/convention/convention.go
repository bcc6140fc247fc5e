// Package convention reads the two opt-in conventions Lace-010 layers on
// record links: chunk sequences, which describe complete file bytes, and
// directories, which name files, children and continuation pages
// (specs/lace-010-records.txt, "Chunk sequences describe complete
// file bytes" and "Directory links name files, children and continuation
// pages").
//
// A consumer works over a Resolver holding validated records, usually a
// Store made from a record stream whose first record is the root. Every
// referenced record must be present and valid, and the result is all or
// nothing: no partial file or listing is ever returned. Bounds limit
// reference depth, logical expansion (counting repeated uses) and assembled
// bytes; cycles are rejected.
package convention

import (
	"slices"
	"strconv"
	"strings"

	"github.com/threespec/conformance/impl/lace"
	"github.com/threespec/conformance/impl/rules"
)

// A Resolver finds validated records by hash text.
type Resolver interface {
	// Resolve returns the record whose hash text is target, or false when
	// it is not available. The record must be valid and carry that hash.
	Resolve(target string) (*lace.Record, bool)
}

// Store is a Resolver over records keyed by their hash text.
type Store map[string]*lace.Record

// NewStore indexes records by hash text.
func NewStore(recs []*lace.Record) Store {
	s := make(Store, len(recs))
	for _, r := range recs {
		s[r.Hash.String()] = r
	}
	return s
}

// Resolve implements Resolver.
func (s Store) Resolve(target string) (*lace.Record, bool) {
	r, ok := s[target]
	return r, ok
}

// Bounds are a consumer's limits (Lace-010 directory section: consumers bound
// reference depth and logical expansion and reject cycles). They do not
// change the generic H3 record limits. A zero field takes its default.
type Bounds struct {
	// MaxDepth is the longest chain of links followed from the root
	// (LACE-DIR-29). Default 64.
	MaxDepth int
	// MaxExpansion is the number of link uses, counting every repeated use
	// of a shared record (LACE-DIR-30). Default 1,048,576.
	MaxExpansion int
	// MaxBytes is the largest assembled file, counted with repeats
	// (LACE-DIR-30). Default 1 GiB.
	MaxBytes uint64
	// MaxListingBytes is the largest directory listing a consumer builds:
	// the bytes of every entry's path and target, counted before the entry
	// is made. It is the consumer's own resource limit, not a rule of the
	// convention: a listing over it is a *ListingTooLarge error, never a
	// violation. Default 128 MiB.
	MaxListingBytes uint64
}

// Defaults of Bounds.
const (
	DefaultMaxDepth        = 64
	DefaultMaxExpansion    = 1 << 20
	DefaultMaxBytes        = 1 << 30
	DefaultMaxListingBytes = 1 << 27
)

// ListingTooLarge is the error of a directory whose listing would be larger
// than Bounds.MaxListingBytes: a limit of the consumer, not a violation.
type ListingTooLarge struct {
	Max uint64 // the bound
}

func (e *ListingTooLarge) Error() string {
	return "the directory listing is larger than " + strconv.FormatUint(e.Max, 10) + " bytes of paths and targets"
}

func (b Bounds) withDefaults() Bounds {
	if b.MaxDepth <= 0 {
		b.MaxDepth = DefaultMaxDepth
	}
	if b.MaxExpansion <= 0 {
		b.MaxExpansion = DefaultMaxExpansion
	}
	if b.MaxBytes == 0 {
		b.MaxBytes = DefaultMaxBytes
	}
	if b.MaxListingBytes == 0 {
		b.MaxListingBytes = DefaultMaxListingBytes
	}
	return b
}

// walker follows links from a root, keeping the bounds.
type walker struct {
	c    rules.Checks // what the consumer enforces and carries
	res  Resolver
	b    Bounds
	uses int
	// root is the depth of the root: 0 by default, 1 under LACE-READ-17's
	// records-on-path (which also counts the root among the uses).
	root int
	// listed is the bytes of paths and targets listed so far (MaxListingBytes).
	listed uint64
	stack  []string // hash texts on the current path, for cycle detection
	// local makes a missing target no violation: CheckRecord validates one
	// record without the records it links to.
	local bool
	// expanded holds the child directories listed so far, for the fault of
	// LACE-DIR-27 (a reused subtree expanded once).
	expanded map[string]bool
}

func newWalker(c rules.Checks, res Resolver, b Bounds) *walker {
	w := &walker{c: c, res: res, b: b.withDefaults()}
	if c.Takes(lace.ReadBoundMeasure, lace.AltRecordsOnPath) {
		// Reading LACE-READ-17 records-on-path (lace/readings.go): the root
		// is one record on every path and one record entered.
		w.root, w.uses = 1, 1
	}
	return w
}

// fail is the violation of id. Callers ask c.Enforced(id) first: under a
// fault they carry on as if the check had passed.
func fail(id rules.ID, format string, args ...any) error {
	return rules.Fail(id, "", -1, format, args...)
}

// enter follows one link to target at depth (the root is depth 0). It counts
// the use, checks cycles, depth and expansion, and resolves the target;
// missing is the rule a missing target breaks. leave must follow a nil error
// with a record. A nil record and a nil error mean a missing target that is
// skipped: by CheckRecord, or under fault injection of missing (a consumer
// that silently omits what is missing).
func (w *walker) enter(target string, depth int, missing rules.ID, where string) (*lace.Record, error) {
	for _, h := range w.stack {
		if h == target {
			// Consumers reject cycles (LACE-DIR-31).
			if w.c.Enforced(lace.RuleDirCycle) {
				return nil, fail(lace.RuleDirCycle, "%s: link to %s closes a cycle", where, target)
			}
			return nil, errStop(target) // carrying on would never end
		}
	}
	// Consumers bound reference depth (LACE-DIR-29).
	if depth+w.root > w.b.MaxDepth && w.c.Enforced(lace.RuleDirDepth) {
		return nil, fail(lace.RuleDirDepth, "%s: link to %s is at depth %d, beyond the bound %d", where, target, depth+w.root, w.b.MaxDepth)
	}
	// Consumers bound logical expansion, counting repeated uses (LACE-DIR-30).
	w.uses++
	if w.uses > w.b.MaxExpansion && w.c.Enforced(lace.RuleDirExpansion) {
		return nil, fail(lace.RuleDirExpansion, "%s: more than %d link uses (counting repeats)", where, w.b.MaxExpansion)
	}
	r, ok := w.res.Resolve(target)
	if !ok {
		if w.local || !w.c.Enforced(missing) {
			return nil, nil
		}
		return nil, fail(missing, "%s: target %s is missing", where, target)
	}
	w.stack = append(w.stack, target)
	return r, nil
}

// asPlex is the Plex a Seal wraps, as a consumer that does not check a
// target's family sees it: fault injection of LACE-CHUNK-07 and LACE-DIR-25
// only. Any other record is returned as it is.
func asPlex(c rules.Checks, r *lace.Record, family rules.ID) *lace.Record {
	if r.Form != lace.FormSeal || c.Enforced(family) {
		return r
	}
	p := *r
	p.Form, p.Hash = lace.FormPlex, r.Plex
	return &p
}

func (w *walker) leave() { w.stack = w.stack[:len(w.stack)-1] }

// errStop ends a walk that cannot carry on after a switched-off rule.
type errStop string

func (e errStop) Error() string { return "convention: cannot follow " + string(e) }

// rawLink parses a convention field's raw value. Convention consumers check
// every raw occurrence, malformed links included (LACE-LINK-15).
func rawLink(c rules.Checks, where string, f lace.Field) (data, target string, ok bool, err error) {
	data, target, perr := lace.ParseLinkWith(c, f.Value)
	if perr == nil {
		return data, target, true, nil
	}
	if c.Enforced(lace.RuleConvRawFields) {
		return "", "", false, fail(lace.RuleConvRawFields, "%s: malformed %s value %q: %v", where, f.Name, f.Value, perr)
	}
	return "", "", false, nil
}

// h3Target checks a convention target: its family (allowed lists the type
// letters allowed; a wrong one breaks family), an H3 suffix (unsupported is
// invalid, not missing: project decision, format) and canonical H3 text
// (canonical). It returns the hash text to resolve the target by: the
// target itself, unless fault injection makes the consumer resolve what it
// reads leniently.
func h3Target(c rules.Checks, where, target string, allowed string, family, format, canonical rules.ID) (string, error) {
	f, payload, suffix, ok := lace.SplitTarget(target)
	if !ok {
		// A target only LACE-READ-18's typed-prefix-only takes for a link
		// (B.x): typed, in no format a record definition supports.
		f = lace.TargetForm(target)
	}
	if !strings.ContainsRune(allowed, rune(f.Letter())) && c.Enforced(family) {
		return "", fail(family, "%s: target %s is a %s; allowed: %s", where, target, f, allowed)
	}
	key := target
	if suffix != "H3" {
		// The suffix's record definition decides (LACE-LINK-06), and only
		// a locally supported one yields validated facts (LACE-LINK-12):
		// this check realizes both, so their faults switch it off too.
		if c.Enforced(lace.RuleLinkSuffixDefines) && c.Enforced(lace.RuleLinkUnsupported) && c.Enforced(format) {
			return "", fail(format, "%s: target %s uses the unsupported hash format %s (only H3 is supported)", where, target, suffix)
		}
		// Fault: a consumer that ignores the suffix resolves the payload as H3.
		key = string(f.Letter()) + "." + payload + ".H3"
	}
	if h, err := lace.ParseHashWith(c, key); err == nil && c.Takes(lace.ReadPadBits, lace.AltPadBitsIgnored) {
		// Reading LACE-READ-05 pad-bits-ignored: the text names the hash it
		// decodes to, whatever its pad bits.
		key = h.String()
	} else if err != nil {
		if c.Enforced(canonical) {
			return "", fail(canonical, "%s: target %s is not canonical H3 hash text: %v", where, target, err)
		}
		// Fault: a consumer that decodes leniently resolves the hash it reads.
		if h, ok := lace.ParseHashLenient(key); ok {
			key = h.String()
		}
	}
	return key, nil
}

// parseU64 parses canonical unsigned decimal text: digits only, no leading
// zero except 0. overflow reports a value above u64::MAX.
func parseU64(s string) (v uint64, canonical, overflow bool) {
	if s == "" || (len(s) > 1 && s[0] == '0') {
		return 0, false, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false, false
		}
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, true, true
	}
	return v, true, false
}

func hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return true
		}
	}
	return false
}

// parseU64Wrapping parses decimal digits as a consumer without overflow
// checks does, modulo 2^64 (fault injection of LACE-CHUNK-14 only).
func parseU64Wrapping(s string) uint64 {
	var v uint64
	for i := 0; i < len(s); i++ {
		v = v*10 + uint64(s[i]-'0')
	}
	return v
}

// shape is what a convention requires of its records: an H3 Plex with empty
// data, exactly one Kind field of a given value, and no fields but Kind and
// the allowed ones.
type shape struct {
	what                       string
	kind                       string
	allowed                    []string
	plex, data, kindRule, only rules.ID
}

var (
	chunkShape = shape{what: "chunk node", kind: kindChunks, allowed: []string{fieldChunkLink},
		plex: lace.RuleChunkPlex, data: lace.RuleChunkEmptyData, kindRule: lace.RuleChunkKind, only: lace.RuleChunkNoOther}
	dirShape = shape{what: "directory", kind: kindDirectory, allowed: []string{fieldFileLink, fieldChildLink, fieldPageLink},
		plex: lace.RuleDirPlex, data: lace.RuleDirEmptyData, kindRule: lace.RuleDirKind, only: lace.RuleDirOnlyFields}
)

// check checks r against the shape. The Kind field says what the record is,
// so it is checked before the other fields.
func (s shape) check(c rules.Checks, r *lace.Record, where string) error {
	if r.Form != lace.FormPlex && c.Enforced(s.plex) {
		return fail(s.plex, "%s is a %s; a %s is a Plex", where, r.Form, s.what)
	}
	if len(r.Data) != 0 && c.Enforced(s.data) {
		return fail(s.data, "%s has %d bytes of data; a %s's data is empty", where, len(r.Data), s.what)
	}
	kinds := 0
	for i, f := range r.Fields {
		if f.Name != fieldKind {
			continue
		}
		kinds++
		if f.Value != s.kind && c.Enforced(s.kindRule) {
			return fail(s.kindRule, "%s, field %d: Kind is %q, not %q", where, i, f.Value, s.kind)
		}
	}
	if kinds != 1 && c.Enforced(s.kindRule) {
		return fail(s.kindRule, "%s has %d Kind fields; a %s has exactly one Kind: %s", where, kinds, s.what, s.kind)
	}
	for i, f := range r.Fields {
		if f.Name != fieldKind && !slices.Contains(s.allowed, f.Name) && c.Enforced(s.only) {
			return fail(s.only, "%s, field %d: %s is not allowed in a %s", where, i, f.Name, s.what)
		}
	}
	return nil
}
