package search

import (
	"fmt"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nip-rs/harness/internal/offheap"
)

// World is what the engine explores. C is one worker's private state (its
// caches); the engine makes one per worker with NewWorker and passes it to
// every call that worker makes, so a World needs no lock for what C holds.
type World[C any] interface {
	// Width is the number of words in a state row.
	Width() int
	// Invariants is the World's invariant table; Units names the units its
	// rows count (indexed by Unit).
	Invariants() []Invariant
	Units() []string
	NewWorker() C
	Initial(c C) []int32
	// Transitions is the number of transition indices; a transition may be
	// disabled in a state.
	Transitions() int
	// Successor writes the successor of cur under transition t into next
	// and reports whether t is enabled there, with the findings of the
	// transition's own checks, counting what they examined into tl.
	Successor(c C, cur []int32, t int, next []int32, tl *Tally) (bool, []Finding)
	// Check runs the state invariants on a stored row, counting into tl.
	Check(c C, row []int32, tl *Tally) []Finding
}

// Quiescer is a World with work that may only be done while no worker is
// inside it (freeing what a worker might still read): the engine calls
// Quiesce after every parallel phase, once its workers have returned.
type Quiescer interface {
	Quiesce()
}

// Status is the three-valued outcome of a run.
type Status int

const (
	StatusOK        Status = iota // every check passed within the bound
	StatusViolation               // an invariant failed; see the witness
	StatusUnknown                 // a resource bound was hit before the depth bound
)

func (s Status) String() string { return [...]string{"ok", "violation", "unknown"}[s] }

// Config bounds one run of the engine.
type Config struct {
	// Depth bounds the trace length (transitions from the initial state).
	Depth int
	// TerminalOnly runs the state checks only on states whose minimal depth
	// is Depth; otherwise on every reachable state.
	TerminalOnly bool
	// Workers expand each level in parallel; 0 means GOMAXPROCS.
	Workers int
	// MaxStates stops the run with StatusUnknown once more distinct states
	// are stored; 0 means no limit.
	MaxStates int
	// StoreDir, when set, backs the stored states' records by files in
	// that directory (unlinked at once), so that the kernel can keep them
	// on disk instead of in memory; the index stays in memory.
	StoreDir string
	// Runs keeps the visited states in sorted files in StoreDir (the
	// system's temporary directory when empty) instead of memory, with
	// RunsMemory bytes of buffer (0: DefaultRunsMemory); see runs.go.
	// Results are those of the in-memory store. Not with POR.
	Runs       bool
	RunsMemory int64
	// POR reduces the transitions executed by sleep sets when the World is
	// a Reducer (por.go); every state is still stored and checked.
	POR bool
	// StopAtFirst ends the run once the smallest violation is known,
	// instead of counting every violation up to the bound.
	StopAtFirst bool
	// Progress, if set, is called every ProgressEvery (default 1s).
	Progress      func(Progress)
	ProgressEvery time.Duration
	// Checkpoint, when set, writes a checkpoint at every depth boundary,
	// or resumes from one (checkpoint.go).
	Checkpoint *Checkpoint
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
	// Frontier is the number of states at Depth (the level the phase
	// works through), Previous the number at Depth-1 (0 at depth 0).
	// While expanding, Found is the new states at Depth+1 stored so far.
	// PhaseElapsed is the time since the phase began on this level.
	Frontier, Previous, Found int
	PhaseElapsed              time.Duration
}

// Run is the outcome of Explore: the figures, the final tally and the
// store, from which a World rebuilds the trace of a hit.
type Run struct {
	Status  Status
	Workers int
	// Distinct is the number of distinct states whose minimal depth is at
	// most the depth bound; PerDepth splits it by minimal depth.
	Distinct int
	PerDepth []int
	// Checked is the number of states the state checks ran on.
	Checked  int
	BoundHit string
	Elapsed  time.Duration
	// Tally holds every count; Tally.Best() is the smallest violation.
	Tally *Tally
	Store *Store
}

const (
	pieceSize = 256     // states per unit of parallel work
	blockSize = 1 << 15 // states expanded between merges
)

