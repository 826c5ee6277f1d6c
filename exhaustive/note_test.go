package exhaustive

import (
	"os"
	"strings"
	"testing"
)

// The figures of NOTE.md's explorer section are computed here: a test
// fails when the note and the code disagree.

const noteHeading = "## Exhaustive explorer (reference universe)"

// noteSection is NOTE.md's explorer section.
func noteSection(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("../NOTE.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(data), noteHeading)
	if !ok {
		t.Fatalf("NOTE.md has no section %q", noteHeading)
	}
	if i := strings.Index(sec, "\n## "); i >= 0 {
		sec = sec[:i]
	}
	return sec
}

// noteHasRow requires a table row, whole, on a line of its own.
func noteHasRow(t *testing.T, note, row string) {
	t.Helper()
	for _, line := range strings.Split(note, "\n") {
		if strings.TrimSpace(line) == row {
			return
		}
	}
	t.Errorf("NOTE.md's explorer section lacks the row the code computes:\n%s", row)
}

// noteHas requires a phrase (line breaks in the note count as spaces).
func noteHas(t *testing.T, note, phrase string) {
	t.Helper()
	if !strings.Contains(strings.Join(strings.Fields(note), " "), phrase) {
		t.Errorf("NOTE.md's explorer section lacks %q", phrase)
	}
}
