package exhaustive

import (
	"fmt"
	"sync"

	"github.com/nip-rs/harness/internal/num"
	"github.com/nip-rs/harness/model"
)

// Tracker keeps what a run of explorations has done so far, for the
// partial summary an interrupted run prints: the finished explorations
// and the last progress snapshot of the one in flight. Its methods may be
// called from the explorer's progress callback and from a signal handler
// at once.
type Tracker struct {
	mu       sync.Mutex
	run      string
	finished []*Result
	tie      model.TiePolicy
	last     *Progress
	running  bool
}

// Start records that the exploration of run under tie began.
func (t *Tracker) Start(run string, tie model.TiePolicy) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.run, t.tie, t.last, t.running = run, tie, nil, true
}

// Named records a run that reports no progress (the walk universe, a few
// seconds): an interrupt then says which run it stopped.
func (t *Tracker) Named(run string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.run = run
}

// Note records a progress snapshot of the exploration in flight.
func (t *Tracker) Note(p Progress) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.last = &p
}

// Finish records a finished exploration.
func (t *Tracker) Finish(r *Result) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.finished, t.running = append(t.finished, r), false
}

// Run is the run's name (its header line).
func (t *Tracker) Run() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.run
}

// Lines says what the run did so far, one indented line each: nothing a
// stopped exploration was about to check is reported as passing.
func (t *Tracker) Lines() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []string
	for _, r := range t.finished {
		out = append(out, fmt.Sprintf("  tie %s: finished, %s, %s distinct states to depth %d", r.Tie, r.Status, num.Commas(r.Distinct), len(r.PerDepth)-1))
		for _, c := range r.Invariants {
			if c.Violations > 0 {
				out = append(out, fmt.Sprintf("    %s %s failed %s times", c.Label, c.Name, num.Commas(int(c.Violations))))
			}
		}
	}
	switch {
	case t.running && t.last != nil:
		p := t.last
		out = append(out, fmt.Sprintf("  tie %s: stopped while %sing depth %d, %s distinct states stored; its invariants are not checked (no verdict)",
			t.tie, p.Phase, p.Depth, num.Commas(p.Distinct)))
	case t.running:
		out = append(out, fmt.Sprintf("  tie %s: stopped before its first progress report; not checked", t.tie))
	}
	return out
}
