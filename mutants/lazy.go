package mutants

import (
	"cmp"
	"slices"
	"strings"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/search"
)

// walk is the suite in run order, cheapest first: at(i) is its i-th check.
type walk interface {
	at(i int) (Check, bool)
}

// fullSuite is a suite whose order the whole control established.
type fullSuite []Check

func (s fullSuite) at(i int) (Check, bool) {
	if i >= len(s) {
		return Check{}, false
	}
	return s[i], true
}

// lazySuite finds the full run's order without running the whole
// control. The work of a cube (its points under the baseline) and of a
// load search (fixed) is known without running them, that of a simulation
// or of a pair universe's liveness by running its (small) control; a
// universe's work is the distinct states its control exploration stores,
// so the next check is decided by exploring each universe not yet placed
// only up to the work of the cheapest known check: if it completes within
// that bound it comes first (and its control is done), otherwise the
// known check does. The paged history walk's two checks are placed the
// same way (within): their control explores every gate variant of the
// walk, the largest of the controls a quick run would otherwise pay.
type lazySuite struct {
	r       *runner
	known   []Check // work known, not yet placed, in order
	pending []Check // universes whose work exceeds every bound tried so far
	done    []Check // placed, in run order
	// over is, per pending universe, the largest bound its work is known
	// to exceed: a probe with a bound no larger is not run again.
	over map[string]int64
}

func compareChecks(a, b Check) int {
	return cmp.Or(cmp.Compare(a.Work, b.Work), strings.Compare(a.Kind, b.Kind), strings.Compare(a.Name, b.Name))
}

func (r *runner) newLazySuite() *lazySuite {
	s := &lazySuite{r: r, over: map[string]int64{}}
	first := r.opts.Baseline(r.opts.Ties[0]).Model
	for _, c := range SuiteChecks(r.opts.Catalog) {
		switch c.Kind {
		case KindExplore, KindHistory, KindWalkLiveness:
			s.pending = append(s.pending, c)
			continue
		case KindDirected:
			c.Work = int64(len(c.Directed.Cube(first)))
		case KindLoad:
			c.Work = int64(r.opts.LoadCases) * loadStepsPerCase
		case KindSimulate, KindCommunity, KindCommunityLiveness, KindLiveness:
			// Bounded walks, the community's small universes and the
			// liveness checks' pair universes: cheap enough to run their
			// control for their work.
			c.Work = r.controlFinding(c, r.opts.Ties[0]).Work
		}
		s.known = append(s.known, c)
	}
	slices.SortStableFunc(s.known, compareChecks)
	return s
}

func (s *lazySuite) at(i int) (Check, bool) {
	for len(s.done) <= i {
		if len(s.known) == 0 && len(s.pending) == 0 {
			return Check{}, false
		}
		s.place()
	}
	return s.done[i], true
}

// place moves the next check of the order to done.
func (s *lazySuite) place() {
	bound := int64(0) // 0: no known check left, explore in full
	if len(s.known) > 0 {
		bound = s.known[0].Work
	}
	var still []Check
	for _, c := range s.pending {
		if w, ok := s.probe(c, bound); ok {
			c.Work = w
			s.known = append(s.known, c)
		} else {
			still = append(still, c)
		}
	}
	s.pending = still
	slices.SortStableFunc(s.known, compareChecks)
	s.done = append(s.done, s.known[0])
	s.known = s.known[1:]
}

// probe explores universe check c under the baseline and the run's first
// tie with at most bound distinct states; when it completes, its work is
// known and the control's finding is kept. A check whose control an
// earlier run in the process made (sharedControl) is not explored: a
// bounded run stops as unknown exactly when the whole run stores more
// than bound states.
func (s *lazySuite) probe(c Check, bound int64) (int64, bool) {
	r := s.r
	tie := r.opts.Ties[0]
	if f, ok := r.sharedFinding(c, tie); ok && f.Invariant != "setup" {
		if bound > 0 && f.Work > bound {
			return 0, false
		}
		return r.controlFinding(c, tie).Work, true
	}
	if bound > 0 {
		if over, ok := s.over[c.Name]; ok && bound <= over {
			return 0, false
		}
		if !s.within(c, bound) {
			s.over[c.Name] = bound
			return 0, false
		}
	}
	return r.controlFinding(c, tie).Work, true
}

// within reports whether check c's work may be at most bound, false when
// a bounded exploration shows it exceeds it. A universe's work is the
// distinct states its exploration stores. The walk check's is the
// distinct states of the control's universes (historyUniverses) summed,
// so exploring them in turn with what is left of bound decides it
// exactly; the walk-liveness check's is the nodes of its graphs, which
// hold every state of those same explorations as a root, so exceeding
// bound there exceeds it too. A setup failure is placed at once: running
// the check reports it.
func (s *lazySuite) within(c Check, bound int64) bool {
	r := s.r
	tie := r.opts.Ties[0]
	if c.Kind == KindHistory || c.Kind == KindWalkLiveness {
		rules := r.opts.Baseline(tie).History
		left := bound
		for _, u := range historyUniverses(rules, nil) {
			if left <= 0 { // every universe stores its initial state
				return false
			}
			out, err := history.ExploreWith(u.U, rules, history.ReportGate, history.Options{Workers: r.opts.Workers, MaxStates: int(left)})
			if err != nil {
				return true
			}
			if out.Status == search.StatusUnknown {
				return false
			}
			left -= int64(out.Distinct)
		}
		return true
	}
	u, err := r.opts.Catalog.Universe(c.Universe)
	if err != nil {
		return true
	}
	res, err := exhaustive.Explore(exhaustive.Config{Universe: u, Rules: r.opts.Baseline(tie).Model, Workers: r.opts.Workers, MaxStates: int(bound)})
	return err == nil && res.Status != exhaustive.StatusUnknown
}
