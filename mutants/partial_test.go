package mutants

import (
	"strings"
	"testing"
)

// The partial summary says, per run, what caught it so far, and never
// calls a mutant not yet caught a survivor.
func TestPartialSummary(t *testing.T) {
	p := NewPartial("spec")
	for _, l := range []string{
		"spec tie=clear explore:reference: nothing (12ms)",
		"M1 tie=clear explore:reference: nothing (3ms)",
		"M1 tie=clear directed:bounded-growth: I8-floor-shape (5ms)",
		"M1 tie=clear explore:network: N3-intent-oracle (50ms)",
		"M3 tie=clear simulate:network: nothing (7ms)",
	} {
		p.Note(l)
	}
	b := strings.Join(p.Lines(), "\n")
	for _, want := range []string{
		"5 checks finished",
		"control spec tie=clear: nothing tripped so far (no verdict)",
		"M1 tie=clear: caught by directed:bounded-growth I8-floor-shape",
		"M3 tie=clear: not caught so far (no verdict)",
	} {
		if !strings.Contains(b, want) {
			t.Errorf("summary lacks %q:\n%s", want, b)
		}
	}
	if strings.Contains(b, "survived") {
		t.Errorf("a partial summary calls a mutant a survivor:\n%s", b)
	}
}
