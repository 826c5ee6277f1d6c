package gcfloor

import (
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"testing"
)

func TestPercent(t *testing.T) {
	for _, tc := range []struct {
		live, roots, floor uint64
		base, want         int
	}{
		{live: 16 << 20, floor: 64 << 20, base: 100, want: 300},
		{live: 8 << 20, roots: 8 << 20, floor: 64 << 20, base: 100, want: 350}, // the roots count in the goal
		{live: 8 << 20, floor: 64 << 20, base: 100, want: 400},                 // at most maxPercent
		{live: 1 << 20, floor: 8 << 20, base: 100, want: 200},                  // the runtime's least goal bounds it
		{live: 32 << 20, floor: 64 << 20, base: 100, want: 100},                // the base already reaches the floor
		{live: 32 << 20, floor: 64 << 20, base: 200, want: 200},
		{live: 100 << 20, floor: 64 << 20, base: 100, want: 100},
		{live: 1, floor: 64 << 40, base: 500, want: 500}, // never below the base
		{live: 0, floor: 64 << 20, base: 100, want: 100}, // nothing to scale
	} {
		if got := Percent(tc.live, tc.roots, tc.floor, tc.base); got != tc.want {
			t.Errorf("Percent(%d, %d, %d, %d) = %d, want %d", tc.live, tc.roots, tc.floor, tc.base, got, tc.want)
		}
	}
}

var sink []byte

// After a collection the floor sets the percent that lifts the next goal
// to the floor (the live heap here is about 16 MiB, so more than the base,
// at most maxPercent), as the collector itself reports it; stop restores
// the base. The test waits for the adjustment, not for a time.
func TestFloorSetsThePercent(t *testing.T) {
	if os.Getenv("GOGC") != "" {
		t.Skip("GOGC is set: the floor does nothing, as documented")
	}
	live := make([]byte, 16<<20)
	adjusted := make(chan int, 1)
	stop := set(256<<20, 100, adjusted)
	runtime.GC()
	p := <-adjusted
	got := gogc()
	stop()
	runtime.KeepAlive(live)
	if p <= 100 || p > maxPercent || got != p {
		t.Fatalf("adjusted to %d, the collector reports %d", p, got)
	}
	if after := gogc(); after != 100 {
		t.Fatalf("after stop the percent is %d, want the base 100", after)
	}
	stop() // a second stop does nothing
	if Set(256<<20, -1)(); gogc() != 100 {
		t.Fatal("a negative base changed the percent")
	}
}

func gogc() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int(s[0].Value.Uint64())
}

// BenchmarkGarbage allocates 256 MiB of garbage in 4 KiB pieces beside a
// live heap of 16 MiB, with and without a floor of 256 MiB, and reports
// the collections each takes. (A benchmark, not a test: how many cycles a
// given allocation takes depends on how fast marking keeps up.)
func BenchmarkGarbage(b *testing.B) {
	for _, floor := range []uint64{0, 256 << 20} {
		b.Run(fmt.Sprintf("floor=%dMiB", floor>>20), func(b *testing.B) {
			stop := func() {}
			if floor > 0 {
				stop = Set(floor, 100)
			}
			defer stop()
			live := make([]byte, 16<<20)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for b.Loop() {
				for range (256 << 20) / 4096 {
					sink = make([]byte, 4096)
				}
			}
			runtime.ReadMemStats(&after)
			runtime.KeepAlive(live)
			b.ReportMetric(float64(after.NumGC-before.NumGC)/float64(b.N), "GCs/op")
		})
	}
}
