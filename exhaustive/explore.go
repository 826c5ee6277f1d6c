package exhaustive

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nip-rs/harness/model"
)

// Status is the three-valued outcome of a run.
type Status int

const (
	StatusOK        Status = iota // every check passed within the bound
	StatusViolation               // an invariant failed; see the witness
	StatusUnknown                 // a resource bound was hit before the depth bound
)

func (s Status) String() string { return [...]string{"ok", "violation", "unknown"}[s] }

// Config is one exploration run.
type Config struct {
	Universe Universe
	// Depth bounds the trace length; 0 takes the universe's default.
	Depth int
	// Rules decide every transition, under their own tie policy, and are
	// what the invariants check against; nil means model.Spec().
	Rules *model.Rules
	// Workers expand each level in parallel; 0 means GOMAXPROCS.
	Workers int
	// MaxStates stops the run with StatusUnknown once more distinct
	// states are stored; 0 means no limit.
	MaxStates int
	// StopAtFirst ends the run once the smallest violation is known,
	// instead of counting every violation up to the bound.
	StopAtFirst bool
	// NoSymmetry turns off the reduction by the universe's symmetries
	// (Network.SymDevices, Network.SymContexts), which is on by default.
	NoSymmetry bool
	// Progress, if set, is called every ProgressEvery (default 1s).
	Progress      func(Progress)
	ProgressEvery time.Duration
}

// Progress is a snapshot of a running exploration.
type Progress struct {
	// Phase is "expand" (generating the successors of the states at
	// Depth) or "check" (running the state invariants at Depth).
	Phase        string
	Depth        int
	Distinct     int
	Queue        int // states of the level the phase has still to process
	StatesPerSec float64
	Elapsed      time.Duration
}

// InvariantCount is how often one invariant was checked and failed.
type InvariantCount struct {
	Name       string
	Checked    int64
	Violations int64
}

// Result is the outcome of Explore.
type Result struct {
	Universe string
	Depth    int
	Tie      model.TiePolicy
	Rules    string
	Workers  int
	Status   Status
	// Distinct is the number of distinct states whose minimal depth is at
	// most Depth; PerDepth splits it by minimal depth.
	Distinct int
	PerDepth []int
	// Transitions is the number of enabled transitions executed from
	// expanded states (each is checked for frontier regression).
	Transitions int64
	// Checked is the number of states the state invariants ran on, and
	// Registers the stored registers the compaction check examined there.
	Checked      int
	Registers    int64
	DeviceStates int
	Invariants   []InvariantCount
	// Witness is the smallest violation by (depth, action sequence).
	Witness  *Witness
	BoundHit string
	Elapsed  time.Duration

	// Symmetry reports whether states were reduced by the universe's
	// symmetries (a state then stands for its whole orbit).
	Symmetry bool
	// Actions counts the executed transitions per action kind, Sometimes
	// how often each named sometimes-condition the universe can reach was
	// reached, Deliveries what deliveries met, and Oracle the contexts the
	// intent oracle judged and did not judge (network universes; see
	// coverage.go).
	Actions    []CoverageCount
	Sometimes  []CoverageCount
	Deliveries []CoverageCount
	Oracle     []CoverageCount
}

// hit locates a violation: the trace parent path + trans, at depth.
type hit struct {
	depth  int
	parent int32
	trans  int
	f      finding
}

func (a hit) less(b hit) bool {
	if a.depth != b.depth {
		return a.depth < b.depth
	}
	if a.parent != b.parent {
		return a.parent < b.parent
	}
	if a.trans != b.trans {
		return a.trans < b.trans
	}
	return invariantRank(a.f.Invariant) < invariantRank(b.f.Invariant)
}

// tally accumulates per-invariant counts and the smallest hit.
type tally struct {
	checked    map[string]int64
	violations map[string]int64
	registers  int64
	best       *hit
}

func newTally() *tally {
	return &tally{checked: map[string]int64{}, violations: map[string]int64{}}
}

