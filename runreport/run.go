package runreport

import (
	"slices"
	"strings"

	"github.com/nip-rs/harness/amendments"
	"github.com/nip-rs/harness/directed"
	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/mutants"
	"github.com/nip-rs/harness/witnessfile"
)

// Run is everything one exploration produced.
type Run struct {
	// Run is the command line that reproduces it; Universe names the
	// universe and Doc says what it is.
	Run, Universe, Doc string
	Explore            []*exhaustive.Result
	Directed           []*directed.CheckSummary
	// Status is "ok", "violation" or "unknown".
	Status string
	// Files are the witness files written; Witnesses the witnesses in
	// the order the text shows them.
	Files     []string
	Witnesses []*witnessfile.Witness
	// Amendment and Diffs describe a run under an amendment: its change,
	// and per tie the rule inputs it decided otherwise than spec.
	Amendment *amendments.Amendment
	// Reading is set when the rule set is the other reading of a sentence
	// of the text (mutants.Readings): its run is judged as an amendment's,
	// a conformance check that hard-codes the text's literal reading
	// being a spec-text difference, not a failure.
	Reading *mutants.Reading
	Diffs   []string
	// All keeps one witness per violated invariant (-all).
	All bool
}

// Judged says whether the run exits by its verdict: a run under an
// amendment or a reading, where a spec-text difference alone is no
// failure.
func (r *Run) Judged() bool { return r.Amendment != nil || r.Reading != nil }

// NaturalCompare orders labels with their numbers as numbers (N2 < N10),
// then by the rest.
func NaturalCompare(a, b string) int {
	pa, na := splitLabel(a)
	pb, nb := splitLabel(b)
	if c := strings.Compare(pa, pb); c != 0 {
		return c
	}
	return na - nb
}

func splitLabel(s string) (string, int) {
	i := strings.IndexFunc(s, func(r rune) bool { return r >= '0' && r <= '9' })
	if i < 0 {
		return s, -1
	}
	n, j := 0, i
	for ; j < len(s) && s[j] >= '0' && s[j] <= '9'; j++ {
		n = n*10 + int(s[j]-'0')
	}
	return s[:i], n
}

// sortedInvariants is the invariant rows of the world's table
// (exhaustive's invariant tables) in label order.
func (r *Run) sortedInvariants() []exhaustive.InvariantCount {
	if len(r.Explore) == 0 {
		return nil
	}
	rows := slices.Clone(r.Explore[0].Invariants)
	slices.SortStableFunc(rows, func(a, b exhaustive.InvariantCount) int { return NaturalCompare(a.Label, b.Label) })
	return rows
}
