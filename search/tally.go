package search

// Tally accumulates what one worker's checks examined and found: the count
// per unit, per-invariant violations, named coverage counters and the
// smallest hit, overall and per invariant. Workers own their tallies; the engine merges them in piece
// order.
type Tally struct {
	units      [MaxUnits]int64
	violations []int64
	counters   map[string]int64
	best       *Hit
	// bestOf[i] is the smallest hit of invariant i: the same order as
	// best, so it does not depend on how the pieces were split.
	bestOf []*Hit
}

// NewTally returns an empty tally for a table of n invariants.
func NewTally(n int) *Tally {
	return &Tally{violations: make([]int64, n), counters: map[string]int64{}, bestOf: make([]*Hit, n)}
}

// Add counts n examined units of kind u.
func (t *Tally) Add(u Unit, n int64) { t.units[u] += n }

// Count adds n to a named coverage counter.
func (t *Tally) Count(name string, n int64) { t.counters[name] += n }

// Units is the count of unit u.
func (t *Tally) Units(u Unit) int64 { return t.units[u] }

// Counter is the value of a named coverage counter (0 if never counted).
func (t *Tally) Counter(name string) int64 { return t.counters[name] }

// Counters returns the named coverage counters. The map is the tally's own:
// read it, do not change it, and sort its keys before printing them.
func (t *Tally) Counters() map[string]int64 { return t.counters }

// Violations is the number of violations of invariant i.
func (t *Tally) Violations(i int) int64 { return t.violations[i] }

// Violate records a violation of invariant i found outside the search's
// steps (a property of the whole run, such as non-vacuity): it counts but
// has no trace.
func (t *Tally) Violate(i int) { t.violations[i]++ }

// Best is the smallest hit recorded, or nil.
func (t *Tally) Best() *Hit { return t.best }

// BestOf is the smallest hit of invariant i (shallowest, then the same
// tie-break as Best), or nil when i was never violated on a trace.
func (t *Tally) BestOf(i int) *Hit { return t.bestOf[i] }

func (t *Tally) record(h Hit) {
	t.violations[h.Finding.Inv]++
	if t.best == nil || h.less(*t.best) {
		t.best = &h
	}
	if b := t.bestOf[h.Finding.Inv]; b == nil || h.less(*b) {
		t.bestOf[h.Finding.Inv] = &h
	}
}

func (t *Tally) merge(o *Tally) {
	for i, v := range o.units {
		t.units[i] += v
	}
	for i, v := range o.violations {
		t.violations[i] += v
	}
	for k, v := range o.counters {
		t.counters[k] += v
	}
	if o.best != nil && (t.best == nil || o.best.less(*t.best)) {
		t.best = o.best
	}
	for i, h := range o.bestOf {
		if h != nil && (t.bestOf[i] == nil || h.less(*t.bestOf[i])) {
			t.bestOf[i] = h
		}
	}
}

// Hit locates a violation: the finding, at Depth, on the trace that first
// reached the state Parent (a stored state index) followed by transition
// Trans; Trans is -1 when the finding is a state check of the initial
// state. For a state check Parent and Trans are those that first reached
// the checked state.
type Hit struct {
	Depth   int
	Parent  int32
	Trans   int
	Finding Finding
}

func (a Hit) less(b Hit) bool {
	if a.Depth != b.Depth {
		return a.Depth < b.Depth
	}
	if a.Parent != b.Parent {
		return a.Parent < b.Parent
	}
	if a.Trans != b.Trans {
		return a.Trans < b.Trans
	}
	return a.Finding.Inv < b.Finding.Inv
}
