// Package jsonscan holds the byte-level steps that the protocol's scanner
// (testee) and the judge's in-place tree reader (vectorset) both take over
// JSON text: where a string literal ends, and past white space.
package jsonscan

import "bytes"

// StringClose returns the index of the quote that ends the string literal
// starting at b[i] == '"', or -1 when it does not end: the first quote
// that an even number of backslashes precede (a backslash escapes the byte
// after it), whatever the bytes. Quotes are found with bytes.IndexByte: a
// 44.7 MiB base64 record is passed over at memory speed, not a byte at a
// time.
func StringClose(b []byte, i int) int {
	for j := i + 1; ; {
		q := bytes.IndexByte(b[j:], '"')
		if q < 0 {
			return -1
		}
		q += j
		k := q
		for k-1 > i && b[k-1] == '\\' {
			k--
		}
		if (q-k)%2 == 0 {
			return q
		}
		j = q + 1
	}
}

// SkipSpace returns the index of the first byte from b[i] on that is not
// JSON white space (space, tab, LF, CR), or len(b).
func SkipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}
