package convention

import (
	"fmt"
	"strings"

	"github.com/zeebo/blake3"

	"github.com/threespec/conformance/impl/lace"
	"github.com/threespec/conformance/impl/rules"
)

// Chunk sequences (Lace-010, "Chunk sequences describe complete file bytes").

// Field names and values of the convention.
const (
	fieldKind      = "Kind"
	fieldChunkLink = "Chunk+Link"
	kindChunks     = "chunks"
)

// maxChunkLinks is the most Chunk+Link occurrences a node holds: one Kind
// field leaves 511 of the 512 fields a Plex may have (LACE-CHUNK-23).
const maxChunkLinks = lace.MaxFields - 1

// FileLength validates the file whose root record is root (a bare Blob or a
// chunk node) with every child it references, and returns its logical
// length. Nothing is assembled.
//
// TRANSITIONAL (issue 16): it takes the process-global switches
// (rules.Current).
func FileLength(res Resolver, root *lace.Record, b Bounds) (uint64, error) {
	w := newWalker(rules.Current(), res, b)
	return w.fileLength(root, 0)
}

// File validates the file of root and returns its assembled bytes; on any
// violation it returns no bytes at all (LACE-CHUNK-21).
//
// TRANSITIONAL (issue 16): it takes the process-global switches
// (rules.Current); callers that carry their own use FileWith.
func File(res Resolver, root *lace.Record, b Bounds) ([]byte, error) {
	return FileWith(rules.Current(), res, root, b)
}

// FileWith is File under the checks c: the rules the consumer enforces and
// the mutants it carries.
func FileWith(c rules.Checks, res Resolver, root *lace.Record, b Bounds) ([]byte, error) {
	var out []byte
	_, err := assemble(c, res, root, b, func(p []byte) { out = append(out, p...) })
	if err != nil {
		return nil, err
	}
	return out, nil
}

// FileDigest validates the file of root and returns its length and the
// BLAKE3-256 digest of its assembled bytes, without holding them in memory.
//
// TRANSITIONAL (issue 16): it takes the process-global switches
// (rules.Current); callers that carry their own use FileDigestWith.
func FileDigest(res Resolver, root *lace.Record, b Bounds) (uint64, [32]byte, error) {
	return FileDigestWith(rules.Current(), res, root, b)
}

// FileDigestWith is FileDigest under the checks c.
func FileDigestWith(c rules.Checks, res Resolver, root *lace.Record, b Bounds) (uint64, [32]byte, error) {
	h := blake3.New()
	n, err := assemble(c, res, root, b, func(p []byte) { h.Write(p) })
	if err != nil {
		return 0, [32]byte{}, err
	}
	var sum [32]byte
	h.Sum(sum[:0])
	return n, sum, nil
}

// assemble validates the file of root and then writes its bytes in order.
// Nothing is written for an invalid file (LACE-CHUNK-21) unless fault
// injection makes it a consumer that writes what it could assemble.
func assemble(c rules.Checks, res Resolver, root *lace.Record, b Bounds, write func([]byte)) (uint64, error) {
	w := newWalker(c, res, b)
	n, err := w.validateFile(root)
	if err != nil {
		if c.Enforced(lace.RuleChunkNoPartial) {
			return 0, err
		}
		// Fault: the bytes of every child present, up to the byte bound.
		var got uint64
		w.stack = w.stack[:0]
		w.emit(root, func(p []byte) {
			p = p[:min(uint64(len(p)), w.b.MaxBytes-got)]
			got += uint64(len(p))
			write(p)
		})
		return got, nil
	}
	w.emit(root, write)
	return n, nil
}

// validateFile validates the whole file first, so that nothing is assembled
// from an invalid tree (LACE-CHUNK-20, LACE-CHUNK-21), and keeps the byte bound.
func (w *walker) validateFile(root *lace.Record) (uint64, error) {
	if root.Form == lace.FormBlob && !w.c.Enforced(lace.RuleChunkBareBlob) {
		return 0, lace.FaultError("file %s is a bare Blob, not a chunk node", root.Hash) // fault: bare Blobs refused
	}
	n, err := w.fileLength(root, 0)
	if err != nil {
		return 0, err
	}
	if n > w.b.MaxBytes && w.c.Enforced(lace.RuleDirExpansion) {
		return 0, fail(lace.RuleDirExpansion, "file %s assembles %d bytes, beyond the bound %d", root.Hash, n, w.b.MaxBytes)
	}
	return n, nil
}

