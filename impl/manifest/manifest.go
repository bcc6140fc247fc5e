// Package manifest implements the strict vector-manifest framing of HiveRelay
// Blind Client Composition v1, section 5, which every vector suite of this
// project uses: a u32be entry count, then rows sorted by raw UTF-8 path bytes,
// each a u16be path length, the canonical relative path, the u64be vector
// length and the BLAKE2b-256 of the complete vector bytes.
//
// Every failure is a *rules.Violation with code BAD_ENCODING, an HR-MAN rule
// ID, the byte offset in the manifest and a detail naming the row and field.
package manifest

import (
	"encoding/binary"
	"sort"
	"strconv"

	"golang.org/x/crypto/blake2b"

	"github.com/threespec/conformance/impl/cenc"
	"github.com/threespec/conformance/impl/nfc17"
	"github.com/threespec/conformance/impl/rules"
)

// HashSize is the size of a row's vector hash, an unkeyed BLAKE2b-256.
const HashSize = 32

// MaxPathLength is the longest path a u16be path length can carry.
const MaxPathLength = 0xffff

// rowMin is the smallest row: a u16be path length, an empty path, a u64be
// vector length and the hash. Counts are checked against it before any
// allocation.
const rowMin = 2 + 8 + HashSize

// Entry is one manifest row.
type Entry struct {
	Path   string         // canonical relative path, '/'-separated
	Length uint64         // length of the complete vector bytes
	Hash   [HashSize]byte // BLAKE2b-256 of the complete vector bytes
}

// Hash returns the unkeyed BLAKE2b-256 of b, the vector hash of a row
// (HR-MAN-13).
func Hash(b []byte) [HashSize]byte { return hash(rules.Checks{}, b) }

// hash is Hash under c.
func hash(c rules.Checks, b []byte) [HashSize]byte {
	if !c.Enforced(RuleVectorHash) {
		// Fault: BLAKE2b-512 cut to 32 bytes, which is not BLAKE2b-256 (the
		// digest length is a parameter of the hash).
		h := blake2b.Sum512(b)
		return [HashSize]byte(h[:HashSize])
	}
	return blake2b.Sum256(b)
}

// EntryFor returns the row describing vector bytes data at path.
func EntryFor(path string, data []byte) Entry { return entryFor(rules.Checks{}, path, data) }

func entryFor(c rules.Checks, path string, data []byte) Entry {
	return Entry{Path: path, Length: uint64(len(data)), Hash: hash(c, data)}
}

// Parse decodes a complete manifest and checks every rule of the framing.
// The entries' paths are copies; nothing aliases b.
func Parse(b []byte) ([]Entry, error) { return ParseWith(rules.Checks{}, b) }

// ParseWith is Parse under c: the rules c switches off are not enforced,
// the mutants it switches on make their mistakes (tests and `conform prove`).
func ParseWith(c rules.Checks, b []byte) ([]Entry, error) {
	d := cenc.NewDecoder(c, b)
	d.SetTruncationRule(RuleTruncated) // section 5, HR-MAN-11
	count, err := d.U32("count")
	if err != nil {
		return nil, err
	}
	n, err := d.Fits("count", uint64(count), rowMin)
	if err != nil {
		return nil, err
	}
	entries := make([]Entry, 0, n)
	var prev []byte
	for i := 0; i < int(count) && !d.Exhausted(); i++ {
		d.Enter("rows", i)
		pathLen, err := d.U16("pathLength")
		if err != nil {
			return nil, err
		}
		at := d.Offset()
		path, err := d.Raw("path", uint64(pathLen))
		if err != nil {
			return nil, err
		}
		if err := checkPath(&d, path, at); err != nil {
			return nil, err
		}
		if i > 0 {
			// Section 5, HR-MAN-02/03: raw-UTF-8-path-sorted rows, no duplicates.
			if err := d.Ascending(prev, path, at, "path", RuleUnsorted, RuleDuplicate); err != nil {
				return nil, err
			}
		}
		prev = path
		e := Entry{Path: string(path)}
		// Section 5, HR-MAN-01: the vector length, then its hash. Under its
		// fault injection the hash is read first.
		hashFirst := !d.Enforced(RuleFraming)
		if hashFirst {
			if err := d.Fixed("hash", e.Hash[:]); err != nil {
				return nil, err
			}
		}
		if e.Length, err = d.U64("length"); err != nil {
			return nil, err
		}
		if !hashFirst {
			if err := d.Fixed("hash", e.Hash[:]); err != nil {
				return nil, err
			}
		}
		entries = append(entries, e)
		d.Leave()
	}
	// Section 5, HR-MAN-12: trailing bytes fail closed.
	if err := d.End(RuleTrailing); err != nil {
		return nil, err
	}
	return entries, nil
}

