package relaycheck

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxPrintable bounds the runes Printable keeps.
const maxPrintable = 200

// Printable makes relay-supplied text (CLOSED and OK reasons, NOTICEs, an
// event's claimed id) safe to print: control characters, invisible and
// bidirectional formatting characters and invalid UTF-8 are escaped
// (\n, \x1b, \u202e, \xff), a backslash is doubled so the escaping is
// unambiguous, and the result keeps at most 200 runes of s, with "…"
// when more were cut.
func Printable(s string) string { return escape(s, maxPrintable) }

// escape is Printable with a bound of max runes (0: none), for the
// report's own lines, which quote whole REQs and events and are already
// bounded by what the probe keeps.
func escape(s string, max int) string {
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