// fileLength validates a file record at depth: a bare Blob
// (LACE-CHUNK-10, an empty file being an empty Blob, LACE-CHUNK-11) or a
// chunk node.
func (w *walker) fileLength(r *lace.Record, depth int) (uint64, error) {
	if r.Form == lace.FormBlob {
		if len(r.Data) == 0 && !w.c.Enforced(lace.RuleChunkEmptyFile) {
			return 0, lace.FaultError("file %s is empty", r.Hash) // fault: empty files refused
		}
		return uint64(len(r.Data)), nil
	}
	if plexAsData(w.c, r) {
		return uint64(len(r.Data)), nil
	}
	return w.chunkNode(r, depth)
}

// plexAsData reports whether r is a Plex of another shape that a consumer
// which does not check child shapes takes for its Blob data (fault
// injection of LACE-CHUNK-09 only).
func plexAsData(c rules.Checks, r *lace.Record) bool {
	if r.Form != lace.FormPlex || c.Enforced(lace.RuleChunkOtherPlex) {
		return false
	}
	for _, f := range r.Fields {
		if f.Name == fieldKind && f.Value == kindChunks {
			return false
		}
	}
	return true
}

// chunkNode validates a chunk node and its children and returns its logical
// length, the final end of its ranges (LACE-CHUNK-19).
func (w *walker) chunkNode(r *lace.Record, depth int) (uint64, error) {
	where := "chunk node " + r.Hash.String()
	// An H3 Plex (LACE-CHUNK-01) with empty data (LACE-CHUNK-02), exactly
	// one Kind: chunks (LACE-CHUNK-03) and no other fields (LACE-CHUNK-05).
	if err := chunkShape.check(w.c, r, where); err != nil {
		return 0, err
	}
	links := 0
	for _, f := range r.Fields {
		if f.Name == fieldChunkLink {
			links++
		}
	}
	// One or more Chunk+Link occurrences (LACE-CHUNK-04).
	if links == 0 && w.c.Enforced(lace.RuleChunkLinks) {
		return 0, fail(lace.RuleChunkLinks, "%s has no Chunk+Link", where)
	}
	if links == maxChunkLinks && !w.c.Enforced(lace.RuleChunkFanout) {
		// Fault: the Kind field counted against the 511 links as well.
		return 0, lace.FaultError("%s has %d Chunk+Link fields and its Kind, over 511", where, links)
	}
	var seen map[string]bool // targets used so far, under LACE-CHUNK-22's fault
	if !w.c.Enforced(lace.RuleChunkSharing) {
		seen = map[string]bool{}
	}
	// A range covers end-start bytes; 1 more under the mutant that reads
	// ranges as inclusive, whose next range then starts at end+1.
	var incl uint64
	if w.c.Mutated(lace.MutChunkInclusive) {
		incl = 1
	}
	gaps := w.c.Mutated(lace.MutChunkGaps)
	var end uint64
	first := true
	for i, f := range r.Fields {
		if f.Name != fieldChunkLink {
			continue
		}
		at := fmt.Sprintf("%s, field %d", where, i)
		data, target, ok, err := rawLink(w.c, at, f)
		if err != nil {
			return 0, err
		}
		if !ok {
			continue // LACE-LINK-15 switched off: the malformed link is skipped
		}
		start, stop, err := chunkRange(w.c, at, data)
		if err != nil {
			return 0, err
		}
		// Positive half-open ranges from zero, contiguous in occurrence
		// order (LACE-CHUNK-15, -16, -17).
		if start >= stop+incl && w.c.Enforced(lace.RuleChunkPositive) {
			return 0, fail(lace.RuleChunkPositive, "%s: range %s is not positive", at, data)
		}
		switch {
		case first && start != 0:
			if w.c.Enforced(lace.RuleChunkStartZero) {
				return 0, fail(lace.RuleChunkStartZero, "%s: the first range %s does not start at 0", at, data)
			}
		case !first && start != end+incl && !(gaps && start > end):
			if w.c.Enforced(lace.RuleChunkContiguous) {
				return 0, fail(lace.RuleChunkContiguous, "%s: range %s does not start at the previous end %d", at, data, end)
			}
		}
		first = false
		// Targets: canonical H3 Blob or chunk-node Plex; Seals and other
		// formats are invalid (LACE-CHUNK-06, -07, -08).
		key, err := h3Target(w.c, at, target, "BP", lace.RuleChunkNoSeal, lace.RuleChunkFormat, lace.RuleChunkTarget)
		if err != nil {
			return 0, err
		}
		if seen != nil {
			if seen[key] {
				return 0, lace.FaultError("%s: %s is used twice", at, target) // fault: sharing refused
			}
			seen[key] = true
		}
		// Every child exists and validates (LACE-CHUNK-20); a Plex child of
		// another shape breaks a chunk-node rule (LACE-CHUNK-09).
		child, err := w.enter(key, depth+1, lace.RuleChunkChildExists, at)
		if err != nil {
			return 0, err
		}
		end = stop
		if child == nil {
			continue // a missing child skipped (CheckRecord, or a fault)
		}
		n, err := w.fileLength(asPlex(w.c, child, lace.RuleChunkNoSeal), depth+1)
		w.leave()
		if err != nil {
			return 0, err
		}
		// Each range length equals the child's logical length (LACE-CHUNK-18).
		if stop-start+incl != n && start < stop+incl && w.c.Enforced(lace.RuleChunkChildLength) {
			return 0, fail(lace.RuleChunkChildLength, "%s: range %s is %d bytes but its child %s is %d bytes", at, data, stop-start+incl, target, n)
		}
	}
	if !w.c.Enforced(lace.RuleChunkFinalEnd) {
		return uint64(len(r.Data)), nil // fault: the structural Data-Length taken for the length
	}
	return end + incl, nil
}

