package harness

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// escapeText makes s safe to print on a terminal as one piece of a line
// (issue 30, item 5): every C0 control (line breaks and tabs included),
// DEL, every C1 control, the Unicode line and paragraph separators, the
// bidirectional formatting characters and every byte that is not UTF-8 is
// written as an escape (\x1b, \u0085, \u202e, \xff), so that no testee
// text can move the cursor, clear the screen, set a window title, start
// a line of its own or reorder what follows it. A backslash stays as it
// is: an escape in the report stands for the character, and a testee
// that writes one writes text.
func escapeText(s string) string { return escape(s, false) }

// escaped is text escapeText (or escapeDiff) has escaped already.
type escaped string

// escapeDiff is escapeText, tabs kept: go-cmp indents a difference with
// tabs, and quotes (escapes) every string it shows, the testee's among
// them. A tab cannot leave its line; it only moves the cursor on.
func escapeDiff(s string) escaped { return escaped(escape(s, true)) }

func escape(s string, tabs bool) string {
	i := 0
	for i < len(s) {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if !mustEscape(r, size) || tabs && r == '\t' {
			i += size
			continue
		}
		break
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case !mustEscape(r, size) || tabs && r == '\t':
			b.WriteString(s[i : i+size])
		case r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
		i += size
	}
	return b.String()
}

func mustEscape(r rune, size int) bool {
	switch {
	case r == utf8.RuneError && size == 1: // not UTF-8
		return true
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f: // C0, DEL, C1
		return true
	case r == 0x2028 || r == 0x2029: // line and paragraph separators
		return true
	case r == 0x061c || r == 0x200e || r == 0x200f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069: // bidirectional formatting
		return true
	}
	return false
}

// EscapeText is escapeText for the commands: a line holding testee text
// (a claim's, a re-run's) made safe to print on a terminal.
func EscapeText(s string) string { return escapeText(s) }
