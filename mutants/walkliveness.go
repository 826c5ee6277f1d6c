package mutants

import (
	"fmt"

	"github.com/nip-rs/harness/history"
)

// KindWalkLiveness is the walk's liveness check (history.Liveness): every
// walk ends, from every state the walk's universes reach, once members
// stop publishing.
const KindWalkLiveness = history.KindWalkLiveness

// CheckWalkLiveness is the walk's liveness check over the universes the
// walk's safety check explores (historyUniverses).
const CheckWalkLiveness = KindWalkLiveness + ":" + history.UniverseName

// walkLivenessChecks is the walk's liveness part of the suite.
func walkLivenessChecks() []Check {
	return []Check{{Name: CheckWalkLiveness, Kind: KindWalkLiveness, TieIndependent: true}}
}

// walkLiveness runs the walk's liveness check on the universes the walk's
// safety check explores under rules, in the same order; a mutant's run
// stops at its first lasso. Its Work is the graphs' states. A universe
// where no walk is ever in progress tested nothing: a setup failure,
// never a pass.
func (r *runner) walkLiveness(rules *history.Rules, m *Mutant) *Finding {
	f := &Finding{Depth: -1}
	for _, u := range historyUniverses(rules, m) {
		run := history.Liveness
		if m != nil {
			run = history.LivenessToFirst
		}
		res, err := run(u.Name, u.U, rules, r.opts.Workers)
		if err != nil {
			return setupFailure(err)
		}
		f.Work += int64(res.States)
		if w := res.Witness; w != nil {
			text, err := history.ReplayLasso(w, rules)
			if err != nil {
				return setupFailure(fmt.Errorf("%s: the lasso found does not replay: %w", u.Name, err))
			}
			f.Invariant, f.Detail, f.Depth = history.InvWalkEnds, u.Name+": "+w.Detail, len(w.Prefix)+len(w.Approach)+len(w.Loop)
			f.Witness = &Witness{Kind: KindWalkLiveness, JSON: w.JSON(rules.Name), Text: text}
			break
		}
	}
	return f
}
