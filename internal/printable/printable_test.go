package printable

import (
	"fmt"
	"strings"
	"testing"
)

// TestEscape: what a terminal would act on, or could not show, is
// escaped; a backslash is doubled so an escape in the text reads apart
// from one made here; max cuts the runes kept.
func TestEscape(t *testing.T) {
	for in, want := range map[string]string{
		"plain text, é":    "plain text, é",
		"a\x1b[31mred":     `a\x1b[31mred`,
		"two\nlines\r\t":   `two\nlines\r\t`,
		`back\slash`:       `back\\slash`,
		"bidi\u202eswap":   `bidi\u202eswap`,
		"bad \xff utf-8":   `bad \xff utf-8`,
		"invisible\u200b!": `invisible\u200b!`,
	} {
		if got := Escape(in, 0); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Escape("abcdef", 3); got != "abc…" {
		t.Errorf("Escape with max 3 = %q", got)
	}
}

// TestLines: through Lines every line keeps its ending newline and
// nothing else unprintable survives, however the writes split the lines.
func TestLines(t *testing.T) {
	var b strings.Builder
	w := Lines(&b)
	fmt.Fprintf(w, "first %s\n", "a\x1b]0;title\x07")
	fmt.Fprint(w, "half ")
	fmt.Fprint(w, "a line\nand\r\n")
	n, err := w.Write([]byte("last\n"))
	if err != nil || n != len("last\n") {
		t.Fatalf("Write: %d, %v", n, err)
	}
	want := "first a\\x1b]0;title\\x07\nhalf a line\nand\\r\nlast\n"
	if b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}
