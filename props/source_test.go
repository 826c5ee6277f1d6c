package props

import (
	"math"
	"slices"
	"testing"
)

func draws(src Source, n, lo, hi int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = src.IntRange(lo, hi, "x")
	}
	return out
}

// TestSeededDeterministic: a seed and a case fix every choice; another
// seed or case gives other choices.
func TestSeededDeterministic(t *testing.T) {
	a, b := draws(NewSeeded(7, 3), 200, 0, 1000), draws(NewSeeded(7, 3), 200, 0, 1000)
	if !slices.Equal(a, b) {
		t.Fatal("the same seed and case drew different values")
	}
	if slices.Equal(a, draws(NewSeeded(8, 3), 200, 0, 1000)) || slices.Equal(a, draws(NewSeeded(7, 4), 200, 0, 1000)) {
		t.Fatal("another seed or case drew the same 200 values")
	}
}

// TestSeededRangeAndBias: draws stay in range; the ends and the smallest
// values come up far more often than uniformly; early cases draw low.
func TestSeededRangeAndBias(t *testing.T) {
	const lo, hi, n = 70, 105, 20000
	count := map[int]int{}
	for c := range 200 {
		for _, v := range draws(NewSeeded(1, 100+c), n/200, lo, hi) {
			if v < lo || v > hi {
				t.Fatalf("IntRange(%d, %d) drew %d", lo, hi, v)
			}
			count[v]++
		}
	}
	uniform := n / (hi - lo + 1)
	if count[lo] < 3*uniform || count[hi] < 2*uniform || count[lo+2] < 2*uniform {
		t.Errorf("lo %d, hi %d, lo+2 %d times in %d draws; uniform would be %d", count[lo], count[hi], count[lo+2], n, uniform)
	}
	if len(count) != hi-lo+1 {
		t.Errorf("only %d of the %d values drawn", len(count), hi-lo+1)
	}
	mean := func(c int) float64 {
		sum := 0
		for _, v := range draws(NewSeeded(1, c), 2000, 0, 1000) {
			sum += v
		}
		return float64(sum) / 2000
	}
	if early, late := mean(0), mean(500); early*4 > late {
		t.Errorf("mean draw of case 0 %.1f, of case 500 %.1f: early cases should draw low", early, late)
	}
	if v := NewSeeded(1, 0).IntRange(5, 5, "one"); v != 5 {
		t.Errorf("IntRange(5, 5) = %d", v)
	}
	if v := NewSeeded(1, 0).IntRange(5, 3, "empty"); v != 5 {
		t.Errorf("IntRange(5, 3) = %d, want the low end", v)
	}
	for range 100 {
		NewSeeded(2, 0).IntRange(math.MinInt, math.MaxInt, "whole") // must not panic
	}
	trues := 0
	s := NewSeeded(3, 0)
	for range 1000 {
		if s.Bool("b") {
			trues++
		}
	}
	if trues < 400 || trues > 600 {
		t.Errorf("Bool true %d times in 1000", trues)
	}
}

// TestPickFirstIsLowest: Pick maps the lowest draw to the first item.
func TestPickFirstIsLowest(t *testing.T) {
	if got := Pick(fixed(0), "p", []string{"a", "b", "c"}); got != "a" {
		t.Errorf("Pick at 0 = %q", got)
	}
	if got := Pick(fixed(2), "p", []string{"a", "b", "c"}); got != "c" {
		t.Errorf("Pick at 2 = %q", got)
	}
}

// fixed is a Source drawing offset k from each range's low end (clamped).
type fixed int

func (f fixed) IntRange(lo, hi int, _ string) int { return min(lo+int(f), hi) }
func (f fixed) Bool(string) bool                  { return f > 0 }

// TestGeneratorsUnderFixedSource: the lowest choices give the smallest
// scenario the generators can draw: cap 2, n 2, one coordinate at the
// oldest second, no foreign data, no deletion, no interleaved step.
func TestGeneratorsUnderFixedSource(t *testing.T) {
	src := fixed(0)
	if cfg := DrawConfig(src, "conformant"); cfg != (Config{Profile: "conformant", Cap: 2, N: 2}) {
		t.Errorf("DrawConfig = %v", cfg)
	}
	setup := DrawSetup(src)
	if want := []Step{{Op: OpPublish, When: WhenAt, At: StartClock - 30}}; !slices.Equal(setup, want) {
		t.Errorf("DrawSetup = %v, want %v", setup, want)
	}
	if steps := DrawInterleaving(src); len(steps) != 0 {
		t.Errorf("DrawInterleaving = %v", steps)
	}
	if s := DrawStep(src); s.Op != interleavingOps[0] {
		t.Errorf("DrawStep = %v, want the first op %s", s, interleavingOps[0])
	}
}
