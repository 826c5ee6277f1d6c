package exhaustive

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nip-rs/harness/model"
)

// devFact is what the state invariants need from one device state,
// computed once per interned state with the run's rules and tie policy.
type devFact struct {
	live       []bool // per universe context; nil for a legacy device
	compaction []finding
	registers  int // registers the compaction check examined
}

// fact computes the facts of a device state from its replica.
func (e *engine) fact(dev int, rep *model.Replica) *devFact {
	f := &devFact{}
	if !e.u.Devices[dev].Legacy {
		f.live = make([]bool, len(e.u.Contexts))
		for i, ctx := range e.u.Contexts {
			f.live[i] = e.rules.IsLive(rep.Reg(ctx), rep.Effective(ctx))
			if rep.HasReg(ctx) {
				f.registers++
				f.compaction = append(f.compaction, e.compactionSafety(dev, ctx, rep)...)
			}
		}
	}
	return f
}

// compactionSafety checks one stored register: compacting it (its canonical
// form at the device's own frontier, through the run's rules) must neither
// lose nor create liveness, and joining the compacted form back with the
// register it came from, in either order, must not make a dead register
// live.
func (e *engine) compactionSafety(dev int, ctx string, rep *model.Replica) []finding {
	r := e.rules
	reg, f := rep.Reg(ctx), rep.Effective(ctx)
	before := r.IsLive(reg, f)
	canon, shape := r.Canonical(reg, f, before)
	after := shape != model.ShapeOmit && r.IsLive(canon, f)
	where := fmt.Sprintf("d%d %s reg=%v f=%d compacted=%s", dev, ctx, reg, f, shapeReg(canon, shape))
	var out []finding
	switch {
	case before && !after:
		out = append(out, finding{InvLostSet, where + ": live before compaction, dead after"})
	case !before && after:
		out = append(out, finding{InvResurrection, where + ": dead before compaction, live after"})
	}
	if shape == model.ShapeOmit || before {
		return out
	}
	for _, m := range [...]struct {
		name string
		reg  model.Reg
	}{{"join(compacted, reg)", r.Join(canon, reg)}, {"join(reg, compacted)", r.Join(reg, canon)}} {
		if r.IsLive(m.reg, f) {
			out = append(out, finding{InvMergeResurrection, fmt.Sprintf("%s: dead register, %s = %v is live", where, m.name, m.reg)})
		}
	}
	return out
}

func shapeReg(r model.Reg, s model.Shape) string {
	if s == model.ShapeOmit {
		return "none"
	}
	return r.String()
}

func (c *cache) fact(dev int, id int32) *devFact {
	if l := c.facts[dev]; int(id) < len(l) && l[id] != nil {
		return l[id]
	}
	t := c.e.devs[dev]
	t.mu.Lock()
	f, ok := t.facts[id]
	rep := t.reps[id]
	t.mu.Unlock()
	if !ok {
		f = c.e.fact(dev, rep)
		t.mu.Lock()
		if old, ok := t.facts[id]; ok {
			f = old
		} else {
			t.facts[id] = f
		}
		t.mu.Unlock()
	}
	c.facts[dev] = grow(c.facts[dev], int(id)+1, nil)
	c.facts[dev][id] = f
	return f
}

// stateChecks runs the state invariants on a global state: delivery-order
// independence per device and compaction safety. It returns the findings
// and the number of registers examined.
func (c *cache) stateChecks(ids []int32, perms [][]int) ([]finding, int) {
	var out []finding
	regs := 0
	if f, ok := c.convergence(ids, perms); !ok {
		out = append(out, f)
	}
	for dev := range ids {
		fa := c.fact(dev, ids[dev])
		regs += fa.registers
		out = append(out, fa.compaction...)
	}
	return out, regs
}

// convergence: every device publishes once; for every order of those
// publications, a copy of every upgraded device receives all of them (its
// own included) in that order; each device's verdicts must not depend on
// the order. This is the reference model's check: it compares orders on
// each device, not devices with one another.
//
// The verdicts of all devices agree across orders exactly when each
// device's own verdicts do (a device's verdicts are a fixed-length segment
// of the whole), so each device is checked on its own, without building
// the verdict lists, and stops at its first disagreement; the finding,
// when there is one, is rebuilt in full (which also delivers every order
// the check skipped, so the device states reached stay the same).
func (c *cache) convergence(ids []int32, perms [][]int) (finding, bool) {
	u := c.e.u
	blobs := c.convBlobs[:0]
	for i := range ids {
		blobs = append(blobs, c.blobOf(i, ids[i]))
	}
	c.convBlobs = blobs
	agree := true
	for dev := range ids {
		if !u.Devices[dev].Legacy && !c.orderIndependent(dev, ids[dev], blobs) {
			agree = false
			break
		}
	}
	if agree {
		return finding{}, true
	}
	return c.convergenceFinding(ids, blobs, perms), false
}

