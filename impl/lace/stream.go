package lace

import (
	"bytes"

	"github.com/threespec/conformance/impl/rules"
)

// ParseStream parses a record stream (a .lrs file): zero or more complete
// stored records concatenated with no header, separator or trailer
// (Lace-010, "Record streams concatenate complete records"). Every record is
// validated as Parse does; a stream that ends inside a record
// (LACE-STREAM-03) or continues with bytes that do not begin a record
// (LACE-STREAM-04) is rejected. An empty stream holds no records
// (LACE-STREAM-05). Each Record.Data aliases in.
//
// TRANSITIONAL (issue 16): it takes the process-global switches
// (rules.Current); callers that carry their own use ParseStreamWith.
func ParseStream(in []byte, opt Options) ([]*Record, error) {
	return ParseStreamWith(rules.Current(), in, opt)
}

// ParseStreamWith is ParseStream under the checks c.
func ParseStreamWith(c rules.Checks, in []byte, opt Options) ([]*Record, error) {
	p, err := newParser(c, in, opt)
	if err != nil {
		return nil, err
	}
	if len(in) == 0 && !c.Enforced(RuleStreamEmpty) {
		return nil, FaultError("empty stream") // fault: an empty stream refused
	}
	var recs []*Record
	for pos := 0; pos < len(in); {
		if len(recs) > 0 && !bytes.HasPrefix(in[pos:], []byte(glyphPrefix)) {
			switch {
			case !c.Enforced(RuleStreamGarbage):
				return recs, nil // fault: the stream taken to end at bytes that begin no record
			case c.Mutated(MutStreamResync):
				// Mutant: bytes up to the next record glyph skipped.
				i := bytes.Index(in[pos:], []byte(glyphPrefix))
				if i < 0 {
					return recs, nil
				}
				pos += i
			}
		}
		r, err := p.record(pos, len(recs) > 0)
		if err != nil {
			if rules.RuleOf(err) == RuleStreamTruncated && !c.Enforced(RuleStreamTruncated) {
				// Fault: a careless reader drops the unfinished record.
				return recs, nil
			}
			return nil, err
		}
		recs = append(recs, r)
		// Each record's structure and Data-Length delimit it; the next record
		// starts at the following byte (LACE-STREAM-01).
		pos = r.Offset + r.Size
		if pos < len(in) && in[pos] == '\n' && !c.Enforced(RuleStreamConcat) {
			pos++ // fault: records taken to be separated by LF
		}
	}
	return recs, nil
}

// EncodeStream returns the canonical bytes of records as one stream (as
// Encode makes them, TRANSITIONAL likewise).
func EncodeStream(recs []*Record) []byte {
	var out []byte
	for _, r := range recs {
		out = append(out, Encode(r)...)
	}
	return out
}
