package exhaustive

import "fmt"

// world is the search's view of a universe: the layout of a global state
// row, its initial row, its transitions and its checks. Explore runs one
// breadth-first search over any world; the reference universe's world is
// refWorld (one word per device, synchronous delivery), a universe with a
// Network is netWorld (devices, intent knowledge and channels in flight).
type world interface {
	width() int
	initial(c *cache) []int32
	transitions() int
	// successor writes the successor of cur under transition t into next
	// and reports whether t is enabled there, with the findings of the
	// transition checks. Counts go to tl.
	successor(c *cache, cur []int32, t int, next []int32, tl *tally) (bool, []finding)
	// check runs the state invariants on a stored row, counting into tl.
	check(c *cache, row []int32, tl *tally) []finding
	// invariants lists the invariants the world checks, in rank order.
	invariants() []string
	witness(x *explorer, h hit) *Witness
	// finish adds what the world knows to the result.
	finish(x *explorer, res *Result)
}

// refWorld is the reference universe's world: a state is one interned
// replica per device; a delivery is a synchronous snapshot.
type refWorld struct {
	u     *Universe
	perms [][]int
}

func newRefWorld(u *Universe) *refWorld {
	return &refWorld{u: u, perms: permutations(len(u.Devices))}
}

func (w *refWorld) width() int                          { return len(w.u.Devices) }
func (w *refWorld) initial(c *cache) []int32            { return c.e.initial() }
func (w *refWorld) transitions() int                    { return w.u.numTransitions() }
func (w *refWorld) invariants() []string                { return invariantOrder }
func (w *refWorld) witness(x *explorer, h hit) *Witness { return x.witness(h) }
func (w *refWorld) finish(*explorer, *Result)           {}

func (w *refWorld) successor(c *cache, cur []int32, t int, next []int32, tl *tally) (bool, []finding) {
	dev, s := c.next(cur, t)
	if s.next < 0 {
		return false, nil
	}
	tl.checked[InvRegression]++
	copy(next, cur)
	next[dev] = s.next
	if s.regress {
		return true, []finding{{InvRegression, fmt.Sprintf("a transition lowered a frontier of d%d", dev)}}
	}
	return true, nil
}

func (w *refWorld) check(c *cache, row []int32, tl *tally) []finding {
	fs, regs := c.stateChecks(row, w.perms)
	tl.checked[InvConvergence]++
	tl.checked[InvLostSet] += int64(regs)
	tl.checked[InvResurrection] += int64(regs)
	tl.checked[InvMergeResurrection] += int64(regs)
	tl.registers += int64(regs)
	return fs
}

// newWorld is the world of the explorer's universe.
func newWorld(x *explorer) world {
	if x.u.Network != nil {
		return newNetWorld(x.u, x.e, !x.cfg.NoSymmetry)
	}
	return newRefWorld(x.u)
}
