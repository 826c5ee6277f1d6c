package exhaustive

import (
	"errors"
	"fmt"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/witnessfile"
)

// Line is one liveness run's verdict under tie t with the product
// graph's counts that make it non-vacuous: the roots, states and edges,
// the triggered publications, the states where the premise holds, and
// the cyclic components split by fairness and publication.
func (res *LivenessResult) Line(t model.TiePolicy) string {
	status := res.Status.String()
	if res.BoundHit != "" {
		status += " (bound: " + res.BoundHit + ")"
	}
	return fmt.Sprintf("liveness %s tie %s rules %s depth %d: %s; roots %d, states %d, edges %d, triggered publications %d, "+
		"states with a message in flight and a publication enabled %d, cyclic components %d (unfair %d, %d of them publishing; fair %d, %d of them publishing)",
		res.Universe, t, res.Rules, res.Depth, status, res.Roots, res.States, res.Edges, res.Publications, res.Premise,
		res.Components, res.Unfair, res.UnfairWithPublication, res.Fair, res.WithPublication)
}

// WriteWitness writes the run's lasso under tie t to dir as
// liveness-UNIVERSE-depthD-TIE.json and returns its path; a run without
// a lasso has nothing to write and says so.
func (res *LivenessResult) WriteWitness(dir string, t model.TiePolicy) (string, error) {
	if res.Witness == nil {
		return "", errors.New("a violation without a lasso")
	}
	return witnessfile.WriteNamed(dir, fmt.Sprintf("liveness-%s-depth%d-%s.json", res.Universe, res.Depth, t), res.Witness.JSON(t))
}