func (t *tally) record(h hit) {
	t.violations[h.f.Invariant]++
	if t.best == nil || h.less(*t.best) {
		t.best = &h
	}
}

func (t *tally) merge(o *tally) {
	for k, v := range o.checked {
		t.checked[k] += v
	}
	for k, v := range o.violations {
		t.violations[k] += v
	}
	t.registers += o.registers
	if o.best != nil && (t.best == nil || o.best.less(*t.best)) {
		t.best = o.best
	}
}

const (
	pieceSize = 256     // states per unit of parallel work
	blockSize = 1 << 15 // states expanded between merges
)

// Explore enumerates every state of the universe reachable within the depth
// bound, breadth first with de-duplication at first visit (a state counts
// at its minimal depth), checks every executed transition for frontier
// regression and runs the state invariants (at the bound only, for a
// TerminalOnly universe).
func Explore(cfg Config) (*Result, error) {
	u := cfg.Universe
	if err := u.validate(); err != nil {
		return nil, err
	}
	if cfg.Depth == 0 {
		cfg.Depth = u.Depth
	}
	if cfg.Depth < 0 {
		return nil, fmt.Errorf("depth %d is negative", cfg.Depth)
	}
	if cfg.Rules == nil {
		cfg.Rules = model.Spec()
	}
	if cfg.Workers <= 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	x := &explorer{cfg: cfg, u: &u, e: newEngine(&u, cfg.Rules), start: time.Now()}
	x.w = newWorld(x)
	if x.w.transitions() > 1<<16 {
		return nil, fmt.Errorf("universe %q has too many transitions", u.Name)
	}
	return x.run(), nil
}

type explorer struct {
	cfg    Config
	u      *Universe
	e      *engine
	w      world
	store  *stateStore
	total  *tally
	caches []*cache
	start  time.Time

	depth    atomic.Int64
	checking atomic.Bool
	distinct atomic.Int64
	queue    atomic.Int64
}

func (x *explorer) run() *Result {
	if x.w == nil {
		x.w = newWorld(x)
	}
	x.store = newStateStore(x.w.width())
	x.caches = append(x.caches, x.e.newCache())
	x.store.add(x.w.initial(x.caches[0]), -1, 0)
	x.total = newTally()
	x.distinct.Store(1)
	stop := x.startProgress()
	defer stop()

	res := &Result{Universe: x.u.Name, Depth: x.cfg.Depth, Tie: x.cfg.Rules.Tie, Rules: x.cfg.Rules.Name, Workers: x.cfg.Workers}
	lo, hi := 0, 1
	for d := 0; ; d++ {
		res.PerDepth = append(res.PerDepth, hi-lo)
		if !x.u.TerminalOnly || d == x.cfg.Depth {
			x.checkStates(lo, hi, d)
			res.Checked += hi - lo
		}
		if d == x.cfg.Depth || hi == lo || (x.cfg.StopAtFirst && x.total.best != nil) {
			break
		}
		if !x.expand(lo, hi, d) {
			res.BoundHit = fmt.Sprintf("state limit %d reached while expanding depth %d", x.cfg.MaxStates, d)
			break
		}
		lo, hi = hi, x.store.len()
		if hi == lo {
			break
		}
	}
	res.Distinct = x.store.len()
	if res.BoundHit != "" {
		res.PerDepth = append(res.PerDepth, x.store.len()-hi)
	}
	res.Transitions = x.total.checked[InvRegression]
	res.Registers = x.total.registers
	res.DeviceStates = x.e.deviceStates()
	for _, n := range x.w.invariants() {
		res.Invariants = append(res.Invariants, InvariantCount{n, x.total.checked[n], x.total.violations[n]})
	}
	switch {
	case x.total.best != nil:
		res.Status = StatusViolation
		res.Witness = x.w.witness(x, *x.total.best)
	case res.BoundHit != "":
		res.Status = StatusUnknown
	}
	x.w.finish(x, res)
	res.Elapsed = time.Since(x.start)
	return res
}

