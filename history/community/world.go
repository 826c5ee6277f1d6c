package community

import (
	"sync"

	"github.com/nip-rs/harness/search"
)

// world adapts a universe to the shared engine. The engine stores
// fixed-width rows of words; a universe's states are values keyed by an
// exact string, so a row is one word, the state's index in an intern
// table: equal keys get the same index, so the engine's de-duplication of
// rows is the universe's de-duplication of states. The indices depend on
// which worker reached a state first, but nothing reported reads them:
// the engine orders states by generation, and a witness is rendered from
// its actions.
type world struct {
	u    *Universe
	r    *Rules
	skip func(string) bool
	inv  []search.Invariant

	// The intern table, shared by the engine's workers.
	mu     sync.RWMutex
	ids    map[string]int32
	states []State
}

// unitTransitions is the one unit a universe's checks count: every check
// runs on a transition.
const unitTransitions search.Unit = 0

func newWorld(u *Universe, r *Rules, skip func(string) bool) *world {
	w := &world{u: u, r: r, skip: skip, ids: map[string]int32{}}
	for _, id := range u.Invariants {
		w.inv = append(w.inv, search.Invariant{ID: id, Label: id, Doc: u.Name + " universe invariant", Unit: unitTransitions,
			Section: "community-history-sync.md"})
	}
	return w
}

func (w *world) Width() int                                              { return 1 }
func (w *world) Invariants() []search.Invariant                          { return w.inv }
func (w *world) Units() []string                                         { return []string{"transitions"} }
func (w *world) NewWorker() struct{}                                     { return struct{}{} }
func (w *world) Transitions() int                                        { return len(w.u.Actions) }
func (w *world) Initial(struct{}) []int32                                { return []int32{w.intern(w.u.Initial())} }
func (w *world) Check(struct{}, []int32, *search.Tally) []search.Finding { return nil }

// Successor steps the interned state cur[0] by action t and reports the
// transition's first violation by the universe's precedence, if skip lets
// one through.
func (w *world) Successor(_ struct{}, cur []int32, t int, next []int32, tl *search.Tally) (bool, []search.Finding) {
	s := w.state(cur[0])
	nx, ok, found := w.u.Step(w.r, s, w.u.Actions[t])
	if !ok {
		return false, nil
	}
	tl.Add(unitTransitions, 1)
	next[0] = w.intern(nx)
	if i, v, bad := first(w.u, found, w.skip); bad {
		return true, []search.Finding{{Inv: i, Detail: v.Detail}}
	}
	return true, nil
}

func (w *world) state(id int32) State {
	w.mu.RLock()
	defer w.mu.RUnlock()
	return w.states[id]
}

// intern returns s's index, adding s to the table when its key is new.
func (w *world) intern(s State) int32 {
	k := s.Key()
	w.mu.RLock()
	id, ok := w.ids[k]
	w.mu.RUnlock()
	if ok {
		return id
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if id, ok := w.ids[k]; ok {
		return id
	}
	id = int32(len(w.states))
	w.ids[k] = id
	w.states = append(w.states, s)
	return id
}
