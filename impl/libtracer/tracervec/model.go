package tracervec

import (
	"encoding/binary"
	"fmt"

	"github.com/threespec/conformance/impl/libtracer/tracermodel"
)

// model is the generator's own receiver: a second reading of libtracer-01
// and of the decisions of docs/libtracer.md, sharing no code with
// impl/libtracer. Every vector's expectation is checked against it before
// the engine checks it against the reference, so a vector stands on two
// independent readings; mutations are classified by both and a
// disagreement stops the generation.

// Codes, bounds and transports of libtracer-01 and docs/libtracer.md
// (tracermodel's).
const (
	codeInvalid     = tracermodel.CodeInvalid
	codeCRCFail     = tracermodel.CodeCRCFail
	codeTruncated   = tracermodel.CodeTruncated
	codeDown        = tracermodel.CodeDown
	codePath        = tracermodel.CodePath
	codeTooDeep     = tracermodel.CodeTooDeep
	codeMismatch    = tracermodel.CodeMismatch
	transportDgram  = tracermodel.TransportDatagram
	transportStream = tracermodel.TransportStream
)

// codeOf maps each rejecting rule to the code the spec names for it.
var codeOf = map[string]string{
	"LT-TYPE-01":  codeInvalid,
	"LT-OPT-01":   codeInvalid,
	"LT-OPT-02":   codeInvalid,
	"LT-TRUNC-06": codeInvalid,
	"LT-NEST-05":  codeInvalid,
	"LT-CRC-09":   codeCRCFail,
	"LT-CRC-10":   codeCRCFail,
	"LT-TRUNC-03": codeTruncated,
	"LT-TRUNC-08": codeTruncated,
	"LT-TRUNC-02": codeDown,
	"LT-TS-04":    codePath,
	"LT-NEST-03":  codeTooDeep,
	"LT-UNK-05":   codeMismatch,
}

// fail is a violation of rule at byte off, inside the frame that starts at
// byte frame, and says why in words (for the vector comments).
func fail(rule string, off, frame int64, format string, args ...any) *violation {
	return &violation{rule: rule, code: codeOf[rule], offset: off, frame: frame, why: fmt.Sprintf(format, args...)}
}

// decodeArgs are the arguments of libtracer.decode the generator uses:
// those the verdict depends on (tracermodel.Args, first in the JSON), and
// more.
type decodeArgs struct {
	tracermodel.Args
	// Views cut a datagram into a rope of views (LT-CTX-02); the answer is
	// the same whatever the cuts (LT-CTX-03), so the model ignores them.
	Views []int64 `json:"views,omitempty"`
	// Strip and Forward ask for the at-rest and the re-sent bytes of the
	// top-level frames as well (lifecycle.go).
	Strip   bool        `json:"strip,omitempty"`
	Forward *forwardArg `json:"forward,omitempty"`
}

// outcome is what a receiver answers: the frame list, or a rejection.
type outcome struct {
	frames []flat
	err    *violation
}

