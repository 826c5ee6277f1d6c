package exhaustive

import (
	"errors"
	"fmt"

	"github.com/nip-rs/harness/witnessfile"
)

// Line is the search's answer in one line: the observation, universe, tie,
// rules and depth bound, the outcome, and what makes it an answer: the
// depth and detail of the trace found, the bound that stopped the search,
// or the states stored.
func (r *ObserveResult) Line() string {
	line := fmt.Sprintf("observe %s universe %s tie %s rules %s depth %d: %s", r.Observation, r.Universe, r.Tie, r.Rules, r.Depth, r.Outcome())
	switch {
	case r.Witness != nil:
		return fmt.Sprintf("%s at depth %d (%d states stored): %s", line, len(r.Witness.Actions), r.Distinct, r.Witness.Detail)
	case r.BoundHit != "":
		return fmt.Sprintf("%s (bound: %s; %d states stored)", line, r.BoundHit, r.Distinct)
	}
	return fmt.Sprintf("%s (%d states stored)", line, r.Distinct)
}

// WriteWitness writes the trace found to dir as
// observe-OBSERVATION-UNIVERSE-depthD-TIE.json and returns its path; a
// search that found nothing has nothing to write and says so.
func (r *ObserveResult) WriteWitness(dir string) (string, error) {
	if r.Witness == nil {
		return "", errors.New("nothing observed to write")
	}
	return witnessfile.WriteNamed(dir, fmt.Sprintf("observe-%s-%s-depth%d-%s.json", r.Observation, r.Universe, r.Depth, r.Tie), r.Witness.JSON())
}
