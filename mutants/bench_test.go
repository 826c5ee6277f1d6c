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
