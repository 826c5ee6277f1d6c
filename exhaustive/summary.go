package exhaustive

import (
	"fmt"
	"strings"

	"github.com/nip-rs/harness/internal/num"
)

// PerDepthString renders per-depth counts as "1 / 16 / 144".
func PerDepthString(per []int) string {
	var parts []string
	for _, n := range per {
		parts = append(parts, num.Commas(n))
	}
	return strings.Join(parts, " / ")
}

// TableRow is the run's row of the state-space table (depth, tie policy,
// states per depth, distinct states and the tallies), as the reports and
// the pinned figures write it.
func (r *Result) TableRow() string {
	c := num.Commas[int]
	return fmt.Sprintf("| %d | %s | %s | %s | %s | %s | %s |", r.Depth, r.Tie, PerDepthString(r.PerDepth), c(r.Distinct),
		c(r.Checked), c(int(r.Transitions)), c(int(r.Registers)))
}
