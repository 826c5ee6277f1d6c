package mutants

import (
	"fmt"

	"github.com/nip-rs/harness/history/community"
)

// KindCommunityLiveness is a liveness property of the community universes
// (community.Properties): once the environment stops, the member's own
// steps finish what it was given, under weak fairness.
const KindCommunityLiveness = community.KindLiveness

// CheckCommunityLiveness names the check of one community property.
func CheckCommunityLiveness(property string) string { return KindCommunityLiveness + ":" + property }

// communityLivenessChecks is one check per community property.
func communityLivenessChecks() []Check {
	var out []Check
	for _, p := range community.Properties() {
		out = append(out, Check{Name: CheckCommunityLiveness(p.Name), Kind: KindCommunityLiveness, Universe: p.Name, TieIndependent: true})
	}
	return out
}

// communityLiveness runs a community property under rules. Its Work is the
// states reached and the pending states walked. A run whose premise is
// never met could not tell anything: a setup failure, never a pass.
func (r *runner) communityLiveness(c Check, rules *community.Rules) *Finding {
	p, ok := community.PropertyNamed(c.Universe)
	if !ok {
		return setupFailure(fmt.Errorf("%s: no community liveness property %q", c.Name, c.Universe))
	}
	res, err := community.CheckLiveness(p, rules)
	if err != nil {
		return setupFailure(err)
	}
	f := &Finding{Work: int64(res.Roots + res.Pending), Depth: -1}
	if w := res.Witness; w != nil {
		text, err := community.ReplayLasso(p, w, rules)
		if err != nil {
			return setupFailure(fmt.Errorf("%s: the lasso found does not replay: %w", c.Name, err))
		}
		f.Invariant, f.Detail, f.Depth = community.InvariantOf(p.Name), w.Detail, len(w.Prefix)+len(w.Approach)+len(w.Loop)
		f.Witness = &Witness{Kind: KindCommunityLiveness, JSON: w.JSON(), Text: text}
	}
	return f
}
