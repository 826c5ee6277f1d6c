package gcfloor

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
)

// Default is the floor the tools use: explorations whose tables live
// outside the Go heap collect a tenth as often (the history walk at depth
// 7 runs in two thirds of the time), while one whose live heap is large
// keeps the base percent.
const Default = 32 << 20

// Set keeps the heap goal at least floor bytes, over a base percent (the
// GOGC the program would use otherwise), until stop is called; stop
// restores the base. It does nothing (and stop nothing) where GOGC is set
// in the environment or base is negative (collection off).
func Set(floor uint64, base int) (stop func()) {
	if os.Getenv("GOGC") != "" || base < 0 {
		return func() {}
	}
	return set(floor, base, nil)
}

// set is Set with, for tests, a channel told of every adjustment.
func set(floor uint64, base int, adjusted chan<- int) (stop func()) {
	f := &keeper{floor: floor, base: base, adjusted: adjusted}
	debug.SetGCPercent(base)
	f.arm()
	return func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		if f.stopped.Swap(true) {
			return
		}
		debug.SetGCPercent(base)
	}
}

type keeper struct {
	floor    uint64
	base     int
	adjusted chan<- int // the percent set, for tests
	mu       sync.Mutex
	stopped  atomic.Bool
	sample   [3]metrics.Sample
}

// sentinel is an object nothing refers to: each collection frees it and
// runs its cleanup, which re-arms a new one. (It is not a tiny allocation,
// which the runtime may batch with others and free late.)
type sentinel struct {
	_ *int
	_ [4]uint64
}

func (f *keeper) arm() {
	runtime.AddCleanup(new(sentinel), func(f *keeper) { f.adjust() }, f)
}

// adjust sets the percent for the next cycle from the live heap the last
// one left: the base, or more where base would aim below the floor.
func (f *keeper) adjust() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stopped.Load() {
		return
	}
	f.sample[0].Name = "/gc/heap/live:bytes"
	f.sample[1].Name = "/gc/scan/globals:bytes"
	f.sample[2].Name = "/gc/scan/stack:bytes"
	metrics.Read(f.sample[:])
	var v [3]uint64
	for i, s := range f.sample {
		if s.Value.Kind() == metrics.KindUint64 {
			v[i] = s.Value.Uint64()
		}
	}
	p := Percent(v[0], v[1]+v[2], f.floor, f.base)
	debug.SetGCPercent(p)
	f.arm()
	if f.adjusted != nil {
		select { // never blocks the runtime's cleanup goroutine
		case f.adjusted <- p:
		default:
		}
	}
}

// Percent is the GOGC p that makes the collector's next goal, live +
// (live+roots)*p/100 (roots: the globals and stacks it scans), at least
// floor, and never less than base. The collector also keeps its goal at
// least minHeap*p/100, so p stays at most floor*100/minHeap: a larger one
// would lift the goal past the floor. And p stays at most maxPercent: a
// percent is set after the cycle it is computed from, so until the next
// adjustment it applies to whatever that cycle left live; bounded, a live
// heap that grew fast in between overshoots the floor by at most that
// factor. Without a live heap to scale it keeps base.
func Percent(live, roots, floor uint64, base int) int {
	if live == 0 || floor <= live {
		return base
	}
	p := (floor - live) * 100 / (live + roots)
	return max(base, int(min(p, floor*100/minHeap, maxPercent)))
}

const (
	minHeap    = 4 << 20 // the runtime's least heap goal at GOGC=100
	maxPercent = 400
)
