package directed

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/nip-rs/harness/internal/num"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/witnessfile"
)

// CheckSummary is one directed check over every tie policy it ran under.
type CheckSummary struct {
	Key, Label, Name string
	TieIndependent   bool
	// Class is what the check asserts (Check.Class).
	Class string
	// Points and Violations per tie policy (a tie-independent check is
	// recorded under clear-wins).
	Points     map[model.TiePolicy]int
	Violations map[model.TiePolicy]int
	Total      int
	Tallies    map[string]int
	Elapsed    time.Duration
	// Witnesses holds the first failing point per tie policy.
	Witnesses []*witnessfile.Witness
}

// Summarize folds per-tie results into one summary per check, in suite
// order.
func Summarize(rs []Result) []*CheckSummary {
	var out []*CheckSummary
	byKey := map[string]*CheckSummary{}
	for _, r := range rs {
		s, ok := byKey[r.Check.Key]
		if !ok {
			s = &CheckSummary{Key: r.Check.Key, Label: r.Check.Label, Name: r.Check.Name, TieIndependent: r.Check.TieIndependent, Class: r.Check.Class(),
				Points: map[model.TiePolicy]int{}, Violations: map[model.TiePolicy]int{}, Tallies: map[string]int{}}
			byKey[r.Check.Key] = s
			out = append(out, s)
		}
		s.Points[r.Tie] += r.Points
		s.Violations[r.Tie] += r.Violations
		s.Total += r.Points
		for k, v := range r.Tallies {
			s.Tallies[k] += v
		}
		s.Elapsed += r.Elapsed
		if r.Witness != nil {
			s.Witnesses = append(s.Witnesses, r.Witness)
		}
	}
	return out
}

// TallyString lists the tallies as "name N" in name order.
func (s *CheckSummary) TallyString() string {
	names := make([]string, 0, len(s.Tallies))
	for k := range s.Tallies {
		names = append(names, k)
	}
	slices.Sort(names)
	var parts []string
	for _, n := range names {
		parts = append(parts, n+" "+num.Commas(s.Tallies[n]))
	}
	return strings.Join(parts, "; ")
}

// TableRow is the check's row of the directed-check table, as the reports
// and the pinned figures write it.
func (s *CheckSummary) TableRow() string {
	t := s.TallyString()
	if t == "" {
		t = "—"
	}
	return fmt.Sprintf("| %s | `%s` | %s | %s | %s |", s.Label, s.Key, s.Name, num.Commas(s.Total), t)
}
