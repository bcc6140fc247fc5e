package spec

import (
	"encoding/base64"
	"encoding/json"
	"maps"
	"slices"
)

// The JSON encoding of a handler's result (docs/PROTOCOL.md, "Persistent
// mode": the result object). MarshalResult writes what json.Marshal writes,
// byte for byte, but writes by hand the values on which encoding/json is
// slow: a result member holding bytes ([]byte, which json.Marshal writes
// as a standard base64 string) is base64-encoded straight into the output,
// where a string would be copied and then escaped byte by byte (the 44.7
// MiB record lace.construct answers for a 32 MiB payload). Any other value
// is json.Marshal's own output.

// MarshalResult returns json.Marshal(v) for a handler's result v: a
// map[string]any whose members are strings, []byte, nested maps of the
// same kind, or any other value json.Marshal encodes.
func MarshalResult(v any) ([]byte, error) {
	return appendJSON(make([]byte, 0, sizeHint(v)), v)
}

// appendJSON appends json.Marshal(v) to dst.
func appendJSON(dst []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case map[string]any:
		if v == nil {
			return append(dst, "null"...), nil
		}
		dst = append(dst, '{')
		// json.Marshal sorts a map's keys (byte-wise).
		for i, k := range slices.Sorted(maps.Keys(v)) {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendString(dst, k)
			dst = append(dst, ':')
			var err error
			if dst, err = appendJSON(dst, v[k]); err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
	case string:
		return appendString(dst, v), nil
	case []byte:
		if v == nil {
			return append(dst, "null"...), nil
		}
		// The base64 alphabet and its padding need no escaping.
		dst = append(dst, '"')
		dst = base64.StdEncoding.AppendEncode(dst, v)
		return append(dst, '"'), nil
	}
	b, err := json.Marshal(v)
	return append(dst, b...), err
}

// appendString appends s as json.Marshal writes it: printable ASCII other
// than the quote, the backslash and the three characters it escapes for
// HTML (<, >, &) as it is; anything else through json.Marshal.
func appendString(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			b, _ := json.Marshal(s) // a string always marshals
			return append(dst, b...)
		}
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}

// sizeHint is about the length of v's encoding, at least that of its long
// members, so that the output of a large result is allocated once.
func sizeHint(v any) int {
	switch v := v.(type) {
	case map[string]any:
		n := 2
		for k, m := range v {
			n += len(k) + 4 + sizeHint(m)
		}
		return n
	case string:
		return len(v) + 2
	case []byte:
		return base64.StdEncoding.EncodedLen(len(v)) + 2
	}
	return 16
}

// BytesMember is b as a result member: json.Marshal writes it as b's
// standard base64 string, "" for no bytes (never null, as a nil []byte
// would be).
func BytesMember(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}