// Explore enumerates every state of w reachable within cfg.Depth, breadth
// first with de-duplication at first visit (a state counts at its minimal
// depth), runs the transition checks on every executed transition and the
// state checks on every stored state (at the bound only, with
// TerminalOnly). The Status is a violation when anything was recorded in
// the tally, unknown when a bound was hit first; a World may still add
// run-wide findings to Run.Tally afterwards (Tally.Violate).
func Explore[C any](w World[C], cfg Config) (*Run, error) {
	if cfg.Depth < 0 {
		return nil, fmt.Errorf("depth %d is negative", cfg.Depth)
	}
	if len(w.Units()) > MaxUnits {
		return nil, fmt.Errorf("a world names %d units (at most %d)", len(w.Units()), MaxUnits)
	}
	if w.Transitions() > 1<<16 {
		return nil, fmt.Errorf("too many transitions (%d, at most %d)", w.Transitions(), 1<<16)
	}
	if cfg.Workers <= 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	if err := checkRunsConfig(&cfg); err != nil {
		return nil, err
	}
	if cfg.Runs && cfg.StoreDir == "" {
		cfg.StoreDir = os.TempDir()
	}
	if cfg.StoreDir != "" {
		if fi, err := os.Stat(cfg.StoreDir); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("state store directory %q: not a directory", cfg.StoreDir)
		}
	}
	x := &explorer[C]{cfg: cfg, w: w, start: time.Now(), ninv: len(w.Invariants())}
	if r, ok := w.(Reducer[C]); ok && cfg.POR {
		x.red, x.indep, x.sleepWords = r, independence(r), (w.Transitions()+63)/64
		x.sleep = &sleepSets{words: x.sleepWords}
		x.sleep.grow(1)
		clear(x.sleep.bits) // the initial state sleeps on nothing
	}
	if cfg.Runs {
		if x.red != nil {
			return nil, fmt.Errorf("the runs state store does not support partial-order reduction")
		}
		if cfg.Checkpoint != nil {
			return nil, fmt.Errorf("the runs state store does not write checkpoints")
		}
		return x.runRuns()
	}
	if cfg.Checkpoint != nil {
		if fi, err := os.Stat(cfg.Checkpoint.Dir); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("checkpoint directory %q: not a directory", cfg.Checkpoint.Dir)
		}
		if cfg.Checkpoint.Tables == nil {
			return nil, fmt.Errorf("a checkpoint needs the World's tables")
		}
		x.ck = x.newCheckpointer()
	}
	return x.run()
}

type explorer[C any] struct {
	cfg     Config
	w       World[C]
	ninv    int
	store   *Store
	total   *Tally
	workers []C
	start   time.Time

	// With Config.POR and a Reducer: the relation, and the sleep sets of
	// the level being expanded (from lo) and of the next one (from hi).
	red        Reducer[C]
	indep      [][]uint64
	sleep      *sleepSets
	sleepWords int

	ck *checkpointer // with Config.Checkpoint

	dedup []uint64   // mergeBlock's tables, kept between blocks
	bufs  []pieceOut // the output buffers of each piece of a block, kept between blocks

	depth    atomic.Int64
	checking atomic.Bool
	distinct atomic.Int64
	queue    atomic.Int64
	// The level the current phase works through, for progress reports.
	frontier, previous, levelEnd, phaseStart atomic.Int64
}

