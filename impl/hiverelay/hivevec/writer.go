package hivevec

import (
	"encoding/binary"
	"strconv"
	"strings"

	"golang.org/x/crypto/blake2b"

	"github.com/threespec/conformance/impl/rules"
)

// The generator writes every record with its own encoder, written from
// sections 2 and 3 of the spec and independent of impl/hiverelay's codecs,
// so that the reference is checked against bytes it did not produce. The
// writer writes exactly the values it is given (no sorting, no checks: it
// builds negatives as readily as positives) and records the layout of what
// it wrote, field by field, for the mutation families.

// maxSafe is JavaScript's largest exact safe integer, 2^53-1 (section 2).
const maxSafe = 1<<53 - 1

// compactForm returns v in the compact-uint form with marker m (0 for the
// one-byte form): 0..252 in one byte, 0xfd + u16 LE, 0xfe + u32 LE, 0xff +
// u64 LE (section 2). It writes whatever form it is asked for, overlong
// included; the caller makes sure v fits the form.
func compactForm(v uint64, m byte) []byte {
	switch m {
	case 0:
		return []byte{byte(v)}
	case 0xfd:
		return binary.LittleEndian.AppendUint16([]byte{m}, uint16(v))
	case 0xfe:
		return binary.LittleEndian.AppendUint32([]byte{m}, uint32(v))
	}
	return binary.LittleEndian.AppendUint64([]byte{0xff}, v)
}

// shortestMarker is the marker of v's canonical shortest form (0 for one byte).
func shortestMarker(v uint64) byte {
	switch {
	case v <= 252:
		return 0
	case v <= 0xffff:
		return 0xfd
	case v <= 0xffffffff:
		return 0xfe
	}
	return 0xff
}

// compact returns v in its canonical shortest form.
func compact(v uint64) []byte { return compactForm(v, shortestMarker(v)) }

// kind classifies a recorded field for the mutation families.
type kind uint8

const (
	kVersion kind = iota + 1 // u8 version, must be 1
	kKey                     // 32 bytes that must be nonzero (rule: the nonzero rule)
	kFixed                   // fixed bytes without a check
	kClass                   // u8 size class 1..5
	kInt                     // u32 or u64, any value
	kTag                     // optional tag
	kCount                   // compact-uint array count (rule: the range rule)
	kLength                  // compact-uint length of a bounded byte string (rule: the range rule)
	kBytes                   // the bytes of a bounded byte string
)

// field is one recorded field: its path ("snapshotReadCaps[1].cellKey"),
// kind, place in the record, the rule it answers to, and for integers,
// tags, counts and lengths its value.
type field struct {
	path  string
	kind  kind
	off   int
	n     int
	rule  rules.ID
	value uint64
}

// array is one recorded sorted array: the spans of its elements and where
// in each element the sort key lies.
type array struct {
	path           string
	elems          [][2]int // [start, end) of each element
	keyOff, keyLen int      // the sort key, relative to an element's start
	order, dup     rules.ID
}

// writer appends a record's bytes and records its layout.
type writer struct {
	b      []byte
	scopes []string
	fields []field
	arrays []array
}

func (w *writer) enter(name string, index int) {
	if index >= 0 {
		name += "[" + strconv.Itoa(index) + "]"
	}
	w.scopes = append(w.scopes, name)
}

func (w *writer) leave() { w.scopes = w.scopes[:len(w.scopes)-1] }

func (w *writer) path(name string) string {
	return strings.Join(append(append([]string(nil), w.scopes...), name), ".")
}

func (w *writer) put(name string, k kind, rule rules.ID, value uint64, b []byte) {
	w.fields = append(w.fields, field{path: w.path(name), kind: k, off: len(w.b), n: len(b), rule: rule, value: value})
	w.b = append(w.b, b...)
}

func (w *writer) version(name string, v byte) { w.put(name, kVersion, "", uint64(v), []byte{v}) }
func (w *writer) key(name string, rule rules.ID, k [32]byte) {
	w.put(name, kKey, rule, 0, k[:])
}
func (w *writer) fixed(name string, b []byte) { w.put(name, kFixed, "", 0, b) }
func (w *writer) class(name string, c byte)   { w.put(name, kClass, "", uint64(c), []byte{c}) }
func (w *writer) u32(name string, v uint32) {
	w.put(name, kInt, "", uint64(v), binary.BigEndian.AppendUint32(nil, v))
}
func (w *writer) u64(name string, v uint64) {
	w.put(name, kInt, "", v, binary.BigEndian.AppendUint64(nil, v))
}

func (w *writer) tag(name string, present bool) {
	var t byte
	if present {
		t = 1
	}
	w.put(name, kTag, "", uint64(t), []byte{t})
}

func (w *writer) count(name string, rule rules.ID, n int) {
	w.put(name, kCount, rule, uint64(n), compact(uint64(n)))
}

// bounded writes a bounded byte string: its canonical length, then its bytes.
func (w *writer) bounded(name string, rule rules.ID, b []byte) {
	w.put(name+".length", kLength, rule, uint64(len(b)), compact(uint64(len(b))))
	w.put(name, kBytes, "", 0, b)
}

// sorted writes an array of n elements with each, recording the element
// spans and the sort key.
func (w *writer) sorted(name string, n int, countRule rules.ID, keyOff, keyLen int, order, dup rules.ID, each func(i int)) {
	w.count(name, countRule, n)
	a := array{path: w.path(name), keyOff: keyOff, keyLen: keyLen, order: order, dup: dup}
	for i := 0; i < n; i++ {
		start := len(w.b)
		w.enter(name, i)
		each(i)
		w.leave()
		a.elems = append(a.elems, [2]int{start, len(w.b)})
	}
	w.arrays = append(w.arrays, a)
}

// Labels (docs/hiverelay.md, "The vector set"): every field of the
// inventory's positives is derived from a fixed label.

const labelPrefix = "hiverelay-bcc-v1/vector/"

// label32 is BLAKE2b-256(ASCII("hiverelay-bcc-v1/vector/" || l)).
func label32(l string) [32]byte { return blake2b.Sum256([]byte(labelPrefix + l)) }

// labelBytes is the first n bytes of H(l,0) || H(l,1) || ..., where
// H(l,i) = BLAKE2b-256(ASCII("hiverelay-bcc-v1/vector/" || l) || U64BE(i)).
func labelBytes(l string, n int) []byte {
	var out []byte
	for i := uint64(0); len(out) < n; i++ {
		h := blake2b.Sum256(binary.BigEndian.AppendUint64([]byte(labelPrefix+l), i))
		out = append(out, h[:]...)
	}
	return out[:n]
}

// domainHash is BLAKE2b-256(ASCII(domain) || U64BE(len(b)) || b), the
// formula of both authority hashes (sections 4 and 5).
func domainHash(domain string, b []byte) [32]byte {
	in := append([]byte(domain), binary.BigEndian.AppendUint64(nil, uint64(len(b)))...)
	h, _ := blake2b.New256(nil)
	h.Write(in)
	h.Write(b)
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// The domain strings, as sections 4 and 5 print them.
const (
	formatHashDomain    = "hiverelay.blind.client-composition-format-hash.v1"
	vectorSetHashDomain = "hiverelay.blind.client-composition-vector-set-hash.v1"
)