// decodeModel reads in as libtracer.decode does under args.
//
// A datagram or stream holds top-level TLVs back to back (LT-CTX-04). A
// header is checked in byte order as far as its bytes go: type 0x00, bit 7,
// bit 0, a length above MAX_TLV_BYTES (all INVALID); then the frame must be
// present (else truncated on a datagram, transport::down on a stream, at
// the frame's first byte). Such errors break framing and end the parse. An
// error inside a frame whose extent is known rejects that frame and the
// parse goes on; the verdict is the first error in byte order, and report
// "frames" lists the rejected frames instead (framing errors still reject).
func decodeModel(in []byte, a decodeArgs) outcome {
	stream := a.Transport == transportStream
	if len(in) == 0 {
		if stream {
			return outcome{frames: []flat{}} // closed before any byte: a clean end
		}
		return outcome{err: fail("LT-TRUNC-08", 0, 0, "the datagram is empty, and a datagram carries a frame")}
	}
	frames := []flat{}
	var first *violation
	for off := int64(0); off < int64(len(in)); {
		typ, opt, length, size, v := header(in[off:], off, a.MaxTLV())
		if v == nil && (size == 0 || uint64(len(in))-uint64(off) < size) {
			why := fmt.Sprintf("the frame at byte %d needs %d bytes where %d remain", off, size, uint64(len(in))-uint64(off))
			if size == 0 {
				why = fmt.Sprintf("the %d byte(s) left at byte %d are too few for the header they begin", int64(len(in))-off, off)
			}
			v = fail("LT-TRUNC-03", off, off, "%s in the datagram", why)
			if stream {
				v = fail("LT-TRUNC-02", off, off, "%s when the stream closes", why)
			}
		}
		if v != nil {
			if first != nil && a.Report != "frames" {
				return outcome{err: first}
			}
			return outcome{err: v}
		}
		list, v := walkFrame(in[:off+int64(size)], off, a)
		if v != nil {
			if first == nil {
				first = v
			}
			list = []flat{{offset: off, typ: typ, opt: opt, length: length, err: v}}
		}
		frames = append(frames, list...)
		off += int64(size)
	}
	if first != nil && a.Report != "frames" {
		return outcome{err: first}
	}
	return outcome{frames: frames}
}

// header checks the header at the start of b (at offset off) as far as b
// goes. size is the whole frame's size, 0 when the header is cut short.
func header(b []byte, off int64, maxTLV uint64) (typ, opt uint8, length uint32, size uint64, v *violation) {
	if len(b) < 1 {
		return 0, 0, 0, 0, nil
	}
	typ = b[0]
	if typ == 0x00 {
		return typ, 0, 0, 0, fail("LT-TYPE-01", off, off, "the header at byte %d has type 0x00", off) // §Type code registry
	}
	if len(b) < 2 {
		return typ, 0, 0, 0, nil
	}
	opt = b[1]
	if opt&bitR7 != 0 {
		return typ, opt, 0, 0, fail("LT-OPT-01", off+1, off, "the header at byte %d has reserved opt bit 7 set (opt 0x%02x)", off, opt) // §Options bitfield
	}
	if opt&bitR0 != 0 {
		return typ, opt, 0, 0, fail("LT-OPT-02", off+1, off, "the header at byte %d has reserved opt bit 0 set (opt 0x%02x)", off, opt)
	}
	h := hdrSize(opt)
	if len(b) < h {
		return typ, opt, 0, 0, nil
	}
	if h == 6 {
		length = binary.LittleEndian.Uint32(b[2:6])
	} else {
		length = uint32(binary.LittleEndian.Uint16(b[2:4]))
	}
	if uint64(length) > maxTLV {
		return typ, opt, length, 0, fail("LT-TRUNC-06", off+2, off, "the header at byte %d declares %d payload bytes, above MAX_TLV_BYTES %d", off, length, maxTLV) // §Truncation handling
	}
	return typ, opt, length, uint64(h) + uint64(length) + uint64(tsSize(opt)+crcSize(opt)), nil
}

