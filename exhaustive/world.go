package exhaustive

import (
	"fmt"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/search"
	"github.com/nip-rs/harness/witnessfile"
)

// world is a universe as the engine explores it (search.World), plus what
// only the universe knows: how to turn a hit into a witness, what to add to
// the result, and how to replay a witness file. The reference universe's
// world is refWorld (one word per device, synchronous delivery); a universe
// with a Network is netWorld (devices, intent knowledge and channels in
// flight). Everything that differs between the two is behind this
// interface; newWorld is the only place that chooses.
type world interface {
	search.World[*cache]
	witness(run *search.Run, h search.Hit) *witnessfile.Witness
	finish(run *search.Run, res *Result)
	replay(w *witnessfile.Witness) (*witnessfile.Replayed, error)
}

// newWorld validates a universe and builds its world and device engine
// under rules and tie; symmetric turns on the reduction by the universe's
// symmetries where it has any.
func newWorld(u *Universe, rules *model.Rules, depth int, symmetric bool) (world, *engine, error) {
	if err := u.validate(); err != nil {
		return nil, nil, err
	}
	if u.Network != nil {
		if err := u.validateNetwork(); err != nil {
			return nil, nil, err
		}
		// Client ids are not part of a network state (they all have one
		// length, so they change no behaviour): identity without noise.
		e := newEngine(u, rules, appendReplicaBody)
		return newNetWorld(u, e, depth, symmetric), e, nil
	}
	e := newEngine(u, rules, appendReplicaState)
	return &refWorld{u: u, e: e, depth: depth, perms: Permutations(len(u.Devices))}, e, nil
}

// refWorld is the reference universe's world: a state is one interned
// replica per device; a delivery is a synchronous snapshot.
type refWorld struct {
	u     *Universe
	e     *engine
	depth int
	perms [][]int
}

func (w *refWorld) Width() int                          { return len(w.u.Devices) }
func (w *refWorld) Invariants() []search.Invariant      { return referenceTable }
func (w *refWorld) Units() []string                     { return unitNames }
func (w *refWorld) NewWorker() *cache                   { return w.e.newCache() }
func (w *refWorld) Initial(c *cache) []int32            { return c.e.initial() }
func (w *refWorld) Transitions() int                    { return w.u.numTransitions() }
func (w *refWorld) finish(*search.Run, *Result)         {}
func (w *refWorld) Quiesce()                            { w.e.quiesce() }
func (w *refWorld) found(fs []finding) []search.Finding { return indexed(referenceTable, fs) }

func (w *refWorld) Successor(c *cache, cur []int32, t int, next []int32, tl *search.Tally) (bool, []search.Finding) {
	dev, s := c.next(cur, t)
	if s.next < 0 {
		return false, nil
	}
	tl.Add(unitSteps, 1)
	copy(next, cur)
	next[dev] = s.next
	if s.regress {
		return true, w.found([]finding{{InvRegression, fmt.Sprintf("a transition lowered a frontier of d%d", dev)}})
	}
	return true, nil
}

func (w *refWorld) Check(c *cache, row []int32, tl *search.Tally) []search.Finding {
	fs, regs := c.stateChecks(row, w.perms)
	tl.Add(unitStates, 1)
	tl.Add(unitRegisters, int64(regs))
	return w.found(fs)
}