// chunkRange parses Chunk+Link data: exactly start..end (LACE-CHUNK-12),
// canonical unsigned decimal endpoints (LACE-CHUNK-13) in 0..=u64::MAX
// (LACE-CHUNK-14).
func chunkRange(c rules.Checks, at, data string) (start, end uint64, err error) {
	a, b, found := cutRange(data)
	if !found && !c.Enforced(lace.RuleChunkRangeForm) {
		a, b, found = strings.Cut(data, "-") // fault: start-end accepted too
	}
	if !found && c.Enforced(lace.RuleChunkRangeForm) {
		return 0, 0, fail(lace.RuleChunkRangeForm, "%s: link data %q is not start..end", at, data)
	}
	var vals [2]uint64
	for i, s := range []string{a, b} {
		v, canonical, overflow := parseU64(s)
		switch {
		case !canonical:
			if c.Enforced(lace.RuleChunkDecimal) {
				return 0, 0, fail(lace.RuleChunkDecimal, "%s: range endpoint %q is not canonical unsigned decimal", at, s)
			}
		case overflow:
			if c.Enforced(lace.RuleChunkOverflow) {
				return 0, 0, fail(lace.RuleChunkOverflow, "%s: range endpoint %s overflows u64", at, s)
			}
			v = parseU64Wrapping(s) // fault: the endpoint wraps around
		}
		vals[i] = v
	}
	return vals[0], vals[1], nil
}

// cutRange splits s at its one "..".
func cutRange(s string) (a, b string, ok bool) {
	i := indexDots(s, 0)
	if i < 0 || indexDots(s, i+2) >= 0 {
		return s, "", false
	}
	return s[:i], s[i+2:], true
}

func indexDots(s string, from int) int {
	for i := from; i+1 < len(s); i++ {
		if s[i] == '.' && s[i+1] == '.' {
			return i
		}
	}
	return -1
}

// emit writes the bytes of a validated file in order: each range relocates
// its whole child (LACE-CHUNK-18). The targets it follows are those
// validation resolved (h3Target's keys).
func (w *walker) emit(r *lace.Record, write func([]byte)) {
	if r.Form == lace.FormBlob || plexAsData(w.c, r) {
		write(r.Data)
		return
	}
	for _, f := range r.Fields {
		if f.Name != fieldChunkLink {
			continue
		}
		_, target, err := lace.ParseLinkWith(w.c, f.Value)
		if err != nil {
			continue
		}
		key, err := h3Target(w.c, "", target, "BP", lace.RuleChunkNoSeal, lace.RuleChunkFormat, lace.RuleChunkTarget)
		if err != nil {
			continue
		}
		if child, ok := w.res.Resolve(key); ok && !w.onStack(key) {
			w.stack = append(w.stack, key)
			w.emit(child, write)
			w.leave()
		}
	}
}

func (w *walker) onStack(target string) bool {
	for _, h := range w.stack {
		if h == target {
			return true
		}
	}
	return false
}
