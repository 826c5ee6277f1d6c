package mutants

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/nip-rs/harness/internal/num"
)

// SuiteLine says what the run's suite was: every check, cheapest first,
// with the work of each kind; or, when the control ran lazily (-only),
// the checks the selected mutants reached out of the whole suite.
func (rep *Report) SuiteLine() string {
	if rep.Lazy {
		total := 0
		if rep.Options.Catalog != nil {
			total = len(SuiteChecks(rep.Options.Catalog))
		}
		return fmt.Sprintf("suite: the %d cheapest of %d checks, the ones the selected mutants reached (the full run's order; the control ran on those only)",
			len(rep.Suite), total)
	}
	states, points := rep.Work()
	universes := 0
	for _, c := range rep.Suite {
		if c.Kind == KindExplore {
			universes++
		}
	}
	return fmt.Sprintf("suite: %d checks (%s states over %d universes, %s cube points, 2 load searches), cheapest first",
		len(rep.Suite), num.Commas(states), universes, num.Commas(points))
}

// WriteTable writes one row per mutant and tie: what caught it (or its
// status), the invariant, the witness's depth, the work of the catching
// check, the checks run and times[i], the row's time.
func (rep *Report) WriteTable(w io.Writer, times []time.Duration) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "id\ttie\trule\tcaught by\tinvariant\tdepth\tstates/points\tchecks\ttime")
	for i, r := range rep.Results {
		by, inv, depth, work := cell(r.First, r.ShownStatus())
		var d time.Duration
		if i < len(times) {
			d = times[i]
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\n", r.Mutant.ID, r.Tie, r.Mutant.Rule, by, inv, depth, work, r.Ran, MS(d))
	}
	tw.Flush()
}

func cell(f *Finding, status string) (by, inv, depth, work string) {
	if f == nil {
		return status, "—", "—", "—"
	}
	work = "—"
	if f.Work > 0 {
		work = num.Commas(f.Work)
	}
	return f.Check, f.Invariant, DepthString(f), work
}

// MS is a duration in whole milliseconds, as the gate's tables print it.
func MS(d time.Duration) string { return fmt.Sprintf("%.0fms", float64(d.Microseconds())/1000) }
