package figures

import (
	"strings"

	"github.com/nip-rs/harness/internal/num"
)

// Table is one computed table: a heading, a Markdown table, and the lines
// that bridge it to the formal note's figures.
type Table struct {
	Title string // the level-3 heading, without "### "
	Intro string // one paragraph before the table
	Head  []string
	Rows  [][]string
	Notes []string // bullet lines after the table
}

// Markdown renders the table as the pinned document carries it.
func (t Table) Markdown() string {
	var b strings.Builder
	b.WriteString("### " + t.Title + "\n\n")
	if t.Intro != "" {
		b.WriteString(t.Intro + "\n\n")
	}
	row := func(cells []string) { b.WriteString("| " + strings.Join(cells, " | ") + " |\n") }
	row(t.Head)
	sep := make([]string, len(t.Head))
	for i := range sep {
		sep[i] = "---"
	}
	row(sep)
	for _, r := range t.Rows {
		row(r)
	}
	if len(t.Notes) > 0 {
		b.WriteString("\n")
		for _, n := range t.Notes {
			b.WriteString("- " + n + "\n")
		}
	}
	return b.String()
}

// Heading is the title of the document the tables are rendered into.
const Heading = "## The formal note's figures, computed"

// All lists every table, in the note's order.
func All() []Table {
	return []Table{ContextBytes(), CandidateA(), Headroom(), KeyLimit(), Trim(), Ceilings(), Tombstones()}
}

// Section renders the whole document.
func Section() string {
	var b strings.Builder
	b.WriteString(Heading + "\n\n")
	b.WriteString("Every figure of the formal note on the override layer, computed by\n" +
		"`figures/` with the production core (`model.EncodedSize`, `model.SplitBlob`\n" +
		"under `model.DefaultBudget`, `model.LegacyTrim`, the codec's limits) and\n" +
		"pinned by `go test ./figures/`, which fails when this document and the code\n" +
		"disagree. Sizes are bytes of encoded plaintext; \"alone\" is the entries of\n" +
		"one context as a JSON fragment, the note's measure; \"in a blob\" adds the\n" +
		"comma each entry costs beside others, what the budget pays.\n")
	for _, t := range All() {
		b.WriteString("\n" + t.Markdown())
	}
	return b.String()
}

// n formats a count the way the note writes figures.
func n(v int) string { return num.Commas(v) }
