package cli

import "testing"

func TestParseShard(t *testing.T) {
	for in, want := range map[string]Shard{"": {}, "1/1": {1, 1}, "2/3": {2, 3}, "3/3": {3, 3}} {
		got, err := ParseShard(in)
		if err != nil || got != want {
			t.Errorf("%q: %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"0/3", "4/3", "1/0", "-1/2", "1", "a/b", "1/2/3", "1/1001", " 1/2"} {
		if _, err := ParseShard(in); err == nil {
			t.Errorf("%q accepted", in)
		}
	}
}

// Every item is in exactly one part, by round-robin (Owns) and by block
// (Range), for any count; blocks are in order and differ by one at most.
func TestShardsPartitionTheItems(t *testing.T) {
	for items := 0; items < 20; items++ {
		for n := 1; n <= 7; n++ {
			owners := make([]int, items)
			next := 0
			for i := 1; i <= n; i++ {
				s := Shard{i, n}
				for k := range items {
					if s.Owns(k) {
						owners[k]++
					}
				}
				from, to := s.Range(items)
				if from != next || to < from || to-from > items/n+1 || to-from < items/n {
					t.Fatalf("%d items, part %d/%d: block [%d,%d) after %d", items, i, n, from, to, next)
				}
				next = to
			}
			if next != items {
				t.Fatalf("%d items in %d parts: blocks end at %d", items, n, next)
			}
			for k, c := range owners {
				if c != 1 {
					t.Fatalf("%d items in %d parts: item %d owned %d times", items, n, k, c)
				}
			}
		}
	}
	if (Shard{}).Owns(5) != true {
		t.Error("the whole run does not own every item")
	}
}