// orderIndependent reports whether a device in state id reaches the same
// verdicts under every order of delivering blobs. (Memoising the outcome
// on the device's state and the other publications' contexts saves
// little: at the depth bound most such combinations occur once.)
func (c *cache) orderIndependent(dev int, id int32, blobs []int32) bool {
	w := convWalk{c: c, dev: dev, blobs: blobs, all: 1<<len(blobs) - 1}
	if len(blobs) <= maxWalkBlobs {
		if c.convVisited == nil {
			c.convVisited = make([]uint64, 0, 64)
		}
		w.visited = c.convVisited[:0]
		defer func() { c.convVisited = w.visited[:0] }()
	}
	return w.agrees(id, 0)
}

// maxWalkBlobs bounds the publications whose walks remember the nodes
// they visited (convWalk.visited, searched linearly: at most 40 inner
// nodes for four publications).
const maxWalkBlobs = 4

// convWalk walks the delivery orders of one device depth-first, sharing
// the deliveries of common prefixes, and compares each order's verdicts
// with the first order's.
type convWalk struct {
	c     *cache
	dev   int
	blobs []int32
	all   uint32 // the used mask once every publication is delivered
	first []bool
	seen  bool
	// visited holds the inner nodes walked so far, as (used, state): a
	// node reached again through another order has the same orders below
	// it, all already compared with the first (a disagreement ends the
	// walk), so it is not walked twice. Deliveries that commute make most
	// nodes meet again. Nil when the walk keeps no record.
	visited []uint64
}

func (w *convWalk) agrees(x int32, used uint32) bool {
	if used != 0 && used != w.all && w.visited != nil {
		node := uint64(used)<<32 | uint64(uint32(x))
		if slices.Contains(w.visited, node) {
			return true
		}
		w.visited = append(w.visited, node)
	}
	if used == w.all {
		live := w.c.fact(w.dev, x).live
		if !w.seen {
			w.first, w.seen = live, true
			return true
		}
		return slices.Equal(w.first, live)
	}
	for src, b := range w.blobs {
		if used&(1<<src) == 0 && !w.agrees(w.c.receive(w.dev, b, x).next, used|1<<src) {
			return false
		}
	}
	return true
}

// convergenceFinding describes a convergence violation: every upgraded
// device receives every order in full, and each distinct outcome is listed
// with the first order that gives it.
func (c *cache) convergenceFinding(ids, blobs []int32, perms [][]int) finding {
	u := c.e.u
	got := make([][]bool, len(perms))
	used := make([]bool, len(ids))
	for dev := range ids {
		if u.Devices[dev].Legacy {
			continue
		}
		// Walk the orders in lexicographic order (the order of perms),
		// sharing the deliveries of common prefixes.
		k := 0
		var walk func(x int32, n int)
		walk = func(x int32, n int) {
			if n == len(ids) {
				got[k] = append(got[k], c.fact(dev, x).live...)
				k++
				return
			}
			for src := range ids {
				if !used[src] {
					used[src] = true
					walk(c.receive(dev, blobs[src], x).next, n+1)
					used[src] = false
				}
			}
		}
		walk(ids[dev], 0)
	}
	var outcomes []string
	seen := map[string]bool{}
	for k, p := range perms {
		if o := c.describeVerdicts(got[k]); !seen[o] {
			seen[o] = true
			outcomes = append(outcomes, "order "+OrderString(p)+": "+o)
		}
	}
	return finding{InvConvergence, "verdicts depend on delivery order; " + strings.Join(outcomes, "; ")}
}

func (c *cache) describeVerdicts(live []bool) string {
	u := c.e.u
	var parts []string
	i := 0
	for dev, spec := range u.Devices {
		if spec.Legacy {
			continue
		}
		var cs []string
		for _, ctx := range u.Contexts {
			cs = append(cs, fmt.Sprintf("%s=%s", ctx, verdict(live[i])))
			i++
		}
		parts = append(parts, fmt.Sprintf("d%d(%s)", dev, strings.Join(cs, ",")))
	}
	return strings.Join(parts, " ")
}

func verdict(live bool) string {
	if live {
		return "live"
	}
	return "dead"
}
