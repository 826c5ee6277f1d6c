// Package printable escapes text that came from outside the harness (a
// relay's answers, a witness or shard file) before it is printed, so that
// no file or relay can write terminal control sequences, invisible or
// bidirectional formatting, or invalid UTF-8 to a reader's terminal.
package printable

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Escape makes s safe to print: control characters, invisible and
// bidirectional formatting characters and invalid UTF-8 are escaped
// (\n, \x1b, \u202e, \xff), a backslash is doubled so the escaping is
// unambiguous, and at most max runes of s are kept (0: all), with "…"
// when more were cut.
func Escape(s string, max int) string {
	var b strings.Builder
	for n := 0; len(s) > 0; n++ {
		if max > 0 && n == max {
			b.WriteString("…")
			break
		}
		r, size := utf8.DecodeRuneInString(s)
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[0])
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case unicode.IsPrint(r):
			b.WriteRune(r)
		case r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r <= 0xffff:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
		s = s[size:]
	}
	return b.String()
}
