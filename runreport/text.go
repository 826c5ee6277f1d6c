package runreport

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/internal/num"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/witnessfile"
)

// Cell is one invariant's count in a table: checked points, or the
// violations among them, or "not checked" when nothing was.
func Cell(points, violations int) string {
	if points == 0 && violations == 0 {
		return "not checked"
	}
	if violations > 0 {
		return fmt.Sprintf("FAIL %s/%s", num.Commas(violations), num.Commas(points))
	}
	return "PASS " + num.Commas(points)
}

// MS is a duration in whole milliseconds, as the tables print it.
func MS(d time.Duration) string {
	return fmt.Sprintf("%.0fms", float64(d.Microseconds())/1000)
}

// WriteText writes the run's report after its first line: each tie's
// search, the invariant and directed rows, the witnesses' text (render
// gives a witness's text; a witness it cannot render is passed to
// failed and left out), the files written, the verdict over the suite of
// cat and the result line.
func (r *Run) WriteText(w io.Writer, cat *exhaustive.Catalog, render func(*witnessfile.Witness) (string, error), failed func(error)) {
	if len(r.Explore) > 0 {
		fmt.Fprintf(w, "\nuniverse %s: %s\n", r.Universe, r.Doc)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "tie\tnew states per depth\tdistinct\tchecked\ttransitions\tdevice states\tresult\ttime")
		for _, e := range r.Explore {
			res := e.Status.String()
			if e.BoundHit != "" {
				res += " (" + e.BoundHit + ")"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", e.Tie, exhaustive.PerDepthString(e.PerDepth), num.Commas(e.Distinct),
				num.Commas(e.Checked), num.Commas(e.Transitions), num.Commas(e.DeviceStates), res, MS(e.Elapsed))
		}
		tw.Flush()
		for _, e := range r.Explore {
			for _, l := range e.CoverageLines() {
				fmt.Fprintf(w, "  %s-wins %s\n", e.Tie, l)
			}
		}
	}
	fmt.Fprintln(w)
	r.writeRows(w)
	for _, wi := range r.Witnesses {
		text, err := render(wi)
		if err != nil {
			failed(err)
			continue
		}
		fmt.Fprintf(w, "\n%s", text)
	}
	for _, f := range r.Files {
		fmt.Fprintf(w, "witness written to %s\n", f)
	}
	r.WriteVerdict(w, cat)
	fmt.Fprintf(w, "\nresult: %s\n", r.resultLine())
}

// writeRows writes the invariant rows, one column per tie, then the
// directed checks (one cell for a check no tie policy changes).
func (r *Run) writeRows(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := "ID\tinvariant"
	var tl []model.TiePolicy
	for _, e := range r.Explore {
		head += "\t" + e.Tie.String() + "-wins"
		tl = append(tl, e.Tie)
	}
	fmt.Fprintln(tw, head+"\ttime")
	for _, row := range r.sortedInvariants() {
		line := row.Label + "\t" + row.Doc
		for _, e := range r.Explore {
			if c, ok := e.Invariant(row.Name); ok {
				if c.Checked == 0 && c.Violations == 0 {
					line += "\tnot checked"
					continue
				}
				line += "\t" + Cell(int(c.Checked), int(c.Violations)) + " " + c.Unit
			}
		}
		fmt.Fprintln(tw, line+"\t(search)")
	}
	for _, s := range r.Directed {
		line := s.Label + "\t" + s.Name + " [" + s.Key + "]"
		for i, t := range tl {
			switch {
			case !s.TieIndependent:
				line += "\t" + Cell(s.Points[t], s.Violations[t])
			case i == 0:
				line += "\t" + Cell(s.Points[model.ClearWins], s.Violations[model.ClearWins]) + " (either tie)"
			default:
				line += "\t"
			}
		}
		fmt.Fprintln(tw, line+"\t"+MS(s.Elapsed))
	}
	tw.Flush()
	for _, s := range r.Directed {
		if t := s.TallyString(); t != "" {
			fmt.Fprintf(w, "  %s: %s\n", s.Key, t)
		}
	}
}

// resultLine is the last line: what failed, or why nothing was decided.
func (r *Run) resultLine() string {
	var failed []string
	for _, e := range r.Explore {
		for _, c := range e.Invariants {
			if c.Violations > 0 {
				failed = append(failed, fmt.Sprintf("%s (%s)", c.Name, e.Tie))
			}
		}
	}
	for _, s := range r.Directed {
		for _, t := range []model.TiePolicy{model.ClearWins, model.SetWins} {
			if s.Violations[t] > 0 {
				failed = append(failed, fmt.Sprintf("%s (%s)", s.Key, t))
			}
		}
	}
	switch {
	case r.Status == "violation" && r.Judged():
		// The verdict above judges them: a spec-text difference alone is
		// not a failure of an amendment or of a reading of the text.
		return "checks that failed: " + strings.Join(failed, ", ") + "; the run exits by its verdict (above)"
	case r.Status == "violation":
		return "violation: " + strings.Join(failed, ", ")
	case r.Status == "unknown":
		return "unknown: a resource bound was hit before the depth bound"
	}
	return "ok, no violation"
}
