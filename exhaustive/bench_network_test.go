package exhaustive

import (
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/nip-rs/harness/model"
)

// peakHeap samples the heap in use while fn runs and returns the largest
// value seen, in bytes.
func peakHeap(fn func()) uint64 {
	runtime.GC()
	var peak uint64
	var mu sync.Mutex
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	sample := func() {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		mu.Lock()
		peak = max(peak, m.HeapInuse)
		mu.Unlock()
	}
	go func() {
		defer wg.Done()
		tk := time.NewTicker(20 * time.Millisecond)
		defer tk.Stop()
		for {
			select {
			case <-done:
				return
			case <-tk.C:
				sample()
			}
		}
	}()
	fn()
	sample()
	close(done)
	wg.Wait()
	return peak
}

// BenchmarkNetwork explores each network universe at its default depth
// (the make-test bound) with symmetry on and off, and reports distinct
// states, states per second and the peak heap in use.
func BenchmarkNetwork(b *testing.B) {
	for _, tc := range []struct {
		universe string
		depth    int
		symmetry bool
	}{
		{"network", networkDepth, true},
		{"network", networkDepth, false},
		{"network-whole", networkWholeDepth, true},
		{"network-whole", networkWholeDepth, false},
	} {
		b.Run(fmt.Sprintf("%s/depth=%d/symmetry=%t", tc.universe, tc.depth, tc.symmetry), func(b *testing.B) {
			var states int
			var peak uint64
			for b.Loop() {
				peak = max(peak, peakHeap(func() {
					states = exploreNet(b, tc.universe, Config{Depth: tc.depth, Rules: model.Proposed(), NoSymmetry: !tc.symmetry}).Distinct
				}))
			}
			b.ReportMetric(float64(states), "states")
			b.ReportMetric(float64(states)*float64(b.N)/b.Elapsed().Seconds(), "states/s")
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
		})
	}
}
