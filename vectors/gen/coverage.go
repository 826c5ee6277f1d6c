package gen

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/nip-rs/harness/spec"
)

// VectorSections reads a vector's section field as the spec section names
// it cites: parts separated by ";", each without a parenthesised
// qualifier or what follows a comma ("Full-State Load, step 4" cites
// Full-State Load).
func VectorSections(section string) []string {
	var out []string
	for _, part := range strings.Split(section, ";") {
		if strings.HasPrefix(strings.TrimSpace(part), historyDoc) {
			// Another document: one entry, whatever it cites in it.
			part = historyDoc
		}
		if i := strings.IndexAny(part, "(,"); i >= 0 {
			part = part[:i]
		}
		if part = strings.TrimSpace(part); part != "" && !slices.Contains(out, part) {
			out = append(out, part)
		}
	}
	return out
}

// RowCoverage is one requirement row and the vectors that cite its
// section, counted by kind.
type RowCoverage struct {
	Req    spec.Requirement
	ByKind map[string]int
}

// Total is the number of vectors citing the row's section.
func (r RowCoverage) Total() int {
	n := 0
	for _, c := range r.ByKind {
		n += c
	}
	return n
}

// historyDoc is how vectors of the history walk cite their document.
const historyDoc = "community-history-sync"

// CoverageReport maps the requirements table to the vectors.
type CoverageReport struct {
	Rows []RowCoverage
	// Unmatched are the sections vectors cite that no requirement row
	// has, with how many vectors cite each: sections without a
	// normative sentence of NIP-RS (Liveness Predicate), or another
	// document's (community-history-sync).
	Unmatched map[string]int
}

// Coverage maps every requirement row of reqs to the vectors of files
// whose section cites the row's section.
func Coverage(files []File, reqs []spec.Requirement) CoverageReport {
	bySection := map[string]map[string]int{}
	unmatched := map[string]int{}
	known := map[string]bool{}
	for _, r := range reqs {
		known[r.Section] = true
	}
	for _, f := range files {
		for _, v := range f.Vectors {
			for _, s := range VectorSections(v.Section) {
				if !known[s] {
					unmatched[s]++
					continue
				}
				if bySection[s] == nil {
					bySection[s] = map[string]int{}
				}
				bySection[s][f.Kind]++
			}
		}
	}
	rep := CoverageReport{Unmatched: unmatched}
	for _, r := range reqs {
		rep.Rows = append(rep.Rows, RowCoverage{Req: r, ByKind: bySection[r.Section]})
	}
	return rep
}

// Covered counts the rows with at least one vector.
func (c CoverageReport) Covered() int {
	n := 0
	for _, r := range c.Rows {
		if r.Total() > 0 {
			n++
		}
	}
	return n
}

func kindCounts(m map[string]int, order []string) string {
	var parts []string
	for _, k := range order {
		if m[k] > 0 {
			parts = append(parts, fmt.Sprintf("%s:%d", k, m[k]))
		}
	}
	return strings.Join(parts, " ")
}

// Print writes one line per requirement row (its id, kind, section and
// the vectors citing it by kind, or "-"), the count of rows with vectors,
// then the cited sections no row has. Kinds print in file order.
func (c CoverageReport) Print(w io.Writer) {
	var order []string
	for _, k := range Kinds() {
		order = append(order, k.Name)
	}
	for _, r := range c.Rows {
		got := kindCounts(r.ByKind, order)
		if got == "" {
			got = "-"
		}
		fmt.Fprintf(w, "%s  %-8s %-36s %s\n", r.Req.ID, r.Req.Kind, r.Req.Section, got)
	}
	fmt.Fprintf(w, "%d of %d requirement rows have vectors\n", c.Covered(), len(c.Rows))
	var names []string
	for s := range c.Unmatched {
		names = append(names, s)
	}
	slices.Sort(names)
	for _, s := range names {
		fmt.Fprintf(w, "cited, no requirement row: %s (%d vectors)\n", s, c.Unmatched[s])
	}
}
