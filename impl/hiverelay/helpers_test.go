package hiverelay

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/threespec/conformance/impl/cenc"
	"github.com/threespec/conformance/impl/rules"
	"github.com/threespec/conformance/internal/fault"
)

// Hand-written encodings, built from the layouts of section 3 with plain
// byte concatenation so that the tests do not depend on the encoders they
// check. Compact uints come from cenc.AppendCompactUint, whose forms cenc
// tests against known answers.

func cat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func join(parts [][]byte) []byte { return cat(parts...) }

func fillN(b byte, n int) []byte { return bytes.Repeat([]byte{b}, n) }

func fill(b byte) []byte { return fillN(b, 32) }

func u32be(v uint32) []byte { return binary.BigEndian.AppendUint32(nil, v) }

func u64be(v uint64) []byte { return binary.BigEndian.AppendUint64(nil, v) }

func cu(n int) []byte { return cenc.AppendCompactUint(nil, uint64(n)) }

func b1(b byte) []byte { return []byte{b} }

// key returns the i-th of an ascending series of nonzero 32-byte keys.
func key(i int) []byte { return cat(fillN(0x10, 30), binary.BigEndian.AppendUint16(nil, uint16(i+1))) }

// rcapB is a ReadCellCapV1: version 1, relay, slot, cellKey 0xcc.., class and
// an optional expected hash (nil for absent).
func rcapB(relay, slot []byte, class byte, hash []byte) []byte {
	opt := b1(0)
	if hash != nil {
		opt = cat(b1(1), hash)
	}
	return cat(b1(1), relay, slot, fill(0xcc), b1(class), opt)
}

func capsN(n int) [][]byte {
	caps := make([][]byte, n)
	for i := range caps {
		caps[i] = rcapB(key(i), fill(0x22), byte(i%5+1), nil)
	}
	return caps
}

var stdRcap = rcapB(fill(0x11), fill(0x22), 2, fill(0x44))

// wcapB is a WriteCellCapV1.
func wcapB(readCap []byte, epoch uint32, create, renew, drop []byte) []byte {
	return cat(readCap, u32be(epoch), create, renew, drop)
}

var stdWcap = wcapB(rcapB(fill(0x11), fill(0x22), 1, nil), 9, fill(0xa1), fill(0xa2), fill(0xa3))

// frontierB is the i-th frontier entry of an ascending series.
func frontierB(i int) []byte { return cat(key(i), u64be(uint64(i)), fill(0x55)) }

func frontierN(n int) [][]byte {
	f := make([][]byte, n)
	for i := range f {
		f[i] = frontierB(i)
	}
	return f
}

// ckptB is an OpaqueChainCheckpointV1 with commitments 0x66.. and 0x77...
func ckptB(frontier, caps [][]byte) []byte {
	return cat(b1(1), cu(len(frontier)), join(frontier), fill(0x66), fill(0x77), cu(len(caps)), join(caps))
}

var stdCkpt = ckptB(frontierN(2), capsN(2))

// frameParts are the fields of an OpaqueChainFrameV1 in declaration order.
type frameParts struct {
	chain    []byte
	seq      uint64
	prev     []byte // nil: absent
	vkey     []byte
	payloads [][]byte
	caps     [][]byte
	ckpt     []byte // nil: absent
	sig      []byte
}

func (f frameParts) bytes() []byte {
	prev := b1(0)
	if f.prev != nil {
		prev = cat(b1(1), f.prev)
	}
	ck := b1(0)
	if f.ckpt != nil {
		ck = cat(b1(1), f.ckpt)
	}
	var ps []byte
	for _, p := range f.payloads {
		ps = append(ps, cat(cu(len(p)), p)...)
	}
	return cat(b1(1), f.chain, u64be(f.seq), prev, f.vkey, cu(len(f.payloads)), ps, cu(len(f.caps)), join(f.caps), ck, f.sig)
}

// stdFrame is a genesis frame with one payload; variants edit a copy.
func stdFrame() frameParts {
	return frameParts{chain: fill(0x31), vkey: fill(0x32), payloads: [][]byte{[]byte("hello")}, sig: fillN(0x33, 64)}
}

func (f frameParts) with(edit func(*frameParts)) []byte {
	edit(&f)
	return f.bytes()
}

// Offsets in a frame up to the payloads.
const (
	frameSeqOff  = 1 + 32
	framePrevOff = frameSeqOff + 8
)

func bcoreB(core, block []byte, fork, length uint64, head []byte) []byte {
	return cat(b1(1), core, block, u64be(fork), u64be(length), cu(len(head)), head)
}

var stdBcore = bcoreB(fill(0x41), fill(0x42), 2, 77, []byte("signed head"))

// blobB is a CellBlobV1 of total length n: version 1, nonce 0x0a.., sealed 0x5e...
func blobB(n int) []byte {
	if n < blobHeader {
		return fillN(1, n)
	}
	return cat(b1(1), fillN(0x0a, 12), fillN(0x5e, n-blobHeader))
}

// std is the standard reference's Checks: every rule enforced, no mutant,
// the default readings.
var std rules.Checks

// faults returns the Checks that switch off rule id, or switch on mutant id.
func faults(id rules.ID) rules.Checks { return rules.Checks{Faults: fault.Of(string(id))} }

// wantViolation checks that err is a BAD_ENCODING violation of rule id at
// byte offset off (off < -1 skips the offset check) whose detail begins with
// the field path.
func wantViolation(t *testing.T, err error, id rules.ID, off int64, field string) {
	t.Helper()
	var v *rules.Violation
	if !errors.As(err, &v) {
		t.Fatalf("error = %v, want a *rules.Violation of %s", err, id)
	}
	if v.Rule != id || v.Code != cenc.Code || (off >= -1 && v.Offset != off) {
		t.Fatalf("violation = %v, want %s [%s] at byte %d", v, id, cenc.Code, off)
	}
	if field != "" && !strings.HasPrefix(v.Detail, field) {
		t.Fatalf("detail %q does not start with field %q", v.Detail, field)
	}
}
