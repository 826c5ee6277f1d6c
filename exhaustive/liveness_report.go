package exhaustive

import (
	"errors"
	"fmt"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/witnessfile"
)

// Line is one liveness run's verdict under tie t with the counts that make
// it non-vacuous. For no re-publish cycle: the roots, states and edges,
// the triggered publications, the states where the premise holds, and the
// cyclic components split by fairness and publication. For agreement: the
// states, the system and user steps, the states where devices are apart,
// those settled (and settled apart), and the cyclic components with the
// fair ones and those apart.
func (res *LivenessResult) Line(t model.TiePolicy) string {
	status := res.Status.String()
	if res.BoundHit != "" {
		status += " (bound: " + res.BoundHit + ")"
	}
	c := res.Cycles
	if res.Property == InvOverrideReaches {
		return fmt.Sprintf("agreement %s tie %s rules %s, at most %d user actions: %s; states %d, system steps %d, user steps %d, "+
			"states apart %d, settled %d (apart %d), cyclic components %d (fair %d, %d of them apart)",
			res.Universe, t, res.Rules, res.Depth, status, res.States, res.Edges, res.UserEdges,
			res.Pending, c.Stuck, c.StuckViolations, c.Cyclic, c.Fair, c.Violations)
	}
	return fmt.Sprintf("liveness %s tie %s rules %s depth %d: %s; roots %d, states %d, edges %d, triggered publications %d, "+
		"states with a message in flight and a publication enabled %d, cyclic components %d (unfair %d, %d of them publishing; fair %d, %d of them publishing)",
		res.Universe, t, res.Rules, res.Depth, status, res.Roots, res.States, res.Edges, res.Publications, res.Premise,
		c.Cyclic, c.Unfair, c.UnfairAccepting, c.Fair, c.Violations)
}

// Check is the name of the run's check: liveness (no re-publish cycle) or
// agreement.
func (res *LivenessResult) Check() string { return livenessChecks[res.Property] }

// WriteWitness writes the run's witness under tie t to dir as
// CHECK-UNIVERSE-depthD-TIE.json and returns its path; a run without a
// witness has nothing to write and says so.
func (res *LivenessResult) WriteWitness(dir string, t model.TiePolicy) (string, error) {
	if res.Witness == nil {
		return "", errors.New("a violation without a witness")
	}
	return witnessfile.WriteNamed(dir, fmt.Sprintf("%s-%s-depth%d-%s.json", res.Check(), res.Universe, res.Depth, t), res.Witness.JSON(t))
}