// parallel runs fn over pieces [0, n) on the configured workers, each with
// its own cache (kept for the whole run, so lookups stay warm), and returns
// the per-piece results in piece order.
func parallel[T any](x *explorer, n int, fn func(c *cache, piece int) T) []T {
	out := make([]T, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	w := min(x.cfg.Workers, n)
	for len(x.caches) < w {
		x.caches = append(x.caches, x.e.newCache())
	}
	for k := range w {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := x.caches[k]
			for {
				p := int(next.Add(1) - 1)
				if p >= n {
					return
				}
				out[p] = fn(c, p)
			}
		}()
	}
	wg.Wait()
	return out
}

type pieceOut struct {
	rows    []int32
	parents []int32
	trans   []uint16
	t       *tally
}

// expand generates the successors of states [lo, hi) at depth d, in
// generation order, and stores the new ones. It reports false when the
// state limit was hit.
func (x *explorer) expand(lo, hi, d int) bool {
	w := x.store.width
	nt := x.w.transitions()
	x.depth.Store(int64(d))
	x.checking.Store(false)
	x.queue.Store(int64(hi - lo))
	for b := lo; b < hi; b += blockSize {
		be := min(b+blockSize, hi)
		pieces := (be - b + pieceSize - 1) / pieceSize
		outs := parallel(x, pieces, func(c *cache, p int) pieceOut {
			o := pieceOut{t: newTally()}
			row := make([]int32, w)
			for i := b + p*pieceSize; i < min(b+(p+1)*pieceSize, be); i++ {
				cur := x.store.row(i)
				for t := range nt {
					ok, fs := x.w.successor(c, cur, t, row, o.t)
					if !ok {
						continue
					}
					for _, f := range fs {
						o.t.record(hit{d + 1, int32(i), t, f})
					}
					if !x.store.has(row) {
						o.rows = append(o.rows, row...)
						o.parents = append(o.parents, int32(i))
						o.trans = append(o.trans, uint16(t))
					}
				}
				x.queue.Add(-1)
			}
			return o
		})
		for _, o := range outs {
			x.total.merge(o.t)
			for k, par := range o.parents {
				x.store.add(o.rows[k*w:(k+1)*w], par, o.trans[k])
			}
		}
		x.distinct.Store(int64(x.store.len()))
		if x.cfg.MaxStates > 0 && x.store.len() > x.cfg.MaxStates {
			return false
		}
	}
	return true
}

// checkStates runs the state invariants on states [lo, hi) at depth d.
func (x *explorer) checkStates(lo, hi, d int) {
	x.depth.Store(int64(d))
	x.checking.Store(true)
	x.queue.Store(int64(hi - lo))
	pieces := (hi - lo + pieceSize - 1) / pieceSize
	outs := parallel(x, pieces, func(c *cache, p int) *tally {
		t := newTally()
		for i := lo + p*pieceSize; i < min(lo+(p+1)*pieceSize, hi); i++ {
			for _, f := range x.w.check(c, x.store.row(i), t) {
				t.record(hit{d, x.store.parent[i], x.transOf(i), f})
			}
			x.queue.Add(-1)
		}
		return t
	})
	for _, t := range outs {
		x.total.merge(t)
	}
}

func (x *explorer) transOf(i int) int {
	if x.store.parent[i] < 0 {
		return -1
	}
	return int(x.store.trans[i])
}

func (x *explorer) startProgress() func() {
	if x.cfg.Progress == nil {
		return func() {}
	}
	every := x.cfg.ProgressEvery
	if every <= 0 {
		every = time.Second
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tk := time.NewTicker(every)
		defer tk.Stop()
		for {
			select {
			case <-done:
				return
			case <-tk.C:
				el := time.Since(x.start)
				n := x.distinct.Load()
				phase := "expand"
				if x.checking.Load() {
					phase = "check"
				}
				x.cfg.Progress(Progress{Phase: phase, Depth: int(x.depth.Load()), Distinct: int(n), Queue: int(x.queue.Load()),
					StatesPerSec: float64(n) / el.Seconds(), Elapsed: el})
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}
