package lace

import (
	"strconv"

	"github.com/threespec/conformance/impl/mark"
	"github.com/threespec/conformance/impl/rules"
)

// Encode returns the canonical bytes of r's form, fields, data, By and Mark,
// with every glyph digest computed afresh. For a record Parse accepted,
// Encode gives back exactly the parsed bytes. Encode does not validate: use
// Construct to make a record from application input.
//
// TRANSITIONAL (issue 16): under fault injection the digests are computed
// as the faulty constructor computes them; Encode takes those faults from
// the process-global switches (rules.Current).
func Encode(r *Record) []byte {
	out, _, _ := build(rules.Current(), r.Form, r.Fields, r.Data, r.By, r.Mark, nil)
	return out
}

// built holds the hashes build computed.
type built struct {
	hash, plex, blob Hash
	mark             [mark.MarkSize]byte // the Mark build made (Seal with a signer)
	subject          [DigestSize]byte    // what the Mark was made over
	dataAt           int                 // where the data starts
}

// Widths of the structural lines (Lace-010, "Maximum H3 record size is bounded").
const (
	byLineLen   = len(nameBy) + 2 + mark.ByTextLen + 1     // 53
	markLineLen = len(nameMark) + 2 + mark.MarkTextLen + 1 // 93
)

// build lays out a record of form f in one buffer, leaving each glyph line's
// digest to be filled in from the innermost record outwards. For a Seal with
// sign != nil, the Mark is made over the embedded Plex digest once it is known.
func build(c rules.Checks, f Form, fields []Field, data []byte, by [mark.KeySize]byte, mk [mark.MarkSize]byte,
	sign func(subject [DigestSize]byte) ([mark.MarkSize]byte, error)) ([]byte, built, error) {
	var dl [20]byte
	dlText := strconv.AppendInt(dl[:0], int64(len(data)), 10)
	size := GlyphLineLen + len(nameDataLength) + 2 + len(dlText) + 1 + 1 + len(data)
	if f != FormBlob {
		size += GlyphLineLen
		for _, fd := range fields {
			size += len(fd.Name) + 2 + len(fd.Value) + 1
		}
	}
	if f == FormSeal {
		size += byLineLen + markLineLen
	}
	out := make([]byte, 0, size)

	sealAt, plexAt := -1, -1
	if f == FormSeal {
		sealAt = len(out)
		out = appendGlyphSlot(out)
		out = append(out, nameBy+": "...)
		out = append(out, mark.FormatBy(by)...)
		out = append(out, '\n')
		out = append(out, nameMark+": "...)
		out = append(out, mark.FormatMark(mk)...) // replaced below when signing
		out = append(out, '\n')
	}
	if f != FormBlob {
		plexAt = len(out)
		out = appendGlyphSlot(out)
		for _, fd := range fields {
			out = append(out, fd.Name...)
			out = append(out, ": "...)
			out = append(out, fd.Value...)
			out = append(out, '\n')
		}
	}
	blobAt := len(out)
	out = appendGlyphSlot(out)
	out = append(out, nameDataLength+": "...)
	out = append(out, dlText...)
	out = append(out, '\n', '\n')
	out = append(out, data...)

	var b built
	b.dataAt = len(out) - len(data)
	b.blob = fillGlyph(c, out, blobAt, FormBlob, len(data), 0)
	b.hash = b.blob
	if plexAt >= 0 {
		b.plex = fillGlyph(c, out, plexAt, FormPlex, len(data), blobAt)
		b.hash = b.plex
	}
	if sealAt >= 0 {
		b.subject = b.plex.Digest
		if c.Mutated(MutMarkOverBlob) {
			b.subject = b.blob.Digest // mutant: the Blob's digest signed
		}
		if sign != nil {
			m, err := sign(b.subject)
			if err != nil {
				return nil, built{}, err
			}
			markAt := sealAt + GlyphLineLen + byLineLen + len(nameMark) + 2
			copy(out[markAt:], mark.FormatMark(m))
			b.mark = m
		}
		b.hash = fillGlyph(c, out, sealAt, FormSeal, len(data), plexAt)
	}
	return out, b, nil
}

// appendGlyphSlot appends a record glyph line whose hash text is filled in later.
func appendGlyphSlot(out []byte) []byte {
	out = append(out, glyphPrefix...)
	out = append(out, make([]byte, HashTextLen)...)
	return append(out, '\n')
}

// fillGlyph computes the digest of the record whose glyph line starts at at
// (BLAKE3-256 of every byte after the glyph line's LF, LACE-GLYPH-03) and
// writes its hash text into the line; the glyph line of the record it
// directly embeds starts at embedAt (Plex, Seal). Under fault injection the
// digest covers the wrong bytes, as the reader's payloadDigest does.
func fillGlyph(c rules.Checks, out []byte, at int, f Form, dataLen, embedAt int) Hash {
	payload := out[at+GlyphLineLen:]
	var d [DigestSize]byte
	switch {
	case !c.Enforced(RuleGlyphDigestBytes):
		// Fault: hash only the Blob data, leaving out every structural line.
		d = digest(out[len(out)-dataLen:])
	case c.Mutated(MutHashFromGlyphLF):
		d = digest(out[at+GlyphLineLen-1:])
	case f == FormPlex && !c.Enforced(RuleVecPlex):
		d = digestOf(out[at+GlyphLineLen:embedAt], out[embedAt+GlyphLineLen:])
	case f == FormSeal && !c.Enforced(RuleVecSeal):
		d = digest(out[embedAt:])
	default:
		d = digest(payload)
	}
	h := Hash{Form: f, Digest: d}
	// Appending to an empty slice of out writes the text in place.
	h.appendText(out[at+len(glyphPrefix) : at+len(glyphPrefix)])
	return h
}