// CheckPath reports whether p is a canonical relative path (section 5,
// HR-MAN-04..10); the violation's offset is the byte offset in p.
func CheckPath(p string) error {
	d := cenc.NewDecoder(rules.Checks{}, nil)
	return checkPath(&d, []byte(p), 0)
}

// checkPath checks a path that starts at byte at of the manifest.
func checkPath(d *cenc.Decoder, p []byte, at int) error {
	if len(p) == 0 {
		// HR-MAN-09, reading HR-READ-08: the empty path is no relative path
		// (under empty-components-allowed it is bytes like any other).
		if !d.Rejects(RuleEmptySegment) || d.Checks().Takes(ReadPathEmpty, AltEmptyAllowed) {
			return nil
		}
		return d.Fail(RuleEmptySegment, at, "path", "empty path")
	}
	if p[0] == '/' && d.Rejects(RuleAbsolute) {
		// Section 5, HR-MAN-04: absolute paths fail closed.
		return d.Fail(RuleAbsolute, at, "path", "absolute path %q", p)
	}
	for i, c := range p {
		if c == '\\' || (c < 0x20 || c == 0x7f) && d.Checks().Takes(ReadPathControls, AltControlsRejected) {
			if err := checkPathByte(d, p, at, i); err != nil {
				return err
			}
		}
	}
	if e := nfc17.CheckUTF8(p); e != nil {
		// Section 5, HR-MAN-07: non-canonical UTF-8 fails closed.
		if d.Rejects(RuleUTF8) {
			return d.Fail(RuleUTF8, at+e.Offset, "path", "%s in %q", e.Reason, p)
		}
	} else if d.Checks().Takes(ReadPathNFC, AltNFCRequired) && !nfc17.IsNFC(p) && d.Rejects(RuleNFC) {
		// HR-MAN-08, reading HR-READ-07: only under nfc-required are
		// canonical paths NFC; by default section 5's list of failing
		// conditions is the whole list.
		return d.Fail(RuleNFC, at, "path", "%q is not in NFC (reading %s %s)", p, ReadPathNFC, AltNFCRequired)
	}
	start := 0
	for i := 0; i <= len(p); i++ {
		if i < len(p) && p[i] != '/' {
			continue
		}
		switch seg := p[start:i]; {
		case len(seg) == 0 && !(start == 0 && p[0] == '/'):
			// HR-MAN-09, reading HR-READ-08: no empty component (unless
			// empty-components-allowed). A leading '/' was reported as
			// absolute above.
			if d.Rejects(RuleEmptySegment) && !d.Checks().Takes(ReadPathEmpty, AltEmptyAllowed) {
				return d.Fail(RuleEmptySegment, at+start, "path", "empty component in %q", p)
			}
		case string(seg) == "." || string(seg) == ".." || (d.Mutated(MutDotPrefix) || d.Checks().Takes(ReadDotComponents, AltLeadingDot)) && len(seg) > 0 && seg[0] == '.':
			// Section 5, HR-MAN-05: dot components fail closed; under
			// reading HR-READ-10 leading-dot-components every component
			// starting with a dot is one.
			if d.Rejects(RuleDotSegment) {
				return d.Fail(RuleDotSegment, at+start, "path", "dot component %q in %q", seg, p)
			}
		}
		start = i + 1
	}
	return nil
}

// checkPathByte checks byte i of path p, a backslash or a control byte,
// which fails by its rule unless the rule is switched off. (Apart from
// checkPath's loop, so that the loop's common path is its fall-through.)
func checkPathByte(d *cenc.Decoder, p []byte, at, i int) error {
	switch c := p[i]; {
	case c == '\\':
		// Section 5, HR-MAN-06: backslashes fail closed.
		if d.Rejects(RuleBackslash) {
			return d.Fail(RuleBackslash, at+i, "path", "backslash in %q", p)
		}
	case d.Rejects(RuleControl):
		// HR-MAN-10, reading HR-READ-09: under controls-rejected, no
		// control characters (checkPath calls this for one only then).
		return d.Fail(RuleControl, at+i, "path", "control byte 0x%02x in %q", c, p)
	}
	return nil
}

// Encode writes entries as a manifest. It refuses entries that break a rule
// (unsorted, duplicate or non-canonical paths): the bytes it would write are
// parsed back and any violation is returned.
func Encode(entries []Entry) ([]byte, error) { return encode(rules.Checks{}, entries) }

