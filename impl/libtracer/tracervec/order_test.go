package tracervec

import (
	"encoding/hex"
	"encoding/json"
	"slices"
	"testing"

	"github.com/threespec/conformance/impl/libtracer/tracermodel"
	"github.com/threespec/conformance/internal/vecgen"
	"github.com/threespec/conformance/vectorset"
)

// TestFiring holds the check-order model (tracermodel.Codes) to cases whose codes follow from
// libtracer-01's sentences, worked by hand: which checks fail on the bytes,
// and which of them some order the spec allows reaches first.
func TestFiring(t *testing.T) {
	t.Parallel()
	h := func(s string) []byte {
		b, err := hex.DecodeString(s)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	ex05 := h("011005" + "00aabbccddeeb6c91223") // §Worked frame examples, CRC-32C 0x2312c9b6
	badEx05 := xorAt(ex05, 12, 0x01)
	ex03 := h("012204002a000000e8030000") // the relative-stamp example, standalone
	ex06 := h("06501200020006007365" + "6e736f7202000400" + "74656d70f370ab47")
	tests := []struct {
		name string
		in   []byte
		a    decodeArgs
		alt  tracermodel.Alternatives
		want []string
	}{
		{"a valid frame fails no check", ex06, dgram, tracermodel.Alternatives{}, nil},
		{"00 alone: type 0x00, or the header cut", h("00"), dgram, tracermodel.Alternatives{}, []string{codeInvalid, codeTruncated}},
		{"01 80 alone on a stream: bit 7, or the stream closed", h("0180"), stream, tracermodel.Alternatives{}, []string{codeInvalid, codeDown}},
		{"a whole header with bit 7: INVALID only", h("01800000"), dgram, tracermodel.Alternatives{}, []string{codeInvalid}},
		{"type 0x00 in a frame whose bytes are all there", h("00000100aa"), dgram, tracermodel.Alternatives{}, []string{codeInvalid}},
		{"16 MiB + 1 declared, nothing after: the limit or the extent", h("010801000001"), dgram, tracermodel.Alternatives{}, []string{codeInvalid, codeTruncated}},
		{"16 MiB exactly declared, nothing after: within the limit", h("010800000001"), dgram, tracermodel.Alternatives{}, []string{codeTruncated}},
		{"a CRC failure alone", badEx05, dgram, tracermodel.Alternatives{}, []string{codeCRCFail}},
		{"a CRC failure, then a cut header: byte order or framing first", cat(badEx05, h("01")), dgram, tracermodel.Alternatives{}, []string{codeCRCFail, codeTruncated}},
		{"the same in report frames: only framing rejects", cat(badEx05, h("01")), dgram.frames(), tracermodel.Alternatives{}, []string{codeTruncated}},
		{"the same when the first error stops the parse", cat(badEx05, h("01")), dgram, tracermodel.Alternatives{StopAtFirst: true}, []string{codeCRCFail}},
		{"an outer 0x0E with a bad CRC: its CRC or its type", h("0e100100" + "01" + "00000000"), dgram, tracermodel.Alternatives{}, []string{codeCRCFail, codeMismatch}},
		{"an outer 0x0E with a relative stamp: its anchor or its type", h("0e2201000101000000"), dgram, tracermodel.Alternatives{}, []string{codePath, codeMismatch}},
		{"EX-03 standalone: no anchor", ex03, dgram, tracermodel.Alternatives{}, []string{codePath}},
		{"EX-03 standalone, accepted as shown", ex03, dgram, tracermodel.Alternatives{StandaloneRel: true}, nil},
		{"a PATH whose CRC fails around a child with bit 7: CRC, or the child first", wire(&node{typ: typePath, opt: bitPL | bitCR, crcXor: 1, kids: []*node{leaf(typeName, bitR7, []byte("x"))}}), dgram, tracermodel.Alternatives{}, []string{codeCRCFail, codeInvalid}},
		{"a child overrunning its parent: INVALID, or a frame cut short", h("0640050002000200aa"), dgram, tracermodel.Alternatives{}, []string{codeInvalid, codeTruncated}},
		{"the same on a stream", h("0640050002000200aa"), stream, tracermodel.Alternatives{}, []string{codeInvalid, codeDown}},
		{"a child with bit 7 inside its parent: INVALID only", h("0640050002800100aa"), dgram, tracermodel.Alternatives{}, []string{codeInvalid}},
		{"a relative child under an unstamped PATH: the child's anchor", wire(rec(typePath, bitPL, leaf(typeValue, bitTS|bitTF, []byte{1}).rel(1))), dgram, tracermodel.Alternatives{}, []string{codePath}},
		{"six nested records at a budget of 5, the outer CRC wrong", wire(&node{typ: typeUser, opt: bitPL | bitCR, crcXor: 1, kids: []*node{nest(5, statusOK())}}), dgram.budgetOf(5), tracermodel.Alternatives{}, []string{codeCRCFail, codeTooDeep}},
		{"an empty datagram", nil, dgram, tracermodel.Alternatives{}, []string{codeTruncated}},
		{"an empty stream ends cleanly", nil, stream, tracermodel.Alternatives{}, nil},
		{"EX-05 and STATUS in one datagram, one TLV a datagram", cat(ex05, h("09000000")), dgram, tracermodel.Alternatives{OnePerDatagram: true}, []string{codeInvalid}},
	}
	for _, tt := range tests {
		got := tracermodel.Codes(tt.in, tt.a.Args, tt.alt)
		want := slices.Clone(tt.want)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: firing %x = %q, want %q", tt.name, tt.in, got, want)
		}
	}
}

// TestNoListedErrorRestsOnOrder: no positive's frame list (report
// "frames") lists an error that another spec-following check order would
// give another code: a listed error is compared by its code alone.
func TestNoListedErrorRestsOnOrder(t *testing.T) {
	vecs, err := generate(vecgen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, v := range vecs {
		var a decodeArgs
		if v.Expect != vectorset.Accept || v.Data == nil || json.Unmarshal(v.Args, &a) != nil || a.Report != "frames" {
			continue
		}
		n++
		if tracermodel.ListedErrorsOrdered(v.Data, a.Args) {
			t.Errorf("%s lists an error whose code rests on a check order", v.ID)
		}
	}
	if n < 5 {
		t.Errorf("only %d frame-list positives checked", n)
	}
}
