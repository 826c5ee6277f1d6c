package spec

import (
	"fmt"
	"io"
	"strings"
)

// Counts tallies requirements by status and by keyword.
type Counts struct {
	ByStatus  map[string]int
	Mandatory int // rows of MUST and MUST NOT sentences
	Total     int
}

// Count tallies the requirements under cat.
func Count(reqs []Requirement, cat *Catalogue) Counts {
	c := Counts{ByStatus: map[string]int{}}
	for _, r := range reqs {
		c.ByStatus[cat.Status(r)]++
		c.Total++
		if strings.HasPrefix(r.Keyword, "MUST") {
			c.Mandatory++
		}
	}
	return c
}

// WriteTable writes the traceability table: one block per status in
// Statuses order, each row with its id, keyword, section, paraphrase and
// checks (or the note), then the counts.
func WriteTable(w io.Writer, reqs []Requirement, cat *Catalogue) {
	for _, st := range Statuses {
		var rows []Requirement
		for _, r := range reqs {
			if cat.Status(r) == st {
				rows = append(rows, r)
			}
		}
		fmt.Fprintf(w, "%s (%d):\n", st, len(rows))
		for _, r := range rows {
			fmt.Fprintf(w, "  %s %-8s %s: %s\n", r.ID, r.Keyword, r.Section, r.Paraphrase)
			switch st {
			case StatusCaught:
				fmt.Fprintf(w, "       checks %s; mutants %s\n", strings.Join(r.Checks, " "), strings.Join(r.Mutants, " "))
			case StatusTested:
				fmt.Fprintf(w, "       checks %s; no mutant: %s\n", strings.Join(r.Checks, " "), r.Note)
			default:
				fmt.Fprintf(w, "       %s\n", r.Note)
			}
		}
	}
	WriteCounts(w, Count(reqs, cat))
}

// WriteCounts writes the summary lines of a table.
func WriteCounts(w io.Writer, c Counts) {
	fmt.Fprintf(w, "requirements: %d (%d MUST or MUST NOT)\n", c.Total, c.Mandatory)
	for _, st := range Statuses {
		fmt.Fprintf(w, "  %-52s %3d\n", st, c.ByStatus[st])
	}
}
