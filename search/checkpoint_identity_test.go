package search

import (
	"slices"
	"strings"
	"testing"
)

// TestCheckpointIdentityMatch: a checkpoint resumes only under the very
// identity it was written with, whichever side has more: a field changed,
// one the checkpoint lacks, and one the run lacks are each refused.
func TestCheckpointIdentityMatch(t *testing.T) {
	run := []Field{{"universe", "u"}, {"rules", "r"}, {"search.por", "false"}}
	for _, tc := range []struct {
		name  string
		saved []Field
		want  string // "" : accepted
	}{
		{"the same identity", slices.Clone(run), ""},
		{"the same fields in another order", []Field{run[2], run[0], run[1]}, ""},
		{"a value changed", []Field{run[0], {"rules", "other"}, run[2]}, `rules "other" there, "r" here`},
		{"a field the checkpoint lacks", run[:2], "does not record search.por"},
		{"a field the run lacks", append(slices.Clone(run), Field{"symmetry", "true"}), "another kind of run"},
		{"no fields at all", nil, "does not record universe"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &Saved{dir: "cp", m: manifest{Identity: tc.saved}}
			err := s.matchAll(run)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("%v, want an error saying %q", err, tc.want)
			}
		})
	}
}
