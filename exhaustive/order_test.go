package exhaustive

import (
	"slices"
	"testing"
)

func TestPermutations(t *testing.T) {
	want3 := [][]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}
	if got := Permutations(3); !slices.EqualFunc(got, want3, slices.Equal[[]int]) {
		t.Fatalf("Permutations(3) = %v, want %v", got, want3)
	}
	if got := Permutations(0); len(got) != 1 || len(got[0]) != 0 {
		t.Fatalf("Permutations(0) = %v, want the one empty order", got)
	}
	// Four devices: 24 distinct orders, each a permutation, strictly
	// increasing (lexicographic) so findings list them in one order.
	got := Permutations(4)
	if len(got) != 24 {
		t.Fatalf("Permutations(4) has %d orders, want 24", len(got))
	}
	for k, p := range got {
		if s := slices.Sorted(slices.Values(p)); !slices.Equal(s, []int{0, 1, 2, 3}) {
			t.Fatalf("order %d = %v is not a permutation of 0..3", k, p)
		}
		if k > 0 && slices.Compare(got[k-1], p) >= 0 {
			t.Fatalf("orders %v then %v are not in lexicographic order", got[k-1], p)
		}
	}
}

func TestOrderString(t *testing.T) {
	for _, c := range []struct {
		p    []int
		want string
	}{{nil, ""}, {[]int{0}, "d0"}, {[]int{2, 0, 1}, "d2,d0,d1"}} {
		if got := OrderString(c.p); got != c.want {
			t.Errorf("OrderString(%v) = %q, want %q", c.p, got, c.want)
		}
	}
}