// walkFrame walks the top-level frame at off, which ends exactly at
// len(in), with an explicit work stack: for each frame its CRC, then its
// timestamp anchor, then (top level only) its type, then for a structured
// frame the budget, then its children. A frame's CRC is checked before
// anything inside it, so the outermost failing CRC is the one reported.
func walkFrame(in []byte, off int64, a decodeArgs) ([]flat, *violation) {
	type level struct {
		end, frameEnd int64 // payload end, frame end
		anchor        uint64
		hasAnchor     bool
		entry         int // index of the frame's entry in out
	}
	var stack []level
	var out []flat
	pos := off
	for {
		var typ, opt uint8
		var length uint32
		var size uint64
		if len(stack) == 0 {
			typ, opt, length, size, _ = header(in[pos:], pos, a.MaxTLV())
		} else {
			p := stack[len(stack)-1]
			var v *violation
			typ, opt, length, size, v = header(in[pos:p.end], pos, a.MaxTLV())
			if v != nil {
				return nil, v
			}
			// Decision: children fill the payload exactly (LT-NEST-05).
			if size == 0 || size > uint64(p.end-pos) {
				if size == 0 {
					return nil, fail("LT-NEST-05", pos, pos, "the %d byte(s) left of its parent's payload at byte %d are too few for a child header", p.end-pos, pos)
				}
				return nil, fail("LT-NEST-05", pos, pos, "the child at byte %d needs %d bytes where %d remain of its parent's payload", pos, size, p.end-pos)
			}
		}
		start := pos + int64(hdrSize(opt))
		end := start + int64(length)
		tsEnd := end + int64(tsSize(opt))
		frameEnd := pos + int64(size)
		e := flat{depth: len(stack), offset: pos, typ: typ, opt: opt, length: length}

		// §CRC: over payload then trailer_ts (LT-CRC-09..11), every type (LT-UNK-03).
		switch crcSize(opt) {
		case 4:
			got, want := crc32c(in[start:tsEnd]), binary.LittleEndian.Uint32(in[tsEnd:])
			if got != want {
				return nil, fail("LT-CRC-09", tsEnd, pos, "the CRC-32C of the frame at byte %d is 0x%08x, its trailer_crc at byte %d says 0x%08x", pos, got, tsEnd, want)
			}
			e.crc = &flatCRC{width: 32, value: want}
		case 2:
			got, want := crc16(in[start:tsEnd]), binary.LittleEndian.Uint16(in[tsEnd:])
			if got != want {
				return nil, fail("LT-CRC-10", tsEnd, pos, "the CRC-16 of the frame at byte %d is 0x%04x, its trailer_crc at byte %d says 0x%04x", pos, got, tsEnd, want)
			}
			e.crc = &flatCRC{width: 16, value: uint32(want)}
		}

		// §Timestamp form: a relative stamp needs a stamped ancestor (LT-TS-04).
		var anchor uint64
		hasAnchor := false
		if len(stack) > 0 {
			anchor, hasAnchor = stack[len(stack)-1].anchor, stack[len(stack)-1].hasAnchor
		}
		switch tsSize(opt) {
		case 8:
			t := binary.LittleEndian.Uint64(in[end:])
			e.ts = &flatTS{raw: t, resolved: t}
		case 4:
			if !hasAnchor {
				return nil, fail("LT-TS-04", end, pos, "the frame at byte %d has a relative stamp (TS=1, TF=1) and no stamped ancestor to anchor it", pos)
			}
			r := binary.LittleEndian.Uint32(in[end:])
			e.ts = &flatTS{rel: true, raw: uint64(r), resolved: anchor + uint64(int64(int32(r)))}
		}
		if e.ts != nil {
			anchor, hasAnchor = e.ts.resolved, true
		}

		// §Handling unknown type codes: the outer addressed TLV (LT-UNK-05).
		if len(stack) == 0 && !known(typ) {
			return nil, fail("LT-UNK-05", pos, pos, "the top-level frame at byte %d has the unknown type 0x%02x", pos, typ)
		}
		if len(stack) > 0 {
			out[stack[len(stack)-1].entry].children++
		}
		if opt&bitPL != 0 && known(typ) {
			// §Iterative parsing requirement: one node per open level (LT-NEST-03).
			if len(stack) >= a.Budget() {
				return nil, fail("LT-NEST-03", pos, pos, "the structured frame at byte %d would open level %d of a work budget of %d", pos, len(stack)+1, a.Budget())
			}
			out = append(out, e)
			stack = append(stack, level{end: end, frameEnd: frameEnd, anchor: anchor, hasAnchor: hasAnchor, entry: len(out) - 1})
			pos = start
		} else {
			// Opaque: PL=0, or an unknown type nested under PL=1 (LT-UNK-06).
			e.payload, e.hasPayload = in[start:end], true
			out = append(out, e)
			pos = frameEnd
		}
		for len(stack) > 0 && pos == stack[len(stack)-1].end {
			pos = stack[len(stack)-1].frameEnd
			stack = stack[:len(stack)-1]
		}
		if len(stack) == 0 {
			return out, nil
		}
	}
}