func encode(c rules.Checks, entries []Entry) ([]byte, error) {
	size := 4
	for _, e := range entries {
		size += 2 + len(e.Path) + 8 + HashSize
	}
	enc := cenc.NewEncoder(c, size)
	if uint64(len(entries)) > 0xffffffff {
		if !c.Enforced(RuleFraming) {
			return nil, nil
		}
		return nil, rules.Fail(RuleFraming, cenc.Code, -1, "count: %d entries do not fit a u32be", len(entries))
	}
	enc.U32(uint32(len(entries)))
	for i, e := range entries {
		if len(e.Path) > MaxPathLength {
			if !c.Enforced(RuleFraming) {
				return nil, nil
			}
			return nil, rules.Fail(RuleFraming, cenc.Code, -1, "rows[%d].path: %d bytes do not fit a u16be length", i, len(e.Path))
		}
		enc.U16(uint16(len(e.Path)))
		enc.Raw([]byte(e.Path))
		if enc.Enforced(RuleFraming) {
			enc.U64(e.Length)
			enc.Fixed(e.Hash[:])
		} else {
			enc.Fixed(e.Hash[:])
			enc.U64(e.Length)
		}
	}
	if _, err := ParseWith(c, enc.Bytes()); err != nil {
		return nil, err
	}
	return enc.Bytes(), nil
}

// WriteRaw writes the framing of section 5 with the given count and rows
// exactly as given, checking nothing: the generators write manifests that
// break a rule with it (an unsorted row, a count that is not the rows').
// Encode checks.
func WriteRaw(count uint32, rows []Entry) []byte {
	b := binary.BigEndian.AppendUint32(nil, count)
	for _, r := range rows {
		b = binary.BigEndian.AppendUint16(b, uint16(len(r.Path)))
		b = append(b, r.Path...)
		b = binary.BigEndian.AppendUint64(b, r.Length)
		b = append(b, r.Hash[:]...)
	}
	return b
}

// Build returns the manifest of a set of vectors, given as path -> complete
// bytes: one row per path, sorted by raw path bytes.
func Build(files map[string][]byte) ([]byte, error) { return BuildWith(rules.Checks{}, files) }

// BuildWith is Build under c (its row hashes and layout too: under a
// construction fault it writes what ParseWith(c) reads).
func BuildWith(c rules.Checks, files map[string][]byte) ([]byte, error) {
	entries := make([]Entry, 0, len(files))
	for p, data := range files {
		entries = append(entries, entryFor(c, p, data))
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Path < entries[j].Path })
	return encode(c, entries)
}

// MismatchKind says how a set of files differs from a manifest.
type MismatchKind uint8

const (
	Missing     MismatchKind = iota + 1 // a row whose path has no file
	Extra                               // a file that no row names
	Substituted                         // a file whose length or hash differs from its row
)

func (k MismatchKind) String() string {
	switch k {
	case Missing:
		return "missing"
	case Extra:
		return "extra"
	case Substituted:
		return "substituted"
	}
	return "MismatchKind(" + strconv.Itoa(int(k)) + ")"
}

// Mismatch is one difference between a manifest and a set of files.
type Mismatch struct {
	Path string
	Kind MismatchKind
	Row  int // index of the manifest row, -1 for an extra file
}

// Diff compares parsed manifest rows with a set of files (path -> bytes) and
// returns every difference: rows in order, then extra files sorted by path.
func Diff(entries []Entry, files map[string][]byte) []Mismatch {
	return DiffWith(rules.Checks{}, entries, files)
}

// DiffWith is Diff under c (whose HR-MAN-13 fault hashes the files wrongly).
func DiffWith(c rules.Checks, entries []Entry, files map[string][]byte) []Mismatch {
	var out []Mismatch
	named := make(map[string]bool, len(entries))
	for i, e := range entries {
		named[e.Path] = true
		data, ok := files[e.Path]
		switch {
		case !ok:
			out = append(out, Mismatch{e.Path, Missing, i})
		case uint64(len(data)) != e.Length || hash(c, data) != e.Hash:
			out = append(out, Mismatch{e.Path, Substituted, i})
		}
	}
	var extra []string
	for p := range files {
		if !named[p] {
			extra = append(extra, p)
		}
	}
	sort.Strings(extra)
	for _, p := range extra {
		out = append(out, Mismatch{p, Extra, -1})
	}
	return out
}

// RowOffset returns the byte offset of row i in a manifest whose rows are
// entries (for reporting a mismatch at its row).
func RowOffset(entries []Entry, i int) int64 {
	off := int64(4)
	for _, e := range entries[:i] {
		off += int64(2 + len(e.Path) + 8 + HashSize)
	}
	return off
}
