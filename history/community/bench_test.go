package community

import "testing"

// BenchmarkExplore explores every universe at its default depth under the
// document's rules, counting every violation (the suite's run).
func BenchmarkExplore(b *testing.B) {
	spec := Spec()
	for b.Loop() {
		for _, u := range Universes() {
			if res := Explore(u, spec, nil, false); res.Distinct != pinned[u.Name] {
				b.Fatalf("%s: %d states, pinned %d", u.Name, res.Distinct, pinned[u.Name])
			}
		}
	}
}