func (x *explorer[C]) run() (*Run, error) {
	x.store = newStore(x.w.Width(), x.cfg.StoreDir)
	x.workers = append(x.workers, x.w.NewWorker())
	x.total = NewTally(x.ninv)
	res := &Run{Workers: x.cfg.Workers, Store: x.store}
	lo, hi, first := 0, 1, 0
	resumed := x.ck != nil && x.ck.cfg.Resume
	finished := false // resumed from a finished run's final figures
	if resumed {
		var err error
		if first, lo, hi, finished, err = x.resume(res); err != nil {
			x.store.Free()
			return nil, err
		}
	} else {
		x.store.add(x.w.Initial(x.workers[0]), -1, 0)
	}
	res.Tally = x.total
	x.distinct.Store(int64(x.store.Len()))
	stop := x.startProgress()
	defer stop()

	stopped := false
	for d := first; !finished; d++ {
		// The checkpoint of depth d: its states stored, none checked. A
		// resumed run starts from the one it loaded.
		if x.ck != nil && !(resumed && d == first) {
			if err := x.saveCheckpoint(d, lo, hi, res); err != nil {
				x.store.Free()
				return nil, fmt.Errorf("checkpoint of depth %d in %s: %w", d, x.ck.cfg.Dir, err)
			}
			if x.ck.cfg.Stop != nil && x.ck.cfg.Stop(d) {
				res.PerDepth = append(res.PerDepth, hi-lo)
				res.BoundHit = fmt.Sprintf("stopped after the checkpoint of depth %d", d)
				stopped = true
				break
			}
		}
		res.PerDepth = append(res.PerDepth, hi-lo)
		if d > 0 {
			x.previous.Store(int64(res.PerDepth[d-1]))
		}
		if !x.cfg.TerminalOnly || d == x.cfg.Depth {
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
		lo, hi = hi, x.store.Len()
		if hi == lo {
			break
		}
	}
	if x.ck != nil && !finished && res.BoundHit == "" {
		if err := x.saveFinal(res); err != nil {
			x.store.Free()
			return nil, fmt.Errorf("checkpoint of the finished run in %s: %w", x.ck.cfg.Dir, err)
		}
	}
	res.Distinct = x.store.Len()
	if res.BoundHit != "" && !stopped {
		res.PerDepth = append(res.PerDepth, x.store.Len()-hi)
	}
	return x.finish(res), nil
}

// finish sets the run's status from its tally and bound, and its time.
func (x *explorer[C]) finish(res *Run) *Run {
	switch {
	case x.total.best != nil:
		res.Status = StatusViolation
	case res.BoundHit != "":
		res.Status = StatusUnknown
	}
	res.Elapsed = time.Since(x.start)
	return res
}

// parallel runs fn over pieces [0, n) on the configured workers, each with
// its own World worker state (kept for the whole run, so lookups stay
// warm), and returns the per-piece results in piece order.
func parallel[C, T any](x *explorer[C], n int, fn func(c C, piece int) T) []T {
	out := make([]T, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	w := min(x.cfg.Workers, n)
	for len(x.workers) < w {
		x.workers = append(x.workers, x.w.NewWorker())
	}
	for k := range w {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := x.workers[k]
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
	if q, ok := any(x.w).(Quiescer); ok {
		q.Quiesce()
	}
	return out
}

type pieceOut struct {
	rows    []int32
	parents []int32
	trans   []uint16
	hashes  []uint64 // hashRow of each new row, so the merge hashes none
	t       *Tally
	// With POR: each new row's sleep set, and the states of the next
	// level reached again with the set this parent gives them.
	sleeps   []uint64
	again    []int32
	againSet []uint64
}

// expand generates the successors of states [lo, hi) at depth d, in
// generation order, and stores the new ones. It reports false when the
// state limit was hit.
func (x *explorer[C]) expand(lo, hi, d int) bool {
	w := x.store.width
	nt := x.w.Transitions()
	x.depth.Store(int64(d))
	x.checking.Store(false)
	x.startLevel(lo, hi)
	var next *sleepSets
	if x.red != nil {
		next = &sleepSets{words: x.sleepWords}
		defer func() { x.sleep = next }()
	}
	// The blocks' buffers are kept for the next level, unless the states
	// found are checked next: the checks need the memory more.
	if !x.cfg.TerminalOnly || d+1 == x.cfg.Depth {
		defer x.releaseBuffers()
	}
	for b := lo; b < hi; b += blockSize {
		be := min(b+blockSize, hi)
		pieces := (be - b + pieceSize - 1) / pieceSize
		for len(x.bufs) < pieces {
			x.bufs = append(x.bufs, pieceOut{})
		}
		mem := x.store.mem
		outs := parallel(x, pieces, func(c C, p int) pieceOut {
			// The piece's buffers are those of piece p of the previous
			// block, merged by now; they live outside the Go heap.
			kept := x.bufs[p]
			o := pieceOut{rows: kept.rows[:0], parents: kept.parents[:0], trans: kept.trans[:0], hashes: kept.hashes[:0],
				sleeps: kept.sleeps[:0], again: kept.again[:0], againSet: kept.againSet[:0], t: NewTally(x.ninv)}
			defer func() { x.bufs[p] = o }()
			row := make([]int32, w)
			cur := make([]int32, w)
			z := make([]uint64, x.sleepWords)
			done := make([]uint64, x.sleepWords)
			zs := make([]uint64, x.sleepWords)
			set := pieceSets.Get().(*pieceSet)
			defer pieceSets.Put(set)
			set.reset()
			for i := b + p*pieceSize; i < min(b+(p+1)*pieceSize, be); i++ {
				x.store.RowInto(i, cur)
				if x.red != nil {
					copy(z, x.sleep.set(i-lo))
					clear(done)
				}
				for t := range nt {
					var ok bool
					var fs []Finding
					if x.red != nil {
						if hasBit(z, t) {
							continue // asleep: the other order covers it
						}
						for k := range zs {
							zs[k] = (z[k] | done[k]) & x.indep[t][k]
						}
						ok, fs = x.red.SuccessorSleep(c, cur, t, row, zs, o.t)
						if ok {
							setBit(done, t)
						}
					} else {
						ok, fs = x.w.Successor(c, cur, t, row, o.t)
					}
					if !ok {
						continue
					}
					for _, f := range fs {
						o.t.record(Hit{d + 1, int32(i), t, f})
					}
					h := hashRow(row)
					j := x.store.lookupHashed(row, h)
					switch {
					case j < 0:
						if k, dup := set.seen(&o, row, h); dup {
							// The piece found it already: only its sleep
							// set narrows (an intersection, in any order).
							for q := range zs {
								o.sleeps[k*x.sleepWords+q] &= zs[q]
							}
							continue
						}
						o.hashes = append(offheap.Grow(mem, o.hashes, 1), h)
						o.rows = append(offheap.Grow(mem, o.rows, w), row...)
						o.parents = append(offheap.Grow(mem, o.parents, 1), int32(i))
						o.trans = append(offheap.Grow(mem, o.trans, 1), uint16(t))
						o.sleeps = append(offheap.Grow(mem, o.sleeps, len(zs)), zs...)
					case x.red != nil && j >= hi:
						o.again = append(offheap.Grow(mem, o.again, 1), int32(j))
						o.againSet = append(offheap.Grow(mem, o.againSet, len(zs)), zs...)
					}
				}
			}
			// Progress counts a piece at once: one shared counter
			// touched per state would bounce between the workers.
			x.queue.Add(-int64(min(b+(p+1)*pieceSize, be) - (b + p*pieceSize)))
			return o
		})
		ids, off := x.mergeBlock(outs, next != nil)
		for p, o := range outs {
			x.total.merge(o.t)
			if next == nil {
				continue
			}
			for k, j := range ids[off[p]:off[p+1]] {
				x.narrow(next, int(j)-hi, o.sleeps, k)
			}
			for k, j := range o.again {
				x.narrow(next, int(j)-hi, o.againSet, k)
			}
		}
		x.distinct.Store(int64(x.store.Len()))
		if x.cfg.MaxStates > 0 && x.store.Len() > x.cfg.MaxStates {
			return false
		}
	}
	return true
}

// releaseBuffers frees the pieces' output buffers and the merge's tables.
func (x *explorer[C]) releaseBuffers() {
	mem := x.store.mem
	for _, o := range x.bufs {
		offheap.Release(mem, o.rows)
		offheap.Release(mem, o.parents)
		offheap.Release(mem, o.trans)
		offheap.Release(mem, o.hashes)
		offheap.Release(mem, o.sleeps)
		offheap.Release(mem, o.again)
		offheap.Release(mem, o.againSet)
	}
	offheap.Release(mem, x.dedup)
	x.bufs, x.dedup = x.bufs[:0], nil
}

// narrow intersects the sleep set of state hi+j of the next level with
// set k of sets (j < 0: a state of an earlier level, which keeps its own).
func (x *explorer[C]) narrow(next *sleepSets, j int, sets []uint64, k int) {
	if next == nil || j < 0 {
		return
	}
	next.grow(j + 1)
	dst := next.set(j)
	for q := range dst {
		dst[q] &= sets[k*x.sleepWords+q]
	}
}

// checkStates runs the state checks on states [lo, hi) at depth d.
func (x *explorer[C]) checkStates(lo, hi, d int) {
	x.depth.Store(int64(d))
	x.checking.Store(true)
	x.startLevel(lo, hi)
	pieces := (hi - lo + pieceSize - 1) / pieceSize
	outs := parallel(x, pieces, func(c C, p int) *Tally {
		t := NewTally(x.ninv)
		row := make([]int32, x.store.width)
		for i := lo + p*pieceSize; i < min(lo+(p+1)*pieceSize, hi); i++ {
			for _, f := range x.w.Check(c, x.store.RowInto(i, row), t) {
				t.record(Hit{d, x.store.Parent(int32(i)), x.transOf(i), f})
			}
		}
		x.queue.Add(-int64(min(lo+(p+1)*pieceSize, hi) - (lo + p*pieceSize)))
		return t
	})
	for _, t := range outs {
		x.total.merge(t)
	}
}

// startLevel records the level [lo, hi) a phase begins on, for progress.
func (x *explorer[C]) startLevel(lo, hi int) {
	x.queue.Store(int64(hi - lo))
	x.frontier.Store(int64(hi - lo))
	x.levelEnd.Store(int64(hi))
	x.phaseStart.Store(int64(time.Since(x.start)))
}

func (x *explorer[C]) transOf(i int) int {
	if x.store.Parent(int32(i)) < 0 {
		return -1
	}
	return x.store.Trans(int32(i))
}

func (x *explorer[C]) startProgress() func() {
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
				p := Progress{Phase: phase, Depth: int(x.depth.Load()), Distinct: int(n), Queue: int(x.queue.Load()),
					StatesPerSec: float64(n) / el.Seconds(), Elapsed: el, Frontier: int(x.frontier.Load()), Previous: int(x.previous.Load()),
					PhaseElapsed: el - time.Duration(x.phaseStart.Load())}
				if phase == "expand" {
					p.Found = int(n - x.levelEnd.Load())
				}
				x.cfg.Progress(p)
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}
