package mutants

import "testing"

// BenchmarkGate is the whole gate of `make test`: the control and every
// mutant under both tie policies (go test ./mutants/ -run '^$' -bench Gate
// -benchtime 1x).
func BenchmarkGate(b *testing.B) {
	for b.Loop() {
		rep, err := Run(Options{})
		if err != nil {
			b.Fatal(err)
		}
		if p := rep.Problems(); len(p) > 0 {
			b.Fatal(p)
		}
	}
}

// BenchmarkGateMutants is the gate's mutant runs alone: the control is
// run once before the timer and reused, as a run reuses it across
// mutants (go test ./mutants/ -run '^$' -bench GateMutants -benchtime 1x).
func BenchmarkGateMutants(b *testing.B) {
	if _, err := Run(Options{}); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		rep, err := Run(Options{})
		if err != nil {
			b.Fatal(err)
		}
		if p := rep.Problems(); len(p) > 0 {
			b.Fatal(p)
		}
	}
}

// BenchmarkOnlyOneMutant is `mutate -only M5` as a fresh command runs it:
// one mutant a cube catches, the suite placed lazily up to that cube
// (the process's shared controls cleared each time, so no run reuses an
// earlier one's) (go test ./mutants/ -run '^$' -bench OnlyOneMutant
// -benchtime 3x).
func BenchmarkOnlyOneMutant(b *testing.B) {
	for b.Loop() {
		sharedControl.Lock()
		sharedControl.m = nil
		sharedControl.Unlock()
		controls.Lock()
		controls.m = nil
		controls.Unlock()
		rep, err := Run(Options{Only: []string{"M5"}})
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range rep.Results {
			if r.Status != StatusCaught {
				b.Fatalf("%s %s: %s", r.Mutant.ID, r.Tie, r.Status)
			}
		}
	}
}
