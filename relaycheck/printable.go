package relaycheck

import textsafe "github.com/nip-rs/harness/internal/printable"

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
// bounded by what the probe keeps. The escaping itself is package
// printable's, shared with the commands that print file contents.
func escape(s string, max int) string { return textsafe.Escape(s, max) }
