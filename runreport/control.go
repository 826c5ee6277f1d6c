package runreport

import (
	"fmt"

	"github.com/nip-rs/harness/amendments"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/mutants"
	"github.com/nip-rs/harness/ruleset"
)

// Control sets the baseline of a gate run (the rule set its control runs
// and its mutants change) by name: proposed (the default, left as it
// is), spec, an amendment or a reading of the text. tl is the tie
// policies asked for and tieGiven whether they were asked for at all: an
// amendment that decides ties itself refuses another. Errors name what
// was wrong with the name or the ties (a *TieError for the ties); opts
// is unchanged then.
func Control(opts *mutants.Options, name string, tl []model.TiePolicy, tieGiven bool) error {
	a, isAmendment := amendments.Lookup(name)
	switch {
	case name == model.ProposedName:
	case name == "spec":
		// The text as written: the gate's findings under it are the
		// text's own holes (ERRATA.md), and its mutants change the text.
		opts.Ties, opts.BaselineName = tl, "spec"
		opts.Baseline = func(t model.TiePolicy) ruleset.Set { return ruleset.Spec().WithTie(t) }
	case !isAmendment:
		r, isReading := mutants.LookupReading(name)
		if !isReading {
			return fmt.Errorf("unknown rule set %q: proposed, spec, an amendment or a reading (see -list)", name)
		}
		// Another reading of a sentence of the text: the gate against it
		// says whether the mutants are still caught when a client reads
		// that sentence the other way.
		opts.Ties, opts.BaselineName = tl, r.Name
		opts.Baseline = func(t model.TiePolicy) ruleset.Set {
			s := ruleset.Proposed() // a reading of NIP-RS.md: the core's rules only
			s.Name, s.Model = r.Name, r.Rules().WithTie(t)
			return s
		}
	default:
		if a.Pinned && tieGiven && (len(tl) != 1 || tl[0] != a.Tie) {
			return &TieError{Amendment: a.Name, Tie: a.Tie}
		}
		opts.Ties, opts.Baseline, opts.BaselineName = a.Ties(tl), a.Set, a.Name
	}
	return nil
}

// TieError is a tie policy asked of an amendment that decides ties
// itself.
type TieError struct {
	Amendment string
	Tie       model.TiePolicy
}

func (e *TieError) Error() string {
	return fmt.Sprintf("amendment %s decides ties itself (%s)", e.Amendment, e.Tie)
}
