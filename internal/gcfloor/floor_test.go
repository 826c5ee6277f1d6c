package gcfloor

import (
	"os"
	"runtime"
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

// cycles is the collections that allocating n bytes of garbage in 4 KiB
// pieces takes, beside a live heap of about 16 MiB.
func cycles(n int) uint32 {
	live := make([]byte, 16<<20)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range n / 4096 {
		sink = make([]byte, 4096)
	}
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(live)
	return after.NumGC - before.NumGC
}

// With a floor of 256 MiB, 1 GiB of garbage beside a live heap of 16 MiB
// takes about a quarter of the collections: the goal goes from about 32
// MiB to 80 (the percent at most 400), so some 16 collections instead of
// 64. The test asks for half, a margin of two on a count the pacer sets
// from the allocation, not from time.
func TestFloorCollectsLessOften(t *testing.T) {
	if os.Getenv("GOGC") != "" {
		t.Skip("GOGC is set: the floor does nothing, as documented")
	}
	without := cycles(1 << 30)
	stop := Set(256<<20, 100)
	runtime.GC() // the first cycle under the floor arms it
	with := cycles(1 << 30)
	stop()
	t.Logf("%d collections with the floor, %d without", with, without)
	if with*2 > without || without < 30 {
		t.Fatalf("%d collections with the floor, %d without", with, without)
	}
	stop() // a second stop does nothing
}
