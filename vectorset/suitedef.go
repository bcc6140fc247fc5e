package vectorset

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// SuiteDef is what a harness is told of one suite beyond its vector files,
// the way vecgen.Generator tells the generator: its name and, for a suite
// whose spec publishes an identity of its vector set beyond the suite set
// hash, the hook that verifies it. Each spec's wing declares it
// (spec.Spec.SuiteDef); the commands are handed the specs.
type SuiteDef struct {
	Name string
	// Verify, when set, verifies the suite's published identity: dir is
	// the suite's manifest directory (manifest/<suite>), tree every file of
	// the suite tree by suite-tree path (positive/x, negative/x,
	// registry/x, index.json), already checked against suite-manifest.bin.
	// It returns what it verified, for the reports.
	Verify func(dir string, tree map[string][]byte) (Authority, error)
}

// Authority is a suite's published identity as its Verify hook verified
// it: the hashes its publisher states, in the order the reports list them
// (HiveRelay BCC v1, section 5: the format hash and the vector set hash).
// Its JSON is one object: each hash's member, then its length's member.
type Authority []PublishedHash

// PublishedHash is one hash of an Authority and the length of the
// artifact it covers.
type PublishedHash struct {
	Name       string // the JSON member and report label: clientCompositionFormatHash
	Hex        string // the hash, lower-case hex
	LengthName string // the JSON member of the length: formatArtifactLength
	Length     uint64 // the covered artifact's length in bytes
}

// MarshalJSON writes {"<Name>":"<Hex>","<LengthName>":<Length>,...}.
func (a Authority) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, h := range a {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, h.Name)
		b = append(b, ':')
		b = strconv.AppendQuote(b, h.Hex)
		b = append(b, ',')
		b = strconv.AppendQuote(b, h.LengthName)
		b = append(b, ':')
		b = strconv.AppendUint(b, h.Length, 10)
	}
	return append(b, '}'), nil
}

// UnmarshalJSON reads what MarshalJSON writes: a string member starts a
// hash, the number member after it is that hash's length.
func (a *Authority) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return fmt.Errorf("vectorset: authority is not a JSON object")
	}
	var out Authority
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return err
		}
		v, err := dec.Token()
		if err != nil {
			return err
		}
		switch v := v.(type) {
		case string:
			out = append(out, PublishedHash{Name: k.(string), Hex: v})
		case json.Number:
			n, err := strconv.ParseUint(v.String(), 10, 64)
			if err != nil || len(out) == 0 || out[len(out)-1].LengthName != "" {
				return fmt.Errorf("vectorset: authority member %q is not the length of the hash before it", k)
			}
			out[len(out)-1].LengthName, out[len(out)-1].Length = k.(string), n
		default:
			return fmt.Errorf("vectorset: authority member %q is neither a hash nor a length", k)
		}
	}
	*a = out
	return nil
}
